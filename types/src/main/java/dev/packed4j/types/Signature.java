package dev.packed4j.types;

import java.util.List;

/**
 * The signature of a function as {@code set_body_typed} records it and {@code P4JFunctionGetSignature} returns it:
 * {@code "(int64, list<string>) -> map<string, Calculator>"}. Immutable; {@link #toString()} prints what
 * {@link #parse} reads, as C++ {@code details::SignatureOf} prints it.
 *
 * @param parameters the parameter types, in order
 * @param result the result type, {@link NativeType#VOID} for none
 */
public record Signature(List<NativeType> parameters, NativeType result) {
  private static final String ARROW = ") -> ";

  /**
   * Copies the parameters.
   *
   * @param parameters the parameter types
   * @param result the result type
   */
  public Signature {
    parameters = List.copyOf(parameters);
    if (result == null) {
      throw new NullPointerException("result");
    }
  }

  /**
   * Parses {@code "(parameters) -> result"}.
   *
   * @param text the signature
   * @return the signature
   * @throws IllegalArgumentException naming the text when it is not a signature
   */
  public static Signature parse(String text) {
    int arrow = text.lastIndexOf(ARROW);
    if (!text.startsWith("(") || arrow < 0) {
      throw new IllegalArgumentException("'" + text + "' is not a signature such as (int64, int64) -> int64");
    }
    try {
      return new Signature(NativeType.parseList(text.substring(1, arrow)),
          NativeType.parse(text.substring(arrow + ARROW.length())));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("'" + text + "' is not a signature such as (int64, int64) -> int64: "
          + e.getMessage(), e);
    }
  }

  /**
   * As {@code P4JFunctionGetSignature} returns it: {@code "(int64, string) -> bool"}.
   *
   * @return the signature text
   */
  @Override
  public String toString() {
    StringBuilder text = new StringBuilder("(");
    for (int i = 0; i < parameters.size(); i++) {
      text.append(i == 0 ? "" : ", ").append(parameters.get(i));
    }
    return text.append(ARROW).append(result).toString();
  }
}
