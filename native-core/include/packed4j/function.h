/*!
 * \file packed4j/function.h
 * \brief Functions: Args and RetValue (the packed calling convention seen from C++) and PackedFunc. The entry
 *  machinery behind set_body and set_body_typed (closures, their scalars and typed entries, signature strings)
 *  is in packed4j/details/function_entries.h, included at the end.
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
#include <limits>
#include <string>
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
  FunctionObject() noexcept : cell{nullptr, nullptr, nullptr, nullptr, 0} {}
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

/*!
 * \brief What a PackedFunc call returns: an Any whose conversions say that the value is a called function's result,
 *  so that `bool keep = callback(key);` of a callback that returned None reads "the result of a called function
 *  expected bool, got None" rather than an error of the caller's own arguments. Copied or moved into an Any, it is
 *  that Any.
 */
class CallResult : public Any {
 public:
  /*! \brief The value a call returned. */
  explicit CallResult(Any&& value) noexcept : Any(std::move(value)) {}
  /*! \brief Replaced by any value, as an Any is (`auto r = f(); r = 5;`). */
  using Any::operator=;

  /*! \brief Converts to T, checked; an error names the value as a call's result. */
  template <typename T>
  T cast() const {
    return details::TypeTraits<T>::Convert(raw(), details::ConvertContext::CallResult());
  }
  /*! \brief Converts to T, checked, so `int64_t n = f(1, 2);` works. */
  template <typename T, typename = std::enable_if_t<
                            std::conjunction<std::negation<std::is_base_of<Any, T>>, details::IsConvertible<T>>::value>>
  operator T() const {  // NOLINT(runtime/explicit)
    return cast<T>();
  }
};

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
  /*! \brief The object type a PackedFunc refers to. */
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
  explicit PackedFunc(Body body, std::string name = "<anonymous>");

  /*!
   * \brief Calls the function; arguments are packed (strings as views, objects lent), errors thrown as C++
   *  exceptions of their kind.
   */
  template <typename... CallArgs>
  CallResult operator()(CallArgs&&... call_args) const;

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
  /*! \brief The typed entry (P4JFunctionCell.typed_entry, whose comment states its contract), or nullptr. */
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
   *  recorded, typed entry when the parameters are scalars or strings and the result a scalar.
   * \code auto mul = PackedFunc::FromTyped([](int64_t a, int64_t b) { return a * b; }, "mul"); \endcode
   */
  template <typename F>
  static PackedFunc FromTyped(F body, std::string name = "<anonymous>");
};

namespace details {

/*!
 * \brief CallResult: what a body that returns a call's result (`return f(x);`) returns, an any as before; never a
 *  parameter type.
 */
template <>
struct TypeTraits<CallResult> : TypeTraits<Any> {
  static constexpr bool kConvertible = false;
};

/*! \brief PackedFunc: a function object (a callback in, a closure out). */
template <>
struct TypeTraits<PackedFunc> : ObjectRefTraits<PackedFunc> {
  static std::string TypeName() { return "function"; }
};

}  // namespace details
}  // namespace packed4j

#include <packed4j/details/function_entries.h>

namespace packed4j {

template <typename Body, typename>
PackedFunc::PackedFunc(Body body, std::string name) {
  auto* closure = new details::PackedClosure<Body>{std::move(name), std::move(body)};
  obj_ = ObjectPtr<Object>::FromOwnedHandle(details::NewFunctionObject(closure, std::string(), nullptr));
}

template <typename... CallArgs>
CallResult PackedFunc::operator()(CallArgs&&... call_args) const {
  constexpr size_t kCount = sizeof...(CallArgs);
  P4JAny packed[kCount + 1] = {};
  Any keep[kCount + 1];
  size_t index = 0;
  ((details::PackArgument(std::forward<CallArgs>(call_args), &packed[index], &keep[index]), ++index), ...);
  (void)index;
  Any result;
  CallPacked(packed, static_cast<int32_t>(kCount), &result);
  return CallResult(std::move(result));
}

template <typename F>
PackedFunc PackedFunc::FromTyped(F body, std::string name) {
  using Traits = details::CallableTraits<F>;
  return details::TypedFunctionFactory<F, typename Traits::Result, typename Traits::Params>::Make(std::move(body),
                                                                                                 std::move(name));
}

}  // namespace packed4j

#endif  // PACKED4J_FUNCTION_H_
