package dev.packed4j.cli;

import dev.packed4j.types.NativeType;
import dev.packed4j.types.Signature;
import java.util.List;
import java.util.Optional;

/**
 * A registered global function as the describe command reports it.
 *
 * @param name the registered name, such as {@code calculator.Mul}
 * @param signature what {@code set_body_typed} recorded, such as {@code "(int64, int64) -> int64"}; empty for a
 *     function registered with {@code set_body}, whose arguments are only checked when it runs
 * @param doc the doc string its registration gave ({@code .describe("...")}); {@code ""} when none
 * @param parameterNames the parameters' names its registration gave ({@code .params({...})}); empty when none
 */
public record GlobalFunction(String name, Optional<String> signature, String doc, List<String> parameterNames) {

  /** Copies the names. */
  public GlobalFunction {
    parameterNames = List.copyOf(parameterNames);
  }

  /** Whether {@code set_body_typed} recorded the signature. */
  public boolean typed() {
    return signature.isPresent();
  }

  /** The parameter types of a typed function ({@code ["int64", "list<int64>"]}); empty when untyped. */
  public List<String> parameterTypes() {
    return parsed().map(s -> s.parameters().stream().map(NativeType::toString).toList()).orElse(List.of());
  }

  /** The result type of a typed function ({@code "int64"}, {@code "void"}); empty when untyped. */
  public Optional<String> resultType() {
    return parsed().map(s -> s.result().toString());
  }

  /** The signature read by packed4j-types' grammar, the one the processor and the runtime read. */
  private Optional<Signature> parsed() {
    return signature.map(Signature::parse);
  }

  /** Builds one without doc or parameter names from the signature the runtime returns ({@code ""} when untyped). */
  public static GlobalFunction of(String name, String signature) {
    return of(name, signature, "", List.of());
  }

  /**
   * Builds one from what the runtime returns: the signature ({@code ""} for an untyped function), the doc string
   * ({@code ""} for none) and the parameter names.
   */
  public static GlobalFunction of(String name, String signature, String doc, List<String> parameterNames) {
    if (!signature.isEmpty()) {
      try {
        Signature.parse(signature);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("the signature of " + name + " is not \"(parameters) -> result\": "
            + signature + " (" + e.getMessage() + ")", e);
      }
    }
    return new GlobalFunction(name, signature.isEmpty() ? Optional.empty() : Optional.of(signature), doc,
        parameterNames);
  }
}
