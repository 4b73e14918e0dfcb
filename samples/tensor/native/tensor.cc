// The gotorch MM example on packed4j: a matrix multiply of two NDArrays, registered by name. The inputs come from
// Java without a copy (wrapped MemorySegments); the result is a new tensor Java reads.
#include <packed4j/packed4j.h>

#include <cstdint>

using namespace packed4j;

// c = a x b for 2-D contiguous float32 tensors, (n, k) x (k, m) -> (n, m). The inputs are read during the call
// only, so they are TensorViews: a tensor Java wrapped for this call reaches here without a native object.
P4J_REGISTER_GLOBAL("tensor.MM").set_body_typed([](TensorView a, TensorView b) {
  a.CheckDType(DataTypeOf<float>(), "a");  // TypeError "a: expected float32, got int16"
  b.CheckDType(DataTypeOf<float>(), "b");
  a.CheckNDim(2, "a");
  b.CheckNDim(2, "b");
  a.CheckContiguous("a");  // ValueError "a: expected a contiguous tensor, got strides (...) for shape (...)"
  b.CheckContiguous("b");
  int64_t n = a->shape[0], k = a->shape[1], m = b->shape[1];
  if (b->shape[0] != k) {
    throw ValueError("tensor.MM: a is " + std::to_string(n) + "x" + std::to_string(k) + " but b is " +
                     std::to_string(b->shape[0]) + "x" + std::to_string(m) + ": the inner sizes must match");
  }
  NDArray c = NDArray::Empty({n, m}, DataTypeOf<float>());
  const float* x = a.data<float>();
  const float* y = b.data<float>();
  float* z = c.data<float>();
  // i-k-j order: the inner loop walks rows of b and c contiguously, so the compiler vectorizes it.
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t p = 0; p < k; ++p) {
      float scale = x[i * k + p];
      for (int64_t j = 0; j < m; ++j) z[i * m + j] += scale * y[p * m + j];
    }
  }
  return c;
});
