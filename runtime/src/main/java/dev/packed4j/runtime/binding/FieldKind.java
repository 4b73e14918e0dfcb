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
  /** {@code int64_t} (an {@code int32_t} field is widened): {@link FieldSlot#readLong}. */
  INT64(2),
  /** {@code uint64_t}: {@link FieldSlot#readLong}, a value above {@code Long.MAX_VALUE} is a ValueError. */
  UINT64(3),
  /** {@code double}: {@link FieldSlot#readDouble}. */
  FLOAT64(4),
  /** {@code bool}: {@link FieldSlot#readBoolean}. */
  BOOL(5),
  /** {@code std::string}: {@link FieldSlot#readString}. */
  STRING(6),
  /** An {@code ObjectRef} (objects, containers): {@link FieldSlot#readObject}. */
  OBJECT(7);

  private final int nativeKind;

  FieldKind(int nativeKind) {
    this.nativeKind = nativeKind;
  }

  /** The {@code P4JFieldKind} value. */
  public int nativeKind() {
    return nativeKind;
  }

  /** Whether a native field of kind {@code nativeKind} can be read as this kind. */
  boolean accepts(int nativeKind) {
    return this.nativeKind == nativeKind || this == INT64 && nativeKind == INT32.nativeKind;
  }
}
