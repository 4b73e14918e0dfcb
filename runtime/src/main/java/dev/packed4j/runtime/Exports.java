package dev.packed4j.runtime;

/**
 * The registrar packed4j-processor writes for a class with static {@code @Global} methods: {@code Packed4j_Host}
 * for {@code Host}, found by {@code Packed4j.register(Host.class)}.
 */
public interface Exports {
  /**
   * Hands every exported method to {@code functions} as a new function object.
   *
   * @param functions receives each method's name and function
   */
  void exportTo(ExportedFunctions functions);
}
