package dev.packed4j.runtime.internal.route;

import dev.packed4j.runtime.internal.CallTarget;
import dev.packed4j.runtime.internal.Results;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * The result filter of a direct entry, one per Java result kind, shared by {@link TypedEntryRoute} and
 * {@link RegisterCallRoute}: the entry's raw result, as the {@code long} of its bits, becomes the method's result.
 *
 * <p>A direct entry reports a failure by returning its error sentinel, which is also a possible real result. The
 * routes differ only in that sentinel and in what may follow it, both bound into the filter as constants:
 *
 * <ul>
 *   <li>a typed entry returns {@code P4J_TYPED_ERROR_I64} (an int64 result), the bits
 *       {@code P4J_TYPED_ERROR_F64_BITS} (a float64 result) or {@code P4J_TYPED_ERROR_I32} (a bool or void result,
 *       an {@code int32_t} sign-extended here); after it, the raised error or, with none, the real result;
 *   <li>a register call returns {@code P4J_TYPED_ERROR_I64} for every kind (a float result as its bits); after it,
 *       the raised error, a result the core kept because it had another kind (converted by the call frame's own
 *       {@code return...} method), or the real result.
 * </ul>
 *
 * <p>Each filter is a comparison and a return, small enough to inline into the caller; the sentinel and a value out
 * of range go to {@link Results}, out of line.
 */
final class ResultFilters {
  private ResultFilters() {}

  /**
   * The filter {@code (long bits) -> javaResult} for a method returning {@code javaResult} (a primitive other than
   * {@code char}, or {@code void}).
   *
   * @param sentinel the entry's error sentinel, as a {@code long}
   * @param registerCall whether the entry is a register call, which may keep a result of another kind
   */
  static MethodHandle of(Class<?> javaResult, CallTarget target, long sentinel, boolean registerCall) {
    String name = javaResult.getName() + "Result";
    MethodHandle filter;
    try {
      filter = MethodHandles.lookup().findStatic(ResultFilters.class, name,
          MethodType.methodType(javaResult, CallTarget.class, long.class, boolean.class, long.class));
    } catch (ReflectiveOperationException e) {
      throw new AssertionError("the result filter " + name, e);
    }
    return MethodHandles.insertArguments(filter, 0, target, sentinel, registerCall);
  }

  private static long longResult(CallTarget target, long sentinel, boolean registerCall, long result) {
    return result != sentinel ? result : Results.sentinelLong(target, result, registerCall);
  }

  private static int intResult(CallTarget target, long sentinel, boolean registerCall, long result) {
    return result != sentinel && (int) result == result ? (int) result
        : Results.slowInt(target, result, result == sentinel, registerCall);
  }

  private static short shortResult(CallTarget target, long sentinel, boolean registerCall, long result) {
    return result != sentinel && (short) result == result ? (short) result
        : Results.slowShort(target, result, result == sentinel, registerCall);
  }

  private static byte byteResult(CallTarget target, long sentinel, boolean registerCall, long result) {
    return result != sentinel && (byte) result == result ? (byte) result
        : Results.slowByte(target, result, result == sentinel, registerCall);
  }

  private static double doubleResult(CallTarget target, long sentinel, boolean registerCall, long bits) {
    return bits != sentinel ? Double.longBitsToDouble(bits)
        : Results.sentinelDouble(target, Double.longBitsToDouble(bits), registerCall);
  }

  private static float floatResult(CallTarget target, long sentinel, boolean registerCall, long bits) {
    double value = Double.longBitsToDouble(bits);
    return bits != sentinel && !(Math.abs(value) > Float.MAX_VALUE) ? (float) value
        : Results.slowFloat(target, value, bits == sentinel, registerCall);
  }

  private static boolean booleanResult(CallTarget target, long sentinel, boolean registerCall, long result) {
    return result != sentinel ? result != 0 : Results.sentinelBoolean(target, registerCall);
  }

  private static void voidResult(CallTarget target, long sentinel, boolean registerCall, long result) {
    if (result == sentinel) {
      Results.sentinelVoid(target, registerCall);
    }
  }
}
