/*!
 * \file packed4j/details/function_entries.h
 * \brief The machinery behind PackedFunc's constructor, set_body and set_body_typed: the closures that hold a
 *  body, their safe-call, scalars and typed entries (the fields of P4JFunctionCell), the creation of the function
 *  object, signature strings and argument packing.
 *
 * Not part of the public API and not included on its own: packed4j/function.h includes it after declaring the
 * public types this machinery uses.
 */
#ifndef PACKED4J_DETAILS_FUNCTION_ENTRIES_H_
#define PACKED4J_DETAILS_FUNCTION_ENTRIES_H_

#ifndef PACKED4J_FUNCTION_H_
#error "include <packed4j/function.h>, which includes this header"
#endif

#include <packed4j/details/scalars_call.h>

#include <atomic>
#include <cmath>
#include <cstring>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

namespace packed4j {

template <typename Signature>
class TypedPackedFunc;

namespace details {

/*! \brief The closure behind set_body: the body and the function's name (for messages). */
template <typename Body>
struct PackedClosure {
  std::string name;
  Body body;

  /*! \brief Runs the body; *result is set (owned) when it returns, untouched when it throws. */
  void CallBody(const P4JAny* args, int32_t num_args, P4JAny* result) {
    RetValue rv;
    body(Args(args, num_args, name.c_str()), &rv);
    *result = rv.release();
  }

  static int SafeCall(void* self, const P4JAny* args, int32_t num_args, P4JAny* result) noexcept {
    try {
      static_cast<PackedClosure*>(self)->CallBody(args, num_args, result);
      return 0;
    } catch (...) {
      RaiseCurrentException();
      return -1;
    }
  }
};

/*!
 * \brief The scalars entry of a closure (P4JFunctionCell.scalars_entry): the scalars contract (CallScalars) compiled
 *  beside the closure, so the body runs inline in this frame rather than behind the core library's frame and an
 *  indirect call. It is the whole native side of a Java call over numbers to a function without a typed entry.
 */
template <typename Closure>
struct ScalarsEntry {
  static int64_t Entry(P4JObjectHandle self, int64_t shape, int64_t a0, int64_t a1, int64_t a2, int64_t a3) noexcept {
    // The commonest shapes, one or two int64 arguments and an int64 result, with their kinds known here; every
    // other shape in a frame of its own, so these two pay for none of its registers.
    if (shape == IntScalarsShape(2)) return CallIntScalars<2>(a0, a1, RunBody{CellOf<P4JFunctionCell>(self)->self});
    if (shape == IntScalarsShape(1)) return CallIntScalars<1>(a0, 0, RunBody{CellOf<P4JFunctionCell>(self)->self});
    return AnyShape(self, shape, a0, a1, a2, a3);
  }

 private:
  /*! \brief Runs the closure's body (SafeCall's contract), inlined into the caller. */
  struct RunBody {
    void* closure;
    int operator()(const P4JAny* args, int32_t num_args, P4JAny* result) const noexcept {
      return Closure::SafeCall(closure, args, num_args, result);
    }
  };

  [[gnu::noinline]] static int64_t AnyShape(P4JObjectHandle self, int64_t shape, int64_t a0, int64_t a1, int64_t a2,
                                            int64_t a3) noexcept {
    return CallScalars(shape, a0, a1, a2, a3, RunBody{CellOf<P4JFunctionCell>(self)->self});
  }
};

/*! \brief Deletes a closure in the library that created it (the function object's deleter). */
template <typename Closure>
void DeleteClosure(void* self) {
  delete static_cast<Closure*>(self);
}

/*! \brief Creates a function object around a heap closure (which the function then owns). */
template <typename Closure>
P4JObject* NewFunctionObject(Closure* closure, const std::string& signature, void* typed_entry,
                             int64_t typed_forms = 0) {
  P4JByteArray signature_bytes = ByteArrayOf(signature);
  const P4JFunctionCell cell{closure, &Closure::SafeCall, typed_entry, &ScalarsEntry<Closure>::Entry, typed_forms};
  P4JObject* handle = nullptr;
  if (P4JFunctionCreateFromCell(&cell, sizeof(cell), &DeleteClosure<Closure>, &signature_bytes, &handle) != 0) {
    delete closure;
    ThrowLastError();
  }
  return handle;
}

/*! \brief Whether TypeTraits<T> declares kWireTensor: NDArray and TensorView, passed as a tensor word. */
template <typename T, typename = void>
struct IsWireTensor : std::false_type {};
template <typename T>
struct IsWireTensor<T, std::void_t<decltype(TypeTraits<T>::kWireTensor)>>
    : std::bool_constant<TypeTraits<T>::kWireTensor> {};

/*!
 * \brief Whether TypeTraits<T> declares kWireList: the list<...> types (List, std::vector, ListView), which a typed
 *  entry takes as a list word: an object word, a borrowed list cell (P4J_LIST_WORD_BORROWED) that
 *  TypeTraits<T>::FromListCell reads, or a dense list (P4J_LIST_WORD_DENSE_I64, _F64) that FromDenseList reads.
 */
template <typename T, typename = void>
struct IsWireList : std::false_type {};
template <typename T>
struct IsWireList<T, std::void_t<decltype(TypeTraits<T>::kWireList)>> : std::bool_constant<TypeTraits<T>::kWireList> {};

/*! \brief Whether a typed entry passes a parameter of type T as a list word (see IsWireList). */
template <typename T>
constexpr bool kWireList = IsWireList<T>::value;

/*! \brief Whether a typed entry passes a parameter of type T as a tensor word (P4J_TENSOR_WORD_BORROWED). */
template <typename T>
constexpr bool kWireValue = IsWireTensor<T>::value;

/*! \brief Whether T is a box whose storing unboxes it (Value); such refs are not lent as their own handle. */
template <typename T>
struct IsBoxedValue : std::false_type {};

/*!
 * \brief Borrows a C++ value as an argument: strings become views, objects are lent; anything else is stored
 *  into keep (which lives for the call).
 */
template <typename T>
void PackArgument(T&& value, P4JAny* slot, Any* keep) {
  using Decayed = std::decay_t<T>;
  if constexpr (std::is_same<Decayed, std::string>::value || std::is_same<Decayed, std::string_view>::value ||
                std::is_same<Decayed, const char*>::value || std::is_same<Decayed, char*>::value) {
    std::string_view text(value);
    if (text.size() <= 0xffffffffu) {
      slot->type_index = kP4JStrView;
      slot->small_len = static_cast<uint32_t>(text.size());
      slot->v_ptr = const_cast<char*>(text.data());
    } else {
      *keep = Any(text);
      *slot = keep->raw();
    }
  } else if constexpr (std::is_base_of<Any, Decayed>::value) {
    *slot = value.raw();
  } else if constexpr (std::is_base_of<ObjectRef, Decayed>::value && !IsBoxedValue<Decayed>::value) {
    P4JObject* handle = value.handle();
    if (handle == nullptr) {
      *slot = NoneValue();
    } else {
      slot->type_index = handle->type_index;
      slot->zero_padding = 0;
      slot->v_obj = handle;
    }
  } else if constexpr (kWireValue<Decayed>) {
    // A TensorView: lent as the DLTensor it views, for the call.
    slot->type_index = kP4JDLTensorPtr;
    slot->zero_padding = 0;
    slot->v_ptr = const_cast<DLTensor*>(value.get());
  } else {
    *keep = Any(std::forward<T>(value));
    *slot = keep->raw();
  }
}


/*! \brief Whether F has exactly one operator() whose address can be taken (not a generic lambda, not overloaded). */
template <typename F, typename = void>
struct HasOneCallOperator : std::false_type {};
template <typename F>
struct HasOneCallOperator<F, std::void_t<decltype(&F::operator())>> : std::true_type {};

template <typename F>
struct CallableTraits;

/*! \brief A function object's traits, those of its operator(); a clear error when it has no single one. */
template <typename F, bool = HasOneCallOperator<F>::value>
struct CallOperatorTraits : CallableTraits<decltype(&F::operator())> {};
template <typename F>
struct CallOperatorTraits<F, false> {
  static_assert(sizeof(F) == 0,
                "set_body_typed and FromTyped need a callable whose parameter types are written out: a generic "
                "lambda ([](auto x) { ... }) or a function object with several operator() has none; declare the "
                "types ([](int64_t x) { ... }), or use set_body to read untyped arguments");
  using Result = void;
  using Params = std::tuple<>;
};

/*! \brief The parameter and result types of a callable: lambdas (their operator()) and function pointers. */
template <typename F>
struct CallableTraits : CallOperatorTraits<F> {};

template <typename R, typename... A>
struct CallableTraits<R (*)(A...)> {
  using Result = R;
  using Params = std::tuple<A...>;
};
template <typename R, typename... A>
struct CallableTraits<R (*)(A...) noexcept> : CallableTraits<R (*)(A...)> {};
template <typename C, typename R, typename... A>
struct CallableTraits<R (C::*)(A...)> : CallableTraits<R (*)(A...)> {};
template <typename C, typename R, typename... A>
struct CallableTraits<R (C::*)(A...) const> : CallableTraits<R (*)(A...)> {};
template <typename C, typename R, typename... A>
struct CallableTraits<R (C::*)(A...) noexcept> : CallableTraits<R (*)(A...)> {};
template <typename C, typename R, typename... A>
struct CallableTraits<R (C::*)(A...) const noexcept> : CallableTraits<R (*)(A...)> {};

/*! \brief The signature string of R(A...), in the grammar of P4JFunctionGetSignature. */
template <typename R, typename... A>
std::string SignatureOf() {
  std::string signature = "(";
  bool first = true;
  ((signature += (first ? "" : ", ") + TypeTraits<std::decay_t<A>>::TypeName(), first = false), ...);
  signature += ") -> ";
  if constexpr (std::is_void<R>::value) {
    signature += "void";
  } else {
    signature += TypeTraits<std::decay_t<R>>::TypeName();
  }
  return signature;
}

/*!
 * \brief Whether a typed entry passes a parameter of type T as a borrowed span (const P4JByteArray*): every type whose
 *  signature name is "string" (UTF-8) or "bytes".
 */
template <typename T>
constexpr bool kWireSpan = std::is_same<T, std::string_view>::value || std::is_same<T, std::string>::value ||
                           std::is_same<T, String>::value || std::is_same<T, Bytes>::value ||
                           std::is_same<T, BytesView>::value;

/*! \brief Whether T is an ObjectPtr. */
template <typename T>
struct IsObjectPtr : std::false_type {};
/*! \brief An ObjectPtr. */
template <typename T>
struct IsObjectPtr<ObjectPtr<T>> : std::true_type {};

/*! \brief Whether T is a TypedPackedFunc: a function object as PackedFunc is, though not an ObjectRef subclass. */
template <typename T>
struct IsTypedPackedFunc : std::false_type {};
/*! \brief A TypedPackedFunc. */
template <typename Signature>
struct IsTypedPackedFunc<TypedPackedFunc<Signature>> : std::true_type {};

/*!
 * \brief Whether a typed entry passes T as an object word: an object handle in an int64_t, 0 for None. Every object
 *  reference whose signature name is a type key, list<...>, map<...> or function: a typed ObjectRef subclass, an
 *  ObjectPtr or a TypedPackedFunc, but not ObjectRef itself nor ObjectPtr<Object> (signature "Object", a packed value,
 *  since ObjectRef also takes a string or bytes view), not a boxed Value ("any"), not strings, bytes or tensors (their
 *  own forms). Every type whose signature name is "function" must be one: that is what a caller passes for it.
 */
template <typename T>
constexpr bool kWireObject =
    !kWireSpan<T> && !kWireValue<T> && !kWireList<T> &&
    ((std::is_base_of<ObjectRef, T>::value && !std::is_same<T, ObjectRef>::value && !IsBoxedValue<T>::value) ||
     (IsObjectPtr<T>::value && !std::is_same<T, ObjectPtr<Object>>::value) || IsTypedPackedFunc<T>::value);

/*!
 * \brief Whether T's conversion is the plain object check of ObjectRefTraits or of ObjectPtr (type index, derived
 *  types through the registry), which a borrowed conversion repeats; a specialization with a Convert of its own is
 *  converted as before.
 */
template <typename T, typename = void>
struct HasPlainObjectCheck : std::false_type {};
/*! \brief A typed reference whose TypeTraits keeps ObjectRefTraits' Convert. */
template <typename T>
struct HasPlainObjectCheck<T, std::enable_if_t<std::is_base_of<ObjectRef, T>::value && !IsObjectPtr<T>::value>>
    : std::bool_constant<&TypeTraits<T>::Convert == &ObjectRefTraits<T>::Convert> {};
/*! \brief An ObjectPtr: TypeTraits<ObjectPtr<T>>::Convert is that check. */
template <typename T>
struct HasPlainObjectCheck<ObjectPtr<T>> : std::true_type {};

/*!
 * \brief Whether a body's parameter declared as A is given a borrowed object (no reference count taken or dropped):
 *  a const reference (`const ObjectPtr<T>&`, `const Counter&`) to an object word type with the plain type check.
 *  The caller of a function holds its arguments for the call (a packed caller its P4JAny values, Java the handle
 *  in ReleaseEpochs.HeldHandles), so the object outlives the body; a body that keeps the object copies the
 *  reference, which takes a count of its own. A parameter taken by value still gets a reference of its own.
 */
template <typename A>
constexpr bool kBorrowedObjectParameter =
    std::conjunction<std::bool_constant<std::is_lvalue_reference<A>::value &&
                                        std::is_const<std::remove_reference_t<A>>::value &&
                                        kWireObject<std::decay_t<A>>>,
                     HasPlainObjectCheck<std::decay_t<A>>>::value;

/*!
 * \brief A borrowed object argument: a T (an ObjectPtr or a typed reference) over a handle whose reference belongs
 *  to the caller. The T is made without an increment and given up without a decrement, so the body's `const T&`
 *  is an ordinary reference for as long as the call runs.
 */
template <typename T>
class BorrowedObject {
 public:
  /*! \brief Lends handle (not null, already checked to be a T). */
  explicit BorrowedObject(P4JObject* handle) noexcept : value_(Adopt(handle)) {}
  /*! \brief Another loan of the same handle. */
  BorrowedObject(const BorrowedObject& other) noexcept : value_(Adopt(other.value_.handle())) {}
  BorrowedObject& operator=(const BorrowedObject&) = delete;
  /*! \brief Gives the loan back: the T forgets the handle, so its destructor drops nothing. */
  ~BorrowedObject() {
    if constexpr (IsObjectPtr<T>::value) {
      value_.release();
    } else {
      ObjectRefAccess::Release(value_);
    }
  }
  /*! \brief The argument as the body takes it. */
  const T& get() const noexcept { return value_; }

 private:
  static T Adopt(P4JObject* handle) noexcept {
    if constexpr (IsObjectPtr<T>::value) {
      return T::FromOwnedHandle(handle);
    } else {
      return ObjectRefAccess::FromOwnedHandle<T>(handle);
    }
  }
  T value_;
};

/*! \brief The object type a borrowed T must be (or derive from). */
template <typename T>
struct BorrowedTarget {
  using Type = typename T::ContainerType;
};
/*! \brief An ObjectPtr's pointee. */
template <typename T>
struct BorrowedTarget<ObjectPtr<T>> {
  using Type = T;
};

/*!
 * \brief The type index a borrowed Target's argument is compared with first, cached by the library that lends it:
 *  hidden, so the entry reads it straight (no call of RuntimeTypeIndex() through the PLT, no guard of its
 *  function-local static). -1, which no object's type has, until the first check stores the index; every thread
 *  stores the same one, so relaxed accesses (plain moves) suffice.
 */
template <typename Target>
struct __attribute__((visibility("hidden"))) BorrowedTypeIndex {
  /*! \brief Target::RuntimeTypeIndex(), once a check has asked for it; -1 before. */
  static inline std::atomic<int32_t> cached{-1};
};

/*! \brief IsBorrowableInstance when the exact type is not the cached index: caches it, then checks as before. */
template <typename Target>
[[gnu::noinline]] bool IsBorrowableInstanceSlow(const P4JObject* handle) {
  int32_t target = Target::RuntimeTypeIndex();
  BorrowedTypeIndex<Target>::cached.store(target, std::memory_order_relaxed);
  return ObjectIsInstance(handle, target);
}

/*!
 * \brief Whether an object (not null) is a Target or derives from it, as ObjectIsInstance: the exact type compared
 *  with the cached index, the index asked for and the registry's walk of derived types only when it differs.
 */
template <typename Target>
inline bool IsBorrowableInstance(const P4JObject* handle) {
  if (handle->type_index == BorrowedTypeIndex<Target>::cached.load(std::memory_order_relaxed)) return true;
  return IsBorrowableInstanceSlow<Target>(handle);
}

/*!
 * \brief Lends a packed argument to a body taking `const T&`: the same type check as T's conversion (a cached type
 *  index compared first, the registry's walk of derived types only when it differs) and the same error.
 */
template <typename T>
BorrowedObject<T> BorrowArgument(const P4JAny& value, const char* function, int64_t index) {
  if (IsObjectValue(value) && IsBorrowableInstance<typename BorrowedTarget<T>::Type>(value.v_obj)) {
    return BorrowedObject<T>(value.v_obj);
  }
  ThrowTypeMismatch(ConvertContext::Argument(function, index), TypeTraits<T>::TypeName(), value);
}

/*! \brief How a body's parameter declared as A is held during the call: borrowed or a converted value. */
template <typename A>
using ArgumentHolder =
    std::conditional_t<kBorrowedObjectParameter<A>, BorrowedObject<std::decay_t<A>>, std::decay_t<A>>;

/*! \brief The held argument as the body's parameter A: a borrowed object's reference, else the value, moved. */
template <typename A, typename Held>
decltype(auto) PassArgument(Held&& held) {
  if constexpr (kBorrowedObjectParameter<A>) {
    return held.get();
  } else {
    return std::move(held);
  }
}

/*! \brief Reads a packed argument for a body's parameter A: lent (kBorrowedObjectParameter) or converted. */
template <typename A>
ArgumentHolder<A> HoldArgument(const P4JAny& value, const char* function, int64_t index) {
  if constexpr (kBorrowedObjectParameter<A>) {
    return BorrowArgument<std::decay_t<A>>(value, function, index);
  } else {
    return ReadArgument<std::decay_t<A>>(value, function, index);
  }
}

/*!
 * \brief Stores a body's result: an integer through the wire type's range check, its error naming the function's
 *  result ("demo.Big: result value 18446744073709551615 is out of range for int64, ..."); anything else by its Store.
 */
template <typename R, typename V>
void StoreResult(V&& value, P4JAny* out, const char* function) {
  if constexpr (std::is_integral<std::decay_t<R>>::value && !std::is_same<std::decay_t<R>, bool>::value) {
    StoreInt(WidenToInt64(value, ConvertContext::Result(function)), out);
  } else {
    TypeTraits<std::decay_t<R>>::Store(std::forward<V>(value), out);
  }
}

/*! \brief The closure behind set_body_typed: converts each argument by its declared type, then calls. */
template <typename F, typename R, typename... A>
struct TypedClosure {
  std::string name;
  F body;
  /*! \brief The leading arguments a caller does not count as its own: 1 for a method's object, else 0. */
  int32_t receivers = 0;

  /*! \brief Checks the count, converts and runs the body; *result is set (owned) when it returns. */
  void CallBody(const P4JAny* args, int32_t num_args, P4JAny* result) {
    if (num_args != static_cast<int32_t>(sizeof...(A))) ThrowArgumentCount(num_args);
    Invoke(args, result, std::index_sequence_for<A...>());
  }

  [[noreturn, gnu::noinline, gnu::cold]] void ThrowArgumentCount(int32_t num_args) const {
    // A method's caller passes the object and counts the arguments after it, as Java declares them.
    const int64_t expected = static_cast<int64_t>(sizeof...(A)) - receivers;
    throw TypeError(name + ": expected " + std::to_string(expected) + (expected == 1 ? " argument" : " arguments") +
                    (receivers > 0 ? " after the object " : " ") + SignatureOf<R, A...>() + ", got " +
                    (num_args < receivers ? std::string("no object") : std::to_string(num_args - receivers)));
  }

  static int SafeCall(void* self, const P4JAny* args, int32_t num_args, P4JAny* result) noexcept {
    try {
      static_cast<TypedClosure*>(self)->CallBody(args, num_args, result);
      return 0;
    } catch (...) {
      RaiseCurrentException();
      return -1;
    }
  }

  template <size_t... I>
  void Invoke([[maybe_unused]] const P4JAny* args, P4JAny* result, std::index_sequence<I...>) {
    // A braced list converts left to right, so the first bad argument is the one reported.
    std::tuple<ArgumentHolder<A>...> converted{HoldArgument<A>(args[I], name.c_str(), static_cast<int64_t>(I))...};
    if constexpr (std::is_void<R>::value) {
      body(PassArgument<A>(std::get<I>(converted))...);
      *result = NoneValue();
    } else {
      StoreResult<R>(body(PassArgument<A>(std::get<I>(converted))...), result, name.c_str());
    }
  }
};

/*!
 * \brief Whether a typed entry passes T as a borrowed packed value (const P4JAny*): what remains of the types
 *  set_body_typed takes (signature names any, Object, optional<...>).
 */
template <typename T>
constexpr bool kWireAny = !TypeTraits<T>::kTypedScalar && !kWireSpan<T> && !kWireValue<T> && !kWireObject<T> &&
                          !kWireList<T> &&
                          TypeTraits<T>::kConvertible && TypeTraits<T>::kTypedAllowed;

/*! \brief Whether a typed entry can take a parameter of type T (since ABI 2.4: every type set_body_typed takes). */
template <typename T>
constexpr bool kWireParameter =
    TypeTraits<T>::kTypedScalar || kWireSpan<T> || kWireValue<T> || kWireObject<T> || kWireList<T> || kWireAny<T>;

/*!
 * \brief Whether a parameter of type T had a typed entry before ABI 2.4 (scalars, std::string and std::string_view
 *  spans, tensors): the forms TypedPackedFunc calls directly.
 */
template <typename T>
constexpr bool kScalarWireParameter = TypeTraits<T>::kTypedScalar || std::is_same<T, std::string_view>::value ||
                                      std::is_same<T, std::string>::value || kWireValue<T>;

/*!
 * \brief The machine type a typed entry takes for a parameter: int64 for bool and integers, for a tensor (a tensor
 *  word: an NDArray handle, or a borrowed DLTensor the caller wrote, see P4J_TENSOR_WORD_BORROWED) and for an object
 *  (its handle, 0 for None); double for floats; a borrowed span for strings and bytes; a borrowed P4JAny for the
 *  rest.
 */
template <typename T>
using WireArg = std::conditional_t<
    std::is_floating_point<T>::value, double,
    std::conditional_t<kWireSpan<T>, const P4JByteArray*, std::conditional_t<kWireAny<T>, const P4JAny*, int64_t>>>;

/*! \brief Whether a typed entry returns R as a span the thread keeps (signature names string and bytes). */
template <typename R>
constexpr bool kSpanResult = std::is_same<R, std::string>::value || std::is_same<R, std::string_view>::value ||
                             std::is_same<R, String>::value || std::is_same<R, Bytes>::value ||
                             std::is_same<R, BytesView>::value;

/*!
 * \brief Whether a typed entry returns R as an owned object word (tensors, the object forms of kWireObject and the
 *  storable list types: a std::vector result becomes a new List).
 */
template <typename R>
constexpr bool kObjectResult = kWireObject<R> || kWireValue<R> || kWireList<R>;

/*!
 * \brief Whether a typed entry writes an R result, owned, through a trailing `P4JAny* out` parameter and returns
 *  int32 0 (the result types kWireAny takes as parameters: any, Object, optional<...>).
 */
template <typename R>
constexpr bool kOutResult = !std::is_void<R>::value && !TypeTraits<R>::kTypedScalar && !kSpanResult<R> &&
                            !kObjectResult<R>;

/*!
 * \brief The machine type a typed entry returns: int32 for bool and void (and 0 for a result written through out),
 *  int64 for integers and object words, double for floats, a span for strings and bytes.
 */
template <typename R>
using WireResult = std::conditional_t<
    std::is_floating_point<R>::value, double,
    std::conditional_t<std::is_same<R, bool>::value || std::is_void<R>::value || kOutResult<R>, int32_t,
                       std::conditional_t<kSpanResult<R>, const P4JByteArray*, int64_t>>>;

/*!
 * \brief Where a typed entry keeps a string or bytes result for its caller: per thread (and per library that
 *  compiled the entry), valid until the thread's next span result from an entry of the same library. The caller
 *  reads the bytes before anything else runs on the thread; a span whose data is NULL is None (a null String or
 *  Bytes reference). Holds the last result until then, so a thread that
 *  returned a large string keeps its bytes until its next string result or its end.
 */
struct __attribute__((visibility("hidden"))) SpanResultSlot {  // hidden: per library, as said (no GNU unique)
  /*! \brief A std::string or std::string_view result's bytes. */
  std::string text;
  /*! \brief A String or Bytes result, held instead of copied. */
  ObjectRef object;
  /*! \brief What the entry returns the address of. */
  P4JByteArray span{nullptr, 0};

  /*! \brief The slot of the calling thread. */
  static SpanResultSlot& OfThisThread() {
    static thread_local SpanResultSlot slot;
    return slot;
  }
};

/*! \brief Keeps a span result in the thread's slot and returns the span. */
template <typename R>
const P4JByteArray* KeepSpanResult(R&& result) {
  SpanResultSlot& slot = SpanResultSlot::OfThisThread();
  using Decayed = std::decay_t<R>;
  if constexpr (std::is_same<Decayed, String>::value || std::is_same<Decayed, Bytes>::value) {
    if (!result.defined()) {
      slot.object = ObjectRef();
      slot.span = P4JByteArray{nullptr, 0};  // None
      return &slot.span;
    }
    std::string_view bytes = result.view();
    slot.object = std::forward<R>(result);
    slot.span = ByteArrayOf(bytes);
  } else {
    slot.text.assign(std::string_view(result));
    slot.object = ObjectRef();
    slot.span = ByteArrayOf(slot.text);
  }
  return &slot.span;
}

/*! \brief An object result as an owned object word: its handle with a reference the caller takes, 0 for None. */
template <typename R>
int64_t OwnedObjectWord(R&& result) {
  P4JAny stored;
  TypeTraits<std::decay_t<R>>::Store(std::forward<R>(result), &stored);
  if (stored.type_index == kP4JNone) return 0;
  return static_cast<int64_t>(reinterpret_cast<uintptr_t>(stored.v_obj));
}

/*! \brief TypeError: a typed entry given a NULL span for a string parameter. */
[[noreturn, gnu::noinline, gnu::cold]] inline void ThrowNullSpan(const char* function, int64_t index) {
  throw TypeError(std::string(function) + ": argument " + std::to_string(index) + " expected string, got a NULL span");
}

/*! \brief TypeError: a typed entry given a 0 tensor word for a tensor parameter. */
[[noreturn, gnu::noinline, gnu::cold]] inline void ThrowNullTensorWord(const char* function, int64_t index,
                                                                      const std::string& expected) {
  throw TypeError(std::string(function) + ": argument " + std::to_string(index) + " expected " + expected +
                  ", got a NULL tensor word");
}

/*!
 * \brief The packed value a typed entry's tensor word stands for: an NDArray handle as the object, borrowed; a
 *  borrowed DLTensor (low bit P4J_TENSOR_WORD_BORROWED) as a kP4JDLTensorPtr, once the fields the caller leaves to
 *  the entry are written (a contiguous CPU tensor whose shape follows the DLTensor).
 */
inline P4JAny TensorWordValue(int64_t word, const char* function, int64_t index, const std::string& expected) {
  if (word == 0) ThrowNullTensorWord(function, index, expected);
  P4JAny value;
  value.zero_padding = 0;
  if ((word & P4J_TENSOR_WORD_BORROWED) != 0) {
    DLTensor* tensor = reinterpret_cast<DLTensor*>(static_cast<uintptr_t>(word & ~int64_t{P4J_TENSOR_WORD_BORROWED}));
    tensor->device = DLDevice{kDLCPU, 0};
    tensor->shape = reinterpret_cast<int64_t*>(tensor + 1);
    tensor->strides = nullptr;
    tensor->byte_offset = 0;
    value.type_index = kP4JDLTensorPtr;
    value.v_ptr = tensor;
  } else {
    P4JObject* handle = reinterpret_cast<P4JObject*>(static_cast<uintptr_t>(word));
    value.type_index = handle->type_index;
    value.v_obj = handle;
  }
  return value;
}

/*! \brief The packed value an object word stands for: the object, borrowed, or None for 0. */
inline P4JAny ObjectWordValue(int64_t word) {
  if (word == 0) return NoneValue();
  P4JObject* handle = reinterpret_cast<P4JObject*>(static_cast<uintptr_t>(word));
  P4JAny value;
  value.type_index = handle->type_index;
  value.zero_padding = 0;
  value.v_obj = handle;
  return value;
}

/*! \brief TypeError: a typed entry given a NULL P4JAny pointer for a parameter passed as a packed value. */
[[noreturn, gnu::noinline, gnu::cold]] inline void ThrowNullValue(const char* function, int64_t index,
                                                                 const std::string& expected) {
  throw TypeError(std::string(function) + ": argument " + std::to_string(index) + " expected " + expected +
                  ", got a NULL value pointer");
}

/*! \brief TypeError: a typed entry's list word with low bits no list form has (see P4J_LIST_WORD_TAG_MASK). */
[[noreturn, gnu::noinline, gnu::cold]] inline void ThrowBadListWord(const char* function, int64_t index, int64_t word,
                                                                   const std::string& expected) {
  throw TypeError(std::string(function) + ": argument " + std::to_string(index) + " expected " + expected +
                  ", got a list word with the unknown form " + std::to_string(word & P4J_LIST_WORD_TAG_MASK));
}

/*!
 * \brief A typed entry's list word other than a dense list: a borrowed list cell (P4J_LIST_WORD_BORROWED) or an
 *  object word; TypeError for any other form.
 */
template <typename T>
[[gnu::noinline]] T FromListWord(int64_t wire, const char* function, int64_t index) {
  const int64_t tag = wire & P4J_LIST_WORD_TAG_MASK;
  if (tag == P4J_LIST_WORD_BORROWED) {
    const uintptr_t address = static_cast<uintptr_t>(wire & ~int64_t{P4J_LIST_WORD_TAG_MASK});
    return TypeTraits<T>::FromListCell(reinterpret_cast<const P4JListCell*>(address),
                                       ConvertContext::Argument(function, index));
  }
  if (tag != 0) ThrowBadListWord(function, index, wire, TypeTraits<T>::TypeName());
  return TypeTraits<T>::Convert(ObjectWordValue(wire), ConvertContext::Argument(function, index));
}

/*!
 * \brief Reads a typed entry's parameter, range-checked like a packed argument. Always inline: each branch is small
 *  (the slow ones are calls), and a plugin's entry otherwise calls it through the PLT.
 */
template <typename T>
[[gnu::always_inline]] inline T FromWire(WireArg<T> wire, const char* function, int64_t index) {
  if constexpr (kWireSpan<T>) {
    if (wire == nullptr) ThrowNullSpan(function, index);
    return T(ViewOf(*wire));
  } else if constexpr (kWireObject<T>) {
    return TypeTraits<T>::Convert(ObjectWordValue(wire), ConvertContext::Argument(function, index));
  } else if constexpr (kWireList<T>) {
    // The dense form inline, the others out of line (FromListWord), so a ListView body's entry makes no call.
    const int64_t tag = wire & P4J_LIST_WORD_TAG_MASK;
    if (__builtin_expect(tag == P4J_LIST_WORD_DENSE_I64 || tag == P4J_LIST_WORD_DENSE_F64, 1)) {
      // the count, then the values
      const int64_t* block =
          reinterpret_cast<const int64_t*>(static_cast<uintptr_t>(wire & ~int64_t{P4J_LIST_WORD_TAG_MASK}));
      return TypeTraits<T>::FromDenseList(block + 1, block[0], tag == P4J_LIST_WORD_DENSE_F64,
                                          ConvertContext::Argument(function, index));
    }
    return FromListWord<T>(wire, function, index);
  } else if constexpr (kWireAny<T>) {
    if (wire == nullptr) ThrowNullValue(function, index, TypeTraits<T>::TypeName());
    return TypeTraits<T>::Convert(*wire, ConvertContext::Argument(function, index));
  } else if constexpr (kWireValue<T>) {
    return TypeTraits<T>::Convert(TensorWordValue(wire, function, index, TypeTraits<T>::TypeName()),
                                  ConvertContext::Argument(function, index));
  } else if constexpr (std::is_same<T, bool>::value) {
    if (wire != 0 && wire != 1) {
      ThrowOutOfRange(ConvertContext::Argument(function, index), std::to_string(wire), "bool");
    }
    return wire != 0;
  } else if constexpr (std::is_integral<T>::value) {
    return NarrowInt64<T>(wire, ConvertContext::Argument(function, index));
  } else {
    return NarrowFloat64<T>(wire, ConvertContext::Argument(function, index));
  }
}

/*!
 * \brief Lends an object word to a body taking `const T&`: a handle whose exact type is the cached index
 *  (BorrowedTypeIndex, an object type's, so the handle is an object) is lent at once; anything else (0, another
 *  type, the first call) takes BorrowArgument's full check and error.
 */
template <typename T>
BorrowedObject<T> BorrowWord(int64_t word, const char* function, int64_t index) {
  P4JObject* handle = reinterpret_cast<P4JObject*>(static_cast<uintptr_t>(word));
  if (handle != nullptr &&
      handle->type_index ==
          BorrowedTypeIndex<typename BorrowedTarget<T>::Type>::cached.load(std::memory_order_relaxed)) {
    return BorrowedObject<T>(handle);
  }
  return BorrowArgument<T>(ObjectWordValue(word), function, index);
}

/*! \brief Reads a typed entry's parameter for a body's parameter A: an object word lent, else FromWire. */
template <typename A>
ArgumentHolder<A> HoldWire(WireArg<std::decay_t<A>> wire, const char* function, int64_t index) {
  if constexpr (kBorrowedObjectParameter<A>) {
    return BorrowWord<std::decay_t<A>>(wire, function, index);
  } else {
    return FromWire<std::decay_t<A>>(wire, function, index);
  }
}

/*! \brief The error sentinel of a typed entry's result type. */
template <typename Wire>
Wire TypedErrorSentinel() {
  if constexpr (std::is_same<Wire, double>::value) {
    int64_t bits = P4J_TYPED_ERROR_F64_BITS;
    double sentinel;
    std::memcpy(&sentinel, &bits, sizeof(sentinel));
    return sentinel;
  } else if constexpr (std::is_same<Wire, int64_t>::value) {
    return P4J_TYPED_ERROR_I64;
  } else if constexpr (std::is_same<Wire, const P4JByteArray*>::value) {
    return nullptr;
  } else {
    return P4J_TYPED_ERROR_I32;
  }
}

/*! \brief Whether a real result collides with the sentinel (compared bit for bit for doubles). */
template <typename Wire>
bool IsTypedErrorSentinel(Wire value) {
  if constexpr (std::is_same<Wire, double>::value) {
    int64_t bits;
    std::memcpy(&bits, &value, sizeof(bits));
    return bits == P4J_TYPED_ERROR_F64_BITS;
  } else {
    return value == TypedErrorSentinel<Wire>();
  }
}

/*!
 * \brief What a caller of a typed entry does with its result: throws the raised error when the result is the
 *  sentinel and an error was raised (a real result equal to the sentinel raises none).
 */
template <typename Wire>
void ThrowIfTypedError(Wire result) {
  if (!IsTypedErrorSentinel(result)) return;
  P4JObjectHandle error = nullptr;
  P4JErrorMoveFromRaised(&error);
  if (error == nullptr) return;
  P4JErrorSetRaised(error);
  P4JObjectDecRef(error);
  ThrowLastError();
}

template <typename Closure, typename R, typename Indices, typename... A>
struct TypedEntry;

/*!
 * \brief The typed entry `WireResult<R> Entry(P4JObjectHandle self, WireArg<A>... args)`: no packing, the body
 *  is called directly. Failures raise on the thread and return the sentinel; a real result that equals the
 *  sentinel clears any stale raised error first, so the caller's P4JErrorMoveFromRaised check is exact.
 */
template <typename Closure, typename R, size_t... I, typename... A>
struct TypedEntry<Closure, R, std::index_sequence<I...>, A...> {
  using Wire = WireResult<R>;

  static Wire Entry(P4JObjectHandle self, WireArg<std::decay_t<A>>... wire) noexcept {
    try {
      Closure* closure = static_cast<Closure*>(CellOf<P4JFunctionCell>(self)->self);
      std::tuple<ArgumentHolder<A>...> converted{
          HoldWire<A>(wire, closure->name.c_str(), static_cast<int64_t>(I))...};
      if constexpr (std::is_void<R>::value) {
        closure->body(PassArgument<A>(std::get<I>(converted))...);
        return 0;
      } else if constexpr (std::is_same<R, bool>::value) {
        return closure->body(PassArgument<A>(std::get<I>(converted))...) ? 1 : 0;
      } else if constexpr (kSpanResult<R>) {
        return KeepSpanResult(closure->body(PassArgument<A>(std::get<I>(converted))...));
      } else if constexpr (kObjectResult<R>) {
        // A handle is a pointer into the heap, never the sentinel's non-canonical address.
        return OwnedObjectWord(closure->body(PassArgument<A>(std::get<I>(converted))...));
      } else {
        Wire result;
        if constexpr (std::is_floating_point<R>::value) {
          result = static_cast<double>(closure->body(PassArgument<A>(std::get<I>(converted))...));
        } else {
          result = WidenToInt64(closure->body(PassArgument<A>(std::get<I>(converted))...),
                                ConvertContext::Result(closure->name.c_str()));
        }
        if (IsTypedErrorSentinel(result)) ClearRaisedError();
        return result;
      }
    } catch (...) {
      RaiseCurrentException();
      return TypedErrorSentinel<Wire>();
    }
  }

  /*!
   * \brief The typed entry of a result written through out (kOutResult): `int32_t Entry(self, args..., P4JAny*
   *  out)`, 0 with *out set (owned), or P4J_TYPED_ERROR_I32 with the error raised and *out untouched.
   */
  static int32_t EntryWithOut(P4JObjectHandle self, WireArg<std::decay_t<A>>... wire, P4JAny* out) noexcept {
    try {
      Closure* closure = static_cast<Closure*>(CellOf<P4JFunctionCell>(self)->self);
      std::tuple<ArgumentHolder<A>...> converted{
          HoldWire<A>(wire, closure->name.c_str(), static_cast<int64_t>(I))...};
      StoreResult<R>(closure->body(PassArgument<A>(std::get<I>(converted))...), out, closure->name.c_str());
      return 0;
    } catch (...) {
      RaiseCurrentException();
      return P4J_TYPED_ERROR_I32;
    }
  }
};

template <typename F, typename R, typename Params>
struct TypedFunctionFactory;

/*! \brief Builds the function object of set_body_typed: closure, signature and typed entry. */
template <typename F, typename R, typename... A>
struct TypedFunctionFactory<F, R, std::tuple<A...>> {
  static_assert((... && (!std::is_lvalue_reference<A>::value || std::is_const<std::remove_reference_t<A>>::value)),
                "set_body_typed: parameters must be taken by value or by const reference");
  static_assert((... && TypeTraits<std::decay_t<A>>::kConvertible),
                "set_body_typed: a parameter type has no conversion from a packed value; supported: bool, integers, "
                "float, double, std::string, std::string_view, String, Bytes, BytesView, ObjectRef types, "
                "ObjectPtr<T>, List<T>, ListView<T>, std::vector<T>, Map<K, V>, std::optional<T>, NDArray, "
                "TensorView, PackedFunc, TypedPackedFunc<R(A...)>, Any");
  static_assert((... && (!TypeTraits<std::decay_t<A>>::kConvertible || TypeTraits<std::decay_t<A>>::kTypedAllowed)),
                "set_body_typed: a parameter type cannot appear in a signature (use set_body for raw pointers)");

  using Closure = TypedClosure<F, R, A...>;

  static PackedFunc Make(F body, std::string name, int32_t receivers = 0) {
    if constexpr (!std::is_void<R>::value) {
      static_assert(TypeTraits<std::decay_t<R>>::kStorable && TypeTraits<std::decay_t<R>>::kTypedAllowed,
                    "set_body_typed: the result type cannot be returned; supported: void and the parameter types");
    }
    // Since ABI 2.4 every signature set_body_typed accepts has a typed entry.
    constexpr bool kHasEntry = (true && ... && kWireParameter<std::decay_t<A>>);
    void* entry = nullptr;
    if constexpr (kHasEntry) {
      using Entry = TypedEntry<Closure, std::decay_t<R>, std::index_sequence_for<A...>, A...>;
      if constexpr (kOutResult<std::decay_t<R>>) {
        auto function_pointer = &Entry::EntryWithOut;
        entry = reinterpret_cast<void*>(function_pointer);
      } else {
        auto function_pointer = &Entry::Entry;
        entry = reinterpret_cast<void*>(function_pointer);
      }
    }
    std::string signature = SignatureOf<R, A...>();
    auto* closure = new Closure{std::move(name), std::move(body), receivers};
    // Since ABI 2.6 every entry reads a borrowed list cell for a list parameter, since 2.7 a dense list (FromWire).
    const int64_t forms = kHasEntry ? P4J_TYPED_FORM_BORROWED_LIST | P4J_TYPED_FORM_DENSE_LIST : 0;
    return PackedFunc(ObjectPtr<Object>::FromOwnedHandle(NewFunctionObject(closure, signature, entry, forms)));
  }
};


}  // namespace details
}  // namespace packed4j

#endif  // PACKED4J_DETAILS_FUNCTION_ENTRIES_H_
