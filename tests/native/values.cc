// Scalars, strings, bytes and errors for the end-to-end tests (ValuesTest).
#include <packed4j/packed4j.h>

#include <cstdint>
#include <string>

using namespace packed4j;

P4J_REGISTER_GLOBAL("test.EchoInt64").set_body_typed([](int64_t value) { return value; });

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

// Untyped: whatever comes in goes back out.
P4J_REGISTER_GLOBAL("test.UntypedEcho").set_body([](Args args, RetValue* rv) { *rv = args[0]; });

P4J_REGISTER_GLOBAL("test.ReturnNothing").set_body_typed([]() {});

// Raises an error of the given kind, to check that kind, message and backtrace reach Java.
P4J_REGISTER_GLOBAL("test.Raise").set_body_typed([](std::string kind, std::string message) {
  throw Error(kind, message);
});
