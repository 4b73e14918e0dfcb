/*!
 * \file string.cc
 * \brief String and Bytes objects: header, cell and bytes in one allocation.
 */
#include <cstring>
#include <new>

#include "internal.h"

namespace packed4j {
namespace internal {
namespace {

/*!
 * \brief A String or Bytes object whose bytes follow the object in the same allocation, NUL-terminated.
 *  One allocation per string matters: every string result and every string stored in a container is one.
 */
template <typename Base, int32_t kTypeIndex>
class ByteArrayImpl : public Base {
 public:
  static P4JObject* Create(const char* data, size_t size) {
    void* memory = ::operator new(sizeof(ByteArrayImpl) + size + 1);
    auto* object = new (memory) ByteArrayImpl();
    char* bytes = static_cast<char*>(memory) + sizeof(ByteArrayImpl);
    if (size != 0) std::memcpy(bytes, data, size);
    bytes[size] = '\0';
    object->cell = P4JByteArray{bytes, static_cast<int64_t>(size)};
    P4JObject* handle = object;
    handle->type_index = kTypeIndex;
    handle->ref_counter = 1;
    handle->deleter = &Delete;
    CountObjectCreated();
    return handle;
  }

 private:
  ByteArrayImpl() = default;

  static void Delete(P4JObject* handle) {
    auto* object = static_cast<ByteArrayImpl*>(static_cast<Object*>(handle));
    object->~ByteArrayImpl();
    ::operator delete(object);
    CountObjectDeleted();
  }
};

using StringImpl = ByteArrayImpl<StringObject, kP4JString>;
using BytesImpl = ByteArrayImpl<BytesObject, kP4JBytes>;

}  // namespace

P4JObject* NewByteArrayObject(int32_t type_index, const char* data, size_t size) {
  return type_index == kP4JBytes ? BytesImpl::Create(data, size) : StringImpl::Create(data, size);
}

}  // namespace internal
}  // namespace packed4j

using namespace packed4j;  // NOLINT(build/namespaces): the C functions below implement packed4j

namespace {

int ByteArrayFromSpan(int32_t type_index, const P4JByteArray* input, P4JAny* out) {
  P4J_SAFE_CALL_BEGIN();
  *out = details::NoneValue();
  if (input == nullptr) throw ValueError("input is NULL");
  if (input->size < 0) throw ValueError("input size " + std::to_string(input->size) + " is negative");
  if (input->data == nullptr && input->size != 0) throw ValueError("input data is NULL but size is not 0");
  details::StoreOwnedObject(
      internal::NewByteArrayObject(type_index, input->data, static_cast<size_t>(input->size)), out);
  P4J_SAFE_CALL_END();
}

}  // namespace

extern "C" {

int P4JStringFromByteArray(const P4JByteArray* input, P4JAny* out) {
  return ByteArrayFromSpan(kP4JString, input, out);
}

int P4JBytesFromByteArray(const P4JByteArray* input, P4JAny* out) { return ByteArrayFromSpan(kP4JBytes, input, out); }

}  // extern "C"
