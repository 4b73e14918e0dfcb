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
 * <p>A method whose parameters and result are primitives also asks the site for the function's typed entry
 * ({@link #typedEntry(MethodType)}) and calls it directly when there is one.
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
   * The typed entry of a function registered with {@code set_body_typed}, as a handle of exactly {@code type}: one
   * downcall with no packing and no call frame, for a method whose parameters and result are primitives.
   * Generated code keeps it in a {@code static final} field of a holder class initialised at the method's first
   * call, so the JIT inlines it, and calls it with {@code invokeExact}:
   *
   * <pre>{@code
   * private static final class AddEntry {
   *   static final MethodHandle TYPED = ADD.typedEntry(MethodType.methodType(int.class, int.class, int.class));
   * }
   * }</pre>
   *
   * <p>The handle behaves as the call frame does: {@code int}, {@code short} and {@code byte} arguments widen to
   * int64 and the native side range-checks its parameters; an integer result narrowing to {@code int},
   * {@code short} or {@code byte} (a float64 to {@code float}) is range-checked (ValueError naming function, method
   * and value); a native error is a {@link dev.packed4j.runtime.Packed4jException} naming the function. It throws
   * no checked exception (see {@link #rethrow(Throwable)}).
   *
   * @param type the Java method's type: primitive parameters and a primitive or {@code void} result, no
   *     {@code char}
   * @return the handle, or null when the call must go through a {@link CallFrame}: the function is not registered
   *     when this is called (or the core library does not load; the frame then reports it), it was registered
   *     with {@code set_body}, or its recorded signature does not fit {@code type} (different arity, a bool for a
   *     number, a float for an integer and so on; the frame reports the native TypeError)
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
