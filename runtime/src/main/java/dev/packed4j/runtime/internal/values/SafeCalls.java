package dev.packed4j.runtime.internal.values;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * Calls a function object through its {@code safe_call} ({@code P4JFunctionCell}) instead of
 * {@code P4JFunctionCall}, which c_api.h allows a caller that holds the handle: the packed calling convention with
 * one native frame less and none of {@code P4JFunctionCall}'s checks, which the runtime has made already (the
 * handle is a function: a registry global or a {@code PackedFunction}; the argument memory is the frame's).
 *
 * <p>The contract that comes with it: {@code *result} is set to None before the call (the frame does when it
 * opens), and set to None again by the caller when the call returns -1.
 */
final class SafeCalls {
  private SafeCalls() {}

  /** {@code int safe_call(void* self, const P4JAny* args, int32_t num_args, P4JAny* result)} at any address. */
  @SuppressWarnings("restricted") // the address is a function object's safe_call, whose signature the ABI fixes
  private static final MethodHandle SAFE_CALL = Linker.nativeLinker().downcallHandle(
      FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT,
          ValueLayout.JAVA_LONG));

  /**
   * Calls {@code safe_call(self, arguments, argumentCount, result)} of a linked function: 0, or -1 with the error
   * raised on this thread. The addresses go over as {@code long}s, so no segment's session is acquired.
   */
  @SuppressWarnings("restricted") // the address is the safe_call the function object records in its cell
  static int call(CallTarget.Linked function, long arguments, int argumentCount, long result) {
    try {
      return (int) SAFE_CALL.invokeExact(MemorySegment.ofAddress(function.safeCall), function.self, arguments,
          argumentCount, result);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }
}
