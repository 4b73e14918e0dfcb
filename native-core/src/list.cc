/*!
 * \file list.cc
 * \brief kP4JList: a dense, growable array of owned values, read in place by the Java side.
 */
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <utility>

#include "internal.h"

namespace packed4j {
namespace internal {
namespace {

/*!
 * \brief The storage of the last large list freed, kept for the next large list.
 *
 *  glibc recycles freed blocks below 32 MiB itself (its mmap threshold rises to the size of a freed mapped block),
 *  so a list of a million values passed again and again reuses its 16 MB without a page fault. From 32 MiB on
 *  (2,097,152 values) every block is a fresh mapping, unmapped again when freed, and every call faulted in and
 *  zeroed all of it: a List<Long> of 4 million values passed from Java to a C++ sum took ~70 ms a call (17 ns a
 *  value, against 4.5 ns at 1 million). One block is kept here instead, process-wide, and handed to the next list
 *  that needs at least half of it: ~20 ms a call. Its pages are given back with MADV_FREE, which the kernel
 *  reclaims only when memory runs short, so the kept block costs memory only while nothing else needs it; until
 *  then the next list writes into the pages without faulting.
 */
class LargeStorageCache {
 public:
  /*! \brief Where glibc stops recycling: DEFAULT_MMAP_THRESHOLD_MAX on 64-bit Linux. */
  static constexpr size_t kMinBytes = size_t{32} << 20;
  /*! \brief Larger blocks are freed as before: keeping a list's worth of address space is fine, not any amount. */
  static constexpr size_t kMaxBytes = size_t{1} << 30;

  static LargeStorageCache* Global() {
    // Never destroyed: lists may be freed by other static destructors or threads at exit.
    static LargeStorageCache* cache = new LargeStorageCache();
    return cache;
  }

  /*! \brief A kept block of at least bytes (and at most twice that) with its size, or {nullptr, 0}. */
  std::pair<void*, size_t> Take(size_t bytes) {
    if (bytes < kMinBytes) return {nullptr, 0};
    std::lock_guard<std::mutex> lock(mutex_);
    if (data_ == nullptr || bytes_ < bytes || bytes_ / 2 > bytes) return {nullptr, 0};
    std::pair<void*, size_t> taken{data_, bytes_};
    data_ = nullptr;
    bytes_ = 0;
    return taken;
  }

  /*! \brief Frees data (bytes long, from malloc), or keeps it for the next large list. */
  void Release(void* data, size_t bytes) noexcept {
    if (data == nullptr) return;
    if (bytes < kMinBytes || bytes > kMaxBytes) {
      std::free(data);
      return;
    }
    GiveBackPages(data, bytes);
    void* previous = nullptr;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      previous = data_;
      data_ = data;
      bytes_ = bytes;
    }
    std::free(previous);
  }

 private:
  /*! \brief MADV_FREE on the whole pages of the block: reclaimable under memory pressure, reusable until then. */
  static void GiveBackPages(void* data, size_t bytes) noexcept {
    static const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
    uintptr_t begin = (reinterpret_cast<uintptr_t>(data) + page - 1) & ~(page - 1);
    uintptr_t end = (reinterpret_cast<uintptr_t>(data) + bytes) & ~(page - 1);
#ifdef MADV_FREE
    // Best effort: a kernel without MADV_FREE (before 4.5) keeps the pages, as the block itself is kept.
    if (end > begin) (void)madvise(reinterpret_cast<void*>(begin), end - begin, MADV_FREE);
#else
    (void)begin;
    (void)end;
#endif
  }

  std::mutex mutex_;
  void* data_ = nullptr;
  size_t bytes_ = 0;
};

/*!
 * \brief The list object: the cell, which the Java side reads in place (data is malloc'ed so it can grow with
 *  realloc), and whether an object may be among the values, which only this file writes.
 */
class ListImpl : public ListObject {
 public:
  P4J_DECLARE_STATIC_OBJECT_TYPE_INFO(ListImpl, ListObject, kP4JList);

  ListImpl() = default;
  ~ListImpl() override {
    Clear();
    LargeStorageCache::Global()->Release(cell.data, static_cast<size_t>(cell.capacity) * sizeof(P4JAny));
  }

  /*! \brief Makes room for capacity values; grows geometrically so appends are amortized O(1). */
  void Reserve(int64_t capacity) {
    if (capacity <= cell.capacity) return;
    // The byte size must fit in ptrdiff_t: a count from a caller (P4JListFromInt64s, a bulk path) is not trusted.
    constexpr int64_t kMaxCapacity = static_cast<int64_t>(PTRDIFF_MAX / (sizeof(P4JAny)));
    if (capacity > kMaxCapacity) {
      throw ValueError("a list of " + std::to_string(capacity) + " entries is larger than memory can hold");
    }
    int64_t grown = cell.capacity < 4 ? 4 : (cell.capacity > kMaxCapacity / 2 ? kMaxCapacity : cell.capacity * 2);
    if (grown < capacity) grown = capacity;
    if (cell.data == nullptr) {
      std::pair<void*, size_t> kept = LargeStorageCache::Global()->Take(static_cast<size_t>(grown) * sizeof(P4JAny));
      if (kept.first != nullptr) {
        cell.data = static_cast<P4JAny*>(kept.first);
        cell.capacity = static_cast<int64_t>(kept.second / sizeof(P4JAny));
        return;
      }
    }
    void* data = std::realloc(cell.data, static_cast<size_t>(grown) * sizeof(P4JAny));
    if (data == nullptr) throw std::bad_alloc();
    cell.data = static_cast<P4JAny*>(data);
    cell.capacity = grown;
  }

  /*! \brief Appends a borrowed value (copied into an owned one). */
  void Append(const P4JAny& item) {
    Reserve(cell.size + 1);
    cell.data[cell.size] = Own(item);
    ++cell.size;
  }

  /*!
   * \brief Makes the count values a caller wrote at data[size, size + count) elements (P4JListAppendWritten).
   *  Borrowed values are replaced by owned ones in place; with all_pods the caller vouches that none needs it.
   */
  void AppendWritten(int64_t count, bool all_pods) {
    if (count < 0 || count > cell.capacity - cell.size) {
      throw ValueError("P4JListAppendWritten: " + std::to_string(count) + " values written after " +
                       std::to_string(cell.size) + " in a list with room for " + std::to_string(cell.capacity));
    }
    P4JAny* written = cell.data + cell.size;
    if (!all_pods) {
      int64_t owned = 0;
      try {
        for (; owned < count; ++owned) written[owned] = Own(written[owned]);
      } catch (...) {
        // The values before the failing one are owned now; the list stays as it was.
        for (int64_t i = 0; i < owned; ++i) ReleaseValue(&written[i]);
        throw;
      }
    }
    cell.size += count;
  }

  void SetItem(int64_t index, const P4JAny& item) {
    CheckIndex(index, cell.size);
    P4JAny owned = Own(item);
    P4JAny previous = cell.data[index];
    cell.data[index] = owned;
    ReleaseValue(&previous);
  }

  void Insert(int64_t index, const P4JAny& item) {
    if (index < 0 || index > cell.size) {
      throw IndexError("insert position " + std::to_string(index) + " is out of range for a list of size " +
                       std::to_string(cell.size));
    }
    Reserve(cell.size + 1);
    P4JAny owned = Own(item);
    std::memmove(cell.data + index + 1, cell.data + index, static_cast<size_t>(cell.size - index) * sizeof(P4JAny));
    cell.data[index] = owned;
    ++cell.size;
  }

  P4JAny Erase(int64_t index) {
    CheckIndex(index, cell.size);
    P4JAny removed = cell.data[index];
    std::memmove(cell.data + index, cell.data + index + 1, static_cast<size_t>(cell.size - index - 1) * sizeof(P4JAny));
    --cell.size;
    return removed;
  }

  void Clear() noexcept {
    // Shrink first, release after: a deleter that looks at this list again sees a consistent cell.
    int64_t size = cell.size;
    cell.size = 0;
    if (!may_hold_objects_) return;
    may_hold_objects_ = false;
    // Only objects need releasing, and slots past size are never read, so nothing is written back: for a list of
    // a million values that is 16 MB of stores saved.
    for (int64_t i = 0; i < size; ++i) {
      const P4JAny& value = cell.data[i];
      if (details::IsObjectValue(value)) details::DecRef(value.v_obj);
    }
  }

 private:
  /*!
   * \brief Whether a value stored since the last Clear may be an object. Lists of numbers, the common bulk case,
   *  never set it, and then Clear and the destructor do not read the values at all (a scan of a million values is
   *  a millisecond of memory traffic). It is only ever set by the functions of this file, which make every value
   *  the list holds: the cell is read in place by others, never written.
   */
  bool may_hold_objects_ = false;

  /*! \brief OwnValue, noting an object. */
  P4JAny Own(const P4JAny& borrowed) {
    P4JAny owned = OwnValue(borrowed);
    if (details::IsObjectValue(owned)) may_hold_objects_ = true;
    return owned;
  }

  static void CheckIndex(int64_t index, int64_t size) {
    if (index < 0 || index >= size) {
      throw IndexError("list index " + std::to_string(index) + " is out of range for a list of size " +
                       std::to_string(size));
    }
  }
};

ListImpl* AsList(P4JObject* list) {
  CheckHandleType(list, kP4JList, "list");
  return static_cast<ListImpl*>(static_cast<Object*>(list));
}

void CheckItem(const P4JAny* item) {
  if (item == nullptr) throw ValueError("item is NULL");
}

}  // namespace
}  // namespace internal
}  // namespace packed4j

using namespace packed4j;  // NOLINT(build/namespaces): the C functions below implement packed4j

extern "C" {

int P4JListCreate(const P4JAny* items, int64_t count, P4JObjectHandle* out) {
  P4J_SAFE_CALL_BEGIN();
  *out = nullptr;
  if (count < 0 || (count > 0 && items == nullptr)) {
    throw ValueError("P4JListCreate: " + std::to_string(count) + " items at a NULL or invalid address");
  }
  ObjectPtr<internal::ListImpl> list = make_object<internal::ListImpl>();
  list->Reserve(count);
  for (int64_t i = 0; i < count; ++i) list->Append(items[i]);
  *out = list.release();
  P4J_SAFE_CALL_END();
}

int P4JListFromInt64s(const int64_t* values, int64_t count, P4JObjectHandle* out) {
  P4J_SAFE_CALL_BEGIN();
  *out = nullptr;
  if (count < 0 || (count > 0 && values == nullptr)) {
    throw ValueError("P4JListFromInt64s: " + std::to_string(count) + " values at a NULL or invalid address");
  }
  ObjectPtr<internal::ListImpl> list = make_object<internal::ListImpl>();
  list->Reserve(count);
  P4JAny* data = list->cell.data;
  for (int64_t i = 0; i < count; ++i) details::StoreInt(values[i], &data[i]);
  list->cell.size = count;
  *out = list.release();
  P4J_SAFE_CALL_END();
}

int P4JListFromFloat64s(const double* values, int64_t count, P4JObjectHandle* out) {
  P4J_SAFE_CALL_BEGIN();
  *out = nullptr;
  if (count < 0 || (count > 0 && values == nullptr)) {
    throw ValueError("P4JListFromFloat64s: " + std::to_string(count) + " values at a NULL or invalid address");
  }
  ObjectPtr<internal::ListImpl> list = make_object<internal::ListImpl>();
  list->Reserve(count);
  P4JAny* data = list->cell.data;
  for (int64_t i = 0; i < count; ++i) details::TypeTraits<double>::Store(values[i], &data[i]);
  list->cell.size = count;
  *out = list.release();
  P4J_SAFE_CALL_END();
}

int P4JListCreateWithCapacity(int64_t capacity, P4JObjectHandle* out) {
  P4J_SAFE_CALL_BEGIN();
  *out = nullptr;
  if (capacity < 0) throw ValueError("P4JListCreateWithCapacity: negative capacity " + std::to_string(capacity));
  ObjectPtr<internal::ListImpl> list = make_object<internal::ListImpl>();
  list->Reserve(capacity);
  *out = list.release();
  P4J_SAFE_CALL_END();
}

int P4JListAppendWritten(P4JObjectHandle list, int64_t count, int32_t all_pods) {
  P4J_SAFE_CALL_BEGIN();
  internal::AsList(list)->AppendWritten(count, all_pods != 0);
  P4J_SAFE_CALL_END();
}

int P4JListAppend(P4JObjectHandle list, const P4JAny* item) {
  P4J_SAFE_CALL_BEGIN();
  internal::CheckItem(item);
  internal::AsList(list)->Append(*item);
  P4J_SAFE_CALL_END();
}

int P4JListSetItem(P4JObjectHandle list, int64_t index, const P4JAny* item) {
  P4J_SAFE_CALL_BEGIN();
  internal::CheckItem(item);
  internal::AsList(list)->SetItem(index, *item);
  P4J_SAFE_CALL_END();
}

int P4JListInsert(P4JObjectHandle list, int64_t index, const P4JAny* item) {
  P4J_SAFE_CALL_BEGIN();
  internal::CheckItem(item);
  internal::AsList(list)->Insert(index, *item);
  P4J_SAFE_CALL_END();
}

int P4JListErase(P4JObjectHandle list, int64_t index, P4JAny* removed) {
  P4J_SAFE_CALL_BEGIN();
  *removed = details::NoneValue();
  *removed = internal::AsList(list)->Erase(index);
  P4J_SAFE_CALL_END();
}

int P4JListClear(P4JObjectHandle list) {
  P4J_SAFE_CALL_BEGIN();
  internal::AsList(list)->Clear();
  P4J_SAFE_CALL_END();
}

}  // extern "C"
