/*!
 * \file ndarray.cc
 * \brief NDArray objects (kP4JNDArray): allocation, views over borrowed memory, DLPack import and export.
 *
 * Every tensor is one NDArrayImpl: the DLTensor cell, the storage its shape and strides point into, and what owns
 * the data (the core's own allocation, a borrower's owner and deleter, or a DLPack producer's managed tensor).
 * An export holds one reference to the tensor, so a producer and its consumers free the data exactly once, when
 * the last of them lets go.
 */
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "internal.h"

namespace packed4j {
namespace internal {
namespace {

/*! \brief The largest ndim accepted: far beyond any real tensor, small enough to reject garbage early. */
constexpr int32_t kMaxDims = 64;
/*! \brief Alignment of data the core allocates (a cache line; what vectorized loops want). */
constexpr size_t kDataAlignment = 64;

/*! \brief What releases a tensor's data when the tensor is deleted. */
enum class DataOwner { kNone, kCore, kBorrowed, kBase, kDLPack, kDLPackVersioned };

class NDArrayImpl : public NDArrayObject {
 public:
  /*!
   * \brief Shape then strides, 2 * ndim values, and one spare slot (so a 0-d tensor's are not NULL either):
   *  tensor.shape and tensor.strides point into inline_dims up to kInlineDims dimensions, else into heap_dims, so a
   *  tensor of the usual ranks is one allocation.
   */
  static constexpr int32_t kInlineDims = 4;
  int64_t inline_dims[2 * kInlineDims + 1];
  std::unique_ptr<int64_t[]> heap_dims;
  DataOwner owner_kind = DataOwner::kNone;
  void* owner = nullptr;
  void (*owner_deleter)(void*) = nullptr;

  /*! \brief A new object with one reference, shape and strides copied (NULL strides: contiguous). */
  static NDArrayImpl* Create(const DLTensor& source) {
    auto* object = new NDArrayImpl();
    object->tensor = source;
    int32_t ndim = source.ndim;
    int64_t* shape = object->inline_dims;
    if (ndim > kInlineDims) {
      object->heap_dims.reset(new int64_t[static_cast<size_t>(2 * ndim) + 1]);
      shape = object->heap_dims.get();
    }
    int64_t* strides = shape + ndim;
    if (ndim > 0) std::memcpy(shape, source.shape, sizeof(int64_t) * ndim);
    if (source.strides != nullptr) {
      if (ndim > 0) std::memcpy(strides, source.strides, sizeof(int64_t) * ndim);
    } else {
      int64_t stride = 1;
      for (int32_t i = ndim - 1; i >= 0; --i) {
        strides[i] = stride;
        stride *= shape[i] > 0 ? shape[i] : 1;
      }
    }
    object->tensor.shape = shape;
    object->tensor.strides = strides;
    P4JObject* handle = object;
    handle->type_index = kP4JNDArray;
    handle->ref_counter = 1;
    handle->deleter = &Delete;
    CountObjectCreated();
    return object;
  }

  static NDArrayImpl* FromHandle(P4JObject* handle) {
    return static_cast<NDArrayImpl*>(static_cast<Object*>(handle));
  }

  /*!
   * \brief The reflection metadata: ndim, shape, strides, dtype, device, byte_offset, at their offsets from the
   *  handle (shape and strides: the offsets of the DLTensor's pointers, read by ReadNDArrayDims).
   */
  static std::vector<P4JFieldInfo> Fields() {
    NDArrayImpl probe;
    const char* base = reinterpret_cast<const char*>(static_cast<P4JObject*>(&probe));
    auto field = [base](const char* name, P4JFieldKind kind, const void* address, size_t size) {
      P4JFieldInfo info{};
      info.name = details::ByteArrayOf(name);
      info.kind = kind;
      info.offset = static_cast<const char*>(address) - base;
      info.size = static_cast<int64_t>(size);
      return info;
    };
    // shape and strides are read as new List<int64> objects, dtype and device as new strings (ReadNDArrayField),
    // made at each read rather than with every tensor; their offsets are those of the DLTensor's own members.
    P4JFieldInfo shape = field("shape", kP4JFieldObject, &probe.tensor.shape, sizeof(int64_t*));
    shape.object_type_index = kP4JList;
    P4JFieldInfo strides = field("strides", kP4JFieldObject, &probe.tensor.strides, sizeof(int64_t*));
    strides.object_type_index = kP4JList;
    return {field("ndim", kP4JFieldInt32, &probe.tensor.ndim, sizeof(int32_t)),
            shape,
            strides,
            field("dtype", kP4JFieldString, &probe.tensor.dtype, sizeof(DLDataType)),
            field("device", kP4JFieldString, &probe.tensor.device, sizeof(DLDevice)),
            field("byte_offset", kP4JFieldUInt64, &probe.tensor.byte_offset, sizeof(uint64_t))};
  }

 private:
  NDArrayImpl() = default;

  static void Delete(P4JObject* handle) {
    NDArrayImpl* object = FromHandle(handle);
    switch (object->owner_kind) {
      case DataOwner::kCore:
        std::free(object->tensor.data);
        break;
      case DataOwner::kBorrowed:
        if (object->owner_deleter != nullptr) object->owner_deleter(object->owner);
        break;
      case DataOwner::kBase:
        details::DecRef(static_cast<P4JObject*>(object->owner));
        break;
      case DataOwner::kDLPack: {
        auto* managed = static_cast<DLManagedTensor*>(object->owner);
        if (managed->deleter != nullptr) managed->deleter(managed);
        break;
      }
      case DataOwner::kDLPackVersioned: {
        auto* managed = static_cast<DLManagedTensorVersioned*>(object->owner);
        if (managed->deleter != nullptr) managed->deleter(managed);
        break;
      }
      case DataOwner::kNone:
        break;
    }
    delete object;
    CountObjectDeleted();
  }
};

/*! \brief The element size in bytes, rounded up to whole bytes (bool and int8 are 1). */
int64_t ElementBytes(DLDataType dtype) {
  return (static_cast<int64_t>(dtype.bits) * dtype.lanes + 7) / 8;
}

/*! \brief Checks what every tensor must satisfy; returns the element count (overflow is a ValueError). */
int64_t CheckTensorShape(const char* function, const int64_t* shape, int32_t ndim, DLDataType dtype) {
  // Built only on the way to an error: a tensor created without one allocates nothing here.
  auto where = [function] { return std::string(function) + ": "; };
  if (ndim < 0 || ndim > kMaxDims) {
    throw ValueError(where() + "ndim " + std::to_string(ndim) + " is outside [0, " + std::to_string(kMaxDims) + "]");
  }
  if (ndim > 0 && shape == nullptr) throw ValueError(where() + "shape is NULL for ndim " + std::to_string(ndim));
  if (dtype.bits == 0 || dtype.lanes == 0) {
    throw ValueError(where() + "dtype " + DataTypeToString(dtype) + " has no bits or no lanes");
  }
  // span is the product of the dimensions with 0 counted as 1: what the contiguous strides of the shape multiply
  // up to, so a shape whose strides would overflow is refused even when a 0 dimension leaves it without elements.
  int64_t count = 1;
  int64_t span = 1;
  for (int32_t i = 0; i < ndim; ++i) {
    if (shape[i] < 0) {
      throw ValueError(where() + "dimension " + std::to_string(i) + " of shape " + TupleToString(shape, ndim) +
                       " is negative");
    }
    if (shape[i] != 0 && span > std::numeric_limits<int64_t>::max() / shape[i]) {
      throw ValueError(where() + "shape " + TupleToString(shape, ndim) + " has too many elements");
    }
    count *= shape[i];
    if (shape[i] != 0) span *= shape[i];
  }
  if (count > std::numeric_limits<int64_t>::max() / ElementBytes(dtype)) {
    throw ValueError(where() + "shape " + TupleToString(shape, ndim) + " of " + DataTypeToString(dtype) +
                     " has too many bytes");
  }
  return count;
}

/*!
 * \brief The lowest and one past the highest byte (from data) that a layout reaches; {0, 0} without elements.
 *  Strides may be negative, so each dimension moves the low or the high end. A layout whose reach does not fit in
 *  int64 (strides or a byte offset of any size come from callers) is a ValueError naming function.
 */
void ByteExtent(const char* function, const int64_t* shape, const int64_t* strides, int32_t ndim,
                uint64_t byte_offset, DLDataType dtype, int64_t* low, int64_t* high) {
  for (int32_t i = 0; i < ndim; ++i) {
    if (shape[i] == 0) {
      *low = *high = 0;
      return;
    }
  }
  auto too_far = [&]() {
    return ValueError(std::string(function) + ": the layout of shape " + TupleToString(shape, ndim) +
                      ", strides " + TupleToString(strides, ndim) + " and byte offset " +
                      std::to_string(byte_offset) + " reaches beyond the addressable bytes");
  };
  if (byte_offset > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) throw too_far();
  int64_t first = static_cast<int64_t>(byte_offset);
  int64_t last = first;
  int64_t element = ElementBytes(dtype);
  for (int32_t i = 0; i < ndim; ++i) {
    int64_t stride = strides != nullptr ? strides[i] : 0;
    int64_t reach;
    if (__builtin_mul_overflow(shape[i] - 1, stride, &reach) || __builtin_mul_overflow(reach, element, &reach)) {
      throw too_far();
    }
    int64_t& end = reach < 0 ? first : last;
    if (__builtin_add_overflow(end, reach, &end)) throw too_far();
  }
  if (__builtin_add_overflow(last, element, high)) throw too_far();
  *low = first;
}

/*! \brief The state behind an exported DLManagedTensor(Versioned): the managed struct and its reference. */
template <typename Managed>
struct Export {
  Managed managed;
  P4JObject* array;

  static void Delete(Managed* self) {
    auto* exported = reinterpret_cast<Export*>(self);
    details::DecRef(exported->array);
    delete exported;
  }
};

static_assert(offsetof(Export<DLManagedTensor>, managed) == 0, "the managed tensor is the export's address");
static_assert(offsetof(Export<DLManagedTensorVersioned>, managed) == 0, "the managed tensor is the export's address");

/*! \brief Imports a managed tensor; an export of this core comes back as its own object. */
template <typename Managed>
P4JObject* Import(Managed* managed, DataOwner kind, const char* function) {
  if (managed == nullptr) throw ValueError(std::string(function) + ": the managed tensor is NULL");
  if (managed->deleter == &Export<Managed>::Delete) {
    // Our own export: hand back the same object, and drop the export's reference (the consumer's release).
    P4JObject* array = reinterpret_cast<Export<Managed>*>(managed)->array;
    details::IncRef(array);
    managed->deleter(managed);
    return array;
  }
  const DLTensor& source = managed->dl_tensor;
  int64_t count = CheckTensorShape(function, source.shape, source.ndim, source.dtype);
  if (source.data == nullptr && count > 0) {
    throw ValueError(std::string(function) + ": the tensor's data is NULL but it has " + std::to_string(count) +
                     " elements");
  }
  NDArrayImpl* object = NDArrayImpl::Create(source);
  object->owner_kind = kind;
  object->owner = managed;
  return object;
}

template <typename Managed>
Managed* ExportOf(P4JObject* array, const char* function) {
  CheckHandleType(array, kP4JNDArray, function);
  auto* exported = new Export<Managed>();
  exported->managed = Managed{};
  exported->managed.dl_tensor = NDArrayImpl::FromHandle(array)->tensor;
  exported->managed.manager_ctx = exported;
  exported->managed.deleter = &Export<Managed>::Delete;
  details::IncRef(array);
  exported->array = array;
  return &exported->managed;
}

}  // namespace

int64_t NDArrayInstanceSize() { return details::InstanceSizeFromHandle<NDArrayImpl>(); }

std::vector<P4JFieldInfo> NDArrayFields() { return NDArrayImpl::Fields(); }

bool ReadNDArrayField(const P4JObject* handle, const P4JFieldInfo& field, P4JAny* result) {
  // The offsets of the computed fields: DLTensor members, the same in every NDArrayObject (subtypes included).
  static const std::vector<P4JFieldInfo> fields = NDArrayImpl::Fields();
  // The offset first: a plugin type's field reads pay one comparison, not a type-hierarchy lookup.
  int64_t offset = field.offset;
  bool computed = offset == fields[1].offset || offset == fields[2].offset || offset == fields[3].offset ||
                  offset == fields[4].offset;
  if (!computed || !HandleIsInstance(handle, kP4JNDArray)) return false;
  const DLTensor& tensor = static_cast<const NDArrayObject*>(static_cast<const Object*>(handle))->tensor;
  if (field.kind == kP4JFieldObject && (field.offset == fields[1].offset || field.offset == fields[2].offset)) {
    const int64_t* dims = field.offset == fields[1].offset ? tensor.shape : tensor.strides;
    P4JObjectHandle list = nullptr;
    details::CheckCall(P4JListFromInt64s(dims, tensor.ndim, &list));
    details::StoreOwnedObject(list, result);
    return true;
  }
  if (field.kind == kP4JFieldString && (field.offset == fields[3].offset || field.offset == fields[4].offset)) {
    std::string name =
        field.offset == fields[3].offset ? DataTypeToString(tensor.dtype) : DeviceToString(tensor.device);
    details::StoreOwnedObject(details::NewStringObject(name), result);
    return true;
  }
  return false;
}

}  // namespace internal
}  // namespace packed4j

using namespace packed4j;  // NOLINT(build/namespaces): the C entry points below only
using internal::DataOwner;
using internal::NDArrayImpl;

int P4JNDArrayCreateEmpty(const int64_t* shape, int32_t ndim, const DLDataType* dtype_pointer,
                          const DLDevice* device_pointer, P4JObjectHandle* out) {
  P4J_SAFE_CALL_BEGIN();
  const char* function = "P4JNDArrayCreateEmpty";
  if (dtype_pointer == nullptr || device_pointer == nullptr) {
    throw ValueError(std::string(function) + ": dtype and device must not be NULL");
  }
  DLDataType dtype = *dtype_pointer;
  DLDevice device = *device_pointer;
  int64_t count = internal::CheckTensorShape(function, shape, ndim, dtype);
  if (device.device_type != kDLCPU) {
    throw ValueError(std::string(function) + ": cannot allocate on " + DeviceToString(device) +
                     ": packed4j allocates host (cpu) memory only; wrap device memory with P4JNDArrayCreateView");
  }
  // Round up to the alignment (aligned_alloc requires it) and never ask for 0 bytes, so data is never NULL.
  size_t bytes = static_cast<size_t>(count * internal::ElementBytes(dtype));
  size_t rounded = (bytes + internal::kDataAlignment - 1) / internal::kDataAlignment * internal::kDataAlignment;
  if (rounded == 0) rounded = internal::kDataAlignment;
  void* data = std::aligned_alloc(internal::kDataAlignment, rounded);
  if (data == nullptr) {
    throw RuntimeError(std::string(function) + ": out of memory allocating " + std::to_string(bytes) + " bytes");
  }
  std::memset(data, 0, rounded);
  DLTensor tensor{};
  tensor.data = data;
  tensor.device = device;
  tensor.ndim = ndim;
  tensor.dtype = dtype;
  tensor.shape = const_cast<int64_t*>(shape);
  tensor.strides = nullptr;
  NDArrayImpl* object;
  try {
    object = NDArrayImpl::Create(tensor);
  } catch (...) {
    std::free(data);
    throw;
  }
  object->owner_kind = DataOwner::kCore;
  *out = object;
  P4J_SAFE_CALL_END();
}

int P4JNDArrayCreateView(const DLTensor* tensor, void* owner, void (*owner_deleter)(void* owner),
                         P4JObjectHandle* out) {
  P4J_SAFE_CALL_BEGIN();
  const char* function = "P4JNDArrayCreateView";
  if (tensor == nullptr) throw ValueError(std::string(function) + ": tensor is NULL");
  int64_t count = internal::CheckTensorShape(function, tensor->shape, tensor->ndim, tensor->dtype);
  if (tensor->data == nullptr && count > 0) {
    throw ValueError(std::string(function) + ": data is NULL but the tensor has " + std::to_string(count) +
                     " elements");
  }
  NDArrayImpl* object = NDArrayImpl::Create(*tensor);
  object->owner_kind = DataOwner::kBorrowed;
  object->owner = owner;
  object->owner_deleter = owner_deleter;
  *out = object;
  P4J_SAFE_CALL_END();
}

int P4JNDArrayCreateViewOf(P4JObjectHandle base, const DLTensor* layout, P4JObjectHandle* out) {
  P4J_SAFE_CALL_BEGIN();
  const char* function = "P4JNDArrayCreateViewOf";
  internal::CheckHandleType(base, kP4JNDArray, "P4JNDArrayCreateViewOf: base");
  if (layout == nullptr) throw ValueError(std::string(function) + ": layout is NULL");
  const DLTensor& source = NDArrayImpl::FromHandle(base)->tensor;
  DLTensor view = *layout;
  view.data = source.data;
  view.dtype = source.dtype;
  view.device = source.device;
  internal::CheckTensorShape(function, view.shape, view.ndim, view.dtype);
  std::vector<int64_t> contiguous;
  if (view.strides == nullptr) {
    contiguous.resize(static_cast<size_t>(view.ndim));
    int64_t stride = 1;
    for (int32_t i = view.ndim - 1; i >= 0; --i) {
      contiguous[i] = stride;
      stride *= view.shape[i] > 0 ? view.shape[i] : 1;
    }
    view.strides = contiguous.data();
  }
  int64_t low, high, base_low, base_high;
  internal::ByteExtent(function, view.shape, view.strides, view.ndim, view.byte_offset, view.dtype, &low, &high);
  internal::ByteExtent("P4JNDArrayCreateViewOf: base", source.shape, source.strides, source.ndim,
                       source.byte_offset, source.dtype, &base_low, &base_high);
  if (high > low && (low < base_low || high > base_high)) {
    throw ValueError(std::string(function) + ": the view of shape " + TupleToString(view.shape, view.ndim) +
                     ", strides " + TupleToString(view.strides, view.ndim) + " and byte offset " +
                     std::to_string(view.byte_offset) + " reaches bytes [" + std::to_string(low) + ", " +
                     std::to_string(high) + ") outside its base's [" + std::to_string(base_low) + ", " +
                     std::to_string(base_high) + ")");
  }
  NDArrayImpl* object = NDArrayImpl::Create(view);
  details::IncRef(base);
  object->owner_kind = DataOwner::kBase;
  object->owner = base;
  *out = object;
  P4J_SAFE_CALL_END();
}

int P4JNDArrayFromDLPack(DLManagedTensor* managed, P4JObjectHandle* out) {
  P4J_SAFE_CALL_BEGIN();
  *out = internal::Import(managed, DataOwner::kDLPack, "P4JNDArrayFromDLPack");
  P4J_SAFE_CALL_END();
}

int P4JNDArrayFromDLPackVersioned(DLManagedTensorVersioned* managed, P4JObjectHandle* out) {
  P4J_SAFE_CALL_BEGIN();
  if (managed != nullptr && managed->version.major != P4J_DLPACK_MAJOR_VERSION) {
    throw ValueError("P4JNDArrayFromDLPackVersioned: DLPack version " + std::to_string(managed->version.major) +
                     "." + std::to_string(managed->version.minor) + " is not supported (expected major version " +
                     std::to_string(P4J_DLPACK_MAJOR_VERSION) + ")");
  }
  *out = internal::Import(managed, DataOwner::kDLPackVersioned, "P4JNDArrayFromDLPackVersioned");
  P4J_SAFE_CALL_END();
}

int P4JNDArrayToDLPack(P4JObjectHandle array, DLManagedTensor** out) {
  P4J_SAFE_CALL_BEGIN();
  *out = internal::ExportOf<DLManagedTensor>(array, "P4JNDArrayToDLPack: array");
  P4J_SAFE_CALL_END();
}

int P4JNDArrayToDLPackVersioned(P4JObjectHandle array, DLManagedTensorVersioned** out) {
  P4J_SAFE_CALL_BEGIN();
  DLManagedTensorVersioned* managed =
      internal::ExportOf<DLManagedTensorVersioned>(array, "P4JNDArrayToDLPackVersioned: array");
  managed->version = DLPackVersion{P4J_DLPACK_MAJOR_VERSION, 0};
  managed->flags = 0;
  *out = managed;
  P4J_SAFE_CALL_END();
}
