package dev.packed4j.runtime.internal.capi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.TestLibraries;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** ElfCheck's reading of a library's dependencies and SONAME, which decides what is loaded beside a plugin. */
class ElfCheckTest {
  @Test
  void theCoresDependenciesAndSonameAreRead() throws Exception {
    byte[] core = Files.readAllBytes(TestLibraries.coreFile());
    ElfCheck.Dynamic dynamic = ElfCheck.dynamic(ByteBuffer.wrap(core));
    assertEquals("libpacked4j.so", dynamic.soname());
    assertTrue(dynamic.needed().contains("libstdc++.so.6"), dynamic.needed().toString());
    assertEquals(dynamic, ElfCheck.dynamic(TestLibraries.coreFile()), "the mapped file reads the same");
  }

  @Test
  void aDamagedFileReadsAsNoDependenciesNeverAsAnException() throws Exception {
    byte[] core = Files.readAllBytes(TestLibraries.coreFile());
    // Cut short anywhere (the dynamic section and its strings lie near the start or the end of the file).
    for (int length = 0; length < core.length; length += length < 16_384 ? 61 : 4_099) {
      ElfCheck.Dynamic dynamic = ElfCheck.dynamic(ByteBuffer.wrap(Arrays.copyOf(core, length)));
      dynamic.needed().forEach(name -> assertTrue(ElfCheck.isPlainName(name), name));
    }
    // Bytes flipped in the headers and tables: every name read stays a plain file name.
    Random random = new Random(20261128);
    for (int round = 0; round < 2_000; round++) {
      byte[] damaged = core.clone();
      for (int flips = 0; flips < 4; flips++) {
        damaged[random.nextInt(4_096)] = (byte) random.nextInt(256);
      }
      ElfCheck.Dynamic dynamic = ElfCheck.dynamic(ByteBuffer.wrap(damaged));
      dynamic.needed().forEach(name -> assertTrue(ElfCheck.isPlainName(name), name));
      assertTrue(dynamic.soname().isEmpty() || ElfCheck.isPlainName(dynamic.soname()), dynamic.soname());
    }
  }

  @Test
  void onlyPlainFileNamesAreDependencies() {
    assertTrue(ElfCheck.isPlainName("libhelper.so.1"));
    assertTrue(ElfCheck.isPlainName("libstdc++.so.6"));
    for (String name : new String[] {"..", ".hidden.so", "../libx.so", "/lib/libx.so", "", "lib x.so"}) {
      assertFalse(ElfCheck.isPlainName(name), name);
    }
  }
}
