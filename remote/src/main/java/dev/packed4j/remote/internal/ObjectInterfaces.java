package dev.packed4j.remote.internal;

import dev.packed4j.runtime.ObjectRef;
import java.util.HashMap;
import java.util.Map;
import java.util.WeakHashMap;

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

  private static final ClassValue<String> TYPE_KEY = new ClassValue<>() {
    @Override
    protected String computeValue(Class<?> type) {
      try {
        Class<?> generated = Class.forName(generatedName(type), false, type.getClassLoader());
        return (String) generated.getField("TYPE_KEY").get(null);
      } catch (ReflectiveOperationException | ClassCastException | LinkageError e) {
        return null;
      }
    }
  };

  /** The index every jar with {@code @Object} interfaces carries: type key = generated class (the runtime's). */
  private static final String INDEX = "META-INF/packed4j/object-types.properties";

  private static final Map<ClassLoader, Map<String, String>> INDEXES = new WeakHashMap<>();

  /** The type key of an {@code @Object} interface (its generated class's {@code TYPE_KEY}), or null. */
  static String typeKey(Class<?> type) {
    return TYPE_KEY.get(type);
  }

  /**
   * The {@code @Object} interface to view a session's object of {@code typeKey} through where {@code declared} is
   * declared: the interface of that type key (found, as the runtime finds it, through the generated classes' index
   * of the declared interface's loader) when it extends {@code declared}, so a child type arrives as its own view as
   * it does locally; else {@code declared}.
   */
  static Class<?> viewFor(String typeKey, Class<?> declared) {
    ClassLoader loader = declared.getClassLoader();
    String generated;
    synchronized (INDEXES) {
      generated = INDEXES.computeIfAbsent(loader, ObjectInterfaces::readIndex).get(typeKey);
    }
    if (generated == null) {
      return declared;
    }
    try {
      for (Class<?> candidate : Class.forName(generated, false, loader).getInterfaces()) {
        if (declared.isAssignableFrom(candidate) && isObjectInterface(candidate)) {
          return candidate;
        }
      }
    } catch (ClassNotFoundException | LinkageError stale) {
      // an index entry whose class is gone: the declared view
    }
    return declared;
  }

  private static Map<String, String> readIndex(ClassLoader loader) {
    Map<String, String> entries = new HashMap<>();
    try {
      for (java.net.URL resource : java.util.Collections.list(loader == null
          ? ClassLoader.getSystemResources(INDEX) : loader.getResources(INDEX))) {
        java.util.Properties properties = new java.util.Properties();
        try (java.io.InputStream in = resource.openStream()) {
          properties.load(new java.io.InputStreamReader(in, java.nio.charset.StandardCharsets.UTF_8));
        }
        properties.stringPropertyNames().forEach(key -> entries.putIfAbsent(key, properties.getProperty(key).trim()));
      }
    } catch (java.io.IOException unreadable) {
      // no index: objects arrive as the declared view
    }
    return entries;
  }

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
