package dev.packed4j.runtime.internal.capi;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;

/**
 * DLPack's managed tensors, as {@code NDArray.fromDLPack} and {@code toDLPack} exchange them: {@code DLManagedTensor}
 * (the tensor first, then {@code manager_ctx} and {@code deleter}) and DLPack 1.0's {@code DLManagedTensorVersioned}
 * ({@code version}, {@code manager_ctx}, {@code deleter}, {@code flags}, then the tensor).
 */
public final class DLManagedTensor {
  private DLManagedTensor() {}

  /** {@code DLManagedTensor}. */
  public static final StructLayout LAYOUT = MemoryLayout.structLayout(
      DLTensor.LAYOUT.withName("dl_tensor"),
      ValueLayout.ADDRESS.withName("manager_ctx"),
      ValueLayout.ADDRESS.withName("deleter")).withName("DLManagedTensor");

  /** {@code DLManagedTensorVersioned}. */
  public static final StructLayout VERSIONED_LAYOUT = MemoryLayout.structLayout(
      MemoryLayout.structLayout(
          ValueLayout.JAVA_INT.withName("major"),
          ValueLayout.JAVA_INT.withName("minor")).withName("version"),
      ValueLayout.ADDRESS.withName("manager_ctx"),
      ValueLayout.ADDRESS.withName("deleter"),
      ValueLayout.JAVA_LONG.withName("flags"),
      DLTensor.LAYOUT.withName("dl_tensor")).withName("DLManagedTensorVersioned");

  /** Byte size of {@code DLManagedTensor}, 64. */
  public static final long SIZE = LAYOUT.byteSize();
  /** Byte size of {@code DLManagedTensorVersioned}, 80. */
  public static final long VERSIONED_SIZE = VERSIONED_LAYOUT.byteSize();
}
