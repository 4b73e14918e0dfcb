/*!
 * \file dynamic_tls_load.cc
 * \brief Loads libpacked4j.so with dlopen when no optional static TLS is left (ctest sets
 *  GLIBC_TUNABLES=glibc.rtld.optional_static_tls=0), as in a process whose other libraries used it up: the load
 *  must succeed (no initial-exec thread-locals), and the release queue, reached through its TLS descriptor's
 *  dynamic fallback then, must still release a deep chain in constant stack on fresh threads, their first access.
 *
 * Usage: packed4j_dynamic_tls_load <path of libpacked4j.so>. Prints what failed and exits 1, or exits 0.
 */
#include <dlfcn.h>
#include <pthread.h>

#include <packed4j/c_api.h>

#include <cstdio>

namespace {

using ListCreate = int (*)(const P4JAny*, int64_t, P4JObjectHandle*);
using DecRef = int (*)(P4JObjectHandle);
using LiveCount = int64_t (*)();

ListCreate list_create = nullptr;
DecRef dec_ref = nullptr;

constexpr int kDepth = 100000;        // nested lists; a recursive release would need megabytes of stack
constexpr size_t kStack = 256 * 1024;  // the releasing threads' stack

void* BuildAndRelease(void* failed) {
  P4JObjectHandle inner = nullptr;
  for (int level = 0; level < kDepth; level++) {
    P4JAny item{};
    item.type_index = inner != nullptr ? static_cast<int32_t>(kP4JList) : static_cast<int32_t>(kP4JNone);
    item.v_obj = inner;
    P4JObjectHandle outer = nullptr;
    if (list_create(&item, 1, &outer) != 0 || outer == nullptr) {
      *static_cast<bool*>(failed) = true;
      return nullptr;
    }
    if (inner != nullptr) dec_ref(inner);  // the outer list holds the only reference now
    inner = outer;
  }
  dec_ref(inner);
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <path of libpacked4j.so>\n", argv[0]);
    return 1;
  }
  void* core = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (core == nullptr) {
    std::fprintf(stderr, "dlopen(%s) failed: %s\n", argv[1], dlerror());
    return 1;
  }
  list_create = reinterpret_cast<ListCreate>(dlsym(core, "P4JListCreate"));
  dec_ref = reinterpret_cast<DecRef>(dlsym(core, "P4JObjectDecRef"));
  auto live_count = reinterpret_cast<LiveCount>(dlsym(core, "P4JObjectLiveCount"));
  if (list_create == nullptr || dec_ref == nullptr || live_count == nullptr) {
    std::fprintf(stderr, "libpacked4j.so lacks P4JListCreate, P4JObjectDecRef or P4JObjectLiveCount\n");
    return 1;
  }
  int64_t live_before = live_count();
  bool failed[2] = {false, false};
  pthread_t threads[2];
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, kStack);
  for (int i = 0; i < 2; i++) {
    if (pthread_create(&threads[i], &attr, BuildAndRelease, &failed[i]) != 0) {
      std::fprintf(stderr, "pthread_create failed\n");
      return 1;
    }
  }
  for (pthread_t thread : threads) pthread_join(thread, nullptr);
  if (failed[0] || failed[1]) {
    std::fprintf(stderr, "P4JListCreate failed\n");
    return 1;
  }
  if (live_count() != live_before) {
    std::fprintf(stderr, "live objects %lld after releasing every list, %lld before\n",
                 static_cast<long long>(live_count()), static_cast<long long>(live_before));
    return 1;
  }
  std::printf("libpacked4j.so loaded without static TLS; %d-deep chains released on 2 threads\n", kDepth);
  return 0;
}
