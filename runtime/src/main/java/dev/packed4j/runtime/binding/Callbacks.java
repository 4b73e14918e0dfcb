package dev.packed4j.runtime.binding;

import dev.packed4j.runtime.PackedFunction;
import dev.packed4j.runtime.internal.capi.NativeAccess;
import dev.packed4j.runtime.internal.capi.NativeMemory;
import dev.packed4j.runtime.internal.errors.ConversionFailure;
import dev.packed4j.runtime.internal.errors.ErrorKind;
import dev.packed4j.runtime.internal.errors.Failures;
import dev.packed4j.runtime.internal.upcall.CallbackCodec;
import dev.packed4j.runtime.internal.upcall.ClosureCalls;
import dev.packed4j.runtime.internal.upcall.JavaFunctions;
import dev.packed4j.types.Narrowing;
import java.lang.invoke.MethodHandles;
import java.util.Objects;
import java.util.function.Function;

/**
 * Functional interfaces across the boundary, for generated code: a Java lambda passed to a {@code @Global} becomes
 * a native function object (a callback in), a function a {@code @Global} returns becomes an implementation of the
 * declared interface (a closure out).
 *
 * <p>For {@code @Global("demo.Apply") long apply(LongBinaryOperator op, long a, long b);} the processor writes
 *
 * <pre>{@code
 * private static final Codec<LongBinaryOperator> APPLY_ARG_0 = Callbacks.typed(LongBinaryOperator.class,
 *     "(int64, int64) -> int64",
 *     f -> (CallbackBodies.Wire2) (a0, a1) -> f.applyAsLong(a0, a1),
 *     function -> (a0, a1) -> Callbacks.call(function, Codecs.LONG, a0, a1));
 * }</pre>
 *
 * <p>A typed callback (parameters scalars or strings, result a scalar or void, at most four parameters) has a typed
 * entry: C++ that knows its signature calls it with no packing, through one upcall stub per machine shape. Any
 * other interface gets a packed body whose arguments are decoded by codecs ({@link #packed}). A lambda that comes
 * back from native code is the same Java object; a native function is wrapped once per result.
 */
public final class Callbacks {
  private Callbacks() {}

  /**
   * The codec of a functional interface with a typed entry.
   *
   * @param type the interface (its raw class for a generic one: {@code Callbacks.<Function<String, String>>typed(
   *     Function.class, ...)})
   * @param signature its native signature, {@code "(int64, int64) -> int64"}
   * @param toWire wraps a Java implementation in the {@code WireN} body of its arity
   * @param fromFunction wraps a native function in a new implementation of the interface that holds it (a lambda
   *     capturing it); when that implementation is also a {@link dev.packed4j.runtime.NativeClosure}, closing it
   *     closes the function, so it must be made for this function alone, never shared or cached
   * @param <F> the functional interface
   * @return the codec, for generated code to pass implementations of the interface to native code and back
   */
  public static <F> Codec<F> typed(Class<? super F> type, String signature, Function<? super F, ?> toWire,
      Function<PackedFunction, ? extends F> fromFunction) {
    return CallbackCodec.typed(Objects.requireNonNull(type, "type"), Objects.requireNonNull(signature, "signature"),
        toWire, asView(fromFunction));
  }

  /**
   * The codec of a functional interface called packed: every argument decoded by a codec.
   *
   * @param signature its native signature, recorded on the function object (as {@code set_body_typed} does)
   * @param fromFunction as for {@link #typed}
   * @param <F> the functional interface
   * @param type the interface (its raw class for a generic one)
   * @param toPacked wraps a Java implementation in the {@link CallbackBodies.Packed} body that decodes its arguments
   * @return the codec
   */
  public static <F> Codec<F> packed(Class<? super F> type, String signature,
      Function<? super F, CallbackBodies.Packed> toPacked, Function<PackedFunction, ? extends F> fromFunction) {
    return CallbackCodec.packed(Objects.requireNonNull(type, "type"), Objects.requireNonNull(signature, "signature"),
        toPacked, asView(fromFunction));
  }

  /** {@code fromFunction} for the upcall code, which sees a PackedFunction as an {@code Object}. */
  private static <F> Function<Object, ? extends F> asView(Function<PackedFunction, ? extends F> fromFunction) {
    Objects.requireNonNull(fromFunction, "fromFunction");
    return function -> fromFunction.apply((PackedFunction) function);
  }

  /**
   * A native function object for {@code implementation}, made as {@code codec} makes one for an argument (typed
   * entry and signature included): what a generated registrar hands to {@code Registry.register}.
   *
   * @param codec a codec from {@link #typed} or {@link #packed}
   * @param <F> the functional interface
   * @param implementation the Java implementation the function calls
   * @return a function owning one reference
   */
  public static <F> PackedFunction function(Codec<F> codec, F implementation) {
    if (!(codec instanceof CallbackCodec<F> callbackCodec)) {
      throw new IllegalArgumentException(codec + " is not a codec of Callbacks.typed or Callbacks.packed");
    }
    return (PackedFunction) callbackCodec.toFunction(Objects.requireNonNull(implementation, "implementation"));
  }

  /**
   * A function object with a typed entry of {@code signature} calling {@code wire} (a {@code WireN} of its arity):
   * an exported static method, in a generated registrar.
   *
   * @param signature the native signature, such as {@code "(int64, int64) -> int64"}
   * @param wire the body, a {@code WireN} of the signature's arity
   * @return a function owning one reference
   */
  public static PackedFunction typedFunction(String signature, Object wire) {
    return (PackedFunction) JavaFunctions.typedFunction(Objects.requireNonNull(signature, "signature"),
        Objects.requireNonNull(wire, "wire"));
  }

  /**
   * A function object recording {@code signature} whose arguments {@code body} decodes with codecs.
   *
   * @param signature the native signature recorded on the function
   * @param body the body, which decodes its arguments with codecs
   * @return a function owning one reference
   */
  public static PackedFunction packedFunction(String signature, CallbackBodies.Packed body) {
    return (PackedFunction) JavaFunctions.packedFunction(Objects.requireNonNull(signature, "signature"),
        Objects.requireNonNull(body, "body"));
  }

  /**
   * Calls a native function from a closure-out implementation: arguments converted by their runtime type, the
   * result by {@code result} (range-checked narrowing, TypeError for another kind).
   *
   * @param <R> the Java result type
   * @param function the native function (open)
   * @param result the codec of the result
   * @param args the arguments, converted by their runtime types
   * @return the converted result
   */
  public static <R> R call(PackedFunction function, Codec<R> result, Object... args) {
    return ClosureCalls.call(function, function.name(), result, args);
  }

  /**
   * {@link #call} for a void method: any result is released.
   *
   * @param function the native function (open)
   * @param args the arguments, converted by their runtime types
   */
  public static void callVoid(PackedFunction function, Object... args) {
    ClosureCalls.call(function, function.name(), null, args);
  }

  // ---------------------------------------------------------------- wire values in a typed body

  /**
   * An int64 argument as {@code int}: ValueError when out of range. Code generated before the argument's index was
   * passed calls this; its error does not name the function.
   *
   * @param value the wire value
   * @return the value
   */
  public static int toInt(long value) {
    if (!Narrowing.fitsInt(value)) {
      throw outOfRange(value, "int");
    }
    return (int) value;
  }

  /**
   * Argument {@code argument} of a typed body, an int64, as {@code int}: a ValueError naming the function and the
   * argument when out of range.
   *
   * @param value the wire value
   * @param argument the argument's index, for the error
   * @return the value
   */
  public static int toInt(long value, int argument) {
    if (!Narrowing.fitsInt(value)) {
      throw outOfRange(String.valueOf(value), "int", argument);
    }
    return (int) value;
  }

  /**
   * An int64 argument as {@code short}: ValueError when out of range. Code generated before the argument's index
   * was passed calls this; its error does not name the function.
   *
   * @param value the wire value
   * @return the value
   */
  public static short toShort(long value) {
    if (!Narrowing.fitsShort(value)) {
      throw outOfRange(value, "short");
    }
    return (short) value;
  }

  /**
   * Argument {@code argument} of a typed body, an int64, as {@code short}: a ValueError naming the function and the
   * argument when out of range.
   *
   * @param value the wire value
   * @param argument the argument's index, for the error
   * @return the value
   */
  public static short toShort(long value, int argument) {
    if (!Narrowing.fitsShort(value)) {
      throw outOfRange(String.valueOf(value), "short", argument);
    }
    return (short) value;
  }

  /**
   * An int64 argument as {@code byte}: ValueError when out of range. Code generated before the argument's index was
   * passed calls this; its error does not name the function.
   *
   * @param value the wire value
   * @return the value
   */
  public static byte toByte(long value) {
    if (!Narrowing.fitsByte(value)) {
      throw outOfRange(value, "byte");
    }
    return (byte) value;
  }

  /**
   * Argument {@code argument} of a typed body, an int64, as {@code byte}: a ValueError naming the function and the
   * argument when out of range.
   *
   * @param value the wire value
   * @param argument the argument's index, for the error
   * @return the value
   */
  public static byte toByte(long value, int argument) {
    if (!Narrowing.fitsByte(value)) {
      throw outOfRange(String.valueOf(value), "byte", argument);
    }
    return (byte) value;
  }

  /**
   * A float64 argument (its bits) as {@code double}.
   *
   * @param bits the bits of a double
   * @return the double
   */
  public static double toDouble(long bits) {
    return Double.longBitsToDouble(bits);
  }

  /**
   * A float64 argument (its bits) as {@code float}: ValueError for a finite value beyond {@code float}'s range (the
   * one narrowing rule, {@link Narrowing#fitsFloat}, as for a result); NaN and the infinities pass, precision may
   * drop.
   *
   * @param bits the bits of a double
   * @return the double narrowed to float
   */
  public static float toFloat(long bits) {
    double value = Double.longBitsToDouble(bits);
    if (!Narrowing.fitsFloat(value)) {
      throw outOfRange(String.valueOf(value), "float");
    }
    return (float) value;
  }

  /**
   * Argument {@code argument} of a typed body, a float64 (its bits), as {@code float}: as {@link #toFloat(long)},
   * with a ValueError that names the function and the argument.
   *
   * @param bits the bits of a double
   * @param argument the argument's index, for the error
   * @return the double narrowed to float
   */
  public static float toFloat(long bits, int argument) {
    double value = Double.longBitsToDouble(bits);
    if (!Narrowing.fitsFloat(value)) {
      throw outOfRange(String.valueOf(value), "float", argument);
    }
    return (float) value;
  }

  /**
   * A bool argument.
   *
   * @param value the wire value
   * @return whether the value is not 0
   */
  public static boolean toBoolean(long value) {
    return value != 0;
  }

  /**
   * Hands {@code body} the reader of string arguments in typed bodies, whose wire value is the address of a UTF-8
   * span: what a generated class does once, where a typed body takes a {@code String}. As reading an address is
   * what restricted methods do, the reader is given only to a caller whose module has native access, with the
   * JDK's rule: with {@code --enable-native-access} for it, silently; without, the JDK's warning (or, under
   * {@code --illegal-native-access=deny}, an {@link IllegalCallerException}).
   *
   * <pre>{@code
   * Callbacks.withStringSpans(MethodHandles.lookup(), spans -> Callbacks.typed(Consumer.class, "(string) -> void",
   *     f -> (CallbackBodies.Wire1) a0 -> { f.accept(spans.read(a0)); return 0L; }, ...))
   * }</pre>
   *
   * @param caller the caller's own lookup, {@code MethodHandles.lookup()}
   * @param body makes what needs the reader (a codec, a typed body)
   * @param <T> what {@code body} makes
   * @return what {@code body} returned
   * @throws IllegalCallerException when the caller's module may not access native memory
   */
  public static <T> T withStringSpans(MethodHandles.Lookup caller, Function<? super StringSpans, ? extends T> body) {
    NativeAccess.check(Objects.requireNonNull(caller, "caller"), "Callbacks.withStringSpans");
    return Objects.requireNonNull(body, "body").apply(StringSpans.INSTANCE);
  }

  /**
   * Reads the string arguments of typed bodies, given by {@link #withStringSpans} to code with native access only:
   * it reads whatever address it is given.
   */
  public static final class StringSpans {
    static final StringSpans INSTANCE = new StringSpans();

    private StringSpans() {}

    /**
     * A string argument: the address of a {@code P4JByteArray} span of UTF-8 bytes, as the typed entry passed it.
     *
     * @param span the span's address, the wire value of the argument
     * @return the decoded string
     */
    public String read(long span) {
      return NativeMemory.spanString(span);
    }
  }

  /**
   * A {@code double} result as its bits.
   *
   * @param value the Java result
   * @return its bits
   */
  public static long fromDouble(double value) {
    return Double.doubleToRawLongBits(value);
  }

  /**
   * A {@code boolean} result.
   *
   * @param value the Java result
   * @return 1 or 0
   */
  public static long fromBoolean(boolean value) {
    return value ? 1 : 0;
  }

  private static RuntimeException outOfRange(long value, String type) {
    return outOfRange(String.valueOf(value), type);
  }

  private static RuntimeException outOfRange(String value, String type) {
    return Failures.error(ErrorKind.VALUE_ERROR, "a callback argument " + value + " does not fit in " + type,
        null);
  }

  /** Named by the upcall that called the body: "argument 0 of the Java function demo.Add (...): 2^40, which ...". */
  private static RuntimeException outOfRange(String value, String type, int argument) {
    return ConversionFailure.ofArgument(ConversionFailure.Kind.VALUE, value + ", which does not fit in " + type,
        argument);
  }
}
