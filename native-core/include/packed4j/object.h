/*!
 * \file packed4j/object.h
 * \brief Objects: the intrusive header, ObjectPtr, ObjectRef, make_object and the type info macros.
 *
 * Every object is a C++ class derived from Object. Object's first base subobject is the C header P4JObject
 * (type index, reference count, deleter); a handle is a pointer to that header, not to the C++ object (whose
 * vtable pointer comes first). So a derived object's fields sit after the header at offsets that hold for
 * every instance, which the reflection metadata records and the Java side reads straight from memory.
 *
 * Memory returns to the library that allocated it: make_object stores a deleter compiled into the calling
 * library, and whoever drops the last reference calls that deleter through the header.
 */
#ifndef PACKED4J_OBJECT_H_
#define PACKED4J_OBJECT_H_

#include <packed4j/base.h>
#include <packed4j/error.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

namespace packed4j {

class AttrVisitor;
class Object;
class ObjectRef;

namespace details {

/*! \brief Takes one more reference (relaxed: a new reference needs no ordering with other memory). */
inline void IncRef(P4JObject* handle) noexcept { __atomic_fetch_add(&handle->ref_counter, 1, __ATOMIC_RELAXED); }

/*!
 * \brief The objects whose last reference was dropped while a deleter was running on this thread.
 *
 * Deleting an object drops the references it holds, and a deleter that ran each of those deleters in turn would
 * use native stack in proportion to the depth of the graph: a list nested 25,000 deep overflowed it. Instead the
 * outermost release on a thread runs its deleter and then, one at a time, the deleters of everything that became
 * unreferenced meanwhile, so releasing a graph of any depth takes constant stack. The pending objects form a
 * stack linked through their ref_counter, which is dead once it reached zero: no allocation, nothing to free.
 *
 * Libraries built with hidden visibility (the core among them) have a copy each, others may share one; either
 * works: a deleter of library A dropping a reference to an object of library B goes through B's copy, which
 * queues it when B is already releasing and otherwise runs it there, one level deeper, with any further release
 * queued in B's or A's worklist. A queue holds only objects and their own deleters, so sharing one is harmless.
 */
struct PendingReleases {
  P4JObject* head = nullptr;
  bool releasing = false;
};

inline thread_local PendingReleases pending_releases;

/*! \brief Runs the deleter of an object whose count reached zero, or queues it behind the running release. */
inline void ReleaseUnreferenced(P4JObject* handle) noexcept {
  PendingReleases* pending = &pending_releases;
  // GCC treats a thread-local's address as a constant it may compute again after every call, and did: a second
  // TLS lookup (__tls_get_addr in a shared library) after the deleter. The empty asm makes the address an opaque
  // value, kept in a register across the calls; it is the same for the whole of this call on this thread.
  __asm__("" : "+r"(pending));
  if (pending->releasing) {
    handle->ref_counter = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(pending->head));
    pending->head = handle;
    return;
  }
  pending->releasing = true;
  handle->deleter(handle);
  while (pending->head != nullptr) {
    P4JObject* next = pending->head;
    pending->head = reinterpret_cast<P4JObject*>(static_cast<uintptr_t>(next->ref_counter));
    next->ref_counter = 0;
    next->deleter(next);
  }
  pending->releasing = false;
}

/*!
 * \brief Drops a reference; the last one runs the deleter (acquire-release so the deleter sees all writes).
 *  The objects a deleter releases in turn are deleted after it returns, not inside it (see PendingReleases).
 *
 * A count of 1 seen by an acquire load is the caller's own reference and the last: no other thread holds one, so
 * none can take a new one (IncRef needs a reference to start from), and the release decrements of the others that
 * came before synchronize with that load as they would with the decrement. So the last reference is dropped without
 * an atomic read-modify-write (a plain load on x86), as libstdc++'s shared_ptr releases a unique owner; an object
 * made and released by one owner, the common case, pays no atomic operation for its count.
 */
inline void DecRef(P4JObject* handle) noexcept {
  if (__atomic_load_n(&handle->ref_counter, __ATOMIC_ACQUIRE) == 1 && handle->deleter != nullptr) {
    ReleaseUnreferenced(handle);
  } else if (__atomic_fetch_sub(&handle->ref_counter, 1, __ATOMIC_ACQ_REL) == 1 && handle->deleter != nullptr) {
    ReleaseUnreferenced(handle);
  }
}

/*! \brief The type index of key under parent, allocated by the registry on first use. Throws on conflicts. */
inline int32_t GetOrAllocTypeIndex(const char* type_key, int32_t parent_type_index, int64_t instance_size) {
  P4JByteArray key = ByteArrayOf(type_key);
  int32_t index = -1;
  CheckCall(P4JTypeGetOrAllocIndex(&key, parent_type_index, instance_size, &index));
  return index;
}

/*! \brief The registered key of a type index ("Calculator"), or "<type N>" when it is unknown. */
inline std::string TypeKeyOf(int32_t type_index) {
  const P4JTypeInfo* info = nullptr;
  if (P4JTypeGetInfo(type_index, &info) != 0 || info == nullptr) {
    ClearRaisedError();
    return "<type " + std::to_string(type_index) + ">";
  }
  return std::string(ViewOf(info->type_key));
}

/*!
 * \brief Byte offset of the P4JObject header inside T (the vtable pointer comes before it).
 *  Computed on a fake, suitably aligned address: only the base class adjustment is evaluated.
 */
template <typename T>
inline int64_t HandleOffset() {
  constexpr uintptr_t kFakeAddress = 4096 * alignof(T);
  T* fake = reinterpret_cast<T*>(kFakeAddress);
  return static_cast<int64_t>(reinterpret_cast<uintptr_t>(static_cast<P4JObject*>(fake)) - kFakeAddress);
}

/*! \brief sizeof(T) measured from the handle, as P4JTypeInfo.instance_size records it. */
template <typename T>
inline int64_t InstanceSizeFromHandle() {
  return static_cast<int64_t>(sizeof(T)) - HandleOffset<T>();
}

struct ObjectRefAccess;

}  // namespace details

/*!
 * \brief Base class of every object: the C header first, then the virtual functions, then the fields.
 *
 * \code
 *   class CalculatorObject : public Object {
 *    public:
 *     std::string brand;
 *     int price;
 *     void VisitAttrs(AttrVisitor* v) final { v->Visit("brand", &brand); v->Visit("price", &price); }
 *     static constexpr const char* _type_key = "Calculator";
 *     P4J_DECLARE_OBJECT_TYPE_INFO(CalculatorObject, Object);
 *   };
 * \endcode
 */
class Object : public P4JObject {
 public:
  /*! \brief The key of the root type. */
  static constexpr const char* _type_key = "Object";
  /*! \brief Marks which class declared the type info (make_object checks it). */
  using _p4j_self_type = Object;
  /*! \brief The root's index is fixed by the ABI. */
  static int32_t RuntimeTypeIndex() { return kP4JObject; }

  /*! \brief A fresh header; make_object fills in the type, the count and the deleter. */
  Object() noexcept : P4JObject{kP4JObject, 0u, 0u, nullptr} {}
  /*! \brief Copying an object copies its fields, never its header (the copy is a new object). */
  Object(const Object&) noexcept : P4JObject{kP4JObject, 0u, 0u, nullptr} {}
  /*! \brief Assigning keeps this object's header. */
  Object& operator=(const Object&) noexcept { return *this; }
  virtual ~Object() = default;

  /*!
   * \brief Declares the fields for reflection: `v->Visit("price", &price);` for each. Called once per type at
   *  registration (P4J_REGISTER_OBJECT_TYPE), non-virtually and on a default instance, to record offsets.
   */
  virtual void VisitAttrs(AttrVisitor* visitor) { (void)visitor; }

  /*! \brief The runtime type index of this object (from its header). */
  int32_t type_index() const noexcept { return P4JObject::type_index; }

  /*! \brief The type key of this object, e.g. "Calculator". */
  std::string GetTypeKey() const { return details::TypeKeyOf(type_index()); }

  /*!
   * \brief Whether this object is a TargetObject or derives from it (by type index, across libraries).
   * \code if (obj->IsInstance<CalculatorObject>()) { ... } \endcode
   */
  template <typename TargetObject>
  bool IsInstance() const {
    int32_t target = TargetObject::RuntimeTypeIndex();
    int32_t own = type_index();
    if (own == target || target == kP4JObject) return true;
    return P4JTypeIsInstanceOf(own, target) != 0;
  }

  /*! \brief The handle (the header) of this object. */
  P4JObject* handle() noexcept { return this; }
  /*! \brief The handle (the header) of this object. */
  const P4JObject* handle() const noexcept { return this; }

  /*! \brief The current reference count (for tests and diagnostics). */
  uint64_t use_count() const noexcept { return __atomic_load_n(&ref_counter, __ATOMIC_RELAXED); }
};

namespace details {

/*! \brief The deleter make_object stores: runs in the library that allocated the object. */
template <typename T>
void ObjectDeleter(P4JObject* handle) {
  delete static_cast<T*>(static_cast<Object*>(handle));
  __atomic_fetch_sub(LiveCounter(), 1, __ATOMIC_RELAXED);
}

/*!
 * \brief Why the registry refused this library's layout of T when the library was loaded (its fields differ from
 *  those another library registered for the same type key first), or null. Set by the registration
 *  (RegisterObjectType, ObjectDef's fields) in the library that declares T, never reset: the registry keeps the first
 *  layout for the key's index, so an object of this library's T under that index would be read at the other
 *  library's offsets, and make_object refuses to make one.
 */
template <typename T>
struct __attribute__((visibility("hidden"))) LayoutRefusal {
  // Hidden: one per library (the one that declares T), where a default-visibility static of a template is a
  // GNU unique symbol that the dynamic linker shares with every library whose T has the same name.
  static inline std::atomic<const std::string*> reason{nullptr};
};

/*! \brief Records the registry's refusal of T's layout (the first reason is kept; it lives until exit). */
template <typename T>
__attribute__((visibility("hidden"))) void RefuseLayout(const std::string& reason) {
  const std::string* expected = nullptr;
  const std::string* kept = new std::string(reason);
  if (!LayoutRefusal<T>::reason.compare_exchange_strong(expected, kept)) delete kept;
}

/*! \brief The refusal of T's layout or of an ancestor's (whose fields T's objects carry), or null. */
template <typename T>
__attribute__((visibility("hidden"))) const std::string* RefusedLayout() {
  if constexpr (std::is_same<T, Object>::value) {
    return nullptr;
  } else {
    const std::string* own = LayoutRefusal<T>::reason.load(std::memory_order_acquire);
    return own != nullptr ? own : RefusedLayout<typename T::ParentType>();
  }
}

/*! \brief make_object's error for a type whose layout (or whose ancestor's) the registry refused. */
[[noreturn]] inline void ThrowRefusedLayout(const char* type_key, const std::string& reason) {
  throw Error("LoadError", std::string("cannot make an object of type \"") + type_key +
                               "\": the registry refused this library's definition of it when the library was loaded, "
                               "so its objects would be read with another library's layout (" + reason + ")");
}

}  // namespace details

static_assert(sizeof(Object) == sizeof(void*) + sizeof(P4JObject),
              "an Object is its vtable pointer and the C header, so fields start at handle + sizeof(P4JObject)");

/*!
 * \brief An intrusive owning pointer to an object of type T; copies share the object.
 *
 * It stores the handle, so an ObjectPtr (and an ObjectRef) is one pointer to the P4JObject header.
 *
 * \code
 *   ObjectPtr<CalculatorObject> calc = make_object<CalculatorObject>();
 *   calc->price = 100;
 * \endcode
 */
template <typename T>
class ObjectPtr {
 public:
  ObjectPtr() noexcept = default;
  ObjectPtr(std::nullptr_t) noexcept {}  // NOLINT(runtime/explicit): a null pointer converts naturally
  ObjectPtr(const ObjectPtr& other) noexcept : handle_(other.handle_) {
    if (handle_ != nullptr) details::IncRef(handle_);
  }
  ObjectPtr(ObjectPtr&& other) noexcept : handle_(other.handle_) { other.handle_ = nullptr; }
  /*! \brief Converts from a pointer to a derived type. */
  template <typename U, typename = std::enable_if_t<std::is_convertible<U*, T*>::value>>
  ObjectPtr(const ObjectPtr<U>& other) noexcept : handle_(other.handle()) {  // NOLINT(runtime/explicit)
    if (handle_ != nullptr) details::IncRef(handle_);
  }
  /*! \brief Converts from a pointer to a derived type, taking over its reference. */
  template <typename U, typename = std::enable_if_t<std::is_convertible<U*, T*>::value>>
  ObjectPtr(ObjectPtr<U>&& other) noexcept : handle_(other.release()) {}  // NOLINT(runtime/explicit)
  ~ObjectPtr() {
    if (handle_ != nullptr) details::DecRef(handle_);
  }

  ObjectPtr& operator=(ObjectPtr other) noexcept {
    std::swap(handle_, other.handle_);
    return *this;
  }

  /*! \brief Adopts a reference the caller owns (no increment). */
  static ObjectPtr FromOwnedHandle(P4JObject* handle) noexcept {
    ObjectPtr ptr;
    ptr.handle_ = handle;
    return ptr;
  }
  /*! \brief Takes a new reference to a borrowed handle. */
  static ObjectPtr FromBorrowedHandle(P4JObject* handle) noexcept {
    if (handle != nullptr) details::IncRef(handle);
    return FromOwnedHandle(handle);
  }

  /*! \brief The C++ object, or nullptr. */
  T* get() const noexcept { return handle_ != nullptr ? static_cast<T*>(static_cast<Object*>(handle_)) : nullptr; }
  T* operator->() const noexcept { return get(); }
  T& operator*() const noexcept { return *get(); }
  explicit operator bool() const noexcept { return handle_ != nullptr; }
  bool operator==(const ObjectPtr& other) const noexcept { return handle_ == other.handle_; }
  bool operator!=(const ObjectPtr& other) const noexcept { return handle_ != other.handle_; }
  bool operator==(std::nullptr_t) const noexcept { return handle_ == nullptr; }
  bool operator!=(std::nullptr_t) const noexcept { return handle_ != nullptr; }

  /*! \brief The handle (borrowed), or nullptr. */
  P4JObject* handle() const noexcept { return handle_; }
  /*! \brief Gives up the reference without dropping it; the caller owns the returned handle. */
  P4JObject* release() noexcept {
    P4JObject* handle = handle_;
    handle_ = nullptr;
    return handle;
  }
  /*! \brief The reference count, 0 for null. */
  uint64_t use_count() const noexcept {
    return handle_ != nullptr ? __atomic_load_n(&handle_->ref_counter, __ATOMIC_RELAXED) : 0;
  }

 private:
  P4JObject* handle_ = nullptr;
};

/*!
 * \brief Allocates an object of type T in the calling library, with one reference.
 *
 * The type index comes from T's P4J_DECLARE_OBJECT_TYPE_INFO (allocated on first use), the deleter deletes T
 * in this library, and the process-wide live count goes up by one (down again in the deleter).
 *
 * \code
 *   auto calc = make_object<CalculatorObject>();
 *   calc->brand = "casio";
 *   *rv = calc;
 * \endcode
 */
template <typename T, typename... CtorArgs>
ObjectPtr<T> make_object(CtorArgs&&... ctor_args) {
  static_assert(std::is_base_of<Object, T>::value, "make_object<T>: T must derive from packed4j::Object");
  static_assert(std::is_same<typename T::_p4j_self_type, T>::value,
                "make_object<T>: T must declare its type with P4J_DECLARE_OBJECT_TYPE_INFO(T, Parent) and a "
                "static constexpr const char* _type_key");
  int32_t type_index = T::RuntimeTypeIndex();
  if (const std::string* refused = details::RefusedLayout<T>()) {
    details::ThrowRefusedLayout(T::_type_key, *refused);
  }
  T* object = new T(std::forward<CtorArgs>(ctor_args)...);
  P4JObject* handle = static_cast<P4JObject*>(static_cast<Object*>(object));
  handle->type_index = type_index;
  handle->ref_counter = 1;
  handle->deleter = &details::ObjectDeleter<T>;
  __atomic_fetch_add(details::LiveCounter(), 1, __ATOMIC_RELAXED);
  return ObjectPtr<T>::FromOwnedHandle(handle);
}

/*!
 * \brief A reference to an object: the base of typed references such as Calculator, String or List<T>.
 *
 * A typed reference adds `operator->` (and `using ContainerType = ...Object`); the DGL form compiles as is:
 * \code
 *   class Calculator : public ObjectRef {
 *    public:
 *     const CalculatorObject* operator->() const { return static_cast<const CalculatorObject*>(obj_.get()); }
 *     using ContainerType = CalculatorObject;
 *   };
 * \endcode
 * or shorter, with P4J_DEFINE_OBJECT_REF_METHODS(Calculator, ObjectRef, CalculatorObject).
 * Its only member is one ObjectPtr, so an ObjectRef field of an object is the handle, read as such by the
 * reflection code.
 */
class ObjectRef {
 public:
  /*! \brief The object type a reference of this class points to. */
  using ContainerType = Object;

  /*! \brief A reference to nothing (None on the wire). */
  ObjectRef() noexcept = default;
  /*! \brief A reference to the object of ptr. */
  explicit ObjectRef(ObjectPtr<Object> ptr) noexcept : obj_(std::move(ptr)) {}

  /*! \brief Whether it refers to an object. */
  bool defined() const noexcept { return obj_ != nullptr; }
  /*! \brief The object, or nullptr. */
  const Object* get() const noexcept { return obj_.get(); }
  const Object* operator->() const noexcept { return obj_.get(); }
  /*! \brief Whether both refer to the same object (identity). */
  bool same_as(const ObjectRef& other) const noexcept { return obj_ == other.obj_; }
  /*! \brief Identity comparison, as same_as. */
  bool operator==(const ObjectRef& other) const noexcept { return obj_ == other.obj_; }
  bool operator!=(const ObjectRef& other) const noexcept { return obj_ != other.obj_; }
  /*! \brief The reference count of the object, 0 when undefined. */
  uint64_t use_count() const noexcept { return obj_.use_count(); }
  /*! \brief The object as a TargetObject when it is one (or derives from it), else nullptr. */
  template <typename TargetObject>
  const TargetObject* as() const {
    if (obj_ == nullptr || !obj_->template IsInstance<TargetObject>()) return nullptr;
    return static_cast<const TargetObject*>(obj_.get());
  }
  /*! \brief The handle, borrowed (nullptr when undefined). */
  P4JObject* handle() const noexcept { return obj_.handle(); }

 protected:
  /*! \brief The referenced object. */
  ObjectPtr<Object> obj_;
  friend struct details::ObjectRefAccess;
};

static_assert(sizeof(ObjectRef) == sizeof(void*), "an ObjectRef is exactly one handle (reflection reads it)");
static_assert(std::is_standard_layout<ObjectRef>::value, "an ObjectRef is exactly one handle");

namespace details {

/*! \brief Builds and takes apart references of any ObjectRef subclass, including the DGL minimal form. */
struct ObjectRefAccess {
  /*! \brief A reference of type RefT adopting an owned handle (may be nullptr). */
  template <typename RefT>
  static RefT FromOwnedHandle(P4JObject* handle) {
    if constexpr (std::is_constructible<RefT, ObjectPtr<Object>>::value) {
      return RefT(ObjectPtr<Object>::FromOwnedHandle(handle));
    } else {
      RefT ref;
      static_cast<ObjectRef&>(ref).obj_ = ObjectPtr<Object>::FromOwnedHandle(handle);
      return ref;
    }
  }
  /*! \brief A reference of type RefT taking a new reference to a borrowed handle. */
  template <typename RefT>
  static RefT FromBorrowedHandle(P4JObject* handle) {
    if (handle != nullptr) IncRef(handle);
    return FromOwnedHandle<RefT>(handle);
  }
  /*! \brief Gives up the reference; the caller owns the returned handle. */
  static P4JObject* Release(ObjectRef& ref) noexcept { return ref.obj_.release(); }
};

}  // namespace details

/*!
 * \brief A new reference of type RefT to an object that is known to be alive (e.g. `this` in a method).
 * \code Calculator self = GetRef<Calculator>(this); \endcode
 */
template <typename RefT, typename ObjectType>
RefT GetRef(const ObjectType* object) {
  P4JObject* handle = const_cast<P4JObject*>(static_cast<const P4JObject*>(static_cast<const Object*>(object)));
  return details::ObjectRefAccess::FromBorrowedHandle<RefT>(handle);
}

/*!
 * \brief Converts a reference to a derived reference type, checking the object's type (TypeError if wrong).
 *  An undefined reference stays undefined.
 * \code Calculator calc = Downcast<Calculator>(any_ref); \endcode
 */
template <typename RefT>
RefT Downcast(const ObjectRef& ref) {
  using Target = typename RefT::ContainerType;
  if (ref.defined() && !ref->IsInstance<Target>()) {
    throw TypeError("cannot downcast a " + ref->GetTypeKey() + " object to " + std::string(Target::_type_key));
  }
  return details::ObjectRefAccess::FromBorrowedHandle<RefT>(ref.handle());
}

/*!
 * \brief Holds the lock under which Java's setters and getters assign and copy an object's string and object
 *  fields (P4JObjectLockFields), so C++ code can read or write such a field while Java may set it: without it, a
 *  C++ read of a std::string member races with the setter's assignment, which frees the old characters.
 *
 *  The lock is shared by a stripe of objects and is not reentrant (a spin lock: a thread that waits for itself spins
 *  forever). Hold it only to copy values out or to move new ones in: call nothing of packed4j while holding it, take
 *  one object's at a time, and do not let an old value die under it (assigning an object field releases the old
 *  object, whose destructor may read fields): LockedWrite, or a swap into a local declared before the lock, destroys
 *  the old value after the lock is given back. Java getters of other objects on the stripe wait while it is held.
 * \code
 *   std::string name;
 *   {
 *     FieldsLock lock(self);
 *     name = self->name;   // a whole value, never one a Java setter is freeing
 *   }
 * \endcode
 */
class FieldsLock {
 public:
  /*! \brief Takes the lock of object's fields. */
  explicit FieldsLock(const Object* object) : handle_(const_cast<Object*>(object)) {
    details::CheckCall(P4JObjectLockFields(handle_));
  }
  /*! \brief Takes the lock of the object's fields. */
  template <typename T>
  explicit FieldsLock(const ObjectPtr<T>& object) : FieldsLock(static_cast<const Object*>(object.get())) {}
  /*! \brief Takes the lock of the referenced object's fields. */
  explicit FieldsLock(const ObjectRef& object) : FieldsLock(object.get()) {}
  ~FieldsLock() { P4JObjectUnlockFields(handle_); }
  FieldsLock(const FieldsLock&) = delete;
  FieldsLock& operator=(const FieldsLock&) = delete;

 private:
  P4JObject* handle_;
};

namespace details {
/*! \brief The object an ObjectPtr, a raw pointer or a reference class points at. */
template <typename T>
const T* LockTarget(const T* object) { return object; }
template <typename T>
const T* LockTarget(const ObjectPtr<T>& object) { return object.get(); }
template <typename R, typename = std::enable_if_t<std::is_base_of<ObjectRef, R>::value>>
const Object* LockTarget(const R& object) { return object.get(); }
}  // namespace details

/*!
 * \brief A copy of a member of object read under its FieldsLock: `std::string name = LockedRead(self,
 *  &NodeObject::name);`, for a string or object field Java may set while C++ reads it.
 */
template <typename Holder, typename C, typename F>
F LockedRead(const Holder& object, F C::*member) {
  const C* target = static_cast<const C*>(details::LockTarget(object));
  FieldsLock lock(static_cast<const Object*>(target));
  return target->*member;
}

/*!
 * \brief Assigns a member of object under its FieldsLock, as a Java setter does: the old value is destroyed after
 *  the lock is given back (an object it held may run a destructor). `LockedWrite(self, &NodeObject::name, text);`
 */
template <typename Holder, typename C, typename F>
void LockedWrite(const Holder& object, F C::*member, F value) {
  C* target = const_cast<C*>(static_cast<const C*>(details::LockTarget(object)));
  {
    FieldsLock lock(static_cast<const Object*>(target));
    std::swap(target->*member, value);
  }
}  // value, now the old one, is destroyed here

namespace details {

/*!
 * \brief The type index of T in this library, allocated on first use (P4J_DECLARE_OBJECT_TYPE_INFO's
 *  RuntimeTypeIndex). Hidden, so each library keeps its own: a function-local static of a default-visibility inline
 *  function is a GNU unique symbol, which the dynamic linker shares among all loaded libraries whose class has the
 *  same name, and two plugins that each name a class ItemObject (with their own type keys) then labelled the
 *  second one's objects with the first one's type.
 */
template <typename T>
struct __attribute__((visibility("hidden"))) TypeIndexCache {
  static int32_t Get() {
    static const int32_t type_index =
        GetOrAllocTypeIndex(T::_type_key, T::ParentType::RuntimeTypeIndex(), InstanceSizeFromHandle<T>());
    return type_index;
  }
};

}  // namespace details
}  // namespace packed4j

/*!
 * \brief Declares an object type inside its class, after `static constexpr const char* _type_key = "...";`.
 *
 * Defines ParentType and RuntimeTypeIndex(), which allocates the index through P4JTypeGetOrAllocIndex on first
 * use (once per library; the registry returns the same index for the same key everywhere).
 * P4J_REGISTER_OBJECT_TYPE(Type) at namespace scope also records the fields for reflection.
 *
 * \code
 *   class CalculatorObject : public Object {
 *    public:
 *     static constexpr const char* _type_key = "Calculator";
 *     P4J_DECLARE_OBJECT_TYPE_INFO(CalculatorObject, Object);
 *   };
 * \endcode
 */
#define P4J_DECLARE_OBJECT_TYPE_INFO(TypeName, ParentName)                                              \
  using ParentType = ParentName;                                                                        \
  using _p4j_self_type = TypeName;                                                                      \
  static int32_t RuntimeTypeIndex() {                                                                   \
    static_assert(std::is_base_of<ParentName, TypeName>::value, #TypeName " must derive from " #ParentName); \
    return ::packed4j::details::TypeIndexCache<TypeName>::Get();                                        \
  }                                                                                                     \
  static_assert(true, "")

/*!
 * \brief Declares a built-in object type whose index is fixed by the ABI (kP4JString, kP4JList, ...).
 *  For libpacked4j's own types; user types use P4J_DECLARE_OBJECT_TYPE_INFO.
 */
#define P4J_DECLARE_STATIC_OBJECT_TYPE_INFO(TypeName, ParentName, TypeIndex) \
  using ParentType = ParentName;                                             \
  using _p4j_self_type = TypeName;                                           \
  static int32_t RuntimeTypeIndex() { return TypeIndex; }                    \
  static_assert(true, "")

/*!
 * \brief Defines the usual members of a reference class: constructors, operator->, get() and ContainerType.
 *
 * \code
 *   class Calculator : public ObjectRef {
 *    public:
 *     P4J_DEFINE_OBJECT_REF_METHODS(Calculator, ObjectRef, CalculatorObject);
 *   };
 * \endcode
 *
 * The object type may still be incomplete here (declared, not defined), so that an object can have a field of its
 * own reference type (a tree's parent): declare `class NodeObject;`, then the reference class `Node`, then
 * `NodeObject` with its `Node parent;` field. operator-> and get() are templates for that reason, instantiated
 * where they are used (their address is `&Node::get<>`).
 */
#define P4J_DEFINE_OBJECT_REF_METHODS(TypeName, ParentRef, ObjectType)                                          \
  TypeName() noexcept = default;                                                                                \
  explicit TypeName(::packed4j::ObjectPtr<::packed4j::Object> ptr) noexcept : ParentRef(std::move(ptr)) {}      \
  template <typename P4JTarget = ObjectType>                                                                    \
  const P4JTarget* operator->() const noexcept {                                                                \
    static_assert(std::is_same<P4JTarget, ObjectType>::value, #TypeName "::operator-> gives its own object type"); \
    return static_cast<const P4JTarget*>(obj_.get());                                                           \
  }                                                                                                             \
  template <typename P4JTarget = ObjectType>                                                                    \
  const P4JTarget* get() const noexcept {                                                                       \
    static_assert(std::is_same<P4JTarget, ObjectType>::value, #TypeName "::get gives its own object type");      \
    return static_cast<const P4JTarget*>(obj_.get());                                                           \
  }                                                                                                             \
  using ContainerType = ObjectType

#endif  // PACKED4J_OBJECT_H_
