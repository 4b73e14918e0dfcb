package dev.packed4j.runtime.internal.values;

import dev.packed4j.runtime.Packed4jException;
import dev.packed4j.runtime.internal.capi.CApi;
import dev.packed4j.runtime.internal.capi.Errors;
import dev.packed4j.runtime.internal.capi.NativeMemory;
import dev.packed4j.types.Narrowing;

/**
 * The one conversion of a call's result to the Java type of the bound method, shared by every route
 * ({@link dev.packed4j.runtime.internal.route.Route}): narrowing, the error sentinel of the direct entries and the
 * result a register call kept because it had another kind.
 *
 * <ul>
 *   <li>Narrowing never truncates: an int64 result that does not fit {@code int}, {@code short} or {@code byte}, a
 *       finite float64 beyond {@code float}'s range and an int64 that a {@code double} cannot hold exactly are each
 *       a {@code ValueError} naming the function, the Java method and the value.
 *   <li>A direct entry returns a sentinel ({@code P4J_TYPED_ERROR_*}) when it failed. The sentinel is also a
 *       possible real result, so {@link #afterSentinel} looks for the error the entry raised, then for a result a
 *       register call kept; with neither, the sentinel was the result.
 * </ul>
 */
public final class Results {
  private Results() {}

  // ---------------------------------------------------------------- narrowing

  /** An int64 result as {@code int}; ValueError when it does not fit. */
  public static int toInt(CallTarget target, long value) {
    if (!Narrowing.fitsInt(value)) {
      throw target.resultOutOfRange(String.valueOf(value), "int");
    }
    return (int) value;
  }

  /** An int64 result as {@code short}; ValueError when it does not fit. */
  public static short toShort(CallTarget target, long value) {
    if (!Narrowing.fitsShort(value)) {
      throw target.resultOutOfRange(String.valueOf(value), "short");
    }
    return (short) value;
  }

  /** An int64 result as {@code byte}; ValueError when it does not fit. */
  public static byte toByte(CallTarget target, long value) {
    if (!Narrowing.fitsByte(value)) {
      throw target.resultOutOfRange(String.valueOf(value), "byte");
    }
    return (byte) value;
  }

  /** A float64 result as {@code float}; ValueError for a finite value beyond the float range (NaN and infinities pass). */
  public static float toFloat(CallTarget target, double value) {
    if (!Narrowing.fitsFloat(value)) {
      throw target.resultOutOfRange(String.valueOf(value), "float");
    }
    return (float) value;
  }

  /** An int64 result read as {@code double}; ValueError when rounding would change it. */
  public static double toDouble(CallTarget target, long value) {
    if (!Narrowing.isExactDouble(value)) {
      throw target.resultOutOfRange(String.valueOf(value), "double without rounding");
    }
    return value;
  }

  // ---------------------------------------------------------------- after a sentinel

  /**
   * After a direct entry returned the sentinel: throws the error it raised, if any; else returns a frame holding
   * the result a register call kept because it had another kind than the method returns (the caller converts it
   * with the frame's {@code return...} method, which accepts or rejects it exactly as on the call-frame route, and
   * closes the frame); null when neither exists, so the sentinel was the real result.
   *
   * @param registerCall whether the entry was a register call, the only route that keeps a result; a typed entry
   *     never does, so after one a result kept by someone else on this thread is not taken for its own
   */
  public static Frame afterSentinel(CallTarget target, boolean registerCall) {
    Packed4jException raised = Errors.takeRaisedIfAny(target.exceptionFunctionName());
    if (raised != null) {
      throw raised;
    }
    if (!registerCall) {
      return null;
    }
    Frame frame = ThreadStack.current().push(target, 0);
    try {
      long found = frame.scratch(4, 4);
      CApi.P4JFunctionCallScalarsTakeResult(frame.result(), found);
      if (NativeMemory.getInt(found) == 0) {
        frame.close();
        return null;
      }
      frame.resultWritten();
      return frame;
    } catch (RuntimeException | Error e) {
      frame.close();
      throw e;
    }
  }

  /** A direct entry's int64 result that may be the sentinel, for a {@code long} method. */
  public static long sentinelLong(CallTarget target, long result, boolean registerCall) {
    try (Frame kept = afterSentinel(target, registerCall)) {
      return kept != null ? kept.returnLong() : result;
    }
  }

  /** A direct entry's int64 result that is the sentinel or out of range, for an {@code int} method. */
  public static int slowInt(CallTarget target, long result, boolean sentinel, boolean registerCall) {
    if (sentinel) {
      // The kept result is read as a int, so a mismatch names the type the method declares.
      try (Frame kept = afterSentinel(target, registerCall)) {
        if (kept != null) {
          return kept.returnInt();
        }
      }
    }
    return toInt(target, result);
  }

  /** A direct entry's int64 result that is the sentinel or out of range, for a {@code short} method. */
  public static short slowShort(CallTarget target, long result, boolean sentinel, boolean registerCall) {
    if (sentinel) {
      // The kept result is read as a short, so a mismatch names the type the method declares.
      try (Frame kept = afterSentinel(target, registerCall)) {
        if (kept != null) {
          return kept.returnShort();
        }
      }
    }
    return toShort(target, result);
  }

  /** A direct entry's int64 result that is the sentinel or out of range, for a {@code byte} method. */
  public static byte slowByte(CallTarget target, long result, boolean sentinel, boolean registerCall) {
    if (sentinel) {
      // The kept result is read as a byte, so a mismatch names the type the method declares.
      try (Frame kept = afterSentinel(target, registerCall)) {
        if (kept != null) {
          return kept.returnByte();
        }
      }
    }
    return toByte(target, result);
  }

  /** A direct entry's float64 result that may be the sentinel, for a {@code double} method. */
  public static double sentinelDouble(CallTarget target, double result, boolean registerCall) {
    try (Frame kept = afterSentinel(target, registerCall)) {
      return kept != null ? kept.returnDouble() : result;
    }
  }

  /** A direct entry's float64 result that is the sentinel or beyond float's range, for a {@code float} method. */
  public static float slowFloat(CallTarget target, double result, boolean sentinel, boolean registerCall) {
    if (sentinel) {
      try (Frame kept = afterSentinel(target, registerCall)) {
        if (kept != null) {
          return kept.returnFloat();
        }
      }
    }
    return toFloat(target, result);
  }

  /**
   * A direct entry's bool result that is the sentinel, for a {@code boolean} method. A bool result is 0 or 1, so
   * with no error raised and no result kept the entry failed without saying why.
   */
  public static boolean sentinelBoolean(CallTarget target, boolean registerCall) {
    try (Frame kept = afterSentinel(target, registerCall)) {
      if (kept != null) {
        return kept.returnBoolean();
      }
    }
    throw Errors.failedWithoutRaising(target.exceptionFunctionName());
  }

  /**
   * A direct entry's result that is the sentinel, for a {@code void} method. A void entry returns the sentinel only
   * when it fails (any result it had is released, never kept), so with no error raised it failed without saying why.
   */
  public static void sentinelVoid(CallTarget target, boolean registerCall) {
    try (Frame kept = afterSentinel(target, registerCall)) {
      if (kept == null) {
        throw Errors.failedWithoutRaising(target.exceptionFunctionName());
      }
    }
  }
}
