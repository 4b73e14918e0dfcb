package dev.packed4j.runtime.internal.values;

import static dev.packed4j.runtime.internal.capi.CApi.kP4JDLTensorPtr;
import static dev.packed4j.runtime.internal.capi.CApi.kP4JNDArray;
import static dev.packed4j.runtime.internal.capi.CApi.kP4JNone;

import dev.packed4j.runtime.internal.capi.CApi;
import dev.packed4j.runtime.internal.capi.Errors;
import dev.packed4j.runtime.internal.capi.NativeMemory;
import dev.packed4j.runtime.internal.errors.ConversionFailure;
import dev.packed4j.runtime.internal.errors.ErrorKind;
import dev.packed4j.runtime.internal.errors.Failures;
import dev.packed4j.runtime.internal.objects.ReleaseEpochs;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * NDArray: passed as its borrowed handle, so a tensor of any size costs the same and nothing is allocated; a result
 * is a new Java view of the returned object. A borrowed DLTensor (what a direct entry passes for a wrapped tensor,
 * forwarded by C++ to a Java function) is decoded as a new tensor over the same memory.
 */
public final class NDArrayCodec extends ValueCodec<Object> {
  public static final NDArrayCodec NDARRAY = new NDArrayCodec();

  private NDArrayCodec() {
    super("NDArray");
  }

  @Override
  public String wireType() {
    return "NDArray";
  }

  @Override
  public void encode(Object value, long slot, Frame frame) {
    ReleaseEpochs.Pin pin;
    try {
      pin = RuntimeAccess.get().pinNDArray(value);
    } catch (IllegalStateException unusable) {
      throw new ConversionFailure(ConversionFailure.Kind.CLOSED, unusable.getMessage());
    }
    frame.keepPinned(value, pin);
    NativeMemory.putAny(slot, kP4JNDArray, 0, pin.pinnedHandle());
  }

  /**
   * The error of a store of a tensor over Java memory into a native field
   * ({@link RuntimeAccess#ndarrayOverJavaMemory}): the object keeps its own reference, and would outlive the segment's
   * arena, which Java alone checks.
   *
   * @param where the member and argument, as a setter's errors name them: {@code test.Layer.weights(value)}
   * @return the ValueError to throw
   */
  public static RuntimeException storedOverJavaMemory(String where) {
    return Failures.error(ErrorKind.VALUE_ERROR, where + ": a tensor over Java memory (NDArray.wrap, or a view of"
        + " one) cannot be stored in a native field, which the object keeps beyond the segment's arena; expected a"
        + " tensor of native memory: store a copy (NDArray.copy()), or make it with NDArray.allocate or"
        + " NDArray.fromArray", null);
  }

  @Override
  public Object decode(long any, boolean owned) {
    if (NativeMemory.anyTypeIndex(any) == kP4JNone) {
      return null; // a native None is null, as for every reference type (an optional<NDArray> result, say)
    }
    if (NativeMemory.anyTypeIndex(any) == kP4JDLTensorPtr && NativeMemory.anyPayload(any) != 0) {
      // A DLTensor borrowed for a call (C++ forwarding what Java passed): a new object over the same memory.
      try (Arena arena = Arena.ofConfined()) {
        MemorySegment out = arena.allocate(ValueLayout.JAVA_LONG);
        Errors.check(CApi.P4JNDArrayCreateView(NativeMemory.anyPayload(any), 0, 0, out.address()), null);
        return RuntimeAccess.get().newNDArray(out.get(ValueLayout.JAVA_LONG, 0));
      }
    }
    if (NativeMemory.anyTypeIndex(any) != kP4JNDArray) {
      throw mismatch(any);
    }
    return RuntimeAccess.get().newNDArray(keep(NativeMemory.anyPayload(any), owned));
  }
}
