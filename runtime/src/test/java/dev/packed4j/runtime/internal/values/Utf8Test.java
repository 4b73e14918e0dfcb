package dev.packed4j.runtime.internal.values;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.internal.capi.NativeMemory;
import dev.packed4j.runtime.internal.errors.ConversionFailure;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class Utf8Test {
  private static byte[] encode(String text) {
    boolean ascii = Utf8.isAscii(text);
    long length = ascii ? text.length() : Utf8.encodedLength(text);
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment memory = arena.allocate(length + 1);
      assertEquals(length, Utf8.encode(text, memory.address(), ascii));
      assertEquals(0, memory.get(java.lang.foreign.ValueLayout.JAVA_BYTE, length), "NUL-terminated");
      return NativeMemory.copyBytes(memory.address(), length);
    }
  }

  @Test
  void encodesLikeTheJdk() {
    for (String text : List.of("", "ascii", "a\0b", "é", "€uro", "日本", "😀 𝄞", "\uD800 lone", "tail \uDC00", "\uFFFF")) {
      assertArrayEquals(text.getBytes(StandardCharsets.UTF_8), encode(text), text);
      assertEquals(text.getBytes(StandardCharsets.UTF_8).length, Utf8.encodedLength(text));
    }
  }

  @Test
  void encodesRandomTextLikeTheJdk() {
    Random random = new Random(42);
    for (int round = 0; round < 200; round++) {
      char[] chars = new char[random.nextInt(64)];
      for (int i = 0; i < chars.length; i++) {
        chars[i] = (char) random.nextInt(Character.MAX_VALUE + 1);
      }
      String text = new String(chars);
      assertArrayEquals(text.getBytes(StandardCharsets.UTF_8), encode(text));
    }
  }

  private static byte[] encodeBounded(String text) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment memory = arena.allocate(Utf8.boundedCapacity(text.length()));
      memory.fill((byte) 0x55); // no zero byte left over from the allocation may look like the terminator
      long length = Utf8.encodeBounded(text, memory.address());
      assertEquals(0, memory.get(java.lang.foreign.ValueLayout.JAVA_BYTE, length), "NUL-terminated");
      return NativeMemory.copyBytes(memory.address(), length);
    }
  }

  @Test
  void boundedEncodingMeasuresWhatItWrote() {
    for (String text : List.of("", "ascii", "a\0b", "\0", "é\0", "\0é", "é", "€uro", "日本", "😀 𝄞", "\uD800 lone",
        "tail \uDC00", "\uFFFF", "x".repeat(Utf8.BOUNDED_CHARS), "\uD83D\uDE00".repeat(100),
        // Either side of the char-by-char copy's limit and of getBytes's, with the first non-ASCII char last.
        "x".repeat(Utf8.SHORT_CHARS), "x".repeat(Utf8.SHORT_CHARS - 1) + "é", "x".repeat(Utf8.SHORT_CHARS) + "é",
        "x".repeat(Utf8.SHORT_CHARS - 2) + "\uD83D\uDE00", "x".repeat(Utf8.MEDIUM_CHARS),
        "x".repeat(Utf8.MEDIUM_CHARS - 1) + "é", "x".repeat(Utf8.MEDIUM_CHARS) + "é",
        "x".repeat(Utf8.MEDIUM_CHARS - 2) + "\uD83D\uDE00", "x".repeat(Utf8.MEDIUM_CHARS - 1) + "\uD800")) {
      assertArrayEquals(text.getBytes(StandardCharsets.UTF_8), encodeBounded(text), text);
    }
    Random random = new Random(7);
    for (int round = 0; round < 500; round++) {
      char[] chars = new char[random.nextInt(Utf8.MEDIUM_CHARS + 16)];
      for (int i = 0; i < chars.length; i++) {
        // Mostly ASCII and NULs, with some Latin-1, BMP and surrogates: the cases the length shortcut must tell apart.
        int pick = random.nextInt(10);
        chars[i] = (char) (pick < 5 ? random.nextInt(0x80) : pick < 7 ? 0 : pick < 8 ? 0x80 + random.nextInt(0x80)
            : random.nextInt(Character.MAX_VALUE + 1));
      }
      String text = new String(chars);
      assertArrayEquals(text.getBytes(StandardCharsets.UTF_8), encodeBounded(text), text);
    }
  }

  @Test
  void aNonAsciiCharIsSeenInEveryPositionOfAShortOrMediumString() {
    // U+0141's low byte is 'A' and U+0100's is NUL: a copy by low bytes must still notice them, wherever they sit
    // in an eight-char word or in the overlapping last word.
    for (char wide : new char[] {'\u0141', '\u0100', '\u00e9', '\uD800'}) {
      for (int n = 1; n <= Utf8.MEDIUM_CHARS + 1; n++) {
        for (int at = 0; at < n; at++) {
          char[] chars = "abcdefghijklmnopqrstuvwxyz0123456789".repeat(2).substring(0, n).toCharArray();
          chars[at] = wide;
          String text = new String(chars);
          assertArrayEquals(text.getBytes(StandardCharsets.UTF_8), encodeBounded(text), text);
        }
      }
    }
  }

  @Test
  void asciiDetection() {
    assertTrue(Utf8.isAscii("plain\0text"));
    assertFalse(Utf8.isAscii("café"));
  }

  @Test
  void aStringBeyondTheViewLimitIsRejected() {
    Utf8.checkViewLength(Utf8.MAX_VIEW_LENGTH);
    ConversionFailure failure = assertThrows(ConversionFailure.class,
        () -> Utf8.checkViewLength(Utf8.MAX_VIEW_LENGTH + 1));
    assertTrue(failure.detail().contains("4 GiB"), failure.detail());
    assertEquals(ConversionFailure.Kind.VALUE, failure.kind());
    assertEquals(3L * 100_000, Utf8.encodedLength("€".repeat(100_000)));
  }
}
