package dev.packed4j.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.binding.CallFrame;
import dev.packed4j.runtime.binding.Codec;
import dev.packed4j.runtime.binding.Codecs;
import dev.packed4j.runtime.binding.FunctionSite;
import dev.packed4j.runtime.binding.RouteProbe;
import dev.packed4j.runtime.internal.values.ThreadStack;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Typed entries of set_body_typed functions (test_objects.cc), called through {@link FunctionSite#link} as
 * generated code calls them, and compared with the call frame route they must behave like.
 */
class TypedEntryTest {
  private static final FunctionSite ADD = site("test.TypedAdd", "Typed.add", "a", "b");
  private static final FunctionSite ADD_AS_INT = site("test.TypedAdd", "Typed.addAsInt", "a", "b");
  private static final FunctionSite ADD_INT32 = site("test.TypedAddInt32", "Typed.addInt32", "a", "b");
  private static final FunctionSite NARROW_BYTE = site("test.TypedNarrowByte", "Typed.narrowByte", "value");
  private static final FunctionSite SENTINEL = site("test.TypedSentinel", "Typed.sentinel");
  private static final FunctionSite SENTINEL_AS_INT = site("test.TypedSentinel", "Typed.sentinelAsInt");
  private static final FunctionSite SENTINEL_DOUBLE = site("test.TypedSentinelDouble", "Typed.sentinelDouble");
  private static final FunctionSite HALF = site("test.TypedHalf", "Typed.half", "value");
  private static final FunctionSite TWICE = site("test.TypedTwice", "Typed.twice", "value");
  private static final FunctionSite IS_EVEN = site("test.TypedIsEven", "Typed.isEven", "value");
  private static final FunctionSite SET_FLAG = site("test.TypedSetFlag", "Typed.setFlag", "flag");
  private static final FunctionSite FLAG = site("test.TypedFlag", "Typed.flag");
  private static final FunctionSite FAIL = site("test.TypedFail", "Typed.fail", "value");
  private static final FunctionSite FAIL_DOUBLE = site("test.TypedFailDouble", "Typed.failDouble", "value");
  private static final FunctionSite FAIL_BOOL = site("test.TypedFailBool", "Typed.failBool", "value");
  private static final FunctionSite FAIL_VOID = site("test.TypedFailVoid", "Typed.failVoid");
  private static final FunctionSite WEIGH = site("test.TypedWeigh", "Typed.weigh", "text", "times", "tail");

  @BeforeAll
  static void plugin() {
    TestPlugin.load();
  }

  private static FunctionSite site(String name, String javaMethod, String... parameters) {
    return new FunctionSite(name, javaMethod, parameters);
  }

  /** The handle of a method of this type, checked to take the function's typed entry (its site says so). */
  private static MethodHandle entry(FunctionSite site, Class<?> result, Class<?>... parameters) {
    MethodHandle handle = RouteProbe.link(site, MethodType.methodType(result, parameters));
    assertTrue(site.route().startsWith("typed entry"), site + " for " + MethodType.methodType(result, parameters));
    assertEquals(MethodType.methodType(result, parameters), handle.type());
    return handle;
  }

  /**
   * A call through the handle {@code site} links for {@code type} returns or fails as the same call through the call
   * frame does, and the site says it took the call frame.
   */
  private static void behavesAsTheFrame(FunctionSite site, MethodType type, Object... arguments) {
    Object linked = outcome(RouteProbe.link(site, type), arguments);
    assertEquals(outcome(RouteProbe.frame(site, type), arguments), linked, site + " " + type);
    assertTrue(site.route().startsWith("call frame"), site + " " + type);
  }

  /** The result of a call, or its Packed4jException's kind and message. */
  private static Object outcome(MethodHandle handle, Object... arguments) {
    try {
      return handle.invokeWithArguments(arguments);
    } catch (Packed4jException e) {
      return e.kind() + ": " + e.getMessage();
    } catch (Throwable e) {
      throw new AssertionError(e);
    }
  }

  // The shape the processor generates for `@Global("test.TypedAdd") long add(long a, long b)`.
  private static final class AddRoute {
    static final MethodHandle HANDLE = ADD.link(MethodType.methodType(long.class, long.class, long.class),
        Codecs.LONG, Codecs.LONG, Codecs.LONG);
  }

  private static long add(long a, long b) {
    try {
      return (long) AddRoute.HANDLE.invokeExact(a, b);
    } catch (Throwable e) {
      throw FunctionSite.rethrow(e);
    }
  }

  private static long addThroughFrame(FunctionSite site, long a, long b) {
    try (CallFrame frame = CallFrame.open(site, 2)) {
      frame.putLong(0, a);
      frame.putLong(1, b);
      frame.invoke();
      return frame.returnInt();
    }
  }

  @Test
  void aGeneratedCallTakesTheTypedEntryAndAllocatesNothing() {
    assertEquals(MethodType.methodType(long.class, long.class, long.class), AddRoute.HANDLE.type());
    assertTrue(ADD.route().startsWith("typed entry (int64, int64) -> int64"), ADD.route());
    assertEquals("test.TypedAdd (Typed.add) via typed entry (int64, int64) -> int64", ADD.toString());
    long[] sink = {0};
    List<Long> perRound = SteadyStateAllocation.measure(() -> {
      sink[0] = 0;
      for (int i = 0; i < 200_000; i++) {
        sink[0] += add(i, 1);
      }
    }, 64 * 1024, 30);
    assertEquals(199_999L * 200_000 / 2 + 200_000, sink[0]);
    assertTrue(perRound.getLast() < 64 * 1024,
        "every round of 200000 typed calls allocated on the heap, bytes per round: " + perRound);
  }

  @Test
  void integerArgumentsWidenAndResultsNarrowWithTheFramesChecks() throws Throwable {
    MethodHandle addInts = entry(ADD_AS_INT, int.class, int.class, int.class);
    assertEquals(7, (int) addInts.invokeExact(3, 4));
    assertEquals(-2, (int) addInts.invokeExact(-1, -1));
    Packed4jException typed = assertThrows(Packed4jException.class,
        () -> { int unused = (int) addInts.invokeExact(Integer.MAX_VALUE, 1); });
    assertEquals("ValueError", typed.kind());
    assertEquals("[ValueError] test.TypedAdd (Typed.addAsInt) returned 2147483648, which does not fit in int",
        typed.getMessage());
    assertEquals("test.TypedAdd", typed.functionName());
    Packed4jException framed = assertThrows(Packed4jException.class,
        () -> addThroughFrame(ADD_AS_INT, Integer.MAX_VALUE, 1));
    assertEquals(framed.getMessage(), typed.getMessage());

    MethodHandle addShorts = entry(ADD, short.class, short.class, byte.class);
    assertEquals((short) 300, (short) addShorts.invokeExact((short) 200, (byte) 100));
    Packed4jException shortError = assertThrows(Packed4jException.class,
        () -> { short unused = (short) addShorts.invokeExact(Short.MAX_VALUE, (byte) 1); });
    assertTrue(shortError.getMessage().endsWith("returned 32768, which does not fit in short"), shortError.getMessage());
    MethodHandle addBytes = entry(ADD, byte.class, byte.class, byte.class);
    Packed4jException byteError = assertThrows(Packed4jException.class,
        () -> { byte unused = (byte) addBytes.invokeExact((byte) -100, (byte) -100); });
    assertTrue(byteError.getMessage().endsWith("returned -200, which does not fit in byte"), byteError.getMessage());
  }

  @Test
  void nativeParameterNarrowingIsTheEntrysValueErrorAsInAPackedCall() throws Throwable {
    MethodHandle addInt32 = entry(ADD_INT32, long.class, long.class, long.class);
    assertEquals(3L, (long) addInt32.invokeExact(1L, 2L));
    Packed4jException typed = assertThrows(Packed4jException.class,
        () -> { long unused = (long) addInt32.invokeExact(1L << 31, 0L); });
    Packed4jException framed = assertThrows(Packed4jException.class, () -> addThroughFrame(ADD_INT32, 1L << 31, 0));
    assertEquals("ValueError", typed.kind());
    assertEquals(framed.getMessage(), typed.getMessage());
    assertEquals(framed.nativeMessage(), typed.nativeMessage());
    assertTrue(typed.nativeMessage().contains("test.TypedAddInt32") && typed.nativeMessage().contains("2147483648"),
        typed.nativeMessage());

    MethodHandle narrowByte = entry(NARROW_BYTE, long.class, int.class);
    assertEquals(-128L, (long) narrowByte.invokeExact(-128));
    Packed4jException byteError = assertThrows(Packed4jException.class,
        () -> { long unused = (long) narrowByte.invokeExact(128); });
    assertTrue(byteError.nativeMessage().contains("int8"), byteError.nativeMessage());
  }

  @Test
  void aResultEqualToTheSentinelIsAResultNotAnError() throws Throwable {
    MethodHandle sentinel = entry(SENTINEL, long.class);
    assertEquals(0x7ff4dead0badc0deL, (long) sentinel.invokeExact());
    MethodHandle sentinelAsInt = entry(SENTINEL_AS_INT, int.class);
    Packed4jException narrowed = assertThrows(Packed4jException.class,
        () -> { int unused = (int) sentinelAsInt.invokeExact(); });
    assertEquals("[ValueError] test.TypedSentinel (Typed.sentinelAsInt) returned " + 0x7ff4dead0badc0deL
        + ", which does not fit in int", narrowed.getMessage());
    MethodHandle sentinelDouble = entry(SENTINEL_DOUBLE, double.class);
    double value = (double) sentinelDouble.invokeExact();
    assertEquals(0x7ffcdead0badc0deL, Double.doubleToRawLongBits(value));
    MethodHandle sentinelFloat = entry(SENTINEL_DOUBLE, float.class);
    assertTrue(Float.isNaN((float) sentinelFloat.invokeExact()));
    // A real sentinel result right after a failure on the same thread is still a result.
    MethodHandle fail = entry(FAIL, long.class, long.class);
    assertThrows(Packed4jException.class, () -> { long unused = (long) fail.invokeExact(1L); });
    assertEquals(0x7ff4dead0badc0deL, (long) sentinel.invokeExact());
  }

  @Test
  void nativeErrorsArriveAsTheFramesPacked4jException() throws Throwable {
    MethodHandle fail = entry(FAIL, long.class, long.class);
    Packed4jException typed = assertThrows(Packed4jException.class, () -> { long unused = (long) fail.invokeExact(5L); });
    assertEquals("IndexError", typed.kind());
    assertEquals("no item 5", typed.nativeMessage());
    assertEquals("test.TypedFail", typed.functionName());
    Packed4jException framed = assertThrows(Packed4jException.class, () -> {
      try (CallFrame frame = CallFrame.open(FAIL, 1)) {
        frame.putLong(0, 5);
        frame.invoke();
      }
    });
    assertEquals(framed.getMessage(), typed.getMessage());

    MethodHandle failInt = entry(FAIL, int.class, int.class);
    assertEquals("IndexError", assertThrows(Packed4jException.class,
        () -> { int unused = (int) failInt.invokeExact(5); }).kind(), "an error wins over the range check");
    MethodHandle failDouble = entry(FAIL_DOUBLE, double.class, double.class);
    assertEquals("ValueError", assertThrows(Packed4jException.class,
        () -> { double unused = (double) failDouble.invokeExact(1.0); }).kind());
    MethodHandle failFloat = entry(FAIL_DOUBLE, float.class, float.class);
    assertEquals("no double", assertThrows(Packed4jException.class,
        () -> { float unused = (float) failFloat.invokeExact(1.0f); }).nativeMessage());
    MethodHandle failBool = entry(FAIL_BOOL, boolean.class, long.class);
    Packed4jException boolError =
        assertThrows(Packed4jException.class, () -> { boolean unused = (boolean) failBool.invokeExact(1L); });
    assertEquals("KeyError", boolError.kind());
    assertEquals("test.TypedFailBool", boolError.functionName());
    MethodHandle failVoid = entry(FAIL_VOID, void.class);
    Packed4jException voidError = assertThrows(Packed4jException.class, () -> {
      failVoid.invokeExact();
    });
    assertEquals("TypeError", voidError.kind());
    assertEquals("no void", voidError.nativeMessage());
    MethodHandle add = entry(ADD, long.class, long.class, long.class);
    assertEquals(2L, (long) add.invokeExact(1L, 1L), "the thread is healthy afterwards");
  }

  @Test
  void boolDoubleFloatAndVoid() throws Throwable {
    MethodHandle half = entry(HALF, double.class, double.class);
    assertEquals(1.25, (double) half.invokeExact(2.5));
    assertTrue(Double.isNaN((double) half.invokeExact(Double.NaN)));
    MethodHandle halfFloat = entry(HALF, float.class, float.class);
    assertEquals(0.75f, (float) halfFloat.invokeExact(1.5f));
    MethodHandle halfOfDouble = entry(HALF, float.class, double.class);
    Packed4jException tooBig = assertThrows(Packed4jException.class,
        () -> { float unused = (float) halfOfDouble.invokeExact(1e300); });
    assertEquals("[ValueError] test.TypedHalf (Typed.half) returned 5.0E299, which does not fit in float",
        tooBig.getMessage());
    MethodHandle twice = entry(TWICE, double.class, float.class);
    assertEquals(3.0, (double) twice.invokeExact(1.5f));

    MethodHandle isEven = entry(IS_EVEN, boolean.class, int.class);
    assertTrue((boolean) isEven.invokeExact(4));
    assertFalse((boolean) isEven.invokeExact(-3));
    MethodHandle setFlag = entry(SET_FLAG, void.class, boolean.class);
    MethodHandle flag = entry(FLAG, boolean.class);
    setFlag.invokeExact(true);
    assertTrue((boolean) flag.invokeExact());
    setFlag.invokeExact(false);
    assertFalse((boolean) flag.invokeExact());
  }

  @Test
  void unknownFunctionsAndStringMethodsWithoutATypedEntryFallBackToTheFrame() {
    FunctionSite unknown = site("test.TypedAdds", "Typed.adds", "a", "b");
    MethodHandle adds = RouteProbe.link(unknown, MethodType.methodType(long.class, long.class, long.class));
    Packed4jException e =
        assertThrows(Packed4jException.class, () -> { long unused = (long) adds.invokeExact(1L, 2L); });
    assertEquals("KeyError", e.kind());
    assertTrue(e.getMessage().contains("did you mean test.TypedAdd"), e.getMessage());
    assertEquals(e.getMessage(),
        assertThrows(Packed4jException.class, () -> addThroughFrame(unknown, 1, 2)).getMessage());
    assertEquals("call frame (no loaded library registers it yet)", unknown.route());

    // A String travels in registers only as a typed entry's span: set_body, an object result or a mismatch is framed.
    behavesAsTheFrame(site("test.Echo", "Echo.echo", "value"), MethodType.methodType(long.class, String.class), "x");
    behavesAsTheFrame(site("test.MakeShape", "Shapes.make", "sides", "name"),
        MethodType.methodType(long.class, long.class, String.class), 3L, "an object result: no typed entry");
    behavesAsTheFrame(site("test.TypedWeigh", "Typed.weighLong", "text", "times", "tail"),
        MethodType.methodType(long.class, String.class, long.class, long.class), "a long for a string", 1L, 2L);
    behavesAsTheFrame(site("test.TypedAdd", "Typed.addString", "a", "b"),
        MethodType.methodType(long.class, String.class, long.class), "a String for an int64", 1L);
    // More arguments than registers: framed.
    behavesAsTheFrame(site("test.Count", "Counting.count", "a", "b", "c", "d", "e"),
        MethodType.methodType(long.class, long.class, long.class, long.class, long.class, long.class), 1L, 2L, 3L, 4L,
        5L);
  }

  @Test
  void stringParametersArriveAsSpansOfAnOpenFrame() throws Throwable {
    assertEquals(MethodType.methodType(long.class, String.class, int.class, String.class), WeighRoute.HANDLE.type());
    assertEquals(3 * 4 + 2, weigh("abc", 4, "xy"));
    assertTrue(WEIGH.route().startsWith("typed entry"), WEIGH.route());
    assertEquals(3 * 4 + 2, weigh("abc", 4, "xy"));
    assertEquals(0, weigh("", 9, ""));
    assertEquals("h\u00e9\u20ac\uD83D\uDE00".getBytes(StandardCharsets.UTF_8).length + 3,
        weigh("h\u00e9\u20ac\uD83D\uDE00", 1, "a\0b"), "UTF-8 bytes, an embedded NUL kept");
    String large = "x".repeat(100_000);
    assertEquals(200_000, weigh(large, 2, ""), "larger than the first chunk of the thread's stack");
    NullPointerException missing = assertThrows(NullPointerException.class, () -> weigh(null, 1, "a"));
    NullPointerException framed = assertThrows(NullPointerException.class, () -> {
      try (CallFrame frame = CallFrame.open(WEIGH, 3)) {
        frame.putString(0, null);
      }
    });
    assertEquals(framed.getMessage(), missing.getMessage());
    assertTrue(missing.getMessage().startsWith("test.TypedWeigh argument 0 (text) is null"), missing.getMessage());
    assertEquals(0, ThreadStack.current().depth(), "the frames are closed");
  }

  // The shape the processor generates for `@Global("test.TypedWeigh") long weigh(String text, int times, String tail)`.
  private static final class WeighRoute {
    static final MethodHandle HANDLE = WEIGH.link(
        MethodType.methodType(long.class, String.class, int.class, String.class),
        Codecs.STRING, Codecs.INT, Codecs.STRING, Codecs.LONG);
  }

  private static long weigh(String text, int times, String tail) {
    try {
      return (long) WeighRoute.HANDLE.invokeExact(text, times, tail);
    } catch (Throwable e) {
      throw FunctionSite.rethrow(e);
    }
  }

  @Test
  void aStringCallAllocatesNothing() {
    long[] sink = {0};
    List<Long> perRound = SteadyStateAllocation.measure(() -> {
      sink[0] = 0;
      for (int i = 0; i < 100_000; i++) {
        sink[0] += weigh("hello, packed4j", 2, "!");
      }
    }, 64 * 1024, 30);
    assertEquals(31L * 100_000, sink[0]);
    assertTrue(perRound.getLast() < 64 * 1024,
        "every round of 100000 string calls allocated on the heap, bytes per round: " + perRound);
  }

  @Test
  void linkChecksTheCodecsAgainstTheMethodType() {
    MethodType add = MethodType.methodType(long.class, long.class, long.class);
    Codec<?> foreign = () -> "Long";
    Executable[] wrong = {
        () -> ADD.link(add, Codecs.LONG, Codecs.LONG),
        () -> ADD.link(add, Codecs.LONG, Codecs.LONG, Codecs.LONG, Codecs.LONG),
        () -> ADD.link(add, Codecs.INT, Codecs.LONG, Codecs.LONG),
        () -> ADD.link(add, Codecs.LONG, Codecs.STRING, Codecs.LONG),
        () -> ADD.link(add, Codecs.LONG, foreign, Codecs.LONG),
        () -> ADD.link(MethodType.methodType(long.class, char.class), Codecs.LONG, Codecs.LONG),
        () -> ADD.link(MethodType.methodType(String.class), Codecs.LONG)};
    for (Executable link : wrong) {
      assertThrows(IllegalArgumentException.class, link);
    }
  }

  @Test
  void rethrowPassesEveryExceptionThroughAsItIs() {
    IllegalStateException unchecked = new IllegalStateException("x");
    assertEquals(unchecked, assertThrows(IllegalStateException.class, () -> FunctionSite.rethrow(unchecked)));
    StackOverflowError error = new StackOverflowError();
    assertEquals(error, assertThrows(StackOverflowError.class, () -> FunctionSite.rethrow(error)));
    // A Java callback's checked exception crosses the call unchanged (ExportsTest), as through the call frame.
    Exception checked = new java.io.IOException("checked");
    assertEquals(checked, assertThrows(java.io.IOException.class, () -> FunctionSite.rethrow(checked)));
  }
}
