// A file's pages, or a caller's memory, lent to a std::vector: the binary
// cache's values, and arrays a program gives the library (Data::from_csr).
//
// map_file_pages() maps part of an open file privately. The mapping's pages
// are the page cache's own, shared with it until something writes to them
// (copy on write), so a cache that the page cache already holds becomes a
// matrix with no copy and no new memory. On a VM the new memory is the
// dear part: its first writes cost page faults, where mapping the same
// bytes costs a small fraction of that (measured at 761d8ad; docs/checks.md).
//
// A std::vector cannot be given memory, but its allocator can: after
// lend_to_next_allocation(p, bytes), the next allocation of exactly `bytes`
// on this thread returns p, and deallocating p later unmaps it (see
// NoInitAllocator in data/sparse_matrix.h, the one user).
//
// Memory the caller owns is lent the same way (lend_borrowed_memory()):
// the vector uses it in place, and deallocating it frees nothing. The
// caller keeps it alive, and unchanged, as long as the vector lives.
//
// A page that the process has not written shows the file as it is now: a
// file rewritten in place under the run changes what the run reads, and one
// truncated makes a read beyond its new end a SIGBUS (see atomic_file.h).
// So only data whose every value is safe to use may be mapped: the cache's
// values, not its row numbers, which index the solvers' arrays and must stay
// as checked. cdtrain itself never rewrites a cache in place: it renames a
// new file over it, which leaves a mapped old file whole.
#ifndef CDL_UTIL_FILE_PAGES_H_
#define CDL_UTIL_FILE_PAGES_H_

#include <cstddef>
#include <cstdint>

namespace cdl {

// The alignment, in the file, of a part that may be mapped: a multiple of
// every common page size (4, 16 and 64 KiB).
constexpr std::uint64_t kMappableAlignment = std::uint64_t{64} << 10;

// Maps `bytes` (> 0) of the open file `fd` from `offset`, a multiple of
// kMappableAlignment, readable and writable, private; each page is mapped
// when first read. Returns nullptr if the system will not (the caller then
// reads).
void* map_file_pages(int fd, std::uint64_t offset, std::size_t bytes);

// Unmaps a mapping of map_file_pages() that was never lent.
void unmap_file_pages(void* pages) noexcept;

// Lends `pages` (from map_file_pages(), `bytes` long) to the next allocation
// of exactly `bytes` on this thread.
void lend_to_next_allocation(void* pages, std::size_t bytes) noexcept;

// Lends `memory` (`bytes` > 0), which the caller owns, to the next
// allocation of exactly `bytes` on this thread. Deallocating it later
// forgets it and frees nothing. Throws std::bad_alloc if it cannot be
// recorded. Several allocations may borrow the same memory at once.
void lend_borrowed_memory(const void* memory, std::size_t bytes);

// For allocators: the pages lent for an allocation of `bytes`, or nullptr.
void* take_lent_pages(std::size_t bytes) noexcept;

// For allocators: returns true if `p` is lent pages (which it unmaps) or
// borrowed memory (which it forgets).
bool return_lent_pages(void* p) noexcept;

// Whether `p` is borrowed memory that an allocation holds now.
bool is_borrowed_memory(const void* p) noexcept;

}  // namespace cdl

#endif  // CDL_UTIL_FILE_PAGES_H_
