// A plugin library loaded with dlopen registers its globals and types at load; its objects are freed by its
// own deleters; its exceptions come back as errors; and libpacked4j.so shows only P4J* symbols.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <algorithm>

#include <packed4j/packed4j.h>

namespace {

using namespace packed4j;

void* LoadPlugin() {
  void* plugin = dlopen(PACKED4J_TEST_PLUGIN_PATH, RTLD_NOW | RTLD_LOCAL);
  EXPECT_NE(plugin, nullptr) << dlerror();
  return plugin;
}

// The first load of the plugin is what these tests check. ctest runs each test in a process of its own; run as one
// binary, an earlier test (PluginAbiVersionTest) may have loaded it, and then there is no first load left to check.
#define SKIP_UNLESS_FIRST_LOAD()                                                                   \
  if (dlopen(PACKED4J_TEST_PLUGIN_PATH, RTLD_NOW | RTLD_NOLOAD) != nullptr) {                       \
    GTEST_SKIP() << "the test plugin was loaded by an earlier test of this process; run it alone"; \
  }

TEST(PluginTest, RegistersGlobalsWhenLoaded) {
  SKIP_UNLESS_FIRST_LOAD();
  EXPECT_FALSE(PackedFunc::GetGlobal("test_plugin.Add").defined());
  LoadPlugin();
  PackedFunc add = PackedFunc::GetGlobal("test_plugin.Add");
  ASSERT_TRUE(add.defined());
  EXPECT_EQ(add(2, 3).cast<int64_t>(), 5);
  EXPECT_EQ(add.signature(), "(int64, int64) -> int64");
  std::vector<std::string> names = Registry::ListNames();
  EXPECT_NE(std::find(names.begin(), names.end(), "test_plugin.MakePoint"), names.end());
}

TEST(PluginTest, DuplicateNameKeepsTheFirstAndIsReported) {
  SKIP_UNLESS_FIRST_LOAD();
  LoadPlugin();
  EXPECT_EQ(PackedFunc::GetGlobal("test_plugin.Duplicate")().cast<int64_t>(), 1);
  List<std::string> errors = PackedFunc::GetGlobal("packed4j.TakeRegistrationErrors")().cast<List<std::string>>();
  bool reported = false;
  for (const std::string& error : errors) {
    reported = reported || (error.find("\"test_plugin.Duplicate\" is already registered by ") != std::string::npos &&
                            error.find("libp4j_test_plugin.so, which registers it twice") != std::string::npos);
  }
  EXPECT_TRUE(reported);
  // Taken: a second call has nothing left.
  EXPECT_EQ(PackedFunc::GetGlobal("packed4j.TakeRegistrationErrors")().cast<List<std::string>>().size(), 0);
}

TEST(PluginTest, PluginExceptionArrivesAsErrorOfItsKind) {
  LoadPlugin();
  try {
    PackedFunc::GetGlobal("test_plugin.Fail")();
    FAIL() << "expected a ValueError";
  } catch (const ValueError& error) {
    EXPECT_EQ(error.message(), "plugin failure");
    EXPECT_FALSE(error.backtrace().empty());
  }
}

TEST(PluginTest, ObjectsOfThePluginAreReflectedAndFreedByIt) {
  LoadPlugin();
  int64_t baseline = P4JObjectLiveCount();
  {
    ObjectRef point = PackedFunc::GetGlobal("test_plugin.MakePoint")(3, 4, "p").cast<ObjectRef>();
    EXPECT_EQ(point->GetTypeKey(), "test_plugin.Point");
    P4JByteArray name = details::ByteArrayOf("y");
    P4JAny value;
    ASSERT_EQ(P4JObjectGetAttr(point.handle(), &name, &value), 0);
    EXPECT_EQ(value.type_index, kP4JInt);
    EXPECT_EQ(value.v_int64, 4);
    EXPECT_EQ(P4JObjectLiveCount(), baseline + 1);
  }
  EXPECT_EQ(P4JObjectLiveCount(), baseline);
}

TEST(PluginTest, ObjectDefinitionsOfThePluginAreCallableAndWritable) {
  LoadPlugin();
  int64_t baseline = P4JObjectLiveCount();
  {
    P4JByteArray key = details::ByteArrayOf("test_plugin.Point");
    int32_t point_type = 0;
    ASSERT_EQ(P4JTypeKeyToIndex(&key, &point_type), 0);
    ObjectRef point = GetMethod(point_type, "__init__")(3, 4, "p").cast<ObjectRef>();
    EXPECT_EQ(GetMethod(point_type, "Dot")(point, 10, 100).cast<int64_t>(), 430);
    EXPECT_EQ(GetMethod(point_type, "Dot").signature(), "(test_plugin.Point, int64, int64) -> int64");
    ObjectRef origin = GetMethod(point_type, "Origin")().cast<ObjectRef>();
    EXPECT_EQ(GetMethod(point_type, "Dot")(origin, 1, 1).cast<int64_t>(), 0);

    // The core writes the plugin's fields: a number, and a std::string swapped whole.
    P4JByteArray x = details::ByteArrayOf("x");
    P4JAny seven;
    details::StoreInt(7, &seven);
    ASSERT_EQ(P4JObjectSetAttr(point.handle(), &x, &seven), 0);
    P4JByteArray label = details::ByteArrayOf("label");
    std::string long_label(100, 'q');
    P4JAny text{};
    text.type_index = kP4JStrView;
    text.small_len = static_cast<uint32_t>(long_label.size());
    text.v_ptr = long_label.data();
    ASSERT_EQ(P4JObjectSetAttr(point.handle(), &label, &text), 0);
    P4JAny read;
    ASSERT_EQ(P4JObjectGetAttr(point.handle(), &label, &read), 0);
    EXPECT_EQ(Any::FromOwned(read).cast<std::string>(), long_label);
    EXPECT_EQ(GetMethod(point_type, "Dot")(point, 1, 0).cast<int64_t>(), 7);
    P4JByteArray y = details::ByteArrayOf("y");
    EXPECT_EQ(P4JObjectSetAttr(point.handle(), &y, &seven), -1);
    P4JObjectHandle error = nullptr;
    P4JErrorMoveFromRaised(&error);
    ASSERT_NE(error, nullptr);
    EXPECT_EQ(details::ViewOf(details::CellOf<P4JErrorCell>(error)->message),
              "P4JObjectSetField: field \"y\" of test_plugin.Point is read-only (an object definition's def_rw "
              "declares a field writable)");
    P4JObjectDecRef(error);

    DocInfo add = GetGlobalDoc("test_plugin.Add");
    EXPECT_EQ(add.doc, "The sum of two numbers");
    EXPECT_EQ(add.param_names, (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(GetMethodDoc(point_type, "__init__").param_names, (std::vector<std::string>{"x", "y", "label"}));
    P4JByteArray doc{nullptr, 0};
    ASSERT_EQ(P4JTypeGetDoc(point_type, &doc), 0);
    EXPECT_EQ(details::ViewOf(doc), "A point of the plane");
  }
  EXPECT_EQ(P4JObjectLiveCount(), baseline);
}

TEST(PluginTest, CallbacksCrossLibrariesBothWays) {
  LoadPlugin();
  PackedFunc triple([](Args args, RetValue* rv) { *rv = args[0].cast<int64_t>() * 3; }, "test.Triple");
  EXPECT_EQ(PackedFunc::GetGlobal("test_plugin.CallTwice")(triple, 2).cast<int64_t>(), 18);
  PackedFunc failing([](Args, RetValue*) { throw IndexError("from the callback"); }, "test.Failing");
  try {
    PackedFunc::GetGlobal("test_plugin.CallTwice")(failing, 2);
    FAIL() << "expected an IndexError";
  } catch (const IndexError& error) {
    EXPECT_EQ(error.message(), "from the callback");
  }
}

TEST(PluginTest, CoreExportsOnlyTheCAbi) {
  void* core = dlopen(PACKED4J_LIBRARY_PATH, RTLD_NOW | RTLD_NOLOAD);
  ASSERT_NE(core, nullptr) << dlerror();
  EXPECT_NE(dlsym(core, "P4JAbiVersion"), nullptr);
  EXPECT_NE(dlsym(core, "P4JFunctionCall"), nullptr);
  // C++ functions of the core are hidden, e.g. packed4j::internal::HasRaisedError().
  EXPECT_EQ(dlsym(core, "_ZN8packed48internal14HasRaisedErrorEv"), nullptr);
  EXPECT_EQ(dlsym(core, "_ZN8packed48internal22TakeRegistrationErrorsEv"), nullptr);
  dlclose(core);
}

}  // namespace
