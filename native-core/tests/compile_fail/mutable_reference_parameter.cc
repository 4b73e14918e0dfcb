// Must not compile: a typed body cannot write back through a parameter.
// expected-error: set_body_typed: parameters must be taken by value or by const reference
#include <packed4j/packed4j.h>

P4J_REGISTER_GLOBAL("test.Increment").set_body_typed([](int64_t& value) { ++value; });
