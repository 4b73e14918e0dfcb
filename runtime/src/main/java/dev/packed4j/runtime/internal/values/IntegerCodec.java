package dev.packed4j.runtime.internal.values;

import static dev.packed4j.runtime.internal.capi.CApi.kP4JInt;
import static dev.packed4j.runtime.internal.capi.CApi.kP4JNone;

import dev.packed4j.runtime.internal.capi.NativeMemory;
import dev.packed4j.runtime.internal.errors.ConversionFailure;

/** Byte, Short, Integer and Long: {@code kP4JInt} (int64) on the wire, range-checked when narrowing. */
public final class IntegerCodec<T extends Number> extends ValueCodec<T> {
  public static final IntegerCodec<Byte> BYTE = new IntegerCodec<>("Byte", "byte", Byte.MIN_VALUE, Byte.MAX_VALUE);
  public static final IntegerCodec<Short> SHORT =
      new IntegerCodec<>("Short", "short", Short.MIN_VALUE, Short.MAX_VALUE);
  public static final IntegerCodec<Integer> INT =
      new IntegerCodec<>("Integer", "int", Integer.MIN_VALUE, Integer.MAX_VALUE);
  public static final IntegerCodec<Long> LONG = new IntegerCodec<>("Long", "long", Long.MIN_VALUE, Long.MAX_VALUE);

  private final String primitive;
  private final long min;
  private final long max;

  private IntegerCodec(String javaType, String primitive, long min, long max) {
    super(javaType);
    this.primitive = primitive;
    this.min = min;
    this.max = max;
  }

  @Override
  public String wireType() {
    return "int";
  }

  @Override
  public void encode(T value, long slot, Frame frame) {
    // Only a raw or unchecked container can hold another Number here; longValue() would truncate a Double or a
    // BigInteger without a word.
    if (!(value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte)) {
      throw ConversionFailure.wrongClass(value, javaType());
    }
    NativeMemory.putAny(slot, kP4JInt, 0, value.longValue());
  }

  /** The value as int64 (the list bulk path). */
  public long bits(T value) {
    return value.longValue();
  }

  @Override
  public T decode(long any, boolean owned) {
    int type = NativeMemory.anyTypeIndex(any);
    if (type == kP4JNone) {
      return null;
    }
    if (type != kP4JInt) {
      throw mismatch(any);
    }
    return box(NativeMemory.anyPayload(any));
  }

  /** Boxes a wire int64, failing when it does not fit this codec's type. */
  @SuppressWarnings("unchecked")
  public T box(long value) {
    if (value < min || value > max) {
      throw new ConversionFailure(ConversionFailure.Kind.VALUE, value + ", which does not fit in " + primitive);
    }
    Number boxed = switch (primitive) {
      case "byte" -> (byte) value;
      case "short" -> (short) value;
      case "int" -> (int) value;
      default -> value;
    };
    return (T) boxed;
  }
}
