/*!
 * \file packed4j/function.h
 * \brief Functions: Args and RetValue (the packed calling convention seen from C++), PackedFunc, and the
 *  machinery behind set_body_typed (signature strings and typed entry points).
 *
 * A function object (kP4JFunction) is created by libpacked4j.so around a closure that lives in the library
 * that defined the function: P4JFunctionCell.self points at the closure, safe_call converts the arguments,
 * runs the C++ body and turns any exception into an error raised on the thread. So a body may throw freely;
 * nothing escapes the library.
 */
#ifndef PACKED4J_FUNCTION_H_
#define PACKED4J_FUNCTION_H_

#include <packed4j/any.h>
#include <packed4j/string.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

namespace packed4j {

/*! \brief The object behind PackedFunc: the header, then the cell. Created only by libpacked4j.so. */
class FunctionObject : public Object {
 public:
  /*! \brief self, safe_call, the typed entry and the scalars entry. */
  P4JFunctionCell cell;

  static constexpr const char* _type_key = "Function";
  P4J_DECLARE_STATIC_OBJECT_TYPE_INFO(FunctionObject, Object, kP4JFunction);

 protected:
  FunctionObject() noexcept : cell{nullptr, nullptr, nullptr, nullptr} {}
};

namespace details {

/*!
 * \brief The common case of reading a scalar argument, inline: a value of exactly the kind T is stored as (int64 for
 *  an integer, float64 for a float, bool for bool) that fits T. False for anything else, which the full conversion
 *  then accepts (a bool read as an integer, an integer as a float) or reports.
 */
template <typename T>
inline bool ReadScalarFast(const P4JAny& value, T* out) noexcept {
  if constexpr (std::is_same<T, bool>::value) {
    *out = value.v_int64 != 0;
    return value.type_index == kP4JBool;
  } else if constexpr (std::is_integral<T>::value) {
    *out = static_cast<T>(value.v_int64);
    if constexpr (std::is_signed<T>::value && sizeof(T) == sizeof(int64_t)) {
      return value.type_index == kP4JInt;
    } else if constexpr (sizeof(T) == sizeof(int64_t)) {
      return value.type_index == kP4JInt && value.v_int64 >= 0;
    } else {
      return value.type_index == kP4JInt && static_cast<int64_t>(*out) == value.v_int64;
    }
  } else {
    static_assert(std::is_floating_point<T>::value, "ReadScalarFast: a scalar type");
    *out = static_cast<T>(value.v_float64);
    if constexpr (sizeof(T) < sizeof(double)) {
      return value.type_index == kP4JFloat && !(std::fabs(value.v_float64) > std::numeric_limits<T>::max());
    } else {
      return value.type_index == kP4JFloat;
    }
  }
}

/*!
 * \brief The full conversion of argument index of function, out of line: its error messages need strings and a
 *  context on the stack, which the common case, inline in every packed body, should not pay for. The value comes
 *  by value (two registers), so a caller's arguments need not live in memory for this call's sake.
 */
template <typename T>
[[gnu::noinline]] T ConvertArgument(const P4JAny value, const char* function, int64_t index) {
  return TypeTraits<T>::Convert(value, ConvertContext::Argument(function, index));
}

/*! \brief Reads argument index of function as T: the inline fast path for scalars, else the full conversion. */
template <typename T>
inline T ReadArgument(const P4JAny& value, const char* function, int64_t index) {
  if constexpr (TypeTraits<T>::kTypedScalar) {
    std::remove_cv_t<T> fast;
    if (ReadScalarFast(value, &fast)) return fast;
  }
  return ConvertArgument<T>(value, function, index);
}

/*! \brief TypeError: an argument index past the arguments given. Out of line, as every error path here. */
[[noreturn, gnu::noinline, gnu::cold]] inline void ThrowArgumentIndex(const char* function, int index,
                                                                     int num_args) {
  throw TypeError(std::string(function) + ": argument " + std::to_string(index) + " was requested, but " +
                  std::to_string(num_args) + (num_args == 1 ? " argument was" : " arguments were") + " given");
}

}  // namespace details

/*!
 * \brief One argument of a packed call: converts implicitly, checked, to the type it is assigned to.
 *
 * \code
 *   int a = args[0];            // TypeError "calculator.MyAdd: argument 0 expected int32, got string \"x\""
 *   std::string brand = args[1];
 *   List<Value> values = args[2];
 * \endcode
 */
class ArgValue {
 public:
  ArgValue(const P4JAny* value, const char* function, int32_t index) noexcept
      : value_(value), function_(function), index_(index) {}

  /*! \brief Converts to T, naming the function and the argument index in any error. */
  template <typename T, typename = std::enable_if_t<details::TypeTraits<T>::kConvertible>>
  operator T() const {  // NOLINT(runtime/explicit)
    return cast<T>();
  }
  /*! \brief Converts to T explicitly. \code auto n = args[0].cast<int64_t>(); \endcode */
  template <typename T>
  T cast() const {
    return details::ReadArgument<T>(*value_, function_, index_);
  }

  /*! \brief The type index of the argument. */
  int32_t type_index() const noexcept { return value_->type_index; }
  /*! \brief Whether the argument is None. */
  bool is_none() const noexcept { return value_->type_index == kP4JNone; }
  /*! \brief The raw value, borrowed. */
  const P4JAny& raw() const noexcept { return *value_; }

 private:
  const P4JAny* value_;
  const char* function_;
  int32_t index_;
};

/*!
 * \brief The arguments of a packed call, borrowed for the duration of the call.
 *
 * \code
 *   P4J_REGISTER_GLOBAL("calculator.MyAdd").set_body([](Args args, RetValue* rv) {
 *     int a = args[0];
 *     int b = args[1];
 *     *rv = a + b;
 *   });
 * \endcode
 */
class Args {
 public:
  /*! \param function the registered name of the function being called, used in error messages. */
  Args(const P4JAny* values, int32_t num_args, const char* function = nullptr) noexcept
      : values_(values), num_args_(num_args), function_(function != nullptr ? function : "<anonymous>") {}

  /*! \brief Number of arguments. */
  int size() const noexcept { return num_args_; }
  /*! \brief The argument at index; asking past the end is a TypeError naming the function. */
  ArgValue operator[](int index) const {
    if (index < 0 || index >= num_args_) details::ThrowArgumentIndex(function_, index, num_args_);
    return ArgValue(values_ + index, function_, index);
  }
  /*! \brief The registered name of the function being called. */
  const char* function_name() const noexcept { return function_; }
  /*! \brief The raw arguments, borrowed. */
  const P4JAny* values() const noexcept { return values_; }

 private:
  const P4JAny* values_;
  int32_t num_args_;
  const char* function_;
};

/*!
 * \brief The result of a packed call: assign any storable value to it.
 * \code
 *   *rv = 42;
 *   *rv = std::string("casio");
 *   *rv = make_object<CalculatorObject>();
 * \endcode
 */
class RetValue : public Any {
 public:
  RetValue() noexcept = default;
  RetValue(const RetValue&) = delete;
  RetValue& operator=(const RetValue&) = delete;

  /*! \brief Replaces the result. */
  template <typename T>
  RetValue& operator=(T&& value) {
    Any::operator=(std::forward<T>(value));
    return *this;
  }
};

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
 * \brief Whether a P4JFunctionCallScalars shape is well formed: 0 to 4 arguments, and each kind (the result's and
 *  the arguments') 0..3 (None, Int, Bool, Float), so no bit above the low two of any kind byte and no byte past
 *  the arguments given.
 */
inline bool IsWellFormedScalarsShape(uint64_t bits) noexcept {
  const uint32_t num_args = static_cast<uint32_t>(bits & 0xff);
  const uint64_t kinds = bits >> 16;
  return num_args <= 4 && (bits & 0xfc00) == 0 && (kinds & 0xfcfcfcfcull) == 0 && (kinds >> (8 * num_args)) == 0;
}

/*!
 * \brief The scalars entry of a function (P4JFunctionCell.scalars_entry): P4JFunctionCallScalars compiled beside
 *  the closure, so the body runs inline in this frame rather than behind the core library's frame and an indirect
 *  call. It is the whole native side of a Java call over numbers to a set_body function: keep it short.
 */
template <typename Closure>
struct ScalarsEntry {
  static int64_t Entry(P4JObjectHandle self, int64_t shape, int64_t a0, int64_t a1, int64_t a2, int64_t a3) noexcept {
    const uint64_t bits = static_cast<uint64_t>(shape);
    const uint32_t num_args = static_cast<uint32_t>(bits & 0xff);
    const uint64_t kinds = bits >> 16;
    // P4JFunctionCallScalars reports a malformed shape.
    if (!IsWellFormedScalarsShape(bits)) return P4JFunctionCallScalars(self, shape, a0, a1, a2, a3);
    // Only the arguments given are written, each as two 8-byte stores (type index with its zero padding, payload).
    P4JAny args[4];
    switch (num_args) {
      case 4: WriteScalar(&args[3], kinds >> 24, a3); [[fallthrough]];
      case 3: WriteScalar(&args[2], kinds >> 16, a2); [[fallthrough]];
      case 2: WriteScalar(&args[1], kinds >> 8, a1); [[fallthrough]];
      case 1: WriteScalar(&args[0], kinds, a0); [[fallthrough]];
      default: break;
    }
    try {
      P4JAny result;
      static_cast<Closure*>(CellOf<P4JFunctionCell>(self)->self)->CallBody(args, static_cast<int32_t>(num_args),
                                                                        &result);
      if (result.type_index == static_cast<int32_t>((bits >> 8) & 0xff) && result.v_int64 != P4J_TYPED_ERROR_I64) {
        return result.v_int64;
      }
      P4JAny unusual = result;  // a copy takes the address, so result itself can stay in registers
      return P4JFunctionScalarsResult(&unusual, shape);
    } catch (...) {
      RaiseCurrentException();
      return P4J_TYPED_ERROR_I64;
    }
  }

 private:
  /*! \brief A (kind, payload) argument; kP4JNone carries payload 0, as through P4JFunctionCallScalars. */
  static void WriteScalar(P4JAny* slot, uint64_t kind, int64_t payload) noexcept {
    const uint64_t type_word = kind & 0xff;  // type_index, then zero_padding 0 (little-endian)
    std::memcpy(slot, &type_word, sizeof(type_word));
    slot->v_int64 = type_word == kP4JNone ? 0 : payload;
  }
};

/*! \brief Deletes a closure in the library that created it (the function object's deleter). */
template <typename Closure>
void DeleteClosure(void* self) {
  delete static_cast<Closure*>(self);
}

/*! \brief Creates a function object around a heap closure (which the function then owns). */
template <typename Closure>
P4JObject* NewFunctionObject(Closure* closure, const std::string& signature, void* typed_entry) {
  P4JByteArray signature_bytes = ByteArrayOf(signature);
  const P4JFunctionCell cell{closure, &Closure::SafeCall, typed_entry, &ScalarsEntry<Closure>::Entry};
  P4JObject* handle = nullptr;
  if (P4JFunctionCreateFromCell(&cell, sizeof(cell), &DeleteClosure<Closure>, &signature_bytes, &handle) != 0) {
    delete closure;
    ThrowLastError();
  }
  return handle;
}

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
  } else {
    *keep = Any(std::forward<T>(value));
    *slot = keep->raw();
  }
}

}  // namespace details

/*!
 * \brief A reference to a function object: a global looked up by name, a body written in C++, or a callback
 *  that came in as an argument.
 *
 * \code
 *   PackedFunc add = PackedFunc::GetGlobal("calculator.MyAdd");
 *   int64_t sum = add(1, 2);
 *   PackedFunc twice([](Args args, RetValue* rv) { *rv = args[0].cast<int64_t>() * 2; }, "twice");
 * \endcode
 */
class PackedFunc : public ObjectRef {
 public:
  using ContainerType = FunctionObject;

  /*! \brief The object. */
  const FunctionObject* get() const noexcept { return static_cast<const FunctionObject*>(obj_.get()); }
  const FunctionObject* operator->() const noexcept { return get(); }

  /*! \brief No function. */
  PackedFunc() noexcept = default;
  /*! \brief A reference to an existing function object. */
  explicit PackedFunc(ObjectPtr<Object> ptr) noexcept : ObjectRef(std::move(ptr)) {}
  /*! \brief A function running body(Args, RetValue*); name appears in its error messages. */
  template <typename Body,
            typename = std::enable_if_t<std::is_invocable<Body&, Args, RetValue*>::value>>
  explicit PackedFunc(Body body, std::string name = "<anonymous>") {
    auto* closure = new details::PackedClosure<Body>{std::move(name), std::move(body)};
    obj_ = ObjectPtr<Object>::FromOwnedHandle(details::NewFunctionObject(closure, std::string(), nullptr));
  }

  /*!
   * \brief Calls the function; arguments are packed (strings as views, objects lent), errors thrown as C++
   *  exceptions of their kind.
   */
  template <typename... CallArgs>
  Any operator()(CallArgs&&... call_args) const {
    constexpr size_t kCount = sizeof...(CallArgs);
    P4JAny packed[kCount + 1] = {};
    Any keep[kCount + 1];
    size_t index = 0;
    ((details::PackArgument(std::forward<CallArgs>(call_args), &packed[index], &keep[index]), ++index), ...);
    (void)index;
    Any result;
    CallPacked(packed, static_cast<int32_t>(kCount), &result);
    return result;
  }

  /*! \brief Calls with raw arguments (borrowed); the result replaces *result. */
  void CallPacked(const P4JAny* args, int32_t num_args, Any* result) const {
    if (!defined()) throw ValueError("calling an undefined PackedFunc");
    P4JAny raw;
    details::CheckCall(P4JFunctionCall(handle(), args, num_args, &raw));
    *result = Any::FromOwned(raw);
  }

  /*! \brief The signature recorded by set_body_typed, e.g. "(int64, int64) -> int64"; empty for set_body. */
  std::string signature() const {
    P4JByteArray bytes{nullptr, 0};
    details::CheckCall(P4JFunctionGetSignature(handle(), &bytes));
    return std::string(details::ViewOf(bytes));
  }
  /*! \brief The typed entry (see P4JFunctionGetTypedEntry), or nullptr. */
  void* typed_entry() const noexcept { return details::CellOf<P4JFunctionCell>(handle())->typed_entry; }

  /*! \brief The global function registered under name, or an undefined PackedFunc. */
  static PackedFunc GetGlobal(std::string_view name) {
    P4JByteArray bytes = details::ByteArrayOf(name);
    P4JObject* handle = nullptr;
    details::CheckCall(P4JFunctionGetGlobal(&bytes, &handle));
    return details::ObjectRefAccess::FromBorrowedHandle<PackedFunc>(handle);
  }

  /*!
   * \brief A function from a typed callable (lambda or function pointer): arguments checked by type, signature
   *  recorded, typed entry when the parameters are scalars or strings and the result a scalar. \code auto mul = PackedFunc::FromTyped(
   *  [](int64_t a, int64_t b) { return a * b; }, "mul"); \endcode
   */
  template <typename F>
  static PackedFunc FromTyped(F body, std::string name = "<anonymous>");
};

namespace details {

/*! \brief PackedFunc: a function object (a callback in, a closure out). */
template <>
struct TypeTraits<PackedFunc> : ObjectRefTraits<PackedFunc> {
  static std::string TypeName() { return "function"; }
};

/*! \brief The parameter and result types of a callable: lambdas (their operator()) and function pointers. */
template <typename F>
struct CallableTraits : CallableTraits<decltype(&F::operator())> {};

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

/*! \brief The closure behind set_body_typed: converts each argument by its declared type, then calls. */
template <typename F, typename R, typename... A>
struct TypedClosure {
  std::string name;
  F body;

  /*! \brief Checks the count, converts and runs the body; *result is set (owned) when it returns. */
  void CallBody(const P4JAny* args, int32_t num_args, P4JAny* result) {
    if (num_args != static_cast<int32_t>(sizeof...(A))) ThrowArgumentCount(num_args);
    Invoke(args, result, std::index_sequence_for<A...>());
  }

  [[noreturn, gnu::noinline, gnu::cold]] void ThrowArgumentCount(int32_t num_args) const {
    throw TypeError(name + ": expected " + std::to_string(sizeof...(A)) +
                    (sizeof...(A) == 1 ? " argument" : " arguments") + " " + SignatureOf<R, A...>() + ", got " +
                    std::to_string(num_args));
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
    std::tuple<std::decay_t<A>...> converted{
        ReadArgument<std::decay_t<A>>(args[I], name.c_str(), static_cast<int64_t>(I))...};
    if constexpr (std::is_void<R>::value) {
      body(std::get<I>(std::move(converted))...);
      *result = NoneValue();
    } else {
      TypeTraits<std::decay_t<R>>::Store(body(std::get<I>(std::move(converted))...), result);
    }
  }
};

/*! \brief Whether a typed entry passes a parameter of type T as a borrowed UTF-8 span (P4JByteArray*). */
template <typename T>
constexpr bool kWireSpan = std::is_same<T, std::string_view>::value || std::is_same<T, std::string>::value;

/*! \brief Whether a typed entry can take a parameter of type T: a scalar, or a string read as a span. */
template <typename T>
constexpr bool kWireParameter = TypeTraits<T>::kTypedScalar || kWireSpan<T>;

/*!
 * \brief The machine type a typed entry takes for a parameter: int64 for bool and integers, double for floats, a
 *  borrowed UTF-8 span for std::string_view and std::string.
 */
template <typename T>
using WireArg = std::conditional_t<std::is_floating_point<T>::value, double,
                                   std::conditional_t<kWireSpan<T>, const P4JByteArray*, int64_t>>;

/*! \brief The machine type a typed entry returns: int32 for bool and void, int64 for integers, double for floats. */
template <typename R>
using WireResult = std::conditional_t<
    std::is_floating_point<R>::value, double,
    std::conditional_t<std::is_same<R, bool>::value || std::is_void<R>::value, int32_t, int64_t>>;

/*! \brief TypeError: a typed entry given a NULL span for a string parameter. */
[[noreturn, gnu::noinline, gnu::cold]] inline void ThrowNullSpan(const char* function, int64_t index) {
  throw TypeError(std::string(function) + ": argument " + std::to_string(index) + " expected string, got a NULL span");
}

/*! \brief Reads a typed entry's parameter, range-checked like a packed argument. */
template <typename T>
T FromWire(WireArg<T> wire, const char* function, int64_t index) {
  if constexpr (kWireSpan<T>) {
    if (wire == nullptr) ThrowNullSpan(function, index);
    return T(ViewOf(*wire));
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
      std::tuple<std::decay_t<A>...> converted{
          FromWire<std::decay_t<A>>(wire, closure->name.c_str(), static_cast<int64_t>(I))...};
      if constexpr (std::is_void<R>::value) {
        closure->body(std::get<I>(std::move(converted))...);
        return 0;
      } else if constexpr (std::is_same<R, bool>::value) {
        return closure->body(std::get<I>(std::move(converted))...) ? 1 : 0;
      } else {
        Wire result;
        if constexpr (std::is_floating_point<R>::value) {
          result = static_cast<double>(closure->body(std::get<I>(std::move(converted))...));
        } else {
          result = WidenToInt64(closure->body(std::get<I>(std::move(converted))...));
        }
        if (IsTypedErrorSentinel(result)) ClearRaisedError();
        return result;
      }
    } catch (...) {
      RaiseCurrentException();
      return TypedErrorSentinel<Wire>();
    }
  }
};

template <typename F, typename R, typename Params>
struct TypedFunctionFactory;

/*! \brief Builds the function object of set_body_typed: closure, signature and (for scalars) typed entry. */
template <typename F, typename R, typename... A>
struct TypedFunctionFactory<F, R, std::tuple<A...>> {
  static_assert((... && (!std::is_lvalue_reference<A>::value || std::is_const<std::remove_reference_t<A>>::value)),
                "set_body_typed: parameters must be taken by value or by const reference");
  static_assert((... && TypeTraits<std::decay_t<A>>::kConvertible),
                "set_body_typed: a parameter type has no conversion from a packed value; supported: bool, integers, "
                "float, double, std::string, std::string_view, String, Bytes, ObjectRef types, List<T>, Map<K, V>, "
                "std::optional<T>, PackedFunc, Any");
  static_assert((... && (!TypeTraits<std::decay_t<A>>::kConvertible || TypeTraits<std::decay_t<A>>::kTypedAllowed)),
                "set_body_typed: a parameter type cannot appear in a signature (use set_body for raw pointers)");

  using Closure = TypedClosure<F, R, A...>;

  static PackedFunc Make(F body, std::string name) {
    if constexpr (!std::is_void<R>::value) {
      static_assert(TypeTraits<std::decay_t<R>>::kStorable && TypeTraits<std::decay_t<R>>::kTypedAllowed,
                    "set_body_typed: the result type cannot be returned; supported: void and the parameter types");
    }
    constexpr bool kScalarResult = std::is_void<R>::value || TypeTraits<std::decay_t<R>>::kTypedScalar;
    constexpr bool kHasEntry = kScalarResult && (true && ... && kWireParameter<std::decay_t<A>>);
    void* entry = nullptr;
    if constexpr (kHasEntry) {
      using Entry = TypedEntry<Closure, std::decay_t<R>, std::index_sequence_for<A...>, A...>;
      auto function_pointer = &Entry::Entry;
      entry = reinterpret_cast<void*>(function_pointer);
    }
    std::string signature = SignatureOf<R, A...>();
    auto* closure = new Closure{std::move(name), std::move(body)};
    return PackedFunc(ObjectPtr<Object>::FromOwnedHandle(NewFunctionObject(closure, signature, entry)));
  }
};

}  // namespace details

template <typename F>
PackedFunc PackedFunc::FromTyped(F body, std::string name) {
  using Traits = details::CallableTraits<F>;
  return details::TypedFunctionFactory<F, typename Traits::Result, typename Traits::Params>::Make(std::move(body),
                                                                                                 std::move(name));
}

}  // namespace packed4j

#endif  // PACKED4J_FUNCTION_H_
