package dev.packed4j.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A registered global function as the describe command reports it.
 *
 * @param name the registered name, such as {@code calculator.Mul}
 * @param signature what {@code set_body_typed} recorded, such as {@code "(int64, int64) -> int64"}; empty for a
 *     function registered with {@code set_body}, whose arguments are only checked when it runs
 */
public record GlobalFunction(String name, Optional<String> signature) {

  /** Whether {@code set_body_typed} recorded the signature. */
  public boolean typed() {
    return signature.isPresent();
  }

  /** The parameter types of a typed function ({@code ["int64", "list<int64>"]}); empty when untyped. */
  public List<String> parameterTypes() {
    return signature.map(s -> splitTopLevel(s.substring(1, s.indexOf(") -> ")))).orElse(List.of());
  }

  /** The result type of a typed function ({@code "int64"}, {@code "void"}); empty when untyped. */
  public Optional<String> resultType() {
    return signature.map(s -> s.substring(s.indexOf(") -> ") + 5));
  }

  /** Builds one from the signature string the runtime returns ({@code ""} for an untyped function). */
  public static GlobalFunction of(String name, String signature) {
    if (!signature.isEmpty() && (!signature.startsWith("(") || !signature.contains(") -> "))) {
      throw new IllegalArgumentException("the signature of " + name + " is not \"(parameters) -> result\": "
          + signature);
    }
    return new GlobalFunction(name, signature.isEmpty() ? Optional.empty() : Optional.of(signature));
  }

  /** Splits "a, map<b, c>, d" at the commas outside angle brackets. */
  static List<String> splitTopLevel(String types) {
    List<String> parts = new ArrayList<>();
    if (types.isBlank()) {
      return parts;
    }
    int depth = 0;
    int start = 0;
    for (int i = 0; i < types.length(); i++) {
      char c = types.charAt(i);
      if (c == '<') {
        depth++;
      } else if (c == '>') {
        depth--;
      } else if (c == ',' && depth == 0) {
        parts.add(types.substring(start, i).trim());
        start = i + 1;
      }
    }
    parts.add(types.substring(start).trim());
    return parts;
  }
}
