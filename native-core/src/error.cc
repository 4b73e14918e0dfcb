/*!
 * \file error.cc
 * \brief Error objects (kP4JError) and the error raised per thread.
 */
#include <cctype>
#include <string>

#include "internal.h"

namespace packed4j {
namespace internal {
namespace {

/*! \brief kP4JError: the cell first (read by the Java side), then the strings it points into. */
class ErrorImpl : public Object {
 public:
  P4JErrorCell cell;

  // The type key of the object protocol; nothing in this file reads it, which clang reports as unused.
  [[maybe_unused]] static constexpr const char* _type_key = "Error";
  P4J_DECLARE_STATIC_OBJECT_TYPE_INFO(ErrorImpl, Object, kP4JError);

  ErrorImpl(std::string_view kind, std::string_view message, std::string_view backtrace)
      : kind_(kind), message_(message), backtrace_(backtrace) {
    // The strings do not move after this point (objects never move), so the cell may point into them.
    cell.kind = details::ByteArrayOf(kind_);
    cell.message = details::ByteArrayOf(message_);
    cell.backtrace = details::ByteArrayOf(backtrace_);
  }

 private:
  std::string kind_;
  std::string message_;
  std::string backtrace_;
};

/*! \brief This thread's raised error (owned), released when the thread ends. */
struct RaisedError {
  P4JObject* error = nullptr;
  ~RaisedError() {
    if (error != nullptr) details::DecRef(error);
  }
  void Replace(P4JObject* owned) noexcept {
    P4JObject* previous = error;
    error = owned;
    if (previous != nullptr) details::DecRef(previous);
  }
};

thread_local RaisedError raised;

/*!
 * \brief Whether kind is a name, as Java's Packed4jException(kind, message) requires one: letters, digits and _
 *  (bytes of UTF-8 sequences pass, for letters of other scripts, which Java checks).
 */
bool IsKindName(std::string_view kind) {
  if (kind.empty()) return false;
  for (char c : kind) {
    unsigned char byte = static_cast<unsigned char>(c);
    if (!(std::isalnum(byte) || c == '_' || byte >= 0x80)) return false;
  }
  return true;
}

/*!
 * \brief A new error object; owned by the caller. Throws std::bad_alloc only. A kind that is not a name (Error("Out
 *  Of Stock!", ...), or empty) becomes RuntimeError, with a note that names it, as no Java code could catch or raise
 *  such a kind.
 */
P4JObject* NewError(std::string_view kind, std::string_view message, std::string_view backtrace) {
  if (!IsKindName(kind)) {
    std::string noted = std::string(message) + " (raised with the kind \"" + std::string(kind) +
                        "\", which is not a name of letters, digits and _: reported as RuntimeError)";
    return make_object<ErrorImpl>("RuntimeError", noted, backtrace).release();
  }
  return make_object<ErrorImpl>(kind, message, backtrace).release();
}

std::string_view ViewOrEmpty(const P4JByteArray* bytes) {
  if (bytes == nullptr || bytes->data == nullptr) return std::string_view();
  return details::ViewOf(*bytes);
}

}  // namespace

}  // namespace internal
}  // namespace packed4j

using namespace packed4j;  // NOLINT(build/namespaces): the C functions below implement packed4j

extern "C" {

int P4JErrorMoveFromRaised(P4JObjectHandle* result) {
  *result = internal::raised.error;
  internal::raised.error = nullptr;
  return 0;
}

void P4JErrorSetRaised(P4JObjectHandle error) {
  if (error == nullptr) return;
  if (error->type_index == kP4JError) {
    details::IncRef(error);
    internal::raised.Replace(error);
    return;
  }
  // Not an error object: raise a TypeError that says so rather than keep something no caller can read.
  try {
    std::string message = "P4JErrorSetRaised was given a " + details::TypeKeyOf(error->type_index) +
                          " object instead of an Error";
    internal::raised.Replace(internal::NewError("TypeError", message, std::string_view()));
  } catch (...) {
    internal::raised.Replace(nullptr);
  }
}

void P4JErrorSetRaisedFromCStr(const char* kind, const char* message) {
  try {
    internal::raised.Replace(internal::NewError(kind != nullptr ? kind : "UnknownError",
                                                message != nullptr ? message : "", std::string_view()));
  } catch (...) {
    internal::raised.Replace(nullptr);
  }
}

int P4JErrorCreate(const P4JByteArray* kind, const P4JByteArray* message, const P4JByteArray* backtrace,
                   P4JObjectHandle* out) {
  // Not P4J_SAFE_CALL: raising a failure of this function would call it again. Only allocation can fail.
  try {
    *out = internal::NewError(internal::ViewOrEmpty(kind), internal::ViewOrEmpty(message),
                              internal::ViewOrEmpty(backtrace));
    return 0;
  } catch (...) {
    *out = nullptr;
    P4JErrorSetRaisedFromCStr("MemoryError", "out of memory while creating an error");
    return -1;
  }
}

}  // extern "C"
