// The guarded entries into a host VM (c_api.h, "Host entries"): the stack check in front of a call, the typed
// entries' register forwarding, and releases deferred on a thread short of stack. A host here is plain C++ standing
// in for the JVM: its entries record what they were called with.
#include <pthread.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "test_util.h"

namespace {

using namespace packed4j;
using namespace packed4j::testing;

std::atomic<int> host_calls{0};
std::vector<void*> released;

int HostSafeCall(void* self, const P4JAny* args, int32_t num_args, P4JAny* result) {
  host_calls.fetch_add(1);
  result->type_index = kP4JInt;
  result->zero_padding = 0;
  result->v_int64 = reinterpret_cast<intptr_t>(self) + (num_args > 0 ? args[0].v_int64 : 0);
  return 0;
}

void HostRelease(void* self) { released.push_back(self); }

// A typed entry of the shape (int64, float64, int64) -> int64: the core's forwarding entry must deliver each
// argument in its own register.
int64_t HostTypedMixed(P4JObjectHandle, int64_t a, double b, int64_t c) {
  return a * 1000000 + static_cast<int64_t>(b * 1000) + c;
}
double HostTypedFloat(P4JObjectHandle, double a, int64_t b) { return a * static_cast<double>(b); }
int32_t HostTypedBool(P4JObjectHandle, int64_t a) { return a > 0 ? 1 : 0; }

void SetEntries() { ASSERT_EQ(P4JHostSetEntries(&HostSafeCall, &HostRelease, 0), 0) << TakeRaised(); }

// A function object as the host makes one: the guarded entries in its cell, typed index in self's high bits.
P4JObjectHandle HostFunction(uint64_t self, void* typed_entry) {
  P4JFunctionCell cell{reinterpret_cast<void*>(self), &P4JHostSafeCall, typed_entry, nullptr, 0};
  P4JObjectHandle out = nullptr;
  EXPECT_EQ(P4JFunctionCreateFromCell(&cell, sizeof cell, &P4JHostRelease, nullptr, &out), 0) << TakeRaised();
  return out;
}

// Runs body on a thread of its own with a stack of stack_size bytes.
void OnThread(size_t stack_size, const std::function<void()>& body) {
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setstacksize(&attributes, stack_size);
  pthread_t thread;
  auto run = [](void* argument) -> void* {
    (*static_cast<const std::function<void()>*>(argument))();
    return nullptr;
  };
  ASSERT_EQ(pthread_create(&thread, &attributes, run, const_cast<std::function<void()>*>(&body)), 0);
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attributes);
}

// Recurses on the C++ stack (4 KiB a level) until the guarded entry refuses, then reports the depth reached and
// the error raised. Each level calls the host, as host -> C++ -> host recursion would.
int Recurse(P4JObjectHandle function, int depth, std::string* error) {
  volatile char frame[4096];
  frame[0] = static_cast<char>(depth);
  P4JAny argument{};
  argument.type_index = kP4JInt;
  argument.v_int64 = depth;
  P4JAny result{};
  if (P4JFunctionCall(function, &argument, 1, &result) != 0) {
    *error = TakeRaised();
    return depth;
  }
  return Recurse(function, depth + 1, error) + (frame[0] & 0);
}

TEST(HostEntriesTest, StackHeadroomIsKnownOnEveryThread) {
  EXPECT_GT(P4JStackHeadroom(), 0);
  OnThread(512 * 1024, [] {
    int64_t headroom = P4JStackHeadroom();
    EXPECT_GT(headroom, 256 * 1024);
    EXPECT_LE(headroom, 512 * 1024);
  });
}

TEST(HostEntriesTest, ACallIntoTheHostIsRefusedBeforeTheStackRunsOut) {
  SetEntries();
  P4JObjectHandle function = HostFunction(7, nullptr);
  std::string error;
  int depth = 0;
  OnThread(1024 * 1024, [&] { depth = Recurse(function, 0, &error); });
  // 1 MiB less the 192 KiB reserve, at 4 KiB and a little per level.
  EXPECT_GT(depth, 100);
  EXPECT_LT(depth, 256);
  EXPECT_EQ(error.rfind("RecursionError: not enough native stack left to call a Java function", 0), 0u) << error;
  EXPECT_NE(error.find("of this thread's 1024 KiB remain, a call needs 192 KiB"), std::string::npos) << error;
  // A thread with stack to spare calls in as before.
  P4JAny argument{};
  argument.type_index = kP4JInt;
  argument.v_int64 = 5;
  P4JAny result{};
  ASSERT_EQ(P4JFunctionCall(function, &argument, 1, &result), 0) << TakeRaised();
  EXPECT_EQ(result.v_int64, 12);
  P4JObjectDecRef(function);
}

TEST(HostEntriesTest, TypedEntriesForwardEveryArgumentRegister) {
  SetEntries();
  ASSERT_EQ(P4JHostSetTypedEntry(3, reinterpret_cast<void*>(&HostTypedMixed)), 0) << TakeRaised();
  ASSERT_EQ(P4JHostSetTypedEntry(4, reinterpret_cast<void*>(&HostTypedFloat)), 0) << TakeRaised();
  ASSERT_EQ(P4JHostSetTypedEntry(5, reinterpret_cast<void*>(&HostTypedBool)), 0) << TakeRaised();

  P4JObjectHandle mixed = HostFunction(uint64_t{3} << 32 | 11, P4JHostTypedEntry(kP4JInt));
  auto mixed_entry = reinterpret_cast<int64_t (*)(P4JObjectHandle, int64_t, double, int64_t)>(
      details::CellOf<P4JFunctionCell>(mixed)->typed_entry);
  EXPECT_EQ(mixed_entry(mixed, 42, 2.5, 7), 42002507);

  P4JObjectHandle scaled = HostFunction(uint64_t{4} << 32 | 12, P4JHostTypedEntry(kP4JFloat));
  auto scaled_entry =
      reinterpret_cast<double (*)(P4JObjectHandle, double, int64_t)>(details::CellOf<P4JFunctionCell>(scaled)->typed_entry);
  EXPECT_EQ(scaled_entry(scaled, 1.5, 4), 6.0);

  P4JObjectHandle positive = HostFunction(uint64_t{5} << 32 | 13, P4JHostTypedEntry(kP4JBool));
  auto positive_entry =
      reinterpret_cast<int32_t (*)(P4JObjectHandle, int64_t)>(details::CellOf<P4JFunctionCell>(positive)->typed_entry);
  EXPECT_EQ(positive_entry(positive, 3), 1);
  EXPECT_EQ(positive_entry(positive, -3), 0);

  // An index nobody registered: the typed error sentinel and a RuntimeError.
  P4JObjectHandle unknown = HostFunction(uint64_t{99} << 32 | 14, P4JHostTypedEntry(kP4JInt));
  auto unknown_entry = reinterpret_cast<int64_t (*)(P4JObjectHandle, int64_t)>(
      details::CellOf<P4JFunctionCell>(unknown)->typed_entry);
  EXPECT_EQ(unknown_entry(unknown, 1), P4J_TYPED_ERROR_I64);
  EXPECT_EQ(TakeRaised(), "RuntimeError: no host typed entry is registered (P4JHostSetEntries/P4JHostSetTypedEntry)");

  EXPECT_EQ(P4JHostTypedEntry(kP4JString), nullptr);
  EXPECT_EQ(P4JHostSetTypedEntry(P4J_HOST_TYPED_ENTRIES, reinterpret_cast<void*>(&HostTypedBool)), -1);
  EXPECT_EQ(TakeRaised().rfind("IndexError: P4JHostSetTypedEntry: index 4096 is outside [0, 4096)", 0), 0u);
  for (P4JObjectHandle function : {mixed, scaled, positive, unknown}) P4JObjectDecRef(function);
}

TEST(HostEntriesTest, AReleaseShortOfStackIsDeferredToTheHost) {
  SetEntries();
  released.clear();
  P4JObjectHandle shallow = HostFunction(21, nullptr);
  P4JObjectDecRef(shallow);
  EXPECT_EQ(released, std::vector<void*>{reinterpret_cast<void*>(21)});

  released.clear();
  P4JObjectHandle deep = HostFunction(22, nullptr);
  // Drop the last reference 4 KiB a level down, once the stack is well below the reserve (the deleter's frames
  // need not be deeper than this one: calls on the way may be tail calls).
  std::function<void(int)> dropDeep = [&](int depth) {
    volatile char frame[4096];
    frame[0] = 0;
    if (P4JStackHeadroom() >= P4J_HOST_DEFAULT_STACK_RESERVE - 32 * 1024) {
      dropDeep(depth + 1 + frame[0]);
    } else {
      P4JObjectDecRef(deep);
    }
  };
  OnThread(512 * 1024, [&] { dropDeep(0); });
  EXPECT_TRUE(released.empty());
  void* taken[4] = {};
  EXPECT_EQ(P4JHostTakeDeferredReleases(taken, 4), 1);
  EXPECT_EQ(taken[0], reinterpret_cast<void*>(22));
  EXPECT_EQ(P4JHostTakeDeferredReleases(taken, 4), 0);
}

TEST(HostEntriesTest, AReserveBelowTheFloorIsRefused) {
  EXPECT_EQ(P4JHostSetEntries(&HostSafeCall, &HostRelease, 64 * 1024), -1);
  EXPECT_EQ(TakeRaised(), "ValueError: P4JHostSetEntries: a stack reserve is at least 128 KiB (131072), got 65536");
  EXPECT_EQ(P4JHostSetEntries(nullptr, &HostRelease, 0), -1);
  EXPECT_EQ(TakeRaised(), "ValueError: P4JHostSetEntries: safe_call is NULL");
}

}  // namespace

// What a plugin's static destructor or atexit handler does at exit with a host function it kept: calls it through
// the packed and the typed entry, then drops the last reference. Registered before the guard is armed, so it runs
// after the guard's handler, as the destructors of a library loaded before the host armed it do.
P4JObjectHandle kept_function = nullptr;
P4JObjectHandle kept_typed = nullptr;

void UseKeptFunctionsAtExit() {
  P4JAny argument{};
  argument.type_index = kP4JInt;
  argument.v_int64 = 1;
  P4JAny result{};
  int status = P4JFunctionCall(kept_function, &argument, 1, &result);
  std::fprintf(stderr, "packed call at exit: %d %s\n", status, TakeRaised().c_str());
  auto typed = reinterpret_cast<int64_t (*)(P4JObjectHandle, int64_t, double, int64_t)>(
      details::CellOf<P4JFunctionCell>(kept_typed)->typed_entry);
  int64_t typed_result = typed(kept_typed, 1, 2.0, 3);
  std::fprintf(stderr, "typed call at exit: %s %s\n", typed_result == P4J_TYPED_ERROR_I64 ? "sentinel" : "value",
               TakeRaised().c_str());
  released.clear();
  P4JObjectDecRef(kept_function);
  P4JObjectDecRef(kept_typed);
  std::fprintf(stderr, "releases at exit: %zu, host calls %d\n", released.size(), host_calls.load());
}

TEST(HostEntriesDeathTest, OnceTheProcessExitsTheHostIsNeitherCalledNorReleased) {
  EXPECT_EXIT(
      {
        SetEntries();
        ASSERT_EQ(P4JHostSetTypedEntry(3, reinterpret_cast<void*>(&HostTypedMixed)), 0) << TakeRaised();
        kept_function = HostFunction(31, nullptr);
        kept_typed = HostFunction(uint64_t{3} << 32 | 32, P4JHostTypedEntry(kP4JInt));
        host_calls.store(0);
        std::atexit(&UseKeptFunctionsAtExit);
        ASSERT_EQ(P4JHostArmExitGuard(), 0) << TakeRaised();
        std::exit(0);
      },
      ::testing::ExitedWithCode(0),
      "packed call at exit: -1 RuntimeError: the host VM has exited: a function of the host \\(Java\\) cannot be "
      "called once the JVM has ended \\(from a static destructor, an atexit handler, or a thread still running after "
      "it\\)\n"
      "typed call at exit: sentinel RuntimeError: the host VM has exited.*\n"
      "releases at exit: 0, host calls 0");
}
