package dev.packed4j.samples.tensor;

import dev.packed4j.annotations.Global;
import dev.packed4j.runtime.NDArray;

/** The native tensor functions of native/tensor.cc. */
public interface TensorOps {
  /** {@code a x b} for 2-D contiguous float32 tensors: gotorch's {@code MM}. */
  @Global("tensor.MM")
  NDArray mm(NDArray a, NDArray b);
}
