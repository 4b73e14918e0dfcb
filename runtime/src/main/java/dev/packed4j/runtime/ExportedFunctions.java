package dev.packed4j.runtime;

import java.util.List;

/** Where a generated registrar ({@link Exports}) puts the functions of a class. */
public interface ExportedFunctions {
  /**
   * Adds one exported function.
   *
   * @param name the global name of its {@code @Global}
   * @param javaMethod {@code Host.log}, for messages
   * @param function a new function object, owned by the receiver
   */
  void add(String name, String javaMethod, PackedFunction function);

  /**
   * Adds one exported function with the names of its parameters, which {@link Registry#functionInfo} then gives, as
   * it gives those of a C++ function registered with {@code .params({...})}. This default drops the names.
   *
   * @param name the global name of its {@code @Global}
   * @param javaMethod {@code Host.log}, for messages
   * @param function a new function object, owned by the receiver
   * @param parameterNames the method's parameter names, in order
   */
  default void add(String name, String javaMethod, PackedFunction function, List<String> parameterNames) {
    add(name, javaMethod, function);
  }
}
