package dev.packed4j.types;

import java.util.Optional;

/**
 * The machine type that carries a native type on a typed entry ({@code P4JFunctionCell.typed_entry}, C++
 * {@code R entry(handle, args...)}): what a route or an upcall stub declares to the linker, so that no one else reads
 * a signature string to pick it.
 */
public enum Carrier {
  /** {@code int64_t}: every integer, and bool as a parameter. */
  INT64(long.class),
  /** {@code double}: {@code float32} and {@code float64}. */
  DOUBLE(double.class),
  /** {@code int32_t}: a bool or void result (0 or 1, 0 for void), or the error sentinel. */
  INT32(int.class),
  /** {@code const P4JByteArray*}: a borrowed string span, passed as its address. */
  SPAN(long.class),
  /** {@code int64_t}: a tensor word, a handle or a tagged borrowed pointer (a tensor parameter). */
  TENSOR_WORD(long.class);

  private final Class<?> javaCarrier;

  Carrier(Class<?> javaCarrier) {
    this.javaCarrier = javaCarrier;
  }

  /**
   * The Java type of the carrier in a downcall or upcall: {@code long}, {@code double} or {@code int}.
   *
   * @return the primitive class
   */
  public Class<?> javaCarrier() {
    return javaCarrier;
  }

  /**
   * The carrier of a parameter of a typed entry: integers and bool {@link #INT64}, floats {@link #DOUBLE}, a string
   * {@link #SPAN}, a tensor {@link #TENSOR_WORD}.
   *
   * @param type the parameter's native type
   * @return the carrier; empty when a typed entry takes no parameter of this type
   */
  public static Optional<Carrier> ofParameter(NativeType type) {
    return switch (type.kind()) {
      case INTEGER, BOOL -> Optional.of(INT64);
      case FLOAT -> Optional.of(DOUBLE);
      case STRING -> Optional.of(SPAN);
      case OBJECT -> type.isTensor() ? Optional.of(TENSOR_WORD) : Optional.empty();
      default -> Optional.empty();
    };
  }

  /**
   * The carrier of a typed entry's result: integers {@link #INT64}, floats {@link #DOUBLE}, bool and void
   * {@link #INT32}.
   *
   * @param type the result's native type
   * @return the carrier; empty when a typed entry returns no result of this type
   */
  public static Optional<Carrier> ofResult(NativeType type) {
    return switch (type.kind()) {
      case INTEGER -> Optional.of(INT64);
      case FLOAT -> Optional.of(DOUBLE);
      case BOOL, VOID -> Optional.of(INT32);
      default -> Optional.empty();
    };
  }
}
