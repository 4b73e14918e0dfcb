// The C++ functions every benchmark calls. Each calling convention (packed registrations, plain C twins, JNI)
// wraps these same functions, so a difference in time is the cost of the convention, not of the work.
#ifndef PACKED4J_BENCHMARKS_BENCH_FUNCTIONS_H_
#define PACKED4J_BENCHMARKS_BENCH_FUNCTIONS_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace bench {

int64_t Add(int64_t a, int64_t b);

/*! \brief A counter's method: its value plus two numbers. */
int64_t CounterAdd(int64_t value, int64_t a, int64_t b);

/*! \brief Does nothing: what is left is the cost of a call. */
void Nop();

/*! \brief Code points of a UTF-8 string (bytes that do not continue a sequence): reads every byte once. */
int64_t CountCodePoints(std::string_view utf8);

/*! \brief A copy of its argument: a string argument and a string result. */
std::string EchoString(std::string_view utf8);

/*! \brief Sum of count values, read through at(i). */
template <typename At>
int64_t Sum(int64_t count, At at) {
  int64_t sum = 0;
  for (int64_t i = 0; i < count; ++i) sum += at(i);
  return sum;
}

}  // namespace bench

#endif  // PACKED4J_BENCHMARKS_BENCH_FUNCTIONS_H_
