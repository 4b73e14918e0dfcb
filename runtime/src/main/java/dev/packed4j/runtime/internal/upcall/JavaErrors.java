package dev.packed4j.runtime.internal.upcall;

import dev.packed4j.runtime.Packed4jException;
import dev.packed4j.runtime.internal.capi.CApi;
import dev.packed4j.runtime.internal.capi.Errors;
import dev.packed4j.runtime.internal.capi.NativeLibraries;
import dev.packed4j.runtime.internal.capi.NativeMemory;
import dev.packed4j.runtime.internal.capi.P4JErrorCell;
import dev.packed4j.runtime.internal.errors.ErrorKind;
import dev.packed4j.runtime.internal.errors.PendingThrowables;
import dev.packed4j.runtime.internal.values.CallTarget;
import dev.packed4j.runtime.internal.values.Frame;
import dev.packed4j.runtime.internal.values.ThreadStack;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;

/**
 * Java exceptions thrown by a callback, on their way through native code and back.
 *
 * <p>A callback's exception becomes the thread's raised native error (kind, message, and a backtrace holding the Java
 * stack), which C++ turns into a C++ exception it may catch. The error keeps a marker line naming the exception by a
 * number; while the exception waits here under that number, an error that comes back to a Java caller with the
 * marker (through any number of C++ frames that rethrew it) is turned back into the same exception object, with the
 * native error attached as a suppressed {@link Packed4jException}. An error C++ swallows never comes back: the
 * newest {@link PendingThrowables#PENDING_LIMIT} exceptions are kept, older ones dropped, so memory stays bounded.
 */
public final class JavaErrors {
  private JavaErrors() {}

  private static final CallTarget RAISE = CallTarget.operation("raising a Java callback's exception");

  /** Java stack frames copied into the native backtrace; the innermost matter most. */
  private static final int MAX_JAVA_FRAMES = 48;

  /**
   * What is raised when even building the error fails (no memory, no stack left): NUL-terminated C strings made
   * once, so raising them allocates nothing on the Java heap.
   */
  private static final class Fallback {
    static final MemorySegment KIND = Arena.global().allocateFrom(ErrorKind.RUNTIME_ERROR.spelling());
    static final MemorySegment MESSAGE = Arena.global().allocateFrom(
        "a Java callback failed, and its exception could not be converted (out of memory or stack)");
  }

  /** Makes the fallback strings now, while there is memory and stack, not when they are first needed. */
  static void prepare() {
    NativeLibraries.ensureLoaded();
    // The classes that report an error, initialised here at a shallow depth: initialised first at the bottom of a
    // deep recursion they could run out of stack in their initialiser, which leaves a class unusable for the rest
    // of the JVM's life (NoClassDefFoundError at every later use).
    for (Class<?> used : new Class<?>[] {dev.packed4j.runtime.internal.capi.Errors.class,
        dev.packed4j.runtime.internal.capi.P4JErrorCell.class, Packed4jException.class, Fallback.class}) {
      try {
        MethodHandles.lookup().ensureInitialized(used);
      } catch (IllegalAccessException e) {
        throw new AssertionError(e);
      }
    }
    if (Fallback.KIND.byteSize() == 0 || Fallback.MESSAGE.byteSize() == 0) {
      throw new AssertionError("the fallback error strings are empty");
    }
  }

  /**
   * Raises {@code thrown} as this thread's native error and returns -1, the failure of a packed call. Never throws:
   * it runs in the catch block of an upcall target, whose exception would end the JVM. When the rich error cannot be
   * built, a fixed one is raised; when even that fails, nothing is, and the caller reports "a function returned -1
   * without raising an error".
   */
  public static int raise(Throwable thrown) {
    try {
      raiseConverted(thrown);
    } catch (Throwable failure) {
      try {
        CApi.P4JErrorSetRaisedFromCStr(Fallback.KIND.address(), Fallback.MESSAGE.address());
      } catch (Throwable ignored) {
        // Nothing is left to report with: the caller sees -1 without an error, which it reports itself.
      }
    }
    return -1;
  }

  /**
   * {@code thrown.toString()}, or its class and what its {@code toString()} threw instead (trial userW: such an
   * exception lost its identity and was reported as "out of memory or stack").
   */
  private static String describe(Throwable thrown) {
    try {
      return String.valueOf(thrown);
    } catch (RuntimeException | StackOverflowError broken) {
      return thrown.getClass().getName() + " (its toString() threw " + broken.getClass().getName() + ")";
    }
  }

  private static void raiseConverted(Throwable thrown) {
    long id = PendingThrowables.remember(thrown);
    String kind;
    String message;
    String nativeBacktrace = "";
    if (thrown instanceof Packed4jException packed) {
      // An error of native code that went through a Java callback keeps its kind and its native frames.
      kind = packed.kind();
      message = packed.nativeMessage();
      nativeBacktrace = packed.nativeBacktrace();
    } else {
      kind = ErrorKind.RUNTIME_ERROR.spelling();
      message = describe(thrown);
    }
    StringBuilder backtrace = new StringBuilder();
    if (!nativeBacktrace.isBlank()) {
      backtrace.append(nativeBacktrace.strip()).append('\n');
    }
    backtrace.append("java: ").append(kind.equals(ErrorKind.RUNTIME_ERROR.spelling()) ? message : describe(thrown))
        .append('\n');
    StackTraceElement[] frames = thrown.getStackTrace();
    for (int i = 0; i < Math.min(frames.length, MAX_JAVA_FRAMES); i++) {
      backtrace.append("java: at ").append(frames[i]).append('\n');
    }
    backtrace.append(PendingThrowables.MARKER).append(id).append(']');
    try (Frame frame = ThreadStack.current().push(RAISE, 0)) {
      long out = frame.scratch(8, 8);
      if (CApi.P4JErrorCreate(frame.stringSpan(kind), frame.stringSpan(message), frame.stringSpan(backtrace.toString()),
          out) == 0) {
        long error = NativeMemory.getLong(out);
        CApi.P4JErrorSetRaised(error);
        CApi.P4JObjectDecRef(error);
      }
      // On failure P4JErrorCreate raised its own MemoryError, which is the better report.
    }
  }

}
