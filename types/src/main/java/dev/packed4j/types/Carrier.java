package dev.packed4j.types;

import java.util.Optional;

/**
 * The machine type that carries a native type on a typed entry ({@code P4JFunctionCell.typed_entry}, C++
 * {@code R entry(handle, args...)}, ABI 2.4: every signature {@code set_body_typed} takes has one): what a route or
 * an upcall stub declares to the linker, so that no one else reads a signature string to pick it. A caller that
 * reads only some forms (the Java typed-entry route, Java callbacks) checks the carrier against the forms it reads.
 */
public enum Carrier {
  /** {@code int64_t}: every integer, and bool as a parameter (0 or 1). */
  INT64(long.class),
  /** {@code double}: {@code float32} and {@code float64}. */
  DOUBLE(double.class),
  /** {@code int32_t}: a bool or void result (0 or 1, 0 for void), or the error sentinel. */
  INT32(int.class),
  /**
   * {@code const P4JByteArray*}: a {@code string} or {@code bytes}, passed as its address: borrowed for the call as a
   * parameter, kept by the calling thread until its next span result as a result.
   */
  SPAN(long.class),
  /** {@code int64_t}: a tensor word, a handle or a tagged borrowed pointer (an {@code NDArray} parameter). */
  TENSOR_WORD(long.class),
  /**
   * {@code int64_t}: an object word, the handle of an object (0 for None): an object type key other than
   * {@code Object}, {@code list}, {@code map} or {@code function}; borrowed as a parameter, owned as a result (an
   * {@code NDArray} result too).
   */
  OBJECT_WORD(long.class),
  /** {@code const P4JAny*}: a borrowed packed value, for an {@code any}, {@code Object} or {@code optional} parameter. */
  PACKED_VALUE(long.class),
  /**
   * An {@code any}, {@code Object} or {@code optional} result: written, owned, through a trailing
   * {@code P4JAny* out} parameter; the entry itself returns {@code int32_t} 0, or the error sentinel.
   */
  OUT_VALUE(int.class);

  private final Class<?> javaCarrier;

  Carrier(Class<?> javaCarrier) {
    this.javaCarrier = javaCarrier;
  }

  /**
   * The Java type of the carrier in a downcall or upcall: {@code long}, {@code double} or {@code int} (for
   * {@link #OUT_VALUE}, what the entry returns; the value comes through its extra parameter).
   *
   * @return the primitive class
   */
  public Class<?> javaCarrier() {
    return javaCarrier;
  }

  /**
   * The carrier of a parameter of a typed entry.
   *
   * @param type the parameter's native type
   * @return the carrier; empty for {@code void}, which is no parameter
   */
  public static Optional<Carrier> ofParameter(NativeType type) {
    return switch (type.kind()) {
      case INTEGER, BOOL -> Optional.of(INT64);
      case FLOAT -> Optional.of(DOUBLE);
      case STRING, BYTES -> Optional.of(SPAN);
      case OBJECT -> Optional.of(type.isTensor() ? TENSOR_WORD : isRoot(type) ? PACKED_VALUE : OBJECT_WORD);
      case LIST, MAP, FUNCTION -> Optional.of(OBJECT_WORD);
      case ANY, OPTIONAL, OPAQUE_POINTER -> Optional.of(PACKED_VALUE);
      case VOID -> Optional.empty();
    };
  }

  /**
   * The carrier of a typed entry's result.
   *
   * @param type the result's native type
   * @return the carrier
   */
  public static Carrier ofResult(NativeType type) {
    return switch (type.kind()) {
      case INTEGER -> INT64;
      case FLOAT -> DOUBLE;
      case BOOL, VOID -> INT32;
      case STRING, BYTES -> SPAN;
      case OBJECT -> isRoot(type) ? OUT_VALUE : OBJECT_WORD;
      case LIST, MAP, FUNCTION -> OBJECT_WORD;
      case ANY, OPTIONAL, OPAQUE_POINTER -> OUT_VALUE;
    };
  }

  private static boolean isRoot(NativeType type) {
    return type.name().equals(NativeType.ROOT_OBJECT_KEY);
  }
}
