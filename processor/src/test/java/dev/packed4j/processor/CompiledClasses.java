package dev.packed4j.processor;

import com.google.testing.compile.Compilation;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import javax.tools.JavaFileObject;

/** Defines the classes a compilation wrote, from memory, so tests can inspect what was generated. */
final class CompiledClasses extends ClassLoader {
  private static final String OUTPUT = "/CLASS_OUTPUT/";
  private final Map<String, byte[]> classes = new HashMap<>();

  CompiledClasses(Compilation compilation) {
    super(CompiledClasses.class.getClassLoader());
    for (JavaFileObject file : compilation.generatedFiles()) {
      if (file.getKind() != JavaFileObject.Kind.CLASS) {
        continue;
      }
      String path = file.toUri().getPath();
      String name =
          path.substring(path.indexOf(OUTPUT) + OUTPUT.length(), path.length() - ".class".length())
              .replace('/', '.');
      try (InputStream in = file.openInputStream()) {
        classes.put(name, in.readAllBytes());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** The class without initialising it: its static initialiser would look for the native library. */
  Class<?> load(String name) throws ClassNotFoundException {
    return Class.forName(name, false, this);
  }

  @Override
  protected Class<?> findClass(String name) throws ClassNotFoundException {
    byte[] bytes = classes.get(name);
    if (bytes == null) {
      throw new ClassNotFoundException(name);
    }
    return defineClass(name, bytes, 0, bytes.length);
  }
}
