// Compressed sparse row (CSR) and column (CSC) matrices.
//
// Offsets are 64-bit, so a matrix may hold more than 2^31 nonzeros; row and
// column indices are 32-bit and 0-based (the 1-based LIBSVM indices are
// converted at the reader). Within a row (CSR) or column (CSC) the indices are
// strictly increasing.
//
// The primal coordinate-descent solvers walk columns, so they train on CSC;
// TRON, dual CD, Pegasos, PDCD and RCD-pair walk rows and train on CSR alone
// (train.h, trains_on_rows()). to_csc() transposes once with a counting sort
// in O(nnz + rows + cols).
#ifndef CDL_SPARSE_MATRIX_H_
#define CDL_SPARSE_MATRIX_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include "util/file_pages.h"

namespace cdl {

// An allocator whose value-initialization is default-initialization, so that
// resize() leaves a numeric buffer unwritten for its filler. The readers fill
// every one of 12 bytes per nonzero anyway; zeroing them first would be a
// serial pass over hundreds of megabytes.
template <class T>
struct NoInitAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = NoInitAllocator<U>;
  };
  NoInitAllocator() = default;
  template <class U>
  NoInitAllocator(const NoInitAllocator<U>&) noexcept {}
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
  // Lent file pages (buffer_on_pages) or the heap.
  T* allocate(std::size_t n) {
    if (void* pages = take_lent_pages(n * sizeof(T))) return static_cast<T*>(pages);
    return std::allocator<T>::allocate(n);
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if (!return_lent_pages(p)) std::allocator<T>::deallocate(p, n);
  }
};

// The storage of a matrix's indices and values.
template <class T>
using Buffer = std::vector<T, NoInitAllocator<T>>;

namespace detail {

// A Buffer of `count` > 0 elements over `memory`, which was just lent to
// the next allocation of count * sizeof(T) bytes on this thread (pages or
// borrowed memory, util/file_pages.h). Unless the Buffer takes it, the
// loan is withdrawn, also when an exception leaves.
template <class T>
Buffer<T> buffer_over_lent(void* memory, std::size_t count) {
  static_assert(std::is_trivially_default_constructible_v<T>, "the memory holds the values");
  struct Unless {
    void* memory;
    std::size_t bytes;
    bool taken = false;
    ~Unless() {
      if (taken) return;
      take_lent_pages(bytes);
      return_lent_pages(memory);
    }
  } guard{memory, count * sizeof(T)};
  Buffer<T> buffer;
  buffer.reserve(count);          // takes the memory
  if (buffer.data() != memory) {  // a library whose reserve() asked for another size: copy
    const T* values = static_cast<const T*>(memory);
    buffer.assign(values, values + count);
    return buffer;
  }
  guard.taken = true;
  buffer.resize(count);  // default-initializes: writes nothing
  return buffer;
}

}  // namespace detail

// A Buffer of `count` > 0 elements stored in `pages`, a mapping of
// map_file_pages() of count * sizeof(T) bytes that holds them already. The
// Buffer owns the mapping from here on: it unmaps it when it lets it go, and
// what is written to it goes to private copies of the pages written.
template <class T>
Buffer<T> buffer_on_pages(void* pages, std::size_t count) {
  lend_to_next_allocation(pages, count * sizeof(T));
  return detail::buffer_over_lent<T>(pages, count);
}

// A Buffer whose `count` elements are the caller's `data`, used in place:
// nothing is copied, and letting the Buffer go frees nothing. The caller
// keeps `data` alive and unchanged while the Buffer (or a matrix that
// holds it) lives. A copy of the Buffer is a copy of the data, and growing
// it moves the data to memory of its own, so only a write to an element in
// place would reach the caller's array: the matrices the library trains on
// are read-only once made, and nothing writes to them (Problem, problem.h).
template <class T>
Buffer<T> buffer_borrowing(const T* data, std::size_t count) {
  if (count == 0) return {};
  lend_borrowed_memory(data, count * sizeof(T));
  return detail::buffer_over_lent<T>(const_cast<T*>(data), count);
}

// Whether `buffer` holds borrowed memory (buffer_borrowing()).
template <class T>
bool is_borrowed(const Buffer<T>& buffer) {
  return is_borrowed_memory(buffer.data());
}

using Index = std::uint32_t;  // a row or column number, 0-based

// Largest number of rows or columns; indices must fit in Index and the 1-based
// LIBSVM index must fit in a signed 32-bit integer, as in LIBLINEAR.
constexpr std::size_t kMaxDimension = 2147483647;

struct CsrMatrix {
  std::size_t num_rows = 0;
  std::size_t num_cols = 0;
  std::vector<std::int64_t> row_ptr{0};  // num_rows + 1 offsets
  Buffer<Index> col_idx;                 // nnz column numbers
  Buffer<double> values;                 // nnz values
  // As CscMatrix::checked_cost.
  double checked_cost = 0;

  std::size_t nnz() const { return values.size(); }
};

struct CscMatrix {
  std::size_t num_rows = 0;
  std::size_t num_cols = 0;
  std::vector<std::int64_t> col_ptr{0};  // num_cols + 1 offsets
  Buffer<Index> row_idx;                 // nnz row numbers
  Buffer<double> values;                 // nnz values
  // The largest C at which the values were found safe to train on
  // (check_magnitudes(), train/train.h); 0: not checked. Training checks
  // again only at a larger C.
  double checked_cost = 0;

  std::size_t nnz() const { return values.size(); }
};

// Transposes the storage of `rows` into column order. Each column's row
// numbers come out in increasing order.
CscMatrix to_csc(const CsrMatrix& rows);

// The counting sort behind to_csc() and to_csr(), on any storage:
// `outer_count` compressed vectors, vector r's entries k from
// outer_ptr[r] to outer_ptr[r + 1] - 1 with index index_at(k) <
// inner_count and value value_at(k), become `inner_count` vectors in
// out_ptr, out_idx and out_values, each vector's indices (the outer r)
// increasing. O(nnz + outer_count + inner_count).
template <class OuterPtr, class IndexAt, class ValueAt>
void transpose_into(std::size_t outer_count, std::size_t inner_count, const OuterPtr& outer_ptr,
                    std::size_t nnz, IndexAt index_at, ValueAt value_at,
                    std::vector<std::int64_t>& out_ptr, Buffer<Index>& out_idx,
                    Buffer<double>& out_values) {
  out_ptr.assign(inner_count + 1, 0);
  for (std::size_t k = 0; k < nnz; ++k) ++out_ptr[static_cast<std::size_t>(index_at(k)) + 1];
  for (std::size_t c = 0; c < inner_count; ++c) out_ptr[c + 1] += out_ptr[c];
  out_idx.resize(nnz);
  out_values.resize(nnz);
  std::vector<std::int64_t> next(out_ptr.begin(), out_ptr.end() - 1);
  for (std::size_t r = 0; r < outer_count; ++r) {
    for (auto k = outer_ptr[r]; k < outer_ptr[r + 1]; ++k) {
      const auto src = static_cast<std::size_t>(k);
      const auto dst = static_cast<std::size_t>(next[static_cast<std::size_t>(index_at(src))]++);
      out_idx[dst] = static_cast<Index>(r);
      out_values[dst] = value_at(src);
    }
  }
}

// Prefetch hints for the start of row j's nonzeros, for a loop that visits
// rows out of order. Pointers, not m.values[start]: start is nnz for empty
// rows at the end, and the arrays are empty when every row is. Always
// inlined: GCC finds a function whose only effects are prefetches pure, and
// drops a call to it whose result is unused before it would inline it.
__attribute__((always_inline)) inline void prefetch_row(const CsrMatrix& m, std::size_t j) {
  const auto start = static_cast<std::size_t>(m.row_ptr[j]);
  __builtin_prefetch(m.values.data() + start);
  __builtin_prefetch(m.col_idx.data() + start);
}

// x_j'v for row j of `m`. O(nonzeros of the row).
inline double row_dot(const CsrMatrix& m, std::size_t j, const std::vector<double>& v) {
  double sum = 0;
  for (auto k = m.row_ptr[j]; k < m.row_ptr[j + 1]; ++k) {
    const auto t = static_cast<std::size_t>(k);
    sum += m.values[t] * v[m.col_idx[t]];
  }
  return sum;
}

// x_i'x_j for rows i and j of `m`, by merging the two sorted rows.
// O(nonzeros of both rows).
inline double rows_dot(const CsrMatrix& m, std::size_t i, std::size_t j) {
  auto a = m.row_ptr[i];
  auto b = m.row_ptr[j];
  const auto a_end = m.row_ptr[i + 1];
  const auto b_end = m.row_ptr[j + 1];
  double sum = 0;
  while (a < a_end && b < b_end) {
    const auto ta = static_cast<std::size_t>(a);
    const auto tb = static_cast<std::size_t>(b);
    if (m.col_idx[ta] == m.col_idx[tb]) {
      sum += m.values[ta] * m.values[tb];
      ++a;
      ++b;
    } else if (m.col_idx[ta] < m.col_idx[tb]) {
      ++a;
    } else {
      ++b;
    }
  }
  return sum;
}

// |value| as the bits of a double, which order as the magnitudes do (a
// NaN's above infinity's): the readers keep the largest |value| so, with an
// integer max that never skips a NaN.
inline std::uint64_t magnitude_bits(double value) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  return bits & ~(std::uint64_t{1} << 63);
}
inline double magnitude_of_bits(std::uint64_t bits) {
  double value = 0;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

// ||x_j||^2 for row j of `m`. O(nonzeros of the row).
inline double row_squared_norm(const CsrMatrix& m, std::size_t j) {
  double sum = 0;
  for (auto k = m.row_ptr[j]; k < m.row_ptr[j + 1]; ++k) {
    const double value = m.values[static_cast<std::size_t>(k)];
    sum += value * value;
  }
  return sum;
}

// out += scale * x_j for row j of `m`. O(nonzeros of the row).
inline void add_row(const CsrMatrix& m, std::size_t j, double scale, std::vector<double>& out) {
  for (auto k = m.row_ptr[j]; k < m.row_ptr[j + 1]; ++k) {
    const auto t = static_cast<std::size_t>(k);
    out[m.col_idx[t]] += scale * m.values[t];
  }
}

// to_csc() of the first `num_cols` columns only; entries beyond are dropped
// (test features the model does not know).
CscMatrix to_csc(const CsrMatrix& rows, std::size_t num_cols);

// The inverse: row order from column order, for the solvers that walk rows
// (TRON, Pegasos). Each row's column numbers come out in increasing order.
CsrMatrix to_csr(const CscMatrix& columns);

// The sub-matrix made of the listed rows, renumbered 0..rows.size()-1 in the
// given order. `rows` must be strictly increasing. O(nnz + cols).
CscMatrix select_rows(const CscMatrix& matrix, const std::vector<std::size_t>& rows);

// Asks the system for transparent huge pages over a large buffer that is
// about to be filled and is then read at random (the margin objective's
// margins): one TLB entry for 2 MiB. A hint, ignored where unsupported.
//
// The readers do not ask it for the matrix. Its columns are read in order,
// where 2 MiB pages changed no CDPER epoch beyond the noise, and on a VM whose
// host takes back free memory they cost more than they save: a buffer first
// written a few idle seconds after the last run, and a whole `cdtrain -e
// 1000` on a 500 MB file, were slower in 2 MiB pages than in 4 KiB ones
// (measured at bd8d517; docs/checks.md).
void advise_huge_pages(void* data, std::size_t bytes);

// Appends a column whose every entry is `value` (LIBLINEAR's bias feature).
void append_constant_column(CscMatrix& matrix, double value);

}  // namespace cdl

#endif  // CDL_SPARSE_MATRIX_H_
