#include "util/populate.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14's value, for older headers
#endif

namespace cdl {

void populate_for_writing(void* data, std::size_t bytes) {
  if (data == nullptr || bytes < kPopulateMinBytes) return;
  static const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto address = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t first = address & ~(page - 1);
  const std::uintptr_t last = (address + bytes + page - 1) & ~(page - 1);
  // The pages are all in the buffer's mapping (a page holding any byte of it
  // is mapped), so the call can fail only where it is unsupported.
  (void)::madvise(reinterpret_cast<void*>(first), last - first, MADV_POPULATE_WRITE);
}

}  // namespace cdl
