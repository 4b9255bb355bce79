#include "data/sparse_matrix.h"

#include <sys/mman.h>

#include <cassert>
#include <cstdint>

namespace cdl {

namespace {

// to_csc() and to_csr() of Buffers.
void transpose(std::size_t outer_count, std::size_t inner_count,
               const std::vector<std::int64_t>& outer_ptr, const Buffer<Index>& inner_idx,
               const Buffer<double>& values, std::vector<std::int64_t>& out_ptr,
               Buffer<Index>& out_idx, Buffer<double>& out_values) {
  transpose_into(
      outer_count, inner_count, outer_ptr, inner_idx.size(),
      [&](std::size_t k) { return inner_idx[k]; }, [&](std::size_t k) { return values[k]; },
      out_ptr, out_idx, out_values);
}

}  // namespace

CscMatrix to_csc(const CsrMatrix& rows) {
  CscMatrix out;
  out.num_rows = rows.num_rows;
  out.num_cols = rows.num_cols;
  transpose(rows.num_rows, rows.num_cols, rows.row_ptr, rows.col_idx, rows.values, out.col_ptr,
            out.row_idx, out.values);
  return out;
}

CscMatrix to_csc(const CsrMatrix& rows, std::size_t num_cols) {
  CsrMatrix kept;
  kept.num_rows = rows.num_rows;
  kept.num_cols = num_cols;
  for (std::size_t r = 0; r < rows.num_rows; ++r) {
    for (auto k = rows.row_ptr[r]; k < rows.row_ptr[r + 1]; ++k) {
      const auto t = static_cast<std::size_t>(k);
      if (rows.col_idx[t] >= num_cols) continue;
      kept.col_idx.push_back(rows.col_idx[t]);
      kept.values.push_back(rows.values[t]);
    }
    kept.row_ptr.push_back(static_cast<std::int64_t>(kept.values.size()));
  }
  return to_csc(kept);
}

CsrMatrix to_csr(const CscMatrix& columns) {
  CsrMatrix out;
  out.num_rows = columns.num_rows;
  out.num_cols = columns.num_cols;
  transpose(columns.num_cols, columns.num_rows, columns.col_ptr, columns.row_idx, columns.values,
            out.row_ptr, out.col_idx, out.values);
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

void advise_huge_pages(void* data, std::size_t bytes) {
  constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
  const auto address = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t first = (address + kHuge - 1) & ~(kHuge - 1);
  const std::uintptr_t last = (address + bytes) & ~(kHuge - 1);
  if (last > first) ::madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
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
