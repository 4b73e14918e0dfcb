/*!
 * \file internal.h
 * \brief Declarations shared by the sources of libpacked4j.so; nothing here is exported (see libpacked4j.map).
 */
#ifndef PACKED4J_SRC_INTERNAL_H_
#define PACKED4J_SRC_INTERNAL_H_

#include <packed4j/packed4j.h>

#include <string>
#include <string_view>
#include <vector>

/*!
 * \brief Wraps the body of an exported C function: any exception becomes the thread's raised error and the
 *  function returns -1; falling off the end returns 0. No C++ exception may leave libpacked4j.so.
 */
#define P4J_SAFE_CALL_BEGIN() try {
#define P4J_SAFE_CALL_END()                      \
  }                                              \
  catch (...) {                                  \
    ::packed4j::details::RaiseCurrentException(); \
    return -1;                                   \
  }                                              \
  return 0

/*!
 * \brief P4J_SAFE_CALL_END of an entry point that registers (a type's fields, members, docs): a refusal is also
 *  recorded for packed4j.TakeRegistrationErrors, which Packed4j.loadLibrary reports.
 */
#define P4J_REGISTRATION_CALL_END()                \
  }                                                \
  catch (...) {                                    \
    ::packed4j::internal::RecordCurrentRefusal();  \
    ::packed4j::details::RaiseCurrentException(); \
    return -1;                                     \
  }                                                \
  return 0

namespace packed4j {
namespace internal {

/*! \brief Counts an object allocated by libpacked4j.so itself (make_object counts its own). */
inline void CountObjectCreated() noexcept { __atomic_fetch_add(details::LiveCounter(), 1, __ATOMIC_RELAXED); }
/*! \brief Counts an object freed by a deleter of libpacked4j.so. */
inline void CountObjectDeleted() noexcept { __atomic_fetch_sub(details::LiveCounter(), 1, __ATOMIC_RELAXED); }

/*! \brief A new kP4JString or kP4JBytes object (one allocation for header and bytes); owned by the caller. */
P4JObject* NewByteArrayObject(int32_t type_index, const char* data, size_t size);

/*!
 * \brief Copies a borrowed value into an owned one for a container: string and bytes views become objects,
 *  objects get a reference. A borrowed DLTensor pointer cannot be owned and is a TypeError.
 */
P4JAny OwnValue(const P4JAny& borrowed);

/*! \brief Releases an owned value (drops the object reference) and leaves None. */
inline void ReleaseValue(P4JAny* value) noexcept {
  if (details::IsObjectValue(*value)) details::DecRef(value->v_obj);
  *value = details::NoneValue();
}

/*! \brief Whether a handle is an object of type_index or of a subtype; NULL is not. */
bool HandleIsInstance(const P4JObject* handle, int32_t type_index);

/*!
 * \brief Checks a list or map stored into field field_index of type_index (field, as the caller read it) against the
 *  element types the field declares, as P4JObjectSetField does: throws its TypeError ("declared list<Expr>, list
 *  element at index 1 expected Expr, got int 2"); nothing when the field declares none.
 */
void CheckFieldElementTypes(int32_t type_index, int32_t field_index, const P4JFieldInfo& field, const P4JAny& value);

/*! \brief Throws TypeError unless handle is an object of type_index; what names the parameter. */
void CheckHandleType(const P4JObject* handle, int32_t type_index, const char* what);

/*! \brief The length of the valid UTF-8 sequence at text[i], or 0 (overlong forms and surrogates are invalid). */
size_t Utf8SequenceLength(std::string_view text, size_t i);

/*! \brief sizeof the core's NDArray object, measured from the handle (type info of kP4JNDArray). */
int64_t NDArrayInstanceSize();

/*! \brief The reflection fields of kP4JNDArray: ndim, shape, strides, dtype, device, byte_offset. */
std::vector<P4JFieldInfo> NDArrayFields();

/*!
 * \brief When field is one of NDArray's computed fields, reads it into result, owned by the caller, and returns true;
 *  else returns false. shape and strides (kP4JFieldObject at the offsets of the DLTensor's pointers) are new
 *  List<int64>s of ndim elements; dtype and device (kP4JFieldString at the offsets of the DLTensor's dtype and
 *  device) are new strings such as "float32" and "cpu". Any object may be passed: only an NDArrayObject (kP4JNDArray
 *  or a subtype) has computed fields.
 */
bool ReadNDArrayField(const P4JObject* handle, const P4JFieldInfo& field, P4JAny* result);

/*!
 * \brief A copy of a kP4JFieldString field of obj, taken under the object's field lock: what a reader that is not
 *  P4JObjectGetField (serialization, structural comparison, deep copy) reads, so that a setter on another thread
 *  never shows it half a string.
 */
std::string CopyStringField(const P4JObject* obj, const P4JFieldInfo& field);

/*!
 * \brief The object of a kP4JFieldObject field of obj with a reference taken under the object's field lock (owned by
 *  the caller), or NULL for none: a setter on another thread may then replace the field and release the old object,
 *  and the reference keeps it alive. Not for NDArray's computed fields.
 */
P4JObject* TakeObjectField(const P4JObject* obj, const P4JFieldInfo& field);

/*! \brief Records a refused global registration for packed4j.TakeRegistrationErrors. */
void RecordRegistrationError(std::string message);

/*!
 * \brief Records the exception being handled (call it in a catch block) as a refused registration, unless the code
 *  that threw recorded it already; never throws. For the registration entry points (P4J_REGISTRATION_CALL_END), so
 *  that every refusal of a library's registrations reaches its loader, not stderr alone.
 */
void RecordCurrentRefusal() noexcept;

/*! \brief Takes the recorded registration errors, oldest first. */
std::vector<std::string> TakeRegistrationErrors();

/*!
 * \brief The parameter type names of a signature string, "(int64, map<string, int64>) -> int64" giving "int64" and
 *  "map<string, int64>"; none for an empty signature.
 */
std::vector<std::string> SignatureParams(std::string_view signature);

/*! \brief The file of the library (or executable) holding code address, for messages. */
std::string LibraryOf(const void* address);

}  // namespace internal
}  // namespace packed4j

#endif  // PACKED4J_SRC_INTERNAL_H_
