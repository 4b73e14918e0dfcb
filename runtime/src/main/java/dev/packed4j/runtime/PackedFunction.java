package dev.packed4j.runtime;

import dev.packed4j.runtime.internal.capi.CApi;
import dev.packed4j.runtime.internal.capi.Errors;
import dev.packed4j.runtime.internal.capi.NativeMemory;
import dev.packed4j.runtime.internal.objects.ReleaseEpochs;
import dev.packed4j.runtime.internal.upcall.JavaFunctions;
import dev.packed4j.runtime.internal.values.AnyCodec;
import dev.packed4j.runtime.internal.values.CallTarget;
import dev.packed4j.runtime.internal.values.Frame;
import dev.packed4j.runtime.internal.values.ThreadStack;
import java.lang.ref.Reference;
import java.util.Objects;

/**
 * A native function object, called with dynamically converted arguments.
 *
 * <pre>{@code
 * PackedFunction add = Registry.global("calculator.MyAdd");
 * Object sum = add.invoke(1, 2);   // 3L
 * add.signature();                 // "" for set_body, "(int64, int64) -> int64" for set_body_typed
 * }</pre>
 *
 * <p>Arguments: null, Boolean, Byte/Short/Integer/Long, Float/Double, String, byte[], native objects (generated
 * {@code @Object} classes, NativeObject, PackedFunction, NativeList, NativeMap), java.util.List and Map (copied
 * to temporary native containers), Optional. Results: null, Boolean, Long, Double, String, byte[],
 * PackedFunction, {@code NativeList<Object>} and {@code NativeMap<Object, Object>} (live views), and objects as
 * the generated class of their type or nearest ancestor, else {@link NativeObject}. Object results are owned by
 * the caller: close them. One exception, by identity: a Java function that comes back while it is open is the
 * very object that went out ({@code ==}), not a second reference; it has one owner, the code that made it, and
 * closing the result closes that function (closing it again is harmless).
 *
 * <p>A function may also be Java: {@link #of(Body)} makes a native function object whose body is a lambda, for C++
 * to call (passed as an argument, or registered with {@link Registry#register(String, PackedFunction)}).
 */
public final class PackedFunction extends ObjectRef {
  private final String name;
  /** What made an unnamed function, for a use after close ("the LongUnaryOperator closure ..."); or null. */
  private final String origin;
  private final CallTarget target;

  PackedFunction(long handle, String name) {
    this(handle, name, null);
  }

  PackedFunction(long handle, String name, String origin) {
    super(handle);
    this.name = name;
    this.origin = origin;
    this.target = CallTarget.function(handle, name);
  }

  @Override
  String closedSubject() {
    return name != null ? "the function " + name : origin != null ? origin : super.closedSubject();
  }

  /**
   * The body of a function written in Java: called with the arguments converted as {@link #invoke} converts
   * results (null, Boolean, Long, Double, String, byte[], PackedFunction, native objects and containers), it
   * returns what {@link #invoke} accepts as an argument.
   */
  @FunctionalInterface
  public interface Body {
    /**
     * Runs the function.
     *
     * @param args the arguments, converted from their native values as {@link PackedFunction#invoke} results are
     * @return the result, converted to a native value as an argument of {@link PackedFunction#invoke} is (null for
     *     None)
     * @throws Exception anything: the caller on the native side gets it as an error (see {@link #of(Body)})
     */
    Object call(Object... args) throws Exception;
  }

  /**
   * A native function object whose body is Java, for C++ to call like any {@code PackedFunc}.
   *
   * <pre>{@code
   * try (PackedFunction twice = PackedFunction.of(args -> 2 * (Long) args[0])) {
   *   twice.invoke(21);                          // 42L, through the native function object
   *   Registry.global("demo.Apply").invoke(twice, 21); // C++ calls back into the lambda
   * }
   * }</pre>
   *
   * <p>The lambda stays reachable as long as native code holds the function (a C++ object that kept it, the
   * registry), whatever happens to the returned Java object, and is released when the last native reference goes.
   * An exception thrown by the body becomes a native error: kind {@code RuntimeError} (a
   * {@link Packed4jException} keeps its kind), message {@code Throwable.toString()}, the Java stack in the
   * backtrace; C++ catches it as a {@code packed4j::Error}. When it comes back to a Java caller, that caller gets
   * the same exception object, with the native error it crossed as a suppressed {@link Packed4jException}.
   *
   * @param body called on the thread the native caller runs on, possibly several at once
   * @return a function owning one reference, released by {@link #close()} or the garbage collector
   */
  public static PackedFunction of(Body body) {
    Objects.requireNonNull(body, "body");
    return (PackedFunction) JavaFunctions.create(body, body::call);
  }

  /**
   * Calls the function.
   *
   * @param args the arguments: numbers, booleans, Strings, byte arrays, lists, maps, native values, functions, or
   *     null for None
   * @return the result converted to Java (a boxed number, String, {@code List}, native object or function, or null
   *     for None); an object or function result is owned by the caller
   * @throws Packed4jException the native error (kind, message, backtrace), or a TypeError for an argument
   *     without native representation
   * @throws NullPointerException when {@code args} is null (pass {@code (Object) null} for a None argument)
   * @throws IllegalStateException when this function or an object argument is closed
   */
  public Object invoke(Object... args) {
    ReleaseEpochs.Pin pin = pin(); // a close on another thread waits for the call
    try (Frame frame = ThreadStack.current().push(target, args.length)) {
      for (int i = 0; i < args.length; i++) {
        frame.put(i, AnyCodec.ANY, args[i]);
      }
      frame.invoke();
      return frame.returnValue(AnyCodec.ANY);
    } finally {
      pin.unpin();
      Reference.reachabilityFence(this);
    }
  }

  /** {@return the registered name when this function came from {@link Registry}, else null} */
  public String name() {
    return name;
  }

  /**
   * The signature recorded by {@code set_body_typed}, such as {@code "(int64, int64) -> int64"}; empty for an
   * untyped function.
   *
   * @return the recorded signature, or the empty string
   */
  public String signature() {
    ReleaseEpochs.Pin pin = pin();
    try (Frame frame = ThreadStack.current().push(target, 0)) {
      long span = frame.scratch(16, 8);
      Errors.check(CApi.P4JFunctionGetSignature(pin.pinnedHandle(), span), name);
      return NativeMemory.spanString(span);
    } finally {
      pin.unpin();
      Reference.reachabilityFence(this);
    }
  }

  /** {@code PackedFunction[calculator.Mul (int64, int64) -> int64]}. */
  @Override
  public String toString() {
    String signature;
    try {
      signature = signature();
    } catch (IllegalStateException closed) {
      return "PackedFunction[" + (name == null ? "anonymous" : name) + ", closed]";
    }
    return "PackedFunction[" + (name == null ? "anonymous" : name) + (signature.isEmpty() ? "" : " " + signature)
        + "]";
  }
}
