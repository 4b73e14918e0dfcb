package dev.packed4j.tests;

import dev.packed4j.runtime.Packed4j;
import java.nio.file.Files;
import java.nio.file.Path;

/** Loads the test plugin (tests/native) once per JVM, and settles the live object count tests compare against. */
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

  /**
   * The live native object count once the Cleaner has released what earlier tests left unreachable: collects until
   * the count stays the same for ten rounds in a row (or a minute passes).
   */
  static long settledLiveObjectCount() throws InterruptedException {
    long deadline = System.nanoTime() + 60_000_000_000L;
    long last = Packed4j.liveObjectCount();
    int unchangedRounds = 0;
    while (unchangedRounds < 10 && System.nanoTime() < deadline) {
      System.gc();
      Thread.sleep(20);
      long now = Packed4j.liveObjectCount();
      unchangedRounds = now == last ? unchangedRounds + 1 : 0;
      last = now;
    }
    return last;
  }
}
