package dev.packed4j.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.binding.CallFrame;
import dev.packed4j.runtime.binding.Codecs;
import dev.packed4j.runtime.binding.FunctionSite;
import dev.packed4j.runtime.binding.RouteProbe;
import dev.packed4j.runtime.internal.capi.CApi;
import dev.packed4j.runtime.internal.values.ThreadStack;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The register call ({@code P4JFunctionCell.scalars_entry}) that {@link FunctionSite#route} links for a method over
 * primitives when the function has no typed entry that fits: every outcome — value, narrowing, kind conversion,
 * native error, mismatch — must be the one the call frame path gives for the same call.
 */
class ScalarsCallTest {
  private static final FunctionSite ECHO = site("test.Echo", "Echo.echo", "value");
  private static final FunctionSite DESCRIBE = site("test.Describe4", "Scalars.describe", "a", "b", "c", "d");
  private static final FunctionSite RESULT_OF_KIND = site("test.ResultOfKind", "Scalars.resultOfKind", "kind");
  private static final FunctionSite TYPED_ADD = site("test.TypedAdd", "Typed.add", "a", "b");
  private static final FunctionSite TYPED_IS_EVEN = site("test.TypedIsEven", "Typed.isEven", "value");
  private static final FunctionSite TYPED_SET_FLAG = site("test.TypedSetFlag", "Typed.setFlag", "flag");

  @BeforeAll
  static void plugin() {
    TestPlugin.load();
  }

  private static FunctionSite site(String name, String javaMethod, String... parameters) {
    return new FunctionSite(name, javaMethod, parameters);
  }

  /**
   * The handle of {@code site} for {@code type}, checked to take a direct entry (its site says so): always, for a
   * registered function over at most four primitives.
   */
  private static MethodHandle direct(FunctionSite site, MethodType type) {
    MethodHandle handle = RouteProbe.link(site, type);
    assertFalse(site.route().startsWith("call frame"), site + " " + type + ": " + site.route());
    assertEquals(type, handle.type());
    return handle;
  }

  /** What a call returns, or its exception as "class: message". */
  private static String outcome(ThrowingCall call) {
    try {
      return "value " + call.call();
    } catch (Throwable e) {
      return e.getClass().getSimpleName() + ": " + e.getMessage();
    }
  }

  private interface ThrowingCall {
    Object call() throws Throwable;
  }

  /** The same call through a call frame, putting and returning by the Java types of {@code type}. */
  private static Object throughFrame(FunctionSite site, MethodType type, Object... arguments) {
    try (CallFrame frame = CallFrame.open(site, arguments.length)) {
      for (int i = 0; i < arguments.length; i++) {
        Class<?> parameter = type.parameterType(i);
        if (parameter == boolean.class) {
          frame.putBoolean(i, (Boolean) arguments[i]);
        } else if (parameter == double.class || parameter == float.class) {
          frame.putDouble(i, ((Number) arguments[i]).doubleValue());
        } else {
          frame.putLong(i, ((Number) arguments[i]).longValue());
        }
      }
      frame.invoke();
      Class<?> result = type.returnType();
      if (result == void.class) {
        frame.returnVoid();
        return null;
      }
      if (result == long.class) {
        return frame.returnLong();
      }
      if (result == int.class) {
        return frame.returnInt();
      }
      if (result == short.class) {
        return frame.returnShort();
      }
      if (result == byte.class) {
        return frame.returnByte();
      }
      if (result == double.class) {
        return frame.returnDouble();
      }
      if (result == float.class) {
        return frame.returnFloat();
      }
      return frame.returnBoolean();
    }
  }

  /** Calls {@code site} both ways and expects the same outcome; returns it. */
  private static String bothWays(FunctionSite site, MethodType type, Object... arguments) {
    MethodHandle handle = direct(site, type);
    String direct = outcome(() -> handle.invokeWithArguments(arguments));
    String framed = outcome(() -> throughFrame(site, type, arguments));
    assertEquals(framed, direct, site + " " + type);
    assertEquals(0, ThreadStack.current().depth(), "no frame left open");
    return direct;
  }

  private static long liveObjects() {
    return Packed4j.liveObjectCount();
  }

  @Test
  void argumentsOfEveryKindTravelInRegisters() {
    MethodType mixed = MethodType.methodType(long.class, long.class, boolean.class, float.class, double.class);
    // Kinds 1 (int), 2 (bool), 3 (float), 3; a = 7, b = true, c = 2.5, d = 9.5.
    assertEquals("value " + (1233 + 7 * 10_000 + 100_000 + 25 * 1_000_000 + 95 * 100_000_000L),
        bothWays(DESCRIBE, mixed, 7L, true, 2.5f, 9.5));
    MethodType narrow = MethodType.methodType(long.class, byte.class, boolean.class, short.class, int.class);
    assertEquals("value " + (1211 + 3 * 10_000 + 40 * 1_000_000 + 50 * 100_000_000L),
        bothWays(DESCRIBE, narrow, (byte) 3, false, (short) 4, 5), "integers travel as int64");
    assertEquals("value 42", bothWays(ECHO, MethodType.methodType(long.class, long.class), 42L));
    assertEquals("value -5", bothWays(ECHO, MethodType.methodType(int.class, int.class), -5));
    assertEquals("value 0.1", bothWays(ECHO, MethodType.methodType(double.class, double.class), 0.1));
    assertEquals("value NaN", bothWays(ECHO, MethodType.methodType(double.class, double.class), Double.NaN));
    assertEquals("value true", bothWays(ECHO, MethodType.methodType(boolean.class, boolean.class), true));
    assertEquals("value null", bothWays(ECHO, MethodType.methodType(void.class, long.class), 1L));
  }

  @Test
  void resultsOfAnotherKindAreConvertedOrRejectedAsByTheFrame() {
    MethodType asLong = MethodType.methodType(long.class, long.class);
    MethodType asInt = MethodType.methodType(int.class, long.class);
    MethodType asDouble = MethodType.methodType(double.class, long.class);
    MethodType asFloat = MethodType.methodType(float.class, long.class);
    MethodType asBoolean = MethodType.methodType(boolean.class, long.class);
    MethodType asVoid = MethodType.methodType(void.class, long.class);
    long before = liveObjects();
    for (long kind : new long[] {CApi.kP4JInt, CApi.kP4JFloat, CApi.kP4JBool, CApi.kP4JString, CApi.kP4JList, 0}) {
      for (MethodType type : List.of(asLong, asInt, asDouble, asFloat, asBoolean, asVoid)) {
        bothWays(RESULT_OF_KIND, type, kind);
      }
    }
    assertEquals(before, liveObjects(), "string and list results of the wrong kind are released");
    assertEquals("value 1.099511627776E12", bothWays(RESULT_OF_KIND, asDouble, (long) CApi.kP4JInt),
        "an exact int64 is read as a double");
    assertEquals("value 2.5", bothWays(RESULT_OF_KIND, asFloat, (long) CApi.kP4JFloat));
    String intTooLarge = bothWays(RESULT_OF_KIND, asInt, (long) CApi.kP4JInt);
    assertTrue(intTooLarge.startsWith("Packed4jException: [ValueError] test.ResultOfKind (Scalars.resultOfKind)"
        + " returned 1099511627776, which does not fit in int"), intTooLarge);
    String mismatch = bothWays(RESULT_OF_KIND, asLong, (long) CApi.kP4JString);
    assertTrue(mismatch.startsWith("Packed4jException: [TypeError]") && mismatch.contains("string"), mismatch);
    String none = bothWays(RESULT_OF_KIND, asBoolean, 0L);
    assertTrue(none.startsWith("Packed4jException: [TypeError]") && none.contains("None"), none);
  }

  @Test
  void nativeErrorsAndTheSentinelValue() {
    MethodType asLong = MethodType.methodType(long.class, long.class);
    String failed = bothWays(RESULT_OF_KIND, asLong, -1L);
    assertEquals("Packed4jException: [IndexError] test.ResultOfKind: no result of kind -1", failed);
    // A real result equal to the sentinel, with and without a stale error, is a value.
    assertEquals("value " + CApi.P4J_TYPED_ERROR_I64, bothWays(ECHO, asLong, CApi.P4J_TYPED_ERROR_I64));
    assertEquals("value " + Double.longBitsToDouble(CApi.P4J_TYPED_ERROR_I64),
        bothWays(ECHO, MethodType.methodType(double.class, double.class),
            Double.longBitsToDouble(CApi.P4J_TYPED_ERROR_I64)));
    String wrongCount = bothWays(DESCRIBE, MethodType.methodType(long.class, long.class), 1L);
    assertTrue(wrongCount.contains("argument 1 was requested, but 1 argument was given"), wrongCount);
    assertEquals("value 2", bothWays(ECHO, asLong, 2L), "the thread is healthy afterwards");
  }

  @Test
  void typedFunctionsWhoseEntryDoesNotFitRunTheirPackedChecks() {
    assertEquals("value 3.0", bothWays(TYPED_ADD, MethodType.methodType(double.class, long.class, long.class), 1L,
        2L));
    String floatForInt = bothWays(TYPED_ADD, MethodType.methodType(long.class, double.class, long.class), 1.5, 2L);
    assertTrue(floatForInt.contains("[TypeError]") && floatForInt.contains("argument 0 expected int64"), floatForInt);
    String arity = bothWays(TYPED_ADD, MethodType.methodType(long.class, long.class), 1L);
    assertTrue(arity.contains("expected 2 arguments"), arity);
    bothWays(TYPED_SET_FLAG, MethodType.methodType(void.class, long.class), 1L);
    String notABool = bothWays(TYPED_SET_FLAG, MethodType.methodType(void.class, long.class), 7L);
    assertTrue(notABool.contains("Error]"), notABool);
    String boolAsInt = bothWays(TYPED_IS_EVEN, MethodType.methodType(int.class, long.class), 4L);
    assertTrue(boolAsInt.contains("[TypeError]"), boolAsInt);
  }

  @Test
  void aCallAllocatesNothing() throws Throwable {
    MethodHandle echo = direct(ECHO, MethodType.methodType(long.class, long.class));
    long[] sink = {0};
    List<Long> perRound = SteadyStateAllocation.measure(() -> {
      sink[0] = 0;
      for (int i = 0; i < 200_000; i++) {
        sink[0] += echo(i);
      }
    }, 64 * 1024, 30);
    assertEquals(199_999L * 200_000 / 2, sink[0]);
    assertTrue(perRound.getLast() < 64 * 1024,
        "every round of 200000 register calls allocated on the heap, bytes per round: " + perRound);
    assertThrows(IllegalArgumentException.class, () -> ECHO.link(MethodType.methodType(long.class, Long.class),
        Codecs.INT, Codecs.LONG), "a Long takes Codecs.LONG");
  }

  private static final class EchoRoute {
    static final MethodHandle HANDLE = ECHO.link(MethodType.methodType(long.class, long.class), Codecs.LONG,
        Codecs.LONG);
  }

  private static long echo(long value) {
    try {
      return (long) EchoRoute.HANDLE.invokeExact(value);
    } catch (Throwable e) {
      throw FunctionSite.rethrow(e);
    }
  }
}
