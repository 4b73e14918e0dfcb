package dev.packed4j.processor.model;

import java.util.List;

/**
 * An abstract interface method bound to a native global function.
 *
 * @param name the Java method name
 * @param globalName the registered name of the native function
 * @param declaringInterface where the method is declared, {@code Outer.Inner} (an interface can inherit it)
 * @param parameters in declaration order
 * @param result {@link TypeModel.VoidType} for {@code void}
 * @param varargs whether the last parameter ({@code byte...}) is declared as varargs
 * @param deprecation how the method is deprecated: its implementation repeats it (see {@link
 *     dev.packed4j.processor.generate.GeneratedAnnotations})
 */
public record GlobalMethod(
    String name,
    String globalName,
    String declaringInterface,
    List<Parameter> parameters,
    TypeModel result,
    boolean varargs,
    Deprecation deprecation) {
  public GlobalMethod {
    parameters = List.copyOf(parameters);
  }

  /** How the runtime names this method in errors: {@code Calculator.add}. */
  public String javaName() {
    return declaringInterface + "." + name;
  }
}
