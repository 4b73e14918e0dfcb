package dev.packed4j.runtime.internal.values;

import static dev.packed4j.runtime.internal.capi.CApi.kP4JFloat;
import static dev.packed4j.runtime.internal.capi.CApi.kP4JInt;
import static dev.packed4j.runtime.internal.capi.CApi.kP4JNone;

import dev.packed4j.runtime.internal.capi.NativeMemory;
import dev.packed4j.runtime.internal.errors.ConversionFailure;
import dev.packed4j.types.Narrowing;

/** Float and Double: {@code kP4JFloat} (float64) on the wire; an int64 result is widened. */
public final class FloatCodec<T extends Number> extends ValueCodec<T> {
  public static final FloatCodec<Float> FLOAT = new FloatCodec<>("Float", true);
  public static final FloatCodec<Double> DOUBLE = new FloatCodec<>("Double", false);

  private final boolean single;

  private FloatCodec(String javaType, boolean single) {
    super(javaType);
    this.single = single;
  }

  @Override
  public String wireType() {
    return "float";
  }

  @Override
  public void encode(T value, long slot, Frame frame) {
    // Only a raw or unchecked container can hold another Number here (a Long of more than 53 bits would round).
    if (!(value instanceof Double || value instanceof Float)) {
      throw ConversionFailure.wrongClass(value, javaType());
    }
    NativeMemory.putAnyDouble(slot, kP4JFloat, value.doubleValue());
  }

  /** The value as float64 (the list bulk path). */
  public double bits(T value) {
    return value.doubleValue();
  }

  @Override
  public T decode(long any, boolean owned) {
    int type = NativeMemory.anyTypeIndex(any);
    return switch (type) {
      case kP4JNone -> null;
      case kP4JFloat -> box(NativeMemory.anyDouble(any));
      case kP4JInt -> {
        long value = NativeMemory.anyPayload(any);
        if (!Narrowing.isExactDouble(value)) {
          throw new ConversionFailure(ConversionFailure.Kind.VALUE, value + ", which does not fit in a double without rounding");
        }
        yield box(value);
      }
      default -> throw mismatch(any);
    };
  }

  /** Boxes a wire float64; a finite value beyond the float range is a failure, not an infinity. */
  @SuppressWarnings("unchecked")
  public T box(double value) {
    if (!single) {
      return (T) Double.valueOf(value);
    }
    if (!Narrowing.fitsFloat(value)) {
      throw new ConversionFailure(ConversionFailure.Kind.VALUE, value + ", which does not fit in float");
    }
    return (T) Float.valueOf((float) value);
  }
}
