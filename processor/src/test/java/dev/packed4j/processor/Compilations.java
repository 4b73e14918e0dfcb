package dev.packed4j.processor;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import com.google.testing.compile.JavaFileObjects;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import javax.annotation.processing.Processor;
import javax.tools.JavaFileObject;

/** Compiles test sources with the processor, all lint on, against the annotations and the runtime. */
final class Compilations {
  private Compilations() {}

  static Compilation compile(JavaFileObject... sources) {
    return compiler(new Packed4jProcessor()).compile(sources);
  }

  static Compiler compiler(Processor... processors) {
    return Compiler.javac()
        .withProcessors(processors)
        .withOptions("-Xlint:all")
        .withClasspath(testClasspath());
  }

  /** A compiler whose class path lacks the entries whose path contains {@code excluded}. */
  static Compiler compilerWithout(String excluded) {
    return Compiler.javac()
        .withProcessors(new Packed4jProcessor())
        .withOptions("-Xlint:all")
        .withClasspath(testClasspath().stream().filter(f -> !f.getPath().contains(excluded)).toList());
  }

  /** A source file for the top-level type {@code qualifiedName}, from its code. */
  static JavaFileObject source(String qualifiedName, String code) {
    return JavaFileObjects.forSourceString(qualifiedName, code);
  }

  /** The test class path: the annotations, the runtime (for generated code) and the JDK's own modules. */
  private static List<File> testClasspath() {
    List<File> files = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      if (!entry.isEmpty()) {
        files.add(new File(entry));
      }
    }
    return files;
  }
}
