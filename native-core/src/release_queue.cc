/*!
 * \file release_queue.cc
 * \brief P4JObjectDecRef, where every Java close ends: alone in this file because the file is compiled with TLS
 *  descriptors on GCC x86-64 (see CMakeLists.txt).
 *
 * The one thread-local it reads, the core's release queue (details::pending_releases), is then reached through a
 * TLS descriptor: a load relative to the thread pointer when glibc placed the core's thread-locals in static TLS at
 * load (it does when its optional surplus has room), the dynamic lookup otherwise, so loading never fails as it can
 * with the initial-exec model.
 *
 * The file is also compiled with -mgeneral-regs-only: GCC assumes a descriptor call keeps every register but %rax,
 * and the dynamic fallback's slow path in glibc before 2.40 saves only the integer registers (BZ #31372). With no
 * vector register used in this file, no value can be lost to it. Deleters are called as usual, so their own code is
 * not affected.
 */
#include <packed4j/object.h>

extern "C" {

int P4JObjectDecRef(P4JObjectHandle obj) {
  if (obj != nullptr) packed4j::details::DecRef(obj);
  return 0;
}

}  // extern "C"
