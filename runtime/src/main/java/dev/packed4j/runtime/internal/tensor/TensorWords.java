package dev.packed4j.runtime.internal.tensor;

import dev.packed4j.runtime.internal.Frame;
import dev.packed4j.runtime.internal.NativeMemory;
import dev.packed4j.runtime.internal.ThreadStack;
import dev.packed4j.runtime.internal.capi.CApi;
import dev.packed4j.runtime.internal.capi.DLTensor;

/**
 * DLTensors written by Java for one call, and the tensor word of c_api.h ({@code P4J_TENSOR_WORD_BORROWED}): how a
 * tensor travels to a typed entry as one {@code int64_t}, either its object's handle or the address of a DLTensor in
 * the thread's scratch memory with the low bit set.
 *
 * <p>A borrowed word's DLTensor is written short ({@link #borrowed}): data, ndim and dtype in two stores and the
 * dimensions after the struct; the typed entry completes the rest (CPU, shape pointer, no strides, no offset), and a
 * call frame completes it in Java ({@link #completeBorrowed}) before passing it as a {@code kP4JDLTensorPtr}.
 */
public final class TensorWords {
  /** DLDevice's type of the CPU, {@code kDLCPU}. */
  private static final int DEVICE_CPU = 1;

  private TensorWords() {}

  /** DLPack's {@code DLDataType} as the one little-endian int32 it occupies: code, bits, lanes. */
  public static int dtypeWord(int code, int bits, int lanes) {
    return code | bits << 8 | lanes << 16;
  }

  /**
   * The borrowed tensor word of a contiguous CPU tensor without a native object: a short DLTensor in
   * {@code stack}'s scratch memory (released with the caller's scratch mark) and the borrowed bit.
   */
  public static long borrowed(ThreadStack stack, long data, int dtypeWord, long[] shape) {
    int ndim = shape.length;
    long tensor = stack.allocateScratch(DLTensor.SIZE + 8L * ndim);
    NativeMemory.putLong(tensor + DLTensor.DATA, data);
    // ndim and dtype are adjacent: one store.
    NativeMemory.putLong(tensor + DLTensor.NDIM, (ndim & 0xffffffffL) | (long) dtypeWord << 32);
    for (int i = 0; i < ndim; i++) {
      NativeMemory.putLong(tensor + DLTensor.SIZE + 8L * i, shape[i]);
    }
    return tensor | CApi.P4J_TENSOR_WORD_BORROWED;
  }

  /**
   * The DLTensor of a borrowed word ({@link #borrowed}) completed as a typed entry completes it (device CPU:0, the
   * shape after it, no strides, no byte offset), for a call that passes it as a {@code kP4JDLTensorPtr}.
   */
  public static long completeBorrowed(long word) {
    long tensor = word & ~(long) CApi.P4J_TENSOR_WORD_BORROWED;
    NativeMemory.putLong(tensor + DLTensor.DEVICE_TYPE, DEVICE_CPU); // device_type, then device_id 0
    NativeMemory.putLong(tensor + DLTensor.SHAPE, tensor + DLTensor.SIZE);
    NativeMemory.putLong(tensor + DLTensor.STRIDES, 0);
    NativeMemory.putLong(tensor + DLTensor.BYTE_OFFSET, 0);
    return tensor;
  }

  /**
   * A complete DLTensor on the CPU in {@code frame}'s scratch memory, with its shape (and strides, null for a compact
   * row-major tensor) there too: what {@code P4JNDArrayCreateView} copies.
   */
  public static long write(Frame frame, long data, int dtypeWord, long[] shape, long[] strides, long byteOffset) {
    long tensor = frame.scratch(DLTensor.SIZE, 8);
    long shapeAddress = frame.scratch(8L * Math.max(1, shape.length), 8);
    for (int i = 0; i < shape.length; i++) {
      NativeMemory.putLong(shapeAddress + 8L * i, shape[i]);
    }
    long stridesAddress = 0;
    if (strides != null) {
      stridesAddress = frame.scratch(8L * Math.max(1, strides.length), 8);
      for (int i = 0; i < strides.length; i++) {
        NativeMemory.putLong(stridesAddress + 8L * i, strides[i]);
      }
    }
    NativeMemory.putLong(tensor + DLTensor.DATA, data);
    NativeMemory.putInt(tensor + DLTensor.DEVICE_TYPE, DEVICE_CPU);
    NativeMemory.putInt(tensor + DLTensor.DEVICE_ID, 0);
    NativeMemory.putInt(tensor + DLTensor.NDIM, shape.length);
    NativeMemory.putInt(tensor + DLTensor.DTYPE, dtypeWord);
    NativeMemory.putLong(tensor + DLTensor.SHAPE, shapeAddress);
    NativeMemory.putLong(tensor + DLTensor.STRIDES, stridesAddress);
    NativeMemory.putLong(tensor + DLTensor.BYTE_OFFSET, byteOffset);
    return tensor;
  }
}
