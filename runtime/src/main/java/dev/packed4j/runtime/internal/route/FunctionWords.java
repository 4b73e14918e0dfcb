package dev.packed4j.runtime.internal.route;

import static dev.packed4j.runtime.internal.capi.CApi.P4J_TYPED_ERROR_I64;

import dev.packed4j.runtime.internal.capi.Errors;
import dev.packed4j.runtime.internal.errors.ConversionFailure;
import dev.packed4j.runtime.internal.values.CallTarget;
import dev.packed4j.runtime.internal.values.FunctionWordCodec;
import dev.packed4j.runtime.internal.values.ValueCodec;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Functions on a typed entry, without a call frame: a functional-interface or {@code PackedFunction} argument (a
 * callback in) as an object word, a function result (a closure out) wrapped once. What the call frame does with the
 * same codecs ({@code CallbackCodec.encode}, {@code FunctionCodec.encode}, their {@code decode}), so every route
 * gives the same values and failures.
 *
 * <p>A function argument becomes an owned object word: a lambda a new Java function object (as the frame makes one
 * per call; native code that keeps it takes its own reference), a closure out passed back or a {@code PackedFunction}
 * its own native function with a reference taken under a pin. The word is released in a {@code finally} when the
 * call returns; a Java function no native code kept is not destroyed but waits, its target dropped, in its codec's
 * pool (one per codec) for the next call ({@code CallbackCodec.releaseWord}), so a call costs no function object's
 * creation and no deleter upcall:
 *
 * <pre>{@code
 * long word = FunctionWords.word(target, i, codec, f);   // NullPointerException, closed: as the frame
 * try {
 *   return entry.invokeExact(..., word, ...);
 * } finally {
 *   FunctionWords.release(word);
 * }
 * }</pre>
 */
final class FunctionWords {
  private static final MethodHandle WORD;
  private static final MethodHandle RELEASE;
  private static final MethodHandle RESULT;

  static {
    MethodHandles.Lookup lookup = MethodHandles.lookup();
    try {
      WORD = lookup.findStatic(FunctionWords.class, "word",
          MethodType.methodType(long.class, CallTarget.class, int.class, ValueCodec.class, Object.class));
      RELEASE = lookup.findStatic(FunctionWords.class, "release",
          MethodType.methodType(void.class, ValueCodec.class, long.class));
      RESULT = lookup.findStatic(FunctionWords.class, "result",
          MethodType.methodType(Object.class, CallTarget.class, ValueCodec.class, long.class));
    } catch (ReflectiveOperationException e) {
      throw new AssertionError("the function word operations", e);
    }
  }

  private FunctionWords() {}

  /**
   * Whether {@code codec} is a function's: a functional interface ({@code Callbacks.typed} or {@code packed}) or
   * {@code PackedFunction}, which a typed entry takes and returns as an object word (signature type
   * {@code function}).
   */
  static boolean takes(ValueCodec<?> codec) {
    return codec instanceof FunctionWordCodec;
  }

  /**
   * {@code wired}, which takes the object word of a function at {@code index}, adapted to take the Java value of
   * {@code javaType} there (see the class comment). Applied once per function parameter, innermost first, so a
   * failing conversion of a later one releases the words already made.
   */
  static MethodHandle around(MethodHandle wired, CallTarget target, int index, ValueCodec<?> codec,
      Class<?> javaType) {
    Class<?> result = wired.type().returnType();
    MethodHandle cleanup = result == void.class
        ? MethodHandles.empty(MethodType.methodType(void.class, Throwable.class))
        : MethodHandles.dropArguments(MethodHandles.identity(result), 0, Throwable.class);
    int leading = cleanup.type().parameterCount();
    cleanup = MethodHandles.dropArguments(cleanup, leading, wired.type().parameterList());
    cleanup = MethodHandles.foldArguments(cleanup, leading + index, MethodHandles.insertArguments(RELEASE, 0, codec));
    MethodHandle tried = MethodHandles.tryFinally(wired, cleanup);
    MethodHandle word = MethodHandles.insertArguments(WORD, 0, target, index, codec)
        .asType(MethodType.methodType(long.class, javaType));
    return MethodHandles.filterArguments(tried, index, word);
  }

  /**
   * The filter {@code (long word) -> javaResult} of a typed entry's function result, an owned object word: what the
   * call frame returns through {@code codec} for the same function (the lambda that went out, for an echo), null for
   * 0 (None), the raised error for {@code P4J_TYPED_ERROR_I64} (a Java callback's exception is thrown as itself).
   */
  static MethodHandle resultFilter(CallTarget target, ValueCodec<?> codec, Class<?> javaResult) {
    return MethodHandles.insertArguments(RESULT, 0, target, codec)
        .asType(MethodType.methodType(javaResult, long.class));
  }

  private static long word(CallTarget target, int index, ValueCodec<?> codec, Object value) {
    if (value == null) {
      if (codec.acceptsNull()) {
        return 0; // None, which the entry refuses or takes as the packed call does
      }
      throw new NullPointerException(target.describeArgument(index) + " is null; " + codec.javaTypeWithArticle()
          + " argument must not be null" + (codec.nullHint().isEmpty() ? "" : " (" + codec.nullHint() + ")"));
    }
    try {
      return ((FunctionWordCodec) codec).ownedWord(value);
    } catch (ConversionFailure failure) {
      throw failure.toException(target.describeArgument(index), target.exceptionFunctionName());
    }
  }

  private static void release(ValueCodec<?> codec, long word) {
    if (word != 0) {
      ((FunctionWordCodec) codec).releaseWord(word);
    }
  }

  private static Object result(CallTarget target, ValueCodec<?> codec, long word) {
    if (word == P4J_TYPED_ERROR_I64) {
      throw Errors.takeRaised(target.exceptionFunctionName());
    }
    try {
      return ((FunctionWordCodec) codec).decodeOwnedWord(word);
    } catch (ConversionFailure failure) {
      throw failure.toResultException(target.describeSource(), target.exceptionFunctionName());
    }
  }
}
