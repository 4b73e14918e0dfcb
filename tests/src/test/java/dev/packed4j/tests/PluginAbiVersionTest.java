package dev.packed4j.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.Packed4jException;
import dev.packed4j.runtime.Registry;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A plugin compiled against packed4j headers whose typed entries and layouts the core cannot read (another major
 * version, or a newer minor one) is refused when it is loaded, with a LoadError naming it and both versions; nothing
 * of it is registered, and the JVM and the other plugins carry on (issue 27). The plugins are tests/native's
 * abi_plugin.cc, built to claim another version.
 */
class PluginAbiVersionTest {
  private static Values values;
  private static int coreMajor;
  private static int coreMinor;

  @BeforeAll
  static void load() {
    TestLibrary.load();
    values = Packed4j.bind(Values.class);
    coreMajor = Packed4j.abiVersion() >>> 16;
    coreMinor = Packed4j.abiVersion() & 0xffff;
  }

  private static Path plugin(String claim) {
    Path library = Path.of(System.getProperty("packed4j.test.abiPluginDirectory"), "libp4jabi" + claim + ".so");
    assertTrue(Files.isRegularFile(library), "test plugin not built: " + library);
    return library;
  }

  private static void assertRefused(String claim, String pluginVersion, String reason) {
    Path library = plugin(claim);
    Packed4jException refused = assertThrows(Packed4jException.class, () -> Packed4j.loadLibrary(library));
    assertEquals("LoadError", refused.kind());
    String message = refused.getMessage();
    assertTrue(message.contains("ABI version mismatch: plugin library " + library.toAbsolutePath().normalize()
        + " was compiled against packed4j headers of ABI " + pluginVersion + ", and libpacked4j.so ("), message);
    assertTrue(message.contains(") has ABI " + coreMajor + "." + coreMinor + " (" + reason), message);
    assertTrue(message.contains("rebuild the plugin against the headers of this libpacked4j.so"), message);

    assertTrue(Registry.find("test.abi." + claim + ".Answer").isEmpty(), "a refused plugin registers nothing");
    assertTrue(Registry.objectType("test.abi." + claim + ".Thing").isEmpty(), "nor its object types");
    Packed4jException again = assertThrows(Packed4jException.class, () -> Packed4j.loadLibrary(library));
    assertEquals(message, again.getMessage(), "loading it again reports the same refusal");

    // The JVM and the plugins already loaded carry on, and another plugin still loads (not tests/native's late
    // plugin: StressTest counts what its first load registers).
    assertEquals(7L, values.echoLong(7L));
    Packed4j.loadLibrary(plugin("older"));
    assertEquals(43L, Registry.global("test.abi.older.Answer").invoke(1L));
  }

  @Test
  void aPluginOfANewerMinorVersionIsRefusedNamingItAndBothVersions() {
    assertRefused("newer", coreMajor + "." + (coreMinor + 1), "a newer minor version");
  }

  @Test
  void aPluginOfAnotherMajorVersionIsRefusedNamingItAndBothVersions() {
    assertRefused("major", (coreMajor + 1) + ".0", "another major version");
  }

  @Test
  void aPluginOfAnOlderMinorVersionIsRegistered() {
    Packed4j.loadLibrary(plugin("older"));
    assertEquals(43L, Registry.global("test.abi.older.Answer").invoke(1L));
    long claimed = coreMinor > 0 ? Packed4j.abiVersion() - 1 : Packed4j.abiVersion();
    assertEquals(claimed, Registry.global("test.abi.older.Version").invoke());
    assertTrue(Registry.objectType("test.abi.older.Thing").isPresent());
  }
}
