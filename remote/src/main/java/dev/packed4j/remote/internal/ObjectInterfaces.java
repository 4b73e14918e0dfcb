package dev.packed4j.remote.internal;

import dev.packed4j.runtime.ObjectRef;

/**
 * Which interfaces are {@code @Object} interfaces: those packed4j-processor generated an {@code ObjectRef} subclass
 * for ({@code p.Packed4j_Name}, found by name as the runtime finds it, without initialising it). The annotation
 * itself is not visible at run time (class retention).
 */
final class ObjectInterfaces {
  private ObjectInterfaces() {}

  private static final ClassValue<Boolean> OBJECT_INTERFACE = new ClassValue<>() {
    @Override
    protected Boolean computeValue(Class<?> type) {
      if (!type.isInterface()) {
        return false;
      }
      try {
        Class<?> generated = Class.forName(generatedName(type), false, type.getClassLoader());
        return ObjectRef.class.isAssignableFrom(generated) && type.isAssignableFrom(generated);
      } catch (ClassNotFoundException e) {
        return false;
      }
    }
  };

  private static final ClassValue<java.util.Map<String, String>> MEMBERS = new ClassValue<>() {
    @Override
    @SuppressWarnings("unchecked")
    protected java.util.Map<String, String> computeValue(Class<?> type) {
      try {
        Class<?> generated = Class.forName(generatedName(type), true, type.getClassLoader());
        return (java.util.Map<String, String>) generated.getField("MEMBERS").get(null);
      } catch (ReflectiveOperationException | ClassCastException | LinkageError e) {
        return java.util.Map.of(); // generated before MEMBERS existed: getters by name
      }
    }
  };

  /** The {@code MEMBERS} table of an {@code @Object} interface's generated class: method to "get/set/call name". */
  static java.util.Map<String, String> members(Class<?> type) {
    return MEMBERS.get(type);
  }

  static boolean isObjectInterface(Class<?> type) {
    return OBJECT_INTERFACE.get(type);
  }

  /** The binary name of the class packed4j-processor generates for {@code type} (GeneratedClasses' rule). */
  static String generatedName(Class<?> type) {
    StringBuilder simpleNames = new StringBuilder(type.getSimpleName());
    for (Class<?> outer = type.getEnclosingClass(); outer != null; outer = outer.getEnclosingClass()) {
      simpleNames.insert(0, outer.getSimpleName() + "_");
    }
    String packageName = type.getPackageName();
    return (packageName.isEmpty() ? "" : packageName + ".") + "Packed4j_" + simpleNames;
  }
}
