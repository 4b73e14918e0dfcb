package dev.packed4j.runtime;

import dev.packed4j.runtime.internal.CallTarget;
import dev.packed4j.runtime.internal.ObjectTypeCatalog;
import dev.packed4j.runtime.internal.Registries;
import dev.packed4j.runtime.internal.capi.CApi;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The native registry: the global functions {@code P4J_REGISTER_GLOBAL} registered and the object types
 * {@code P4J_REGISTER_OBJECT_TYPE} registered, in libpacked4j.so and in the plugin libraries loaded so far.
 *
 * <pre>{@code
 * Packed4j.loadLibrary(Path.of("build/libcalculator.so"));
 * Registry.list();                                      // [calculator.MyAdd, ..., packed4j.ListSize, ...]
 * PackedFunction add = Registry.global("calculator.MyAdd");
 * add.invoke(1, 2);                                     // 3L
 * Registry.find("calculator.Missing");                  // Optional.empty()
 * Registry.objectType("Calculator").orElseThrow().fields(); // [brand: string, price: int32]
 * }</pre>
 */
public final class Registry {
  private Registry() {}

  /**
   * The function registered under {@code name}.
   *
   * @throws Packed4jException KeyError naming {@code name} and the registered names close to it
   */
  public static PackedFunction global(String name) {
    return find(name).orElseThrow(() -> Registries.unknownFunction(name, null));
  }

  /** The function registered under {@code name}, if any. */
  public static Optional<PackedFunction> find(String name) {
    Objects.requireNonNull(name, "name");
    long handle = CallTarget.lookupGlobal(name);
    if (handle == 0) {
      return Optional.empty();
    }
    // The registry's handle is borrowed; the PackedFunction owns a reference of its own.
    CApi.P4JObjectIncRef(handle);
    return Optional.of(new PackedFunction(handle, name));
  }

  /** The registered names, sorted. */
  public static List<String> list() {
    return Registries.names();
  }

  /**
   * Every registered object type with its parent and fields: the core's built-in types ({@code Object},
   * {@code Function}, {@code String}, {@code Bytes}, {@code List}, {@code Map}, {@code Error}, {@code NDArray})
   * first, then the libraries' types in the order they were registered.
   */
  public static List<ObjectTypeInfo> objectTypes() {
    return ObjectTypeCatalog.all();
  }

  /** The object type registered under {@code key}, if any. */
  public static Optional<ObjectTypeInfo> objectType(String key) {
    Objects.requireNonNull(key, "key");
    return ObjectTypeCatalog.find(key);
  }
}
