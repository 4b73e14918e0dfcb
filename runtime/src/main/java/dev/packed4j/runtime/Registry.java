package dev.packed4j.runtime;

import dev.packed4j.runtime.internal.capi.CApi;
import dev.packed4j.runtime.internal.objects.ObjectTypeCatalog;
import dev.packed4j.runtime.internal.route.LinkedRoute;
import dev.packed4j.runtime.internal.upcall.JavaFunctions;
import dev.packed4j.runtime.internal.values.CallTarget;
import dev.packed4j.runtime.internal.values.Registries;
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
   * @param name the registered name, such as {@code "calculator.MyAdd"}
   * @return the function, owning a reference of its own (close it when done)
   * @throws Packed4jException KeyError naming {@code name} and the registered names close to it
   */
  public static PackedFunction global(String name) {
    return find(name).orElseThrow(() -> Registries.unknownFunction(name, null));
  }

  /**
   * The function registered under {@code name}, if any.
   *
   * @param name the registered name
   * @return the function, owning a reference of its own, or empty when no function has that name
   */
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

  /**
   * What the global {@code name} says of itself: its typed signature, and the doc string and parameter names its
   * registration gave ({@code P4J_REGISTER_GLOBAL(name).describe(...)}), for tools such as {@code packed4j
   * describe} and {@code packed4j generate}.
   *
   * <pre>{@code
   * Registry.functionInfo("calculator.Mul").orElseThrow().parameterNames(); // [a, b]
   * }</pre>
   *
   * @param name the registered name
   * @return the description, or empty when no function has that name
   */
  public static Optional<FunctionInfo> functionInfo(String name) {
    Objects.requireNonNull(name, "name");
    Registries.GlobalDescription description = Registries.describe(name);
    return description == null ? Optional.empty() : Optional.of(new FunctionInfo(name, description.signature(),
        description.doc(), description.parameterNames()));
  }

  /**
   * Registers {@code function} under {@code name}, for C++ to find with {@code PackedFunc::GetGlobal(name)} and
   * Java with {@link #global}; the registry takes a reference of its own, so the Java object may be closed.
   *
   * <pre>{@code
   * Registry.register("host.Twice", PackedFunction.of(args -> 2 * (Long) args[0]));
   * Registry.global("host.Twice").invoke(21); // 42L
   * }</pre>
   *
   * @param name the name C++ and Java look the function up by; not empty
   * @param function the function; the registry keeps its own reference
   * @throws Packed4jException ValueError naming {@code name} when a function is registered under it already (use
   *     {@link #register(String, PackedFunction, boolean)} to replace it)
   * @throws IllegalArgumentException when {@code name} is empty
   * @throws IllegalStateException when {@code function} is closed
   */
  public static void register(String name, PackedFunction function) {
    register(name, function, false);
  }

  /**
   * Registers {@code function} under {@code name}, replacing the function registered under it when
   * {@code override} is true. Generated bindings follow the replacement: every method bound to {@code name} calls
   * the new function from the next call on, on every thread, on its call frame or its direct entry alike. A
   * {@link PackedFunction} looked up before with {@link #global} stays the old function (it stays alive; look the
   * name up again for the new one), and so does a C++ {@code PackedFunc} fetched earlier with
   * {@code PackedFunc::GetGlobal}. A library loaded later that registers {@code name} with override is followed the
   * same way.
   *
   * @param name the name C++ and Java look the function up by; not empty
   * @param function the function; the registry keeps its own reference
   * @param override whether a function registered under {@code name} already is replaced (else refused)
   * @throws Packed4jException ValueError naming {@code name} when it is taken and {@code override} is false
   */
  public static void register(String name, PackedFunction function, boolean override) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(function, "function");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("Registry.register: the name of a global function must not be empty");
    }
    Registries.register(name, function, override);
    JavaFunctions.nameUnlessNamed(function.handle(), "\"" + name + "\"");
    LinkedRoute.registryChanged();
  }

  /** {@return the registered names, sorted} */
  public static List<String> list() {
    return Registries.names();
  }

  /**
   * Every registered object type with its parent and fields: the core's built-in types ({@code Object},
   * {@code Function}, {@code String}, {@code Bytes}, {@code List}, {@code Map}, {@code Error}, {@code NDArray})
   * first, then the libraries' types in the order they were registered.
   *
   * @return the types, parents before children
   */
  public static List<ObjectTypeInfo> objectTypes() {
    return ObjectTypeCatalog.all();
  }

  /**
   * The object type registered under {@code key}, if any.
   *
   * @param key the type key, such as {@code "Calculator"}
   * @return the type, or empty when no loaded library registers that key
   */
  public static Optional<ObjectTypeInfo> objectType(String key) {
    Objects.requireNonNull(key, "key");
    return ObjectTypeCatalog.find(key);
  }
}
