package dev.packed4j.runtime;

import dev.packed4j.runtime.internal.CallTarget;
import dev.packed4j.runtime.internal.Registries;
import dev.packed4j.runtime.internal.capi.CApi;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The native registry of global functions: everything {@code P4J_REGISTER_GLOBAL} registered in libpacked4j.so
 * and in the plugin libraries loaded so far.
 *
 * <pre>{@code
 * Packed4j.loadLibrary(Path.of("build/libcalculator.so"));
 * Registry.list();                                      // [calculator.MyAdd, ..., packed4j.ListSize, ...]
 * PackedFunction add = Registry.global("calculator.MyAdd");
 * add.invoke(1, 2);                                     // 3L
 * Registry.find("calculator.Missing");                  // Optional.empty()
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
}
