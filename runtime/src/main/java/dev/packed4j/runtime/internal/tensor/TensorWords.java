package dev.packed4j.runtime.internal.tensor;

import dev.packed4j.runtime.internal.capi.CApi;
import dev.packed4j.runtime.internal.capi.DLTensor;
import dev.packed4j.runtime.internal.capi.NativeMemory;

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

  /** Bytes {@link #borrowed} writes for a tensor of {@code ndim} dimensions: the DLTensor and the dimensions. */
  public static long borrowedSize(int ndim) {
    return DLTensor.SIZE + 8L * ndim;
  }

  /**
   * The borrowed tensor word of a contiguous CPU tensor without a native object: a short DLTensor written at
   * {@code memory} (8-byte aligned, {@link #borrowedSize} bytes of the caller's scratch memory, which lives until
   * the call returns) and the borrowed bit.
   */
  public static long borrowed(long memory, long data, int dtypeWord, long[] shape) {
    int ndim = shape.length;
    NativeMemory.putLong(memory + DLTensor.DATA, data);
    // ndim and dtype are adjacent: one store.
    NativeMemory.putLong(memory + DLTensor.NDIM, (ndim & 0xffffffffL) | (long) dtypeWord << 32);
    for (int i = 0; i < ndim; i++) {
      NativeMemory.putLong(memory + DLTensor.SIZE + 8L * i, shape[i]);
    }
    return memory | CApi.P4J_TENSOR_WORD_BORROWED;
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

  /** Bytes {@link #write} writes: the DLTensor, its shape and, when there are strides, the strides. */
  public static long writtenSize(int ndim, boolean withStrides) {
    return DLTensor.SIZE + 8L * Math.max(1, ndim) * (withStrides ? 2 : 1);
  }

  /**
   * A complete DLTensor on the CPU at {@code memory} (8-byte aligned, {@link #writtenSize} bytes of the caller's
   * scratch memory), with its shape (and strides, null for a compact row-major tensor) after it: what
   * {@code P4JNDArrayCreateView} copies. Returns the DLTensor's address, {@code memory}.
   */
  public static long write(long memory, long data, int dtypeWord, long[] shape, long[] strides, long byteOffset) {
    long shapeAddress = memory + DLTensor.SIZE;
    for (int i = 0; i < shape.length; i++) {
      NativeMemory.putLong(shapeAddress + 8L * i, shape[i]);
    }
    long stridesAddress = 0;
    if (strides != null) {
      stridesAddress = shapeAddress + 8L * Math.max(1, shape.length);
      for (int i = 0; i < strides.length; i++) {
        NativeMemory.putLong(stridesAddress + 8L * i, strides[i]);
      }
    }
    NativeMemory.putLong(memory + DLTensor.DATA, data);
    NativeMemory.putInt(memory + DLTensor.DEVICE_TYPE, DEVICE_CPU);
    NativeMemory.putInt(memory + DLTensor.DEVICE_ID, 0);
    NativeMemory.putInt(memory + DLTensor.NDIM, shape.length);
    NativeMemory.putInt(memory + DLTensor.DTYPE, dtypeWord);
    NativeMemory.putLong(memory + DLTensor.SHAPE, shapeAddress);
    NativeMemory.putLong(memory + DLTensor.STRIDES, stridesAddress);
    NativeMemory.putLong(memory + DLTensor.BYTE_OFFSET, byteOffset);
    return memory;
  }
}
