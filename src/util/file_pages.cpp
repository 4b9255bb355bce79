#include "util/file_pages.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <new>
#include <utility>
#include <vector>

namespace cdl {
namespace {

struct Mapping {
  void* pages;
  std::size_t bytes;
  bool borrowed;  // the caller's memory: forgotten, not unmapped
};

// The live mappings and borrowed memory. Few at a time (one per loaded
// cache, two per Data of arrays), so a vector; `live` lets every other
// deallocation skip the lock.
struct Registry {
  std::mutex mutex;
  std::vector<Mapping> mappings;
  std::atomic<std::size_t> live{0};
};

Registry& registry() {
  static Registry* r = new Registry;  // never destroyed: vectors may outlive statics
  return *r;
}

struct Lent {
  void* pages = nullptr;
  std::size_t bytes = 0;
};
thread_local Lent lent;

void record(const Mapping& mapping) {
  Registry& r = registry();
  const std::lock_guard<std::mutex> lock(r.mutex);
  r.mappings.push_back(mapping);
  r.live.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace

void* map_file_pages(int fd, std::uint64_t offset, std::size_t bytes) {
  const long page = ::sysconf(_SC_PAGESIZE);
  if (bytes == 0 || page <= 0 || kMappableAlignment % static_cast<std::uint64_t>(page) != 0 ||
      offset % kMappableAlignment != 0) {
    return nullptr;
  }
  // Not filled here: the first read of a page maps it (and its neighbours,
  // the kernel's fault-around) shared with the page cache, and the caller
  // reads every page at once on its threads (the loader's checksum). Filling
  // the page table in mmap() is one thread's work, and MAP_POPULATE on a
  // writable private mapping would copy every page, so it had to be mapped
  // read-only and then made writable, which with the pass after it took
  // longer than the mapping unfilled and the same pass (measured at
  // 98631db; docs/checks.md).
  void* p =
      ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, static_cast<off_t>(offset));
  if (p == MAP_FAILED) return nullptr;
  try {
    record({p, bytes, false});
  } catch (const std::bad_alloc&) {
    ::munmap(p, bytes);
    return nullptr;
  }
  return p;
}

void unmap_file_pages(void* pages) noexcept { return_lent_pages(pages); }

void lend_to_next_allocation(void* pages, std::size_t bytes) noexcept {
  lent.pages = pages;
  lent.bytes = bytes;
}

void lend_borrowed_memory(const void* memory, std::size_t bytes) {
  // Written to only if a caller breaks the contract of the vector that
  // holds it; the library's matrices are read-only once made.
  void* p = const_cast<void*>(memory);
  record({p, bytes, true});
  lend_to_next_allocation(p, bytes);
}

void* take_lent_pages(std::size_t bytes) noexcept {
  if (lent.pages == nullptr || lent.bytes != bytes) return nullptr;
  return std::exchange(lent.pages, nullptr);
}

bool return_lent_pages(void* p) noexcept {
  Registry& r = registry();
  if (p == nullptr || r.live.load(std::memory_order_relaxed) == 0) return false;
  Mapping mapping{};
  {
    const std::lock_guard<std::mutex> lock(r.mutex);
    const auto it = std::find_if(r.mappings.begin(), r.mappings.end(),
                                 [p](const Mapping& m) { return m.pages == p; });
    if (it == r.mappings.end()) return false;
    mapping = *it;
    r.mappings.erase(it);
    r.live.fetch_sub(1, std::memory_order_relaxed);
  }
  if (!mapping.borrowed) ::munmap(p, mapping.bytes);
  return true;
}

bool is_borrowed_memory(const void* p) noexcept {
  Registry& r = registry();
  if (p == nullptr || r.live.load(std::memory_order_relaxed) == 0) return false;
  const std::lock_guard<std::mutex> lock(r.mutex);
  return std::any_of(r.mappings.begin(), r.mappings.end(),
                     [p](const Mapping& m) { return m.borrowed && m.pages == p; });
}

}  // namespace cdl
