package dev.packed4j.tests;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import com.google.testing.compile.JavaFileObjects;
import dev.packed4j.processor.Packed4jProcessor;
import dev.packed4j.runtime.Packed4j;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.Map;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Compiles an annotated interface with the processor in this JVM, loads the generated class and calls the real test
 * plugin through it: the processor's output is exercised, not only compiled.
 */
class CompileAndRunTest {
  @BeforeAll
  static void load() {
    TestLibrary.load();
  }

  @Test
  void generatedBindingCallsTheNativeFunctions() throws Exception {
    JavaFileObject source = JavaFileObjects.forSourceLines("demo.Echo",
        "package demo;",
        "import dev.packed4j.annotations.Global;",
        "import java.util.List;",
        "public interface Echo {",
        "  @Global(\"test.EchoInt64\") long echo(long value);",
        "  @Global(\"test.EchoString\") String echo(String value);",
        "  @Global(\"test.SumInt64List\") long sum(List<Long> values);",
        "}");
    Compilation compilation = Compiler.javac()
        .withProcessors(new Packed4jProcessor())
        .withOptions("-Xlint:all", "-Werror")
        .compile(source);
    assertThat(compilation).succeededWithoutWarnings();
    assertThat(compilation).generatedSourceFile("demo.Packed4j_Echo");

    ClassLoader loader = new CompiledClassLoader(compilation, getClass().getClassLoader());
    Class<?> iface = loader.loadClass("demo.Echo");
    Object echo = Packed4j.bind(iface);
    Method echoLong = iface.getMethod("echo", long.class);
    Method echoString = iface.getMethod("echo", String.class);
    Method sum = iface.getMethod("sum", java.util.List.class);
    assertEquals(-5L, echoLong.invoke(echo, -5L));
    assertEquals("h\u00e9llo\u0000", echoString.invoke(echo, "h\u00e9llo\u0000"));
    assertEquals(6L, sum.invoke(echo, java.util.List.of(1L, 2L, 3L)));
  }

  /** Defines the classes of a compilation from memory. */
  private static final class CompiledClassLoader extends ClassLoader {
    private final Map<String, byte[]> classes = new HashMap<>();

    CompiledClassLoader(Compilation compilation, ClassLoader parent) {
      super(parent);
      for (JavaFileObject file : compilation.generatedFiles()) {
        if (file.getKind() != JavaFileObject.Kind.CLASS) {
          continue;
        }
        String path = file.toUri().getPath();
        String name = path.substring(path.indexOf("/CLASS_OUTPUT/") + "/CLASS_OUTPUT/".length(),
            path.length() - ".class".length()).replace('/', '.');
        try (InputStream in = file.openInputStream()) {
          classes.put(name, in.readAllBytes());
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
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
}
