package dev.packed4j.runtime.internal.route;

import dev.packed4j.runtime.NDArray;
import dev.packed4j.runtime.internal.CallTarget;
import dev.packed4j.runtime.internal.ConversionFailure;
import dev.packed4j.runtime.internal.RuntimeAccess;
import dev.packed4j.runtime.internal.ThreadStack;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.ref.Reference;

/**
 * The String and NDArray parameters of a method, as every route takes them: the adapter from the Java method's type
 * to its wire type ({@link LinkedRoute#wireType}), for a method whose wire type differs. Built once per method with
 * method-handle combinators, so the JIT inlines it with the route behind it; for
 * {@code long count(String text, NDArray a)} it is:
 *
 * <pre>{@code
 * ThreadStack stack = ThreadStack.current();
 * long mark = stack.markScratch();
 * try {
 *   return route.invokeExact(span(stack, text), word(stack, a));
 * } finally {
 *   release(stack, mark);
 *   Reference.reachabilityFence(a);
 * }
 * }</pre>
 *
 * <p>A String becomes the address of its UTF-8 span ({@code P4JByteArray}) in the thread's scratch memory; an
 * NDArray its tensor word ({@code P4J_TENSOR_WORD_BORROWED} in c_api.h): its object's handle, pinned until the
 * outermost mark is released, or a borrowed DLTensor written there for a wrapped tensor that has none, which is why
 * the tensor is kept reachable until the call returns. Marks nest with frames and with each other (a callback that
 * calls again allocates above), so a call made from inside the call stacks above it.
 */
final class ScratchScope {
  private static final MethodHandle CURRENT;
  private static final MethodHandle MARK;
  private static final MethodHandle RELEASE;
  private static final MethodHandle SPAN;
  private static final MethodHandle WORD;
  private static final MethodHandle FENCE;

  static {
    MethodHandles.Lookup lookup = MethodHandles.lookup();
    try {
      CURRENT = lookup.findStatic(ThreadStack.class, "current", MethodType.methodType(ThreadStack.class));
      MARK = lookup.findVirtual(ThreadStack.class, "markScratch", MethodType.methodType(long.class));
      RELEASE = lookup.findStatic(ScratchScope.class, "release",
          MethodType.methodType(void.class, long.class, ThreadStack.class));
      SPAN = lookup.findStatic(ScratchScope.class, "span",
          MethodType.methodType(long.class, CallTarget.class, int.class, ThreadStack.class, String.class));
      WORD = lookup.findStatic(ScratchScope.class, "word",
          MethodType.methodType(long.class, CallTarget.class, int.class, ThreadStack.class, NDArray.class));
      FENCE = lookup.findStatic(Reference.class, "reachabilityFence", MethodType.methodType(void.class, Object.class))
          .asType(MethodType.methodType(void.class, NDArray.class));
    } catch (ReflectiveOperationException e) {
      throw new AssertionError("the scratch operations", e);
    }
  }

  private ScratchScope() {}

  /** Whether a method of {@code javaType} needs the scope: it has a String or NDArray parameter. */
  static boolean needed(MethodType javaType) {
    return !javaType.equals(LinkedRoute.wireType(javaType));
  }

  /**
   * {@code wired}, of the wire type of {@code javaType}, adapted to {@code javaType}: each String and NDArray
   * argument made in scratch memory taken at a mark before the call and given back after it.
   */
  static MethodHandle around(MethodHandle wired, CallTarget target, MethodType javaType) {
    int count = javaType.parameterCount();
    MethodType wireType = wired.type();
    // (mark, stack, w...) -> R, then each String and NDArray parameter converted from the stack and the value.
    MethodHandle core = MethodHandles.dropArguments(wired, 0, long.class, ThreadStack.class);
    for (int i = 0; i < count; i++) {
      Class<?> type = javaType.parameterType(i);
      MethodHandle conversion = type == String.class ? SPAN : type == NDArray.class ? WORD : null;
      if (conversion == null || wireType.parameterType(i) != long.class) {
        continue;
      }
      int position = 2 + i;
      // (mark, stack, ..., stack', value, ...): the conversion's stack is the first one.
      MethodHandle collected = MethodHandles.collectArguments(core, position,
          MethodHandles.insertArguments(conversion, 0, target, i));
      MethodType merged = collected.type().dropParameterTypes(position, position + 1);
      int[] reorder = new int[collected.type().parameterCount()];
      for (int j = 0; j < reorder.length; j++) {
        reorder[j] = j < position ? j : j == position ? 1 : j - 1;
      }
      core = MethodHandles.permuteArguments(collected, merged, reorder);
    }
    // finally: (Throwable, [R,] mark, stack, J...) releases the mark and keeps each NDArray reachable until here.
    Class<?> result = javaType.returnType();
    MethodHandle cleanup = result == void.class
        ? MethodHandles.empty(MethodType.methodType(void.class, Throwable.class))
        : MethodHandles.dropArguments(MethodHandles.identity(result), 0, Throwable.class);
    int leading = cleanup.type().parameterCount();
    cleanup = MethodHandles.dropArguments(cleanup, leading, core.type().parameterList());
    for (int i = count - 1; i >= 0; i--) {
      if (javaType.parameterType(i) == NDArray.class && wireType.parameterType(i) == long.class) {
        cleanup = MethodHandles.foldArguments(cleanup, leading + 2 + i, FENCE);
      }
    }
    cleanup = MethodHandles.foldArguments(cleanup, leading, RELEASE);
    // (mark, stack, J...), the mark taken from the stack, the stack the thread's.
    MethodHandle scoped = MethodHandles.tryFinally(core, cleanup);
    scoped = MethodHandles.foldArguments(scoped, 0, MARK);
    return MethodHandles.foldArguments(scoped, 0, CURRENT);
  }

  /** A String argument as the address of its span in scratch memory. */
  private static long span(CallTarget target, int index, ThreadStack stack, String value) {
    if (value == null) {
      throw new NullPointerException(target.describeArgument(index)
          + " is null; a String argument must not be null (declare Optional<String> to pass None)");
    }
    try {
      return stack.putStringSpan(value);
    } catch (ConversionFailure failure) {
      throw failure.toException(target.describeArgument(index), target.exceptionFunctionName());
    }
  }

  /** An NDArray argument as its tensor word. */
  private static long word(CallTarget target, int index, ThreadStack stack, NDArray value) {
    if (value == null) {
      throw new NullPointerException(target.describeArgument(index)
          + " is null; a NDArray argument must not be null (declare Optional<NDArray> to pass None)");
    }
    try {
      return RuntimeAccess.get().ndarrayWord(value, stack);
    } catch (IllegalStateException unusable) {
      throw new IllegalStateException(target.describeArgument(index) + ": " + unusable.getMessage(), unusable);
    }
  }

  /** Gives back the scratch memory taken since {@code mark}, and the pins held when it was the outermost mark. */
  private static void release(long mark, ThreadStack stack) {
    try {
      stack.releaseScratch(mark);
    } finally {
      if (stack.holdsPins()) { // a tensor passed by handle: its close on another thread waits for this
        stack.releaseHeldPins();
      }
    }
  }
}
