package dev.packed4j.runtime.internal.route;

import static dev.packed4j.runtime.internal.capi.CApi.P4J_TYPED_ERROR_I64;

import dev.packed4j.runtime.internal.capi.CApi;
import dev.packed4j.runtime.internal.capi.Errors;
import dev.packed4j.runtime.internal.capi.NativeMemory;
import dev.packed4j.runtime.internal.capi.P4JByteArray;
import dev.packed4j.runtime.internal.errors.ConversionFailure;
import dev.packed4j.runtime.internal.values.CallTarget;
import dev.packed4j.runtime.internal.values.ObjectCodec;
import dev.packed4j.runtime.internal.values.Results;
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

  /**
   * The filter {@code (long span) -> String} of a typed entry's string result: the address of the span the thread
   * keeps until its next span result, read once; a NULL address is the failure (the raised error is thrown), a span
   * whose data is NULL is None (null, as the call frame returns for None).
   */
  static MethodHandle ofString(CallTarget target) {
    return MethodHandles.insertArguments(STRING_RESULT, 0, target);
  }

  /**
   * The filter {@code (long word) -> T} of a typed entry's object result, an owned object word: the instance of the
   * generated class {@code codec} makes of an owned object result on the call frame, null for 0 (None), the raised
   * error for {@code P4J_TYPED_ERROR_I64}.
   */
  static MethodHandle ofObject(CallTarget target, ObjectCodec<?> codec, Class<?> javaResult) {
    return MethodHandles.insertArguments(OBJECT_RESULT, 0, target, codec)
        .asType(MethodType.methodType(javaResult, long.class));
  }

  /**
   * The filter {@code (long span) -> byte[]} of a typed entry's bytes result: as {@link #ofString}, the bytes copied
   * into a new array.
   */
  static MethodHandle ofBytes(CallTarget target) {
    return MethodHandles.insertArguments(BYTES_RESULT, 0, target);
  }

  /**
   * {@code Double.doubleToRawLongBits}: how both direct routes carry a float64 as a long, a typed entry's double
   * result into its filter and a register call's float argument into its register.
   */
  static final MethodHandle DOUBLE_BITS;
  private static final MethodHandle STRING_RESULT;
  private static final MethodHandle BYTES_RESULT;
  private static final MethodHandle OBJECT_RESULT;

  static {
    try {
      DOUBLE_BITS = MethodHandles.lookup().findStatic(Double.class, "doubleToRawLongBits",
          MethodType.methodType(long.class, double.class));
      STRING_RESULT = MethodHandles.lookup().findStatic(ResultFilters.class, "stringResult",
          MethodType.methodType(String.class, CallTarget.class, long.class));
      BYTES_RESULT = MethodHandles.lookup().findStatic(ResultFilters.class, "bytesResult",
          MethodType.methodType(byte[].class, CallTarget.class, long.class));
      OBJECT_RESULT = MethodHandles.lookup().findStatic(ResultFilters.class, "objectResult",
          MethodType.methodType(Object.class, CallTarget.class, ObjectCodec.class, long.class));
    } catch (ReflectiveOperationException e) {
      throw new AssertionError("the result filters", e);
    }
  }

  private static String stringResult(CallTarget target, long span) {
    if (span == 0) {
      throw Errors.takeRaised(target.exceptionFunctionName());
    }
    return NativeMemory.getLong(span + P4JByteArray.DATA) == 0 ? null : NativeMemory.spanString(span);
  }

  private static byte[] bytesResult(CallTarget target, long span) {
    if (span == 0) {
      throw Errors.takeRaised(target.exceptionFunctionName());
    }
    return NativeMemory.getLong(span + P4JByteArray.DATA) == 0 ? null : NativeMemory.spanBytes(span);
  }

  private static Object objectResult(CallTarget target, ObjectCodec<?> codec, long word) {
    if (word == P4J_TYPED_ERROR_I64) {
      throw Errors.takeRaised(target.exceptionFunctionName());
    }
    try {
      return codec.decodeOwnedWord(word);
    } catch (ConversionFailure failure) {
      throw failure.toResultException(target.describeSource(), target.exceptionFunctionName());
    }
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
