package dev.packed4j.runtime.internal.values;

import static dev.packed4j.runtime.internal.capi.CApi.kP4JNDArray;

import dev.packed4j.runtime.internal.capi.CApi;
import dev.packed4j.runtime.internal.capi.NativeMemory;
import dev.packed4j.runtime.internal.objects.ReleaseEpochs;
import java.util.function.Function;

/**
 * {@code float[]}, {@code double[]}, {@code int[]}, {@code long[]} arguments: copied once into a new 1-D tensor that
 * the call owns (released when the frame closes), so the native side reads an NDArray. Arguments only: a result
 * tensor is declared as NDArray.
 */
public final class ArrayTensorCodec<A> extends ValueCodec<A> {
  private final String dtype;
  private final Function<A, ? extends AutoCloseable> copy;

  private ArrayTensorCodec(String javaType, String dtype, Function<A, ? extends AutoCloseable> copy) {
    super(javaType);
    this.dtype = dtype;
    this.copy = copy;
  }

  /**
   * The codec of an array type.
   *
   * @param javaType the array type's name, for messages
   * @param dtype the tensor's element type, for messages
   * @param copy a new NDArray holding a copy of the array (the public package's {@code NDArray.fromArray})
   */
  public static <A> ArrayTensorCodec<A> of(String javaType, String dtype, Function<A, ? extends AutoCloseable> copy) {
    return new ArrayTensorCodec<>(javaType, dtype, copy);
  }

  @Override
  public String wireType() {
    return "NDArray (1-D " + dtype + ")";
  }

  @Override
  public void encode(A value, long slot, Frame frame) {
    // The frame owns a reference for the call; the Java view is closed at once, so nothing waits for a Cleaner.
    AutoCloseable tensor = copy.apply(value);
    try {
      ReleaseEpochs.Pin pin = RuntimeAccess.get().pinNDArray(tensor);
      long handle = pin.pinnedHandle();
      CApi.P4JObjectIncRef(handle);
      pin.unpin();
      frame.ownTemporary(handle);
      NativeMemory.putAny(slot, kP4JNDArray, 0, handle);
    } finally {
      try {
        tensor.close(); // an NDArray's close throws nothing checked
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
  }

  @Override
  public A decode(long any, boolean owned) {
    throw mismatch(any);
  }
}
