package dev.packed4j.runtime.internal.capi;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the ELF header and program headers of a library before it is opened, so a wrong file gets a precise
 * message (the dynamic loader's is terse and, for a file it cannot map, sometimes misleading).
 *
 * <p>The program headers matter most: the loader maps each segment's file range and then reads it (relocations,
 * the dynamic section). A segment that reaches past the end of a truncated file is mapped without complaint, and
 * the first read of its missing pages is a SIGBUS that ends the JVM. Checking every segment's file range against
 * the file's size first turns that into a LoadError.
 */
final class ElfCheck {
  private ElfCheck() {}

  private static final int ET_REL = 1;
  private static final int ET_EXEC = 2;
  private static final int ET_DYN = 3;
  private static final int EM_X86_64 = 62;
  private static final int ELF64_HEADER_SIZE = 64;
  private static final int ELF64_PROGRAM_HEADER_SIZE = 56;
  private static final int PT_LOAD = 1;
  private static final int PT_DYNAMIC = 2;
  /** More program headers than any real library has (a handful to a few dozen); a larger count is damage. */
  private static final int MAX_PROGRAM_HEADERS = 4096;

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
    try (FileChannel file = FileChannel.open(path, StandardOpenOption.READ)) {
      return problem(file);
    } catch (IOException e) {
      return "cannot read the file: " + e.getMessage();
    }
  }

  private static String problem(FileChannel file) throws IOException {
    long size = file.size();
    ByteBuffer header = read(file, 0, ELF64_HEADER_SIZE);
    int read = header.limit();
    if (read < 4 || header.get(0) != 0x7f || header.get(1) != 'E' || header.get(2) != 'L' || header.get(3) != 'F') {
      return "not a shared library (the file has no ELF header): pass the .so file the native build produced";
    }
    if (read < 20) {
      return "not a shared library (the ELF header is truncated)";
    }
    if (header.get(4) != 2) {
      return "a 32-bit ELF file: packed4j needs a 64-bit linux-x86_64 shared library; rebuild it for x86_64";
    }
    if (header.get(5) != 1) {
      return "a big-endian ELF file: packed4j needs a linux-x86_64 shared library; rebuild it for x86_64";
    }
    int type = Short.toUnsignedInt(header.getShort(16));
    int machine = Short.toUnsignedInt(header.getShort(18));
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
    if (read < ELF64_HEADER_SIZE) {
      return damaged(size, "its ELF header needs " + ELF64_HEADER_SIZE + " bytes");
    }
    return segmentProblem(file, size, header);
  }

  /** Whether every segment the loader maps lies inside the file; the message when one does not. */
  private static String segmentProblem(FileChannel file, long size, ByteBuffer header) throws IOException {
    long tableOffset = header.getLong(32);
    int entrySize = Short.toUnsignedInt(header.getShort(54));
    int count = Short.toUnsignedInt(header.getShort(56));
    if (count == 0 || count > MAX_PROGRAM_HEADERS || entrySize != ELF64_PROGRAM_HEADER_SIZE) {
      return damaged(size, "its ELF header describes " + count + " program headers of " + entrySize
          + " bytes each, where a linux-x86_64 library has at least one of " + ELF64_PROGRAM_HEADER_SIZE);
    }
    long tableSize = (long) count * entrySize;
    if (tableOffset < 0 || tableOffset > size - tableSize) {
      return damaged(size, "its program headers need bytes " + Long.toUnsignedString(tableOffset) + " to "
          + Long.toUnsignedString(tableOffset + tableSize));
    }
    ByteBuffer table = read(file, tableOffset, (int) tableSize);
    if (table.limit() < tableSize) {
      return damaged(size, "its program headers could not be read in full");
    }
    boolean loadable = false;
    for (int index = 0; index < count; index++) {
      int base = index * entrySize;
      int segmentType = table.getInt(base);
      long offset = table.getLong(base + 8);
      long fileSize = table.getLong(base + 32);
      long memorySize = table.getLong(base + 40);
      if (segmentType == PT_LOAD) {
        loadable = true;
        if (Long.compareUnsigned(fileSize, memorySize) > 0) {
          return damaged(size, "its LOAD segment " + index + " holds more bytes in the file ("
              + Long.toUnsignedString(fileSize) + ") than in memory (" + Long.toUnsignedString(memorySize) + ")");
        }
      }
      // The loader maps LOAD segments and reads DYNAMIC; other segments with file bytes (notes, the
      // interpreter name, exception tables) lie inside LOAD ones in a sound file, so checking them all costs
      // nothing and catches a damaged table too.
      if (fileSize != 0 && (offset < 0 || fileSize < 0 || offset > size - fileSize)) {
        return damaged(size, "its " + segmentName(segmentType) + " segment " + index + " needs bytes "
            + Long.toUnsignedString(offset) + " to " + Long.toUnsignedString(offset + fileSize));
      }
    }
    if (!loadable) {
      return damaged(size, "it has no LOAD segment, so there is nothing the loader could map");
    }
    return null;
  }

  private static final int DT_NULL = 0;
  private static final int DT_NEEDED = 1;
  private static final int DT_STRTAB = 5;
  private static final int DT_STRSZ = 10;
  private static final int DT_SONAME = 14;
  private static final int ELF64_DYNAMIC_ENTRY_SIZE = 16;

  /**
   * What a shared library's dynamic section says about its name and dependencies.
   *
   * @param needed the file names it lists as dependencies ({@code DT_NEEDED}: {@code libhelper.so.1}), in order
   * @param soname its own name ({@code DT_SONAME}), which the loader matches a dependent's {@code needed} against;
   *     empty when it has none
   */
  record Dynamic(List<String> needed, String soname) {
    static final Dynamic NONE = new Dynamic(List.of(), "");
  }

  /** {@link #dynamic(ByteBuffer)} of a file, mapped rather than read; {@link Dynamic#NONE} when unreadable. */
  static Dynamic dynamic(Path path) {
    try (FileChannel file = FileChannel.open(path, StandardOpenOption.READ)) {
      return dynamic(file.map(FileChannel.MapMode.READ_ONLY, 0, file.size()));
    } catch (IOException | RuntimeException unreadable) {
      return Dynamic.NONE; // problem() says what is wrong with it
    }
  }

  /** A LOAD segment: where its bytes are in the file, and at which virtual address they are mapped. */
  private record Segment(long fileOffset, long address, long fileSize) {}

  /**
   * The dependencies and SONAME of a linux-x86_64 shared library; {@link Dynamic#NONE} for any file that is not a
   * sound one ({@link #problem} says what is wrong with it). The dynamic section holds the names as offsets into its
   * string table, which it locates by a virtual address: the LOAD segment containing that address gives its place in
   * the file. A name is kept only when it is a plain file name ({@link #isPlainName}).
   *
   * @param elf the whole file, from position 0
   */
  static Dynamic dynamic(ByteBuffer elf) {
    ByteBuffer file = elf.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    try {
      if (file.limit() < ELF64_HEADER_SIZE || file.getInt(0) != 0x464c457f || file.get(4) != 2 || file.get(5) != 1
          || Short.toUnsignedInt(file.getShort(16)) != ET_DYN
          || Short.toUnsignedInt(file.getShort(18)) != EM_X86_64
          || Short.toUnsignedInt(file.getShort(54)) != ELF64_PROGRAM_HEADER_SIZE) {
        return Dynamic.NONE;
      }
      long tableOffset = file.getLong(32);
      int count = Short.toUnsignedInt(file.getShort(56));
      List<Segment> loads = new ArrayList<>();
      long dynamicOffset = -1;
      long dynamicSize = 0;
      for (int index = 0; index < count; index++) {
        int base = Math.toIntExact(Math.addExact(tableOffset, (long) index * ELF64_PROGRAM_HEADER_SIZE));
        int type = file.getInt(base);
        if (type == PT_LOAD) {
          loads.add(new Segment(file.getLong(base + 8), file.getLong(base + 16), file.getLong(base + 32)));
        } else if (type == PT_DYNAMIC) {
          dynamicOffset = file.getLong(base + 8);
          dynamicSize = file.getLong(base + 32);
        }
      }
      if (dynamicOffset < 0) {
        return Dynamic.NONE;
      }
      long stringsAddress = -1;
      long stringsSize = 0;
      long soname = -1;
      List<Long> neededOffsets = new ArrayList<>();
      for (long entry = 0; entry + ELF64_DYNAMIC_ENTRY_SIZE <= dynamicSize; entry += ELF64_DYNAMIC_ENTRY_SIZE) {
        int at = Math.toIntExact(Math.addExact(dynamicOffset, entry));
        long tag = file.getLong(at);
        long value = file.getLong(at + 8);
        if (tag == DT_NULL) {
          break;
        } else if (tag == DT_NEEDED) {
          neededOffsets.add(value);
        } else if (tag == DT_SONAME) {
          soname = value;
        } else if (tag == DT_STRTAB) {
          stringsAddress = value;
        } else if (tag == DT_STRSZ) {
          stringsSize = value;
        }
      }
      long strings = -1;
      for (Segment load : loads) {
        if (Long.compareUnsigned(stringsAddress - load.address(), load.fileSize()) < 0) {
          strings = Math.addExact(load.fileOffset(), stringsAddress - load.address());
        }
      }
      if (strings < 0 || stringsSize <= 0 || strings > file.limit() - stringsSize) {
        return Dynamic.NONE;
      }
      List<String> needed = new ArrayList<>();
      for (long offset : neededOffsets) {
        String name = string(file, strings, stringsSize, offset);
        if (isPlainName(name)) {
          needed.add(name);
        }
      }
      String own = soname < 0 ? "" : string(file, strings, stringsSize, soname);
      return new Dynamic(List.copyOf(needed), isPlainName(own) ? own : "");
    } catch (IndexOutOfBoundsException | ArithmeticException damaged) {
      return Dynamic.NONE; // a table or string that lies outside the file
    }
  }

  /** The NUL-terminated string at {@code offset} of the string table, bounded by the table; "" when out of it. */
  private static String string(ByteBuffer file, long strings, long stringsSize, long offset) {
    if (offset < 0 || offset >= stringsSize) {
      return "";
    }
    int start = Math.toIntExact(strings + offset);
    int limit = Math.toIntExact(strings + stringsSize);
    int end = start;
    while (end < limit && file.get(end) != 0) {
      end++;
    }
    byte[] bytes = new byte[end - start];
    file.get(start, bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  /**
   * Whether a dependency's name is a plain library file name, one that resolves only beside the library: no path, no
   * leading dot, the characters of a file name CMake or a linker makes ({@code libhelper.so.1}).
   */
  static boolean isPlainName(String name) {
    return !name.isEmpty() && !name.startsWith(".") && name.matches("[A-Za-z0-9_.+-]+");
  }

  private static String damaged(long size, String what) {
    return "the file is truncated or damaged: " + what + ", but the file has " + size + " bytes. "
        + "Rebuild the library, or copy it again if a copy was cut short";
  }

  private static String segmentName(int type) {
    return switch (type) {
      case PT_LOAD -> "LOAD";
      case PT_DYNAMIC -> "DYNAMIC";
      default -> "type-" + Integer.toUnsignedString(type);
    };
  }

  /** Up to {@code length} bytes at {@code position}, little-endian; fewer at the end of the file. */
  private static ByteBuffer read(FileChannel file, long position, int length) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
    while (buffer.hasRemaining()) {
      int count = file.read(buffer, position + buffer.position());
      if (count < 0) {
        break;
      }
    }
    return buffer.flip();
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
