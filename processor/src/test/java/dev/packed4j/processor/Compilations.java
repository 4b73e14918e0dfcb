package dev.packed4j.processor;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import com.google.testing.compile.JavaFileObjects;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import javax.annotation.processing.Processor;
import javax.tools.JavaFileObject;

/**
 * Compiles test sources with the processor, under the {@linkplain TestCompiler#current() current test compiler} and
 * its strictest warnings, against the annotations and the runtime.
 */
final class Compilations {
  private Compilations() {}

  static Compilation compile(JavaFileObject... sources) {
    return compiler(new Packed4jProcessor()).compile(sources);
  }

  static Compiler compiler(Processor... processors) {
    return compiler(List.of(), processors);
  }

  /** A compiler with the strictest options and {@code extraOptions}, running {@code processors}. */
  static Compiler compiler(List<String> extraOptions, Processor... processors) {
    TestCompiler current = TestCompiler.current();
    return current
        .base()
        .withProcessors(processors)
        .withOptions(current.options(extraOptions.toArray(String[]::new)))
        .withClasspath(testClasspath());
  }

  /** A compiler whose class path lacks the entries whose path contains {@code excluded}. */
  static Compiler compilerWithout(String excluded) {
    TestCompiler current = TestCompiler.current();
    return current
        .base()
        .withProcessors(new Packed4jProcessor())
        .withOptions(current.strictOptions())
        .withClasspath(testClasspath().stream().filter(f -> !f.getPath().contains(excluded)).toList());
  }

  /** Where {@link #source} writes the test sources, each in a directory of its own. */
  private static final Path SOURCES = Path.of("target", "compile-test-sources");

  private static final AtomicInteger SOURCE_COUNT = new AtomicInteger();

  /**
   * A source file for the top-level type {@code qualifiedName}, from its code. It is written to a file: ECJ names
   * a diagnostic's source by the file on disk (and reports none for an in-memory source), so only a real file lets a
   * test check the position of a diagnostic under both compilers.
   */
  static JavaFileObject source(String qualifiedName, String code) {
    Path file =
        SOURCES
            .resolve(Integer.toString(SOURCE_COUNT.incrementAndGet()))
            .resolve(qualifiedName.replace('.', '/') + ".java")
            .toAbsolutePath();
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, code);
      return JavaFileObjects.forResource(file.toUri().toURL());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the test source " + file, e);
    }
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
