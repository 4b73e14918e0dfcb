package dev.packed4j.runtime.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads the ELF header of a library before it is opened, so a wrong file gets a precise message (the dynamic
 * loader's is terse and, for a file it cannot map, sometimes misleading).
 */
final class ElfCheck {
  private ElfCheck() {}

  private static final int ET_REL = 1;
  private static final int ET_EXEC = 2;
  private static final int ET_DYN = 3;
  private static final int EM_X86_64 = 62;

  /** What is wrong with the file as a linux-x86_64 shared library, or null when nothing is. */
  static String problem(Path path) {
    if (!Files.exists(path)) {
      return "no such file: check the path, and build the library first";
    }
    if (!Files.isRegularFile(path)) {
      return "not a regular file: pass the path of the .so file itself";
    }
    if (!Files.isReadable(path)) {
      return "the file is not readable by this process: check its permissions";
    }
    byte[] header = new byte[20];
    int read;
    try (InputStream in = Files.newInputStream(path)) {
      read = in.readNBytes(header, 0, header.length);
    } catch (IOException e) {
      return "cannot read the file: " + e.getMessage();
    }
    if (read < 4 || header[0] != 0x7f || header[1] != 'E' || header[2] != 'L' || header[3] != 'F') {
      return "not a shared library (the file has no ELF header): pass the .so file the native build produced";
    }
    if (read < header.length) {
      return "not a shared library (the ELF header is truncated)";
    }
    if (header[4] != 2) {
      return "a 32-bit ELF file: packed4j needs a 64-bit linux-x86_64 shared library; rebuild it for x86_64";
    }
    if (header[5] != 1) {
      return "a big-endian ELF file: packed4j needs a linux-x86_64 shared library; rebuild it for x86_64";
    }
    int type = (header[16] & 0xff) | (header[17] & 0xff) << 8;
    int machine = (header[18] & 0xff) | (header[19] & 0xff) << 8;
    if (machine != EM_X86_64) {
      return "built for another architecture (" + machineName(machine) + ", ELF machine " + machine
          + "), but this JVM runs on x86_64: rebuild the library for x86_64";
    }
    if (type == ET_REL) {
      return "an object file (.o), not a shared library: link it into a SHARED library (add_library(... SHARED ...))";
    }
    if (type == ET_EXEC) {
      return "an executable, not a shared library: build it with add_library(... SHARED ...)";
    }
    if (type != ET_DYN) {
      return "not a shared library (ELF type " + type + ")";
    }
    return null;
  }

  private static String machineName(int machine) {
    return switch (machine) {
      case 3 -> "i386";
      case 40 -> "arm";
      case 183 -> "aarch64";
      case 243 -> "riscv";
      case 21 -> "ppc64";
      case 22 -> "s390";
      default -> "unknown";
    };
  }
}
