// Scalars, strings, bytes and errors for the end-to-end tests (ValuesTest).
#include <packed4j/packed4j.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

using namespace packed4j;

P4J_REGISTER_GLOBAL("test.EchoInt64").set_body_typed([](int64_t value) { return value; });
// An optional result: None for a value that is not positive (TypeVerdictParityTest: a primitive cannot hold it).
P4J_REGISTER_GLOBAL("test.PositiveOrNone").set_body_typed([](int64_t value) -> std::optional<int64_t> {
  if (value <= 0) return std::nullopt;
  return value;
});

// int32 parameters: a Java long out of range must be a ValueError, never truncated.
P4J_REGISTER_GLOBAL("test.AddInt32").set_body_typed([](int32_t a, int32_t b) {
  return static_cast<int64_t>(a) + static_cast<int64_t>(b);
});

P4J_REGISTER_GLOBAL("test.EchoFloat64").set_body_typed([](double value) { return value; });

P4J_REGISTER_GLOBAL("test.EchoBool").set_body_typed([](bool value) { return value; });

P4J_REGISTER_GLOBAL("test.EchoString").set_body_typed([](std::string value) { return value; });

P4J_REGISTER_GLOBAL("test.StringByteLength").set_body_typed([](std::string value) {
  return static_cast<int64_t>(value.size());
});

P4J_REGISTER_GLOBAL("test.EchoBytes").set_body_typed([](Bytes value) { return value; });

// Any bytes as a string result, UTF-8 or not.
P4J_REGISTER_GLOBAL("test.BytesAsString").set_body_typed([](Bytes value) { return std::string(value.view()); });

// Untyped: whatever comes in goes back out.
P4J_REGISTER_GLOBAL("test.UntypedEcho").set_body([](Args args, RetValue* rv) { *rv = args[0]; });

// Untyped over four mixed scalars, as DGL's calculator registers functions: the register path of a binding.
P4J_REGISTER_GLOBAL("test.UntypedMix").set_body([](Args args, RetValue* rv) {
  int8_t a = args[0];
  bool b = args[1];
  float c = args[2];
  double d = args[3];
  *rv = a + (b ? 10.0 : 0.0) + c * 100 + d * 1000;
});

// Typed over strings and a number: strings reach the typed entry as spans.
P4J_REGISTER_GLOBAL("test.CountOccurrences").set_body_typed([](std::string_view text, std::string_view part,
                                                               int32_t limit) {
  if (part.empty()) throw ValueError("the part to count is empty");
  int64_t count = 0;
  for (size_t at = text.find(part); at != std::string_view::npos && count < limit; at = text.find(part, at + 1)) {
    ++count;
  }
  return count;
});

P4J_REGISTER_GLOBAL("test.ReturnNothing").set_body_typed([]() {});

// Raises an error of the given kind, to check that kind, message and backtrace reach Java.
P4J_REGISTER_GLOBAL("test.Raise").set_body_typed([](std::string kind, std::string message) {
  throw Error(kind, message);
});
