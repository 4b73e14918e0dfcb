/*!
 * \file packed4j/typed_function.h
 * \brief TypedPackedFunc<R(A...)>: a PackedFunc called with a signature known at compile time, through the
 *  function's typed entry (P4JFunctionCell.typed_entry) when its recorded signature is that one, so a call packs
 *  nothing: the way C++ calls a Java callback or a Java global at the speed of a plain function pointer.
 */
#ifndef PACKED4J_TYPED_FUNCTION_H_
#define PACKED4J_TYPED_FUNCTION_H_

#include <packed4j/function.h>

#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

namespace packed4j {
namespace details {

/*! \brief One argument of a typed entry call: the wire value, and for a string the span it points at. */
template <typename T, typename = void>
struct WireValue {
  WireArg<T> value;
  WireValue(const T& argument, const char* function, int64_t index) {
    if constexpr (std::is_same<T, bool>::value) {
      value = argument ? 1 : 0;
    } else if constexpr (std::is_integral<T>::value) {
      value = WidenToInt64(argument, ConvertContext::Argument(function, index));
    } else {
      value = static_cast<double>(argument);
    }
  }
  WireArg<T> get() const noexcept { return value; }
};

template <typename T>
struct WireValue<T, std::enable_if_t<kWireSpan<T>>> {
  P4JByteArray span;
  WireValue(const T& argument, const char*, int64_t) : span(ByteArrayOf(std::string_view(argument))) {}
  const P4JByteArray* get() const noexcept { return &span; }
};

}  // namespace details

template <typename Signature>
class TypedPackedFunc;

/*!
 * \brief A function called as R(A...): through its typed entry when it has one of exactly this signature (a
 *  function made by set_body_typed or FromTyped, or a Java callback of a typed functional interface), else packed.
 *  Errors are thrown as C++ exceptions either way; a result that does not convert to R names the global (when
 *  GetGlobal made this) and the result: "probe.Big: result value 4000000000 is out of range for int32".
 *
 * \code
 *   TypedPackedFunc<int64_t(int64_t, int64_t)> add(args[0]);   // a Java LongBinaryOperator, say
 *   int64_t sum = 0;
 *   for (int64_t i = 0; i < n; ++i) sum += add(sum, i);        // no packing per call
 *   auto log = TypedPackedFunc<void(std::string)>::GetGlobal("host.Log");
 * \endcode
 */
template <typename R, typename... A>
class TypedPackedFunc<R(A...)> {
  static constexpr bool kHasWireForm =
      (std::is_void<R>::value || details::TypeTraits<std::decay_t<R>>::kTypedScalar) &&
      (true && ... && details::kScalarWireParameter<std::decay_t<A>>);

 public:
  TypedPackedFunc() noexcept = default;

  /*! \brief Wraps function; looks its typed entry up once, here. */
  TypedPackedFunc(PackedFunc function) : function_(std::move(function)) {  // NOLINT(runtime/explicit)
    if constexpr (kHasWireForm) {
      // The signature string is made once per R(A...), not per wrap (a Java callback is wrapped at every call).
      static const std::string kSignature = details::SignatureOf<R, A...>();
      if (function_.defined() && function_.typed_entry() != nullptr) {
        P4JByteArray recorded{nullptr, 0};  // borrowed from the function: compared without a copy
        if (P4JFunctionGetSignature(function_.handle(), &recorded) == 0 && details::ViewOf(recorded) == kSignature) {
          entry_ = reinterpret_cast<void*>(function_.typed_entry());
        }
      }
    }
  }

  /*! \brief The global function registered under name; an undefined one when none is. */
  static TypedPackedFunc GetGlobal(std::string_view name) {
    TypedPackedFunc function(PackedFunc::GetGlobal(name));
    function.name_.assign(name);
    return function;
  }

  /*! \brief Whether calls take the typed entry (the signatures matched). */
  bool uses_typed_entry() const noexcept { return entry_ != nullptr; }

  /*! \brief Whether a function is held (false for one GetGlobal did not find). */
  bool defined() const noexcept { return function_.defined(); }

  /*! \brief The function itself. */
  const PackedFunc& packed() const noexcept { return function_; }

  /*! \brief Calls the function; its error is thrown as the matching packed4j::Error kind. */
  R operator()(A... args) const {
    if constexpr (kHasWireForm) {
      if (entry_ != nullptr) return CallTyped(std::index_sequence_for<A...>(), args...);
    }
    return CallPacked(std::index_sequence_for<A...>(), args...);
  }

 private:
  /*! \brief An argument as the packed call passes it: an integer widened here, so its error names its place. */
  template <typename T>
  static decltype(auto) PackedValue(const T& argument, [[maybe_unused]] const char* function,
                                    [[maybe_unused]] int64_t index) {
    if constexpr (std::is_integral<T>::value && !std::is_same<T, bool>::value) {
      return details::WidenToInt64(argument, details::ConvertContext::Argument(function, index));
    } else {
      return (argument);
    }
  }

  template <size_t... I>
  R CallPacked(std::index_sequence<I...>, const A&... args) const {
    if (!function_.defined()) {  // an undefined function has no typed entry: only this route sees it
      throw ValueError(std::string(name()) + (name_.empty() ? ": calling an undefined function"
                                                            : ": no global function of this name is registered"));
    }
    if constexpr (std::is_void<R>::value) {
      function_(PackedValue(args, name(), static_cast<int64_t>(I))...);
    } else {
      Any result = function_(PackedValue(args, name(), static_cast<int64_t>(I))...);
      return details::TypeTraits<std::decay_t<R>>::Convert(result.raw(), details::ConvertContext::Result(name()));
    }
  }

  template <size_t... I>
  R CallTyped(std::index_sequence<I...>, const A&... args) const {
    using Wire = details::WireResult<std::decay_t<R>>;
    using Entry = Wire (*)(P4JObjectHandle, details::WireArg<std::decay_t<A>>...);
    std::tuple<details::WireValue<std::decay_t<A>>...> wires{
        details::WireValue<std::decay_t<A>>(args, name(), static_cast<int64_t>(I))...};
    Wire result = reinterpret_cast<Entry>(entry_)(function_.handle(), std::get<I>(wires).get()...);
    details::ThrowIfTypedError(result);
    if constexpr (std::is_void<R>::value) {
      return;
    } else if constexpr (std::is_same<std::decay_t<R>, bool>::value) {
      return result != 0;
    } else if constexpr (std::is_integral<std::decay_t<R>>::value) {
      return details::NarrowInt64<std::decay_t<R>>(result, details::ConvertContext::Result(name()));
    } else {
      return static_cast<R>(result);
    }
  }

  /*! \brief What errors call the function: the global's name, or "TypedPackedFunc" for a function passed in. */
  const char* name() const noexcept { return name_.empty() ? "TypedPackedFunc" : name_.c_str(); }

  PackedFunc function_;
  void* entry_ = nullptr;
  std::string name_;  // set by GetGlobal
};

namespace details {

/*!
 * \brief TypedPackedFunc<R(A...)>: a function object, as PackedFunc, wrapped once when converted (a set_body_typed
 *  parameter, ArgValue::cast, a list element); its signature names it "function", as PackedFunc's.
 */
template <typename R, typename... A>
struct TypeTraits<TypedPackedFunc<R(A...)>> {
  static constexpr bool kConvertible = true;
  static constexpr bool kStorable = true;
  static constexpr bool kTypedAllowed = true;
  static constexpr bool kTypedScalar = false;
  static std::string TypeName() { return TypeTraits<PackedFunc>::TypeName(); }
  static TypedPackedFunc<R(A...)> Convert(const P4JAny& value, const ConvertContext& context) {
    return TypedPackedFunc<R(A...)>(TypeTraits<PackedFunc>::Convert(value, context));
  }
  static void Store(const TypedPackedFunc<R(A...)>& value, P4JAny* out) {
    TypeTraits<PackedFunc>::Store(value.packed(), out);
  }
};

}  // namespace details
}  // namespace packed4j

#endif  // PACKED4J_TYPED_FUNCTION_H_
