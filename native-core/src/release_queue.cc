/*!
 * \file release_queue.cc
 * \brief The core's release queue of the calling thread, looked up through a TLS descriptor where the compiler
 *  has them (see CMakeLists.txt): the one thread-local that every last P4JObjectDecRef reads.
 *
 * Alone in its file, and called, never inlined: GCC x86-64 assumes a TLS descriptor call keeps every register but
 * %rax, and the dynamic fallback of glibc before 2.40 (static TLS full) saves only the integer registers, not the
 * vector ones (BZ #31372). A caller of this function already treats every caller-saved register as clobbered, as
 * for any call, and nothing is live here across the descriptor call, so no glibc version can corrupt a value.
 */
#include "internal.h"

namespace packed4j {
namespace internal {

details::PendingReleases* PendingReleasesOfThread() noexcept { return &details::pending_releases; }

}  // namespace internal
}  // namespace packed4j
