package dev.packed4j.runtime.internal.upcall;

import dev.packed4j.runtime.binding.CallbackArgs;
import dev.packed4j.runtime.binding.CallbackBodies;
import dev.packed4j.runtime.binding.Codec;
import dev.packed4j.runtime.internal.capi.NativeMemory;
import dev.packed4j.runtime.internal.capi.P4JAny;
import dev.packed4j.runtime.internal.errors.ConversionFailure;
import dev.packed4j.runtime.internal.errors.ErrorKind;
import dev.packed4j.runtime.internal.errors.Failures;
import dev.packed4j.runtime.internal.values.CallTarget;
import dev.packed4j.runtime.internal.values.Frame;
import dev.packed4j.runtime.internal.values.ThreadStack;
import dev.packed4j.runtime.internal.values.ValueCodec;

/** The arguments of one packed call of a {@link CallbackBodies.Packed} body, and its result. */
final class PackedArgs implements CallbackArgs {
  private static final CallTarget TARGET = CallTarget.operation("a Java callback");

  private final String callback;
  private final long arguments;
  private final int count;
  private final long result;
  private final Frame frame;
  private boolean resultSet;

  private PackedArgs(String callback, long arguments, int count, long result, Frame frame) {
    this.callback = callback;
    this.arguments = arguments;
    this.count = count;
    this.result = result;
    this.frame = frame;
  }

  /**
   * Runs {@code body} on the packed arguments; the result None unless the body sets one. {@code callback} names
   * the function in errors ({@code "the Function callback (string) -> string"}); null for "a Java callback".
   * {@code arity}, unless -1, is how many arguments the body takes: a call with another count is a TypeError worded
   * as a typed Java function's.
   */
  static void call(CallbackBodies.Packed body, String callback, int arity, long arguments, int count, long result)
      throws Throwable {
    String subject = callback == null ? "a Java callback" : callback;
    if (arity >= 0 && count != arity) {
      throw arityError(subject, arity, count);
    }
    NativeMemory.putAny(result, 0, 0, 0);
    try (Frame frame = ThreadStack.current().push(TARGET, 1)) {
      body.call(new PackedArgs(subject, arguments, count, result, frame));
    }
  }

  /** The TypeError of a Java function called with another count: "... takes 1 argument, 3 were passed". */
  static RuntimeException arityError(String subject, int arity, int count) {
    return Failures.error(ErrorKind.TYPE_ERROR, subject + " takes " + arity + (arity == 1 ? " argument" : " arguments")
        + ", " + count + (count == 1 ? " was" : " were") + " passed", null);
  }

  @Override
  public int size() {
    return count;
  }

  @Override
  public <T> T get(int index, Codec<T> codec) {
    if (index < 0 || index >= count) {
      throw Failures.error(ErrorKind.TYPE_ERROR, callback + " reads argument " + index + ", but " + count
          + (count == 1 ? " argument was" : " arguments were") + " passed", null);
    }
    try {
      return ((ValueCodec<T>) codec).decode(arguments + (long) index * P4JAny.SIZE, false);
    } catch (ConversionFailure failure) {
      throw failure.toException("argument " + index + " of " + callback, null);
    }
  }

  @Override
  public <T> void result(Codec<T> codec, T value) {
    if (resultSet) {
      throw new IllegalStateException("the result of " + callback + " is set already");
    }
    ValueCodec<T> valueCodec = (ValueCodec<T>) codec;
    if (value == null && !valueCodec.acceptsNull()) {
      throw new NullPointerException(callback + " returned null for its " + valueCodec.javaType()
          + " result, which cannot be null");
    }
    long slot = frame.slot(0);
    try {
      valueCodec.encode(value, slot, frame);
    } catch (ConversionFailure failure) {
      throw failure.toResultException(callback, null);
    }
    JavaFunctions.writeOwned(slot, result, frame);
    resultSet = true;
  }
}
