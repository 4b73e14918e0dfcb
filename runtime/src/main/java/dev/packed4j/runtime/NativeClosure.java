package dev.packed4j.runtime;

import dev.packed4j.runtime.internal.values.ClosureViews;

/**
 * What a functional-interface object returned by a binding also is: a view of a native function (a closure out),
 * which it calls. The object releases its native function when it is closed or collected.
 *
 * <pre>{@code
 * LongUnaryOperator counter = callbacks.makeCounter(10); // a C++ lambda that captures its count
 * counter.applyAsLong(1);                                 // 11
 * ((NativeClosure) counter).close();                      // the C++ lambda is released now, not at the next GC
 * }</pre>
 *
 * <p>Passed back to native code, the object is its native function again, not a Java function calling it. A binding
 * adds this interface to every closure out, unless the functional interface has a method named {@code close} or
 * {@code packedFunction} of its own.
 */
public interface NativeClosure extends AutoCloseable {
  /**
   * The native function this object calls, open until {@link #close()}.
   *
   * @return the function, owned by this object (closing this object closes it)
   * @throws IllegalStateException for an object that a binding did not return (it implements this interface
   *     without being a view of a native function)
   */
  default PackedFunction packedFunction() {
    PackedFunction function = (PackedFunction) ClosureViews.functionOf(this);
    if (function == null) {
      throw new IllegalStateException("a " + getClass().getName() + " was not returned by a packed4j binding: "
          + "it is not a view of a native function");
    }
    return function;
  }

  /** Releases the native function; later calls of the object throw {@link IllegalStateException}. */
  @Override
  default void close() {
    packedFunction().close();
  }
}
