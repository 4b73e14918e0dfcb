/*!
 * \file builtin_functions.cc
 * \brief The globals libpacked4j.so registers itself ("packed4j.*"): container access and bulk building for
 *  callers that prefer one packed call to the C functions, and diagnostics.
 *
 * They are written with the public C++ API, exactly like a plugin's functions.
 */
#include <cstring>
#include <vector>

#include "internal.h"

namespace packed4j {
namespace internal {
namespace {

P4J_REGISTER_GLOBAL("packed4j.ListSize").set_body_typed([](List<Any> list) { return list.size(); });

P4J_REGISTER_GLOBAL("packed4j.ListGetItem").set_body_typed([](List<Any> list, int64_t index) {
  return list[index];
});

P4J_REGISTER_GLOBAL("packed4j.ListSetItem").set_body_typed([](List<Any> list, int64_t index, Any item) {
  list.Set(index, item);
});

P4J_REGISTER_GLOBAL("packed4j.ListAppend").set_body_typed([](List<Any> list, Any item) { list.push_back(item); });

P4J_REGISTER_GLOBAL("packed4j.MapSize").set_body_typed([](Map<Any, Any> map) { return map.size(); });

P4J_REGISTER_GLOBAL("packed4j.MapGetItem").set_body_typed([](Map<Any, Any> map, Any key) { return map.at(key); });

P4J_REGISTER_GLOBAL("packed4j.MapSetItem").set_body_typed([](Map<Any, Any> map, Any key, Any value) {
  map.Set(key, value);
});

P4J_REGISTER_GLOBAL("packed4j.MapKeys").set_body_typed([](Map<Any, Any> map) {
  List<Any> keys;
  for (const auto& entry : map) keys.push_back(entry.first);
  return keys;
});

/*! \brief Each entry as a two-element list [key, value], in insertion order. */
P4J_REGISTER_GLOBAL("packed4j.MapItems").set_body_typed([](Map<Any, Any> map) {
  List<List<Any>> items;
  for (const auto& entry : map) items.push_back(List<Any>{entry.first, entry.second});
  return items;
});

/*!
 * \brief (bytes holding int64 values in native byte order) -> list<int64>: the bulk path for callers without
 *  the C ABI. It takes bytes, not a raw pointer, so a caller cannot make it read memory it does not own.
 */
P4J_REGISTER_GLOBAL("packed4j.ListFromInt64Bytes").set_body_typed([](Bytes values) {
  if (values.size() % sizeof(int64_t) != 0) {
    throw ValueError("packed4j.ListFromInt64Bytes: argument 0 has " + std::to_string(values.size()) +
                     " bytes, which is not a whole number of int64 values (8 bytes each)");
  }
  // Bytes data is only 1-byte aligned in principle: copy rather than reinterpret.
  std::vector<int64_t> aligned(values.size() / sizeof(int64_t));
  if (!aligned.empty()) std::memcpy(aligned.data(), values.data(), values.size());
  P4JObject* list = nullptr;
  details::CheckCall(P4JListFromInt64s(aligned.data(), static_cast<int64_t>(aligned.size()), &list));
  return details::ObjectRefAccess::FromOwnedHandle<List<int64_t>>(list);
});

P4J_REGISTER_GLOBAL("packed4j.ObjectLiveCount").set_body_typed([]() { return P4JObjectLiveCount(); });

P4J_REGISTER_GLOBAL("packed4j.GetTypeKey").set_body_typed([](ObjectRef object) {
  if (!object.defined()) throw TypeError("packed4j.GetTypeKey: argument 0 expected Object, got None");
  return object->GetTypeKey();
});

/*!
 * \brief The global registrations refused since the last call (e.g. a name registered twice by a plugin),
 *  so a loader can report them; each is "Kind: message".
 */
P4J_REGISTER_GLOBAL("packed4j.TakeRegistrationErrors").set_body_typed([]() {
  return List<std::string>(TakeRegistrationErrors());
});

}  // namespace
}  // namespace internal
}  // namespace packed4j
