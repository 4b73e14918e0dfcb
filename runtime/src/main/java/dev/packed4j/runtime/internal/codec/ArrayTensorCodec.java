package dev.packed4j.runtime.internal.codec;

import static dev.packed4j.runtime.internal.capi.CApi.kP4JNDArray;

import dev.packed4j.runtime.NDArray;
import dev.packed4j.runtime.internal.Frame;
import dev.packed4j.runtime.internal.NativeMemory;
import dev.packed4j.runtime.internal.capi.CApi;
import java.util.function.Function;

/**
 * {@code float[]}, {@code double[]}, {@code int[]}, {@code long[]} arguments: copied once into a new 1-D tensor that
 * the call owns (released when the frame closes), so the native side reads an NDArray. Arguments only: a result
 * tensor is declared as NDArray.
 */
public final class ArrayTensorCodec<A> extends ValueCodec<A> {
  public static final ArrayTensorCodec<float[]> FLOAT_ARRAY =
      new ArrayTensorCodec<>("float[]", "float32", NDArray::fromArray);
  public static final ArrayTensorCodec<double[]> DOUBLE_ARRAY =
      new ArrayTensorCodec<>("double[]", "float64", NDArray::fromArray);
  public static final ArrayTensorCodec<int[]> INT_ARRAY =
      new ArrayTensorCodec<>("int[]", "int32", NDArray::fromArray);
  public static final ArrayTensorCodec<long[]> LONG_ARRAY =
      new ArrayTensorCodec<>("long[]", "int64", NDArray::fromArray);

  private final String dtype;
  private final Function<A, NDArray> copy;

  private ArrayTensorCodec(String javaType, String dtype, Function<A, NDArray> copy) {
    super(javaType);
    this.dtype = dtype;
    this.copy = copy;
  }

  @Override
  public String wireType() {
    return "NDArray (1-D " + dtype + ")";
  }

  @Override
  public void encode(A value, long slot, Frame frame) {
    // The frame owns a reference for the call; the Java view is closed at once, so nothing waits for a Cleaner.
    try (NDArray tensor = copy.apply(value)) {
      long handle = tensor.handle();
      CApi.P4JObjectIncRef(handle);
      frame.ownTemporary(handle);
      NativeMemory.putAny(slot, kP4JNDArray, 0, handle);
    }
  }

  @Override
  public A decode(long any, boolean owned) {
    throw mismatch(any);
  }
}
