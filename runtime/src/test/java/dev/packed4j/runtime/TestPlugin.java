package dev.packed4j.runtime;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** test_objects.cc, compiled against the loaded libpacked4j.so and loaded once per JVM. */
public final class TestPlugin {
  private TestPlugin() {}

  private static boolean loaded;

  /** Compiles and loads the plugin on first use. */
  public static synchronized void load() {
    if (loaded) {
      return;
    }
    TestLibraries.requireCore();
    try (InputStream in = TestPlugin.class.getResourceAsStream("test_objects.cc")) {
      String source = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      Path directory = Files.createTempDirectory("packed4j-test-plugin");
      Path library = TestLibraries.plugin(directory, "test_objects.cc", source, "libtest_objects.so");
      Packed4j.loadLibrary(library);
      loaded = true;
    } catch (IOException e) {
      fail("cannot build the test plugin: " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      fail("interrupted while building the test plugin");
    }
  }
}
