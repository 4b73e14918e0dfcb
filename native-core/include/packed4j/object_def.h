/*!
 * \file packed4j/object_def.h
 * \brief Object definitions: a type's methods, static methods, constructor, field mutability and doc strings,
 *  registered beside VisitAttrs with P4J_REGISTER_OBJECT_DEF (in the style of tvm-ffi's refl::ObjectDef).
 *
 * Each member becomes a function object in the type's method table (P4JTypeRegisterMethod), made exactly as
 * set_body_typed makes a global: the same argument checks, the same recorded signature and the same typed entry, so
 * a caller that knows the signature calls a method at the speed of a typed global. A method's function takes the
 * object first ("(Calculator, int64, int64) -> int64"); a static method's is the plain function; the constructor's,
 * named "__init__", returns the new object. A lookup by name (GetMethod, P4JTypeFindMethod) walks the parents, so a
 * child inherits its parent's methods and overrides one by defining the same name; constructors are not inherited.
 * Functions are named "TypeKey.name" in messages ("Calculator.add: argument 1 expected int64, got ...").
 *
 * \code
 *   P4J_REGISTER_OBJECT_DEF(CalculatorObject, "A pocket calculator")
 *       .def_ro("brand", &CalculatorObject::brand, "who made it")
 *       .def_rw("price", &CalculatorObject::price, "what it costs")
 *       .def("add", &CalculatorObject::Add, "adds two numbers", {"a", "b"})
 *       .def_static("parse", &ParseCalculator, "reads \"brand:price\"", {"text"})
 *       .def(init<std::string, int64_t>(), "a calculator of a brand and price", {"brand", "price"});
 * \endcode
 */
#ifndef PACKED4J_OBJECT_DEF_H_
#define PACKED4J_OBJECT_DEF_H_

#include <packed4j/function.h>
#include <packed4j/reflection.h>

#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace packed4j {

/*!
 * \brief Names a constructor's parameter types for ObjectDef::def: `.def(init<std::string, int64_t>())` registers
 *  "__init__", which makes the object with `make_object<T>(args...)` (so T needs that constructor).
 */
template <typename... Args>
struct init {};

namespace details {

/*! \brief The function behind a method given as a member function pointer: calls it on the object (the first arg). */
template <typename T, typename Method>
struct MethodAdapter;

/*! \brief A non-const member function. */
template <typename T, typename C, typename R, typename... A>
struct MethodAdapter<T, R (C::*)(A...)> {
  static_assert(std::is_base_of<C, T>::value, "ObjectDef<T>::def: the member function is not of T or of a base of T");
  R (C::*method)(A...);
  R operator()(const ObjectPtr<T>& self, A... args) const { return ((*self).*method)(std::forward<A>(args)...); }
};
/*! \brief A const member function. */
template <typename T, typename C, typename R, typename... A>
struct MethodAdapter<T, R (C::*)(A...) const> {
  static_assert(std::is_base_of<C, T>::value, "ObjectDef<T>::def: the member function is not of T or of a base of T");
  R (C::*method)(A...) const;
  R operator()(const ObjectPtr<T>& self, A... args) const { return ((*self).*method)(std::forward<A>(args)...); }
};
/*! \brief A noexcept member function. */
template <typename T, typename C, typename R, typename... A>
struct MethodAdapter<T, R (C::*)(A...) noexcept> {
  static_assert(std::is_base_of<C, T>::value, "ObjectDef<T>::def: the member function is not of T or of a base of T");
  R (C::*method)(A...) noexcept;
  R operator()(const ObjectPtr<T>& self, A... args) const { return ((*self).*method)(std::forward<A>(args)...); }
};
/*! \brief A const noexcept member function. */
template <typename T, typename C, typename R, typename... A>
struct MethodAdapter<T, R (C::*)(A...) const noexcept> {
  static_assert(std::is_base_of<C, T>::value, "ObjectDef<T>::def: the member function is not of T or of a base of T");
  R (C::*method)(A...) const noexcept;
  R operator()(const ObjectPtr<T>& self, A... args) const { return ((*self).*method)(std::forward<A>(args)...); }
};

/*!
 * \brief Whether P, a method's first parameter (decayed), can be the object of type T: ObjectPtr<U> or a reference
 *  class of U, for U = T or a base of T (ObjectRef itself for any object), as the core checks when it records the
 *  method.
 */
template <typename T, typename P, typename = void>
struct IsSelfParameter : std::false_type {};
template <typename T, typename U>
struct IsSelfParameter<T, ObjectPtr<U>, void> : std::is_base_of<U, T> {};
template <typename T, typename P>
struct IsSelfParameter<T, P, std::enable_if_t<std::is_base_of<ObjectRef, P>::value>>
    : std::is_base_of<typename P::ContainerType, T> {};

/*! \brief The constructor function of init<A...>: make_object<T>(args...). */
template <typename T, typename... A>
struct ConstructorAdapter {
  ObjectPtr<T> operator()(A... args) const { return make_object<T>(std::forward<A>(args)...); }
};

/*!
 * \brief The offset from the handle of T's member field: only addresses are computed, on storage that holds no T,
 *  so the sanitizer's dynamic type check is off for this function (as for VisitAttrsOnStorage).
 */
template <typename T, typename C, typename F>
__attribute__((no_sanitize("vptr"))) int64_t MemberOffset(F C::*field) {
  struct alignas(T) Storage {
    unsigned char bytes[sizeof(T)];
  };
  std::unique_ptr<Storage> storage(new Storage());
  T* instance = reinterpret_cast<T*>(storage.get());
  const char* handle = reinterpret_cast<const char*>(static_cast<P4JObject*>(static_cast<Object*>(instance)));
  const char* member = reinterpret_cast<const char*>(&(static_cast<C*>(instance)->*field));
  return static_cast<int64_t>(member - handle);
}

/*! \brief Spans of names, for the C API; they point into names. */
inline std::vector<P4JByteArray> SpansOf(const std::vector<std::string>& names) {
  std::vector<P4JByteArray> spans;
  for (const std::string& name : names) spans.push_back(ByteArrayOf(name));
  return spans;
}

}  // namespace details

/*!
 * \brief Registers an object type's members: fields with their mutability and doc, methods, static methods and a
 *  constructor, each with a doc string and parameter names. Every call registers at once; a failure is written to
 *  stderr (registration runs while the library loads, where nothing may throw) and the definition goes on with the
 *  next member. Use it through P4J_REGISTER_OBJECT_DEF at namespace scope.
 *
 * \tparam T the object type (declared with P4J_DECLARE_OBJECT_TYPE_INFO); VisitAttrs and P4J_REGISTER_OBJECT_TYPE
 *  stay as they are and may be used beside it.
 */
template <typename T>
class ObjectDef {
 public:
  /*!
   * \brief Starts the definition of T with its doc string (may be empty). The entry lives until the library is
   *  unloaded. \param abi_version the ABI version of the headers the registering library was compiled with.
   */
  static ObjectDef& Register(const char* doc = "", int32_t abi_version = P4J_PLUGIN_ABI_VERSION) {
    std::unique_ptr<ObjectDef> entry(new ObjectDef(doc, abi_version));
    ObjectDef& made = *entry;
    std::lock_guard<std::mutex> lock(EntriesMutex());  // as Registry::Register: callers on several threads
    Entries().push_back(std::move(entry));
    return made;
  }

  /*!
   * \brief Declares a read-only field (Java gets a getter): records it for reflection as VisitAttrs would, with doc.
   * \param name the field's name. \param field the member, e.g. &CalculatorObject::brand. \param doc its doc string.
   */
  template <typename C, typename F>
  ObjectDef& def_ro(const char* name, F C::*field, const char* doc = "") {
    return Field(name, field, 0, doc);
  }

  /*!
   * \brief Declares a writable field (Java gets a getter and a setter; P4JObjectSetField writes it): a number is
   *  written with one store, a string or object swapped under the object's field lock.
   * \param name the field's name. \param field the member, e.g. &CalculatorObject::price. \param doc its doc string.
   */
  template <typename C, typename F>
  ObjectDef& def_rw(const char* name, F C::*field, const char* doc = "") {
    return Field(name, field, P4J_FIELD_MUTABLE, doc);
  }

  /*!
   * \brief Declares a method: a member function of T (or of a base), or a callable whose first parameter is the
   *  object (ObjectPtr<T> or a reference class of T). Its function takes the object first. Taken as a const
   *  reference (`const ObjectPtr<T>&`, as a member function's adapter takes it), the object is lent for the call:
   *  no reference count is taken or dropped; taken by value, the body gets a reference of its own.
   * \param name the method's name. \param method the member function or callable. \param doc its doc string.
   * \param param_names the names of the parameters after the object (none, or one per parameter).
   */
  template <typename M>
  ObjectDef& def(const char* name, M method, const char* doc = "", std::vector<std::string> param_names = {}) {
    if constexpr (std::is_member_function_pointer<M>::value) {
      return Member(name, kP4JMethodInstance, details::MethodAdapter<T, M>{method}, doc, param_names);
    } else {
      using Params = typename details::CallableTraits<M>::Params;
      static_assert(std::tuple_size<Params>::value >= 1,
                    "ObjectDef::def: a method given as a callable takes the object as its first parameter");
      if constexpr (std::tuple_size<Params>::value >= 1) {
        static_assert(details::IsSelfParameter<T, std::decay_t<std::tuple_element_t<0, Params>>>::value,
                      "ObjectDef<T>::def: a method given as a callable takes the object first: ObjectPtr<T>, a "
                      "reference class of T, or either of a base of T (ObjectRef for any object)");
      }
      return Member(name, kP4JMethodInstance, std::move(method), doc, param_names);
    }
  }

  /*!
   * \brief Declares a static method: a plain function tied to the type.
   * \param name its name. \param function a function pointer or lambda. \param doc its doc string.
   * \param param_names the names of its parameters (none, or one per parameter).
   */
  template <typename F>
  ObjectDef& def_static(const char* name, F function, const char* doc = "",
                        std::vector<std::string> param_names = {}) {
    return Member(name, kP4JMethodStatic, std::move(function), doc, param_names);
  }

  /*!
   * \brief Declares the constructor, "__init__": make_object<T>(args...) with arguments of the types named.
   * \param doc its doc string. \param param_names the names of its parameters (none, or one per parameter).
   */
  template <typename... A>
  ObjectDef& def(init<A...>, const char* doc = "", std::vector<std::string> param_names = {}) {
    static_assert(std::is_constructible<T, A...>::value,
                  "ObjectDef::def(init<A...>): T has no constructor taking these argument types");
    return Member(P4J_CONSTRUCTOR_NAME, kP4JMethodConstructor, details::ConstructorAdapter<T, A...>{}, doc,
                  param_names);
  }

  /*! \brief T's type index. */
  int32_t type_index() const { return T::RuntimeTypeIndex(); }

 private:
  ObjectDef(const char* doc, int32_t abi_version) {
    static_assert(std::is_base_of<Object, T>::value, "ObjectDef<T>: T must derive from packed4j::Object");
    try {
      details::CheckCall(P4JPluginCheckAbiVersion(abi_version));
      std::string text(doc != nullptr ? doc : "");
      P4JByteArray span = details::ByteArrayOf(text);
      details::CheckCall(P4JTypeSetDoc(T::RuntimeTypeIndex(), &span));
      accepted_ = true;
    } catch (const std::exception& error) {
      Report("the type", error.what());
    }
  }

  template <typename C, typename F>
  ObjectDef& Field(const char* name, F C::*field, int32_t flags, const char* doc) {
    static_assert(std::is_base_of<C, T>::value, "ObjectDef: the field must be a member of T or of a base of T");
    using FieldType = std::remove_cv_t<F>;
    static_assert(details::FieldKindOf<FieldType>::kSupported,
                  "ObjectDef: unsupported field type. Fields may be int (int32_t), int64_t, uint64_t, double, bool, "
                  "std::string or an ObjectRef subclass (e.g. List<int64_t>, a ref type)");
    if (!accepted_) return *this;
    try {
      if constexpr (details::FieldKindOf<FieldType>::kSupported) {
        P4JFieldInfo info{};
        info.name = details::ByteArrayOf(std::string_view(name));
        info.kind = details::FieldKindOf<FieldType>::kKind;
        info.object_type_index = details::FieldKindOf<FieldType>::ObjectTypeIndex();
        info.offset = details::MemberOffset<T>(field);
        info.size = static_cast<int64_t>(sizeof(FieldType));
        std::string text(doc != nullptr ? doc : "");
        P4JByteArray doc_span = details::ByteArrayOf(text);
        details::RegisterLayoutOrRefuse<T>([&] {
          details::CheckCall(P4JTypeRegisterField(T::RuntimeTypeIndex(), &info, flags, &doc_span));
          details::RecordFieldType<FieldType>(T::RuntimeTypeIndex(), name);
        });
      }
    } catch (const std::exception& error) {
      Report("field \"" + std::string(name) + "\"", error.what());
    }
    return *this;
  }

  template <typename F>
  ObjectDef& Member(const char* name, int32_t kind, F body, const char* doc,
                    const std::vector<std::string>& param_names) {
    if (!accepted_) return *this;
    try {
      using Traits = details::CallableTraits<F>;
      PackedFunc function = details::TypedFunctionFactory<F, typename Traits::Result, typename Traits::Params>::Make(
          std::move(body), std::string(T::_type_key) + "." + name, kind == kP4JMethodInstance ? 1 : 0);
      P4JByteArray name_span = details::ByteArrayOf(std::string_view(name));
      std::string text(doc != nullptr ? doc : "");
      P4JByteArray doc_span = details::ByteArrayOf(text);
      std::vector<P4JByteArray> names = details::SpansOf(param_names);
      details::CheckCall(P4JTypeRegisterMethod(T::RuntimeTypeIndex(), &name_span, kind, function.handle(), &doc_span,
                                               names.empty() ? nullptr : names.data(),
                                               static_cast<int32_t>(names.size())));
    } catch (const std::exception& error) {
      Report("\"" + std::string(name) + "\"", error.what());
    }
    return *this;
  }

  static void Report(const std::string& what, const char* message) noexcept {
    std::fprintf(stderr, "packed4j: cannot register %s of object type %s: %s\n", what.c_str(), T::_type_key,
                 message);
  }

  /*! \brief This library's definitions of T (hidden, so each library has its own: a default-visibility function's
   *  static would be a GNU unique symbol, one vector for every library loaded, destroyed at exit by one of them). */
  __attribute__((visibility("hidden"))) static std::vector<std::unique_ptr<ObjectDef>>& Entries() {
    static std::vector<std::unique_ptr<ObjectDef>> entries;
    return entries;
  }

  /*! \brief Guards Entries() (hidden, as it is). */
  __attribute__((visibility("hidden"))) static std::mutex& EntriesMutex() {
    static std::mutex mutex;
    return mutex;
  }

  bool accepted_ = false;
};

/*!
 * \brief The method, static method or constructor ("__init__") name of the type type_index, looked up through its
 *  parents (the nearest wins; constructors only on the type itself). AttributeError listing what the type has when
 *  none is found.
 * \code PackedFunc add = GetMethod(CalculatorObject::RuntimeTypeIndex(), "add"); add(calc, 1, 2); \endcode
 */
inline PackedFunc GetMethod(int32_t type_index, std::string_view name) {
  P4JByteArray span = details::ByteArrayOf(name);
  const P4JMethodInfo* info = nullptr;
  details::CheckCall(P4JTypeFindMethod(type_index, &span, &info));
  return details::ObjectRefAccess::FromBorrowedHandle<PackedFunc>(info->function);
}

/*!
 * \brief Reads the field `name` of `obj` by name, as Java's NativeObject.get does: for an object whose class this code
 *  cannot see, such as one of another library's types. Gives an int, bool or float, a String, an object or None;
 *  AttributeError naming the type and its fields when it has no such field, TypeError for an undefined `obj`.
 * \code int64_t count = GetAttr(counter, "count").cast<int64_t>(); \endcode
 */
template <typename Ref>
inline Any GetAttr(const Ref& obj, std::string_view name) {
  if (obj.handle() == nullptr) {
    throw TypeError("GetAttr(\"" + std::string(name) + "\"): expected an object, got None");
  }
  P4JByteArray span = details::ByteArrayOf(name);
  P4JAny out;
  details::CheckCall(P4JObjectGetAttr(const_cast<P4JObject*>(obj.handle()), &span, &out));
  return Any::FromOwned(out);
}

/*!
 * \brief Writes the field `name` of `obj` by name, as Java's NativeObject.set does: checked against the field's
 *  mutability (ValueError "read-only") and declared type (TypeError or ValueError naming the expected type, elements
 *  of a container included), a number with one store, a string or object swapped under the lock Java's setters take.
 */
template <typename Ref>
inline void SetAttr(const Ref& obj, std::string_view name, const Any& value) {
  if (obj.handle() == nullptr) {
    throw TypeError("SetAttr(\"" + std::string(name) + "\"): expected an object, got None");
  }
  P4JByteArray span = details::ByteArrayOf(name);
  try {
    details::CheckCall(P4JObjectSetAttr(const_cast<P4JObject*>(obj.handle()), &span, &value.raw()));
  } catch (const Error& error) {
    // The core names its C function ("P4JObjectSetField: field ..."); the caller called this one.
    constexpr std::string_view kCName = "P4JObjectSetField: ";
    if (error.message().compare(0, kCName.size(), kCName) != 0) throw;
    throw Error(error.kind(), "SetAttr: " + error.message().substr(kCName.size()), error.backtrace());
  }
}

/*! \brief The doc string and parameter names a registration gave (empty when none). */
struct DocInfo {
  /*! \brief The doc string. */
  std::string doc;
  /*! \brief The parameter names (after the object, for a method). */
  std::vector<std::string> param_names;
};

/*! \brief The doc string and parameter names of a member of the type's method table (found as GetMethod finds it). */
inline DocInfo GetMethodDoc(int32_t type_index, std::string_view name) {
  P4JByteArray span = details::ByteArrayOf(name);
  const P4JMethodInfo* info = nullptr;
  details::CheckCall(P4JTypeFindMethod(type_index, &span, &info));
  DocInfo doc{std::string(details::ViewOf(info->doc)), {}};
  for (int32_t i = 0; i < info->num_param_names; ++i) {
    doc.param_names.emplace_back(details::ViewOf(info->param_names[i]));
  }
  return doc;
}

/*! \brief The doc string and parameter names of a registered global (KeyError when none is registered). */
inline DocInfo GetGlobalDoc(std::string_view name) {
  P4JByteArray span = details::ByteArrayOf(name);
  P4JByteArray doc_span{nullptr, 0};
  const P4JByteArray* names = nullptr;
  int32_t num_names = 0;
  details::CheckCall(P4JFunctionGetGlobalDoc(&span, &doc_span, &names, &num_names));
  DocInfo doc{std::string(details::ViewOf(doc_span)), {}};
  for (int32_t i = 0; i < num_names; ++i) doc.param_names.emplace_back(details::ViewOf(names[i]));
  return doc;
}

}  // namespace packed4j

/*!
 * \brief Starts an object definition of TypeName when the library is loaded (at namespace scope), with the type's
 *  doc string, followed by .def_ro, .def_rw, .def, .def_static and .def(init<...>()).
 *
 * \code
 *   P4J_REGISTER_OBJECT_DEF(CalculatorObject, "A pocket calculator").def_rw("price", &CalculatorObject::price);
 * \endcode
 */
#define P4J_REGISTER_OBJECT_DEF(TypeName, Doc)                                                             \
  static ::packed4j::ObjectDef<TypeName>& P4J_STR_CONCAT(p4j_object_def_, __COUNTER__) P4J_ATTRIBUTE_UNUSED = \
      ::packed4j::ObjectDef<TypeName>::Register(Doc)

#endif  // PACKED4J_OBJECT_DEF_H_
