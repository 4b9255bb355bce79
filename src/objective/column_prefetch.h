// Prefetch hints for coordinate i of a CD objective stored by columns
// (MarginObjective, RegressionObjective), in the order a look-ahead needs
// them: the column's pointers and the weight w_i, then the start of its
// column data, then the per-row values (margins or scores) of its first
// rows. solver_cd.cpp issues them a few coordinates ahead.
#ifndef CDL_OBJECTIVE_COLUMN_PREFETCH_H_
#define CDL_OBJECTIVE_COLUMN_PREFETCH_H_

#include <algorithm>
#include <cstddef>

#include "data/sparse_matrix.h"

namespace cdl {
namespace column_prefetch {

// Rows whose per-row values rows() touches, from the column's start: the
// short columns of text whole, the first lines of a long one (the hardware
// prefetcher follows its indices).
constexpr std::size_t kRows = 16;

// Inside a long column, a derivative pass fetches the per-row values of the
// nonzero this many places ahead (the rows beyond kRows); the hardware
// prefetcher cannot, since the rows are scattered.
constexpr std::size_t kInColumnAhead = 32;

inline void coordinate(const CscMatrix& x, const double* w, std::size_t i) {
  __builtin_prefetch(&x.col_ptr[i]);
  __builtin_prefetch(&w[i], 1);
}

// Pointers, not x.row_idx[k]: k is nnz for empty columns at the end, and
// the arrays are empty when every column is.
inline void column(const CscMatrix& x, std::size_t i) {
  const auto k = static_cast<std::size_t>(x.col_ptr[i]);
  __builtin_prefetch(x.row_idx.data() + k);
  __builtin_prefetch(x.values.data() + k);
}

inline void rows(const CscMatrix& x, const double* per_row, std::size_t i) {
  const Index* rows = x.row_idx.data();
  const auto begin = static_cast<std::size_t>(x.col_ptr[i]);
  const std::size_t stop = std::min(static_cast<std::size_t>(x.col_ptr[i + 1]), begin + kRows);
  for (std::size_t k = begin; k < stop; ++k) __builtin_prefetch(&per_row[rows[k]], 1);
}

// At nonzero k of a column that ends at `stop`: the per-row values of the
// nonzero kInColumnAhead places ahead, from each of the per-row arrays.
template <class... PerRow>
inline void ahead_in_column(const Index* rows, std::size_t k, std::size_t stop,
                            const PerRow*... per_row) {
  if (k + kInColumnAhead < stop) {
    const std::size_t j = rows[k + kInColumnAhead];
    (__builtin_prefetch(&per_row[j]), ...);
  }
}

}  // namespace column_prefetch
}  // namespace cdl

#endif  // CDL_OBJECTIVE_COLUMN_PREFETCH_H_
