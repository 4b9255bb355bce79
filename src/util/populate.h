// Maps a buffer's pages before they are written.
//
// The first write to each 4 KiB page of new memory traps into the kernel,
// and a buffer whose pages are mapped first in one call is written much
// faster than one written page by page (`bench_cd pages`; the figures, at
// 59489f5, are in docs/checks.md). The readers' matrices and streams and
// the solvers' n- and l-vectors are such memory: written whole, soon after
// they are allocated.
#ifndef CDL_UTIL_POPULATE_H_
#define CDL_UTIL_POPULATE_H_

#include <cstddef>
#include <vector>

namespace cdl {

// Asks the system to map, for writing, every page that [data, data + bytes)
// touches, in one call (MADV_POPULATE_WRITE). Only for memory about to be
// written whole: the pages count as used from now on. A hint: nothing
// happens below kPopulateMinBytes, or where the system lacks it (Linux
// before 5.14), or when it fails (the writes then map the pages one by one,
// as without it).
void populate_for_writing(void* data, std::size_t bytes);

// Smaller buffers are left to their writes: the call costs more than the
// few traps it saves.
constexpr std::size_t kPopulateMinBytes = std::size_t{16} << 10;

// n copies of `value`, in memory mapped before they are written.
template <class T>
std::vector<T> populated_vector(std::size_t n, const T& value) {
  std::vector<T> out;
  out.reserve(n);
  populate_for_writing(out.data(), n * sizeof(T));
  out.assign(n, value);
  return out;
}

// Makes `v` n elements long for a caller that writes every element: when
// that takes new memory, in memory mapped before it is written (the elements
// are then zeros, else whatever v held).
template <class T>
void resize_for_writing(std::vector<T>& v, std::size_t n) {
  if (n > v.capacity()) {
    v = populated_vector<T>(n, T{});
  } else {
    v.resize(n);
  }
}

// A copy of `from`, in memory mapped before it is written.
template <class T>
std::vector<T> populated_copy(const std::vector<T>& from) {
  std::vector<T> out;
  out.reserve(from.size());
  populate_for_writing(out.data(), from.size() * sizeof(T));
  out.assign(from.begin(), from.end());
  return out;
}

}  // namespace cdl

#endif  // CDL_UTIL_POPULATE_H_
