package dev.packed4j.runtime.binding;

import dev.packed4j.runtime.internal.CallTarget;
import dev.packed4j.runtime.internal.TypedEntries;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.util.Objects;

/**
 * A call site in generated code: a global function name, the Java method bound to it and its parameter names.
 *
 * <p>The function is looked up in the registry on the first call and cached (an unknown name is a
 * {@code Packed4jException} naming it, with near names). Every conversion error of a call names the function,
 * the Java method and the argument.
 *
 * <pre>{@code
 * private static final FunctionSite ADD =
 *     new FunctionSite("calculator.MyAdd", "Calculator.add", new String[] {"a", "b"});
 * }</pre>
 *
 * <p>A method whose parameters are primitives or Strings and whose result is a primitive also asks the site for a
 * direct entry ({@link #typedEntry(MethodType)}) and calls it when there is one.
 */
public final class FunctionSite {
  final CallTarget target;
  private final String globalName;
  private final String javaMethod;

  /**
   * @param globalName the registered name, such as {@code "calculator.MyAdd"}
   * @param javaMethod the bound method for messages, such as {@code "Calculator.add"}
   * @param parameterNames the Java parameter names, in order
   */
  public FunctionSite(String globalName, String javaMethod, String[] parameterNames) {
    this.globalName = Objects.requireNonNull(globalName, "globalName");
    this.javaMethod = Objects.requireNonNull(javaMethod, "javaMethod");
    this.target = CallTarget.global(globalName, javaMethod, Objects.requireNonNull(parameterNames, "parameterNames"));
  }

  /**
   * The direct entry of the function for a method whose parameters are primitives or Strings and whose result is a
   * primitive or {@code void}: one downcall with no packing and no argument slots. Generated code keeps it in a
   * {@code static final} field of a holder class initialised at the method's first call, so the JIT inlines it,
   * and calls it with {@code invokeExact}:
   *
   * <pre>{@code
   * private static final class AddEntry {
   *   static final MethodHandle TYPED = ADD.typedEntry(MethodType.methodType(int.class, int.class, int.class));
   * }
   * }</pre>
   *
   * <p>For a function registered with {@code set_body_typed} over scalars and strings this is its typed entry: the
   * arguments are passed as the C++ parameters take them. Any other function (one registered with {@code set_body},
   * or one whose signature does not fit {@code type}) is called through its packed body with the arguments in
   * registers, when the method has at most four parameters and none is a String.
   *
   * <p>The handle's type is {@code type} with each {@code String} parameter replaced by {@code long}: the address
   * {@link CallFrame#putStringSpan} returns, from a frame that stays open during the call. It behaves as the call
   * frame does: {@code int}, {@code short} and {@code byte} arguments widen to int64 and the native side
   * range-checks its parameters; an integer result narrowing to {@code int}, {@code short} or {@code byte} (a
   * float64 to {@code float}) is range-checked (ValueError naming function, method and value); a result of another
   * kind is the frame's TypeError; a native error is a {@link dev.packed4j.runtime.Packed4jException} naming the
   * function. It throws no checked exception (see {@link #rethrow(Throwable)}).
   *
   * @param type the Java method's type: primitive (not {@code char}) or {@code String} parameters and a primitive
   *     (not {@code char}) or {@code void} result
   * @return the handle, or null when the call must go through a {@link CallFrame}: the function is not registered
   *     when this is called (or the core library does not load; the frame then reports it), or it has no typed
   *     entry that fits {@code type} and {@code type} has a String parameter or more than four parameters
   * @throws IllegalArgumentException when {@code type} has a parameter or result type other than those above
   */
  public MethodHandle typedEntry(MethodType type) {
    return TypedEntries.link(target, Objects.requireNonNull(type, "type"));
  }

  /**
   * Rethrows what a typed entry threw: a typed entry handle throws only unchecked exceptions, but
   * {@code invokeExact} declares {@link Throwable}. Always throws; declared to return so a caller can write
   * {@code throw FunctionSite.rethrow(e)}.
   */
  public static RuntimeException rethrow(Throwable failure) {
    if (failure instanceof RuntimeException unchecked) {
      throw unchecked;
    }
    if (failure instanceof Error error) {
      throw error;
    }
    throw new AssertionError("a typed entry threw a checked exception", failure);
  }

  /** The registered function name. */
  public String globalName() {
    return globalName;
  }

  /** The Java method this site implements, such as {@code Calculator.add}. */
  public String javaMethod() {
    return javaMethod;
  }

  @Override
  public String toString() {
    return globalName + " (" + javaMethod + ")";
  }
}
