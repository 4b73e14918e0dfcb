/*!
 * \file packed4j/ndarray.h
 * \brief NDArray: a reference-counted tensor over DLPack's DLTensor, shared with Java and any DLPack producer.
 *
 * The object (type index kP4JNDArray) is created by libpacked4j.so only, through the C ABI's Tensors section, so
 * its memory always returns to the core; this header is inline code over those functions. Its cell is the
 * DLTensor itself (at handle + sizeof(P4JObject)), which is what `a->` reaches:
 *
 * \code
 *   P4J_REGISTER_GLOBAL("demo.Scale").set_body_typed([](NDArray a, double factor) {
 *     a.CheckDType(DataTypeOf<float>(), "a");
 *     a.CheckContiguous("a");
 *     float* values = a.data<float>();
 *     for (int64_t i = 0; i < a.NumElements(); ++i) values[i] *= static_cast<float>(factor);
 *     return a;
 *   });
 * \endcode
 */
#ifndef PACKED4J_NDARRAY_H_
#define PACKED4J_NDARRAY_H_

#include <packed4j/any.h>
#include <packed4j/error.h>
#include <packed4j/object.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace packed4j {

/*!
 * \brief The object behind an NDArray: the C header, then the DLTensor. Only libpacked4j.so creates and frees
 *  one (its own subclass adds the storage of shape, strides and the data's owner).
 */
class NDArrayObject : public Object {
 public:
  /*! \brief The tensor: data, device, ndim, dtype, shape, strides (never NULL), byte_offset. */
  DLTensor tensor;

  static constexpr const char* _type_key = "NDArray";
  P4J_DECLARE_STATIC_OBJECT_TYPE_INFO(NDArrayObject, Object, kP4JNDArray);

 protected:
  NDArrayObject() noexcept : tensor{} {}
};

/*! \brief The DLDataType of a C++ element type: `DataTypeOf<float>()` is float32. */
template <typename T>
inline DLDataType DataTypeOf() {
  static_assert(std::is_arithmetic<T>::value, "DataTypeOf<T>: T must be a bool, an integer or a floating type");
  uint8_t code;
  if constexpr (std::is_same<T, bool>::value) {
    code = P4J_DL_BOOL_CODE;
  } else if constexpr (std::is_floating_point<T>::value) {
    code = kDLFloat;
  } else if constexpr (std::is_signed<T>::value) {
    code = kDLInt;
  } else {
    code = kDLUInt;
  }
  return DLDataType{code, static_cast<uint8_t>(sizeof(T) * 8), 1};
}

/*! \brief Whether two dtypes are the same (code, bits and lanes). */
inline bool SameDataType(DLDataType a, DLDataType b) noexcept {
  return a.code == b.code && a.bits == b.bits && a.lanes == b.lanes;
}

/*! \brief The name of a dtype as Java and messages print it: "float32", "int16", "bool", "float32x4". */
inline std::string DataTypeToString(DLDataType dtype) {
  std::string name;
  switch (dtype.code) {
    case kDLInt: name = "int"; break;
    case kDLUInt: name = "uint"; break;
    case kDLFloat: name = "float"; break;
    case kDLBfloat: name = "bfloat"; break;
    case kDLOpaqueHandle: name = "handle"; break;
    case kDLComplex: name = "complex"; break;
    case P4J_DL_BOOL_CODE:
      name = "bool";
      break;
    default:
      name = "code" + std::to_string(dtype.code) + "_";
      break;
  }
  if (dtype.code != P4J_DL_BOOL_CODE || dtype.bits != 8) name += std::to_string(dtype.bits);
  if (dtype.lanes != 1) name += "x" + std::to_string(dtype.lanes);
  return name;
}

/*! \brief The name of a device: "cpu", "cuda:0", "cuda_host:0", ... (unknown types as "device14:0"). */
inline std::string DeviceToString(DLDevice device) {
  std::string name;
  switch (static_cast<int>(device.device_type)) {
    case kDLCPU: return "cpu";
    case kDLCUDA: name = "cuda"; break;
    case kDLCUDAHost: name = "cuda_host"; break;
    case kDLOpenCL: name = "opencl"; break;
    case kDLVulkan: name = "vulkan"; break;
    case kDLMetal: name = "metal"; break;
    case kDLVPI: name = "vpi"; break;
    case kDLROCM: name = "rocm"; break;
    case kDLROCMHost: name = "rocm_host"; break;
    case kDLExtDev: name = "ext_dev"; break;
    case kDLCUDAManaged: name = "cuda_managed"; break;
    case 14: name = "oneapi"; break;
    case 15: name = "webgpu"; break;
    case 16: name = "hexagon"; break;
    case 17: name = "maia"; break;
    default: name = "device" + std::to_string(static_cast<int>(device.device_type)); break;
  }
  return name + ":" + std::to_string(device.device_id);
}

/*! \brief "(10, 8, 4, 2)": a shape or strides for messages. */
inline std::string TupleToString(const int64_t* values, int32_t count) {
  std::string text = "(";
  for (int32_t i = 0; i < count; ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(values[i]);
  }
  if (count == 1) text += ",";
  return text + ")";
}

/*! \brief Whether strides describe the compact row-major layout of shape (size-1 dimensions' strides ignored). */
inline bool IsContiguousLayout(const int64_t* shape, const int64_t* strides, int32_t ndim) noexcept {
  if (strides == nullptr) return true;
  int64_t expected = 1;
  for (int32_t i = ndim - 1; i >= 0; --i) {
    if (shape[i] == 0) return true;  // no element: any strides describe the same (empty) memory
    if (shape[i] != 1 && strides[i] != expected) return false;
    expected *= shape[i];
  }
  return true;
}

namespace details {

/*!
 * \brief The reading API NDArray and TensorView share, over `Derived::operator->()` (a `const DLTensor*`): sizes,
 *  layout, checks with clear errors and typed access to the elements.
 */
template <typename Derived>
class TensorAccessors {
 public:
  int32_t ndim() const noexcept { return tensor()->ndim; }
  DLDataType dtype() const noexcept { return tensor()->dtype; }
  DLDevice device() const noexcept { return tensor()->device; }
  uint64_t byte_offset() const noexcept { return tensor()->byte_offset; }
  /*! \brief The shape; TypeError on an undefined NDArray (None: an unset field, say), as every check below. */
  std::vector<int64_t> Shape() const {
    RequireTensor("tensor");
    return std::vector<int64_t>(tensor()->shape, tensor()->shape + ndim());
  }
  /*! \brief The strides in elements; for a DLTensor whose strides are NULL (compact), the compact ones. */
  std::vector<int64_t> Strides() const {
    RequireTensor("tensor");
    const DLTensor* t = tensor();
    if (t->strides != nullptr) return std::vector<int64_t>(t->strides, t->strides + t->ndim);
    std::vector<int64_t> strides(t->ndim);
    int64_t step = 1;
    for (int32_t i = t->ndim - 1; i >= 0; --i) {
      strides[i] = step;
      step *= t->shape[i];
    }
    return strides;
  }
  /*! \brief The number of elements (1 for a scalar of ndim 0, 0 when a dimension is 0). */
  int64_t NumElements() const noexcept {
    int64_t count = 1;
    for (int32_t i = 0; i < ndim(); ++i) count *= tensor()->shape[i];
    return count;
  }
  /*! \brief Whether the elements lie compact in row-major order (strides of size-1 dimensions do not count). */
  bool IsContiguous() const noexcept { return IsContiguousLayout(tensor()->shape, tensor()->strides, ndim()); }

  /*! \brief TypeError `<what>: expected float32, got int16` unless the dtype is expected. */
  void CheckDType(DLDataType expected, std::string_view what = "tensor") const {
    RequireTensor(what);
    if (!SameDataType(dtype(), expected)) {
      throw TypeError(std::string(what) + ": expected " + DataTypeToString(expected) + ", got " +
                      DataTypeToString(dtype()));
    }
  }
  /*! \brief ValueError `<what>: expected 2 dimensions, got 3 (shape (2, 3, 4))` unless ndim is expected. */
  void CheckNDim(int32_t expected, std::string_view what = "tensor") const {
    RequireTensor(what);
    if (ndim() != expected) {
      throw ValueError(std::string(what) + ": expected " + std::to_string(expected) + " dimensions, got " +
                       std::to_string(ndim()) + " (shape " + TupleToString(tensor()->shape, ndim()) + ")");
    }
  }
  /*! \brief ValueError `<what>: expected a contiguous tensor, got strides (...) for shape (...)`. */
  void CheckContiguous(std::string_view what = "tensor") const {
    RequireTensor(what);
    if (!IsContiguous()) {
      throw ValueError(std::string(what) + ": expected a contiguous tensor, got strides " +
                       TupleToString(tensor()->strides, ndim()) + " for shape " +
                       TupleToString(tensor()->shape, ndim()));
    }
  }
  /*! \brief ValueError unless the tensor's memory is host memory the caller may dereference. */
  void CheckHostAccessible(std::string_view what = "tensor") const {
    RequireTensor(what);
    int type = static_cast<int>(device().device_type);
    if (type != kDLCPU && type != kDLCUDAHost && type != kDLROCMHost && type != kDLCUDAManaged) {
      throw ValueError(std::string(what) + ": expected a tensor in host memory, got device " +
                       DeviceToString(device()));
    }
  }

  /*!
   * \brief The first element as T* (data + byte_offset), after checking that T is the dtype and the memory is on
   *  the host: `float* values = a.data<float>();`. Strides still apply; CheckContiguous first to index linearly.
   */
  template <typename T>
  T* data() const {
    CheckDType(DataTypeOf<T>());
    CheckHostAccessible();
    return reinterpret_cast<T*>(static_cast<char*>(tensor()->data) + tensor()->byte_offset);
  }

 private:
  const DLTensor* tensor() const noexcept { return static_cast<const Derived&>(*this).operator->(); }
  /*! \brief TypeError `<what>: expected a tensor, got None` for an undefined NDArray or a view of none. */
  void RequireTensor(std::string_view what) const {
    if (__builtin_expect(!static_cast<const Derived&>(*this).HoldsTensor(), 0)) {
      throw TypeError(std::string(what) + ": expected a tensor, got None");
    }
  }
};

}  // namespace details

/*!
 * \brief A reference to a tensor. `a->data`, `a->shape`, ... reach the DLTensor; the methods add checks with
 *  clear errors and typed access. As an argument of a packed function it is borrowed from the caller (no copy),
 *  as a result it is handed over with its reference. A caller's borrowed DLTensor (kP4JDLTensorPtr, what Java
 *  passes for a tensor that has no native object yet) becomes a new NDArray over the same memory; a function
 *  that only reads a tensor during the call takes a TensorView instead and makes nothing.
 *
 * \code
 *   NDArray a = NDArray::Empty({2, 3}, DataTypeOf<float>());
 *   a.data<float>()[0] = 1.5f;
 *   a.Shape();  // {2, 3}
 * \endcode
 */
class NDArray : public ObjectRef, public details::TensorAccessors<NDArray> {
 public:
  /*! \brief The object type an NDArray refers to. */
  using ContainerType = NDArrayObject;

  NDArray() noexcept = default;
  explicit NDArray(ObjectPtr<Object> ptr) noexcept : ObjectRef(std::move(ptr)) {}

  /*!
   * \brief The tensor; undefined behaviour on an undefined reference, as for every ObjectRef (the checks and `data`
   *  throw a TypeError instead).
   */
  const DLTensor* operator->() const noexcept { return &tensor_object()->tensor; }
  /*! \brief Whether this refers to a tensor (false for None: a default NDArray, an unset field). */
  bool HoldsTensor() const noexcept { return defined(); }
  /*! \brief The tensor, as a pointer for C APIs that take a `DLTensor*` (valid while this reference lives). */
  DLTensor* ToDLTensor() const noexcept { return &tensor_object()->tensor; }

  /*! \brief A new contiguous CPU tensor, zeroed, its memory owned by the core. */
  static NDArray Empty(const std::vector<int64_t>& shape, DLDataType dtype, DLDevice device = DLDevice{kDLCPU, 0}) {
    P4JObjectHandle handle = nullptr;
    details::CheckCallAs(P4JNDArrayCreateEmpty(shape.data(), static_cast<int32_t>(shape.size()), &dtype, &device,
                                             &handle), "P4JNDArrayCreateEmpty", "NDArray::Empty");
    return details::ObjectRefAccess::FromOwnedHandle<NDArray>(handle);
  }

  /*!
   * \brief A tensor over memory the caller owns: no copy. owner_deleter(owner) runs when the last reference goes
   *  (NULL when the caller keeps the memory alive otherwise). Empty strides mean contiguous.
   */
  static NDArray FromBorrowed(void* data, const std::vector<int64_t>& shape, DLDataType dtype,
                              const std::vector<int64_t>& strides = {}, DLDevice device = DLDevice{kDLCPU, 0},
                              uint64_t byte_offset = 0, void* owner = nullptr,
                              void (*owner_deleter)(void*) = nullptr) {
    if (!strides.empty() && strides.size() != shape.size()) {
      throw ValueError("NDArray::FromBorrowed: " + std::to_string(strides.size()) + " strides for " +
                       std::to_string(shape.size()) + " dimensions");
    }
    DLTensor tensor{};
    tensor.data = data;
    tensor.device = device;
    tensor.ndim = static_cast<int32_t>(shape.size());
    tensor.dtype = dtype;
    tensor.shape = const_cast<int64_t*>(shape.data());
    tensor.strides = strides.empty() ? nullptr : const_cast<int64_t*>(strides.data());
    tensor.byte_offset = byte_offset;
    P4JObjectHandle handle = nullptr;
    details::CheckCallAs(P4JNDArrayCreateView(&tensor, owner, owner_deleter, &handle),
                         "P4JNDArrayCreateView", "NDArray::FromBorrowed");
    return details::ObjectRefAccess::FromOwnedHandle<NDArray>(handle);
  }

  /*!
   * \brief A view of this tensor's memory with another layout (a slice, a transpose), holding a reference to
   *  this tensor; ValueError when the layout reaches outside this tensor's elements. Empty strides: contiguous.
   */
  NDArray View(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides = {},
               uint64_t byte_offset = 0) const {
    if (!strides.empty() && strides.size() != shape.size()) {
      throw ValueError("NDArray::View: " + std::to_string(strides.size()) + " strides for " +
                       std::to_string(shape.size()) + " dimensions");
    }
    DLTensor layout{};
    layout.ndim = static_cast<int32_t>(shape.size());
    layout.shape = const_cast<int64_t*>(shape.data());
    layout.strides = strides.empty() ? nullptr : const_cast<int64_t*>(strides.data());
    layout.byte_offset = byte_offset;
    P4JObjectHandle view = nullptr;
    details::CheckCallAs(P4JNDArrayCreateViewOf(handle(), &layout, &view), "P4JNDArrayCreateViewOf", "NDArray::View");
    return details::ObjectRefAccess::FromOwnedHandle<NDArray>(view);
  }

  /*! \brief Takes over a DLPack producer's tensor (its deleter runs when the last reference goes). */
  static NDArray FromDLPack(DLManagedTensor* managed) {
    P4JObjectHandle handle = nullptr;
    details::CheckCallAs(P4JNDArrayFromDLPack(managed, &handle), "P4JNDArrayFromDLPack", "NDArray::FromDLPack");
    return details::ObjectRefAccess::FromOwnedHandle<NDArray>(handle);
  }

  /*! \brief Takes over a DLPack 1.0 producer's tensor. */
  static NDArray FromDLPackVersioned(DLManagedTensorVersioned* managed) {
    P4JObjectHandle handle = nullptr;
    details::CheckCallAs(P4JNDArrayFromDLPackVersioned(managed, &handle),
                         "P4JNDArrayFromDLPackVersioned", "NDArray::FromDLPackVersioned");
    return details::ObjectRefAccess::FromOwnedHandle<NDArray>(handle);
  }

  /*! \brief Exports for a DLPack consumer, which calls the result's deleter once (that drops one reference). */
  DLManagedTensor* ToDLPack() const {
    DLManagedTensor* managed = nullptr;
    details::CheckCallAs(P4JNDArrayToDLPack(handle(), &managed), "P4JNDArrayToDLPack", "NDArray::ToDLPack");
    return managed;
  }

  /*! \brief Exports as DLPack 1.0's versioned managed tensor. */
  DLManagedTensorVersioned* ToDLPackVersioned() const {
    DLManagedTensorVersioned* managed = nullptr;
    details::CheckCallAs(P4JNDArrayToDLPackVersioned(handle(), &managed),
                         "P4JNDArrayToDLPackVersioned", "NDArray::ToDLPackVersioned");
    return managed;
  }

 private:
  NDArrayObject* tensor_object() const noexcept {
    return static_cast<NDArrayObject*>(const_cast<Object*>(get()));
  }
};

/*!
 * \brief A tensor borrowed for the length of a call: a `const DLTensor*` and the NDArray reading API, without a
 *  reference count. As a `set_body_typed` parameter it accepts an NDArray or a caller's borrowed DLTensor, so a
 *  Java `NDArray.wrap` tensor reaches the body without any native object being made (TVM FFI's TensorView). It
 *  must not outlive the call: keep an NDArray parameter instead to hold on to the tensor. It cannot be a result.
 *
 * \code
 *   P4J_REGISTER_GLOBAL("demo.Sum").set_body_typed([](TensorView a) {
 *     a.CheckContiguous("a");
 *     const float* values = a.data<float>();
 *     return std::accumulate(values, values + a.NumElements(), 0.0);
 *   });
 * \endcode
 */
class TensorView : public details::TensorAccessors<TensorView> {
 public:
  /*! \brief A view of tensor, which must stay valid while this view is used. */
  explicit TensorView(const DLTensor* tensor) noexcept : tensor_(tensor) {}
  /*! \brief A view of an NDArray, valid while that array lives. */
  TensorView(const NDArray& array) noexcept  // NOLINT(runtime/explicit)
      : tensor_(array.defined() ? array.operator->() : nullptr) {}

  /*! \brief The tensor's DLPack fields: shape, strides, dtype, data, byte_offset. */
  const DLTensor* operator->() const noexcept { return tensor_; }
  /*! \brief The tensor (for C APIs that take a `const DLTensor*`). */
  const DLTensor* get() const noexcept { return tensor_; }
  /*! \brief Whether this views a tensor (false for a view of an undefined NDArray). */
  bool HoldsTensor() const noexcept { return tensor_ != nullptr; }

 private:
  const DLTensor* tensor_;
};

namespace details {

/*! \brief The DLTensor a value holds for the call: an NDArray object's, a borrowed kP4JDLTensorPtr, or NULL. */
inline const DLTensor* BorrowedTensorOf(const P4JAny& value) {
  if (IsObjectValue(value) && ObjectIsInstance(value.v_obj, kP4JNDArray)) {
    return &static_cast<const NDArrayObject*>(static_cast<const Object*>(value.v_obj))->tensor;
  }
  if (value.type_index == kP4JDLTensorPtr) return static_cast<const DLTensor*>(value.v_ptr);
  return nullptr;
}

/*!
 * \brief NDArray: an NDArray object (or a subtype's), borrowed; a caller's borrowed DLTensor becomes a new NDArray
 *  over the same memory (no copy, no owner: the caller keeps the memory alive, as for NDArray.wrap).
 */
template <>
struct TypeTraits<NDArray> : ObjectRefTraits<NDArray> {
  static constexpr bool kWireTensor = true;
  static NDArray Convert(const P4JAny& value, const ConvertContext& context) {
    if (value.type_index == kP4JDLTensorPtr && value.v_ptr != nullptr) {
      P4JObjectHandle handle = nullptr;
      CheckCall(P4JNDArrayCreateView(static_cast<const DLTensor*>(value.v_ptr), nullptr, nullptr, &handle));
      return ObjectRefAccess::FromOwnedHandle<NDArray>(handle);
    }
    return ObjectRefTraits<NDArray>::Convert(value, context);
  }
};

/*! \brief TensorView: an NDArray object or a borrowed DLTensor, for the call; never stored. Named NDArray. */
template <>
struct TypeTraits<TensorView> {
  static constexpr bool kConvertible = true;
  static constexpr bool kStorable = false;
  static constexpr bool kTypedAllowed = true;
  static constexpr bool kTypedScalar = false;
  static constexpr bool kWireTensor = true;
  static std::string TypeName() { return NDArrayObject::_type_key; }
  static TensorView Convert(const P4JAny& value, const ConvertContext& context) {
    const DLTensor* tensor = BorrowedTensorOf(value);
    if (tensor == nullptr) ThrowTypeMismatch(context, TypeName(), value);
    return TensorView(tensor);
  }
};

}  // namespace details

}  // namespace packed4j

#endif  // PACKED4J_NDARRAY_H_
