package dev.packed4j.processor.model;

import java.util.List;

/**
 * An abstract interface method bound to a native global function, or to a constructor or static method of a native
 * type ({@code @Constructor}, {@code @Method(of = ...)}).
 *
 * @param name the Java method name
 * @param globalName the registered name of the native function; for a member, {@code "TypeKey.name"}
 * @param declaringInterface where the method is declared, {@code Outer.Inner} (an interface can inherit it)
 * @param parameters in declaration order
 * @param result {@link TypeModel.VoidType} for {@code void}
 * @param varargs whether the last parameter ({@code byte...}) is declared as varargs
 * @param deprecation how the method is deprecated: its implementation repeats it (see {@link
 *     dev.packed4j.processor.generate.GeneratedAnnotations})
 * @param member the type member it calls, or null for a global function
 */
public record GlobalMethod(
    String name,
    String globalName,
    String declaringInterface,
    List<Parameter> parameters,
    TypeModel result,
    boolean varargs,
    Deprecation deprecation,
    Member member) {
  public GlobalMethod {
    parameters = List.copyOf(parameters);
  }

  /** A method bound to a global function. */
  public GlobalMethod(String name, String globalName, String declaringInterface, List<Parameter> parameters,
      TypeModel result, boolean varargs, Deprecation deprecation) {
    this(name, globalName, declaringInterface, parameters, result, varargs, deprecation, null);
  }

  /**
   * The type member a bound-interface method calls.
   *
   * @param typeKey the type's key
   * @param name the registered name ({@code "__init__"} for the constructor)
   * @param constructor true for {@code @Constructor}, false for a static method
   */
  public record Member(String typeKey, String name, boolean constructor) {}

  /** How the runtime names this method in errors: {@code Calculator.add}. */
  public String javaName() {
    return declaringInterface + "." + name;
  }
}
