// Plain C twins of the benchmark functions (c_twins.h): the same C++ functions, called the way raw FFM and JNA
// call C.
#include "c_twins.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <string_view>

#include "bench_functions.h"
#include "counter.h"

int64_t bench_add(int64_t a, int64_t b) { return bench::Add(a, b); }

void bench_nop(void) { bench::Nop(); }

int64_t bench_count_code_points(const char* utf8, int64_t size) {
  return bench::CountCodePoints(std::string_view(utf8, static_cast<size_t>(size)));
}

int64_t bench_echo_string(const char* utf8, int64_t size, char* out, int64_t capacity) {
  std::string echoed = bench::EchoString(std::string_view(utf8, static_cast<size_t>(size)));
  std::memcpy(out, echoed.data(), std::min(echoed.size(), static_cast<size_t>(capacity)));
  return static_cast<int64_t>(echoed.size());
}

int64_t bench_counter_value(const void* counter_handle) {
  // A handle points at the object's P4JObject header, which is Object's first base (packed4j/object.h).
  const auto* header = static_cast<const P4JObject*>(counter_handle);
  return static_cast<const bench::CounterObject*>(static_cast<const packed4j::Object*>(header))->value;
}

int64_t bench_counter_value_offset(void) {
  static const int64_t offset = [] {
    bench::CounterObject probe;
    const P4JObject* header = probe.handle();
    return static_cast<int64_t>(reinterpret_cast<const char*>(&probe.value) -
                                reinterpret_cast<const char*>(header));
  }();
  return offset;
}

bench_counter* bench_counter_create(const char* name, int64_t size, int64_t value) {
  if (name == nullptr || size <= 0) return nullptr;
  auto* counter = new bench_counter;
  counter->value = value;
  return counter;
}

void bench_counter_free(bench_counter* counter) { delete counter; }

bench_counter* bench_counter_new(int64_t value) {
  auto* counter = new bench_counter;
  counter->value = value;
  return counter;
}

namespace {
bench::CounterObject* CounterAt(const void* counter_handle) {
  const auto* header = static_cast<const P4JObject*>(counter_handle);
  return const_cast<bench::CounterObject*>(
      static_cast<const bench::CounterObject*>(static_cast<const packed4j::Object*>(header)));
}
}  // namespace

int64_t bench_counter_add(const void* counter_handle, int64_t a, int64_t b) {
  return bench::CounterAdd(CounterAt(counter_handle)->value, a, b);
}

void bench_counter_set_value(void* counter_handle, int64_t value) { CounterAt(counter_handle)->value = value; }

void bench_counter_set_label(void* counter_handle, const char* utf8, int64_t size) {
  CounterAt(counter_handle)->label.assign(utf8, static_cast<size_t>(size));
}

int64_t bench_echo_bytes(const void* data, int64_t size, void* out, int64_t capacity) {
  std::memcpy(out, data, static_cast<size_t>(std::min(size, capacity)));
  return size;
}

int64_t bench_sum(const int64_t* values, int64_t count) {
  return bench::Sum(count, [values](int64_t i) { return values[i]; });
}

int64_t bench_first_byte(const void* data, int64_t size) {
  (void)size;
  return static_cast<int64_t>(*static_cast<const uint8_t*>(data));
}

void* bench_counter_method_entry(const char* method, void** out_function) {
  P4JByteArray name = packed4j::details::ByteArrayOf(method);
  const P4JMethodInfo* info = nullptr;
  if (P4JTypeFindMethod(bench::CounterObject::RuntimeTypeIndex(), &name, &info) != 0) return nullptr;
  *out_function = info->function;
  return packed4j::details::CellOf<P4JFunctionCell>(info->function)->typed_entry;
}

void* bench_global_entry(const char* name, void** out_function) {
  P4JByteArray span = packed4j::details::ByteArrayOf(name);
  P4JObjectHandle function = nullptr;
  if (P4JFunctionGetGlobal(&span, &function) != 0 || function == nullptr) return nullptr;
  *out_function = function;
  return packed4j::details::CellOf<P4JFunctionCell>(function)->typed_entry;
}
