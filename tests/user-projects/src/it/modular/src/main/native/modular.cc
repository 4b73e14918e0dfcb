// The plugin of a modular application: nothing here knows about Java modules.
#include <packed4j/packed4j.h>

#include <cstdint>
#include <string>

P4J_REGISTER_GLOBAL("modular.Greet").set_body_typed([](std::string name) { return "Hello, " + name + "!"; });

P4J_REGISTER_GLOBAL("modular.Add").set_body_typed([](int64_t a, int64_t b) { return a + b; });
