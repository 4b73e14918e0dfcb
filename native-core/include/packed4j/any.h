/*!
 * \file packed4j/any.h
 * \brief Values: the conversion rules between C++ types and P4JAny (TypeTraits) and the owning value Any.
 *
 * Each supported C++ type has a TypeTraits specialization that says how to read it from a P4JAny (checked:
 * a wrong type is a TypeError, an integer that does not fit is a ValueError, both naming where the value
 * came from), how to store it into an owned P4JAny, and its name in signatures ("int64", "list<string>").
 * Args, RetValue, the containers and set_body_typed are all built on these rules.
 */
#ifndef PACKED4J_ANY_H_
#define PACKED4J_ANY_H_

#include <packed4j/object.h>

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace packed4j {
namespace details {

/*!
 * \brief Where a value being converted came from, for error messages. Building one costs nothing; the text
 *  is only produced when a conversion fails.
 */
struct ConvertContext {
  enum Role : int32_t { kPlain = 0, kArgument, kElement, kMapKey, kMapValue, kResult, kCallResult };
  Role role = kPlain;
  const char* function = nullptr;  /*!< the function's registered name, for kArgument and kResult */
  int64_t index = -1;              /*!< argument or element index */
  const P4JAny* key = nullptr;     /*!< the key, for kMapValue */

  static ConvertContext Argument(const char* function, int64_t index) {
    ConvertContext context;
    context.role = kArgument;
    context.function = function;
    context.index = index;
    return context;
  }
  static ConvertContext Element(int64_t index) {
    ConvertContext context;
    context.role = kElement;
    context.index = index;
    return context;
  }
  static ConvertContext MapKey() {
    ConvertContext context;
    context.role = kMapKey;
    return context;
  }
  static ConvertContext MapValue(const P4JAny* key) {
    ConvertContext context;
    context.role = kMapValue;
    context.key = key;
    return context;
  }
  static ConvertContext Result(const char* function) {
    ConvertContext context;
    context.role = kResult;
    context.function = function;
    return context;
  }
  /*! \brief The result of a PackedFunc call, converted by its caller (packed4j::CallResult). */
  static ConvertContext CallResult() {
    ConvertContext context;
    context.role = kCallResult;
    return context;
  }
};

/*! \brief Quotes bytes for a message: escapes quotes and control bytes, cuts long text with "...". */
inline std::string QuoteForMessage(std::string_view text) {
  constexpr size_t kMaxShown = 40;
  std::string out = "\"";
  for (size_t i = 0; i < text.size() && i < kMaxShown; ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      char escaped[8];
      std::snprintf(escaped, sizeof(escaped), "\\x%02x", c);
      out += escaped;
    } else {
      out += static_cast<char>(c);
    }
  }
  if (text.size() > kMaxShown) out += "...";
  out += '"';
  return out;
}

/*! \brief Formats a double so that it reads back to the same value. */
inline std::string FormatDouble(double value) {
  char text[40];
  std::snprintf(text, sizeof(text), "%.17g", value);
  return text;
}

/*! \brief Describes a value for a message: `int 5`, `string "abc"`, `Calculator object`, `None`, ... */
inline std::string DescribeValue(const P4JAny& value) {
  switch (value.type_index) {
    case kP4JNone:
      return "None";
    case kP4JInt:
      return "int " + std::to_string(value.v_int64);
    case kP4JBool:
      return value.v_int64 != 0 ? "bool true" : "bool false";
    case kP4JFloat:
      return "float " + FormatDouble(value.v_float64);
    case kP4JOpaquePtr:
      return "opaque pointer";
    case kP4JDataType:
      return "data type";
    case kP4JDevice:
      return "device";
    case kP4JDLTensorPtr:
      return "DLTensor pointer";
    case kP4JStrView:
      return "string " + QuoteForMessage(std::string_view(static_cast<const char*>(value.v_ptr), value.small_len));
    case kP4JBytesView:
      return "bytes of size " + std::to_string(value.small_len);
    default:
      break;
  }
  if (value.type_index < kP4JStaticObjectBegin || value.v_obj == nullptr) {
    return "value of type index " + std::to_string(value.type_index);
  }
  P4JObject* handle = value.v_obj;
  switch (handle->type_index) {
    case kP4JString:
      return "string " + QuoteForMessage(ViewOf(*CellOf<P4JByteArray>(handle)));
    case kP4JBytes:
      return "bytes of size " + std::to_string(CellOf<P4JByteArray>(handle)->size);
    case kP4JList:
      return "list of size " + std::to_string(CellOf<P4JListCell>(handle)->size);
    case kP4JMap:
      return "map of size " + std::to_string(CellOf<P4JMapCell>(handle)->size);
    case kP4JFunction:
      return "function";
    default:
      return TypeKeyOf(handle->type_index) + " object";
  }
}

/*! \brief The start of a conversion message: "calculator.MyAdd: argument 1 ", "list element at index 3 ", ... */
inline std::string DescribeContext(const ConvertContext& context) {
  switch (context.role) {
    case ConvertContext::kArgument:
      return std::string(context.function != nullptr ? context.function : "<anonymous>") + ": argument " +
             std::to_string(context.index) + " ";
    case ConvertContext::kElement:
      return "list element at index " + std::to_string(context.index) + " ";
    case ConvertContext::kMapKey:
      return "map key ";
    case ConvertContext::kMapValue:
      return "map value for key " + (context.key != nullptr ? DescribeValue(*context.key) : std::string("?")) + " ";
    case ConvertContext::kResult:
      return std::string(context.function != nullptr ? context.function : "<anonymous>") + ": result ";
    case ConvertContext::kCallResult:
      return "the result of a called function ";
    default:
      return std::string();
  }
}

/*! \brief TypeError: `calculator.MyAdd: argument 1 expected int32, got string "abc"`. */
[[noreturn]] inline void ThrowTypeMismatch(const ConvertContext& context, const std::string& expected,
                                           const P4JAny& got) {
  throw TypeError(DescribeContext(context) + "expected " + expected + ", got " + DescribeValue(got));
}

/*! \brief ValueError: `calculator.MyAdd: argument 0 value 3000000000 is out of range for int32`. */
[[noreturn]] inline void ThrowOutOfRange(const ConvertContext& context, const std::string& value_text,
                                         const std::string& target) {
  throw ValueError(DescribeContext(context) + "value " + value_text + " is out of range for " + target);
}

/*! \brief Sets out to an integer value. */
inline void StoreInt(int64_t value, P4JAny* out) noexcept {
  out->type_index = kP4JInt;
  out->zero_padding = 0;
  out->v_int64 = value;
}

/*! \brief Sets out to a borrowed object (takes a reference) or None for nullptr. */
inline void StoreObject(P4JObject* handle, P4JAny* out) noexcept {
  if (handle == nullptr) {
    *out = NoneValue();
    return;
  }
  IncRef(handle);
  out->type_index = handle->type_index;
  out->zero_padding = 0;
  out->v_obj = handle;
}

/*! \brief Sets out to an owned object (no increment) or None for nullptr. */
inline void StoreOwnedObject(P4JObject* handle, P4JAny* out) noexcept {
  if (handle == nullptr) {
    *out = NoneValue();
    return;
  }
  out->type_index = handle->type_index;
  out->zero_padding = 0;
  out->v_obj = handle;
}

/*! \brief A new kP4JString object holding a copy of text; owned by the caller. */
inline P4JObject* NewStringObject(std::string_view text) {
  P4JByteArray bytes = ByteArrayOf(text);
  P4JAny out;
  CheckCall(P4JStringFromByteArray(&bytes, &out));
  return out.v_obj;
}

/*! \brief A new kP4JBytes object holding a copy of data; owned by the caller. */
inline P4JObject* NewBytesObject(std::string_view data) {
  P4JByteArray bytes = ByteArrayOf(data);
  P4JAny out;
  CheckCall(P4JBytesFromByteArray(&bytes, &out));
  return out.v_obj;
}

/*! \brief Whether an object's type is target_type_index or derives from it; the exact match needs no call. */
inline bool ObjectIsInstance(const P4JObject* handle, int32_t target_type_index) {
  return handle->type_index == target_type_index || target_type_index == kP4JObject ||
         P4JTypeIsInstanceOf(handle->type_index, target_type_index) != 0;
}

/*! \brief Whether value is an object (not None, not a POD). */
inline bool IsObjectValue(const P4JAny& value) {
  return value.type_index >= kP4JStaticObjectBegin && value.v_obj != nullptr;
}

/*! \brief The signature name of an integer type: int8 ... uint64 (char counts as int8 or uint8). */
template <typename T>
std::string IntegerTypeName() {
  std::string name = std::is_signed<T>::value ? "int" : "uint";
  return name + std::to_string(sizeof(T) * 8);
}

/*!
 * \brief A type without conversion rules. Shared by every unsupported type so that templates can test
 *  kConvertible / kStorable instead of failing deep inside.
 */
struct UnsupportedTraits {
  static constexpr bool kConvertible = false;
  static constexpr bool kStorable = false;
  static constexpr bool kTypedAllowed = false;
  static constexpr bool kTypedScalar = false;
};

template <typename RefT>
struct ObjectRefTraits;

/*! \brief What TypeTraits<T> is when nothing more specific matches: ObjectRef subclasses, or unsupported. */
template <typename T>
using DefaultTraits =
    std::conditional_t<std::is_base_of<ObjectRef, T>::value, ObjectRefTraits<T>, UnsupportedTraits>;

/*!
 * \brief The conversion rules of T. Members of a specialization:
 *  - kConvertible: `static T Convert(const P4JAny&, const ConvertContext&)` reads a borrowed value (checked);
 *  - kStorable: `static void Store(value, P4JAny* out)` writes an owned value;
 *  - kTypedAllowed: usable in set_body_typed, with `static std::string TypeName()` for the signature;
 *  - kTypedScalar: bool, integer or floating point (what a typed entry passes as a machine word).
 */
template <typename T, typename = void>
struct TypeTraits : DefaultTraits<T> {};

/*!
 * \brief TypeTraits<T>::kStorable and kConvertible as types, for std::conjunction: it instantiates TypeTraits<T>
 *  only when the conditions before it hold. Any's converting templates test "not Any, and storable"; with a plain
 *  &&, clang instantiated TypeTraits<Any> while Any was being defined, before its specialization below.
 */
template <typename T>
struct IsStorable : std::bool_constant<TypeTraits<T>::kStorable> {};
template <typename T>
struct IsConvertible : std::bool_constant<TypeTraits<T>::kConvertible> {};

/*! \brief bool: kP4JBool, or an integer 0/1. */
template <>
struct TypeTraits<bool> {
  static constexpr bool kConvertible = true;
  static constexpr bool kStorable = true;
  static constexpr bool kTypedAllowed = true;
  static constexpr bool kTypedScalar = true;
  static std::string TypeName() { return "bool"; }
  static bool Convert(const P4JAny& value, const ConvertContext& context) {
    if (value.type_index == kP4JBool) return value.v_int64 != 0;
    if (value.type_index == kP4JInt) {
      if (value.v_int64 == 0 || value.v_int64 == 1) return value.v_int64 != 0;
      ThrowOutOfRange(context, std::to_string(value.v_int64), "bool");
    }
    ThrowTypeMismatch(context, TypeName(), value);
  }
  static void Store(bool value, P4JAny* out) noexcept {
    out->type_index = kP4JBool;
    out->zero_padding = 0;
    out->v_int64 = value ? 1 : 0;
  }
};

/*! \brief Narrows an int64 to T, or throws ValueError naming the value and T. */
template <typename T>
inline T NarrowInt64(int64_t value, const ConvertContext& context) {
  if constexpr (std::is_signed<T>::value && sizeof(T) == sizeof(int64_t)) {
    return static_cast<T>(value);
  } else if constexpr (std::is_unsigned<T>::value && sizeof(T) == sizeof(int64_t)) {
    if (value < 0) ThrowOutOfRange(context, std::to_string(value), IntegerTypeName<T>());
    return static_cast<T>(value);
  } else {
    if (value < static_cast<int64_t>(std::numeric_limits<T>::min()) ||
        value > static_cast<int64_t>(std::numeric_limits<T>::max())) {
      ThrowOutOfRange(context, std::to_string(value), IntegerTypeName<T>());
    }
    return static_cast<T>(value);
  }
}

/*!
 * \brief Widens T to the int64 wire type; a uint64 above INT64_MAX does not fit and is a ValueError placed by
 *  context ("demo.Big: result value 18446744073709551615 is out of range for int64, ...").
 */
template <typename T>
inline int64_t WidenToInt64(T value, const ConvertContext& context = ConvertContext()) {
  if constexpr (std::is_unsigned<T>::value && sizeof(T) == sizeof(int64_t)) {
    if (value > static_cast<T>(std::numeric_limits<int64_t>::max())) {
      ThrowOutOfRange(context, std::to_string(value), "int64, the wire type of integers");
    }
  }
  return static_cast<int64_t>(value);
}

/*! \brief Integers: kP4JInt (int64 on the wire), range-checked when narrowing; a bool reads as 0/1. */
template <typename T>
struct TypeTraits<T, std::enable_if_t<std::is_integral<T>::value && !std::is_same<T, bool>::value>> {
  static constexpr bool kConvertible = true;
  static constexpr bool kStorable = true;
  static constexpr bool kTypedAllowed = true;
  static constexpr bool kTypedScalar = true;
  static std::string TypeName() { return IntegerTypeName<T>(); }
  static T Convert(const P4JAny& value, const ConvertContext& context) {
    if (value.type_index == kP4JInt) return NarrowInt64<T>(value.v_int64, context);
    if (value.type_index == kP4JBool) return static_cast<T>(value.v_int64 != 0 ? 1 : 0);
    ThrowTypeMismatch(context, TypeName(), value);
  }
  static void Store(T value, P4JAny* out) { StoreInt(WidenToInt64(value), out); }
};

/*! \brief Narrows a double to T (float: a finite value beyond FLT_MAX is a ValueError; precision may drop). */
template <typename T>
inline T NarrowFloat64(double value, const ConvertContext& context) {
  if constexpr (sizeof(T) < sizeof(double)) {
    if (std::isfinite(value) && std::fabs(value) > static_cast<double>(std::numeric_limits<T>::max())) {
      ThrowOutOfRange(context, FormatDouble(value), "float32");
    }
  }
  (void)context;
  return static_cast<T>(value);
}

/*!
 * \brief Whether a double holds the int64 value exactly (|value| up to 2^53, or a multiple of a power of two a
 *  double holds): the one rule of packed4j-types' Narrowing.isExactDouble, which the Java side applies to results.
 */
inline bool IsExactDouble(int64_t value) noexcept {
  double converted = static_cast<double>(value);
  // 2^63 rounds up from INT64_MAX and is out of int64's range, so it is tested before converting back.
  return converted < 9223372036854775808.0 && static_cast<int64_t>(converted) == value;
}

/*!
 * \brief An int64 read as T (float or double): through a double that must hold it exactly, then narrowed like a
 *  float64 (never rounded silently: an int64 a double cannot hold is a ValueError naming the value).
 */
template <typename T>
inline T Int64ToFloat(int64_t value, const ConvertContext& context) {
  if (!IsExactDouble(value)) {
    throw ValueError(DescribeContext(context) + "value " + std::to_string(value) + " does not fit in " +
                     (sizeof(T) == sizeof(float) ? "float32" : "float64") + " without rounding");
  }
  return NarrowFloat64<T>(static_cast<double>(value), context);
}

/*! \brief float and double: kP4JFloat (float64 on the wire); an integer converts too, when a double holds it. */
template <typename T>
struct TypeTraits<T, std::enable_if_t<std::is_floating_point<T>::value>> {
  static_assert(sizeof(T) <= sizeof(double), "long double is not supported: the wire type of floats is float64");
  static constexpr bool kConvertible = true;
  static constexpr bool kStorable = true;
  static constexpr bool kTypedAllowed = true;
  static constexpr bool kTypedScalar = true;
  static std::string TypeName() { return sizeof(T) == sizeof(float) ? "float32" : "float64"; }
  static T Convert(const P4JAny& value, const ConvertContext& context) {
    if (value.type_index == kP4JFloat) return NarrowFloat64<T>(value.v_float64, context);
    if (value.type_index == kP4JInt) return Int64ToFloat<T>(value.v_int64, context);
    ThrowTypeMismatch(context, TypeName(), value);
  }
  static void Store(T value, P4JAny* out) noexcept {
    out->type_index = kP4JFloat;
    out->zero_padding = 0;
    out->v_float64 = static_cast<double>(value);
  }
};

/*! \brief The bytes of a string value (a kP4JStrView or a kP4JString object), or false if it is neither. */
inline bool StringBytesOf(const P4JAny& value, std::string_view* out) {
  if (value.type_index == kP4JStrView) {
    *out = std::string_view(static_cast<const char*>(value.v_ptr), value.small_len);
    return true;
  }
  if (IsObjectValue(value) && value.v_obj->type_index == kP4JString) {
    *out = ViewOf(*CellOf<P4JByteArray>(value.v_obj));
    return true;
  }
  return false;
}

/*! \brief std::string: from a string view or a String object, byte-exact (embedded NUL kept). */
template <>
struct TypeTraits<std::string> {
  static constexpr bool kConvertible = true;
  static constexpr bool kStorable = true;
  static constexpr bool kTypedAllowed = true;
  static constexpr bool kTypedScalar = false;
  static std::string TypeName() { return "string"; }
  static std::string Convert(const P4JAny& value, const ConvertContext& context) {
    std::string_view bytes;
    if (!StringBytesOf(value, &bytes)) ThrowTypeMismatch(context, TypeName(), value);
    return std::string(bytes);
  }
  static void Store(const std::string& value, P4JAny* out) { StoreOwnedObject(NewStringObject(value), out); }
};

/*!
 * \brief std::string_view: no copy; the bytes live as long as the value read (the call's arguments, or the
 *  container or Any holding the String). Stored as a new String.
 */
template <>
struct TypeTraits<std::string_view> {
  static constexpr bool kConvertible = true;
  static constexpr bool kStorable = true;
  static constexpr bool kTypedAllowed = true;
  static constexpr bool kTypedScalar = false;
  static std::string TypeName() { return "string"; }
  static std::string_view Convert(const P4JAny& value, const ConvertContext& context) {
    std::string_view bytes;
    if (!StringBytesOf(value, &bytes)) ThrowTypeMismatch(context, TypeName(), value);
    return bytes;
  }
  static void Store(std::string_view value, P4JAny* out) { StoreOwnedObject(NewStringObject(value), out); }
};

/*! \brief const char*: stored only (`*rv = "text";`); reading one would not outlive the call. */
template <>
struct TypeTraits<const char*> {
  static constexpr bool kConvertible = false;
  static constexpr bool kStorable = true;
  static constexpr bool kTypedAllowed = false;
  static constexpr bool kTypedScalar = false;
  static std::string TypeName() { return "string"; }
  static void Store(const char* value, P4JAny* out) {
    StoreOwnedObject(NewStringObject(value != nullptr ? std::string_view(value) : std::string_view()), out);
  }
};

template <>
struct TypeTraits<char*> : TypeTraits<const char*> {};

/*! \brief nullptr: stored as None. */
template <>
struct TypeTraits<std::nullptr_t> {
  static constexpr bool kConvertible = false;
  static constexpr bool kStorable = true;
  static constexpr bool kTypedAllowed = false;
  static constexpr bool kTypedScalar = false;
  static void Store(std::nullptr_t, P4JAny* out) noexcept { *out = NoneValue(); }
};

/*!
 * \brief void*: kP4JOpaquePtr (not owned; None reads as nullptr). For set_body only: signatures have no name
 *  for raw addresses.
 */
template <>
struct TypeTraits<void*> {
  static constexpr bool kConvertible = true;
  static constexpr bool kStorable = true;
  static constexpr bool kTypedAllowed = false;
  static constexpr bool kTypedScalar = false;
  static std::string TypeName() { return "opaque pointer"; }
  static void* Convert(const P4JAny& value, const ConvertContext& context) {
    if (value.type_index == kP4JOpaquePtr) return value.v_ptr;
    if (value.type_index == kP4JNone) return nullptr;
    ThrowTypeMismatch(context, TypeName(), value);
  }
  static void Store(void* value, P4JAny* out) noexcept {
    out->type_index = kP4JOpaquePtr;
    out->zero_padding = 0;
    out->v_ptr = value;
  }
};

/*!
 * \brief ObjectRef and its subclasses: an object of the reference's ContainerType (or a subtype).
 *  None is accepted only by ObjectRef itself; a typed reference that may be absent is std::optional<Ref>.
 *  A plain ObjectRef also accepts a string or bytes view, turned into a String or Bytes object.
 */
template <typename RefT>
struct ObjectRefTraits {
  using ObjectType = typename RefT::ContainerType;
  static constexpr bool kNullable = std::is_same<RefT, ObjectRef>::value;
  static constexpr bool kConvertible = true;
  static constexpr bool kStorable = true;
  static constexpr bool kTypedAllowed = true;
  static constexpr bool kTypedScalar = false;
  static std::string TypeName() { return ObjectType::_type_key; }
  static RefT Convert(const P4JAny& value, const ConvertContext& context) {
    if (IsObjectValue(value)) {
      if (ObjectIsInstance(value.v_obj, ObjectType::RuntimeTypeIndex())) {
        return ObjectRefAccess::FromBorrowedHandle<RefT>(value.v_obj);
      }
    } else if (kNullable) {
      if (value.type_index == kP4JNone) return RefT();
      if (value.type_index == kP4JStrView) {
        return ObjectRefAccess::FromOwnedHandle<RefT>(
            NewStringObject(std::string_view(static_cast<const char*>(value.v_ptr), value.small_len)));
      }
      if (value.type_index == kP4JBytesView) {
        return ObjectRefAccess::FromOwnedHandle<RefT>(
            NewBytesObject(std::string_view(static_cast<const char*>(value.v_ptr), value.small_len)));
      }
    }
    // TypeTraits<RefT> may be a specialization with a better name ("list<int64>", "function").
    ThrowTypeMismatch(context, TypeTraits<RefT>::TypeName(), value);
  }
  static void Store(const RefT& value, P4JAny* out) noexcept { StoreObject(value.handle(), out); }
  static void Store(RefT&& value, P4JAny* out) noexcept {
    StoreOwnedObject(ObjectRefAccess::Release(value), out);
  }
};

/*! \brief ObjectPtr<T>: stored as its object (`*rv = make_object<T>();`), read like a reference to T. */
template <typename T>
struct TypeTraits<ObjectPtr<T>> {
  static constexpr bool kConvertible = true;
  static constexpr bool kStorable = true;
  static constexpr bool kTypedAllowed = true;
  static constexpr bool kTypedScalar = false;
  static std::string TypeName() { return T::_type_key; }
  static ObjectPtr<T> Convert(const P4JAny& value, const ConvertContext& context) {
    if (IsObjectValue(value) && ObjectIsInstance(value.v_obj, T::RuntimeTypeIndex())) {
      return ObjectPtr<T>::FromBorrowedHandle(value.v_obj);
    }
    ThrowTypeMismatch(context, TypeName(), value);
  }
  static void Store(const ObjectPtr<T>& value, P4JAny* out) noexcept { StoreObject(value.handle(), out); }
  static void Store(ObjectPtr<T>&& value, P4JAny* out) noexcept { StoreOwnedObject(value.release(), out); }
};

/*! \brief std::optional<T>: None or a T. */
template <typename T>
struct TypeTraits<std::optional<T>> {
  static constexpr bool kConvertible = TypeTraits<T>::kConvertible;
  static constexpr bool kStorable = TypeTraits<T>::kStorable;
  static constexpr bool kTypedAllowed = TypeTraits<T>::kTypedAllowed;
  static constexpr bool kTypedScalar = false;
  static std::string TypeName() { return "optional<" + TypeTraits<T>::TypeName() + ">"; }
  static std::optional<T> Convert(const P4JAny& value, const ConvertContext& context) {
    if (value.type_index == kP4JNone) return std::nullopt;
    return TypeTraits<T>::Convert(value, context);
  }
  static void Store(const std::optional<T>& value, P4JAny* out) {
    if (value.has_value()) {
      TypeTraits<T>::Store(*value, out);
    } else {
      *out = NoneValue();
    }
  }
  static void Store(std::optional<T>&& value, P4JAny* out) {
    if (value.has_value()) {
      TypeTraits<T>::Store(std::move(*value), out);
    } else {
      *out = NoneValue();
    }
  }
};

/*!
 * \brief Copies a borrowed value into an owned one: objects get a reference, string and bytes views become objects,
 *  a borrowed DLTensor becomes an NDArray over the same memory (its caller keeps the memory alive).
 */
inline P4JAny CopyToOwned(const P4JAny& value) {
  if (value.type_index == kP4JDLTensorPtr && value.v_ptr != nullptr) {
    P4JObjectHandle handle = nullptr;
    CheckCall(P4JNDArrayCreateView(static_cast<const DLTensor*>(value.v_ptr), nullptr, nullptr, &handle));
    P4JAny out;
    StoreOwnedObject(handle, &out);
    return out;
  }
  if (value.type_index == kP4JStrView) {
    P4JAny out;
    StoreOwnedObject(NewStringObject(std::string_view(static_cast<const char*>(value.v_ptr), value.small_len)), &out);
    return out;
  }
  if (value.type_index == kP4JBytesView) {
    P4JAny out;
    StoreOwnedObject(NewBytesObject(std::string_view(static_cast<const char*>(value.v_ptr), value.small_len)), &out);
    return out;
  }
  if (IsObjectValue(value)) IncRef(value.v_obj);
  return value;
}

}  // namespace details

/*!
 * \brief An owned value of any supported type: None, bool, int64, float64, an object (String, List, ...).
 *
 * Converts from every storable type and, checked, to every convertible one:
 * \code
 *   Any value = 42;
 *   int64_t n = value;                 // 42
 *   std::string s = value;             // TypeError: expected string, got int 42
 *   Any text = std::string("casio");   // a String object
 * \endcode
 */
class Any {
 public:
  /*! \brief None. */
  Any() noexcept : value_(details::NoneValue()) {}
  Any(const Any& other) noexcept : value_(other.value_) {
    if (details::IsObjectValue(value_)) details::IncRef(value_.v_obj);
  }
  Any(Any&& other) noexcept : value_(other.value_) { other.value_ = details::NoneValue(); }
  /*! \brief Stores any storable C++ value (42, "text", a List, an ObjectPtr, ...). */
  template <typename T, typename Decayed = std::decay_t<T>,
            typename = std::enable_if_t<std::conjunction<std::negation<std::is_base_of<Any, Decayed>>,
                                                           details::IsStorable<Decayed>>::value>>
  Any(T&& value) {  // NOLINT(runtime/explicit): values convert to Any implicitly, like in a dynamic language
    details::TypeTraits<Decayed>::Store(std::forward<T>(value), &value_);
  }
  ~Any() { Reset(); }

  Any& operator=(const Any& other) noexcept {
    Any copy(other);
    std::swap(value_, copy.value_);
    return *this;
  }
  Any& operator=(Any&& other) noexcept {
    std::swap(value_, other.value_);
    return *this;
  }
  template <typename T, typename Decayed = std::decay_t<T>,
            typename = std::enable_if_t<std::conjunction<std::negation<std::is_base_of<Any, Decayed>>,
                                                           details::IsStorable<Decayed>>::value>>
  Any& operator=(T&& value) {
    Any stored(std::forward<T>(value));
    std::swap(value_, stored.value_);
    return *this;
  }

  /*! \brief An owned copy of a borrowed value (string views become String objects). */
  static Any FromBorrowed(const P4JAny& value) { return FromOwned(details::CopyToOwned(value)); }
  /*! \brief Adopts an owned value. */
  static Any FromOwned(const P4JAny& value) noexcept {
    Any any;
    any.value_ = value;
    return any;
  }

  /*! \brief Gives the value away (the caller owns it); this becomes None. */
  P4JAny release() noexcept {
    P4JAny value = value_;
    value_ = details::NoneValue();
    return value;
  }
  /*! \brief The value, borrowed. */
  const P4JAny& raw() const noexcept { return value_; }
  /*! \brief Its type index (an object's own index for objects). */
  int32_t type_index() const noexcept { return value_.type_index; }
  /*! \brief Whether it is None. */
  bool is_none() const noexcept { return value_.type_index == kP4JNone; }
  /*! \brief Drops the value; this becomes None. */
  void Reset() noexcept {
    if (details::IsObjectValue(value_)) details::DecRef(value_.v_obj);
    value_ = details::NoneValue();
  }

  /*! \brief Converts to T, checked (TypeError / ValueError). \code int64_t n = value.cast<int64_t>(); \endcode */
  template <typename T>
  T cast() const {
    return details::TypeTraits<T>::Convert(value_, details::ConvertContext());
  }
  /*! \brief Converts to T, checked, so `int x = value;` and `static_cast<int>(value)` work. */
  template <typename T, typename = std::enable_if_t<
                            std::conjunction<std::negation<std::is_same<T, Any>>, details::IsConvertible<T>>::value>>
  operator T() const {  // NOLINT(runtime/explicit)
    return cast<T>();
  }

  /*! \brief A description for messages: `int 5`, `string "abc"`, ... */
  std::string Describe() const { return details::DescribeValue(value_); }

 private:
  P4JAny value_;
};

namespace details {

/*! \brief Any: every value; views are copied into objects. */
template <>
struct TypeTraits<Any> {
  static constexpr bool kConvertible = true;
  static constexpr bool kStorable = true;
  static constexpr bool kTypedAllowed = true;
  static constexpr bool kTypedScalar = false;
  static std::string TypeName() { return "any"; }
  static Any Convert(const P4JAny& value, const ConvertContext&) { return Any::FromBorrowed(value); }
  static void Store(const Any& value, P4JAny* out) { *out = CopyToOwned(value.raw()); }
  static void Store(Any&& value, P4JAny* out) noexcept { *out = value.release(); }
};

}  // namespace details
}  // namespace packed4j

#endif  // PACKED4J_ANY_H_
