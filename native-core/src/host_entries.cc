/*!
 * \file host_entries.cc
 * \brief The guarded entries into a host VM (c_api.h, "Host entries"): a stack headroom check in front of every
 *  call into host code, so deep recursion through native code ends with an error instead of the host's crash.
 */
#include <dlfcn.h>
#include <pthread.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#include "internal.h"

namespace {

using HostRelease = void (*)(void* self);

std::atomic<P4JSafeCallType> host_safe_call{nullptr};
std::atomic<HostRelease> host_release{nullptr};
std::atomic<int64_t> stack_reserve{P4J_HOST_DEFAULT_STACK_RESERVE};
/*! \brief Set by the exit guard (P4JHostArmExitGuard) once the process exits: the host runs no code any more. */
std::atomic<bool> host_exited{false};
/*!
 * \brief Set once the host starts to shut down (P4JHostShutdownBegins): from then on every call into the host first
 *  asks the JVM whether it still exists and whether this thread is attached (HostReachable), since a thread the
 *  host had attached may have been detached meanwhile (the Java launcher's main thread, before DestroyJavaVM).
 */
std::atomic<bool> host_shutting_down{false};

void MarkHostExited() { host_exited.store(true, std::memory_order_release); }

[[gnu::noinline, gnu::cold]] void RaiseHostExited() noexcept {
  P4JErrorSetRaisedFromCStr("RuntimeError",
                            "the host VM has exited: a function of the host (Java) cannot be called once the JVM has "
                            "ended (from a static destructor, an atexit handler, or a thread still running after it)");
}
std::atomic<void*> typed_entries[P4J_HOST_TYPED_ENTRIES];

std::mutex deferred_mutex;
std::vector<void*>& Deferred() {
  static std::vector<void*>* deferred = new std::vector<void*>();  // never destroyed: releases may come at exit
  return *deferred;
}

/*!
 * \brief This thread's stack: its lowest address and size, read once per thread (0, 0 when unknown); and whether
 *  the thread is known to be attached to the host's JVM (HostReachable). Trivially destructible: read by calls into
 *  the host from other thread_local destructors too.
 */
struct StackBounds {
  uintptr_t low = 0;
  uintptr_t size = 0;
  bool known = false;
  bool read = false;
  bool attached = false;
};

StackBounds& ThreadStackBounds() noexcept {
  thread_local StackBounds bounds;
  if (!bounds.read) {
    bounds.read = true;
    pthread_attr_t attributes;
    if (pthread_getattr_np(pthread_self(), &attributes) == 0) {
      void* address = nullptr;
      size_t size = 0;
      if (pthread_attr_getstack(&attributes, &address, &size) == 0 && address != nullptr && size > 0) {
        bounds.low = reinterpret_cast<uintptr_t>(address);
        bounds.size = size;
        bounds.known = true;
      }
      pthread_attr_destroy(&attributes);
    }
  }
  return bounds;
}

/*! \brief Bytes left below the caller's frame; -1 when the bounds are unknown (then every call is let through). */
[[gnu::always_inline]] inline int64_t Headroom(const StackBounds& bounds) noexcept {
  if (!bounds.known) return -1;
  uintptr_t here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  return here > bounds.low ? static_cast<int64_t>(here - bounds.low) : 0;
}

/*! \brief Whether a call into the host may go ahead: the bounds unknown, or at least the reserve left. */
[[gnu::always_inline]] inline bool MayEnterHost(const StackBounds& bounds) noexcept {
  int64_t headroom = Headroom(bounds);
  return headroom < 0 || headroom >= stack_reserve.load(std::memory_order_relaxed);
}

// The JNI invocation interface, as far as HostReachable uses it (jni.h's JNIInvokeInterface_, whose layout the
// JNI specification fixes): declared here so that the core needs no JDK to build.
struct JniInvokeInterface;
using JniVm = const JniInvokeInterface*;
struct JniInvokeInterface {
  void* reserved0;
  void* reserved1;
  void* reserved2;
  int32_t (*DestroyJavaVM)(JniVm* vm);
  int32_t (*AttachCurrentThread)(JniVm* vm, void** env, void* args);
  int32_t (*DetachCurrentThread)(JniVm* vm);
  int32_t (*GetEnv)(JniVm* vm, void** env, int32_t version);
  int32_t (*AttachCurrentThreadAsDaemon)(JniVm* vm, void** env, void* args);
};
using GetCreatedJavaVMsType = int32_t (*)(JniVm** vms, int32_t capacity, int32_t* count);
constexpr int32_t kJniOk = 0;
constexpr int32_t kJniDetached = -2;
constexpr int32_t kJniVersion1_8 = 0x00010008;

/*!
 * \brief libjvm's JNI_GetCreatedJavaVMs, found when the host sets its entries (FindCreatedVms); null in a process
 *  without a JVM (the core's own tests), where every call goes ahead as it did before the check.
 */
std::atomic<GetCreatedJavaVMsType> created_vms{nullptr};

/*! \brief JNI_GetCreatedJavaVMs in the global scope (the java launcher loads libjvm so), else in a libjvm.so loaded
 *  locally (an embedder's dlopen without RTLD_GLOBAL); null when neither is in the process. */
GetCreatedJavaVMsType FindCreatedVms() noexcept {
  void* symbol = dlsym(RTLD_DEFAULT, "JNI_GetCreatedJavaVMs");
  if (symbol == nullptr) {
    void* jvm = dlopen("libjvm.so", RTLD_NOLOAD | RTLD_LAZY);
    if (jvm != nullptr) {
      symbol = dlsym(jvm, "JNI_GetCreatedJavaVMs");
      dlclose(jvm);  // only the reference RTLD_NOLOAD took: the library stays with whoever loaded it
    }
  }
  return reinterpret_cast<GetCreatedJavaVMsType>(symbol);
}

/*! \brief The process's JVM while the JVM lists it: null before it is made and once DestroyJavaVM has run. */
JniVm* CreatedVm(GetCreatedJavaVMsType created) noexcept {
  JniVm* vm = nullptr;
  int32_t count = 0;
  return created != nullptr && created(&vm, 1, &count) == kJniOk && count > 0 ? vm : nullptr;
}

/*!
 * \brief Detaches, when its thread ends, a thread HostReachable attached: what the JVM's upcall stub does for a
 *  thread it attaches itself, which it does not do for one attached before it. A pthread key's destructor runs after
 *  every C++ thread_local destructor of the thread, so those may still call into the host. Once the process exits
 *  (the exit guard has run) the thread stays attached: DetachCurrentThread would wait for the JVM forever, and a
 *  static destructor that joins the thread would hang the exit.
 */
void DetachAtThreadEnd(void* vm) noexcept {
  ThreadStackBounds().attached = false;  // a later key destructor's call attaches the thread again, and detaches it
  if (host_exited.load(std::memory_order_acquire)) return;
  if (CreatedVm(created_vms.load(std::memory_order_acquire)) == vm) {
    JniVm* jvm = static_cast<JniVm*>(vm);
    (*jvm)->DetachCurrentThread(jvm);
  }
}

pthread_key_t attached_here_key;
bool attached_here_key_made = [] { return pthread_key_create(&attached_here_key, &DetachAtThreadEnd) == 0; }();

/*!
 * \brief Whether this thread may call into the host's JVM now, attaching it first when it is not (as the upcall stub
 *  would, but with an error instead of the JVM's fatal error when the JVM cannot take it: destroyed, or going).
 *  Sets host_exited once the JVM is gone after the host began to shut down. A JVM not listed before that is one
 *  still being made (a -javaagent's premain), whose calls go ahead as they did before this check.
 */
[[gnu::noinline]] bool HostReachableSlow(StackBounds& bounds) noexcept {
  GetCreatedJavaVMsType created = created_vms.load(std::memory_order_acquire);
  if (created == nullptr) {
    bounds.attached = true;  // no JVM to ask: keep the fast path
    return true;
  }
  JniVm* vm = CreatedVm(created);
  if (vm == nullptr) {
    if (!host_shutting_down.load(std::memory_order_acquire)) return true;
    host_exited.store(true, std::memory_order_release);
    return false;
  }
  void* env = nullptr;
  int32_t state = (*vm)->GetEnv(vm, &env, kJniVersion1_8);
  if (state == kJniOk) {
    bounds.attached = true;
    return true;
  }
  // Without a key to detach it at its end, the thread is left to the stub, which attaches and detaches it itself.
  if (state != kJniDetached || !attached_here_key_made) return true;
  if ((*vm)->AttachCurrentThreadAsDaemon(vm, &env, nullptr) != kJniOk) return false;
  bounds.attached = true;
  pthread_setspecific(attached_here_key, vm);
  return true;
}

/*! \brief HostReachableSlow, after one load of this thread's flag while the host is not shutting down. */
[[gnu::always_inline]] inline bool HostReachable(StackBounds& bounds) noexcept {
  if (bounds.attached && !host_shutting_down.load(std::memory_order_relaxed)) return true;
  return HostReachableSlow(bounds);
}

/*! \brief Raises the error of a call the host's JVM cannot take. */
[[gnu::noinline, gnu::cold]] void RaiseHostUnreachable() noexcept {
  if (host_exited.load(std::memory_order_acquire)) {
    RaiseHostExited();
    return;
  }
  P4JErrorSetRaisedFromCStr("RuntimeError",
                            "the host VM is shutting down and did not take this thread: a function of the host (Java) "
                            "cannot be called from a new thread once the JVM exits");
}

/*! \brief Raises the RecursionError of a refused call. Out of line: only the refusal pays for the message. */
[[gnu::noinline, gnu::cold]] void RaiseNoHeadroom() noexcept {
  const StackBounds& bounds = ThreadStackBounds();
  int64_t headroom = Headroom(bounds);
  std::string message = "not enough native stack left to call a Java function (the host VM): " + std::to_string(headroom / 1024) +
                        " KiB of this thread's " + std::to_string(bounds.size / 1024) + " KiB remain, a call needs " +
                        std::to_string(stack_reserve.load(std::memory_order_relaxed) / 1024) +
                        " KiB; the recursion through native code is too deep (or the thread's stack too small)";
  P4JErrorSetRaisedFromCStr("RecursionError", message.c_str());
}

[[gnu::noinline, gnu::cold]] void RaiseNoEntry(const char* what) noexcept {
  std::string message = std::string("no host ") + what + " is registered (P4JHostSetEntries/P4JHostSetTypedEntry)";
  P4JErrorSetRaisedFromCStr("RuntimeError", message.c_str());
}

/*!
 * \brief The typed entry registered for a function whose cell self holds its index in the high 32 bits; null (with
 *  the error raised) for none.
 */
inline void* TypedEntryOf(P4JObjectHandle function, StackBounds& bounds) noexcept {
  if (host_exited.load(std::memory_order_acquire)) {
    RaiseHostExited();
    return nullptr;
  }
  if (!HostReachable(bounds)) {
    RaiseHostUnreachable();
    return nullptr;
  }
  const P4JFunctionCell* cell = packed4j::details::CellOf<P4JFunctionCell>(function);
  uint64_t index = reinterpret_cast<uintptr_t>(cell->self) >> 32;
  void* entry = index < P4J_HOST_TYPED_ENTRIES ? typed_entries[index].load(std::memory_order_acquire) : nullptr;
  if (entry == nullptr) RaiseNoEntry("typed entry");
  return entry;
}

// The forwarding typed entries. A typed entry has at most 4 parameters after self, each an int64_t-sized integer
// (int64_t, a span or tensor word) or a double. System V x86-64 and AArch64 assign integer and floating-point
// arguments to separate register files in order, so a function taking self, four integers and four doubles
// receives every shape's arguments in the registers they came in, and passes them on in the same registers to an
// entry declared with the same parameter list; the callee reads only those of its own shape. Calling the host's
// entry through this type, not its own, is what the platform ABI defines and C++ does not: hence no_sanitize.
using ForwardI64 = int64_t (*)(P4JObjectHandle, int64_t, int64_t, int64_t, int64_t, double, double, double, double);
using ForwardF64 = double (*)(P4JObjectHandle, int64_t, int64_t, int64_t, int64_t, double, double, double, double);
using ForwardI32 = int32_t (*)(P4JObjectHandle, int64_t, int64_t, int64_t, int64_t, double, double, double, double);

#if defined(__clang__)
#define P4J_NO_SANITIZE_FUNCTION __attribute__((no_sanitize("function")))
#else
#define P4J_NO_SANITIZE_FUNCTION
#endif

P4J_NO_SANITIZE_FUNCTION int64_t HostTypedEntryI64(P4JObjectHandle self, int64_t i0, int64_t i1, int64_t i2,
                                                   int64_t i3, double d0, double d1, double d2, double d3) {
  StackBounds& bounds = ThreadStackBounds();
  if (!MayEnterHost(bounds)) {
    RaiseNoHeadroom();
    return P4J_TYPED_ERROR_I64;
  }
  void* entry = TypedEntryOf(self, bounds);
  if (entry == nullptr) return P4J_TYPED_ERROR_I64;
  return reinterpret_cast<ForwardI64>(entry)(self, i0, i1, i2, i3, d0, d1, d2, d3);
}

P4J_NO_SANITIZE_FUNCTION double HostTypedEntryF64(P4JObjectHandle self, int64_t i0, int64_t i1, int64_t i2,
                                                  int64_t i3, double d0, double d1, double d2, double d3) {
  StackBounds& bounds = ThreadStackBounds();
  if (!MayEnterHost(bounds)) {
    RaiseNoHeadroom();
    int64_t bits = P4J_TYPED_ERROR_F64_BITS;
    double sentinel;
    __builtin_memcpy(&sentinel, &bits, sizeof sentinel);
    return sentinel;
  }
  void* entry = TypedEntryOf(self, bounds);
  if (entry == nullptr) {
    int64_t bits = P4J_TYPED_ERROR_F64_BITS;
    double sentinel;
    __builtin_memcpy(&sentinel, &bits, sizeof sentinel);
    return sentinel;
  }
  return reinterpret_cast<ForwardF64>(entry)(self, i0, i1, i2, i3, d0, d1, d2, d3);
}

P4J_NO_SANITIZE_FUNCTION int32_t HostTypedEntryI32(P4JObjectHandle self, int64_t i0, int64_t i1, int64_t i2,
                                                   int64_t i3, double d0, double d1, double d2, double d3) {
  StackBounds& bounds = ThreadStackBounds();
  if (!MayEnterHost(bounds)) {
    RaiseNoHeadroom();
    return P4J_TYPED_ERROR_I32;
  }
  void* entry = TypedEntryOf(self, bounds);
  if (entry == nullptr) return P4J_TYPED_ERROR_I32;
  return reinterpret_cast<ForwardI32>(entry)(self, i0, i1, i2, i3, d0, d1, d2, d3);
}

}  // namespace

int P4JHostSetEntries(P4JSafeCallType safe_call, void (*release)(void* self), int64_t reserve) {
  P4J_SAFE_CALL_BEGIN();
  if (safe_call == nullptr) throw packed4j::ValueError("P4JHostSetEntries: safe_call is NULL");
  if (reserve != 0 && reserve < 128 * 1024) {
    throw packed4j::ValueError("P4JHostSetEntries: a stack reserve is at least 128 KiB (131072), got " +
                               std::to_string(reserve));
  }
  stack_reserve.store(reserve == 0 ? P4J_HOST_DEFAULT_STACK_RESERVE : reserve, std::memory_order_relaxed);
  created_vms.store(FindCreatedVms(), std::memory_order_release);
  host_release.store(release, std::memory_order_release);
  host_safe_call.store(safe_call, std::memory_order_release);
  P4J_SAFE_CALL_END();
}

int P4JHostSetTypedEntry(int32_t index, void* entry) {
  P4J_SAFE_CALL_BEGIN();
  if (index < 0 || index >= P4J_HOST_TYPED_ENTRIES) {
    throw packed4j::IndexError("P4JHostSetTypedEntry: index " + std::to_string(index) + " is outside [0, " +
                               std::to_string(P4J_HOST_TYPED_ENTRIES) + ")");
  }
  if (entry == nullptr) throw packed4j::ValueError("P4JHostSetTypedEntry: entry is NULL");
  typed_entries[index].store(entry, std::memory_order_release);
  P4J_SAFE_CALL_END();
}

void* P4JHostTypedEntry(int32_t kind) {
  switch (kind) {
    case kP4JInt:
      return reinterpret_cast<void*>(&HostTypedEntryI64);
    case kP4JFloat:
      return reinterpret_cast<void*>(&HostTypedEntryF64);
    case kP4JBool:
    case kP4JNone:
      return reinterpret_cast<void*>(&HostTypedEntryI32);
    default:
      return nullptr;
  }
}

int P4JHostSafeCall(void* self, const P4JAny* args, int32_t num_args, P4JAny* result) {
  StackBounds& bounds = ThreadStackBounds();
  if (!MayEnterHost(bounds)) {
    RaiseNoHeadroom();
    return -1;
  }
  if (host_exited.load(std::memory_order_acquire)) {
    RaiseHostExited();
    return -1;
  }
  if (!HostReachable(bounds)) {
    RaiseHostUnreachable();
    return -1;
  }
  P4JSafeCallType call = host_safe_call.load(std::memory_order_acquire);
  if (call == nullptr) {
    RaiseNoEntry("safe_call");
    return -1;
  }
  return call(self, args, num_args, result);
}

void P4JHostRelease(void* self) {
  if (host_exited.load(std::memory_order_acquire)) return;  // the host's memory goes with the process
  HostRelease release = host_release.load(std::memory_order_acquire);
  StackBounds& bounds = ThreadStackBounds();
  if (release != nullptr && MayEnterHost(bounds)) {
    if (HostReachable(bounds)) {
      release(self);
      return;
    }
    if (host_exited.load(std::memory_order_acquire)) return;
  }
  try {
    std::lock_guard<std::mutex> lock(deferred_mutex);
    Deferred().push_back(self);
  } catch (...) {
    // Out of memory for one pointer: the host's slot stays taken, which is all that can go wrong.
  }
}

void P4JHostShutdownBegins(void) { host_shutting_down.store(true, std::memory_order_release); }

int P4JHostArmExitGuard(void) {
  P4J_SAFE_CALL_BEGIN();
  if (std::atexit(&MarkHostExited) != 0) {
    throw packed4j::RuntimeError("P4JHostArmExitGuard: atexit refused another handler");
  }
  P4J_SAFE_CALL_END();
}

int32_t P4JHostTakeDeferredReleases(void** out, int32_t capacity) {
  if (out == nullptr || capacity <= 0) return 0;
  std::lock_guard<std::mutex> lock(deferred_mutex);
  std::vector<void*>& deferred = Deferred();
  int32_t count = 0;
  while (count < capacity && !deferred.empty()) {
    out[count++] = deferred.back();
    deferred.pop_back();
  }
  return count;
}

int64_t P4JStackHeadroom(void) { return Headroom(ThreadStackBounds()); }
