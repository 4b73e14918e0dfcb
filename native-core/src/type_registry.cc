/*!
 * \file type_registry.cc
 * \brief The type registry: type keys and indices, ancestry, field metadata and field reads by name, and what object
 *  definitions add (ABI 2.5): doc strings, field flags, method tables and checked field writes.
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
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "internal.h"

namespace packed4j {
namespace internal {

std::vector<std::string> SignatureParams(std::string_view signature) {
  std::vector<std::string> params;
  if (signature.empty() || signature[0] != '(') return params;
  int depth = 0;
  std::string current;
  for (size_t i = 1; i < signature.size(); ++i) {
    char c = signature[i];
    if (depth == 0 && (c == ',' || c == ')')) {
      size_t first = current.find_first_not_of(' ');
      if (first != std::string::npos) {
        params.push_back(current.substr(first, current.find_last_not_of(' ') - first + 1));
      }
      current.clear();
      if (c == ')') break;
      continue;
    }
    if (c == '<') ++depth;
    if (c == '>') --depth;
    current += c;
  }
  return params;
}

std::string LibraryOf(const void* address) {
  Dl_info info{};
  if (address != nullptr && dladdr(address, &info) != 0 && info.dli_fname != nullptr && info.dli_fname[0] != 0) {
    return info.dli_fname;
  }
  return "an unknown library";
}

namespace {

/*! \brief A field's flags (P4J_FIELD_MUTABLE) and doc string (interned). */
struct FieldMeta {
  int32_t flags = 0;
  P4JByteArray doc{"", 0};
};

/*! \brief One member of a method table: what P4JTypeGetMethod hands out, and the names it points at. */
struct MethodEntry {
  P4JMethodInfo info{};
  std::vector<P4JByteArray> param_names;
  /*! \brief The library file that registered it, for a second registration's message. */
  std::string library;
};

/*!
 * \brief A field's declared type read from its name, in the grammar TypeTraits<T>::TypeName() writes (list<T>,
 *  map<K, V>, optional<T>, a number type, bool, string, bytes, function, any, Object, an object type key), so that a
 *  write can check a container's elements as a typed function's argument of that type is checked. Made once per
 *  name, when a field's type is recorded, and never freed.
 */
struct DeclaredType {
  enum Kind { kAny, kConverted, kObjectKey, kList, kMap, kOptional };
  Kind kind = kAny;
  /*! \brief The name as declared ("list<int64>", "test.Account"): what an error says was expected. */
  std::string name;
  /*!
   * \brief For kConverted: TypeTraits<T>::Convert of the C++ type the name stands for (int32_t for "int32",
   *  ObjectRef for "Object", ...), so the element rule is the argument rule, message included.
   */
  void (*convert)(const P4JAny& value, const details::ConvertContext& context) = nullptr;
  /*! \brief The element types: one for list and optional, key and value for map. */
  std::vector<const DeclaredType*> arguments;
  /*! \brief For kObjectKey: the key's type index once it is registered (a field may name a type registered later). */
  mutable std::atomic<int32_t> type_index{-1};
};

/*! \brief A DeclaredType's rule for the C++ type T: its argument conversion, the value dropped. */
template <typename T>
void ConvertAs(const P4JAny& value, const details::ConvertContext& context) {
  (void)details::TypeTraits<T>::Convert(value, context);
}

/*!
 * \brief Reads a declared type name into DeclaredType nodes (kept in nodes); Parse gives nullptr for text that is not
 *  a type name, which then has no elements to check.
 */
class DeclaredTypeParser {
 public:
  DeclaredTypeParser(std::string_view text, std::vector<std::unique_ptr<DeclaredType>>* nodes)
      : text_(text), nodes_(nodes) {}

  const DeclaredType* Parse() {
    const DeclaredType* type = Type();
    SkipSpaces();
    return type != nullptr && position_ == text_.size() ? type : nullptr;
  }

 private:
  /*! \brief Nesting past this is no type a C++ signature names; refused, so a hostile name cannot exhaust the stack. */
  static constexpr int kMaxDepth = 64;

  const DeclaredType* Type() {
    if (++depth_ > kMaxDepth) return nullptr;  // the whole name is then no type name: Parse gives nullptr
    const DeclaredType* type = TypeAtDepth();
    --depth_;
    return type;
  }

  const DeclaredType* TypeAtDepth() {
    SkipSpaces();
    size_t start = position_;
    while (position_ < text_.size() && std::string_view("<>,").find(text_[position_]) == std::string_view::npos) {
      ++position_;
    }
    std::string_view word = Trimmed(text_.substr(start, position_ - start));
    if (word.empty()) return nullptr;
    auto type = std::make_unique<DeclaredType>();
    if (position_ < text_.size() && text_[position_] == '<') {
      size_t count = word == "map" ? 2 : (word == "list" || word == "optional") ? 1 : 0;
      if (count == 0) return nullptr;
      type->kind = word == "map" ? DeclaredType::kMap : word == "list" ? DeclaredType::kList : DeclaredType::kOptional;
      ++position_;
      for (size_t i = 0; i < count; ++i) {
        if (i > 0 && !Take(',')) return nullptr;
        const DeclaredType* argument = Type();
        if (argument == nullptr) return nullptr;
        type->arguments.push_back(argument);
      }
      if (!Take('>')) return nullptr;
    } else {
      Leaf(word, type.get());
    }
    type->name = std::string(Trimmed(text_.substr(start, position_ - start)));
    nodes_->push_back(std::move(type));
    return nodes_->back().get();
  }

  /*! \brief A name without type arguments: a C++ type with a conversion, any, or an object type key. */
  static void Leaf(std::string_view word, DeclaredType* type) {
    using Convert = void (*)(const P4JAny&, const details::ConvertContext&);
    static const std::map<std::string_view, Convert> kConverted = {
        {"bool", &ConvertAs<bool>},         {"int8", &ConvertAs<int8_t>},
        {"int16", &ConvertAs<int16_t>},     {"int32", &ConvertAs<int32_t>},
        {"int64", &ConvertAs<int64_t>},     {"uint8", &ConvertAs<uint8_t>},
        {"uint16", &ConvertAs<uint16_t>},   {"uint32", &ConvertAs<uint32_t>},
        {"uint64", &ConvertAs<uint64_t>},   {"float32", &ConvertAs<float>},
        {"float64", &ConvertAs<double>},    {"string", &ConvertAs<std::string_view>},
        {"bytes", &ConvertAs<BytesView>},   {"function", &ConvertAs<PackedFunc>},
        {"Object", &ConvertAs<ObjectRef>},  {"opaque pointer", &ConvertAs<void*>}};
    if (word == "any") {
      type->kind = DeclaredType::kAny;
      return;
    }
    auto found = kConverted.find(word);
    if (found != kConverted.end()) {
      type->kind = DeclaredType::kConverted;
      type->convert = found->second;
    } else {
      type->kind = DeclaredType::kObjectKey;
    }
  }

  void SkipSpaces() {
    while (position_ < text_.size() && text_[position_] == ' ') ++position_;
  }

  bool Take(char expected) {
    SkipSpaces();
    if (position_ >= text_.size() || text_[position_] != expected) return false;
    ++position_;
    return true;
  }

  static std::string_view Trimmed(std::string_view text) {
    size_t first = text.find_first_not_of(' ');
    if (first == std::string_view::npos) return std::string_view();
    return text.substr(first, text.find_last_not_of(' ') - first + 1);
  }

  std::string_view text_;
  std::vector<std::unique_ptr<DeclaredType>>* nodes_;
  size_t position_ = 0;
  int depth_ = 0;
};

/*! \brief Whether every value is an element of type (any, or an optional of any). */
bool AcceptsEverything(const DeclaredType& type) {
  return type.kind == DeclaredType::kAny ||
         (type.kind == DeclaredType::kOptional && AcceptsEverything(*type.arguments[0]));
}

/*!
 * \brief A type's fields with their flags and declared element types, as one snapshot: what a field write reads
 *  without the registry's lock (P4JObjectSetField). Rebuilt with the merged fields and never freed, so a writer
 *  holding an old one reads memory that stays valid.
 */
struct FieldTable {
  std::vector<P4JFieldInfo> fields;
  std::vector<int32_t> flags;
  /*! \brief Per field, the declared container type whose elements a write checks, or nullptr (nothing to check). */
  std::vector<const DeclaredType*> elements;
};

/*! \brief What a write of one field reads of it: its record, its flags and the element types it checks. */
struct FieldWrite {
  P4JFieldInfo field;
  int32_t flags = 0;
  /*! \brief The field's declared list or map type when it has elements to check (FieldTable::elements), else null. */
  const DeclaredType* elements = nullptr;
};

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
  /*! \brief The type's doc string (interned), empty when none. */
  P4JByteArray doc{"", 0};
  /*! \brief Fields an object definition declared (def_ro, def_rw) that VisitAttrs did not, in declaration order. */
  std::vector<P4JFieldInfo> def_fields;
  /*! \brief Flags and doc of the type's own fields, by name (object definitions set them). */
  std::map<std::string, FieldMeta, std::less<>> field_meta;
  /*! \brief Flags and doc of info.fields, index for index (rebuilt with them, read under the registry's lock). */
  std::vector<FieldMeta> merged_meta;
  /*! \brief Declared types of the type's own fields, by name (P4JTypeSetFieldType; names interned). */
  std::map<std::string, P4JByteArray, std::less<>> field_types;
  /*! \brief The library file that recorded each of field_types, for a conflict's message. */
  std::map<std::string, std::string, std::less<>> field_type_libraries;
  /*! \brief Declared types of info.fields, index for index (size 0 when none), rebuilt with them. */
  std::vector<P4JByteArray> merged_types;
  /*! \brief info.fields and their flags, published together for lock-free writes (see FieldTable). */
  std::atomic<const FieldTable*> field_table{nullptr};
  /*! \brief The type's own method table, in registration order; entries are never freed. */
  std::vector<std::unique_ptr<MethodEntry>> methods;
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

/*! \brief The key of a type index for a message, read without the registry's lock (defined below). */
std::string KeyForMessage(int32_t type_index);

/*! \brief "{price: int64 at 24 (8 bytes), owner: object test.Person at 32 (8 bytes)}". */
std::string DescribeFields(const std::vector<P4JFieldInfo>& fields) {
  if (fields.empty()) return "{no fields}";
  std::string text = "{";
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i != 0) text += ", ";
    std::string kind = FieldKindName(fields[i].kind);
    if (fields[i].kind == kP4JFieldObject) kind += " " + KeyForMessage(fields[i].object_type_index);
    text += std::string(details::ViewOf(fields[i].name)) + ": " + kind + " at " + std::to_string(fields[i].offset) +
            " (" + std::to_string(fields[i].size) + " bytes)";
  }
  return text + "}";
}

/*! \brief The layout every instance of a key must share: the same fields in the same order. */
bool SameLayout(const std::vector<P4JFieldInfo>& a, const std::vector<P4JFieldInfo>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (details::ViewOf(a[i].name) != details::ViewOf(b[i].name) || a[i].kind != b[i].kind ||
        a[i].offset != b[i].offset || a[i].size != b[i].size ||
        a[i].object_type_index != b[i].object_type_index) {
      return false;
    }
  }
  return true;
}

/*! \brief The field named name in fields, or nullptr. */
const P4JFieldInfo* FindField(const std::vector<P4JFieldInfo>& fields, std::string_view name) {
  for (const P4JFieldInfo& field : fields) {
    if (details::ViewOf(field.name) == name) return &field;
  }
  return nullptr;
}

/*! \brief Whether two records of one field agree on its layout (kind, offset, size). */
bool SameField(const P4JFieldInfo& a, const P4JFieldInfo& b) {
  return a.kind == b.kind && a.offset == b.offset && a.size == b.size && a.object_type_index == b.object_type_index;
}

/*! \brief "add, parse, __init__". */
std::string JoinNames(const std::vector<std::string>& names) {
  std::string text;
  for (size_t i = 0; i < names.size(); ++i) text += (i == 0 ? "" : ", ") + names[i];
  return text;
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
      const void* core = reinterpret_cast<const void*>(&P4JTypeRegisterFields);
      created->RegisterFields(kP4JNDArray, fields.data(), static_cast<int32_t>(fields.size()), core);
      // Read as new List<int64> objects (ReadNDArrayField): declared so, as a plugin's List<int64_t> field is.
      created->SetFieldType(kP4JNDArray, "shape", "list<int64>", core);
      created->SetFieldType(kP4JNDArray, "strides", "list<int64>", core);
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
    for (const P4JFieldInfo& field : own) {
      const P4JFieldInfo* declared = FindField(entry->def_fields, details::ViewOf(field.name));
      if (declared != nullptr && !SameField(*declared, field)) {
        throw ValueError("field \"" + std::string(details::ViewOf(field.name)) + "\" of type \"" + key +
                         "\" is declared by its object definition as " + DescribeFields({*declared}) +
                         " and by VisitAttrs as " + DescribeFields({field}));
      }
    }
    entry->fields_registered = true;
    entry->fields_library = std::move(library);
    entry->own_fields = std::move(own);
    RemergeLocked(type_index);
  }

  void RegisterField(int32_t type_index, const P4JFieldInfo* field_in, int32_t flags, const P4JByteArray* doc) {
    if (field_in == nullptr) throw ValueError("P4JTypeRegisterField: field is NULL");
    if (flags != 0 && flags != P4J_FIELD_MUTABLE) {
      throw ValueError("P4JTypeRegisterField: flags " + std::to_string(flags) + " are unknown, expected 0 or " +
                       "P4J_FIELD_MUTABLE (1)");
    }
    std::lock_guard<std::mutex> lock(mutex_);
    TypeEntry* entry = EntryOrThrow(type_index);
    std::string key(details::ViewOf(entry->info.type_key));
    P4JFieldInfo field = *field_in;
    std::string name(details::ViewOf(field.name));
    if (name.empty()) throw ValueError("P4JTypeRegisterField: a field of type \"" + key + "\" has no name");
    std::string where = "field \"" + name + "\" of type \"" + key + "\"";
    if (field.kind < kP4JFieldInt32 || field.kind > kP4JFieldObject) {
      throw ValueError(where + " has an unknown kind " + std::to_string(field.kind));
    }
    if (field.offset < static_cast<int64_t>(sizeof(P4JObject)) || field.size <= 0 ||
        (entry->info.instance_size > 0 && field.offset + field.size > entry->info.instance_size)) {
      throw ValueError(where + " at offset " + std::to_string(field.offset) + " with size " +
                       std::to_string(field.size) + " is not inside the object (instance size " +
                       std::to_string(entry->info.instance_size) + ")");
    }
    field.name = details::ByteArrayOf(Intern(name));
    if (field.kind != kP4JFieldObject) field.object_type_index = 0;
    const P4JFieldInfo* visited = FindField(entry->own_fields, name);
    if (visited != nullptr && !SameField(*visited, field)) {
      throw ValueError(where + " is declared by VisitAttrs as " + DescribeFields({*visited}) +
                       " and by its object definition as " + DescribeFields({field}));
    }
    const P4JFieldInfo* declared = FindField(entry->def_fields, name);
    if (declared != nullptr && !SameField(*declared, field)) {
      throw ValueError(where + " is declared twice with other layouts: " + DescribeFields({*declared}) + " and " +
                       DescribeFields({field}));
    }
    if (declared == nullptr) entry->def_fields.push_back(field);
    FieldMeta meta;
    meta.flags = flags;
    if (doc != nullptr) meta.doc = details::ByteArrayOf(Intern(details::ViewOf(*doc)));
    entry->field_meta[name] = meta;
    RemergeLocked(type_index);
  }

  void SetFieldType(int32_t type_index, std::string_view name, std::string_view type_name, const void* caller) {
    std::lock_guard<std::mutex> lock(mutex_);
    TypeEntry* entry = EntryOrThrow(type_index);
    std::string key(details::ViewOf(entry->info.type_key));
    std::string library = LibraryOf(caller);
    if (FindField(entry->own_fields, name) == nullptr && FindField(entry->def_fields, name) == nullptr) {
      throw AttributeError("P4JTypeSetFieldType: " + key + " has registered no field \"" + std::string(name) +
                           "\" itself (register its fields first)");
    }
    if (type_name.empty()) {
      throw ValueError("P4JTypeSetFieldType: the type of field \"" + std::string(name) + "\" of type \"" + key +
                       "\" is empty");
    }
    auto recorded = entry->field_types.find(name);
    if (recorded != entry->field_types.end() && details::ViewOf(recorded->second) != type_name) {
      const std::string& first = entry->field_type_libraries[std::string(name)];
      if (first != library) {
        // Two libraries sharing the key with one layout but other element types: the first one's C++ code would
        // serve objects whose field Java then types (and writes) as the second declares it.
        std::string message = "field \"" + std::string(name) + "\" of type key \"" + key + "\" is declared " +
                              std::string(details::ViewOf(recorded->second)) + " by " + first + ", and " + library +
                              " declares it " + std::string(type_name) +
                              ": the first stays; give one of the types another type key, or build both libraries "
                              "from the same definition";
        RecordRegistrationError("LoadError: " + message);
        throw ValueError(message);
      }
    }
    entry->field_types[std::string(name)] = details::ByteArrayOf(Intern(type_name));
    entry->field_type_libraries[std::string(name)] = library;
    RemergeLocked(type_index);
  }

  P4JByteArray GetFieldType(int32_t type_index, int32_t field_index) {
    std::lock_guard<std::mutex> lock(mutex_);
    TypeEntry* entry = EntryOrThrow(type_index);
    if (field_index < 0 || field_index >= static_cast<int32_t>(entry->merged_types.size())) {
      throw IndexError("field index " + std::to_string(field_index) + " is out of range: " +
                       std::string(details::ViewOf(entry->info.type_key)) + " has " +
                       std::to_string(entry->merged_types.size()) + " fields");
    }
    return entry->merged_types[field_index];
  }

  FieldMeta GetFieldMeta(int32_t type_index, int32_t field_index) {
    std::lock_guard<std::mutex> lock(mutex_);
    TypeEntry* entry = EntryOrThrow(type_index);
    if (field_index < 0 || field_index >= static_cast<int32_t>(entry->merged_meta.size())) {
      throw IndexError("field index " + std::to_string(field_index) + " is out of range: " +
                       std::string(details::ViewOf(entry->info.type_key)) + " has " +
                       std::to_string(entry->merged_meta.size()) + " fields");
    }
    return entry->merged_meta[field_index];
  }

  /*!
   * \brief A copy of the field at field_index with its flags and element types, from one snapshot of the type's
   *  fields, without the lock: what every field write needs, so concurrent writers of different objects do not
   *  contend on the registry.
   */
  FieldWrite FieldForWrite(int32_t type_index, int32_t field_index) const {
    const TypeEntry* entry = EntryOrThrow(type_index);
    const FieldTable* table = entry->field_table.load(std::memory_order_acquire);
    int32_t count = table == nullptr ? 0 : static_cast<int32_t>(table->fields.size());
    if (field_index < 0 || field_index >= count) {
      throw IndexError("field index " + std::to_string(field_index) + " is out of range: " +
                       std::string(details::ViewOf(entry->info.type_key)) + " has " + std::to_string(count) +
                       " fields");
    }
    return FieldWrite{table->fields[field_index], table->flags[field_index], table->elements[field_index]};
  }

  /*! \brief FieldForWrite with the field, its flags and element types taken together under the lock. */
  FieldWrite FieldForWriteUnderLock(int32_t type_index, int32_t field_index) {
    std::lock_guard<std::mutex> lock(mutex_);
    TypeEntry* entry = EntryOrThrow(type_index);
    if (field_index < 0 || field_index >= entry->info.num_fields) {
      throw IndexError("field index " + std::to_string(field_index) + " is out of range: " +
                       std::string(details::ViewOf(entry->info.type_key)) + " has " +
                       std::to_string(entry->info.num_fields) + " fields");
    }
    // Under the lock the newest table is the one info.fields was merged with.
    const FieldTable* table = entry->field_table.load(std::memory_order_relaxed);
    return FieldWrite{entry->info.fields[field_index], entry->merged_meta[field_index].flags,
                      table->elements[field_index]};
  }

  void SetDoc(int32_t type_index, const P4JByteArray* doc) {
    if (doc == nullptr) throw ValueError("P4JTypeSetDoc: doc is NULL");
    std::lock_guard<std::mutex> lock(mutex_);
    EntryOrThrow(type_index)->doc = details::ByteArrayOf(Intern(details::ViewOf(*doc)));
  }

  P4JByteArray GetDoc(int32_t type_index) {
    std::lock_guard<std::mutex> lock(mutex_);
    return EntryOrThrow(type_index)->doc;
  }

  void RegisterMethod(int32_t type_index, std::string_view name, int32_t kind, P4JObjectHandle function,
                      const P4JByteArray* doc, const P4JByteArray* param_names, int32_t num_param_names,
                      const void* caller) {
    if (kind != kP4JMethodInstance && kind != kP4JMethodStatic && kind != kP4JMethodConstructor) {
      throw ValueError("P4JTypeRegisterMethod: kind " + std::to_string(kind) + " is not a P4JMethodKind");
    }
    if (num_param_names < 0 || (num_param_names > 0 && param_names == nullptr)) {
      throw ValueError("P4JTypeRegisterMethod: " + std::to_string(num_param_names) +
                       " parameter names at NULL or a negative count");
    }
    CheckHandleType(function, kP4JFunction, "P4JTypeRegisterMethod: function");
    P4JByteArray signature_span{nullptr, 0};
    details::CheckCall(P4JFunctionGetSignature(function, &signature_span));
    std::string signature(details::ViewOf(signature_span));
    std::lock_guard<std::mutex> lock(mutex_);
    TypeEntry* entry = EntryOrThrow(type_index);
    std::string key(details::ViewOf(entry->info.type_key));
    const char* what = kind == kP4JMethodInstance ? "method" : kind == kP4JMethodStatic ? "static method"
                                                                                        : "constructor";
    std::string where = std::string(what) + " \"" + std::string(name) + "\" of type \"" + key + "\"";
    if (name.empty()) throw ValueError("a " + std::string(what) + " of type \"" + key + "\" has no name");
    if ((kind == kP4JMethodConstructor) != (name == P4J_CONSTRUCTOR_NAME)) {
      throw ValueError(where + ": the constructor, and only it, is named \"" P4J_CONSTRUCTOR_NAME "\"");
    }
    std::string library = LibraryOf(caller);
    for (const auto& existing : entry->methods) {
      if (details::ViewOf(existing->info.name) == name) {
        // Two libraries built from one object definition (a shared header) each register its members at load:
        // the same member again from another library is that definition, and the first one serves both.
        if (existing->info.kind == kind && !signature.empty() &&
            details::ViewOf(existing->info.signature) == signature && existing->library != library) {
          return;
        }
        std::string first = details::ViewOf(existing->info.signature).empty()
                                ? std::string("untyped")
                                : std::string(details::ViewOf(existing->info.signature));
        std::string message =
            where + " is already registered by " + existing->library + " as " + first + ", and " +
            (existing->library == library ? std::string("the same library") : library) + " registers it again as " +
            (signature.empty() ? std::string("untyped") : signature) + " (the first one is kept)" +
            (existing->library == library ? std::string("")
                                           : std::string(": libraries that share a type share one object definition "
                                                         "(the same members and signatures), or use other type keys"));
        RecordRegistrationError("ValueError: " + message);
        throw ValueError(message);
      }
    }
    if (!signature.empty()) {
      std::vector<std::string> params = SignatureParams(signature);
      if (kind == kP4JMethodInstance) {
        if (params.empty()) {
          throw ValueError(where + " takes no parameters " + signature + ", expected the object first");
        }
        auto self = key_to_index_.find(params[0]);
        bool takes_type = params[0] == "Object" ||
                          (self != key_to_index_.end() && IsInstanceOf(type_index, self->second));
        if (!takes_type) {
          throw ValueError(where + " takes " + params[0] + " first " + signature + ", expected " + key +
                           " (or an ancestor): a method takes the object first");
        }
      }
      size_t named = params.size() - (kind == kP4JMethodInstance ? 1 : 0);
      if (num_param_names > 0 && static_cast<size_t>(num_param_names) != named) {
        throw ValueError(where + " has " + std::to_string(named) + (named == 1 ? " parameter " : " parameters ") +
                         (kind == kP4JMethodInstance ? "after the object " : "") + signature + ", and " +
                         std::to_string(num_param_names) + " parameter names were given");
      }
    }
    auto method = std::make_unique<MethodEntry>();
    for (int32_t i = 0; i < num_param_names; ++i) {
      method->param_names.push_back(details::ByteArrayOf(Intern(details::ViewOf(param_names[i]))));
    }
    method->info.name = details::ByteArrayOf(Intern(name));
    method->info.kind = kind;
    method->info.num_param_names = num_param_names;
    method->info.type_index = type_index;
    method->info.reserved = 0;
    details::IncRef(function);  // held until exit, as globals are
    method->info.function = function;
    method->info.signature = details::ByteArrayOf(Intern(signature));
    method->info.doc = doc != nullptr ? details::ByteArrayOf(Intern(details::ViewOf(*doc))) : P4JByteArray{"", 0};
    method->info.param_names = method->param_names.empty() ? nullptr : method->param_names.data();
    method->library = std::move(library);
    entry->methods.push_back(std::move(method));
  }

  int32_t NumMethods(int32_t type_index) {
    std::lock_guard<std::mutex> lock(mutex_);
    return static_cast<int32_t>(EntryOrThrow(type_index)->methods.size());
  }

  const P4JMethodInfo* Method(int32_t type_index, int32_t method_index) {
    std::lock_guard<std::mutex> lock(mutex_);
    TypeEntry* entry = EntryOrThrow(type_index);
    if (method_index < 0 || method_index >= static_cast<int32_t>(entry->methods.size())) {
      throw IndexError("method index " + std::to_string(method_index) + " is out of range: " +
                       std::string(details::ViewOf(entry->info.type_key)) + " has " +
                       std::to_string(entry->methods.size()) + " methods");
    }
    return &entry->methods[method_index]->info;
  }

  const P4JMethodInfo* FindMethod(int32_t type_index, std::string_view name) {
    std::lock_guard<std::mutex> lock(mutex_);
    TypeEntry* start = EntryOrThrow(type_index);
    std::vector<std::string> known;
    for (TypeEntry* entry = start; entry != nullptr; entry = Entry(entry->info.parent_type_index)) {
      for (const auto& method : entry->methods) {
        bool constructor = method->info.kind == kP4JMethodConstructor;
        if (constructor && entry != start) continue;  // constructors are not inherited
        std::string_view method_name = details::ViewOf(method->info.name);
        if (method_name == name) return &method->info;
        if (std::find(known.begin(), known.end(), method_name) == known.end()) known.emplace_back(method_name);
      }
    }
    std::string key(details::ViewOf(start->info.type_key));
    std::string listing = known.empty() ? "it has none (a packed4j::ObjectDef registers them)"
                                        : "it has: " + JoinNames(known);
    throw AttributeError(key + " has no method \"" + std::string(name) + "\" (own or inherited); " + listing);
  }

  /*! \brief The index of a registered type key, or -1 (no error raised). */
  int32_t FindIndex(std::string_view key) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = key_to_index_.find(std::string(key));
    return found == key_to_index_.end() ? -1 : found->second;
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

  /*! \brief The key of a type index, or "type #N" when none is registered; lock-free (entries are published). */
  std::string KeyForMessage(int32_t index) const {
    const TypeEntry* entry = Entry(index);
    return entry == nullptr ? "type #" + std::to_string(index) : std::string(details::ViewOf(entry->info.type_key));
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
    std::vector<FieldMeta> merged_meta;
    std::vector<P4JByteArray> merged_types;
    const TypeEntry* parent = Entry(entry->info.parent_type_index);
    if (parent != nullptr && parent->info.num_fields > 0) {
      merged->assign(parent->info.fields, parent->info.fields + parent->info.num_fields);
      merged_meta = parent->merged_meta;
      merged_types = parent->merged_types;
    }
    // The type's own fields: VisitAttrs' first, then those only its object definition declares.
    std::vector<P4JFieldInfo> own = entry->own_fields;
    for (const P4JFieldInfo& declared : entry->def_fields) {
      if (FindField(own, details::ViewOf(declared.name)) == nullptr) own.push_back(declared);
    }
    for (const P4JFieldInfo& field : own) {
      auto found_meta = entry->field_meta.find(details::ViewOf(field.name));
      FieldMeta meta = found_meta != entry->field_meta.end() ? found_meta->second : FieldMeta{};
      auto found_type = entry->field_types.find(details::ViewOf(field.name));
      auto same_name = std::find_if(merged->begin(), merged->end(), [&](const P4JFieldInfo& inherited) {
        return details::ViewOf(inherited.name) == details::ViewOf(field.name);
      });
      if (same_name != merged->end()) {
        // Declared again (a VisitAttrs that visits its parent's fields): the inherited flags and doc stay unless
        // the type's own definition gives its own.
        *same_name = field;
        if (found_meta != entry->field_meta.end()) merged_meta[same_name - merged->begin()] = meta;
        if (found_type != entry->field_types.end()) merged_types[same_name - merged->begin()] = found_type->second;
      } else {
        merged->push_back(field);
        merged_meta.push_back(meta);
        merged_types.push_back(found_type != entry->field_types.end() ? found_type->second : P4JByteArray{"", 0});
      }
    }
    auto table = std::make_unique<FieldTable>();
    table->fields = *merged;
    for (const FieldMeta& meta : merged_meta) table->flags.push_back(meta.flags);
    for (size_t i = 0; i < merged->size(); ++i) {
      table->elements.push_back(i < merged_types.size() ? ElementsToCheckLocked(details::ViewOf(merged_types[i]))
                                                         : nullptr);
    }
    entry->field_table.store(table.get(), std::memory_order_release);
    field_tables_.push_back(std::move(table));
    entry->merged_meta = std::move(merged_meta);
    entry->merged_types = std::move(merged_types);
    // Readers take P4JTypeInfo without the lock (P4JTypeGetInfo hands out a stable pointer): publish the array
    // before its count, so a reader that loads num_fields first never indexes past the array it then loads.
    // A new array only grows on its parent's (inherited fields come first and are never dropped).
    __atomic_store_n(&entry->info.fields, merged->empty() ? nullptr : merged->data(), __ATOMIC_RELEASE);
    __atomic_store_n(&entry->info.num_fields, static_cast<int32_t>(merged->size()), __ATOMIC_RELEASE);
    field_arrays_.push_back(std::move(merged));
  }

  /*!
   * \brief The declared type named type_name when it is a list or map with elements to check, else nullptr: a
   *  field of no declared type, of a type that is not a container, of a container of any, or of a name that is not
   *  a type name. Parsed once per name.
   */
  const DeclaredType* ElementsToCheckLocked(std::string_view type_name) {
    if (type_name.empty()) return nullptr;
    auto found = element_checks_.find(type_name);
    if (found != element_checks_.end()) return found->second;
    const DeclaredType* type = DeclaredTypeParser(type_name, &declared_types_).Parse();
    bool checked = type != nullptr && (type->kind == DeclaredType::kList || type->kind == DeclaredType::kMap) &&
                   std::any_of(type->arguments.begin(), type->arguments.end(),
                               [](const DeclaredType* argument) { return !AcceptsEverything(*argument); });
    const DeclaredType* elements = checked ? type : nullptr;
    element_checks_.emplace(std::string(type_name), elements);
    return elements;
  }

  /*!
   * \brief Rebuilds the merged field lists of a type and of every subtype (which inherit its fields), ancestors
   *  before descendants (a parent may register its fields after a child when they live in different files).
   */
  void RemergeLocked(int32_t type_index) {
    std::vector<TypeEntry*> affected;
    for (int32_t index = 0; index < next_dynamic_index_; ++index) {
      TypeEntry* candidate = Entry(index);
      if (candidate != nullptr && IsInstanceOf(index, type_index)) affected.push_back(candidate);
    }
    std::sort(affected.begin(), affected.end(),
              [](const TypeEntry* a, const TypeEntry* b) { return a->info.depth < b->info.depth; });
    for (TypeEntry* affected_entry : affected) MergeFieldsLocked(affected_entry);
  }

  mutable std::mutex mutex_;
  std::atomic<TypeEntry*> table_[kMaxTypes];
  std::vector<std::unique_ptr<TypeEntry>> entries_;
  std::unordered_map<std::string, int32_t> key_to_index_;
  std::unordered_set<std::string> interned_;
  std::vector<std::unique_ptr<std::vector<P4JFieldInfo>>> field_arrays_;
  /*! \brief Every FieldTable published (a lock-free writer may still read an old one). */
  std::vector<std::unique_ptr<FieldTable>> field_tables_;
  /*! \brief Declared type names read so far, each with what ElementsToCheckLocked gave for it. */
  std::map<std::string, const DeclaredType*, std::less<>> element_checks_;
  /*! \brief Every DeclaredType node made (field tables point at them). */
  std::vector<std::unique_ptr<DeclaredType>> declared_types_;
  int32_t next_dynamic_index_ = kP4JDynamicObjectBegin;
};

std::string KeyForMessage(int32_t type_index) { return TypeRegistry::Global()->KeyForMessage(type_index); }

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

/*!
 * \brief A lock for the short critical sections of field access (a copy, an assignment or a swap of one value): taken
 *  with one atomic exchange and given back with a release store, where a std::mutex's unlock is a second atomic
 *  operation on every write. A waiter spins a little, then yields, since a holder may be allocating.
 */
class FieldLock {
 public:
  /*! \brief Takes the lock. */
  void lock() noexcept {
    while (locked_.exchange(true, std::memory_order_acquire)) {
      for (int spins = 0; locked_.load(std::memory_order_relaxed); ++spins) {
        if (spins < 64) {
#if defined(__x86_64__) || defined(__i386__)
          __builtin_ia32_pause();
#endif
        } else {
          std::this_thread::yield();
        }
      }
    }
  }
  /*! \brief Gives the lock back. */
  void unlock() noexcept { locked_.store(false, std::memory_order_release); }

 private:
  alignas(64) std::atomic<bool> locked_{false};  // one cache line each: objects on other stripes do not share it
};

/*!
 * \brief The lock of an object's string and object fields: one of a fixed set, picked by the object's address.
 *  Writers (P4JObjectSetField) assign or swap a value under it and readers (P4JObjectGetField) copy or take a
 *  reference under it, so a reader never sees half a string nor takes a reference to an object a writer released.
 *  Never destroyed: objects may be read during exit.
 */
FieldLock& FieldLockOf(const P4JObject* obj) {
  constexpr size_t kLocks = 64;
  static FieldLock* locks = new FieldLock[kLocks];
  uintptr_t address = reinterpret_cast<uintptr_t>(obj);
  return locks[(address >> 4) % kLocks];
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
      std::string text;
      {
        std::lock_guard<FieldLock> lock(FieldLockOf(obj));
        text = *reinterpret_cast<const std::string*>(address);
      }
      details::StoreOwnedObject(NewByteArrayObject(kP4JString, text.data(), text.size()), result);
      return;
    }
    case kP4JFieldObject:
      // The core's NDArray computes its two object fields (shape, strides; inherited by any subtype) from the
      // DLTensor when read: at their offsets are the DLTensor's int64_t pointers, not ObjectRefs.
      if (ReadNDArrayField(obj, field, result)) return;
      // An ObjectRef field is exactly one handle (static_assert in object.h).
      {
        std::lock_guard<FieldLock> lock(FieldLockOf(obj));
        details::StoreObject(*reinterpret_cast<P4JObject* const*>(address), result);
      }
      return;
    default:
      throw ValueError("field \"" + std::string(details::ViewOf(field.name)) + "\" has an unknown kind");
  }
}

/*! \brief The type index of an object type key in a declared type, resolved once it is registered; -1 before. */
int32_t TypeIndexOf(const DeclaredType& type) {
  int32_t index = type.type_index.load(std::memory_order_acquire);
  if (index < 0) {
    index = TypeRegistry::Global()->FindIndex(type.name);
    if (index >= 0) type.type_index.store(index, std::memory_order_release);
  }
  return index;
}

void CheckElements(const DeclaredType& type, P4JObject* container);

/*!
 * \brief Checks one value against a declared type as a typed argument of that type is converted (set_body_typed's
 *  TypeTraits<T>::Convert): a TypeError or ValueError placed by context, a nested container's by each level as
 *  std::vector<T>'s are ("list element at index 1, list element at index 0 expected int64, got ...").
 */
void CheckValue(const DeclaredType& type, const P4JAny& value, const details::ConvertContext& context) {
  switch (type.kind) {
    case DeclaredType::kAny:
      return;
    case DeclaredType::kConverted:
      type.convert(value, context);
      return;
    case DeclaredType::kOptional:
      if (value.type_index != kP4JNone) CheckValue(*type.arguments[0], value, context);
      return;
    case DeclaredType::kObjectKey:
      // ObjectRefTraits' rule: an object of the type or a subtype; None only where the type is optional<T>.
      if (details::IsObjectValue(value) && details::ObjectIsInstance(value.v_obj, TypeIndexOf(type))) return;
      details::ThrowTypeMismatch(context, type.name, value);
    case DeclaredType::kList:
    case DeclaredType::kMap:
      if (!details::IsObjectValue(value) ||
          !details::ObjectIsInstance(value.v_obj, type.kind == DeclaredType::kList ? kP4JList : kP4JMap)) {
        details::ThrowTypeMismatch(context, type.name, value);
      }
      try {
        CheckElements(type, value.v_obj);
      } catch (const Error& error) {
        details::ThrowWithin(details::TypeTraits<std::vector<Any>>::Within(context), error);
      }
      return;
  }
}

/*! \brief Checks every element of a list (or key and value of a map) against type's element types. */
void CheckElements(const DeclaredType& type, P4JObject* container) {
  if (type.kind == DeclaredType::kList) {
    const P4JListCell* cell = details::CellOf<P4JListCell>(container);
    for (int64_t i = 0; i < cell->size; ++i) {
      CheckValue(*type.arguments[0], cell->data[i], details::ConvertContext::Element(i));
    }
    return;
  }
  const P4JMapCell* cell = details::CellOf<P4JMapCell>(container);
  for (int64_t i = 0; i < cell->size; ++i) {
    const P4JAny* entry = cell->entries + 2 * i;
    CheckValue(*type.arguments[0], entry[0], details::ConvertContext::MapKey());
    CheckValue(*type.arguments[1], entry[1], details::ConvertContext::MapValue(&entry[0]));
  }
}

/*!
 * \brief Checks the elements of a value for a field of a declared list or map type: "declared list<string>, list
 *  element at index 1 expected string, got int 2". Done before the field lock is taken, and before the field takes
 *  a reference, so a refused value leaves nothing to undo.
 */
void CheckFieldElements(const DeclaredType& type, const P4JAny& value) {
  int32_t container = type.kind == DeclaredType::kList ? kP4JList : kP4JMap;
  // The field's object type is the container's when reflection recorded both; a caller of the C API may differ.
  if (!details::ObjectIsInstance(value.v_obj, container)) {
    details::ThrowTypeMismatch(details::ConvertContext(), type.name, value);
  }
  try {
    CheckElements(type, value.v_obj);
  } catch (const Error& error) {
    details::ThrowWithin("declared " + type.name + ", ", error);
  }
}

/*! \brief Rethrows error with the field named before its message: "P4JObjectSetField: field ... of T: ...". */
[[noreturn]] void ThrowForField(const Error& error, const std::string& where) {
  throw Error(error.kind(), "P4JObjectSetField: " + where + ": " + error.message());
}

/*!
 * \brief Writes value (borrowed) to a field of obj: checks (a container's elements too, when the field declares their
 *  types), converts, then one store or a swap under the lock.
 */
void WriteField(P4JObject* obj, const P4JTypeInfo* info, const FieldWrite& target, const P4JAny& value) {
  const P4JFieldInfo& field = target.field;
  const int32_t flags = target.flags;
  // Spelled only for an error: a write that succeeds allocates nothing for its message.
  auto where = [&] {
    return "field \"" + std::string(details::ViewOf(field.name)) + "\" of " +
           std::string(details::ViewOf(info->type_key));
  };
  if ((flags & P4J_FIELD_MUTABLE) == 0) {
    throw ValueError("P4JObjectSetField: " + where() + " is read-only (an object definition's def_rw declares a "
                     "field writable)");
  }
  char* address = reinterpret_cast<char*>(obj) + field.offset;
  const details::ConvertContext plain;
  try {
    switch (field.kind) {
      case kP4JFieldInt32:
        __atomic_store_n(reinterpret_cast<int32_t*>(address), details::TypeTraits<int32_t>::Convert(value, plain),
                         __ATOMIC_RELAXED);
        return;
      case kP4JFieldInt64:
        __atomic_store_n(reinterpret_cast<int64_t*>(address), details::TypeTraits<int64_t>::Convert(value, plain),
                         __ATOMIC_RELAXED);
        return;
      case kP4JFieldUInt64:
        __atomic_store_n(reinterpret_cast<uint64_t*>(address), details::TypeTraits<uint64_t>::Convert(value, plain),
                         __ATOMIC_RELAXED);
        return;
      case kP4JFieldFloat64: {
        double converted = details::TypeTraits<double>::Convert(value, plain);
        __atomic_store(reinterpret_cast<double*>(address), &converted, __ATOMIC_RELAXED);
        return;
      }
      case kP4JFieldBool:
        __atomic_store_n(reinterpret_cast<bool*>(address), details::TypeTraits<bool>::Convert(value, plain),
                         __ATOMIC_RELAXED);
        return;
      case kP4JFieldString: {
        // The argument's bytes (a view, or a String object's), assigned in place under the lock: no string is made
        // for the argument, and a field whose capacity suffices allocates nothing. A reader copies under the same
        // lock, so it sees the old or the new text whole.
        std::string_view text = details::TypeTraits<std::string_view>::Convert(value, plain);
        std::lock_guard<FieldLock> lock(FieldLockOf(obj));
        reinterpret_cast<std::string*>(address)->assign(text.data(), text.size());
        return;
      }
      case kP4JFieldObject: {
        int32_t declared = field.object_type_index > 0 ? field.object_type_index : kP4JObject;
        P4JObject* handle = nullptr;
        if (value.type_index == kP4JNone) {
          handle = nullptr;
        } else if (value.type_index >= kP4JStaticObjectBegin && value.v_obj != nullptr &&
                   details::ObjectIsInstance(value.v_obj, declared)) {
          if (target.elements != nullptr) CheckFieldElements(*target.elements, value);
          handle = value.v_obj;
          details::IncRef(handle);
        } else if ((value.type_index == kP4JStrView && (declared == kP4JString || declared == kP4JObject)) ||
                   (value.type_index == kP4JBytesView && (declared == kP4JBytes || declared == kP4JObject))) {
          handle = OwnValue(value).v_obj;
        } else {
          details::ThrowTypeMismatch(plain, details::TypeKeyOf(declared), value);
        }
        P4JObject* old;
        {
          std::lock_guard<FieldLock> lock(FieldLockOf(obj));
          P4JObject** slot = reinterpret_cast<P4JObject**>(address);
          old = *slot;
          *slot = handle;
        }
        if (old != nullptr) details::DecRef(old);  // released once, outside the lock
        return;
      }
      default:
        throw ValueError("P4JObjectSetField: " + where() + " has an unknown kind");
    }
  } catch (const Error& error) {
    ThrowForField(error, where());
  }
}

}  // namespace

void CheckFieldElementTypes(int32_t type_index, int32_t field_index, const P4JFieldInfo& field, const P4JAny& value) {
  FieldWrite target = TypeRegistry::Global()->FieldForWrite(type_index, field_index);
  // A parent's field registered since the caller read its info moves the child's own fields up: check only the field
  // the caller means.
  if (target.elements == nullptr || target.field.offset != field.offset || target.field.kind != field.kind) return;
  CheckFieldElements(*target.elements, value);
}

std::string CopyStringField(const P4JObject* obj, const P4JFieldInfo& field) {
  const char* address = reinterpret_cast<const char*>(obj) + field.offset;
  std::lock_guard<FieldLock> lock(FieldLockOf(obj));
  return *reinterpret_cast<const std::string*>(address);
}

P4JObject* TakeObjectField(const P4JObject* obj, const P4JFieldInfo& field) {
  const char* address = reinterpret_cast<const char*>(obj) + field.offset;
  std::lock_guard<FieldLock> lock(FieldLockOf(obj));
  P4JObject* object = *reinterpret_cast<P4JObject* const*>(address);
  if (object != nullptr) details::IncRef(object);
  return object;
}

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
  P4J_REGISTRATION_CALL_END();
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
  // The count first, then the array published before it, as P4JObjectSetAttr reads them: a library loading on
  // another thread may be adding fields (a subtype's parent) meanwhile.
  int32_t num_fields = __atomic_load_n(&info->num_fields, __ATOMIC_ACQUIRE);
  const P4JFieldInfo* fields = __atomic_load_n(&info->fields, __ATOMIC_ACQUIRE);
  for (int32_t i = 0; i < num_fields; ++i) {
    if (details::ViewOf(fields[i].name) == wanted) {
      internal::ReadField(obj, info, fields[i], result);
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
  int32_t num_fields = __atomic_load_n(&info->num_fields, __ATOMIC_ACQUIRE);  // then the array, as in GetAttr
  if (field_index < 0 || field_index >= num_fields) {
    throw IndexError("field index " + std::to_string(field_index) + " is out of range: " +
                     std::string(details::ViewOf(info->type_key)) + " has " + std::to_string(num_fields) +
                     " fields");
  }
  internal::ReadField(obj, info, __atomic_load_n(&info->fields, __ATOMIC_ACQUIRE)[field_index], result);
  P4J_SAFE_CALL_END();
}

int P4JTypeSetDoc(int32_t type_index, const P4JByteArray* doc) {
  P4J_SAFE_CALL_BEGIN();
  internal::TypeRegistry::Global()->SetDoc(type_index, doc);
  P4J_REGISTRATION_CALL_END();
}

int P4JTypeGetDoc(int32_t type_index, P4JByteArray* out) {
  P4J_SAFE_CALL_BEGIN();
  if (out == nullptr) throw ValueError("P4JTypeGetDoc: out is NULL");
  *out = internal::TypeRegistry::Global()->GetDoc(type_index);
  P4J_SAFE_CALL_END();
}

int P4JTypeRegisterField(int32_t type_index, const P4JFieldInfo* field, int32_t flags, const P4JByteArray* doc) {
  P4J_SAFE_CALL_BEGIN();
  internal::TypeRegistry::Global()->RegisterField(type_index, field, flags, doc);
  P4J_REGISTRATION_CALL_END();
}

int P4JTypeGetFieldMeta(int32_t type_index, int32_t field_index, int32_t* out_flags, P4JByteArray* out_doc) {
  P4J_SAFE_CALL_BEGIN();
  if (out_flags == nullptr || out_doc == nullptr) throw ValueError("P4JTypeGetFieldMeta: an out pointer is NULL");
  internal::FieldMeta meta = internal::TypeRegistry::Global()->GetFieldMeta(type_index, field_index);
  *out_flags = meta.flags;
  *out_doc = meta.doc;
  P4J_SAFE_CALL_END();
}

int P4JObjectLockFields(P4JObjectHandle obj) {
  P4J_SAFE_CALL_BEGIN();
  if (obj == nullptr) throw ValueError("P4JObjectLockFields: obj is NULL");
  internal::FieldLockOf(obj).lock();
  P4J_SAFE_CALL_END();
}

int P4JObjectUnlockFields(P4JObjectHandle obj) {
  P4J_SAFE_CALL_BEGIN();
  if (obj == nullptr) throw ValueError("P4JObjectUnlockFields: obj is NULL");
  internal::FieldLockOf(obj).unlock();
  P4J_SAFE_CALL_END();
}

int P4JTypeSetFieldType(int32_t type_index, const P4JByteArray* field_name, const P4JByteArray* type_name) {
  P4J_SAFE_CALL_BEGIN();
  if (field_name == nullptr || type_name == nullptr) {
    throw ValueError("P4JTypeSetFieldType: field_name and type_name must not be NULL");
  }
  internal::TypeRegistry::Global()->SetFieldType(type_index, details::ViewOf(*field_name),
                                                 details::ViewOf(*type_name), __builtin_return_address(0));
  P4J_REGISTRATION_CALL_END();
}

int P4JTypeGetFieldType(int32_t type_index, int32_t field_index, P4JByteArray* out_type) {
  P4J_SAFE_CALL_BEGIN();
  if (out_type == nullptr) throw ValueError("P4JTypeGetFieldType: out_type is NULL");
  *out_type = internal::TypeRegistry::Global()->GetFieldType(type_index, field_index);
  P4J_SAFE_CALL_END();
}

int P4JTypeRegisterMethod(int32_t type_index, const P4JByteArray* name, int32_t kind, P4JObjectHandle function,
                          const P4JByteArray* doc, const P4JByteArray* param_names, int32_t num_param_names) {
  P4J_SAFE_CALL_BEGIN();
  if (name == nullptr) throw ValueError("P4JTypeRegisterMethod: name is NULL");
  internal::TypeRegistry::Global()->RegisterMethod(type_index, details::ViewOf(*name), kind, function, doc,
                                                   param_names, num_param_names, __builtin_return_address(0));
  P4J_REGISTRATION_CALL_END();
}

int P4JTypeGetNumMethods(int32_t type_index, int32_t* out) {
  P4J_SAFE_CALL_BEGIN();
  if (out == nullptr) throw ValueError("P4JTypeGetNumMethods: out is NULL");
  *out = internal::TypeRegistry::Global()->NumMethods(type_index);
  P4J_SAFE_CALL_END();
}

int P4JTypeGetMethod(int32_t type_index, int32_t method_index, const P4JMethodInfo** out) {
  P4J_SAFE_CALL_BEGIN();
  if (out == nullptr) throw ValueError("P4JTypeGetMethod: out is NULL");
  *out = internal::TypeRegistry::Global()->Method(type_index, method_index);
  P4J_SAFE_CALL_END();
}

int P4JTypeFindMethod(int32_t type_index, const P4JByteArray* name, const P4JMethodInfo** out) {
  P4J_SAFE_CALL_BEGIN();
  if (out == nullptr) throw ValueError("P4JTypeFindMethod: out is NULL");
  *out = nullptr;
  if (name == nullptr) throw ValueError("P4JTypeFindMethod: name is NULL");
  *out = internal::TypeRegistry::Global()->FindMethod(type_index, details::ViewOf(*name));
  P4J_SAFE_CALL_END();
}

int P4JObjectSetField(P4JObjectHandle obj, int32_t field_index, const P4JAny* value) {
  P4J_SAFE_CALL_BEGIN();
  if (obj == nullptr) throw ValueError("P4JObjectSetField: obj is NULL");
  if (value == nullptr) throw ValueError("P4JObjectSetField: value is NULL");
  internal::TypeRegistry* registry = internal::TypeRegistry::Global();
  const P4JTypeInfo* info = registry->Info(obj->type_index);
  internal::WriteField(obj, info, registry->FieldForWrite(obj->type_index, field_index), *value);  // lock-free
  P4J_SAFE_CALL_END();
}

int P4JObjectSetAttr(P4JObjectHandle obj, const P4JByteArray* name, const P4JAny* value) {
  P4J_SAFE_CALL_BEGIN();
  if (obj == nullptr) throw ValueError("P4JObjectSetAttr: obj is NULL");
  if (name == nullptr) throw ValueError("P4JObjectSetAttr: name is NULL");
  if (value == nullptr) throw ValueError("P4JObjectSetAttr: value is NULL");
  internal::TypeRegistry* registry = internal::TypeRegistry::Global();
  const P4JTypeInfo* info = registry->Info(obj->type_index);
  std::string_view wanted = details::ViewOf(*name);
  int32_t num_fields = __atomic_load_n(&info->num_fields, __ATOMIC_ACQUIRE);
  const P4JFieldInfo* fields = __atomic_load_n(&info->fields, __ATOMIC_ACQUIRE);
  for (int32_t i = 0; i < num_fields; ++i) {
    if (details::ViewOf(fields[i].name) == wanted) {
      internal::WriteField(obj, info, registry->FieldForWriteUnderLock(obj->type_index, i), *value);
      return 0;
    }
  }
  throw AttributeError(std::string(details::ViewOf(info->type_key)) + " object has no field \"" +
                       std::string(wanted) + "\"; " + internal::ListFieldNames(info));
  P4J_SAFE_CALL_END();
}

}  // extern "C"
