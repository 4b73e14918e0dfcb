// Native backtraces name the functions of a Release plugin with hidden visibility, and give file:line with its
// debug info (packed4j_plugin_debug_info), embedded or split into a .debug file. Run twice by ctest: with libdw,
// and with PACKED4J_BACKTRACE_LIBDW=0, where names come from the library's .symtab and file:line is absent.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <tuple>
#include <string>
#include <vector>

#include <packed4j/packed4j.h>

namespace {

using namespace packed4j;

bool LibDwExpected() {
  const char* setting = std::getenv("PACKED4J_BACKTRACE_LIBDW");
  if (setting != nullptr && std::strcmp(setting, "0") == 0) return false;
  void* libdw = dlopen("libdw.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
  if (libdw == nullptr) libdw = dlopen("libdw.so.1", RTLD_NOW | RTLD_LOCAL);
  return libdw != nullptr;
}

/*! The line number of the marker comment "// line: <marker>" in backtrace_plugin.cc. */
int LineOf(const std::string& marker) {
  std::ifstream source(PACKED4J_BACKTRACE_PLUGIN_SOURCE);
  std::string text;
  for (int number = 1; std::getline(source, text); ++number) {
    if (text.find("// line: " + marker) != std::string::npos) return number;
  }
  ADD_FAILURE() << "no marker '" << marker << "' in " << PACKED4J_BACKTRACE_PLUGIN_SOURCE;
  return -1;
}

/*! The backtrace of the ValueError the plugin's "Parse" (registered under prefix) raises. */
std::string TraceOf(const char* plugin_path, const std::string& prefix) {
  void* plugin = dlopen(plugin_path, RTLD_NOW | RTLD_LOCAL);
  EXPECT_NE(plugin, nullptr) << dlerror();
  PackedFunc parse = PackedFunc::GetGlobal(prefix + ".Parse");
  EXPECT_TRUE(parse.defined());
  try {
    parse("x");
  } catch (const ValueError& error) {
    EXPECT_EQ(error.message(), "not a digit: 'x'");
    return error.backtrace();
  }
  ADD_FAILURE() << "expected a ValueError";
  return "";
}

/*! The line of the trace that names function, or "" (with a failure). */
std::string FrameOf(const std::string& trace, const std::string& function) {
  size_t at = trace.find(function);
  if (at == std::string::npos) {
    ADD_FAILURE() << "no frame of " << function << " in:\n" << trace;
    return "";
  }
  size_t begin = trace.rfind('\n', at);
  begin = begin == std::string::npos ? 0 : begin + 1;
  return trace.substr(begin, trace.find('\n', at) - begin);
}

void ExpectReadable(const std::string& trace, const std::string& library_name) {
  std::vector<std::pair<std::string, std::string>> frames = {
      {"backtrace_plugin::ParseDigit(", "throw"},
      {"backtrace_plugin::ParseField(", "ParseField calls ParseDigit"},
      {"backtrace_plugin::ParseRecord(", "ParseRecord calls ParseField"},
  };
  size_t previous = 0;
  bool libdw = LibDwExpected();
  for (const auto& [function, marker] : frames) {
    std::string frame = FrameOf(trace, function);
    size_t at = trace.find(frame);
    EXPECT_GE(at, previous) << function << " is not below the frames it called:\n" << trace;
    previous = at;
    EXPECT_NE(frame.find(" in "), std::string::npos) << frame;
    EXPECT_NE(frame.find(library_name), std::string::npos) << frame;
    std::string location = "backtrace_plugin.cc:" + std::to_string(LineOf(marker)) + " ";
    if (libdw) {
      EXPECT_NE(frame.find(" at "), std::string::npos) << frame;
      EXPECT_NE(frame.find(location), std::string::npos) << "expected " << location << "in: " << frame;
    } else {
      EXPECT_EQ(frame.find(" at "), std::string::npos) << "no file:line without libdw: " << frame;
    }
  }
}

TEST(BacktraceTest, ReleasePluginWithHiddenVisibilityNamesItsFunctions) {
  ExpectReadable(TraceOf(PACKED4J_BACKTRACE_PLUGIN_PATH, "backtrace_plugin"), "libp4j_backtrace_plugin.so");
}

TEST(BacktraceTest, SplitDebugInfoIsFoundNextToTheLibrary) {
  ExpectReadable(TraceOf(PACKED4J_BACKTRACE_SPLIT_PLUGIN_PATH, "backtrace_split_plugin"),
                 "libp4j_backtrace_split_plugin.so");
}

TEST(BacktraceTest, FormatNamesExportedFunctionsAndUnknownAddresses) {
  void* frames[] = {reinterpret_cast<void*>(reinterpret_cast<uintptr_t>(&P4JAbiVersion) + 1),
                    reinterpret_cast<void*>(uintptr_t{16})};
  P4JObjectHandle text = nullptr;
  ASSERT_EQ(P4JBacktraceFormat(frames, 2, &text), 0);
  std::string trace(details::ViewOf(*details::CellOf<P4JByteArray>(text)));
  P4JObjectDecRef(text);
  EXPECT_EQ(trace.rfind("#0 P4JAbiVersion+0x1", 0), 0u) << trace;
  EXPECT_NE(trace.find("libpacked4j.so"), std::string::npos) << trace;
  EXPECT_NE(trace.find("\n#1 ?? (no library: JIT-compiled or generated code) at 0x10\n"), std::string::npos) << trace;
}

TEST(BacktraceTest, FormatRefusesBadArguments) {
  P4JObjectHandle text = nullptr;
  EXPECT_EQ(P4JBacktraceFormat(nullptr, 0, &text), 0);
  EXPECT_EQ(details::CellOf<P4JByteArray>(text)->size, 0);
  P4JObjectDecRef(text);
  void* frame = nullptr;
  for (auto [frames, count, out, expected] :
       std::vector<std::tuple<void* const*, int32_t, P4JObjectHandle*, const char*>>{
           {&frame, -1, &text, "num_frames must be 0 or more, got -1"},
           {nullptr, 2, &text, "frames must not be NULL when num_frames is 2"},
           {&frame, 1, nullptr, "out must not be NULL"}}) {
    EXPECT_EQ(P4JBacktraceFormat(frames, count, out), -1);
    P4JObjectHandle error = nullptr;
    P4JErrorMoveFromRaised(&error);
    ASSERT_NE(error, nullptr);
    auto* cell = details::CellOf<P4JErrorCell>(error);
    EXPECT_EQ(details::ViewOf(cell->kind), "ValueError");
    std::string message(details::ViewOf(cell->message));
    EXPECT_NE(message.find("P4JBacktraceFormat: "), std::string::npos) << message;
    EXPECT_NE(message.find(expected), std::string::npos) << message;
    P4JObjectDecRef(error);
  }
}

}  // namespace
