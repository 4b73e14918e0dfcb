#include "bench_functions.h"

namespace bench {

// Out of line (this file), so every convention calls one copy of each function.
int64_t Add(int64_t a, int64_t b) { return a + b; }

int64_t CounterAdd(int64_t value, int64_t a, int64_t b) { return value + a + b; }

void Nop() {}

int64_t CountCodePoints(std::string_view utf8) {
  int64_t count = 0;
  for (char c : utf8) count += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return count;
}

std::string EchoString(std::string_view utf8) { return std::string(utf8); }

}  // namespace bench
