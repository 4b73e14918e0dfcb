package dev.packed4j.runtime.binding;

/**
 * The kind of native field a generated accessor expects, checked once against the native metadata
 * ({@code P4JFieldKind}).
 *
 * <pre>{@code
 * static final FieldSlot PRICE = TYPE.field("price", FieldKind.INT64);
 * }</pre>
 */
public enum FieldKind {
  /** {@code int32_t}: {@link FieldSlot#readInt}, {@link FieldSlot#readLong}. */
  INT32(1),
  /**
   * {@code int64_t}, what a {@code long} accessor expects: an {@code int32_t} field is widened, a {@code uint64_t}
   * field read as its bit pattern. {@link FieldSlot#readLong}.
   */
  INT64(2),
  /** {@code uint64_t}: {@link FieldSlot#readLong}, as its bit pattern (Java has no unsigned long). */
  UINT64(3),
  /** {@code double}: {@link FieldSlot#readDouble}. */
  FLOAT64(4),
  /** {@code bool}: {@link FieldSlot#readBoolean}. */
  BOOL(5),
  /** {@code std::string} (or a string object field): {@link FieldSlot#readString}. */
  STRING(6),
  /** An {@code ObjectRef} (objects, containers) or a {@code std::string}: {@link FieldSlot#readObject}. */
  OBJECT(7);

  private final int nativeKind;

  FieldKind(int nativeKind) {
    this.nativeKind = nativeKind;
  }

  /** {@return the {@code P4JFieldKind} value} */
  public int nativeKind() {
    return nativeKind;
  }

  /**
   * Whether a native field of kind {@code nativeKind} can be read as this kind: the same kind, a widening, or a
   * reinterpretation Java code expects (uint64 as a long bit pattern, a string object as String); never a
   * narrowing.
   */
  boolean accepts(int nativeKind) {
    return switch (this) {
      case INT32, FLOAT64, BOOL -> this.nativeKind == nativeKind;
      case INT64, UINT64 -> nativeKind == INT32.nativeKind || nativeKind == INT64.nativeKind
          || nativeKind == UINT64.nativeKind;
      case STRING, OBJECT -> nativeKind == STRING.nativeKind || nativeKind == OBJECT.nativeKind;
    };
  }
}
