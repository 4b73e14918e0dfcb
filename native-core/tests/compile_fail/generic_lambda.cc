// Must not compile: a generic lambda has no parameter types for set_body_typed to convert to (it gave two template
// errors about decltype and CallableTraits before the static_assert).
// expected-error: set_body_typed and FromTyped need a callable whose parameter types are written out
#include <packed4j/packed4j.h>

P4J_REGISTER_GLOBAL("test.Generic").set_body_typed([](auto value) { return value; });
