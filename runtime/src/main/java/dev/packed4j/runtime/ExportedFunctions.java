package dev.packed4j.runtime;


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
}
