/*!
 * \file function.cc
 * \brief Function objects, calls, and the global function registry.
 */
#include <dlfcn.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>

#include "internal.h"

namespace packed4j {
namespace internal {
namespace {

/*! \brief kP4JFunction: the cell first (self, safe_call, the entries), then what only this library reads. */
class FunctionImpl : public FunctionObject {
 public:
  P4J_DECLARE_STATIC_OBJECT_TYPE_INFO(FunctionImpl, FunctionObject, kP4JFunction);

  FunctionImpl(const P4JFunctionCell& from, void (*self_deleter)(void*), std::string_view signature)
      : self_deleter_(self_deleter), signature_(signature) {
    cell = from;
  }
  ~FunctionImpl() override {
    if (self_deleter_ != nullptr) self_deleter_(cell.self);
  }

  const std::string& signature() const noexcept { return signature_; }

 private:
  void (*self_deleter_)(void*);
  std::string signature_;
};

/*!
 * \brief name -> function. Deliberately never destroyed: at exit, plugins may already be finalized and their
 *  closures' deleters must not run. A replaced function is kept alive too, because P4JFunctionGetGlobal
 *  hands out borrowed handles that are documented to live until exit.
 */
/*! \brief A global's doc string and parameter names, and the spans P4JFunctionGetGlobalDoc hands out. */
struct GlobalDoc {
  std::string doc;
  std::vector<std::string> names;
  std::vector<P4JByteArray> spans;
};

struct GlobalFunctions {
  std::mutex mutex;
  std::map<std::string, P4JObject*, std::less<>> functions;
  /*! \brief The current doc of each documented global; every record ever made stays in all_docs (spans handed out). */
  std::map<std::string, GlobalDoc*, std::less<>> docs;
  std::vector<std::unique_ptr<GlobalDoc>> all_docs;
  std::vector<P4JObject*> replaced;
  std::vector<std::string> registration_errors;
  /*! \brief The library that registered each name, for the refusal of a second registration. */
  std::map<std::string, std::string, std::less<>> registered_by;

  static GlobalFunctions* Get() {
    static GlobalFunctions* globals = new GlobalFunctions();
    return globals;
  }
};

const FunctionImpl* AsFunction(P4JObject* func) {
  CheckHandleType(func, kP4JFunction, "func");
  return static_cast<const FunctionImpl*>(static_cast<Object*>(func));
}

/*!
 * \brief The result a P4JFunctionCallScalars on this thread kept because it was not of the kind asked for, until
 *  P4JFunctionCallScalarsTakeResult takes it. Holding at most one value: a new one releases what nobody took.
 */
struct KeptScalarsResult {
  P4JAny value = details::NoneValue();
  bool kept = false;

  void Keep(P4JAny result) noexcept {
    Release();
    value = result;
    kept = true;
  }
  void Release() noexcept {
    if (kept) ReleaseValue(&value);
    kept = false;
  }
  ~KeptScalarsResult() { Release(); }
};

thread_local KeptScalarsResult kept_scalars_result;

/*! \brief P4JFunctionCallScalars given a handle that is not a function: raises the error, returns the sentinel. */
[[gnu::noinline, gnu::cold]] int64_t FailScalarsHandle(P4JObjectHandle func) noexcept {
  try {
    CheckHandleType(func, kP4JFunction, "func");
  } catch (...) {
    details::RaiseCurrentException();
  }
  return P4J_TYPED_ERROR_I64;
}

/*!
 * \brief A scalars call with a result that is not simply the payload asked for: any result of a void call
 *  (released), a real result equal to the sentinel, or a result of another kind (kept for the caller).
 */
[[gnu::noinline]] int64_t UnusualScalarsResult(P4JAny result, int32_t result_kind) noexcept {
  if (result_kind == kP4JNone) {
    ReleaseValue(&result);
    return 0;
  }
  if (result.type_index == result_kind) {
    // A real result equal to the sentinel must not be taken for an older error or kept result.
    details::ClearRaisedError();
    kept_scalars_result.Release();
    return result.v_int64;
  }
  kept_scalars_result.Keep(result);
  details::ClearRaisedError();
  return P4J_TYPED_ERROR_I64;
}

/*!
 * \brief The library whose code called P4JFunctionSetGlobal, from the caller's return address (the C++ API calls it
 *  from inline code, compiled into the plugin). Java's Registry.register calls from code in no library.
 */
std::string RegistrantOf(const void* caller) {
  Dl_info info{};
  if (caller == nullptr || dladdr(caller, &info) == 0 || info.dli_fname == nullptr || info.dli_fname[0] == 0) {
    return "code outside any library (Java's Registry.register, say)";
  }
  return LibraryOf(caller);
}

}  // namespace

void RecordRegistrationError(std::string message) {
  GlobalFunctions* globals = GlobalFunctions::Get();
  std::lock_guard<std::mutex> lock(globals->mutex);
  globals->registration_errors.push_back(std::move(message));
}

void RecordCurrentRefusal() noexcept {
  try {
    std::string refusal;
    try {
      throw;
    } catch (const Error& error) {
      refusal = error.kind() + ": " + error.message();
    } catch (const std::exception& error) {
      refusal = std::string("RuntimeError: ") + error.what();
    } catch (...) {
      refusal = "UnknownError: a registration failed with an exception that is not a std::exception";
    }
    GlobalFunctions* globals = GlobalFunctions::Get();
    std::lock_guard<std::mutex> lock(globals->mutex);
    std::vector<std::string>& recorded = globals->registration_errors;
    std::string_view message = std::string_view(refusal).substr(refusal.find(": ") + 2);
    // The code that threw may have recorded it under another kind (a layout conflict is a LoadError).
    bool already = !recorded.empty() && recorded.back().size() >= message.size() &&
                   recorded.back().compare(recorded.back().size() - message.size(), message.size(), message) == 0;
    if (!already) recorded.push_back(std::move(refusal));
  } catch (...) {
    // Out of memory while recording: the refusal is still raised to the caller.
  }
}

std::vector<std::string> TakeRegistrationErrors() {
  GlobalFunctions* globals = GlobalFunctions::Get();
  std::lock_guard<std::mutex> lock(globals->mutex);
  std::vector<std::string> errors;
  errors.swap(globals->registration_errors);
  return errors;
}

}  // namespace internal
}  // namespace packed4j

using namespace packed4j;  // NOLINT(build/namespaces): the C functions below implement packed4j

extern "C" {

int P4JFunctionCreate(void* self, P4JSafeCallType safe_call, void (*deleter)(void* self), P4JObjectHandle* out) {
  const P4JFunctionCell cell{self, safe_call, nullptr, nullptr, 0};
  return P4JFunctionCreateFromCell(&cell, sizeof(cell), deleter, nullptr, out);
}

int P4JFunctionCreateFromCell(const P4JFunctionCell* cell, int64_t cell_size, void (*deleter)(void* self),
                              const P4JByteArray* signature, P4JObjectHandle* out) {
  P4J_SAFE_CALL_BEGIN();
  *out = nullptr;
  if (cell == nullptr) throw ValueError("P4JFunctionCreate: cell is NULL");
  constexpr int64_t kRequired = offsetof(P4JFunctionCell, safe_call) + sizeof(P4JSafeCallType);
  if (cell_size < kRequired) {
    throw ValueError("P4JFunctionCreate: cell_size " + std::to_string(cell_size) + " is less than the " +
                     std::to_string(kRequired) + " bytes of self and safe_call");
  }
  // A caller compiled against a shorter cell leaves the newer fields NULL; a longer one's extra fields are ignored.
  P4JFunctionCell copied{};
  std::memcpy(&copied, cell, static_cast<size_t>(std::min<int64_t>(cell_size, sizeof(copied))));
  if (copied.safe_call == nullptr) throw ValueError("P4JFunctionCreate: safe_call is NULL");
  // Every function has a scalars entry: without one of its own, the generic one that runs it through safe_call.
  if (copied.scalars_entry == nullptr) copied.scalars_entry = &P4JFunctionCallScalars;
  std::string_view signature_text =
      (signature != nullptr && signature->data != nullptr) ? details::ViewOf(*signature) : std::string_view();
  *out = make_object<internal::FunctionImpl>(copied, deleter, signature_text).release();
  P4J_SAFE_CALL_END();
}

int P4JFunctionCall(P4JObjectHandle func, const P4JAny* args, int32_t num_args, P4JAny* result) {
  P4J_SAFE_CALL_BEGIN();
  *result = details::NoneValue();
  if (func == nullptr || func->type_index != kP4JFunction) internal::CheckHandleType(func, kP4JFunction, "func");
  if (num_args < 0 || (num_args > 0 && args == nullptr)) {
    throw ValueError("P4JFunctionCall: " + std::to_string(num_args) + " arguments at a NULL or invalid address");
  }
  const P4JFunctionCell* cell = details::CellOf<P4JFunctionCell>(func);
  if (cell->safe_call(cell->self, args, num_args, result) != 0) {
    *result = details::NoneValue();
    details::EnsureErrorRaised();
    return -1;
  }
  P4J_SAFE_CALL_END();
}

int64_t P4JFunctionCallScalars(P4JObjectHandle func, int64_t shape, int64_t a0, int64_t a1, int64_t a2,
                               int64_t a3) {
  if (func == nullptr || func->type_index != kP4JFunction) return internal::FailScalarsHandle(func);
  const P4JFunctionCell* cell = details::CellOf<P4JFunctionCell>(func);
  return details::CallScalars(shape, a0, a1, a2, a3, [cell](const P4JAny* args, int32_t num_args, P4JAny* result) {
    return cell->safe_call(cell->self, args, num_args, result);
  });
}

int P4JFunctionCallScalarsTakeResult(P4JAny* result, int32_t* found) {
  internal::KeptScalarsResult& kept = internal::kept_scalars_result;
  *found = kept.kept ? 1 : 0;
  *result = kept.value;
  kept.value = details::NoneValue();
  kept.kept = false;
  return 0;
}

int64_t P4JFunctionScalarsResult(P4JAny* result, int64_t shape) {
  const P4JAny taken = *result;
  *result = details::NoneValue();
  return internal::UnusualScalarsResult(taken, static_cast<int32_t>((static_cast<uint64_t>(shape) >> 8) & 0xff));
}

int P4JFunctionGetGlobal(const P4JByteArray* name, P4JObjectHandle* out) {
  P4J_SAFE_CALL_BEGIN();
  *out = nullptr;
  if (name == nullptr) throw ValueError("P4JFunctionGetGlobal: name is NULL");
  internal::GlobalFunctions* globals = internal::GlobalFunctions::Get();
  std::lock_guard<std::mutex> lock(globals->mutex);
  auto found = globals->functions.find(details::ViewOf(*name));
  if (found != globals->functions.end()) *out = found->second;
  P4J_SAFE_CALL_END();
}

int P4JFunctionSetGlobal(const P4JByteArray* name, P4JObjectHandle func, int32_t allow_override) {
  P4J_SAFE_CALL_BEGIN();
  if (name == nullptr || name->size <= 0) {
    // Recorded as every refusal of a name is, so that the loader reports it with the others, not stderr alone.
    std::string message = "global function name is empty: a name must be non-empty UTF-8 text";
    internal::RecordRegistrationError("ValueError: " + message);
    throw ValueError(message);
  }
  internal::CheckHandleType(func, kP4JFunction, "func");
  std::string key(details::ViewOf(*name));
  for (size_t i = 0; i < key.size();) {
    size_t length = internal::Utf8SequenceLength(key, i);
    if (length == 0) {
      // Java, Python and the describe tool read names as UTF-8: another byte sequence could be listed, not found.
      char byte[8];
      std::snprintf(byte, sizeof byte, "0x%02x", static_cast<unsigned char>(key[i]));
      std::string message = "global function name is not UTF-8 (byte " + std::string(byte) + " at offset " +
                            std::to_string(i) + " of \"" + key.substr(0, i) + "...\"): a name must be UTF-8 text";
      internal::GlobalFunctions* refusals = internal::GlobalFunctions::Get();
      std::lock_guard<std::mutex> lock(refusals->mutex);
      refusals->registration_errors.push_back("ValueError: " + message);
      throw ValueError(message);
    }
    i += length;
  }
  std::string registrant = internal::RegistrantOf(__builtin_return_address(0));
  internal::GlobalFunctions* globals = internal::GlobalFunctions::Get();
  std::lock_guard<std::mutex> lock(globals->mutex);
  auto found = globals->functions.find(key);
  if (found != globals->functions.end()) {
    std::string& first = globals->registered_by[key];
    if (allow_override == 0) {
      // Both libraries named, as a type key's conflicting layout is: a reader must know which one to rename.
      std::string message =
          "global function \"" + key + "\" is already registered" +
          (first == registrant ? " by " + registrant + ", which registers it twice"
                               : " by " + first + ", and " + registrant + " registers it again") +
          " (the first one is kept): give one of them another name";
      globals->registration_errors.push_back("ValueError: " + message);
      throw ValueError(message);
    }
    globals->replaced.push_back(found->second);
    details::IncRef(func);
    found->second = func;
    first = registrant;
    return 0;
  }
  details::IncRef(func);
  globals->registered_by[key] = registrant;
  globals->functions.emplace(std::move(key), func);
  P4J_SAFE_CALL_END();
}

int P4JFunctionSetGlobalDoc(const P4JByteArray* name, const P4JByteArray* doc, const P4JByteArray* param_names,
                            int32_t num_param_names) {
  P4J_SAFE_CALL_BEGIN();
  if (name == nullptr) throw ValueError("P4JFunctionSetGlobalDoc: name is NULL");
  if (num_param_names < -1 || (num_param_names > 0 && param_names == nullptr)) {
    throw ValueError("P4JFunctionSetGlobalDoc: " + std::to_string(num_param_names) +
                     " parameter names at NULL or a count below -1");
  }
  std::string key(details::ViewOf(*name));
  internal::GlobalFunctions* globals = internal::GlobalFunctions::Get();
  std::lock_guard<std::mutex> lock(globals->mutex);
  auto found = globals->functions.find(key);
  if (found == globals->functions.end()) {
    throw KeyError("P4JFunctionSetGlobalDoc: no global function is registered as \"" + key + "\"");
  }
  const std::string& signature = internal::AsFunction(found->second)->signature();
  if (num_param_names > 0 && !signature.empty()) {
    size_t expected = internal::SignatureParams(signature).size();
    if (expected != static_cast<size_t>(num_param_names)) {
      throw ValueError("global function \"" + key + "\" has " + std::to_string(expected) +
                       (expected == 1 ? " parameter " : " parameters ") + signature + ", and " +
                       std::to_string(num_param_names) + " parameter names were given");
    }
  }
  // A new record each time: the spans of the one it replaces may still be read.
  auto record = std::make_unique<internal::GlobalDoc>();
  auto previous = globals->docs.find(key);
  if (previous != globals->docs.end()) {
    record->doc = previous->second->doc;
    record->names = previous->second->names;
  }
  if (doc != nullptr) record->doc = std::string(details::ViewOf(*doc));
  if (num_param_names >= 0) {
    record->names.clear();
    for (int32_t i = 0; i < num_param_names; ++i) record->names.emplace_back(details::ViewOf(param_names[i]));
  }
  for (const std::string& param : record->names) record->spans.push_back(details::ByteArrayOf(param));
  globals->docs[key] = record.get();
  globals->all_docs.push_back(std::move(record));
  P4J_REGISTRATION_CALL_END();
}

int P4JFunctionGetGlobalDoc(const P4JByteArray* name, P4JByteArray* out_doc, const P4JByteArray** out_param_names,
                            int32_t* out_num_param_names) {
  P4J_SAFE_CALL_BEGIN();
  if (name == nullptr) throw ValueError("P4JFunctionGetGlobalDoc: name is NULL");
  if (out_doc == nullptr || out_param_names == nullptr || out_num_param_names == nullptr) {
    throw ValueError("P4JFunctionGetGlobalDoc: an out pointer is NULL");
  }
  *out_doc = P4JByteArray{"", 0};
  *out_param_names = nullptr;
  *out_num_param_names = 0;
  std::string_view key = details::ViewOf(*name);
  internal::GlobalFunctions* globals = internal::GlobalFunctions::Get();
  std::lock_guard<std::mutex> lock(globals->mutex);
  if (globals->functions.find(key) == globals->functions.end()) {
    throw KeyError("P4JFunctionGetGlobalDoc: no global function is registered as \"" + std::string(key) + "\"");
  }
  auto found = globals->docs.find(key);
  if (found == globals->docs.end()) return 0;
  *out_doc = details::ByteArrayOf(found->second->doc);
  *out_param_names = found->second->spans.empty() ? nullptr : found->second->spans.data();
  *out_num_param_names = static_cast<int32_t>(found->second->spans.size());
  P4J_SAFE_CALL_END();
}

int P4JFunctionListGlobalNames(P4JAny* out) {
  P4J_SAFE_CALL_BEGIN();
  *out = details::NoneValue();
  std::vector<std::string> names;
  {
    internal::GlobalFunctions* globals = internal::GlobalFunctions::Get();
    std::lock_guard<std::mutex> lock(globals->mutex);
    for (const auto& entry : globals->functions) names.push_back(entry.first);  // std::map: already sorted
  }
  List<std::string> list(names);
  details::StoreOwnedObject(details::ObjectRefAccess::Release(list), out);
  P4J_SAFE_CALL_END();
}

int P4JFunctionGetSignature(P4JObjectHandle func, P4JByteArray* out) {
  P4J_SAFE_CALL_BEGIN();
  const std::string& signature = internal::AsFunction(func)->signature();
  *out = details::ByteArrayOf(signature);
  P4J_SAFE_CALL_END();
}

}  // extern "C"
