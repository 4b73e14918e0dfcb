// Must not compile: set_body_typed cannot convert a packed value to a raw pointer type.
// expected-error: set_body_typed: a parameter type has no conversion from a packed value
#include <packed4j/packed4j.h>

struct Opaque {};

P4J_REGISTER_GLOBAL("test.TakesPointer").set_body_typed([](Opaque* pointer) { return pointer != nullptr; });
