package dev.packed4j.processor.model;

import java.util.List;

/**
 * An abstract method of an {@code @Object} interface that calls a method the type's object definition registers,
 * with the object first.
 *
 * @param name the Java method name
 * @param nativeName the registered name: the Java name, or the {@code @Method} value
 * @param declaringInterface where the method is declared, {@code Outer.Inner}, for messages
 * @param parameters in declaration order, the object not among them
 * @param result {@link TypeModel.VoidType} for {@code void}
 * @param varargs whether the last parameter is declared as varargs
 * @param deprecation how the method is deprecated: its implementation repeats it
 */
public record ObjectMethod(
    String name,
    String nativeName,
    String declaringInterface,
    List<Parameter> parameters,
    TypeModel result,
    boolean varargs,
    Deprecation deprecation) {
  public ObjectMethod {
    parameters = List.copyOf(parameters);
  }

  /** How the runtime names this method in errors: {@code CalculatorRef.add}. */
  public String javaName() {
    return declaringInterface + "." + name;
  }
}
