package dev.packed4j.runtime;

import static dev.packed4j.runtime.RouteTwins.assertSameFailure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.binding.Codec;
import dev.packed4j.runtime.binding.Codecs;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Boxed numbers ({@code Long}, {@code Integer}, {@code Short}, {@code Byte}, {@code Double}, {@code Float},
 * {@code Boolean}) as parameters and results of typed functions (test_objects.cc): the typed entry takes them
 * without a call frame, unboxed, and every value and failure is the call frame's: a null argument, a result out of
 * the declared type's range, a narrowing the entry refuses, a native error.
 */
class BoxedRouteTest {
  @BeforeAll
  static void plugin() {
    TestPlugin.load();
  }

  private static RouteTwins routes(String function, String expectedRoute, MethodType type, Codec<?>... codecs) {
    return RouteTwins.link("Boxed", function, expectedRoute, type, codecs);
  }

  private static final MethodType LONG_ADD = MethodType.methodType(Long.class, Long.class, Long.class);

  @Test
  void boxedIntegersTakeTheTypedEntry() throws Throwable {
    RouteTwins add = routes("test.TypedAdd", "typed entry (int64, int64) -> int64", LONG_ADD, Codecs.LONG, Codecs.LONG,
        Codecs.LONG);
    for (MethodHandle handle : add.both()) {
      assertEquals(42L, (Long) handle.invokeExact((Long) 40L, (Long) 2L));
      assertEquals(Long.MIN_VALUE, (Long) handle.invokeExact((Long) Long.MAX_VALUE, (Long) 1L));
    }
    RouteTwins mixed = routes("test.TypedAdd", "typed entry (int64, int64) -> int64",
        MethodType.methodType(long.class, long.class, Integer.class), Codecs.LONG, Codecs.INT, Codecs.LONG);
    for (MethodHandle handle : mixed.both()) {
      assertEquals(7L, (long) handle.invokeExact(3L, (Integer) 4));
    }
  }

  @Test
  void aNullBoxIsTheFramesNullPointerException() {
    RouteTwins add = routes("test.TypedAdd", "typed entry (int64, int64) -> int64", LONG_ADD, Codecs.LONG, Codecs.LONG,
        Codecs.LONG);
    Throwable first = assertSameFailure(add, h -> (Long) h.invokeExact((Long) null, (Long) 1L));
    assertInstanceOf(NullPointerException.class, first);
    assertTrue(first.getMessage().contains("p0") && first.getMessage().contains("Optional<Long>"),
        first.getMessage());
    Throwable second = assertSameFailure(add, h -> (Long) h.invokeExact((Long) 1L, (Long) null));
    assertTrue(second.getMessage().contains("p1"), second.getMessage());
  }

  @Test
  void narrowingFailsTheSameWayOnBothRoutes() throws Throwable {
    // An Integer result of an int64 that does not fit: the result's range check.
    RouteTwins addAsInt = routes("test.TypedAdd", "typed entry (int64, int64) -> int64",
        MethodType.methodType(Integer.class, Long.class, Long.class), Codecs.LONG, Codecs.LONG, Codecs.INT);
    for (MethodHandle handle : addAsInt.both()) {
      assertEquals(-5, (Integer) handle.invokeExact((Long) (-2L), (Long) (-3L)));
    }
    Throwable result = assertSameFailure(addAsInt, h -> (Integer) h.invokeExact((Long) Long.MAX_VALUE, (Long) 0L));
    assertEquals("ValueError", ((Packed4jException) result).kind());
    // A Short argument beyond the function's int8 parameter: the entry's (and the packed call's) range check.
    RouteTwins narrow = routes("test.TypedNarrowByte", "typed entry (int8) -> int64",
        MethodType.methodType(Long.class, Short.class), Codecs.SHORT, Codecs.LONG);
    for (MethodHandle handle : narrow.both()) {
      assertEquals(-128L, (Long) handle.invokeExact((Short) (short) -128));
    }
    assertSameFailure(narrow, h -> (Long) h.invokeExact((Short) (short) 300));
    // A Byte result of an int64 out of its range.
    RouteTwins asByte = routes("test.TypedNarrowByte", "typed entry (int8) -> int64",
        MethodType.methodType(Byte.class, Byte.class), Codecs.BYTE, Codecs.BYTE);
    for (MethodHandle handle : asByte.both()) {
      assertEquals((byte) 100, (Byte) handle.invokeExact((Byte) (byte) 100));
    }
  }

  @Test
  void boxedFloatsAndBooleansTakeTheTypedEntry() throws Throwable {
    RouteTwins half = routes("test.TypedHalf", "typed entry (float64) -> float64",
        MethodType.methodType(Double.class, Double.class), Codecs.DOUBLE, Codecs.DOUBLE);
    RouteTwins halfAsFloat = routes("test.TypedHalf", "typed entry (float64) -> float64",
        MethodType.methodType(Float.class, Float.class), Codecs.FLOAT, Codecs.FLOAT);
    RouteTwins isEven = routes("test.TypedIsEven", "typed entry (int64) -> bool",
        MethodType.methodType(Boolean.class, Long.class), Codecs.LONG, Codecs.BOOLEAN);
    for (int i = 0; i < 2; i++) {
      assertEquals(1.25, (Double) half.both().get(i).invokeExact((Double) 2.5));
      assertEquals(0.75f, (Float) halfAsFloat.both().get(i).invokeExact((Float) 1.5f));
      assertEquals(Boolean.TRUE, (Boolean) isEven.both().get(i).invokeExact((Long) 4L));
      assertEquals(Boolean.FALSE, (Boolean) isEven.both().get(i).invokeExact((Long) 5L));
    }
    // A double result beyond float's range, read as a Float.
    RouteTwins twiceAsFloat = routes("test.TypedHalf", "typed entry (float64) -> float64",
        MethodType.methodType(Float.class, Double.class), Codecs.DOUBLE, Codecs.FLOAT);
    assertSameFailure(twiceAsFloat, h -> (Float) h.invokeExact((Double) 1e300));
    assertSameFailure(isEven, h -> (Boolean) h.invokeExact((Long) null));
  }

  @Test
  void aNativeErrorIsTheSameOnBothRoutes() {
    RouteTwins fail = routes("test.TypedFail", "typed entry (int64) -> int64",
        MethodType.methodType(Long.class, Long.class), Codecs.LONG, Codecs.LONG);
    Throwable error = assertSameFailure(fail, h -> (Long) h.invokeExact((Long) 7L));
    assertInstanceOf(Packed4jException.class, error);
  }
}
