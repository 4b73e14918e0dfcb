/*!
 * \file packed4j/reflection.h
 * \brief Field metadata: AttrVisitor and P4J_REGISTER_OBJECT_TYPE.
 *
 * A type lists its fields in VisitAttrs. P4J_REGISTER_OBJECT_TYPE calls that function once, when the library
 * is loaded, with a visitor that records each field's name, kind, offset from the handle and size, and hands
 * the list to the type registry (P4JTypeRegisterFields). From then on anyone (the Java side in particular)
 * can find a field by name and read a field of a primitive kind at its offset in any instance, with no call into
 * the object; string and object fields are read through P4JObjectGetField (see kP4JFieldObject in c_api.h).
 */
#ifndef PACKED4J_REFLECTION_H_
#define PACKED4J_REFLECTION_H_

#include <packed4j/any.h>
#include <packed4j/object.h>

#include <cstdio>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

namespace packed4j {
namespace details {

/*! \brief The field kind of a C++ field type; kSupported is false for types reflection cannot describe. */
template <typename T, typename = void>
struct FieldKindOf {
  static constexpr bool kSupported = false;
};

template <typename T>
struct FieldKindOf<T, std::enable_if_t<std::is_integral<T>::value && std::is_signed<T>::value && sizeof(T) == 4>> {
  static constexpr bool kSupported = true;
  static constexpr P4JFieldKind kKind = kP4JFieldInt32;
  static int32_t ObjectTypeIndex() { return 0; }
};

template <typename T>
struct FieldKindOf<T, std::enable_if_t<std::is_integral<T>::value && std::is_signed<T>::value && sizeof(T) == 8>> {
  static constexpr bool kSupported = true;
  static constexpr P4JFieldKind kKind = kP4JFieldInt64;
  static int32_t ObjectTypeIndex() { return 0; }
};

template <typename T>
struct FieldKindOf<T, std::enable_if_t<std::is_integral<T>::value && std::is_unsigned<T>::value &&
                                       !std::is_same<T, bool>::value && sizeof(T) == 8>> {
  static constexpr bool kSupported = true;
  static constexpr P4JFieldKind kKind = kP4JFieldUInt64;
  static int32_t ObjectTypeIndex() { return 0; }
};

template <>
struct FieldKindOf<double> {
  static constexpr bool kSupported = true;
  static constexpr P4JFieldKind kKind = kP4JFieldFloat64;
  static int32_t ObjectTypeIndex() { return 0; }
};

template <>
struct FieldKindOf<bool> {
  static constexpr bool kSupported = true;
  static constexpr P4JFieldKind kKind = kP4JFieldBool;
  static int32_t ObjectTypeIndex() { return 0; }
};

template <>
struct FieldKindOf<std::string> {
  static constexpr bool kSupported = true;
  static constexpr P4JFieldKind kKind = kP4JFieldString;
  static int32_t ObjectTypeIndex() { return 0; }
};

template <typename T>
struct FieldKindOf<T, std::enable_if_t<std::is_base_of<ObjectRef, T>::value>> {
  static_assert(sizeof(T) == sizeof(ObjectRef),
                "an ObjectRef subclass used as a field must not add data members (reflection reads one handle)");
  static constexpr bool kSupported = true;
  static constexpr P4JFieldKind kKind = kP4JFieldObject;
  static int32_t ObjectTypeIndex() { return T::ContainerType::RuntimeTypeIndex(); }
  /*! \brief The declared type a signature would give T ("list<string>", "Calculator"): P4JTypeSetFieldType. */
  static std::string TypeName() { return TypeTraits<T>::TypeName(); }
};

/*!
 * \brief Records the declared type of an object field of T (P4JTypeSetFieldType), so that reflection reports
 *  "list<string>" where the field's kind says only "object"; fields of other kinds need none.
 */
template <typename Field>
void RecordFieldType(int32_t type_index, const char* name) {
  if constexpr (FieldKindOf<Field>::kKind == kP4JFieldObject) {
    std::string type_name = FieldKindOf<Field>::TypeName();
    P4JByteArray name_span = ByteArrayOf(std::string_view(name));
    P4JByteArray type_span = ByteArrayOf(type_name);
    CheckCall(P4JTypeSetFieldType(type_index, &name_span, &type_span));
  }
}

}  // namespace details

/*!
 * \brief Receives the fields an object declares in VisitAttrs.
 *
 * Supported field types: int (int32_t), int64_t, uint64_t, double, bool, std::string and any ObjectRef
 * subclass (Calculator, List<T>, Map<K,V>, String, ...). Any other type fails to compile, because the Java
 * side could not read it.
 *
 * \code
 *   void VisitAttrs(AttrVisitor* v) final {
 *     v->Visit("brand", &brand);
 *     v->Visit("price", &price);
 *   }
 * \endcode
 */
class AttrVisitor {
 public:
  virtual ~AttrVisitor() = default;

  /*! \brief Declares one field: its name (a string literal) and its address in the object. */
  template <typename T>
  void Visit(const char* name, T* field) {
    using Field = std::remove_cv_t<T>;
    static_assert(details::FieldKindOf<Field>::kSupported,
                  "packed4j::AttrVisitor::Visit: unsupported field type. Fields may be int (int32_t), int64_t, "
                  "uint64_t, double, bool, std::string or an ObjectRef subclass (e.g. List<int64_t>, a ref type)");
    if constexpr (details::FieldKindOf<Field>::kSupported) {  // no follow-on errors after the assertion
      VisitField(name, details::FieldKindOf<Field>::kKind, const_cast<Field*>(field),
                 static_cast<int64_t>(sizeof(Field)), details::FieldKindOf<Field>::ObjectTypeIndex());
      if constexpr (details::FieldKindOf<Field>::kKind == kP4JFieldObject) {
        VisitFieldType(name, details::FieldKindOf<Field>::TypeName());
      }
    }
  }

 protected:
  /*!
   * \brief Receives the declared type of an object field, after its VisitField: "list<string>", "Calculator" (what
   *  a typed signature names the C++ type). Ignored unless overridden.
   */
  virtual void VisitFieldType(const char* name, const std::string& type_name) {
    (void)name;
    (void)type_name;
  }

  /*!
   * \brief Receives one field. \param object_type_index the declared object type for kP4JFieldObject, else 0.
   */
  virtual void VisitField(const char* name, P4JFieldKind kind, void* address, int64_t size,
                          int32_t object_type_index) = 0;
};

namespace details {

/*! \brief Records fields relative to one object's handle. */
class FieldRecorder : public AttrVisitor {
 public:
  explicit FieldRecorder(const P4JObject* handle) : handle_(reinterpret_cast<const char*>(handle)) {}

  /*! \brief The recorded fields; names point into this recorder. */
  std::vector<P4JFieldInfo> Fields() const {
    std::vector<P4JFieldInfo> fields;
    for (size_t i = 0; i < names_.size(); ++i) {
      P4JFieldInfo info = infos_[i];
      info.name = ByteArrayOf(names_[i]);
      fields.push_back(info);
    }
    return fields;
  }

 protected:
  void VisitField(const char* name, P4JFieldKind kind, void* address, int64_t size,
                  int32_t object_type_index) override {
    P4JFieldInfo info{};
    info.kind = kind;
    info.object_type_index = object_type_index;
    info.offset = static_cast<int64_t>(static_cast<const char*>(address) - handle_);
    info.size = size;
    names_.emplace_back(name);
    infos_.push_back(info);
  }

  void VisitFieldType(const char* name, const std::string& type_name) override {
    types_.emplace_back(name, type_name);
  }

 public:
  /*! \brief Records the declared types of the object fields (P4JTypeSetFieldType), once the fields are registered. */
  void RegisterFieldTypes(int32_t type_index) const {
    for (const auto& [name, type_name] : types_) {
      P4JByteArray name_span = ByteArrayOf(name);
      P4JByteArray type_span = ByteArrayOf(type_name);
      CheckCall(P4JTypeSetFieldType(type_index, &name_span, &type_span));
    }
  }

 private:
  const char* handle_;
  std::vector<std::string> names_;
  std::vector<P4JFieldInfo> infos_;
  std::vector<std::pair<std::string, std::string>> types_;
};

/*!
 * \brief Calls T::VisitAttrs on storage that holds no constructed T (for types without a default constructor).
 *  Only member addresses are taken, never values, so the missing object is never read; the sanitizer's
 *  dynamic type check is disabled for this one call because the missing vtable pointer is intended.
 */
template <typename T>
__attribute__((no_sanitize("vptr"))) void VisitAttrsOnStorage(T* storage, AttrVisitor* visitor) {
  storage->T::VisitAttrs(visitor);
}

/*!
 * \brief Whether objects of T opt out of structural comparison (StructuralEqual, StructuralHash and DeepCopy treat
 *  them by identity): T, or a base of T, declares `static constexpr bool _type_compare_by_identity = true;`.
 */
template <typename T, typename = void>
struct ComparesByIdentity : std::false_type {};

/*! \brief The declared value of T::_type_compare_by_identity. */
template <typename T>
struct ComparesByIdentity<T, std::void_t<decltype(T::_type_compare_by_identity)>>
    : std::bool_constant<static_cast<bool>(T::_type_compare_by_identity)> {};

/*!
 * \brief The creation hook of a default-constructible T, as a P4JSafeCallType: no arguments, a new T (its
 *  fields as T() leaves them) as the result. LoadJSON and DeepCopy create objects of T through it.
 */
template <typename T>
int CreateDefaultObject(void* self, const P4JAny* args, int32_t num_args, P4JAny* result) noexcept {
  (void)self;
  (void)args;
  (void)num_args;
  try {
    P4JObject* handle = make_object<T>().release();
    *result = NoneValue();
    result->type_index = handle->type_index;
    result->v_obj = handle;
    return 0;
  } catch (...) {
    RaiseCurrentException();
    *result = NoneValue();
    return -1;
  }
}

/*! \brief The core's global that records the creation hook and the identity flag of a type (see serialization.h). */
constexpr const char* kRegisterObjectCreatorName = "packed4j_internal.RegisterObjectCreator";

/*!
 * \brief Hands the core T's creation hook (none when T has no default constructor) and its identity flag.
 *  A core older than the hook has no such global; the type then simply cannot be created from data.
 */
template <typename T>
void RecordObjectCreator(int32_t type_index) {
  P4JByteArray name = ByteArrayOf(kRegisterObjectCreatorName);
  P4JObjectHandle registrar = nullptr;
  CheckCall(P4JFunctionGetGlobal(&name, &registrar));
  if (registrar == nullptr) return;
  P4JObjectHandle creator = nullptr;
  if constexpr (std::is_default_constructible<T>::value) {
    CheckCall(P4JFunctionCreate(nullptr, &CreateDefaultObject<T>, nullptr, &creator));
  }
  P4JAny args[3] = {NoneValue(), NoneValue(), NoneValue()};
  args[0].type_index = kP4JInt;
  args[0].v_int64 = type_index;
  if (creator != nullptr) {
    args[1].type_index = kP4JFunction;
    args[1].v_obj = creator;
  }
  args[2].type_index = kP4JBool;
  args[2].v_int64 = ComparesByIdentity<T>::value ? 1 : 0;
  P4JAny result = NoneValue();
  int status = P4JFunctionCall(registrar, args, 3, &result);
  if (creator != nullptr) DecRef(creator);  // the core keeps its own reference
  if (status != 0) ThrowLastError();
}

/*!
 * \brief Runs registration, which records part of T's layout with the registry (its fields, their declared types);
 *  when the registry refuses it (another library registered other fields or element types for the key first, which
 *  it keeps), this library's make_object<T> refuses to make objects the Java side would read at the other library's
 *  offsets or type otherwise (LayoutRefusal), and the error is rethrown.
 */
template <typename T, typename Registration>
void RegisterLayoutOrRefuse(Registration&& registration) {
  try {
    registration();
  } catch (const std::exception& refused) {
    RefuseLayout<T>(refused.what());
    throw;
  }
}

/*! \brief Records T's fields and their declared types, as VisitAttrs found them (RegisterLayoutOrRefuse). */
template <typename T>
void RegisterFieldsOrRefuse(int32_t type_index, const std::vector<P4JFieldInfo>& fields,
                            const FieldRecorder& recorder) {
  RegisterLayoutOrRefuse<T>([&] {
    CheckCall(P4JTypeRegisterFields(type_index, fields.data(), static_cast<int32_t>(fields.size())));
    recorder.RegisterFieldTypes(type_index);  // another library's element types for the key are a conflict too
  });
}

/*!
 * \brief Allocates T's type index and records its fields; run by P4J_REGISTER_OBJECT_TYPE at load.
 *
 * VisitAttrs is called non-virtually (T's own version) on a default-constructed instance; a type without a
 * default constructor is visited on aligned raw storage, which works because VisitAttrs only takes member
 * addresses. Then the core gets T's creation hook (RecordObjectCreator). A failure is written to stderr rather
 * than thrown: an exception here would end the process while the library is still being loaded. abi_version is
 * the ABI version of the headers the library was compiled with (the default is evaluated in the library, where the
 * macro is expanded); the core refuses a version it cannot read (P4JPluginCheckAbiVersion), and then nothing of the
 * type is registered.
 */
template <typename T>
int RegisterObjectType(const char* type_name, int32_t abi_version = P4J_PLUGIN_ABI_VERSION) noexcept {
  try {
    CheckCall(P4JPluginCheckAbiVersion(abi_version));
    int32_t type_index = T::RuntimeTypeIndex();
    std::vector<P4JFieldInfo> fields;
    if constexpr (std::is_default_constructible<T>::value) {
      std::unique_ptr<T> instance(new T());
      FieldRecorder recorder(static_cast<const P4JObject*>(static_cast<const Object*>(instance.get())));
      instance->T::VisitAttrs(&recorder);
      fields = recorder.Fields();
      RegisterFieldsOrRefuse<T>(type_index, fields, recorder);
    } else {
      struct alignas(T) Storage {
        unsigned char bytes[sizeof(T)];
      };
      std::unique_ptr<Storage> storage(new Storage());
      T* instance = reinterpret_cast<T*>(storage.get());
      FieldRecorder recorder(static_cast<const P4JObject*>(static_cast<const Object*>(instance)));
      VisitAttrsOnStorage(instance, &recorder);
      fields = recorder.Fields();
      RegisterFieldsOrRefuse<T>(type_index, fields, recorder);
    }
    RecordObjectCreator<T>(type_index);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "packed4j: cannot register object type %s: %s\n", type_name, error.what());
  } catch (...) {
    std::fprintf(stderr, "packed4j: cannot register object type %s: unknown exception\n", type_name);
  }
  return 0;
}

}  // namespace details
}  // namespace packed4j

/*!
 * \brief Registers an object type when its library is loaded and records its fields (at namespace scope).
 *
 * Without it a type still gets its index on the first make_object, but no field metadata: reflection
 * (P4JObjectGetAttr, the Java field accessors) needs this macro.
 *
 * \code
 *   P4J_REGISTER_OBJECT_TYPE(CalculatorObject);
 * \endcode
 */
#define P4J_REGISTER_OBJECT_TYPE(TypeName)                                              \
  static const int P4J_STR_CONCAT(p4j_object_type_registration_, __COUNTER__) P4J_ATTRIBUTE_UNUSED = \
      ::packed4j::details::RegisterObjectType<TypeName>(#TypeName)

#endif  // PACKED4J_REFLECTION_H_
