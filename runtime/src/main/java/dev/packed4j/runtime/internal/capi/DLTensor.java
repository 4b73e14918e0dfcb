package dev.packed4j.runtime.internal.capi;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;

/**
 * DLPack's {@code DLTensor}, the cell of a {@code kP4JNDArray} and what a {@code kP4JDLTensorPtr} points at:
 * {@code data}, {@code device} (device type, device id), {@code ndim}, {@code dtype} (code, bits, lanes),
 * {@code shape}, {@code strides}, {@code byte_offset}.
 */
public final class DLTensor {
  private DLTensor() {}

  /** The layout; {@code device} and {@code dtype} are the structs of DLPack, with their members named. */
  public static final StructLayout LAYOUT = MemoryLayout.structLayout(
      ValueLayout.ADDRESS.withName("data"),
      MemoryLayout.structLayout(
          ValueLayout.JAVA_INT.withName("device_type"),
          ValueLayout.JAVA_INT.withName("device_id")).withName("device"),
      ValueLayout.JAVA_INT.withName("ndim"),
      MemoryLayout.structLayout(
          ValueLayout.JAVA_BYTE.withName("code"),
          ValueLayout.JAVA_BYTE.withName("bits"),
          ValueLayout.JAVA_SHORT.withName("lanes")).withName("dtype"),
      ValueLayout.ADDRESS.withName("shape"),
      ValueLayout.ADDRESS.withName("strides"),
      ValueLayout.JAVA_LONG.withName("byte_offset")).withName("DLTensor");

  /** Byte size, 48. */
  public static final long SIZE = LAYOUT.byteSize();
  /** Offset of {@code void* data}. */
  public static final long DATA = LAYOUT.byteOffset(groupElement("data"));
  /** Offset of {@code DLDevice device}'s {@code device_type}. */
  public static final long DEVICE_TYPE = LAYOUT.byteOffset(groupElement("device"), groupElement("device_type"));
  /** Offset of {@code DLDevice device}'s {@code device_id}. */
  public static final long DEVICE_ID = LAYOUT.byteOffset(groupElement("device"), groupElement("device_id"));
  /** Offset of {@code int32_t ndim}. */
  public static final long NDIM = LAYOUT.byteOffset(groupElement("ndim"));
  /** Offset of {@code DLDataType dtype}: code, bits and lanes in one little-endian int32 (the dtype word). */
  public static final long DTYPE = LAYOUT.byteOffset(groupElement("dtype"));
  /** Offset of {@code int64_t* shape}. */
  public static final long SHAPE = LAYOUT.byteOffset(groupElement("shape"));
  /** Offset of {@code int64_t* strides} (NULL for a compact row-major tensor). */
  public static final long STRIDES = LAYOUT.byteOffset(groupElement("strides"));
  /** Offset of {@code uint64_t byte_offset}. */
  public static final long BYTE_OFFSET = LAYOUT.byteOffset(groupElement("byte_offset"));
}
