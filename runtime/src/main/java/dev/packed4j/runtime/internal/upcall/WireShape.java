package dev.packed4j.runtime.internal.upcall;

import dev.packed4j.types.Carrier;
import dev.packed4j.types.NativeType;
import dev.packed4j.types.Signature;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

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

  /** The parameter carriers of a Java function's typed entry. */
  private static final Set<Carrier> JAVA_PARAMETER_CARRIERS = EnumSet.of(Carrier.INT64, Carrier.DOUBLE, Carrier.SPAN);
  /** The result carriers of a Java function's typed entry. */
  private static final Set<Carrier> JAVA_RESULT_CARRIERS = EnumSet.of(Carrier.INT64, Carrier.DOUBLE, Carrier.INT32);

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
   * Reads a signature (packed4j-types' grammar, that of {@code P4JFunctionGetSignature}) whose parameters are scalars
   * or strings and whose result is a scalar or void.
   *
   * @throws IllegalArgumentException naming the signature and the part that has no typed entry
   */
  static WireShape parse(String signature) {
    Signature parsed = Signature.parse(signature);
    List<Kind> parameters = new ArrayList<>();
    for (NativeType parameter : parsed.parameters()) {
      if (parameter.kind() == NativeType.Kind.VOID) {
        throw new IllegalArgumentException("void is not a parameter type, in '" + signature + "'");
      }
      // A Java function's typed entry takes scalars (int64, double) and string spans: no bytes, tensors, objects or
      // packed values.
      Kind kind = kind(parameter);
      if (kind == null || !JAVA_PARAMETER_CARRIERS.contains(Carrier.ofParameter(parameter).orElseThrow())) {
        throw noTypedEntry(parameter, signature);
      }
      parameters.add(kind);
    }
    if (parameters.size() > MAX_PARAMETERS) {
      throw new IllegalArgumentException("a typed Java function takes at most " + MAX_PARAMETERS
          + " parameters, '" + signature + "' has " + parameters.size());
    }
    NativeType result = parsed.result();
    if (result.kind() == NativeType.Kind.STRING) {
      throw new IllegalArgumentException("a typed entry returns a scalar or void, not a string, in '" + signature
          + "'");
    }
    if (kind(result) == null || !JAVA_RESULT_CARRIERS.contains(Carrier.ofResult(result))) {
      throw noTypedEntry(result, signature);
    }
    return new WireShape(signature, parameters, kind(result));
  }

  /** The kind of a scalar, string or void type (its carrier, with bool and string told apart); null for others. */
  private static Kind kind(NativeType type) {
    return switch (type.kind()) {
      case INTEGER -> Kind.INTEGER;
      case FLOAT -> Kind.FLOAT;
      case BOOL -> Kind.BOOL;
      case STRING -> Kind.STRING;
      case VOID -> Kind.VOID;
      default -> null;
    };
  }

  private static IllegalArgumentException noTypedEntry(NativeType type, String signature) {
    return new IllegalArgumentException("'" + type + "' in '" + signature + "' has no typed entry; use a packed body");
  }
}
