/*!
 * \file type_registry.cc
 * \brief The type registry: type keys and indices, ancestry, field metadata and field reads by name.
 *
 * Entries are never freed or moved, so P4JTypeGetInfo can hand out pointers valid for the life of the
 * process. The index table is read without the lock (is-instance checks are on the hot path of every
 * object argument); an entry is fully built before it is published with a release store.
 *
 * A type key is one layout for the whole process: the Java side reads every instance of a key at the offsets
 * recorded for it. So a second library registering a key again is accepted only with the same parent and the
 * same fields (name, kind, offset, size); anything else is refused, recorded for packed4j.TakeRegistrationErrors
 * with the files of both libraries, and the first layout stays.
 */
#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <unordered_set>

#include "internal.h"

namespace packed4j {
namespace internal {

std::string LibraryOf(const void* address) {
  Dl_info info{};
  if (address != nullptr && dladdr(address, &info) != 0 && info.dli_fname != nullptr && info.dli_fname[0] != 0) {
    return info.dli_fname;
  }
  return "an unknown library";
}

namespace {

/*! \brief The most type indices a process can allocate (static and dynamic). */
constexpr int32_t kMaxTypes = 8192;

struct TypeEntry {
  P4JTypeInfo info{};
  /*! \brief The fields the type declared itself (names interned). */
  std::vector<P4JFieldInfo> own_fields;
  /*! \brief Whether P4JTypeRegisterFields recorded own_fields, and from which library file. */
  bool fields_registered = false;
  std::string fields_library;
  /*! \brief The library whose code allocated the index (empty for the built-in types). */
  std::string allocated_by;
};


const char* FieldKindName(int32_t kind) {
  switch (kind) {
    case kP4JFieldInt32: return "int32";
    case kP4JFieldInt64: return "int64";
    case kP4JFieldUInt64: return "uint64";
    case kP4JFieldFloat64: return "float64";
    case kP4JFieldBool: return "bool";
    case kP4JFieldString: return "string";
    case kP4JFieldObject: return "object";
    default: return "unknown";
  }
}

/*! \brief "{price: int64 at 24 (8 bytes), brand: string at 32 (32 bytes)}". */
std::string DescribeFields(const std::vector<P4JFieldInfo>& fields) {
  if (fields.empty()) return "{no fields}";
  std::string text = "{";
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i != 0) text += ", ";
    text += std::string(details::ViewOf(fields[i].name)) + ": " + FieldKindName(fields[i].kind) + " at " +
            std::to_string(fields[i].offset) + " (" + std::to_string(fields[i].size) + " bytes)";
  }
  return text + "}";
}

/*! \brief The layout every instance of a key must share: the same fields in the same order. */
bool SameLayout(const std::vector<P4JFieldInfo>& a, const std::vector<P4JFieldInfo>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (details::ViewOf(a[i].name) != details::ViewOf(b[i].name) || a[i].kind != b[i].kind ||
        a[i].offset != b[i].offset || a[i].size != b[i].size) {
      return false;
    }
  }
  return true;
}

class TypeRegistry {
 public:
  /*! \brief The registry; deliberately never destroyed, since plugins may still use types during exit. */
  static TypeRegistry* Global() {
    static TypeRegistry* registry = [] {
      auto* created = new TypeRegistry();
      // The built-in NDArray's reflection (its fields live in ndarray.cc's object).
      std::vector<P4JFieldInfo> fields = NDArrayFields();
      // Registered by the core itself: any address inside libpacked4j.so names it.
      created->RegisterFields(kP4JNDArray, fields.data(), static_cast<int32_t>(fields.size()),
                              reinterpret_cast<const void*>(&P4JTypeRegisterFields));
      return created;
    }();
    return registry;
  }

  int32_t GetOrAllocIndex(std::string_view key, int32_t parent, int64_t instance_size, const void* caller) {
    if (key.empty()) throw ValueError("a type key must not be empty");
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = key_to_index_.find(std::string(key));
    if (found != key_to_index_.end()) {
      TypeEntry* entry = Entry(found->second);
      if (entry->info.parent_type_index != parent) {
        std::string first = entry->allocated_by.empty() ? "libpacked4j.so (a built-in type)" : entry->allocated_by;
        std::string message = "type key \"" + std::string(key) + "\" is registered by " + first + " with parent " +
                              KeyOfLocked(entry->info.parent_type_index) + ", and " + LibraryOf(caller) +
                              " registers it again with parent " + KeyOfLocked(parent) +
                              ": one key is one type in the process; give one of them another type key";
        RecordRegistrationError("LoadError: " + message);
        throw ValueError(message);
      }
      if (entry->info.instance_size == 0) entry->info.instance_size = instance_size;
      return found->second;
    }
    if (parent < 0 || parent >= kMaxTypes || Entry(parent) == nullptr) {
      throw ValueError("the parent type index " + std::to_string(parent) + " of type key \"" + std::string(key) +
                       "\" is not registered");
    }
    if (next_dynamic_index_ >= kMaxTypes) {
      throw RuntimeError("too many object types (the limit is " + std::to_string(kMaxTypes) + ")");
    }
    int32_t index = next_dynamic_index_++;
    AddLocked(index, key, parent, instance_size);
    Entry(index)->allocated_by = LibraryOf(caller);
    return index;
  }

  void RegisterFields(int32_t type_index, const P4JFieldInfo* fields, int32_t num_fields, const void* caller) {
    std::lock_guard<std::mutex> lock(mutex_);
    TypeEntry* entry = EntryOrThrow(type_index);
    std::string key(details::ViewOf(entry->info.type_key));
    if (num_fields < 0) throw ValueError("num_fields of type \"" + key + "\" is negative");
    if (num_fields > 0 && fields == nullptr) throw ValueError("fields of type \"" + key + "\" is NULL");
    std::vector<P4JFieldInfo> own;
    for (int32_t i = 0; i < num_fields; ++i) {
      P4JFieldInfo field = fields[i];
      std::string name(details::ViewOf(field.name));
      std::string where = "field \"" + name + "\" of type \"" + key + "\"";
      if (name.empty()) throw ValueError("field " + std::to_string(i) + " of type \"" + key + "\" has no name");
      if (field.kind < kP4JFieldInt32 || field.kind > kP4JFieldObject) {
        throw ValueError(where + " has an unknown kind " + std::to_string(field.kind));
      }
      // The instance size is the first registrant's: a second one is compared field by field below instead,
      // so a conflicting layout is reported as the conflict it is, not as a field outside the object.
      bool size_known = entry->info.instance_size > 0 && !entry->fields_registered;
      if (field.offset < static_cast<int64_t>(sizeof(P4JObject)) || field.size <= 0 ||
          (size_known && field.offset + field.size > entry->info.instance_size)) {
        throw ValueError(where + " at offset " + std::to_string(field.offset) + " with size " +
                         std::to_string(field.size) + " is not inside the object (instance size " +
                         std::to_string(entry->info.instance_size) + ")");
      }
      for (const P4JFieldInfo& earlier : own) {
        if (details::ViewOf(earlier.name) == name) throw ValueError(where + " is declared twice");
      }
      field.name = details::ByteArrayOf(Intern(name));
      if (field.kind != kP4JFieldObject) field.object_type_index = 0;
      own.push_back(field);
    }
    std::string library = LibraryOf(caller);
    if (entry->fields_registered) {
      // Each library that uses the type registers it at load; the same definition is the common case.
      if (SameLayout(entry->own_fields, own)) return;
      std::string message = "type key \"" + key + "\" is registered by " + entry->fields_library +
                            " with the fields " + DescribeFields(entry->own_fields) + ", and " + library +
                            " registers it again with other fields " + DescribeFields(own) +
                            ": the Java side would read one library's objects at the other's offsets. The first "
                            "layout stays; give one of the types another type key, or build both libraries from "
                            "the same definition";
      RecordRegistrationError("LoadError: " + message);
      throw ValueError(message);
    }
    entry->fields_registered = true;
    entry->fields_library = std::move(library);
    entry->own_fields = std::move(own);
    // Descendants inherit these fields: rebuild the merged lists of the type and of every subtype, ancestors
    // before descendants (a parent may register its fields after a child when they live in different files).
    std::vector<TypeEntry*> affected;
    for (int32_t index = 0; index < next_dynamic_index_; ++index) {
      TypeEntry* candidate = Entry(index);
      if (candidate != nullptr && IsInstanceOf(index, type_index)) affected.push_back(candidate);
    }
    std::sort(affected.begin(), affected.end(),
              [](const TypeEntry* a, const TypeEntry* b) { return a->info.depth < b->info.depth; });
    for (TypeEntry* affected_entry : affected) MergeFieldsLocked(affected_entry);
  }

  int32_t KeyToIndex(std::string_view key) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = key_to_index_.find(std::string(key));
    if (found == key_to_index_.end()) {
      throw KeyError("type key \"" + std::string(key) + "\" is not registered");
    }
    return found->second;
  }

  const P4JTypeInfo* Info(int32_t type_index) const { return &EntryOrThrow(type_index)->info; }

  /*! \brief Lock-free: entries are immutable in their ancestry once published. */
  bool IsInstanceOf(int32_t type_index, int32_t ancestor) const {
    if (type_index == ancestor) return true;
    const TypeEntry* entry = Entry(type_index);
    const TypeEntry* target = Entry(ancestor);
    if (entry == nullptr || target == nullptr) return false;
    while (entry != nullptr && entry->info.depth > target->info.depth) {
      if (entry->info.parent_type_index == ancestor) return true;
      entry = Entry(entry->info.parent_type_index);
    }
    return false;
  }

 private:
  TypeRegistry() {
    for (auto& slot : table_) slot.store(nullptr, std::memory_order_relaxed);
    AddLocked(kP4JObject, "Object", -1, details::InstanceSizeFromHandle<Object>());
    AddLocked(kP4JFunction, "Function", kP4JObject, details::InstanceSizeFromHandle<FunctionObject>());
    AddLocked(kP4JString, "String", kP4JObject, details::InstanceSizeFromHandle<StringObject>());
    AddLocked(kP4JBytes, "Bytes", kP4JObject, details::InstanceSizeFromHandle<BytesObject>());
    AddLocked(kP4JList, "List", kP4JObject, details::InstanceSizeFromHandle<ListObject>());
    AddLocked(kP4JMap, "Map", kP4JObject, details::InstanceSizeFromHandle<MapObject>());
    AddLocked(kP4JError, "Error", kP4JObject,
              static_cast<int64_t>(sizeof(P4JObject) + sizeof(P4JErrorCell)));
    AddLocked(kP4JNDArray, "NDArray", kP4JObject, NDArrayInstanceSize());
  }

  TypeEntry* Entry(int32_t index) const {
    if (index < 0 || index >= kMaxTypes) return nullptr;
    return table_[index].load(std::memory_order_acquire);
  }

  TypeEntry* EntryOrThrow(int32_t index) const {
    TypeEntry* entry = Entry(index);
    if (entry == nullptr) throw ValueError("no type is registered with index " + std::to_string(index));
    return entry;
  }

  std::string KeyOfLocked(int32_t index) const {
    const TypeEntry* entry = Entry(index);
    if (entry == nullptr) return "<none>";
    return "\"" + std::string(details::ViewOf(entry->info.type_key)) + "\"";
  }

  const std::string& Intern(std::string_view text) { return *interned_.emplace(text).first; }

  void AddLocked(int32_t index, std::string_view key, int32_t parent, int64_t instance_size) {
    auto entry = std::make_unique<TypeEntry>();
    entry->info.type_index = index;
    entry->info.parent_type_index = parent;
    entry->info.depth = parent < 0 ? 0 : Entry(parent)->info.depth + 1;
    entry->info.type_key = details::ByteArrayOf(Intern(key));
    entry->info.instance_size = instance_size;
    entry->info.num_fields = 0;
    entry->info.fields = nullptr;
    key_to_index_.emplace(std::string(key), index);
    MergeFieldsLocked(entry.get());
    table_[index].store(entry.get(), std::memory_order_release);
    entries_.push_back(std::move(entry));
  }

  /*!
   * \brief Inherited fields first, then the type's own; a name the type declares again (as when its
   *  VisitAttrs calls the parent's) keeps the inherited position and takes the type's own record.
   *  Arrays handed out earlier stay allocated, so a reader holding an old pointer never sees freed memory.
   */
  void MergeFieldsLocked(TypeEntry* entry) {
    auto merged = std::make_unique<std::vector<P4JFieldInfo>>();
    const TypeEntry* parent = Entry(entry->info.parent_type_index);
    if (parent != nullptr && parent->info.num_fields > 0) {
      merged->assign(parent->info.fields, parent->info.fields + parent->info.num_fields);
    }
    for (const P4JFieldInfo& field : entry->own_fields) {
      auto same_name = std::find_if(merged->begin(), merged->end(), [&](const P4JFieldInfo& inherited) {
        return details::ViewOf(inherited.name) == details::ViewOf(field.name);
      });
      if (same_name != merged->end()) {
        *same_name = field;
      } else {
        merged->push_back(field);
      }
    }
    // Readers take P4JTypeInfo without the lock (P4JTypeGetInfo hands out a stable pointer): publish the array
    // before its count, so a reader that loads num_fields first never indexes past the array it then loads.
    // A new array only grows on its parent's (inherited fields come first and are never dropped).
    __atomic_store_n(&entry->info.fields, merged->empty() ? nullptr : merged->data(), __ATOMIC_RELEASE);
    __atomic_store_n(&entry->info.num_fields, static_cast<int32_t>(merged->size()), __ATOMIC_RELEASE);
    field_arrays_.push_back(std::move(merged));
  }

  mutable std::mutex mutex_;
  std::atomic<TypeEntry*> table_[kMaxTypes];
  std::vector<std::unique_ptr<TypeEntry>> entries_;
  std::unordered_map<std::string, int32_t> key_to_index_;
  std::unordered_set<std::string> interned_;
  std::vector<std::unique_ptr<std::vector<P4JFieldInfo>>> field_arrays_;
  int32_t next_dynamic_index_ = kP4JDynamicObjectBegin;
};

/*! \brief "brand, price", or a hint when no field is recorded. */
std::string ListFieldNames(const P4JTypeInfo* info) {
  if (info->num_fields == 0) {
    return "it has no recorded fields (P4J_REGISTER_OBJECT_TYPE records them)";
  }
  std::string names = "its fields are: ";
  for (int32_t i = 0; i < info->num_fields; ++i) {
    if (i != 0) names += ", ";
    names += details::ViewOf(info->fields[i].name);
  }
  return names;
}

/*! \brief Reads a field of obj at its recorded offset, into an owned value. */
void ReadField(P4JObject* obj, const P4JTypeInfo* info, const P4JFieldInfo& field, P4JAny* result) {
  const char* address = reinterpret_cast<const char*>(obj) + field.offset;
  switch (field.kind) {
    case kP4JFieldInt32:
      details::StoreInt(*reinterpret_cast<const int32_t*>(address), result);
      return;
    case kP4JFieldInt64:
      details::StoreInt(*reinterpret_cast<const int64_t*>(address), result);
      return;
    case kP4JFieldUInt64: {
      uint64_t value = *reinterpret_cast<const uint64_t*>(address);
      if (value > static_cast<uint64_t>(INT64_MAX)) {
        throw ValueError("field \"" + std::string(details::ViewOf(field.name)) + "\" of " +
                         std::string(details::ViewOf(info->type_key)) + " holds " + std::to_string(value) +
                         ", which is out of range for int64");
      }
      details::StoreInt(static_cast<int64_t>(value), result);
      return;
    }
    case kP4JFieldFloat64:
      details::TypeTraits<double>::Store(*reinterpret_cast<const double*>(address), result);
      return;
    case kP4JFieldBool:
      details::TypeTraits<bool>::Store(*reinterpret_cast<const bool*>(address), result);
      return;
    case kP4JFieldString: {
      // The core's NDArray computes its dtype and device names when read (see kP4JFieldObject below).
      if (ReadNDArrayField(obj, field, result)) return;
      const std::string& text = *reinterpret_cast<const std::string*>(address);
      details::StoreOwnedObject(NewByteArrayObject(kP4JString, text.data(), text.size()), result);
      return;
    }
    case kP4JFieldObject:
      // The core's NDArray computes its two object fields (shape, strides; inherited by any subtype) from the
      // DLTensor when read: at their offsets are the DLTensor's int64_t pointers, not ObjectRefs.
      if (ReadNDArrayField(obj, field, result)) return;
      // An ObjectRef field is exactly one handle (static_assert in object.h).
      details::StoreObject(*reinterpret_cast<P4JObject* const*>(address), result);
      return;
    default:
      throw ValueError("field \"" + std::string(details::ViewOf(field.name)) + "\" has an unknown kind");
  }
}

}  // namespace
}  // namespace internal
}  // namespace packed4j

using namespace packed4j;  // NOLINT(build/namespaces): the C functions below implement packed4j

extern "C" {

int P4JTypeGetOrAllocIndex(const P4JByteArray* type_key, int32_t parent_type_index, int64_t instance_size,
                           int32_t* out_type_index) {
  P4J_SAFE_CALL_BEGIN();
  if (type_key == nullptr) throw ValueError("type_key is NULL");
  // The caller's return address names its library in a conflict: the C++ API calls this from inline code
  // compiled into the library that declares the type.
  *out_type_index = internal::TypeRegistry::Global()->GetOrAllocIndex(
      details::ViewOf(*type_key), parent_type_index, instance_size, __builtin_return_address(0));
  P4J_SAFE_CALL_END();
}

int P4JTypeRegisterFields(int32_t type_index, const P4JFieldInfo* fields, int32_t num_fields) {
  P4J_SAFE_CALL_BEGIN();
  internal::TypeRegistry::Global()->RegisterFields(type_index, fields, num_fields, __builtin_return_address(0));
  P4J_SAFE_CALL_END();
}

int P4JTypeKeyToIndex(const P4JByteArray* type_key, int32_t* out_type_index) {
  P4J_SAFE_CALL_BEGIN();
  if (type_key == nullptr) throw ValueError("type_key is NULL");
  *out_type_index = internal::TypeRegistry::Global()->KeyToIndex(details::ViewOf(*type_key));
  P4J_SAFE_CALL_END();
}

int P4JTypeGetInfo(int32_t type_index, const P4JTypeInfo** out) {
  P4J_SAFE_CALL_BEGIN();
  *out = internal::TypeRegistry::Global()->Info(type_index);
  P4J_SAFE_CALL_END();
}

int32_t P4JTypeIsInstanceOf(int32_t type_index, int32_t ancestor_type_index) {
  return internal::TypeRegistry::Global()->IsInstanceOf(type_index, ancestor_type_index) ? 1 : 0;
}

int P4JObjectGetAttr(P4JObjectHandle obj, const P4JByteArray* name, P4JAny* result) {
  P4J_SAFE_CALL_BEGIN();
  *result = details::NoneValue();
  if (obj == nullptr) throw ValueError("P4JObjectGetAttr: obj is NULL");
  if (name == nullptr) throw ValueError("P4JObjectGetAttr: name is NULL");
  const P4JTypeInfo* info = internal::TypeRegistry::Global()->Info(obj->type_index);
  std::string_view wanted = details::ViewOf(*name);
  for (int32_t i = 0; i < info->num_fields; ++i) {
    if (details::ViewOf(info->fields[i].name) == wanted) {
      internal::ReadField(obj, info, info->fields[i], result);
      return 0;
    }
  }
  throw AttributeError(std::string(details::ViewOf(info->type_key)) + " object has no field \"" +
                       std::string(wanted) + "\"; " + internal::ListFieldNames(info));
  P4J_SAFE_CALL_END();
}

int P4JObjectGetField(P4JObjectHandle obj, int32_t field_index, P4JAny* result) {
  P4J_SAFE_CALL_BEGIN();
  *result = details::NoneValue();
  if (obj == nullptr) throw ValueError("P4JObjectGetField: obj is NULL");
  const P4JTypeInfo* info = internal::TypeRegistry::Global()->Info(obj->type_index);
  if (field_index < 0 || field_index >= info->num_fields) {
    throw IndexError("field index " + std::to_string(field_index) + " is out of range: " +
                     std::string(details::ViewOf(info->type_key)) + " has " + std::to_string(info->num_fields) +
                     " fields");
  }
  internal::ReadField(obj, info, info->fields[field_index], result);
  P4J_SAFE_CALL_END();
}

}  // extern "C"
