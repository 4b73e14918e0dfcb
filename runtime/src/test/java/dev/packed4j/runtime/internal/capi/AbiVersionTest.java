package dev.packed4j.runtime.internal.capi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** The ABI version rule: the same major version, and a minor version at least the bindings' own. */
class AbiVersionTest {
  private static int version(int major, int minor) {
    return major << 16 | minor;
  }

  @Test
  void aCoreOfTheSameMajorAndANewerOrEqualMinorIsAccepted() {
    int major = CApi.P4J_ABI_VERSION_MAJOR;
    int minor = CApi.P4J_ABI_VERSION_MINOR;
    assertEquals(version(major, minor), CApi.P4J_ABI_VERSION);
    assertNull(NativeLibraries.abiMismatch(version(major, minor)));
    assertNull(NativeLibraries.abiMismatch(version(major, minor + 1)), "a minor release only adds");
    assertNull(NativeLibraries.abiMismatch(version(major, 0xffff)));
  }

  @Test
  void anotherMajorOrAnOlderMinorIsRefusedWithWhy() {
    int major = CApi.P4J_ABI_VERSION_MAJOR;
    assertEquals("another major version", NativeLibraries.abiMismatch(version(major - 1, 0)));
    assertEquals("another major version", NativeLibraries.abiMismatch(version(major + 1, 0)));
    assertEquals("another major version", NativeLibraries.abiMismatch(1));
    if (CApi.P4J_ABI_VERSION_MINOR > 0) {
      assertEquals("an older minor version, without what the runtime uses",
          NativeLibraries.abiMismatch(version(major, CApi.P4J_ABI_VERSION_MINOR - 1)));
    }
    assertEquals("2.0", NativeLibraries.abiVersionString(version(2, 0)));
    assertEquals("1.3", NativeLibraries.abiVersionString(version(1, 3)));
  }
}
