package dev.packed4j.runtime.internal.objects;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.WeakHashMap;

/**
 * Finds the generated class of a native type key that no loaded class has registered yet, from the index
 * packed4j-processor writes: every {@code META-INF/packed4j/object-types.properties} resource a class loader sees,
 * each line {@code typeKey=binary.name.of.Packed4j_Generated}.
 *
 * <p>So a {@code test.LeafNode} returned where a {@code test.Node} is declared is viewed as {@code LeafNode} even
 * when nothing has touched {@code LeafNode} before. Reading resources by a fixed name is what
 * {@link java.util.ServiceLoader} does; there is no class path scanning.
 */
final class ObjectTypeIndex {
  private ObjectTypeIndex() {}

  /** The resource every jar or output directory with {@code @Object} interfaces carries. */
  public static final String RESOURCE = "META-INF/packed4j/object-types.properties";

  private static final Map<ClassLoader, Map<String, String>> BY_LOADER = new WeakHashMap<>();

  /**
   * Loads and initialises the generated class the index of {@code loader} lists for {@code typeKey}, so its
   * static {@code TYPE} registers its view.
   *
   * @return whether a class was listed and loaded
   */
  public static boolean load(String typeKey, ClassLoader loader) {
    String className = entries(loader).get(typeKey);
    if (className == null) {
      return false;
    }
    try {
      Class.forName(className, true, loader);
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      // A stale index entry: the object is then viewed through its nearest loaded ancestor.
      return false;
    }
  }

  private static Map<String, String> entries(ClassLoader loader) {
    synchronized (BY_LOADER) {
      Map<String, String> entries = BY_LOADER.get(loader);
      if (entries == null) {
        entries = read(loader);
        BY_LOADER.put(loader, entries);
      }
      return entries;
    }
  }

  private static Map<String, String> read(ClassLoader loader) {
    Map<String, String> entries = new HashMap<>();
    try {
      Enumeration<URL> resources = loader == null
          ? ClassLoader.getSystemResources(RESOURCE)
          : loader.getResources(RESOURCE);
      for (URL resource : Collections.list(resources)) {
        Properties properties = new Properties();
        try (InputStream in = resource.openStream()) {
          properties.load(new InputStreamReader(in, StandardCharsets.UTF_8));
        }
        for (String key : properties.stringPropertyNames()) {
          entries.putIfAbsent(key, properties.getProperty(key).trim());
        }
      }
    } catch (IOException e) {
      // An unreadable index only means views are found once their classes are used.
    }
    return Map.copyOf(entries);
  }
}
