package dev.packed4j.runtime.internal.capi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Reads and writes native memory at absolute addresses.
 *
 * <p>Every native address the runtime handles (object handles, cells, the per-thread argument stack) is a
 * {@code long}. Going through one segment that spans the whole address space keeps those accesses free of
 * allocation: no {@link MemorySegment} is created per read. The unaligned layouts skip an alignment check that
 * would only reject addresses native code chose (field offsets come from C++ metadata).
 */
public final class NativeMemory {
  private NativeMemory() {}

  /** The whole address space; the offset of an access is the absolute address. */
  @SuppressWarnings("restricted") // the one unbounded segment; every address read comes from native metadata
  public static final MemorySegment ALL = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);

  public static int getInt(long address) {
    return ALL.get(ValueLayout.JAVA_INT_UNALIGNED, address);
  }

  public static long getLong(long address) {
    return ALL.get(ValueLayout.JAVA_LONG_UNALIGNED, address);
  }

  public static double getDouble(long address) {
    return ALL.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, address);
  }

  public static byte getByte(long address) {
    return ALL.get(ValueLayout.JAVA_BYTE, address);
  }

  public static void putInt(long address, int value) {
    ALL.set(ValueLayout.JAVA_INT_UNALIGNED, address, value);
  }

  public static void putLong(long address, long value) {
    ALL.set(ValueLayout.JAVA_LONG_UNALIGNED, address, value);
  }

  public static void putDouble(long address, double value) {
    ALL.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, address, value);
  }

  public static void putByte(long address, byte value) {
    ALL.set(ValueLayout.JAVA_BYTE, address, value);
  }

  // ---- P4JAny at an address ----

  public static int anyTypeIndex(long any) {
    return getInt(any + P4JAny.TYPE_INDEX);
  }

  public static long anyPayload(long any) {
    return getLong(any + P4JAny.PAYLOAD);
  }

  public static double anyDouble(long any) {
    return getDouble(any + P4JAny.PAYLOAD);
  }

  /** Writes a P4JAny: type index, small length and a 64-bit payload. */
  public static void putAny(long any, int typeIndex, int smallLength, long payload) {
    putLong(any + P4JAny.TYPE_INDEX, anyHeader(typeIndex, smallLength));
    putLong(any + P4JAny.PAYLOAD, payload);
  }

  /** Writes a P4JAny holding a double. */
  public static void putAnyDouble(long any, int typeIndex, double payload) {
    putLong(any + P4JAny.TYPE_INDEX, anyHeader(typeIndex, 0));
    putDouble(any + P4JAny.PAYLOAD, payload);
  }

  /**
   * The first 8 bytes of a P4JAny, {@code int32 type_index} then {@code uint32 small_len}, as one little-endian
   * long (the runtime's only platform is linux-x86_64): one store instead of two, so a callee that copies the
   * value reads it from two stores, not three.
   */
  private static long anyHeader(int typeIndex, int smallLength) {
    assert P4JAny.SMALL_LEN == P4JAny.TYPE_INDEX + 4 && ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
    return Integer.toUnsignedLong(typeIndex) | (long) smallLength << 32;
  }

  // ---- objects ----

  /** The type index in the header of the object at {@code handle}. */
  public static int objectTypeIndex(long handle) {
    return getInt(handle + P4JObject.TYPE_INDEX);
  }

  /** The address of a built-in object's cell. */
  public static long cell(long handle) {
    return handle + P4JObject.SIZE;
  }

  // ---- byte spans ----

  /** Copies the bytes of the {@code P4JByteArray} at {@code span} into a new array. */
  public static byte[] spanBytes(long span) {
    long data = getLong(span + P4JByteArray.DATA);
    long size = getLong(span + P4JByteArray.BYTE_SIZE);
    return copyBytes(data, size);
  }

  /** Decodes the UTF-8 {@code P4JByteArray} at {@code span}, keeping embedded NULs. */
  public static String spanString(long span) {
    return new String(spanBytes(span), StandardCharsets.UTF_8);
  }

  /** Copies {@code size} bytes at {@code data} into a new array. */
  public static byte[] copyBytes(long data, long size) {
    if (size < 0 || size > Integer.MAX_VALUE - 8) {
      throw new IllegalStateException("a native span of " + size + " bytes does not fit in a Java array");
    }
    byte[] bytes = new byte[(int) size];
    if (size > 0) {
      MemorySegment.copy(ALL, ValueLayout.JAVA_BYTE, data, bytes, 0, (int) size);
    }
    return bytes;
  }
}
