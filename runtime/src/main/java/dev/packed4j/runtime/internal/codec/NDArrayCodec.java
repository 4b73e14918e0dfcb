package dev.packed4j.runtime.internal.codec;

import static dev.packed4j.runtime.internal.capi.CApi.kP4JNDArray;

import dev.packed4j.runtime.NDArray;
import dev.packed4j.runtime.internal.ConversionFailure;
import dev.packed4j.runtime.internal.Frame;
import dev.packed4j.runtime.internal.NativeMemory;
import dev.packed4j.runtime.internal.RuntimeAccess;

/**
 * NDArray: passed as its borrowed handle, so a tensor of any size costs the same and nothing is allocated; a result
 * is a new Java view of the returned object.
 */
public final class NDArrayCodec extends ValueCodec<NDArray> {
  public static final NDArrayCodec NDARRAY = new NDArrayCodec();

  private NDArrayCodec() {
    super("NDArray");
  }

  @Override
  public String wireType() {
    return "NDArray";
  }

  @Override
  public void encode(NDArray value, long slot, Frame frame) {
    long handle;
    try {
      handle = RuntimeAccess.get().ndarrayHandle(value);
    } catch (IllegalStateException unusable) {
      throw new ConversionFailure(ConversionFailure.Kind.CLOSED, unusable.getMessage());
    }
    frame.keepAlive(value);
    NativeMemory.putAny(slot, kP4JNDArray, 0, handle);
  }

  @Override
  public NDArray decode(long any, boolean owned) {
    if (NativeMemory.anyTypeIndex(any) != kP4JNDArray) {
      throw mismatch(any);
    }
    return RuntimeAccess.get().newNDArray(keep(NativeMemory.anyPayload(any), owned));
  }
}
