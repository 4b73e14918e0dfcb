// A plugin built against the installed or build-tree package.
#include <packed4j/packed4j.h>

using namespace packed4j;

P4J_REGISTER_GLOBAL("consumer.Greet").set_body_typed([](std::string name) { return "hello, " + name; });
