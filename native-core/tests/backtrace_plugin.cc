// A plugin for backtrace_test.cc, built like a user's Release plugin (optimized, hidden visibility) with
// packed4j_plugin_debug_info: its error is thrown three calls deep, in functions no symbol is exported for.
// backtrace_test.cc finds the lines below by their "// line:" markers.
#include <packed4j/packed4j.h>

#include <string>

namespace backtrace_plugin {

// noinline keeps one frame per function, and "+ 1" after each call keeps it from being a tail call.
__attribute__((noinline)) int64_t ParseDigit(const std::string& text) {
  if (text.empty() || text[0] < '0' || text[0] > '9') {
    throw packed4j::ValueError("not a digit: '" + text + "'");  // line: throw
  }
  return text[0] - '0';
}

__attribute__((noinline)) int64_t ParseField(const std::string& text) {
  return ParseDigit(text) + 1;  // line: ParseField calls ParseDigit
}

__attribute__((noinline)) int64_t ParseRecord(const std::string& text) {
  return ParseField(text) + 1;  // line: ParseRecord calls ParseField
}

}  // namespace backtrace_plugin

#ifndef P4J_BACKTRACE_PLUGIN_PREFIX
#define P4J_BACKTRACE_PLUGIN_PREFIX "backtrace_plugin"
#endif

P4J_REGISTER_GLOBAL(P4J_BACKTRACE_PLUGIN_PREFIX ".Parse").set_body_typed([](std::string text) {
  return backtrace_plugin::ParseRecord(text);
});
