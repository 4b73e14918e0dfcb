package dev.packed4j.runtime.internal.upcall;

import java.util.ArrayList;
import java.util.List;

/**
 * The shape of a typed entry as {@code P4JFunctionCell.typed_entry} defines it, read from a signature such as
 * {@code "(int32, float64, string) -> bool"}: each parameter an {@code int64_t} (integers, bool), a {@code double}
 * (floats) or a {@code const P4JByteArray*} (string); the result an {@code int64_t}, a {@code double} or an
 * {@code int32_t} (bool, void). Java functions of one shape share one upcall stub.
 *
 * @param signature the signature as recorded on the function object
 * @param parameters one {@link Kind} per parameter
 * @param result the result's kind: {@link Kind#INTEGER}, {@link Kind#FLOAT}, {@link Kind#BOOL} or {@link Kind#VOID}
 */
record WireShape(String signature, List<Kind> parameters, Kind result) {
  /** The most parameters a typed Java function takes (the wire bodies go up to four). */
  static final int MAX_PARAMETERS = 4;

  enum Kind {
    INTEGER('J'),
    FLOAT('D'),
    BOOL('Z'),
    STRING('S'),
    VOID('V');

    final char code;

    Kind(char code) {
      this.code = code;
    }

    /** Whether the value travels as a {@code double} in a typed entry. */
    boolean isFloat() {
      return this == FLOAT;
    }
  }

  WireShape {
    parameters = List.copyOf(parameters);
  }

  /** The key of the shared stub: the machine shape only (every integer width is one int64_t, say). */
  String stubKey() {
    StringBuilder key = new StringBuilder();
    for (Kind kind : parameters) {
      key.append(kind.isFloat() ? 'D' : 'J');
    }
    return key.append('>').append(result.isFloat() ? 'D' : result == Kind.INTEGER ? 'J' : 'I').toString();
  }

  /**
   * Parses a signature of the grammar of {@code P4JFunctionGetSignature} whose parameters are scalars or strings and
   * whose result is a scalar or void.
   *
   * @throws IllegalArgumentException naming the signature and the part that has no typed entry
   */
  static WireShape parse(String signature) {
    int arrow = signature.lastIndexOf(") -> ");
    if (!signature.startsWith("(") || arrow < 0) {
      throw new IllegalArgumentException("'" + signature + "' is not a signature such as (int64, int64) -> int64");
    }
    String inside = signature.substring(1, arrow).strip();
    List<Kind> parameters = new ArrayList<>();
    if (!inside.isEmpty()) {
      for (String part : inside.split(",")) {
        Kind kind = kind(part.strip(), signature);
        if (kind == Kind.VOID) {
          throw new IllegalArgumentException("void is not a parameter type, in '" + signature + "'");
        }
        parameters.add(kind);
      }
    }
    if (parameters.size() > MAX_PARAMETERS) {
      throw new IllegalArgumentException("a typed Java function takes at most " + MAX_PARAMETERS
          + " parameters, '" + signature + "' has " + parameters.size());
    }
    Kind result = kind(signature.substring(arrow + 5).strip(), signature);
    if (result == Kind.STRING) {
      throw new IllegalArgumentException("a typed entry returns a scalar or void, not a string, in '" + signature
          + "'");
    }
    return new WireShape(signature, parameters, result);
  }

  private static Kind kind(String name, String signature) {
    return switch (name) {
      case "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64" -> Kind.INTEGER;
      case "float32", "float64" -> Kind.FLOAT;
      case "bool" -> Kind.BOOL;
      case "string" -> Kind.STRING;
      case "void" -> Kind.VOID;
      default -> throw new IllegalArgumentException("'" + name + "' in '" + signature
          + "' has no typed entry; use a packed body");
    };
  }
}
