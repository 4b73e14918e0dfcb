package dev.packed4j.processor.model;

import java.util.List;

/**
 * The name of a Java type as its package and its simple names from the outermost type in:
 * {@code p.Outer.Inner} is {@code ("p", ["Outer", "Inner"])}.
 */
public record QualifiedName(String packageName, List<String> simpleNames) {
  public QualifiedName {
    simpleNames = List.copyOf(simpleNames);
    if (simpleNames.isEmpty()) {
      throw new IllegalArgumentException("a type name needs at least one simple name");
    }
  }

  /** The name as source code spells it from another package: {@code p.Outer.Inner}. */
  public String canonical() {
    String nested = nestedName();
    return packageName.isEmpty() ? nested : packageName + "." + nested;
  }

  /** The simple names joined by dots, as code in the same package spells it: {@code Outer.Inner}. */
  public String nestedName() {
    return String.join(".", simpleNames);
  }

  /** The simple name of the type itself: {@code Inner}. */
  public String simpleName() {
    return simpleNames.get(simpleNames.size() - 1);
  }

  /**
   * The top-level class generated for this type, in the same package: {@code Packed4j_Outer_Inner}. The runtime
   * finds it by this name.
   */
  public QualifiedName generatedClass() {
    return new QualifiedName(packageName, List.of("Packed4j_" + String.join("_", simpleNames)));
  }
}
