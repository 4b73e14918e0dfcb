package dev.packed4j.runtime.binding;

import dev.packed4j.runtime.NDArray;
import dev.packed4j.runtime.internal.RuntimeAccess;
import dev.packed4j.runtime.internal.ThreadStack;

/**
 * Memory for the {@code String} and {@code NDArray} arguments of a method with a route ({@link FunctionSite#route}):
 * each string's UTF-8 bytes and its span, each wrapped tensor's borrowed DLTensor, bump-allocated on the calling
 * thread's argument stack without opening a call frame, and given back at a mark taken before the call.
 *
 * <pre>{@code
 * Scratch scratch = Scratch.current();
 * long mark = scratch.mark();
 * try {
 *   return (long) CountRoute.HANDLE.invokeExact(scratch.putStringSpan(COUNT, 0, text));
 * } catch (Throwable e) {
 *   throw FunctionSite.rethrow(e);
 * } finally {
 *   scratch.release(mark);
 * }
 * }</pre>
 *
 * <p>A mark nests with call frames and with other marks (a callback that calls again allocates above it); marks
 * are released in the reverse order they were taken, in a {@code finally} block. A Scratch belongs to the thread
 * that got it from {@link #current()}.
 */
public final class Scratch {
  private final ThreadStack stack;

  private Scratch(ThreadStack stack) {
    this.stack = stack;
  }

  /** {@return the calling thread's scratch} */
  public static Scratch current() {
    ThreadStack stack = ThreadStack.current();
    return stack.scratchFacade instanceof Scratch scratch ? scratch : attach(stack);
  }

  /** The first use on this thread: the facade of its stack. */
  private static Scratch attach(ThreadStack stack) {
    Scratch scratch = new Scratch(stack);
    stack.scratchFacade = scratch;
    return scratch;
  }

  /** {@return a mark of where this call's scratch memory starts, for {@link #release} when the call is over} */
  public long mark() {
    return stack.markScratch();
  }

  /**
   * The UTF-8 bytes of {@code value} copied into scratch memory, returned as the address of the span
   * ({@code const P4JByteArray*}) a typed entry reads (and a call frame passes as a view), valid until the mark is
   * released. {@code index} is the
   * argument's position in the Java method, for messages.
   *
   * @param site the call site, for messages
   * @param index the argument's position in the Java method
   * @param value the string
   * @return the address of the span
   * @throws NullPointerException naming function and argument when {@code value} is null
   */
  public long putStringSpan(FunctionSite site, int index, String value) {
    if (value == null) {
      throw new NullPointerException(site.target.describeArgument(index)
          + " is null; a String argument must not be null (declare Optional<String> to pass None)");
    }
    return stack.putStringSpan(value);
  }

  /**
   * An {@code NDArray} argument as the tensor word a typed entry takes: the handle of its native object, or, for a
   * tensor from {@code NDArray.wrap} that has none, a borrowed {@code DLTensor} written here for the call (C++ reads
   * it as a {@code TensorView} without making an object). The caller keeps {@code value} reachable until the call
   * returns ({@code Reference.reachabilityFence} in its {@code finally}). Call it between {@link #mark()} and
   * {@link #release(long)}: a handle passed is pinned (a close on another thread waits) until the outermost mark
   * is released.
   *
   * @param site the call site, for messages
   * @param index the argument's position in the Java method
   * @param value the tensor
   * @return the tensor word
   * @throws NullPointerException naming function and argument when {@code value} is null
   * @throws IllegalStateException naming them when the tensor is closed or its wrapped segment's arena is
   */
  public long tensorWord(FunctionSite site, int index, NDArray value) {
    if (value == null) {
      throw nullTensor(site, index);
    }
    try {
      return RuntimeAccess.get().ndarrayWord(value, stack);
    } catch (IllegalStateException unusable) {
      throw unusableTensor(site, index, unusable);
    }
  }

  private static NullPointerException nullTensor(FunctionSite site, int index) {
    return new NullPointerException(site.target.describeArgument(index)
        + " is null; a NDArray argument must not be null (declare Optional<NDArray> to pass None)");
  }

  private static IllegalStateException unusableTensor(FunctionSite site, int index, IllegalStateException cause) {
    return new IllegalStateException(site.target.describeArgument(index) + ": " + cause.getMessage(), cause);
  }

  /**
   * Gives back the scratch memory taken since {@code mark}.
   *
   * @param mark what {@link #mark} returned before the call
   */
  public void release(long mark) {
    try {
      stack.releaseScratch(mark);
    } finally {
      if (stack.holdsPins()) { // a tensor passed by handle: its close on another thread waits for this
        stack.releaseHeldPins();
      }
    }
  }
}
