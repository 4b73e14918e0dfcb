// C++ calling Java (CallbackBenchmark): the same loop over a Java (int64, int64) -> int64 function, through a
// packed4j callback's typed entry, a Java global looked up once, a packed callback, and, as the baseline, a plain C
// function pointer to an FFM upcall stub.
#include <packed4j/packed4j.h>

#include <cstdint>
#include <mutex>

#include "c_twins.h"

using namespace packed4j;

namespace {

// Held between calls, so the measured call does no conversion of the function itself.
std::mutex held_mutex;
TypedPackedFunc<int64_t(int64_t, int64_t)> held_typed;
PackedFunc held_packed;
TypedPackedFunc<int64_t(int64_t, int64_t)> held_global;

int64_t Loop(int64_t n, const TypedPackedFunc<int64_t(int64_t, int64_t)>& function) {
  int64_t sum = 0;
  for (int64_t i = 0; i < n; ++i) sum = function(sum, i);
  return sum;
}

}  // namespace

P4J_REGISTER_GLOBAL("bench.HoldTyped").set_body_typed([](PackedFunc function) {
  TypedPackedFunc<int64_t(int64_t, int64_t)> typed(function);
  if (!typed.uses_typed_entry()) throw TypeError("bench.HoldTyped: the callback has no (int64, int64) -> int64 entry");
  std::lock_guard<std::mutex> lock(held_mutex);
  held_typed = typed;
});

P4J_REGISTER_GLOBAL("bench.CallHeldTyped").set_body_typed([](int64_t n) { return Loop(n, held_typed); });

P4J_REGISTER_GLOBAL("bench.HoldPacked").set_body_typed([](PackedFunc function) {
  std::lock_guard<std::mutex> lock(held_mutex);
  held_packed = function;
});

P4J_REGISTER_GLOBAL("bench.CallHeldPacked").set_body_typed([](int64_t n) {
  int64_t sum = 0;
  for (int64_t i = 0; i < n; ++i) sum = held_packed(sum, i);
  return sum;
});

// One lookup by name; the calls then go through the global's typed entry.
P4J_REGISTER_GLOBAL("bench.LookUpGlobal").set_body_typed([](std::string name) {
  auto function = TypedPackedFunc<int64_t(int64_t, int64_t)>::GetGlobal(name);
  if (!function.uses_typed_entry()) throw TypeError("bench.LookUpGlobal: " + name + " has no typed entry");
  std::lock_guard<std::mutex> lock(held_mutex);
  held_global = function;
});

P4J_REGISTER_GLOBAL("bench.CallGlobal").set_body_typed([](int64_t n) { return Loop(n, held_global); });

P4J_REGISTER_GLOBAL("bench.DropHeld").set_body_typed([]() {
  std::lock_guard<std::mutex> lock(held_mutex);
  held_typed = {};
  held_packed = PackedFunc();
  held_global = {};
});

// A callback in, called once: the Java function arrives on the typed entry as its handle (issue 24).
P4J_REGISTER_GLOBAL("bench.ApplyOnce").set_body_typed([](PackedFunc function, int64_t a, int64_t b) {
  return TypedPackedFunc<int64_t(int64_t, int64_t)>(function)(a, b);
});

extern "C" int64_t bench_apply_upcall(int64_t (*function)(int64_t, int64_t), int64_t a, int64_t b) {
  return function(a, b);
}

extern "C" int64_t bench_call_upcall(int64_t (*function)(int64_t, int64_t), int64_t n) {
  int64_t sum = 0;
  for (int64_t i = 0; i < n; ++i) sum = function(sum, i);
  return sum;
}
