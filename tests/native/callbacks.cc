// Functions as values for the end-to-end tests (CallbacksTest): Java callbacks called from C++, on C++ threads,
// Java globals looked up by name, closures returned to Java, Java exceptions caught in C++.
#include <packed4j/packed4j.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using namespace packed4j;

P4J_REGISTER_GLOBAL("test.cb.Apply").set_body_typed([](PackedFunc function, Any value) -> Any {
  return function(value);
});

// DGL's way with a callback over a list: the C++ side drives, Java computes each element.
P4J_REGISTER_GLOBAL("test.cb.MapList").set_body_typed([](PackedFunc function, List<int64_t> values) {
  List<int64_t> mapped;
  for (int64_t value : values) mapped.push_back(static_cast<int64_t>(function(value)));
  return mapped;
});

// Calls the function and reports what it threw as C++ saw it: "kind|message|has Java frames".
P4J_REGISTER_GLOBAL("test.cb.CatchError").set_body_typed([](PackedFunc function) -> std::string {
  try {
    function();
    return "no error";
  } catch (const Error& error) {
    bool java_frames = error.backtrace().find("java: at ") != std::string::npos;
    return error.kind() + "|" + error.message() + "|" + (java_frames ? "java frames" : "no java frames");
  }
});

// Calls the function n times and swallows every error: the Java side must stay healthy whatever C++ drops.
P4J_REGISTER_GLOBAL("test.cb.CountErrors").set_body_typed([](PackedFunc function, int64_t times) {
  int64_t errors = 0;
  for (int64_t i = 0; i < times; ++i) {
    try {
      function(i);
    } catch (const Error&) {
      ++errors;
    }
  }
  return errors;
});

// Calls the function from `threads` new native threads at once, each `calls` times with its own arguments, while
// the calling (Java) thread waits in join: the sum of every result.
P4J_REGISTER_GLOBAL("test.cb.SumOnThreads").set_body_typed([](PackedFunc function, int64_t threads, int64_t calls) {
  std::atomic<int64_t> sum{0};
  std::atomic<int64_t> errors{0};
  std::vector<std::thread> workers;
  for (int64_t t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      for (int64_t i = 0; i < calls; ++i) {
        try {
          sum += static_cast<int64_t>(function(t, i));
        } catch (const Error&) {
          ++errors;
        }
      }
    });
  }
  for (auto& worker : workers) worker.join();
  if (errors.load() != 0) throw RuntimeError(std::to_string(errors.load()) + " callback calls failed");
  return sum.load();
});

// A Java global found by name, as C++ code finds any global.
P4J_REGISTER_GLOBAL("test.cb.CallGlobal").set_body_typed([](std::string name, int64_t a, int64_t b) {
  PackedFunc function = PackedFunc::GetGlobal(name);
  if (!function.defined()) throw KeyError("no global function " + name);
  return static_cast<int64_t>(function(a, b));
});

// Looks the global up again before every call (so an override is seen) and returns the results, in order.
P4J_REGISTER_GLOBAL("test.cb.CallGlobalRepeatedly").set_body_typed([](std::string name, int64_t times) {
  List<int64_t> results;
  for (int64_t i = 0; i < times; ++i) {
    results.push_back(static_cast<int64_t>(PackedFunc::GetGlobal(name)(i)));
  }
  return results;
});

// A closure out: the counter lives in the function object and outlives this call.
P4J_REGISTER_GLOBAL("test.cb.MakeCounter").set_body_typed([](int64_t start) {
  auto count = std::make_shared<int64_t>(start);
  return PackedFunc::FromTyped([count](int64_t step) { return *count += step; }, "counter");
});

// Whether two arguments are the same native function object (a closure out passed back is not wrapped again).
P4J_REGISTER_GLOBAL("test.cb.SameFunction").set_body_typed([](PackedFunc a, PackedFunc b) { return a.same_as(b); });

// A closure over a Java callback: C++ keeps the callback inside the function it returns.
P4J_REGISTER_GLOBAL("test.cb.Compose").set_body_typed([](PackedFunc outer, PackedFunc inner) {
  return PackedFunc([outer, inner](Args args, RetValue* rv) { *rv = outer(inner(args[0])); });
});

namespace {
std::mutex held_mutex;
PackedFunc held;
}  // namespace

// C++ keeps a callback after the call that passed it returned.
P4J_REGISTER_GLOBAL("test.cb.Hold").set_body_typed([](PackedFunc function) {
  std::lock_guard<std::mutex> lock(held_mutex);
  held = function;
});

P4J_REGISTER_GLOBAL("test.cb.CallHeld").set_body_typed([](Any value) -> Any {
  PackedFunc function;
  {
    std::lock_guard<std::mutex> lock(held_mutex);
    function = held;
  }
  if (!function.defined()) throw ValueError("no function is held");
  return function(value);
});

P4J_REGISTER_GLOBAL("test.cb.DropHeld").set_body_typed([]() {
  std::lock_guard<std::mutex> lock(held_mutex);
  held = PackedFunc();
});

// Drops the held function on a thread of its own: when that is the last reference, the Java deleter runs on a
// thread the JVM has not seen before.
P4J_REGISTER_GLOBAL("test.cb.DropHeldOnNewThread").set_body_typed([]() {
  PackedFunc taken;
  {
    std::lock_guard<std::mutex> lock(held_mutex);
    std::swap(taken, held);
  }
  std::thread dropper([function = std::move(taken)]() mutable { function = PackedFunc(); });
  dropper.join();
});

// ---- Typed callbacks: functional interfaces of the Java side, called through their typed entry.

// Sums through a Java (int64, int64) -> int64 callback with no packing per call.
P4J_REGISTER_GLOBAL("test.cb.SumTyped").set_body_typed([](PackedFunc function, int64_t n) {
  TypedPackedFunc<int64_t(int64_t, int64_t)> add(function);
  int64_t sum = 0;
  for (int64_t i = 0; i < n; ++i) sum = add(sum, i);
  return sum;
});

// What C++ sees of a function: its signature, and whether a caller of that signature takes its typed entry.
P4J_REGISTER_GLOBAL("test.cb.Describe").set_body_typed([](PackedFunc function) {
  bool typed = TypedPackedFunc<int64_t(int64_t, int64_t)>(function).uses_typed_entry() ||
               TypedPackedFunc<double(double, int32_t)>(function).uses_typed_entry() ||
               TypedPackedFunc<void(std::string)>(function).uses_typed_entry();
  return function.signature() + (typed ? " typed" : " packed");
});

// A user's own functional interface: (float64, int32) -> float64, applied twice.
P4J_REGISTER_GLOBAL("test.cb.ScaleTwice").set_body_typed([](PackedFunc function, double value) {
  TypedPackedFunc<double(double, int32_t)> scale(function);
  return scale(scale(value, 2), 3);
});

// A Java Consumer<String> called once per element, typed.
P4J_REGISTER_GLOBAL("test.cb.ForEach").set_body_typed([](PackedFunc function, List<std::string> values) {
  TypedPackedFunc<void(std::string)> each(function);
  for (const std::string& value : values) each(value);
});

// A Java Function<String, String> (packed: a string result has no typed entry) over a list.
P4J_REGISTER_GLOBAL("test.cb.MapStrings").set_body_typed([](PackedFunc function, List<std::string> values) {
  List<std::string> mapped;
  for (const std::string& value : values) mapped.push_back(static_cast<std::string>(function(value)));
  return mapped;
});

// A Java global called by name through its typed entry when its signature is (int64, int64) -> int64.
P4J_REGISTER_GLOBAL("test.cb.CallGlobalTyped").set_body_typed([](std::string name, int64_t a, int64_t b) {
  auto function = TypedPackedFunc<int64_t(int64_t, int64_t)>::GetGlobal(name);
  if (!function.defined()) throw KeyError("no global function " + name);
  return function(a, b);
});

// C code calling a function's typed entry with raw wire values, as the C ABI allows (P4JFunctionCell.typed_entry):
// an int64 beyond a Java body's int32 parameter reaches the body's own narrowing, which TypedPackedFunc's narrowing
// in C++ never lets through.
P4J_REGISTER_GLOBAL("test.cb.CallWireEntry").set_body_typed([](std::string name, int64_t a, double b) {
  PackedFunc function = PackedFunc::GetGlobal(name);
  if (!function.defined() || function.typed_entry() == nullptr) throw KeyError("no typed global " + name);
  using Entry = double (*)(P4JObjectHandle, int64_t, double);
  double result = reinterpret_cast<Entry>(function.typed_entry())(function.handle(), a, b);
  details::ThrowIfTypedError(result);
  return result;
});

// A Java Consumer of an @Object type (packed: an object argument), called once per element.
P4J_REGISTER_GLOBAL("test.cb.ForEachObject").set_body_typed([](PackedFunc function, List<ObjectRef> objects) {
  for (const ObjectRef& object : objects) function(object);
});

// A Java function C++ keeps in a global until the process exits (a cache, a list of listeners): the global's
// destructor runs at exit, after the JVM has gone, and calls it once, then drops the last reference. The core's exit
// guard (P4JHostArmExitGuard, armed by the runtime after this library loads) turns both into what a JVM that runs no
// code any more allows: an error for the call, nothing for the release (KeptUntilExitTest).
namespace {
PackedFunc kept_until_exit;

// Calls a kept function once, if any, and prints "<what>: called" or "<what>: <kind>: <message>" to stderr.
void CallOnceAndReport(const PackedFunc& function, const char* what) {
  if (!function.defined()) return;
  try {
    function(int64_t{1});
    std::fprintf(stderr, "%s: called\n", what);
  } catch (const Error& error) {
    std::fprintf(stderr, "%s: %s: %s\n", what, error.kind().c_str(), error.message().c_str());
  }
}

struct CallKeptAtExit {
  ~CallKeptAtExit() { CallOnceAndReport(kept_until_exit, "kept function at exit"); }
} call_kept_at_exit;
}  // namespace

P4J_REGISTER_GLOBAL("test.cb.KeepUntilExit").set_body_typed([](PackedFunc function) { kept_until_exit = function; });

// A Java function C++ keeps in a thread_local of the calling thread: when that thread ends, the destructor calls it
// once and drops it. Kept on the Java launcher's main thread, that happens after DestroyJavaVM (the launcher detaches
// the thread, destroys the JVM, then the thread ends), where an upcall was the JVM's fatal "Could not attach thread
// for upcall" (trial userW); the core now answers it with an error (KeptUntilExitTest).
namespace {
struct KeptInThreadLocal {
  PackedFunc function;
  ~KeptInThreadLocal() { CallOnceAndReport(function, "thread-local function at thread end"); }
};
thread_local KeptInThreadLocal kept_in_thread_local;
}  // namespace

P4J_REGISTER_GLOBAL("test.cb.KeepInThreadLocal").set_body_typed([](PackedFunc function) {
  kept_in_thread_local.function = function;
});

// One-shot timers: starts count detached threads, thread i calls function(i) after i % 40 ms and drops it. Started
// 20 ms before main returns, most fire while the JVM is being destroyed or after, each from a thread the JVM has not
// attached: each must get a result or an error, never crash the process (trial userW: about one run in ten crashed
// with the JVM's "Could not attach thread for upcall"; KeptUntilExitTest).
P4J_REGISTER_GLOBAL("test.cb.CallFromTimers").set_body_typed([](PackedFunc function, int64_t count) {
  for (int64_t i = 0; i < count; i++) {
    std::thread([function, i] {
      std::this_thread::sleep_for(std::chrono::milliseconds(i % 40));
      try {
        function(i);
      } catch (const Error&) {
        // the JVM is gone or going: what a thread that outlives it gets
      }
    }).detach();
  }
});
