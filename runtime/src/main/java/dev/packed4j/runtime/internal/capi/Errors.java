package dev.packed4j.runtime.internal.capi;

import dev.packed4j.runtime.Packed4jException;
import dev.packed4j.runtime.internal.errors.ErrorKind;
import dev.packed4j.runtime.internal.errors.Failures;
import dev.packed4j.runtime.internal.errors.PendingThrowables;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Turns the error a C entry point raised on this thread into a {@link Packed4jException}; an error that began as a
 * Java callback's exception is thrown as that exception instead (see {@code upcall.JavaErrors}).
 */
public final class Errors {
  private Errors() {}

  /**
   * Takes this thread's raised error (after a -1 return) and converts it.
   *
   * @param functionName the function the error belongs to, or null
   */
  public static Packed4jException takeRaised(String functionName) {
    long error = moveFromRaised();
    return error == 0 ? failedWithoutRaising(functionName) : convertAndRelease(error, functionName);
  }

  /**
   * The error of a native function that reported a failure without raising an error (a bug in the native library):
   * the same kind and message on every route, as native-core reports it.
   */
  public static Packed4jException failedWithoutRaising(String functionName) {
    return Failures.error(ErrorKind.RUNTIME_ERROR, "a function returned -1 without raising an error",
        functionName);
  }

  /**
   * Takes this thread's raised error, if there is one, and converts it; null when none is raised (after a typed
   * entry returned its error sentinel as a real result).
   *
   * @param functionName the function the error belongs to, or null
   */
  public static Packed4jException takeRaisedIfAny(String functionName) {
    long error = moveFromRaised();
    return error == 0 ? null : convertAndRelease(error, functionName);
  }

  private static Packed4jException convertAndRelease(long error, String functionName) {
    try {
      long cell = NativeMemory.cell(error);
      String kind = NativeMemory.spanString(cell + P4JErrorCell.KIND);
      String message = NativeMemory.spanString(cell + P4JErrorCell.MESSAGE);
      String backtrace = NativeMemory.spanString(cell + P4JErrorCell.BACKTRACE);
      Throwable original = PendingThrowables.takeOriginal(backtrace);
      if (original != null) {
        // A Java callback's exception back in Java: the same object, with the native calls it crossed.
        if (!MoreCrossedCalls.counted(original, functionName)) {
          original.addSuppressed(Failures.newException(
              kind.isEmpty() ? ErrorKind.RUNTIME_ERROR.spelling() : kind, message, backtrace, functionName));
        }
        throw PendingThrowables.sneakyThrow(original);
      }
      return Failures.newException(
          kind.isEmpty() ? ErrorKind.RUNTIME_ERROR.spelling() : kind, message, backtrace, functionName);
    } finally {
      CApi.P4JObjectDecRef(error);
    }
  }

  /**
   * What stands for the native calls a Java exception crossed beyond the first {@link #ATTACHED}, which alone are
   * attached to it as suppressed exceptions, innermost first. A recursion Java -> C++ -> Java that ends in a
   * RecursionError 200 levels down crosses 200 calls, and attached them all, each with the message and a Java stack
   * as deep: thousands of lines, the same ones over and over.
   */
  static final class MoreCrossedCalls extends RuntimeException {
    private static final long serialVersionUID = 1L;
    static final int ATTACHED = 16;
    private int count;
    /** The function of the outermost call counted so far, which the caller's own call usually is; or null. */
    private String outermost;

    private MoreCrossedCalls() {
      super(null, null, false, false);
    }

    /**
     * Whether the crossing of {@code original} was only counted: true once it has {@link #ATTACHED} crossings
     * attached (this call then adds the counter, or counts on it), false when the caller attaches this one.
     */
    static boolean counted(Throwable original, String functionName) {
      int attached = 0;
      for (Throwable suppressed : original.getSuppressed()) {
        if (suppressed instanceof MoreCrossedCalls more) {
          more.count++;
          more.outermost = functionName;
          return true;
        }
        if (suppressed instanceof Packed4jException) {
          attached++;
        }
      }
      if (attached < ATTACHED) {
        return false;
      }
      MoreCrossedCalls more = new MoreCrossedCalls();
      more.count = 1;
      more.outermost = functionName;
      original.addSuppressed(more);
      return true;
    }

    @Override
    public String getMessage() {
      return count + " more native call" + (count == 1 ? "" : "s") + " crossed on the way out, not attached (the"
          + " first " + ATTACHED + " are)" + (outermost != null ? "; the outermost: " + outermost : "");
    }
  }

  /** Throws the raised error when {@code status} is not 0. */
  public static void check(int status, String functionName) {
    if (status != 0) {
      throw takeRaised(functionName);
    }
  }

  /** Drops an error raised on this thread, if any (before an operation whose failure is checked afterwards). */
  public static void clearRaised() {
    long error = moveFromRaised();
    if (error != 0) {
      CApi.P4JObjectDecRef(error);
    }
  }

  private static long moveFromRaised() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment out = arena.allocate(ValueLayout.JAVA_LONG);
      CApi.P4JErrorMoveFromRaised(out.address());
      return out.get(ValueLayout.JAVA_LONG, 0);
    }
  }
}
