package dev.packed4j.runtime.internal.objects;


/**
 * Finds the classes packed4j-processor generates, by name: {@code p.Packed4j_Calculator} for
 * {@code p.Calculator}, {@code p.Packed4j_Outer_Inner} for {@code p.Outer.Inner}. No scanning, no proxies.
 */
public final class GeneratedClasses {
  private GeneratedClasses() {}

  /** The binary name of the class generated for {@code type}. */
  public static String nameFor(Class<?> type) {
    StringBuilder simpleNames = new StringBuilder(type.getSimpleName());
    for (Class<?> outer = type.getEnclosingClass(); outer != null; outer = outer.getEnclosingClass()) {
      simpleNames.insert(0, outer.getSimpleName() + "_");
    }
    String packageName = type.getPackageName();
    return (packageName.isEmpty() ? "" : packageName + ".") + "Packed4j_" + simpleNames;
  }

  /**
   * Loads and initialises the class generated for {@code type} with {@code type}'s class loader.
   *
   * @param annotation the annotation that makes the processor generate it, for the message
   * @throws IllegalStateException when there is no such class: the processor did not run
   */
  public static Class<?> load(Class<?> type, String annotation) {
    String name = nameFor(type);
    try {
      Class<?> generated = Class.forName(name, true, type.getClassLoader());
      if (!type.isAssignableFrom(generated)) {
        throw new IllegalStateException(name + " does not implement " + type.getName()
            + ": it was generated for another version of the interface; recompile " + type.getName()
            + " with packed4j-processor");
      }
      return generated;
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("no generated class " + name + " for " + type.getName()
          + ": packed4j-processor did not run on it. Put packed4j-processor on the compiler's "
          + "annotationProcessorPaths (javac 23+ ignores processors found only on the class path) and make sure "
          + type.getSimpleName() + " has " + annotation + " methods", e);
    }
  }

  /**
   * Loads the registrar generated for a class with exported static {@code @Global} methods.
   *
   * @param registrar the interface every registrar implements ({@code binding.Exports})
   * @throws IllegalStateException when there is none, or it is not a registrar
   */
  public static Class<?> loadRegistrar(Class<?> type, Class<?> registrar) {
    String name = nameFor(type);
    try {
      Class<?> generated = Class.forName(name, true, type.getClassLoader());
      if (!registrar.isAssignableFrom(generated)) {
        throw new IllegalStateException(name + " is not the registrar of " + type.getName()
            + ": Packed4j.register takes a class with static @Global methods (bind an interface with Packed4j.bind)");
      }
      return generated;
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("no generated registrar " + name + " for " + type.getName()
          + ": packed4j-processor did not run on it, or it has no static @Global method with a body. Put"
          + " packed4j-processor on the compiler's annotationProcessorPaths", e);
    }
  }
}
