/*!
 * \file packed4j/error.h
 * \brief Errors: a C++ exception with a kind, a message and a native backtrace, and the bridge to the C ABI.
 *
 * Inside a library, errors are C++ exceptions (`throw TypeError("...")`). At every C boundary they are caught
 * and raised on the calling thread as a kP4JError object (P4JErrorSetRaised), because a C++ exception must
 * never unwind through another library or through the JVM. The other side turns the raised error back into
 * its own exception (ThrowLastError here, a Java exception in the runtime).
 */
#ifndef PACKED4J_ERROR_H_
#define PACKED4J_ERROR_H_

#include <packed4j/base.h>

#include <execinfo.h>

#include <cstdio>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

namespace packed4j {
namespace details {

/*! \brief Frames kept per error; deeper stacks are cut (the innermost frames matter most). */
constexpr int kMaxBacktraceFrames = 48;

/*!
 * \brief Captures return addresses, innermost first, skipping this function.
 *
 * Only addresses are taken here (a few microseconds); turning them into names is left to the first call of
 * Error::backtrace(), which most errors caught inside C++ never make.
 */
__attribute__((noinline)) inline int CaptureBacktrace(void** frames, int max_frames) {
  void* raw[kMaxBacktraceFrames + 1];
  int count = ::backtrace(raw, kMaxBacktraceFrames + 1);
  int kept = 0;
  for (int i = 1; i < count && kept < max_frames; ++i) frames[kept++] = raw[i];
  return kept;
}

/*!
 * \brief Formats frames as lines `#i function+0xoff at file:line in module (+0xmodule_offset)`, innermost first.
 *
 * The core's P4JBacktraceFormat does the work (libdw when present, the module's .symtab, dladdr), so a plugin
 * built in Release with hidden visibility still names its functions, and gives file:line when built with debug
 * info (packed4j_plugin_debug_info in CMake). Should even that fail (out of memory), the raw addresses are kept.
 */
inline std::string SymbolizeBacktrace(void* const* frames, int count) {
  P4JObjectHandle text = nullptr;
  if (P4JBacktraceFormat(frames, count, &text) == 0 && text != nullptr) {
    std::string out(ViewOf(*CellOf<P4JByteArray>(text)));
    P4JObjectDecRef(text);
    return out;
  }
  P4JObjectHandle ignored = nullptr;
  P4JErrorMoveFromRaised(&ignored);
  if (ignored != nullptr) P4JObjectDecRef(ignored);
  std::string out;
  for (int i = 0; i < count; ++i) {
    char line[64];
    std::snprintf(line, sizeof(line), "#%d ?? at %p\n", i, frames[i]);
    out += line;
  }
  return out;
}

}  // namespace details

/*!
 * \brief The exception of packed4j: a kind ("TypeError", "ValueError", ...), a message and a native backtrace.
 *
 * Copies share one immutable record, so throwing and catching by value stays cheap.
 *
 * \code
 *   try {
 *     throw packed4j::Error("ValueError", "price must be positive");
 *   } catch (const packed4j::Error& e) {
 *     std::cerr << e.kind() << ": " << e.message() << "\n" << e.backtrace();
 *   }
 * \endcode
 */
class Error : public std::exception {
 public:
  /*! \brief An error of the given kind; the backtrace of the calling thread is captured here. */
  Error(std::string kind, std::string message) : record_(std::make_shared<Record>()) {
    record_->kind = std::move(kind);
    record_->message = std::move(message);
    record_->what = record_->kind + ": " + record_->message;
    record_->num_frames = details::CaptureBacktrace(record_->frames, details::kMaxBacktraceFrames);
  }

  /*! \brief An error that already has a backtrace (one that came back through the C ABI): nothing captured. */
  Error(std::string kind, std::string message, std::string backtrace) : record_(std::make_shared<Record>()) {
    record_->kind = std::move(kind);
    record_->message = std::move(message);
    record_->what = record_->kind + ": " + record_->message;
    record_->backtrace = std::move(backtrace);
    std::call_once(record_->symbolized, [] {});
  }

  /*! \brief "TypeError", "ValueError", "IndexError", "KeyError", "AttributeError", "RuntimeError", ... */
  const std::string& kind() const noexcept { return record_->kind; }

  /*! \brief The message, without the kind. */
  const std::string& message() const noexcept { return record_->message; }

  /*! \brief Native frames, one per line, innermost first (symbolized on the first call). */
  const std::string& backtrace() const {
    Record* record = record_.get();
    std::call_once(record->symbolized,
                   [record] { record->backtrace = details::SymbolizeBacktrace(record->frames, record->num_frames); });
    return record->backtrace;
  }

  /*! \brief "Kind: message". */
  const char* what() const noexcept override { return record_->what.c_str(); }

 private:
  struct Record {
    std::string kind;
    std::string message;
    std::string what;
    std::string backtrace;
    std::once_flag symbolized;
    int num_frames = 0;
    void* frames[details::kMaxBacktraceFrames];
  };
  std::shared_ptr<Record> record_;
};

/*!
 * \brief Declares an Error subclass whose kind is its own name, so `throw TypeError("...")` reads naturally and
 *  `catch (const TypeError&)` works for errors raised in this library or coming back from a call.
 */
#define P4J_DEFINE_ERROR_KIND(Name)                                                                      \
  class Name : public ::packed4j::Error {                                                                \
   public:                                                                                               \
    explicit Name(std::string message) : ::packed4j::Error(#Name, std::move(message)) {}                \
    Name(std::string message, std::string backtrace)                                                     \
        : ::packed4j::Error(#Name, std::move(message), std::move(backtrace)) {}                         \
  }

/*! \brief A value of the wrong type: `throw TypeError("expected int64, got string");` */
P4J_DEFINE_ERROR_KIND(TypeError);
/*! \brief A value of the right type but out of range or otherwise unacceptable. */
P4J_DEFINE_ERROR_KIND(ValueError);
/*! \brief An index out of range. */
P4J_DEFINE_ERROR_KIND(IndexError);
/*! \brief A missing map key or an unknown type key. */
P4J_DEFINE_ERROR_KIND(KeyError);
/*! \brief A missing field of an object. */
P4J_DEFINE_ERROR_KIND(AttributeError);
/*! \brief Anything else that went wrong at run time. */
P4J_DEFINE_ERROR_KIND(RuntimeError);
/*! \brief A feature that is declared but not available. */
P4J_DEFINE_ERROR_KIND(NotImplementedError);

namespace details {

/*! \brief Raises (kind, message, backtrace) on this thread through the C ABI. Never throws. */
inline void RaiseError(std::string_view kind, std::string_view message, std::string_view backtrace) noexcept {
  P4JByteArray kind_bytes = ByteArrayOf(kind);
  P4JByteArray message_bytes = ByteArrayOf(message);
  P4JByteArray backtrace_bytes = ByteArrayOf(backtrace);
  P4JObjectHandle error = nullptr;
  if (P4JErrorCreate(&kind_bytes, &message_bytes, &backtrace_bytes, &error) == 0) {
    P4JErrorSetRaised(error);
    P4JObjectDecRef(error);
  } else {
    // Creating the error failed (out of memory): P4JErrorCreate raised that failure instead, keep it.
  }
}

/*!
 * \brief Raises the exception being handled on this thread; call it inside a catch block.
 *
 * packed4j::Error keeps its kind, message and backtrace; another std::exception becomes a RuntimeError with
 * what(); anything else an UnknownError. This is the one place where C++ exceptions turn into C errors.
 */
inline void RaiseCurrentException() noexcept {
  try {
    throw;
  } catch (const Error& error) {
    try {
      RaiseError(error.kind(), error.message(), error.backtrace());
    } catch (...) {
      P4JErrorSetRaisedFromCStr(error.kind().c_str(), error.message().c_str());
    }
  } catch (const std::exception& error) {
    RaiseError("RuntimeError", error.what(), std::string_view());
  } catch (...) {
    RaiseError("UnknownError", "a C++ exception that is not a std::exception was thrown", std::string_view());
  }
}

/*!
 * \brief Throws an Error of kind as the class of that kind (TypeError, ...), or as Error for another kind; with a
 *  backtrace given (one that came back through the C ABI), or none to capture this thread's.
 */
template <typename... Backtrace>
[[noreturn]] void ThrowOfKind(std::string kind, std::string message, Backtrace&&... backtrace) {
  static_assert(sizeof...(Backtrace) <= 1, "ThrowOfKind: at most one backtrace");
  if (kind == "TypeError") throw TypeError(std::move(message), std::forward<Backtrace>(backtrace)...);
  if (kind == "ValueError") throw ValueError(std::move(message), std::forward<Backtrace>(backtrace)...);
  if (kind == "IndexError") throw IndexError(std::move(message), std::forward<Backtrace>(backtrace)...);
  if (kind == "KeyError") throw KeyError(std::move(message), std::forward<Backtrace>(backtrace)...);
  if (kind == "AttributeError") throw AttributeError(std::move(message), std::forward<Backtrace>(backtrace)...);
  if (kind == "RuntimeError") throw RuntimeError(std::move(message), std::forward<Backtrace>(backtrace)...);
  if (kind == "NotImplementedError") {
    throw NotImplementedError(std::move(message), std::forward<Backtrace>(backtrace)...);
  }
  throw Error(std::move(kind), std::move(message), std::forward<Backtrace>(backtrace)...);
}

/*!
 * \brief Throws error again with where in front of its message ("demo.Sum: argument 0, "), as the class of its
 *  kind: for a conversion whose place only its caller knows. Its backtrace is captured again here, a frame or two
 *  from the first, and symbolized only if someone reads it.
 */
[[noreturn]] inline void ThrowWithin(const std::string& where, const Error& error) {
  ThrowOfKind(error.kind(), where + error.message());
}

/*!
 * \brief Takes this thread's raised error and throws it as a C++ exception of the matching kind.
 *  Called right after a C function returned -1.
 */
[[noreturn]] inline void ThrowLastError() {
  P4JObjectHandle error_object = nullptr;
  P4JErrorMoveFromRaised(&error_object);
  if (error_object == nullptr) {
    throw RuntimeError("a packed4j call failed without raising an error");
  }
  const P4JErrorCell* cell = CellOf<P4JErrorCell>(error_object);
  std::string kind(ViewOf(cell->kind));
  std::string message(ViewOf(cell->message));
  std::string backtrace(ViewOf(cell->backtrace));
  P4JObjectDecRef(error_object);
  ThrowOfKind(std::move(kind), std::move(message), std::move(backtrace));
}

/*! \brief Throws the raised error when a C call returned non-zero. */
inline void CheckCall(int status) {
  if (status != 0) ThrowLastError();
}

/*!
 * \brief CheckCall for a C function that a C++ method wraps: a message naming c_name ("P4JNDArrayCreateEmpty: ...")
 *  names cpp_name ("NDArray::Empty: ...") instead, so that C++ callers read the name they called.
 */
inline void CheckCallAs(int status, std::string_view c_name, std::string_view cpp_name) {
  if (status == 0) return;
  try {
    ThrowLastError();
  } catch (const Error& error) {
    const std::string& message = error.message();
    if (message.size() > c_name.size() && message.compare(0, c_name.size(), c_name) == 0 &&
        message[c_name.size()] == ':') {
      ThrowOfKind(error.kind(), std::string(cpp_name) + message.substr(c_name.size()), error.backtrace());
    }
    throw;
  }
}

/*! \brief Drops an error raised on this thread, if any (a stale one must not be mistaken for a new one). */
inline void ClearRaisedError() noexcept {
  P4JObjectHandle stale = nullptr;
  P4JErrorMoveFromRaised(&stale);
  if (stale != nullptr) P4JObjectDecRef(stale);
}

}  // namespace details
}  // namespace packed4j

#endif  // PACKED4J_ERROR_H_
