/*!
 * \file object.cc
 * \brief Reference counting, the live object counter, the ABI version and value ownership helpers.
 */
#include "internal.h"

namespace packed4j {
namespace internal {
namespace {

/*! \brief Objects created and not yet deleted, across every library of the process. */
int64_t live_objects = 0;

}  // namespace

P4JAny OwnValue(const P4JAny& borrowed) {
  switch (borrowed.type_index) {
    case kP4JStrView:
    case kP4JBytesView: {
      P4JAny owned;
      int32_t type_index = borrowed.type_index == kP4JStrView ? kP4JString : kP4JBytes;
      details::StoreOwnedObject(
          NewByteArrayObject(type_index, static_cast<const char*>(borrowed.v_ptr), borrowed.small_len), &owned);
      return owned;
    }
    case kP4JDLTensorPtr:
      throw TypeError("a borrowed DLTensor pointer cannot be stored in a container");
    default:
      break;
  }
  if (borrowed.type_index >= kP4JStaticObjectBegin) {
    if (borrowed.v_obj == nullptr) return details::NoneValue();
    details::IncRef(borrowed.v_obj);
  }
  return borrowed;
}

bool HandleIsInstance(const P4JObject* handle, int32_t type_index) {
  return handle != nullptr && details::ObjectIsInstance(handle, type_index);
}

void CheckHandleType(const P4JObject* handle, int32_t type_index, const char* what) {
  if (handle == nullptr) {
    throw ValueError(std::string(what) + " is NULL, expected a " + details::TypeKeyOf(type_index) + " object");
  }
  if (!details::ObjectIsInstance(handle, type_index)) {
    throw TypeError(std::string(what) + " is a " + details::TypeKeyOf(handle->type_index) + " object, expected a " +
                    details::TypeKeyOf(type_index) + " object");
  }
}

}  // namespace internal
}  // namespace packed4j

using namespace packed4j;  // NOLINT(build/namespaces): the C functions below implement packed4j

extern "C" {

int32_t P4JAbiVersion(void) { return P4J_ABI_VERSION; }

int P4JObjectIncRef(P4JObjectHandle obj) {
  P4J_SAFE_CALL_BEGIN();
  if (obj == nullptr) throw ValueError("P4JObjectIncRef: obj is NULL");
  details::IncRef(obj);
  P4J_SAFE_CALL_END();
}

int64_t P4JObjectLiveCount(void) { return __atomic_load_n(&internal::live_objects, __ATOMIC_RELAXED); }

int64_t* P4JObjectLiveCounterAddress(void) { return &internal::live_objects; }

}  // extern "C"
