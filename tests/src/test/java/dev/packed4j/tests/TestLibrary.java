package dev.packed4j.tests;

import dev.packed4j.runtime.Packed4j;
import java.nio.file.Files;
import java.nio.file.Path;

/** Loads the test plugin (tests/native) once per JVM. */
final class TestLibrary {
  private static boolean loaded;

  private TestLibrary() {}

  static synchronized void load() {
    if (loaded) {
      return;
    }
    String property = System.getProperty("packed4j.test.library");
    if (property == null) {
      throw new IllegalStateException("packed4j.test.library is not set; run the tests through Maven");
    }
    Path library = Path.of(property);
    if (!Files.isRegularFile(library)) {
      throw new IllegalStateException("test plugin not built: " + library);
    }
    Packed4j.loadLibrary(library);
    loaded = true;
  }
}
