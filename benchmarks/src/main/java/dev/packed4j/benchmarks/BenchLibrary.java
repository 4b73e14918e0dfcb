package dev.packed4j.benchmarks;

import dev.packed4j.runtime.Packed4j;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The benchmark plugin (benchmarks/native, {@code libp4jbench.so}), named by the system property
 * {@value #PROPERTY}. Raw FFM, JNI and JNA load the same file, so every binding calls the same C++ functions.
 */
final class BenchLibrary {
  static final String PROPERTY = "packed4j.bench.library";

  private static boolean registered;

  private BenchLibrary() {}

  /** The plugin's path; fails with the command to use when the property is missing or the file is not built. */
  static Path path() {
    String property = System.getProperty(PROPERTY);
    if (property == null) {
      throw new IllegalStateException(PROPERTY + " is not set: run the benchmarks with `mvn -f benchmarks/pom.xml"
          + " verify -Pbench` or pass -D" + PROPERTY + "=<path to libp4jbench.so> (docs/benchmarks.md)");
    }
    Path library = Path.of(property).toAbsolutePath();
    if (!Files.isRegularFile(library)) {
      throw new IllegalStateException("benchmark plugin not built: " + library);
    }
    return library;
  }

  /** Loads the plugin into packed4j's registry, once per JVM, and returns the generated binding. */
  static synchronized BenchFunctions bind() {
    if (!registered) {
      Packed4j.loadLibrary(path());
      registered = true;
    }
    return Packed4j.bind(BenchFunctions.class);
  }
}
