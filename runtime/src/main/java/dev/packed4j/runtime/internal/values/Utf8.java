package dev.packed4j.runtime.internal.values;

import dev.packed4j.runtime.internal.capi.NativeMemory;
import dev.packed4j.runtime.internal.errors.ConversionFailure;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Encodes Java strings as UTF-8 straight into native memory, without an intermediate array.
 *
 * <p>Unpaired surrogates become {@code '?'}, as {@link String#getBytes(java.nio.charset.Charset)} does.
 */
final class Utf8 {
  private Utf8() {}

  /** The largest byte length a {@code P4JAny} view can carry ({@code uint32_t small_len}). */
  public static final long MAX_VIEW_LENGTH = 0xFFFF_FFFFL;

  /** Whether every char is ASCII, in which case the UTF-8 length is {@code s.length()}. */
  public static boolean isAscii(String s) {
    for (int i = 0, n = s.length(); i < n; i++) {
      if (s.charAt(i) >= 0x80) {
        return false;
      }
    }
    return true;
  }

  /** Fails (VALUE) when {@code length} UTF-8 bytes do not fit in a string view's 32-bit length. */
  public static void checkViewLength(long length) {
    if (length > MAX_VIEW_LENGTH) {
      throw new ConversionFailure(ConversionFailure.Kind.VALUE, "a string of " + length + " UTF-8 bytes, over the "
          + MAX_VIEW_LENGTH + "-byte (4 GiB) limit of a string view; pass large text in parts");
    }
  }

  /** The number of bytes {@link #encode} writes for {@code s}. */
  public static long encodedLength(CharSequence s) {
    long length = 0;
    for (int i = 0, n = s.length(); i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        length += 1;
      } else if (c < 0x800) {
        length += 2;
      } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
        length += 4;
        i++;
      } else if (Character.isSurrogate(c)) {
        length += 1;
      } else {
        length += 3;
      }
    }
    return length;
  }

  /**
   * Strings up to this many chars are written by {@link #encodeBounded} into room for their longest possible UTF-8
   * form, so they are read once, not measured first; longer ones are measured to take only what they need.
   */
  public static final int BOUNDED_CHARS = 1024;

  /** Strings up to this many chars are copied a word at a time by {@link #encodeBounded}. */
  static final int SHORT_CHARS = 16;

  /**
   * Strings of more than {@link #SHORT_CHARS} and up to this many chars are encoded by {@link #encodeBounded} with
   * {@code String.getBytes}; longer ones are copied in bulk and then checked.
   */
  static final int MEDIUM_CHARS = 64;

  /** Bytes {@link #encodeBounded} may write for {@code chars} chars: 3 per char (a surrogate pair takes 4 for 2), and a NUL. */
  public static long boundedCapacity(int chars) {
    return 3L * chars + 1;
  }

  /**
   * Writes the UTF-8 bytes of {@code s} and a NUL at {@code address}, which has {@link #boundedCapacity} bytes of
   * room, and returns the byte length. A string of up to {@link #SHORT_CHARS} chars is copied eight chars to a store
   * while its chars are OR-ed together, and encoded again in full only when one is not ASCII. Up to
   * {@link #MEDIUM_CHARS} chars, the JDK encodes it ({@code getBytes}, whose copy of a Latin-1 string is an intrinsic)
   * and its bytes are copied eight to a store: by CPU time 9-11 ns from 16 to 48 chars, where the copy by chars
   * costs about 0.45 ns a char (13 ns for 24). Longer ASCII text takes one pass of the JDK's own bulk copy; what it
   * wrote is then checked eight bytes at a time: when none of the first {@code s.length()} bytes has its high bit
   * set, every char took one byte (an ASCII char, NUL included, or an unpaired surrogate written as {@code '?'}),
   * since the lead byte of any longer sequence has it set and would sit among them.
   */
  public static long encodeBounded(String s, long address) {
    // A dispatch small enough to inline, each way in a method of its own: the hot one inlines behind it.
    int n = s.length();
    if (n <= SHORT_CHARS) {
      return encodeShort(s, n, address);
    }
    if (n <= MEDIUM_CHARS) {
      return copyBytes(s.getBytes(StandardCharsets.UTF_8), address);
    }
    return encodeLong(s, n, address);
  }

  /**
   * {@link #encodeBounded} of up to {@link #SHORT_CHARS} chars: one pass that copies and checks together, eight chars
   * to a store. For names and keys this beats the JDK's encoders, whose dispatch costs more than the copy itself.
   */
  private static long encodeShort(String s, int n, long address) {
    int seen = 0;
    if (n >= Long.BYTES) {
      int i = 0;
      for (; i + Long.BYTES <= n; i += Long.BYTES) {
        seen |= copyWord(s, i, address + i);
      }
      if (i < n) {
        seen |= copyWord(s, n - Long.BYTES, address + n - Long.BYTES); // the last eight again, overlapping
      }
    } else {
      for (int i = 0; i < n; i++) {
        char c = s.charAt(i);
        seen |= c;
        NativeMemory.putByte(address + i, (byte) c);
      }
    }
    if (seen < 0x80) {
      NativeMemory.putByte(address + n, (byte) 0);
      return n;
    }
    return encode(s, address, false);
  }

  /**
   * {@link #encodeBounded} of more than {@link #MEDIUM_CHARS} chars: the JDK's bulk copy, then a check of what it
   * wrote, eight bytes at a time (the last eight overlapping).
   */
  private static long encodeLong(String s, int n, long address) {
    NativeMemory.ALL.setString(address, s, StandardCharsets.UTF_8);
    long end = address + n;
    long at = address;
    for (; at + Long.BYTES <= end; at += Long.BYTES) {
      if ((NativeMemory.getLong(at) & HIGH_BITS) != 0) {
        return encodedLength(s);
      }
    }
    if (at < end && (NativeMemory.getLong(end - Long.BYTES) & HIGH_BITS) != 0) {
      return encodedLength(s);
    }
    return n;
  }

  /** Copies {@code utf8} and a NUL to {@code address}, eight bytes to a store; returns its length. */
  private static long copyBytes(byte[] utf8, long address) {
    int length = utf8.length;
    int i = 0;
    for (; i + Long.BYTES <= length; i += Long.BYTES) {
      NativeMemory.putLong(address + i, (long) LONGS_OF_BYTES.get(utf8, i));
    }
    for (; i < length; i++) {
      NativeMemory.putByte(address + i, utf8[i]);
    }
    NativeMemory.putByte(address + length, (byte) 0);
    return length;
  }

  /** Eight bytes of a {@code byte[]} as one {@code long}, in the platform's order (the order putLong writes). */
  private static final VarHandle LONGS_OF_BYTES =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());

  /**
   * Writes chars {@code from} to {@code from + 7} of {@code s}, each as its low byte, in one 8-byte store at
   * {@code address}; returns the chars OR-ed together, which is below 0x80 when every one was ASCII.
   */
  private static int copyWord(String s, int from, long address) {
    char c0 = s.charAt(from);
    char c1 = s.charAt(from + 1);
    char c2 = s.charAt(from + 2);
    char c3 = s.charAt(from + 3);
    char c4 = s.charAt(from + 4);
    char c5 = s.charAt(from + 5);
    char c6 = s.charAt(from + 6);
    char c7 = s.charAt(from + 7);
    long word = (c0 & 0xFFL) | (c1 & 0xFFL) << 8 | (c2 & 0xFFL) << 16 | (c3 & 0xFFL) << 24 | (c4 & 0xFFL) << 32
        | (c5 & 0xFFL) << 40 | (c6 & 0xFFL) << 48 | (c7 & 0xFFL) << 56;
    NativeMemory.ALL.set(LITTLE_ENDIAN_LONG, address, word);
    return c0 | c1 | c2 | c3 | c4 | c5 | c6 | c7;
  }

  /** Char i of a word at byte i, on any platform. */
  private static final ValueLayout.OfLong LITTLE_ENDIAN_LONG =
      ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

  /** The high bit of each byte of a long. */
  private static final long HIGH_BITS = 0x8080_8080_8080_8080L;

  /** Writes the UTF-8 bytes of {@code s} at {@code address}, followed by a NUL; returns the byte length. */
  public static long encode(String s, long address, boolean ascii) {
    if (ascii) {
      // The JDK copies a Latin-1 string that is pure ASCII in bulk, without allocating.
      NativeMemory.ALL.setString(address, s, StandardCharsets.UTF_8);
      return s.length();
    }
    long at = address;
    for (int i = 0, n = s.length(); i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        put(at++, c);
      } else if (c < 0x800) {
        put(at++, 0xC0 | c >> 6);
        put(at++, 0x80 | c & 0x3F);
      } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
        int codePoint = Character.toCodePoint(c, s.charAt(++i));
        put(at++, 0xF0 | codePoint >> 18);
        put(at++, 0x80 | codePoint >> 12 & 0x3F);
        put(at++, 0x80 | codePoint >> 6 & 0x3F);
        put(at++, 0x80 | codePoint & 0x3F);
      } else if (Character.isSurrogate(c)) {
        put(at++, '?');
      } else {
        put(at++, 0xE0 | c >> 12);
        put(at++, 0x80 | c >> 6 & 0x3F);
        put(at++, 0x80 | c & 0x3F);
      }
    }
    put(at, 0);
    return at - address;
  }

  private static void put(long address, int value) {
    NativeMemory.ALL.set(ValueLayout.JAVA_BYTE, address, (byte) value);
  }
}
