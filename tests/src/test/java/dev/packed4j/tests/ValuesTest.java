package dev.packed4j.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.Packed4jException;
import dev.packed4j.runtime.PackedFunction;
import dev.packed4j.runtime.Registry;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ValuesTest {
  private static Values values;

  @BeforeAll
  static void bind() {
    TestLibrary.load();
    values = Packed4j.bind(Values.class);
  }

  @ParameterizedTest
  @ValueSource(longs = {0, -1, 1, Long.MIN_VALUE, Long.MAX_VALUE, Integer.MIN_VALUE, 1L << 40})
  void longsRoundTrip(long value) {
    assertEquals(value, values.echoLong(value));
    assertEquals(value, values.echoBoxedLong(value));
    assertEquals(value, values.echoAny(value));
  }

  @Test
  void narrowingResultsAreRangeChecked() {
    assertEquals(Integer.MAX_VALUE, values.echoLongAsInt(Integer.MAX_VALUE));
    assertEquals(Integer.MIN_VALUE, values.echoLongAsInt(Integer.MIN_VALUE));
    assertEquals(Short.MIN_VALUE, values.echoLongAsShort(Short.MIN_VALUE));
    assertEquals(Byte.MAX_VALUE, values.echoLongAsByte(Byte.MAX_VALUE));

    Packed4jException tooBig = assertThrows(Packed4jException.class, () -> values.echoLongAsInt(1L << 32));
    assertEquals("ValueError", tooBig.kind());
    assertTrue(tooBig.getMessage().contains("test.EchoInt64"), tooBig.getMessage());
    assertTrue(tooBig.getMessage().contains("4294967296"), tooBig.getMessage());
    assertTrue(tooBig.getMessage().contains("int"), tooBig.getMessage());
    assertThrows(Packed4jException.class, () -> values.echoLongAsShort(Short.MAX_VALUE + 1));
    assertThrows(Packed4jException.class, () -> values.echoLongAsByte(Byte.MIN_VALUE - 1));
  }

  @Test
  void integerResultReadAsDoubleIsExactOrAnError() {
    assertEquals(9007199254740992.0, values.echoAsDouble(1L << 53));
    assertEquals(-3.0, values.echoAsDouble(-3));
    assertEquals(0x1p62, values.echoAsDouble(1L << 62));
    Packed4jException rounded = assertThrows(Packed4jException.class, () -> values.echoAsDouble((1L << 53) + 1));
    assertEquals("ValueError", rounded.kind());
    assertTrue(rounded.getMessage().contains("9007199254740993"), rounded.getMessage());
    assertThrows(Packed4jException.class, () -> values.echoAsDouble(Long.MAX_VALUE));
  }

  @Test
  void nativeNarrowingOfArgumentsIsAnErrorNotTruncation() {
    assertEquals(3, values.addInt32(1, 2));
    Packed4jException error = assertThrows(Packed4jException.class, () -> values.addInt32(1L << 31, 0));
    assertEquals("ValueError", error.kind());
    assertTrue(error.nativeMessage().contains("test.AddInt32"), error.nativeMessage());
    assertTrue(error.nativeMessage().contains("2147483648"), error.nativeMessage());
  }

  @ParameterizedTest
  @ValueSource(doubles = {0.0, 1.5, -2.25, Double.MIN_VALUE, Double.MAX_VALUE, Double.POSITIVE_INFINITY,
      Double.NEGATIVE_INFINITY})
  void doublesRoundTrip(double value) {
    assertEquals(Double.doubleToRawLongBits(value), Double.doubleToRawLongBits(values.echoDouble(value)));
  }

  @Test
  void negativeZeroAndNaNAreBitExact() {
    assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(values.echoDouble(-0.0)));
    assertTrue(Double.isNaN(values.echoDouble(Double.NaN)));
    assertEquals(Double.doubleToRawLongBits(Double.NaN), Double.doubleToRawLongBits(values.echoDouble(Double.NaN)));
    assertEquals(Float.floatToRawIntBits(-0.0f), Float.floatToRawIntBits(values.echoFloat(-0.0f)));
    assertEquals(1.25f, values.echoFloat(1.25f));
    assertTrue(Float.isNaN(values.echoFloat(Float.NaN)));
    assertEquals(Float.NEGATIVE_INFINITY, values.echoFloat(Float.NEGATIVE_INFINITY));
  }

  @Test
  void booleansRoundTrip() {
    assertTrue(values.echoBoolean(true));
    assertEquals(false, values.echoBoolean(false));
    assertEquals(Boolean.TRUE, values.echoAny(true));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "a", "hello, world", "nul\u0000inside", "\u0000", "caf\u00e9", "\uD83D\uDE00 emoji",
      "\u4e2d\u6587"})
  void stringsRoundTrip(String value) {
    assertEquals(value, values.echoString(value));
    assertEquals(value.getBytes(StandardCharsets.UTF_8).length, values.utf8Length(value));
    assertEquals(value, values.echoAny(value));
  }

  @Test
  void aStringResultThatIsNotUtf8ReadsAsJavaDecodesIt() {
    byte[] notUtf8 = {'a', (byte) 0xff, 'b', (byte) 0xc3, 'c', (byte) 0xe2, (byte) 0x82}; // a lone, cut sequences
    assertEquals(new String(notUtf8, StandardCharsets.UTF_8), values.bytesAsString(notUtf8));
    assertEquals("a\uFFFDb\uFFFDc\uFFFD", values.bytesAsString(notUtf8));
  }

  @Test
  void tenKilobyteString() {
    String big = "0123456789".repeat(1024);
    assertEquals(big, values.echoString(big));
    String bigUnicode = "\u00e9\uD83D\uDE00".repeat(2000);
    assertEquals(bigUnicode, values.echoString(bigUnicode));
    assertEquals(bigUnicode.getBytes(StandardCharsets.UTF_8).length, values.utf8Length(bigUnicode));
  }

  @Test
  void bytesRoundTrip() {
    byte[] edge = {0, (byte) 0xFF, 0};
    assertArrayEquals(edge, values.echoBytes(edge));
    assertArrayEquals(new byte[0], values.echoBytes(new byte[0]));
    byte[] all = new byte[256];
    for (int i = 0; i < all.length; i++) {
      all[i] = (byte) i;
    }
    assertArrayEquals(all, values.echoBytes(all));
    assertArrayEquals(edge, (byte[]) values.echoAny(edge));
  }

  @Test
  void voidAndNull() {
    values.nothing();
    assertNull(values.echoAny(null));
  }

  @Test
  void nullForAPrimitiveLikeParameterNamesTheArgument() {
    NullPointerException error = assertThrows(NullPointerException.class, () -> values.echoBoxedLong(null));
    assertTrue(error.getMessage().contains("test.EchoInt64"), error.getMessage());
    assertTrue(error.getMessage().contains("value"), error.getMessage());
    NullPointerException string = assertThrows(NullPointerException.class, () -> values.echoString(null));
    assertTrue(string.getMessage().contains("test.EchoString"), string.getMessage());
  }

  @Test
  void nativeErrorsKeepKindMessageAndBacktrace() {
    for (String kind : new String[] {"TypeError", "ValueError", "IndexError", "KeyError", "AttributeError",
        "RuntimeError"}) {
      Packed4jException error = assertThrows(Packed4jException.class, () -> values.raise(kind, "it broke: " + kind));
      assertEquals(kind, error.kind());
      assertEquals("it broke: " + kind, error.nativeMessage());
      assertTrue(error.getMessage().contains(kind), error.getMessage());
      assertTrue(!error.nativeBacktrace().isBlank(), "a native backtrace is kept");
    }
    // The thread is healthy afterwards.
    assertEquals(7, values.echoLong(7));
  }

  @Test
  void wrongArgumentTypeNamesFunctionIndexExpectedAndActual() {
    Packed4jException error = assertThrows(Packed4jException.class, () -> values.echoLongGivenString("abc"));
    assertEquals("TypeError", error.kind());
    assertEquals("test.EchoInt64: argument 0 expected int64, got string \"abc\"", error.nativeMessage());
    assertEquals("test.EchoInt64", error.functionName());
  }

  @Test
  void wrongArgumentCountNamesFunctionAndCounts() {
    Packed4jException error = assertThrows(Packed4jException.class, () -> values.echoLongTwoArguments(1, 2));
    assertEquals("TypeError", error.kind());
    String message = error.nativeMessage();
    assertTrue(message.startsWith("test.EchoInt64"), message);
    assertTrue(message.contains("1 argument") && message.contains("2"), message);
  }

  @Test
  void dynamicInvokeErrorsReadWell() {
    PackedFunction echo = Registry.global("test.EchoInt64");
    Packed4jException count = assertThrows(Packed4jException.class, () -> echo.invoke());
    assertEquals("TypeError", count.kind());
    assertTrue(count.nativeMessage().startsWith("test.EchoInt64"), count.nativeMessage());
    Packed4jException type = assertThrows(Packed4jException.class, () -> echo.invoke(new Object()));
    assertTrue(type.getMessage().contains("java.lang.Object"), type.getMessage());
    Packed4jException none = assertThrows(Packed4jException.class, () -> echo.invoke((Object) null));
    assertEquals("test.EchoInt64: argument 0 expected int64, got None", none.nativeMessage());
    assertEquals(3L, echo.invoke(3L), "the function still works afterwards");
  }

  @Test
  void untypedFunctionsOverScalarsTakeEveryKindAndCheckTheResultKind() {
    assertEquals(-3 + 10 + 25 + 500, values.mix((byte) -3, true, 0.25f, 0.5));
    assertEquals(7 + 0 + 150 + 2000, values.mix((byte) 7, false, 1.5f, 2.0));
    Packed4jException notInt = assertThrows(Packed4jException.class,
        () -> values.mixAsInt((byte) 1, false, 0, 0));
    assertEquals("TypeError", notInt.kind());
    assertTrue(notInt.getMessage().contains("test.UntypedMix") && notInt.getMessage().contains("float"),
        notInt.getMessage());
    Packed4jException notBool = assertThrows(Packed4jException.class, () -> values.echoLongAsBoolean(1));
    assertEquals("TypeError", notBool.kind());
    assertTrue(notBool.getMessage().contains("bool") && notBool.getMessage().contains("int"),
        notBool.getMessage());
    assertEquals(5L, values.echoLong(5), "the thread is healthy afterwards");
  }

  @Test
  void stringArgumentsOfATypedFunction() {
    assertEquals(3, values.count("abcabcab", "ab", 10));
    assertEquals(2, values.count("abcabcab", "ab", 2));
    assertEquals(2, values.count("h\u00e9\u00e9 \uD83D\uDE00\uD83D\uDE00", "\uD83D\uDE00", 5), "UTF-8 in place");
    assertEquals(1, values.count("a\0b", "\0", 5), "an embedded NUL is a character");
    assertEquals(1000, values.count("x".repeat(1000), "x", 5000), "longer than a scratch block");
    Packed4jException empty = assertThrows(Packed4jException.class, () -> values.count("abc", "", 1));
    assertEquals("ValueError", empty.kind());
    assertEquals("the part to count is empty", empty.nativeMessage());
    NullPointerException missing = assertThrows(NullPointerException.class, () -> values.count("abc", null, 1));
    assertTrue(missing.getMessage().contains("test.CountOccurrences") && missing.getMessage().contains("part"),
        missing.getMessage());
    Packed4jException tooLarge = assertThrows(Packed4jException.class,
        () -> values.countWithLongLimit("abc", "a", 1L << 40));
    assertEquals("ValueError", tooLarge.kind());
    assertTrue(tooLarge.nativeMessage().contains("1099511627776"), tooLarge.nativeMessage());
    assertEquals(1, values.countWithLongLimit("abc", "a", 1));
  }

  @Test
  void wrongResultTypeNamesExpectedAndActual() {
    Packed4jException error = assertThrows(Packed4jException.class, () -> values.echoStringAsLong("x"));
    assertEquals("TypeError", error.kind());
    assertTrue(error.getMessage().contains("test.EchoString"), error.getMessage());
    assertTrue(error.getMessage().contains("str"), error.getMessage());
  }

  @Test
  void unknownFunctionNamesTheName() {
    Packed4jException error = assertThrows(Packed4jException.class, () -> values.missing());
    assertTrue(error.getMessage().contains("test.NoSuchFunction"), error.getMessage());
    Packed4jException lookup = assertThrows(Packed4jException.class, () -> Registry.global("test.NoSuchFunction"));
    assertTrue(lookup.getMessage().contains("test.NoSuchFunction"), lookup.getMessage());
  }

  @Test
  void registryListsTheTestFunctionsAndSignatures() {
    assertTrue(Registry.list().contains("test.EchoInt64"));
    assertTrue(Registry.list().contains("test.UntypedEcho"));
    PackedFunction echo = Registry.global("test.EchoInt64");
    assertEquals("(int64) -> int64", echo.signature());
    assertEquals("", Registry.global("test.UntypedEcho").signature());
    assertEquals(42L, echo.invoke(42L));
    assertEquals(42L, echo.invoke(42));
  }
}
