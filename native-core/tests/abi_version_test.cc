// ABI versions are enforced, not just declared: a plugin records the ABI version of the headers it was compiled
// with, and the core refuses a plugin whose typed entries and layouts it cannot read, naming the plugin and both
// versions. And the version moves with the wire form: abi_wire_form.txt records what the headers compile to (the
// layouts, constants and typed-entry machine types, and a fingerprint of c_api.h's declarations) for the version
// it names, and WireFormMatchesTheVersion fails when one changes without the other.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <packed4j/packed4j.h>

#include "test_util.h"

namespace {

using namespace packed4j;
using packed4j::testing::TakeRaised;

std::string VersionString(int32_t version) {
  return std::to_string(static_cast<uint32_t>(version) >> 16) + "." + std::to_string(version & 0xffff);
}

std::vector<std::string> TakeRegistrationErrors() {
  return PackedFunc::GetGlobal("packed4j.TakeRegistrationErrors")().cast<List<std::string>>().ToVector();
}

// ---- the rule, called directly (the caller is this test executable) ----

TEST(PluginAbiVersionTest, TheCoresOwnVersionAndOlderMinorsAreAccepted) {
  EXPECT_EQ(P4JPluginCheckAbiVersion(P4J_ABI_VERSION), 0);
  EXPECT_EQ(P4JPluginCheckAbiVersion(P4J_ABI_VERSION_MAJOR << 16), 0) << "a minor release only adds";
  EXPECT_EQ(TakeRaised(), "");
}

TEST(PluginAbiVersionTest, ANewerMinorOrAnotherMajorIsRefusedNamingBothVersions) {
  const std::string core = VersionString(P4J_ABI_VERSION);
  struct Case {
    int32_t version;
    const char* reason;
  };
  for (const Case& refused : {Case{P4J_ABI_VERSION + 1, "a newer minor version"},
                              Case{(P4J_ABI_VERSION_MAJOR + 1) << 16, "another major version"},
                              Case{(P4J_ABI_VERSION_MAJOR - 1) << 16 | P4J_ABI_VERSION_MINOR, "another major version"},
                              Case{-1, "another major version"}}) {
    EXPECT_EQ(P4JPluginCheckAbiVersion(refused.version), -1);
    std::string error = TakeRaised();
    EXPECT_EQ(error.rfind("LoadError: ABI version mismatch: plugin library ", 0), 0u) << error;
    EXPECT_NE(error.find("compiled against packed4j headers of ABI " + VersionString(refused.version) + ","),
              std::string::npos)
        << error;
    EXPECT_NE(error.find(") has ABI " + core + " (" + refused.reason), std::string::npos) << error;
    EXPECT_NE(error.find("rebuild the plugin against the headers of this libpacked4j.so"), std::string::npos) << error;
  }
}

// ---- plugins built with a claimed version, loaded as a loader loads them ----

/*! \brief What loading a plugin left: whether it loaded, and the registration errors it caused. */
struct Loaded {
  void* handle;
  std::vector<std::string> errors;
};

Loaded LoadPlugin(const char* path) {
  TakeRegistrationErrors();  // what earlier loads left
  Loaded loaded{dlopen(path, RTLD_NOW | RTLD_LOCAL), {}};
  EXPECT_NE(loaded.handle, nullptr) << dlerror();
  loaded.errors = TakeRegistrationErrors();
  return loaded;
}

bool TypeKeyRegistered(const std::string& key) {
  P4JByteArray bytes = details::ByteArrayOf(key);
  int32_t index = -1;
  bool registered = P4JTypeKeyToIndex(&bytes, &index) == 0;
  TakeRaised();
  return registered;
}

void ExpectRefused(const char* path, const std::string& prefix, int32_t claimed, const std::string& reason) {
  Loaded loaded = LoadPlugin(path);
  // Nothing of the plugin is registered, neither its functions nor its object type.
  EXPECT_FALSE(PackedFunc::GetGlobal(prefix + ".Answer").defined());
  EXPECT_FALSE(PackedFunc::GetGlobal(prefix + ".Version").defined());
  EXPECT_FALSE(TypeKeyRegistered(prefix + ".Thing"));
  // One refusal for the plugin, however many registrations it has, naming its file and both versions.
  ASSERT_EQ(loaded.errors.size(), 1u);
  const std::string& error = loaded.errors[0];
  EXPECT_EQ(error.rfind(std::string("LoadError: ABI version mismatch: plugin library ") + path +
                            " was compiled against packed4j headers of ABI " + VersionString(claimed) +
                            ", and libpacked4j.so (" + PACKED4J_LIBRARY_PATH + ") has ABI " +
                            VersionString(P4J_ABI_VERSION) + " (" + reason,
                        0),
            0u)
      << error;
  // Loading it again runs no registration and reports nothing new; the core keeps serving other plugins.
  EXPECT_EQ(LoadPlugin(path).errors.size(), 0u);
  Loaded other = LoadPlugin(PACKED4J_TEST_PLUGIN_PATH);
  EXPECT_EQ(PackedFunc::GetGlobal("test_plugin.Add")(2, 3).cast<int64_t>(), 5);
}

TEST(PluginAbiVersionTest, APluginOfANewerMinorIsRefusedAtLoad) {
  ExpectRefused(PACKED4J_ABI_NEWER_MINOR_PLUGIN_PATH, "abi_newer_minor", P4J_ABI_VERSION + 1,
                "a newer minor version");
}

TEST(PluginAbiVersionTest, APluginOfTheNextMajorIsRefusedAtLoad) {
  ExpectRefused(PACKED4J_ABI_NEXT_MAJOR_PLUGIN_PATH, "abi_next_major", (P4J_ABI_VERSION_MAJOR + 1) << 16,
                "another major version");
}

TEST(PluginAbiVersionTest, APluginOfThePreviousMajorIsRefusedAtLoad) {
  ExpectRefused(PACKED4J_ABI_PREVIOUS_MAJOR_PLUGIN_PATH, "abi_previous_major",
                (P4J_ABI_VERSION_MAJOR - 1) << 16 | P4J_ABI_VERSION_MINOR, "another major version");
}

TEST(PluginAbiVersionTest, APluginOfAnOlderMinorIsRegistered) {
  Loaded loaded = LoadPlugin(PACKED4J_ABI_OLDER_MINOR_PLUGIN_PATH);
  EXPECT_TRUE(loaded.errors.empty()) << loaded.errors[0];
  EXPECT_EQ(PackedFunc::GetGlobal("abi_older_minor.Answer")(int64_t{1}).cast<int64_t>(), 43);
  const int32_t claimed = P4J_ABI_VERSION_MINOR > 0 ? P4J_ABI_VERSION - 1 : P4J_ABI_VERSION;
  EXPECT_EQ(PackedFunc::GetGlobal("abi_older_minor.Version")().cast<int64_t>(), claimed)
      << "the plugin was built with the version it claims";
  EXPECT_TRUE(TypeKeyRegistered("abi_older_minor.Thing"));
}

// ---- the version moves with the wire form ----

/*! \brief The name of a typed entry's machine type. */
template <typename Wire>
std::string WireName() {
  if constexpr (std::is_same<Wire, int64_t>::value) return "int64_t";
  if constexpr (std::is_same<Wire, int32_t>::value) return "int32_t";
  if constexpr (std::is_same<Wire, double>::value) return "double";
  if constexpr (std::is_same<Wire, const P4JByteArray*>::value) return "const P4JByteArray*";
  if constexpr (std::is_same<Wire, const P4JAny*>::value) return "const P4JAny*";
  return "an unnamed machine type";
}

/*! \brief A typed parameter's signature name, and the machine type a typed entry takes for it. */
template <typename T>
std::string Parameter(const char* cpp) {
  std::string line = std::string("parameter ") + cpp + ": signature " + details::TypeTraits<T>::TypeName();
  if constexpr (details::kWireParameter<T>) {
    line += ", typed entry " + WireName<details::WireArg<T>>();
    if (details::kWireValue<T>) line += " tensor word";
    if (details::kWireObject<T>) line += " object word";
    if (details::kWireList<T>) line += " list word";
  } else {
    line += ", no typed entry";
  }
  return line;
}

/*! \brief A typed result's machine type and sentinel. */
template <typename R>
std::string Result(const char* cpp) {
  using Wire = details::WireResult<R>;
  std::ostringstream line;
  line << "result " << cpp << ": typed entry " << WireName<Wire>();
  if (details::kOutResult<R>) line << " with P4JAny* out";
  if (details::kObjectResult<R>) line << " owned object word";
  if (details::kSpanResult<R>) line << " kept span";
  line << ", sentinel ";
  Wire sentinel = details::TypedErrorSentinel<Wire>();
  if constexpr (std::is_same<Wire, const P4JByteArray*>::value) {
    line << (sentinel == nullptr ? "NULL" : "not NULL");
  } else if constexpr (std::is_same<Wire, double>::value) {
    int64_t bits;
    std::memcpy(&bits, &sentinel, sizeof(bits));
    line << "bits 0x" << std::hex << bits;
  } else {
    line << sentinel;
  }
  return line.str();
}

/*! \brief c_api.h without comments, blank space folded, and without the version's own two lines. */
std::string Declarations(const std::string& header) {
  std::string code;
  for (size_t i = 0; i < header.size(); ++i) {
    if (header.compare(i, 2, "/*") == 0) {
      size_t end = header.find("*/", i + 2);
      i = end == std::string::npos ? header.size() : end + 1;
      code += ' ';
    } else if (header.compare(i, 2, "//") == 0) {
      size_t end = header.find('\n', i);
      i = end == std::string::npos ? header.size() : end - 1;
    } else {
      code += header[i];
    }
  }
  std::istringstream lines(code);
  std::string folded;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("#define P4J_ABI_VERSION_MAJOR ", 0) == 0 || line.rfind("#define P4J_ABI_VERSION_MINOR ", 0) == 0) {
      continue;
    }
    std::istringstream words(line);
    for (std::string word; words >> word;) folded += word + ' ';
    folded += '\n';
  }
  return folded;
}

/*! \brief FNV-1a, 64 bits. */
std::string Fingerprint(const std::string& text) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001b3ull;
  }
  std::ostringstream hex;
  hex << std::hex << hash;
  return hex.str();
}

#define P4J_LAYOUT(Struct, field) \
  #Struct "." #field " @" + std::to_string(offsetof(Struct, field)) + " size " + \
      std::to_string(sizeof(static_cast<Struct*>(nullptr)->field))
#define P4J_SIZE(Struct) "sizeof " #Struct " " + std::to_string(sizeof(Struct))
#define P4J_CONSTANT(name) #name " " + std::to_string(name)

/*!
 * \brief What a plugin compiled with these headers hands the core and its callers, one fact a line: the layouts
 *  of the ABI's structs, its constants, the signature name and the machine type of every typed-entry parameter
 *  and result, and a fingerprint of every declaration of c_api.h (a function added, a parameter changed).
 */
std::vector<std::string> WireForm() {
  std::vector<std::string> lines = {
      P4J_SIZE(P4JAny), P4J_LAYOUT(P4JAny, type_index), P4J_LAYOUT(P4JAny, small_len),
      P4J_LAYOUT(P4JAny, zero_padding), P4J_LAYOUT(P4JAny, v_int64), P4J_LAYOUT(P4JAny, v_float64),
      P4J_LAYOUT(P4JAny, v_ptr), P4J_LAYOUT(P4JAny, v_obj), P4J_LAYOUT(P4JAny, v_dtype),
      P4J_LAYOUT(P4JAny, v_device),
      P4J_SIZE(P4JObject), P4J_LAYOUT(P4JObject, type_index), P4J_LAYOUT(P4JObject, flags),
      P4J_LAYOUT(P4JObject, ref_counter), P4J_LAYOUT(P4JObject, deleter),
      P4J_SIZE(P4JByteArray), P4J_LAYOUT(P4JByteArray, data), P4J_LAYOUT(P4JByteArray, size),
      P4J_SIZE(P4JErrorCell), P4J_LAYOUT(P4JErrorCell, kind), P4J_LAYOUT(P4JErrorCell, message),
      P4J_LAYOUT(P4JErrorCell, backtrace),
      P4J_SIZE(P4JListCell), P4J_LAYOUT(P4JListCell, data), P4J_LAYOUT(P4JListCell, size),
      P4J_LAYOUT(P4JListCell, capacity),
      P4J_SIZE(P4JMapCell), P4J_LAYOUT(P4JMapCell, entries), P4J_LAYOUT(P4JMapCell, size),
      P4J_LAYOUT(P4JMapCell, capacity),
      P4J_SIZE(P4JFieldInfo), P4J_LAYOUT(P4JFieldInfo, name), P4J_LAYOUT(P4JFieldInfo, kind),
      P4J_LAYOUT(P4JFieldInfo, object_type_index), P4J_LAYOUT(P4JFieldInfo, offset), P4J_LAYOUT(P4JFieldInfo, size),
      P4J_SIZE(P4JTypeInfo), P4J_LAYOUT(P4JTypeInfo, type_index), P4J_LAYOUT(P4JTypeInfo, parent_type_index),
      P4J_LAYOUT(P4JTypeInfo, depth), P4J_LAYOUT(P4JTypeInfo, num_fields), P4J_LAYOUT(P4JTypeInfo, type_key),
      P4J_LAYOUT(P4JTypeInfo, fields), P4J_LAYOUT(P4JTypeInfo, instance_size),
      P4J_SIZE(P4JMethodInfo), P4J_LAYOUT(P4JMethodInfo, name), P4J_LAYOUT(P4JMethodInfo, kind),
      P4J_LAYOUT(P4JMethodInfo, num_param_names), P4J_LAYOUT(P4JMethodInfo, type_index),
      P4J_LAYOUT(P4JMethodInfo, reserved), P4J_LAYOUT(P4JMethodInfo, function), P4J_LAYOUT(P4JMethodInfo, signature),
      P4J_LAYOUT(P4JMethodInfo, doc), P4J_LAYOUT(P4JMethodInfo, param_names),
      P4J_CONSTANT(P4J_FIELD_MUTABLE), P4J_CONSTANT(kP4JMethodInstance), P4J_CONSTANT(kP4JMethodStatic),
      P4J_CONSTANT(kP4JMethodConstructor), std::string("P4J_CONSTRUCTOR_NAME ") + P4J_CONSTRUCTOR_NAME,
      P4J_SIZE(P4JFunctionCell), P4J_LAYOUT(P4JFunctionCell, self), P4J_LAYOUT(P4JFunctionCell, safe_call),
      P4J_LAYOUT(P4JFunctionCell, typed_entry), P4J_LAYOUT(P4JFunctionCell, scalars_entry),
      P4J_LAYOUT(P4JFunctionCell, typed_forms), P4J_CONSTANT(P4J_LIST_WORD_BORROWED),
      P4J_CONSTANT(P4J_TYPED_FORM_BORROWED_LIST), P4J_CONSTANT(P4J_LIST_WORD_TAG_MASK),
      P4J_CONSTANT(P4J_LIST_WORD_DENSE_I64), P4J_CONSTANT(P4J_LIST_WORD_DENSE_F64),
      P4J_CONSTANT(P4J_TYPED_FORM_DENSE_LIST),
      P4J_SIZE(P4JNDArrayCell), P4J_LAYOUT(DLTensor, data), P4J_LAYOUT(DLTensor, device), P4J_LAYOUT(DLTensor, ndim),
      P4J_LAYOUT(DLTensor, dtype), P4J_LAYOUT(DLTensor, shape), P4J_LAYOUT(DLTensor, strides),
      P4J_LAYOUT(DLTensor, byte_offset),
      P4J_SIZE(DLManagedTensorVersioned), P4J_LAYOUT(DLManagedTensorVersioned, version),
      P4J_LAYOUT(DLManagedTensorVersioned, manager_ctx), P4J_LAYOUT(DLManagedTensorVersioned, deleter),
      P4J_LAYOUT(DLManagedTensorVersioned, flags), P4J_LAYOUT(DLManagedTensorVersioned, dl_tensor),
      P4J_CONSTANT(kP4JNone), P4J_CONSTANT(kP4JInt), P4J_CONSTANT(kP4JBool), P4J_CONSTANT(kP4JFloat),
      P4J_CONSTANT(kP4JOpaquePtr), P4J_CONSTANT(kP4JDataType), P4J_CONSTANT(kP4JDevice),
      P4J_CONSTANT(kP4JDLTensorPtr), P4J_CONSTANT(kP4JStrView), P4J_CONSTANT(kP4JBytesView),
      P4J_CONSTANT(kP4JStaticObjectBegin), P4J_CONSTANT(kP4JObject), P4J_CONSTANT(kP4JFunction),
      P4J_CONSTANT(kP4JString), P4J_CONSTANT(kP4JBytes), P4J_CONSTANT(kP4JList), P4J_CONSTANT(kP4JMap),
      P4J_CONSTANT(kP4JError), P4J_CONSTANT(kP4JNDArray), P4J_CONSTANT(kP4JDynamicObjectBegin),
      P4J_CONSTANT(kP4JFieldInt32), P4J_CONSTANT(kP4JFieldInt64), P4J_CONSTANT(kP4JFieldUInt64),
      P4J_CONSTANT(kP4JFieldFloat64), P4J_CONSTANT(kP4JFieldBool), P4J_CONSTANT(kP4JFieldString),
      P4J_CONSTANT(kP4JFieldObject),
      P4J_CONSTANT(P4J_TYPED_ERROR_I64), P4J_CONSTANT(P4J_TYPED_ERROR_F64_BITS), P4J_CONSTANT(P4J_TYPED_ERROR_I32),
      P4J_CONSTANT(P4J_TENSOR_WORD_BORROWED), P4J_CONSTANT(P4J_HOST_DEFAULT_STACK_RESERVE),
      P4J_CONSTANT(P4J_HOST_TYPED_ENTRIES), P4J_CONSTANT(P4J_DLPACK_MAJOR_VERSION), P4J_CONSTANT(P4J_DL_BOOL_CODE),
      Parameter<bool>("bool"), Parameter<int8_t>("int8_t"), Parameter<int16_t>("int16_t"),
      Parameter<int32_t>("int32_t"), Parameter<int64_t>("int64_t"), Parameter<uint8_t>("uint8_t"),
      Parameter<uint16_t>("uint16_t"), Parameter<uint32_t>("uint32_t"), Parameter<uint64_t>("uint64_t"),
      Parameter<float>("float"), Parameter<double>("double"), Parameter<std::string>("std::string"),
      Parameter<std::string_view>("std::string_view"), Parameter<String>("String"), Parameter<Bytes>("Bytes"),
      Parameter<NDArray>("NDArray"), Parameter<TensorView>("TensorView"), Parameter<ObjectRef>("ObjectRef"),
      Parameter<PackedFunc>("PackedFunc"),
      Parameter<TypedPackedFunc<int64_t(int64_t)>>("TypedPackedFunc<int64_t(int64_t)>"), Parameter<Any>("Any"),
      Parameter<List<int64_t>>("List<int64_t>"),
      Parameter<Map<std::string, double>>("Map<std::string, double>"),
      Parameter<std::optional<int64_t>>("std::optional<int64_t>"),
      Parameter<std::vector<int64_t>>("std::vector<int64_t>"), Parameter<ListView<double>>("ListView<double>"),
      Result<void>("void"), Result<bool>("bool"), Result<int32_t>("int32_t"), Result<int64_t>("int64_t"),
      Result<uint64_t>("uint64_t"), Result<float>("float"), Result<double>("double"),
      Result<std::string>("std::string"), Result<String>("String"), Result<Bytes>("Bytes"),
      Result<NDArray>("NDArray"), Result<PackedFunc>("PackedFunc"),
      Result<TypedPackedFunc<int64_t(int64_t)>>("TypedPackedFunc<int64_t(int64_t)>"),
      Result<List<int64_t>>("List<int64_t>"),
      Result<std::vector<std::string>>("std::vector<std::string>"),
      Result<Map<std::string, double>>("Map<std::string, double>"), Result<ObjectRef>("ObjectRef"),
      Result<ObjectPtr<Object>>("ObjectPtr<Object>"), Result<Any>("Any"),
      Result<std::optional<int64_t>>("std::optional<int64_t>"),
      Parameter<ObjectPtr<Object>>("ObjectPtr<Object>"),
  };
  std::ifstream header(PACKED4J_C_API_HEADER);
  std::stringstream text;
  text << header.rdbuf();
  EXPECT_FALSE(text.str().empty()) << "cannot read " << PACKED4J_C_API_HEADER;
  lines.push_back("c_api.h declarations fnv1a64 " + Fingerprint(Declarations(text.str())));
  return lines;
}

constexpr const char* kHowToUpdate =
    "P4J_ABI_VERSION_MINOR for an addition (a new function, a new trailing field of a cell passed with its size), "
    "P4J_ABI_VERSION_MAJOR for any other change (a typed entry's parameter or result, a layout, a constant, a "
    "function's parameters), with the version notes of c_api.h; then rerun this test with "
    "P4J_UPDATE_ABI_WIRE_FORM=1 in the environment, which rewrites the file once the version differs from the one "
    "it records";

/*!
 * \brief Why the recorded wire form (the file's text: comment lines starting with '#', "version M.m", one fact a
 *  line) does not hold the headers' (version, facts) together; empty when it does.
 */
std::string WireFormProblem(const std::string& recorded, const std::string& version,
                            const std::vector<std::string>& current, const std::string& file) {
  std::string recorded_version;
  std::vector<std::string> recorded_lines;
  std::istringstream lines(recorded);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] == '#') continue;
    if (line.rfind("version ", 0) == 0) {
      recorded_version = line.substr(8);
    } else {
      recorded_lines.push_back(line);
    }
  }
  if (recorded_version == version && recorded_lines == current) return "";
  std::string changes;
  std::set<std::string> before(recorded_lines.begin(), recorded_lines.end());
  std::set<std::string> after(current.begin(), current.end());
  for (const std::string& line : recorded_lines) {
    if (after.count(line) == 0) changes += "\n  - " + line;
  }
  for (const std::string& line : current) {
    if (before.count(line) == 0) changes += "\n  + " + line;
  }
  if (recorded_version == version) {
    return "the wire form of the headers changed and P4J_ABI_VERSION (" + version + ") did not: a plugin built with " +
           "the old headers would be read by the new core as if it had the new form: bump " +
           "P4J_ABI_VERSION_MINOR/MAJOR and update the fingerprint (" + file + "): " + kHowToUpdate + ". Changes:" +
           changes;
  }
  return "P4J_ABI_VERSION is " + version + " and " + file + " records the wire form of " +
         (recorded_version.empty() ? std::string("no version") : recorded_version) +
         ": update the fingerprint (rerun this test with P4J_UPDATE_ABI_WIRE_FORM=1 in the environment). Changes:" +
         (changes.empty() ? std::string(" none besides the version") : changes);
}

std::string WireFormFile(const std::string& version, const std::vector<std::string>& current) {
  std::string text =
      "# The wire form of packed4j's C ABI and of the typed entries its headers compile into every plugin, as of\n"
      "# the version below: written by abi_version_test.cc (WireFormMatchesTheVersion), which fails when the headers\n"
      "# no longer compile to this without P4J_ABI_VERSION having changed. Do not edit by hand.\n"
      "version " + version + "\n";
  for (const std::string& line : current) text += line + "\n";
  return text;
}

TEST(AbiWireFormTest, WireFormMatchesTheVersion) {
  const std::string version = VersionString(P4J_ABI_VERSION);
  const std::vector<std::string> current = WireForm();
  std::ifstream in(PACKED4J_ABI_WIRE_FORM_FILE);
  std::stringstream recorded;
  if (in) recorded << in.rdbuf();
  in.close();
  std::string problem = WireFormProblem(recorded.str(), version, current, PACKED4J_ABI_WIRE_FORM_FILE);
  const char* update = std::getenv("P4J_UPDATE_ABI_WIRE_FORM");
  if (!problem.empty() && update != nullptr && std::string(update) == "1" &&
      problem.rfind("P4J_ABI_VERSION is ", 0) == 0) {
    std::ofstream(PACKED4J_ABI_WIRE_FORM_FILE) << WireFormFile(version, current);
    std::printf("wrote %s for ABI %s\n", PACKED4J_ABI_WIRE_FORM_FILE, version.c_str());
    return;
  }
  EXPECT_EQ(problem, "");
}

TEST(AbiWireFormTest, AChangeWithoutABumpFailsAndABumpAsksForTheNewRecord) {
  const std::string recorded = "# comment\nversion 2.3\nP4JAny.v_int64 @8 size 8\nparameter NDArray: tensor word\n";
  EXPECT_EQ(WireFormProblem(recorded, "2.3", {"P4JAny.v_int64 @8 size 8", "parameter NDArray: tensor word"}, "f"), "");

  std::string unbumped =
      WireFormProblem(recorded, "2.3", {"P4JAny.v_int64 @8 size 8", "parameter NDArray: const P4JAny*"}, "f");
  EXPECT_NE(unbumped.find("bump P4J_ABI_VERSION_MINOR/MAJOR and update the fingerprint (f)"), std::string::npos)
      << unbumped;
  EXPECT_NE(unbumped.find("\n  - parameter NDArray: tensor word"), std::string::npos) << unbumped;
  EXPECT_NE(unbumped.find("\n  + parameter NDArray: const P4JAny*"), std::string::npos) << unbumped;

  std::string bumped =
      WireFormProblem(recorded, "3.0", {"P4JAny.v_int64 @8 size 8", "parameter NDArray: const P4JAny*"}, "f");
  EXPECT_EQ(bumped.rfind("P4J_ABI_VERSION is 3.0 and f records the wire form of 2.3: update the fingerprint", 0), 0u)
      << bumped;
  std::string only_version =
      WireFormProblem(recorded, "2.4", {"P4JAny.v_int64 @8 size 8", "parameter NDArray: tensor word"}, "f");
  EXPECT_NE(only_version.find("update the fingerprint"), std::string::npos) << only_version;
  EXPECT_NE(only_version.find("Changes: none besides the version"), std::string::npos) << only_version;
}

TEST(AbiWireFormTest, CommentsAndLayoutOfTheHeaderDoNotCountButDeclarationsDo) {
  const std::string header = "/*! \\brief a */\n#define P4J_ABI_VERSION_MAJOR 2\n#define P4J_ABI_VERSION_MINOR 3\n"
                             "P4J_DLL int P4JF(int32_t a); // note\n";
  EXPECT_EQ(Declarations(header), Declarations("/* other words */\n#define P4J_ABI_VERSION_MAJOR 9\n"
                                               "#define P4J_ABI_VERSION_MINOR 0\nP4J_DLL   int P4JF(int32_t a);\n"));
  EXPECT_NE(Fingerprint(Declarations(header)), Fingerprint(Declarations("P4J_DLL int P4JF(int64_t a);\n")));
}

}  // namespace
