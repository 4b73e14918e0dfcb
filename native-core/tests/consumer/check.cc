// Loads the consumer plugin and calls its function through the C++ API; exit status 0 means it worked.
#include <dlfcn.h>

#include <cstdio>

#include <packed4j/packed4j.h>

int main() {
  if (dlopen(CONSUMER_PLUGIN_PATH, RTLD_NOW | RTLD_LOCAL) == nullptr) {
    std::fprintf(stderr, "dlopen failed: %s\n", dlerror());
    return 1;
  }
  packed4j::PackedFunc greet = packed4j::PackedFunc::GetGlobal("consumer.Greet");
  if (!greet.defined()) {
    std::fprintf(stderr, "consumer.Greet is not registered\n");
    return 1;
  }
  std::string greeting = greet("packed4j");
  if (greeting != "hello, packed4j" || greet.signature() != "(string) -> string") {
    std::fprintf(stderr, "unexpected result \"%s\" / signature \"%s\"\n", greeting.c_str(), greet.signature().c_str());
    return 1;
  }
  std::printf("consumer check passed\n");
  return 0;
}
