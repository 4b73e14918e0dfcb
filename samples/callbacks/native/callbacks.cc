// Functions as values, the C++ side: a Java function applied over a list, Java globals called by name, and a
// counter closure returned to Java.
#include <packed4j/packed4j.h>

#include <cstdint>
#include <memory>
#include <string>

using namespace packed4j;

// C++ applies a Java function over a list; TypedPackedFunc calls it through its typed entry, with no packing.
P4J_REGISTER_GLOBAL("callbacks.MapList").set_body_typed([](PackedFunc function, List<int64_t> values) {
  TypedPackedFunc<int64_t(int64_t)> apply(function);
  List<int64_t> mapped;
  for (int64_t value : values) mapped.push_back(apply(value));
  return mapped;
});

// C++ calls Java globals by name: host.Greet and host.Log are static Java methods registered from Java.
P4J_REGISTER_GLOBAL("callbacks.GreetAll").set_body_typed([](List<std::string> names) {
  PackedFunc greet = PackedFunc::GetGlobal("host.Greet");
  auto log = TypedPackedFunc<void(std::string)>::GetGlobal("host.Log");
  for (const std::string& name : names) log(greet(name).operator std::string());
  return static_cast<int64_t>(names.size());
});

// A Java exception is a C++ exception here: kind, message, and the Java stack in the backtrace.
P4J_REGISTER_GLOBAL("callbacks.TryCall").set_body_typed([](PackedFunc function) -> std::string {
  try {
    function();
    return "no error";
  } catch (const Error& error) {
    return error.kind() + ": " + error.message();
  }
});

// A closure out: the count lives in the returned function and outlives this call.
P4J_REGISTER_GLOBAL("callbacks.MakeCounter").set_body_typed([](int64_t start) {
  auto count = std::make_shared<int64_t>(start);
  return PackedFunc::FromTyped([count](int64_t step) { return *count += step; }, "counter");
});
