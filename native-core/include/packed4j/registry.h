/*!
 * \file packed4j/registry.h
 * \brief The global function registry seen from C++: P4J_REGISTER_GLOBAL, set_body and set_body_typed.
 *
 * Registration runs in static initialisers, i.e. while the dynamic loader loads the library. Nothing may
 * throw there (the process would end), so a failed registration (a name registered twice, say) keeps the
 * first function, writes a clear line to stderr, and is also kept by libpacked4j.so for the global
 * "packed4j.TakeRegistrationErrors", so a loader (the Java runtime) can report it as an exception.
 *
 * Each registration carries the ABI version of the headers the library was compiled with (P4J_PLUGIN_ABI_VERSION,
 * taken where the macro is expanded); the core refuses every registration of a library whose typed entries it
 * cannot read (another major version, or a newer minor: P4JPluginCheckAbiVersion), naming the library and both
 * versions.
 */
#ifndef PACKED4J_REGISTRY_H_
#define PACKED4J_REGISTRY_H_

#include <packed4j/container.h>
#include <packed4j/function.h>

#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace packed4j {

/*!
 * \brief One global function being registered; returned by P4J_REGISTER_GLOBAL so set_body can be chained.
 *
 * \code
 *   P4J_REGISTER_GLOBAL("calculator.MyAdd").set_body([](Args args, RetValue* rv) {
 *     int a = args[0];
 *     int b = args[1];
 *     *rv = a + b;
 *   });
 *   P4J_REGISTER_GLOBAL("calculator.Mul").set_body_typed([](int64_t a, int64_t b) { return a * b; });
 * \endcode
 */
class Registry {
 public:
  /*!
   * \brief Starts registering name. The entry lives until the library is unloaded.
   * \param allow_override replace a function registered earlier under the same name instead of failing.
   * \param abi_version the ABI version of the headers the registering library was compiled with; the default is
   *  evaluated where Register is called, in that library. The core registers nothing of a library whose version it
   *  cannot read (P4JPluginCheckAbiVersion).
   */
  static Registry& Register(const char* name, bool allow_override = false,
                            int32_t abi_version = P4J_PLUGIN_ABI_VERSION) {
    std::unique_ptr<Registry> entry(new Registry(name, allow_override, abi_version));
    Registry& made = *entry;
    // Code may register from several threads at run time: the list grows under a lock, and each caller gets its own
    // entry, not whichever is last.
    std::lock_guard<std::mutex> lock(EntriesMutex());
    Entries().push_back(std::move(entry));
    return made;
  }

  /*! \brief Registers a body taking (Args args, RetValue* rv). */
  template <typename Body, typename = std::enable_if_t<std::is_invocable<Body&, Args, RetValue*>::value>>
  Registry& set_body(Body body) {
    try {
      CheckAbiVersion();
      Commit(PackedFunc(std::move(body), name_));
    } catch (const std::exception& error) {
      Report(error.what());
    }
    return *this;
  }

  /*! \brief Registers an existing function under this name. */
  Registry& set_body(PackedFunc function) {
    try {
      CheckAbiVersion();
      Commit(std::move(function));
    } catch (const std::exception& error) {
      Report(error.what());
    }
    return *this;
  }

  /*!
   * \brief Registers a typed callable: the arguments are checked against its parameter types, the signature is
   *  recorded ("(int64, int64) -> int64"), and when every parameter and the result are scalars, a typed entry
   *  lets a caller that knows the signature call without packing (P4JFunctionCell.typed_entry).
   */
  template <typename F>
  Registry& set_body_typed(F body) {
    try {
      CheckAbiVersion();
      Commit(PackedFunc::FromTyped(std::move(body), name_));
    } catch (const std::exception& error) {
      Report(error.what());
    }
    return *this;
  }

  /*!
   * \brief Gives the global a doc string, which `packed4j describe` prints and generated Java carries as Javadoc.
   *  Chained after set_body or set_body_typed (or before: it is applied when the body is registered).
   * \code
   *   P4J_REGISTER_GLOBAL("calculator.Mul")
   *       .set_body_typed([](int64_t a, int64_t b) { return a * b; })
   *       .describe("The product of two numbers")
   *       .params({"a", "b"});
   * \endcode
   */
  Registry& describe(std::string doc) {
    doc_ = std::move(doc);
    has_doc_ = true;
    if (committed_) CommitDoc();
    return *this;
  }

  /*!
   * \brief Names the global's parameters, one name per parameter of a typed body (the core refuses another count;
   *  the refusal is written to stderr, as a failed registration is).
   */
  Registry& params(std::vector<std::string> names) {
    param_names_ = std::move(names);
    has_params_ = true;
    if (committed_) CommitDoc();
    return *this;
  }

  /*! \brief The name being registered. */
  const std::string& name() const noexcept { return name_; }

  /*! \brief The global function registered under name, or an undefined PackedFunc. */
  static PackedFunc Get(std::string_view name) { return PackedFunc::GetGlobal(name); }

  /*! \brief Every registered name, sorted. */
  static std::vector<std::string> ListNames() {
    P4JAny raw;
    details::CheckCall(P4JFunctionListGlobalNames(&raw));
    List<std::string> names(ObjectPtr<Object>::FromOwnedHandle(raw.v_obj));
    return names.ToVector();
  }

 private:
  Registry(const char* name, bool allow_override, int32_t abi_version)
      : name_(name), allow_override_(allow_override), abi_version_(abi_version) {}

  /*! \brief Throws the core's LoadError when it cannot read this library's entries (before anything is built). */
  void CheckAbiVersion() const { details::CheckCall(P4JPluginCheckAbiVersion(abi_version_)); }

  void Commit(const PackedFunc& function) {
    P4JByteArray name = details::ByteArrayOf(name_);
    if (P4JFunctionSetGlobal(&name, function.handle(), allow_override_ ? 1 : 0) != 0) {
      details::ThrowLastError();
    }
    committed_ = true;
    if (has_doc_ || has_params_) CommitDoc();
  }

  /*! \brief Hands the doc and parameter names given so far to the core; a refusal is reported, never thrown. */
  void CommitDoc() noexcept {
    try {
      P4JByteArray name = details::ByteArrayOf(name_);
      P4JByteArray doc = details::ByteArrayOf(doc_);
      std::vector<P4JByteArray> names;
      for (const std::string& param : param_names_) names.push_back(details::ByteArrayOf(param));
      details::CheckCall(P4JFunctionSetGlobalDoc(&name, has_doc_ ? &doc : nullptr,
                                                 names.empty() ? nullptr : names.data(),
                                                 has_params_ ? static_cast<int32_t>(names.size()) : -1));
    } catch (const std::exception& error) {
      Report(error.what());
    }
  }

  void Report(const char* what) const noexcept {
    std::fprintf(stderr, "packed4j: cannot register global function \"%s\": %s\n", name_.c_str(), what);
  }

  /*! \brief This library's entries (hidden, so each library has its own: a default-visibility function's
   *  static would be a GNU unique symbol, one vector for every library loaded, destroyed at exit by one of them). */
  __attribute__((visibility("hidden"))) static std::vector<std::unique_ptr<Registry>>& Entries() {
    static std::vector<std::unique_ptr<Registry>> entries;
    return entries;
  }

  /*! \brief Guards Entries() (hidden, as it is). */
  __attribute__((visibility("hidden"))) static std::mutex& EntriesMutex() {
    static std::mutex mutex;
    return mutex;
  }

  std::string name_;
  bool allow_override_;
  int32_t abi_version_;
  /*! \brief Whether this registration's body was registered (a refused one carries no doc). */
  bool committed_ = false;
  std::string doc_;
  bool has_doc_ = false;
  std::vector<std::string> param_names_;
  bool has_params_ = false;
};

}  // namespace packed4j

/*!
 * \brief Registers a global function when the library is loaded (at namespace scope), followed by
 *  .set_body(...) or .set_body_typed(...).
 *
 * \code
 *   P4J_REGISTER_GLOBAL("calculator.Mul").set_body_typed([](int64_t a, int64_t b) { return a * b; });
 * \endcode
 */
#define P4J_REGISTER_GLOBAL(OpName)                                                                    \
  static ::packed4j::Registry& P4J_STR_CONCAT(p4j_global_registration_, __COUNTER__) P4J_ATTRIBUTE_UNUSED = \
      ::packed4j::Registry::Register(OpName)

#endif  // PACKED4J_REGISTRY_H_
