#include "sparse_matrix.h"

#include <cassert>

namespace cdl {

CscMatrix to_csc(const CsrMatrix& rows) {
  CscMatrix out;
  out.num_rows = rows.num_rows;
  out.num_cols = rows.num_cols;
  out.col_ptr.assign(rows.num_cols + 1, 0);
  for (Index c : rows.col_idx) ++out.col_ptr[c + 1];
  for (std::size_t c = 0; c < rows.num_cols; ++c) out.col_ptr[c + 1] += out.col_ptr[c];
  out.row_idx.resize(rows.nnz());
  out.values.resize(rows.nnz());
  std::vector<std::int64_t> next(out.col_ptr.begin(), out.col_ptr.end() - 1);
  for (std::size_t r = 0; r < rows.num_rows; ++r) {
    for (auto k = rows.row_ptr[r]; k < rows.row_ptr[r + 1]; ++k) {
      const auto src = static_cast<std::size_t>(k);
      const auto dst = static_cast<std::size_t>(next[rows.col_idx[src]]++);
      out.row_idx[dst] = static_cast<Index>(r);
      out.values[dst] = rows.values[src];
    }
  }
  return out;
}

CscMatrix select_rows(const CscMatrix& matrix, const std::vector<std::size_t>& rows) {
  constexpr Index kDropped = static_cast<Index>(-1);
  std::vector<Index> new_index(matrix.num_rows, kDropped);
  for (std::size_t k = 0; k < rows.size(); ++k) {
    assert(rows[k] < matrix.num_rows && (k == 0 || rows[k - 1] < rows[k]));
    new_index[rows[k]] = static_cast<Index>(k);
  }
  CscMatrix out;
  out.num_rows = rows.size();
  out.num_cols = matrix.num_cols;
  out.col_ptr.assign(matrix.num_cols + 1, 0);
  std::size_t kept = 0;
  for (Index r : matrix.row_idx) kept += new_index[r] != kDropped;
  out.row_idx.reserve(kept);
  out.values.reserve(kept);
  for (std::size_t c = 0; c < matrix.num_cols; ++c) {
    for (auto k = matrix.col_ptr[c]; k < matrix.col_ptr[c + 1]; ++k) {
      const Index r = new_index[matrix.row_idx[static_cast<std::size_t>(k)]];
      if (r == kDropped) continue;
      out.row_idx.push_back(r);
      out.values.push_back(matrix.values[static_cast<std::size_t>(k)]);
    }
    out.col_ptr[c + 1] = static_cast<std::int64_t>(out.values.size());
  }
  return out;
}

void append_constant_column(CscMatrix& matrix, double value) {
  matrix.row_idx.reserve(matrix.nnz() + matrix.num_rows);
  matrix.values.reserve(matrix.nnz() + matrix.num_rows);
  for (std::size_t r = 0; r < matrix.num_rows; ++r) {
    matrix.row_idx.push_back(static_cast<Index>(r));
    matrix.values.push_back(value);
  }
  matrix.col_ptr.push_back(static_cast<std::int64_t>(matrix.nnz()));
  ++matrix.num_cols;
}

}  // namespace cdl
