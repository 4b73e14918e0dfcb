/*!
 * \file map.cc
 * \brief kP4JMap: insertion-ordered entries in a dense array (read in place by the Java side), plus a hash
 *  index from key to position kept beside the cell.
 */
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <new>
#include <unordered_map>

#include "internal.h"

namespace packed4j {
namespace internal {
namespace {

/*! \brief A key as the index sees it: integers and strings by value, other objects by identity. */
struct MapKey {
  enum Kind : int32_t { kInt = 0, kText = 1, kIdentity = 2 };
  Kind kind = kInt;
  int64_t number = 0;     /*!< the integer, or the object's address */
  std::string_view text;  /*!< for kText: the bytes (of the stored String object, for stored keys) */

  bool operator==(const MapKey& other) const noexcept {
    return kind == other.kind && (kind == kText ? text == other.text : number == other.number);
  }
};

struct MapKeyHash {
  size_t operator()(const MapKey& key) const noexcept {
    if (key.kind == MapKey::kText) return std::hash<std::string_view>()(key.text);
    return std::hash<int64_t>()(key.number) ^ static_cast<size_t>(key.kind);
  }
};

/*! \brief The index key of a value; TypeError for values that cannot be keys. */
MapKey KeyOf(const P4JAny& value) {
  MapKey key;
  std::string_view text;
  if (value.type_index == kP4JInt) {
    key.kind = MapKey::kInt;
    key.number = value.v_int64;
  } else if (details::StringBytesOf(value, &text)) {
    key.kind = MapKey::kText;
    key.text = text;
  } else if (details::IsObjectValue(value)) {
    key.kind = MapKey::kIdentity;
    key.number = static_cast<int64_t>(reinterpret_cast<uintptr_t>(value.v_obj));
  } else {
    throw TypeError("map keys must be strings, integers or objects, got " + details::DescribeValue(value));
  }
  return key;
}

class MapImpl : public MapObject {
 public:
  P4J_DECLARE_STATIC_OBJECT_TYPE_INFO(MapImpl, MapObject, kP4JMap);

  MapImpl() = default;
  ~MapImpl() override {
    Clear();
    std::free(cell.entries);
  }

  /*! \brief The position of key, or -1. */
  int64_t Find(const P4JAny& key) const {
    auto found = index_.find(KeyOf(key));
    return found == index_.end() ? -1 : found->second;
  }

  /*! \brief Inserts or replaces (borrowed key and value); a new key goes last. */
  void Set(const P4JAny& key, const P4JAny& value) {
    MapKey lookup = KeyOf(key);
    auto found = index_.find(lookup);
    if (found != index_.end()) {
      P4JAny owned_value = OwnValue(value);
      P4JAny& slot = cell.entries[2 * found->second + 1];
      P4JAny previous = slot;
      slot = owned_value;
      ReleaseValue(&previous);
      return;
    }
    Reserve(cell.size + 1);
    P4JAny owned_key = OwnValue(key);
    P4JAny owned_value = details::NoneValue();
    try {
      owned_value = OwnValue(value);
      // The index keeps a view of the stored key's bytes, which live as long as the entry.
      index_.emplace(KeyOf(owned_key), cell.size);
    } catch (...) {
      ReleaseValue(&owned_key);
      ReleaseValue(&owned_value);
      throw;
    }
    cell.entries[2 * cell.size] = owned_key;
    cell.entries[2 * cell.size + 1] = owned_value;
    ++cell.size;
  }

  /*! \brief Removes key; returns whether it was there, with its value moved to *removed. */
  bool Erase(const P4JAny& key, P4JAny* removed) {
    auto found = index_.find(KeyOf(key));
    if (found == index_.end()) return false;
    int64_t position = found->second;
    index_.erase(found);
    for (auto& entry : index_) {
      if (entry.second > position) --entry.second;
    }
    P4JAny stored_key = cell.entries[2 * position];
    *removed = cell.entries[2 * position + 1];
    std::memmove(cell.entries + 2 * position, cell.entries + 2 * position + 2,
                 static_cast<size_t>(cell.size - position - 1) * 2 * sizeof(P4JAny));
    --cell.size;
    ReleaseValue(&stored_key);
    return true;
  }

  void Clear() noexcept {
    index_.clear();
    int64_t size = cell.size;
    cell.size = 0;
    for (int64_t i = 0; i < 2 * size; ++i) ReleaseValue(&cell.entries[i]);
  }

 private:
  void Reserve(int64_t capacity) {
    if (capacity <= cell.capacity) return;
    // The byte size must fit in ptrdiff_t: a count from a caller (P4JListFromInt64s, a bulk path) is not trusted.
    constexpr int64_t kMaxCapacity = static_cast<int64_t>(PTRDIFF_MAX / (2 * sizeof(P4JAny)));
    if (capacity > kMaxCapacity) {
      throw ValueError("a map of " + std::to_string(capacity) + " entries is larger than memory can hold");
    }
    int64_t grown = cell.capacity < 4 ? 4 : (cell.capacity > kMaxCapacity / 2 ? kMaxCapacity : cell.capacity * 2);
    if (grown < capacity) grown = capacity;
    void* entries = std::realloc(cell.entries, static_cast<size_t>(grown) * 2 * sizeof(P4JAny));
    if (entries == nullptr) throw std::bad_alloc();
    cell.entries = static_cast<P4JAny*>(entries);
    cell.capacity = grown;
  }

  std::unordered_map<MapKey, int64_t, MapKeyHash> index_;
};

MapImpl* AsMap(P4JObject* map) {
  CheckHandleType(map, kP4JMap, "map");
  return static_cast<MapImpl*>(static_cast<Object*>(map));
}

void CheckKey(const P4JAny* key) {
  if (key == nullptr) throw ValueError("key is NULL");
}

}  // namespace
}  // namespace internal
}  // namespace packed4j

using namespace packed4j;  // NOLINT(build/namespaces): the C functions below implement packed4j

extern "C" {

int P4JMapCreate(const P4JAny* keys_and_values, int64_t num_pairs, P4JObjectHandle* out) {
  P4J_SAFE_CALL_BEGIN();
  *out = nullptr;
  if (num_pairs < 0 || (num_pairs > 0 && keys_and_values == nullptr)) {
    throw ValueError("P4JMapCreate: " + std::to_string(num_pairs) + " pairs at a NULL or invalid address");
  }
  ObjectPtr<internal::MapImpl> map = make_object<internal::MapImpl>();
  for (int64_t i = 0; i < num_pairs; ++i) map->Set(keys_and_values[2 * i], keys_and_values[2 * i + 1]);
  *out = map.release();
  P4J_SAFE_CALL_END();
}

int P4JMapGetItem(P4JObjectHandle map, const P4JAny* key, int32_t* found, P4JAny* value) {
  P4J_SAFE_CALL_BEGIN();
  *found = 0;
  *value = details::NoneValue();
  internal::CheckKey(key);
  internal::MapImpl* impl = internal::AsMap(map);
  int64_t position = impl->Find(*key);
  if (position >= 0) {
    *found = 1;
    *value = internal::OwnValue(impl->cell.entries[2 * position + 1]);
  }
  P4J_SAFE_CALL_END();
}

int P4JMapSetItem(P4JObjectHandle map, const P4JAny* key, const P4JAny* value) {
  P4J_SAFE_CALL_BEGIN();
  internal::CheckKey(key);
  if (value == nullptr) throw ValueError("value is NULL");
  internal::AsMap(map)->Set(*key, *value);
  P4J_SAFE_CALL_END();
}

int P4JMapErase(P4JObjectHandle map, const P4JAny* key, int32_t* found, P4JAny* removed) {
  P4J_SAFE_CALL_BEGIN();
  *found = 0;
  *removed = details::NoneValue();
  internal::CheckKey(key);
  *found = internal::AsMap(map)->Erase(*key, removed) ? 1 : 0;
  P4J_SAFE_CALL_END();
}

int P4JMapClear(P4JObjectHandle map) {
  P4J_SAFE_CALL_BEGIN();
  internal::AsMap(map)->Clear();
  P4J_SAFE_CALL_END();
}

}  // extern "C"
