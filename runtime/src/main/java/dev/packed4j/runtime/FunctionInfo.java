package dev.packed4j.runtime;

import java.util.List;

/**
 * What a registered global function says of itself, as {@link Registry#functionInfo(String)} reads it.
 *
 * @param name the registered name, such as {@code "calculator.Mul"}
 * @param signature the signature {@code set_body_typed} records, such as {@code "(int64, int64) -> int64"}; empty
 *     for an untyped ({@code set_body}) function
 * @param doc the doc string of its registration, empty when none
 * @param parameterNames the names its registration gives the parameters, in order; empty when none were given
 */
public record FunctionInfo(String name, String signature, String doc, List<String> parameterNames) {
  /**
   * A description, keeping an unmodifiable copy of the names.
   *
   * @param name the registered name
   * @param signature the typed signature, or empty
   * @param doc the doc string, or empty
   * @param parameterNames the parameters' names, or empty
   */
  public FunctionInfo {
    parameterNames = List.copyOf(parameterNames);
  }
}
