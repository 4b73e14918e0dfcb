package dev.packed4j.runtime.binding;

import dev.packed4j.runtime.internal.CallTarget;
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
