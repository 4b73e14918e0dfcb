/*!
 * \file builtin_functions.cc
 * \brief The globals libpacked4j.so registers itself ("packed4j.*"): container access and bulk building for
 *  callers that prefer one packed call to the C functions, and diagnostics.
 *
 * They are written with the public C++ API, exactly like a plugin's functions.
 */
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

/*! \brief (opaque pointer to count int64 values, count) -> list<int64>: the bulk path without the C ABI. */
P4J_REGISTER_GLOBAL("packed4j.ListFromInt64Buffer").set_body([](Args args, RetValue* rv) {
  void* data = args[0];
  int64_t count = args[1];
  if (count < 0) throw ValueError("packed4j.ListFromInt64Buffer: count " + std::to_string(count) + " is negative");
  if (data == nullptr && count > 0) throw ValueError("packed4j.ListFromInt64Buffer: the buffer is NULL");
  P4JObject* list = nullptr;
  details::CheckCall(P4JListFromInt64s(static_cast<const int64_t*>(data), count, &list));
  *rv = details::ObjectRefAccess::FromOwnedHandle<List<int64_t>>(list);
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
