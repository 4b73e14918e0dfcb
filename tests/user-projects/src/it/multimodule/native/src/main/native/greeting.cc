// The library of the native module; the api module declares its Java interface.
#include <packed4j/packed4j.h>

#include <string>

P4J_REGISTER_GLOBAL("greeting.Hello").set_body_typed([](std::string name) { return "Hello, " + name + "!"; });
