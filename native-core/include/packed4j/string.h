/*!
 * \file packed4j/string.h
 * \brief String and Bytes: immutable byte strings held in objects (kP4JString, kP4JBytes).
 *
 * Their cell (P4JByteArray right after the header) points at the bytes, NUL-terminated for convenience but
 * sized exactly, so UTF-8 with embedded NUL or characters outside the BMP is kept byte for byte. The objects
 * are allocated by libpacked4j.so (one allocation for header and bytes); these classes are views on them.
 */
#ifndef PACKED4J_STRING_H_
#define PACKED4J_STRING_H_

#include <packed4j/any.h>

#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace packed4j {

/*! \brief The object behind String: the header, then the cell. Created only by libpacked4j.so. */
class StringObject : public Object {
 public:
  /*! \brief data (NUL-terminated) and size (without the NUL). */
  P4JStringCell cell;

  static constexpr const char* _type_key = "String";
  P4J_DECLARE_STATIC_OBJECT_TYPE_INFO(StringObject, Object, kP4JString);

 protected:
  StringObject() noexcept : cell{nullptr, 0} {}
};

/*! \brief The object behind Bytes: the header, then the cell. Created only by libpacked4j.so. */
class BytesObject : public Object {
 public:
  /*! \brief data (NUL-terminated) and size (without the NUL). */
  P4JStringCell cell;

  static constexpr const char* _type_key = "Bytes";
  P4J_DECLARE_STATIC_OBJECT_TYPE_INFO(BytesObject, Object, kP4JBytes);

 protected:
  BytesObject() noexcept : cell{nullptr, 0} {}
};

/*!
 * \brief An immutable UTF-8 string object, shared by reference.
 * \code
 *   String name("casio");
 *   std::string copy = name.str();
 *   bool same = name == "casio";
 * \endcode
 */
class String : public ObjectRef {
 public:
  /*! \brief The object type a String refers to. */
  using ContainerType = StringObject;

  /*! \brief The object. */
  const StringObject* get() const noexcept { return static_cast<const StringObject*>(obj_.get()); }
  const StringObject* operator->() const noexcept { return get(); }

  /*! \brief The empty string. */
  String() : String(std::string_view()) {}
  /*! \brief A copy of text (any bytes). */
  String(std::string_view text)  // NOLINT(runtime/explicit): text converts to String naturally
      : ObjectRef(ObjectPtr<Object>::FromOwnedHandle(details::NewStringObject(text))) {}
  String(const std::string& text) : String(std::string_view(text)) {}  // NOLINT(runtime/explicit)
  String(const char* text) : String(std::string_view(text)) {}        // NOLINT(runtime/explicit)
  /*! \brief A reference to an existing String object. */
  explicit String(ObjectPtr<Object> ptr) noexcept : ObjectRef(std::move(ptr)) {}

  /*! \brief The bytes, NUL-terminated. */
  const char* data() const noexcept { return cell()->data; }
  /*! \brief The bytes, NUL-terminated (same as data()). */
  const char* c_str() const noexcept { return cell()->data; }
  /*! \brief Byte length. */
  size_t size() const noexcept { return static_cast<size_t>(cell()->size); }
  bool empty() const noexcept { return cell()->size == 0; }
  /*! \brief A view of the bytes, valid while this String lives. */
  std::string_view view() const noexcept { return details::ViewOf(*cell()); }
  /*! \brief A copy as std::string. */
  std::string str() const { return std::string(view()); }
  operator std::string_view() const noexcept { return view(); }  // NOLINT(runtime/explicit)

  /*! \brief Content comparison (not identity). */
  bool operator==(const String& other) const noexcept { return view() == other.view(); }
  bool operator!=(const String& other) const noexcept { return view() != other.view(); }
  bool operator==(std::string_view other) const noexcept { return view() == other; }
  bool operator!=(std::string_view other) const noexcept { return view() != other; }
  bool operator==(const std::string& other) const noexcept { return view() == other; }
  bool operator!=(const std::string& other) const noexcept { return view() != other; }
  bool operator==(const char* other) const noexcept { return view() == std::string_view(other); }
  bool operator!=(const char* other) const noexcept { return view() != std::string_view(other); }

 private:
  const P4JStringCell* cell() const noexcept { return details::CellOf<P4JStringCell>(handle()); }
};

/*!
 * \brief An immutable byte string object, shared by reference.
 * \code
 *   Bytes blob(std::string_view("\x00\x01", 2));
 *   size_t n = blob.size();  // 2
 * \endcode
 */
class Bytes : public ObjectRef {
 public:
  /*! \brief The object type a Bytes refers to. */
  using ContainerType = BytesObject;

  /*! \brief The object. */
  const BytesObject* get() const noexcept { return static_cast<const BytesObject*>(obj_.get()); }
  const BytesObject* operator->() const noexcept { return get(); }

  /*! \brief No bytes. */
  Bytes() : Bytes(std::string_view()) {}
  /*! \brief A copy of data. */
  explicit Bytes(std::string_view data)
      : ObjectRef(ObjectPtr<Object>::FromOwnedHandle(details::NewBytesObject(data))) {}
  /*! \brief A copy of size bytes at data. */
  Bytes(const void* data, size_t size) : Bytes(std::string_view(static_cast<const char*>(data), size)) {}
  /*! \brief A copy of a byte vector. */
  explicit Bytes(const std::vector<uint8_t>& data) : Bytes(data.data(), data.size()) {}
  /*! \brief A reference to an existing Bytes object. */
  explicit Bytes(ObjectPtr<Object> ptr) noexcept : ObjectRef(std::move(ptr)) {}

  /*! \brief The bytes (followed by a NUL that size() does not count). */
  const uint8_t* data() const noexcept { return reinterpret_cast<const uint8_t*>(cell()->data); }
  size_t size() const noexcept { return static_cast<size_t>(cell()->size); }
  bool empty() const noexcept { return cell()->size == 0; }
  /*! \brief A view of the bytes, valid while this Bytes lives. */
  std::string_view view() const noexcept { return details::ViewOf(*cell()); }
  /*! \brief A copy as a vector. */
  std::vector<uint8_t> ToVector() const { return std::vector<uint8_t>(data(), data() + size()); }

  /*! \brief Byte-wise comparison. */
  bool operator==(const Bytes& other) const noexcept { return view() == other.view(); }
  bool operator!=(const Bytes& other) const noexcept { return view() != other.view(); }

 private:
  const P4JStringCell* cell() const noexcept { return details::CellOf<P4JStringCell>(handle()); }
};

/*!
 * \brief Bytes read during the call, as ListView is a list's: no Bytes object is made for an argument. A body that
 *  only reads its bytes takes one; a typed entry's caller that lends a span (the Java runtime, a byte[] copied into
 *  its scratch memory) reaches it without any native allocation. As a result it is copied once, where the typed
 *  entry keeps span results (so `[](BytesView data) { return data; }` echoes without allocating). Valid only during
 *  the call.
 */
class BytesView {
 public:
  /*! \brief A view of data, which must outlive it. */
  explicit BytesView(std::string_view data) noexcept : data_(data) {}
  /*! \brief The bytes. */
  const uint8_t* data() const noexcept { return reinterpret_cast<const uint8_t*>(data_.data()); }
  /*! \brief How many. */
  size_t size() const noexcept { return data_.size(); }
  /*! \brief Whether there are none. */
  bool empty() const noexcept { return data_.empty(); }
  /*! \brief The bytes as a string_view. */
  std::string_view view() const noexcept { return data_; }
  /*! \brief The bytes as a string_view. */
  explicit operator std::string_view() const noexcept { return data_; }

 private:
  std::string_view data_;
};

namespace details {

/*! \brief BytesView: a bytes view or a Bytes object, read in place; stored as a new Bytes copy. */
template <>
struct TypeTraits<BytesView> {
  static constexpr bool kConvertible = true;
  static constexpr bool kStorable = true;
  static constexpr bool kTypedAllowed = true;
  static constexpr bool kTypedScalar = false;
  static std::string TypeName() { return "bytes"; }
  static BytesView Convert(const P4JAny& value, const ConvertContext& context) {
    if (value.type_index == kP4JBytesView) {
      return BytesView(std::string_view(static_cast<const char*>(value.v_ptr), value.small_len));
    }
    if (IsObjectValue(value) && value.v_obj->type_index == kP4JBytes) {
      return BytesView(ViewOf(*CellOf<P4JStringCell>(value.v_obj)));
    }
    ThrowTypeMismatch(context, TypeName(), value);
  }
  static void Store(BytesView value, P4JAny* out) { StoreOwnedObject(NewBytesObject(value.view()), out); }
};

/*! \brief String: a String object, or a string view copied into a new one. */
template <>
struct TypeTraits<String> : ObjectRefTraits<String> {
  static std::string TypeName() { return "string"; }
  static String Convert(const P4JAny& value, const ConvertContext& context) {
    if (value.type_index == kP4JStrView) {
      return String(std::string_view(static_cast<const char*>(value.v_ptr), value.small_len));
    }
    if (IsObjectValue(value) && value.v_obj->type_index == kP4JString) {
      return ObjectRefAccess::FromBorrowedHandle<String>(value.v_obj);
    }
    ThrowTypeMismatch(context, TypeName(), value);
  }
};

/*! \brief Bytes: a Bytes object, or a bytes view copied into a new one. */
template <>
struct TypeTraits<Bytes> : ObjectRefTraits<Bytes> {
  static std::string TypeName() { return "bytes"; }
  static Bytes Convert(const P4JAny& value, const ConvertContext& context) {
    if (value.type_index == kP4JBytesView) {
      return Bytes(std::string_view(static_cast<const char*>(value.v_ptr), value.small_len));
    }
    if (IsObjectValue(value) && value.v_obj->type_index == kP4JBytes) {
      return ObjectRefAccess::FromBorrowedHandle<Bytes>(value.v_obj);
    }
    ThrowTypeMismatch(context, TypeName(), value);
  }
};

}  // namespace details
}  // namespace packed4j

#endif  // PACKED4J_STRING_H_
