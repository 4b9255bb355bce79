// Data::from_csr and Data::from_csc: a caller's compressed sparse arrays,
// checked whole, and then used in place when they are in the layout of the
// core's matrices, or converted into them.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "api/internal.h"
#include "cdlinear.h"
#include "data/block_reader.h"
#include "data/libsvm_reader.h"
#include "data/sparse_matrix.h"
#include "util/parallel.h"

namespace cdlinear {

namespace {

// Element k of an index array of either width.
std::int64_t index_at(const void* array, IndexType type, std::size_t k) {
  if (type == IndexType::kInt32) return static_cast<const std::int32_t*>(array)[k];
  return static_cast<const std::int64_t*>(array)[k];
}

double value_at(const void* array, ValueType type, std::size_t k) {
  if (type == ValueType::kFloat32) return static_cast<const float*>(array)[k];
  return static_cast<const double*>(array)[k];
}

// The names of one compression: CSR's outer dimension is the rows.
struct Layout {
  const char* name;   // "CSR"
  const char* outer;  // "row"
  const char* inner;  // "column"
};
constexpr Layout kCsr{"CSR", "row", "column"};
constexpr Layout kCsc{"CSC", "column", "row"};

// The checked arrays in the core's storage: outer + 1 offsets, nnz inner
// indices and values (the caller's, borrowed, or converted), the largest
// |value|.
struct Compressed {
  std::vector<std::int64_t> offsets;
  cdl::Buffer<cdl::Index> indices;
  cdl::Buffer<double> values;
  double largest_magnitude = 0;
  bool borrowed = false;
};

// Whether the matrix may use `x`'s indices and values in place: they are
// in the layout of the core's matrices, float64 values and 32-bit indices
// (read as Index once checked to be >= 0). The offsets are always copied:
// outer + 1 of them, few beside the nonzeros.
bool borrowable(const SparseArrays& x) {
  return !x.copy && x.nnz > 0 && x.value_type == ValueType::kFloat64 &&
         x.indices_type == IndexType::kInt32;
}

}  // namespace

void check_array_memory(const std::string& name, const SparseArrays& x, bool rows, bool borrowed,
                        double memory) {
  constexpr double kOffset = 8;
  constexpr double kNonzero = 12;
  const auto outer = static_cast<double>(x.rows) + 1;
  const auto cols = static_cast<double>(x.cols) + 1;
  const auto nnz = static_cast<double>(x.nnz);
  const double bytes = (rows ? kOffset * (outer + 2 * cols) : kOffset * cols) +
                       (rows || !borrowed ? kNonzero * nnz : 0);
  if (bytes > memory) {
    throw ArrayError(name + " shape " + std::to_string(x.rows) + " x " + std::to_string(x.cols) +
                     " with " + std::to_string(x.nnz) + " nonzeros needs " +
                     cdl::detail::format_bytes(bytes) + ", more than the " +
                     cdl::detail::format_bytes(memory) + " of memory here");
  }
}

namespace {

// Checks the entries of every outer index of `x`, whose offsets are
// out.offsets (checked), and, if `convert`, converts them into out's
// indices and values (of nnz elements); sets out.largest_magnitude. Large
// arrays are checked on every core, in blocks of about equal nonzeros; the
// error is the first fault in order, the one a single loop meets.
void check_entries(const SparseArrays& x, const Layout& layout, std::size_t inner, bool convert,
                   Compressed& out) {
  constexpr std::size_t kParallelNonzeros = std::size_t{1} << 20;
  const std::size_t outer = out.offsets.size() - 1;
  const unsigned threads = x.nnz >= kParallelNonzeros ? cdl::hardware_threads() : 1;
  const std::size_t blocks = threads == 1 ? 1 : std::size_t{8} * threads;
  // Block b: the outer indices whose entries start in [b, b + 1) * nnz / blocks.
  std::vector<std::size_t> first(blocks + 1, outer);
  first[0] = 0;
  for (std::size_t b = 1; b < blocks; ++b) {
    const auto start = static_cast<std::int64_t>(b * (x.nnz / blocks));
    first[b] = static_cast<std::size_t>(
        std::lower_bound(out.offsets.begin(), out.offsets.end() - 1, start) - out.offsets.begin());
  }
  cdl::Index* indices = convert ? out.indices.data() : nullptr;
  double* values = convert ? out.values.data() : nullptr;
  const std::string prefix = std::string(layout.name) + " " + layout.outer + " ";
  std::vector<std::uint64_t> largest(blocks, 0);
  cdl::run_tasks_or_throw(blocks, threads, [&](std::size_t b) {
    std::uint64_t block_largest = 0;
    for (std::size_t r = first[b]; r < first[b + 1]; ++r) {
      const auto begin = static_cast<std::size_t>(out.offsets[r]);
      const auto end = static_cast<std::size_t>(out.offsets[r + 1]);
      std::int64_t previous = -1;
      for (std::size_t k = begin; k < end; ++k) {
        const std::int64_t index = index_at(x.indices, x.indices_type, k);
        const double value = value_at(x.values, x.value_type, k);
        const auto where = [&] {
          return prefix + std::to_string(r) + ", entry " + std::to_string(k - begin) + ": ";
        };
        if (index < 0) {
          throw ArrayError(where() + layout.inner + " index " + std::to_string(index) +
                           " is negative");
        }
        if (static_cast<std::uint64_t>(index) >= inner) {
          throw ArrayError(where() + layout.inner + " index " + std::to_string(index) +
                           " is not below the " + std::to_string(inner) + " " + layout.inner + "s");
        }
        if (index <= previous) {
          throw ArrayError(where() + layout.inner + " index " + std::to_string(index) +
                           " not greater than the previous index " + std::to_string(previous));
        }
        if (!std::isfinite(value)) {
          throw ArrayError(where() + "value " + show(value) + " is not finite");
        }
        previous = index;
        if (values != nullptr) {
          indices[k] = static_cast<cdl::Index>(index);
          values[k] = value;
        }
        block_largest = std::max(block_largest, cdl::magnitude_bits(value));
      }
    }
    largest[b] = block_largest;
  });
  out.largest_magnitude = cdl::magnitude_of_bits(*std::max_element(largest.begin(), largest.end()));
}

// Checks `x` as a matrix compressed along `outer` (its size) over `inner`,
// and borrows it if borrowable(), or else converts it if `convert`; throws
// ArrayError naming the first fault.
Compressed compress(const SparseArrays& x, const Layout& layout, std::size_t outer,
                    std::size_t inner, bool convert) {
  const std::string name = layout.name;
  if (x.rows > cdl::kMaxDimension || x.cols > cdl::kMaxDimension) {
    throw ArrayError(name + " shape " + std::to_string(x.rows) + " x " + std::to_string(x.cols) +
                     ": at most " + std::to_string(cdl::kMaxDimension) +
                     " rows and columns are supported");
  }
  if (x.rows == 0) throw ArrayError(name + ": no instance (rows is 0)");
  const bool borrow = borrowable(x);
  check_array_memory(name, x, &layout == &kCsr, borrow,
                     static_cast<double>(cdl::available_memory()));
  if (x.indptr == nullptr) throw ArrayError(name + ": indptr is null");
  if (x.nnz > 0 && (x.indices == nullptr || x.values == nullptr)) {
    throw ArrayError(name + ": indices or values is null with nnz " + std::to_string(x.nnz));
  }
  const std::string prefix = name + " " + layout.outer + " ";
  Compressed out;
  out.offsets.resize(outer + 1);
  for (std::size_t r = 0; r <= outer; ++r) out.offsets[r] = index_at(x.indptr, x.indptr_type, r);
  if (out.offsets[0] != 0) {
    throw ArrayError(name + ": indptr[0] is " + std::to_string(out.offsets[0]) + ", not 0");
  }
  for (std::size_t r = 0; r < outer; ++r) {
    if (out.offsets[r + 1] < out.offsets[r]) {
      throw ArrayError(prefix + std::to_string(r) + ": indptr[" + std::to_string(r + 1) +
                       "] = " + std::to_string(out.offsets[r + 1]) + " is less than indptr[" +
                       std::to_string(r) + "] = " + std::to_string(out.offsets[r]));
    }
  }
  if (out.offsets[outer] != static_cast<std::int64_t>(x.nnz)) {
    throw ArrayError(name + ": indptr[" + std::to_string(outer) + "] is " +
                     std::to_string(out.offsets[outer]) + ", not nnz = " + std::to_string(x.nnz));
  }
  if (borrow) {
    // int32 and Index are a signed type and its unsigned one, which may
    // alias; check_entries() refuses the negative ones.
    out.indices = cdl::buffer_borrowing(static_cast<const cdl::Index*>(x.indices), x.nnz);
    out.values = cdl::buffer_borrowing(static_cast<const double*>(x.values), x.nnz);
    out.borrowed = true;
  } else if (convert) {
    out.indices.resize(x.nnz);
    out.values.resize(x.nnz);
  }
  check_entries(x, layout, inner, convert && !borrow, out);
  return out;
}

// The columns of checked CSR arrays `x`, whose offsets are `row_ptr`, by
// one transposition that converts the indices and values as it reads them.
cdl::CscMatrix columns_of(const SparseArrays& x, const std::vector<std::int64_t>& row_ptr) {
  cdl::CscMatrix columns;
  columns.num_rows = x.rows;
  columns.num_cols = x.cols;
  const auto transpose = [&](auto index_at, auto value_at) {
    cdl::transpose_into(x.rows, x.cols, row_ptr, x.nnz, index_at, value_at, columns.col_ptr,
                        columns.row_idx, columns.values);
  };
  const auto with_values = [&](auto index_at) {
    if (x.value_type == ValueType::kFloat32) {
      const auto* values = static_cast<const float*>(x.values);
      transpose(index_at, [values](std::size_t k) { return static_cast<double>(values[k]); });
    } else {
      const auto* values = static_cast<const double*>(x.values);
      transpose(index_at, [values](std::size_t k) { return values[k]; });
    }
  };
  if (x.indices_type == IndexType::kInt32) {
    const auto* indices = static_cast<const std::int32_t*>(x.indices);
    with_values([indices](std::size_t k) { return static_cast<cdl::Index>(indices[k]); });
  } else {
    const auto* indices = static_cast<const std::int64_t*>(x.indices);
    with_values([indices](std::size_t k) { return static_cast<cdl::Index>(indices[k]); });
  }
  return columns;
}

// Checks the labels and weights of `rows` instances; they are then the
// Data's.
void check_targets(const std::string& name, std::size_t rows, const std::vector<double>& labels,
                   const std::vector<double>& weights) {
  if (labels.size() != rows) {
    throw ArrayError(name + ": " + std::to_string(labels.size()) + " labels for " +
                     std::to_string(rows) + " rows");
  }
  for (std::size_t j = 0; j < rows; ++j) {
    if (!std::isfinite(labels[j])) {
      throw ArrayError("array row " + std::to_string(j) + ": label " + show(labels[j]) +
                       " is not finite");
    }
  }
  if (weights.empty()) return;
  if (weights.size() != rows) {
    throw ArrayError(name + ": " + std::to_string(weights.size()) + " instance weights for " +
                     std::to_string(rows) + " rows");
  }
  for (std::size_t j = 0; j < rows; ++j) {
    if (!(weights[j] >= 0) || !std::isfinite(weights[j])) {
      throw ArrayError("array row " + std::to_string(j) + ": instance weight " + show(weights[j]) +
                       " is not a finite number >= 0");
    }
  }
}

// The Data's storage of checked arrays, with their labels and weights
// (checked here); the caller fills csc.features.
std::shared_ptr<Data::Impl> array_data(const Layout& layout, std::size_t rows,
                                       std::vector<double> labels, std::vector<double> weights,
                                       double largest_magnitude, bool borrowed) {
  check_targets(layout.name, rows, labels, weights);
  auto impl = std::make_shared<Data::Impl>();
  impl->name = std::string("(") + layout.name + " arrays)";
  impl->from_file = false;
  impl->csc.labels = std::move(labels);
  impl->csc.largest_magnitude = largest_magnitude;
  impl->weights = std::move(weights);
  impl->borrowed = borrowed;
  return impl;
}

}  // namespace

Data Data::from_csr(const SparseArrays& x, std::vector<double> labels,
                    std::vector<double> instance_weights) {
  return translating_errors([&] {
    // Borrowed, or checked only: the columns are converted as they are made.
    Compressed rows = compress(x, kCsr, x.rows, x.cols, false);
    auto impl = array_data(kCsr, x.rows, std::move(labels), std::move(instance_weights),
                           rows.largest_magnitude, rows.borrowed);
    impl->csc.features = columns_of(x, rows.offsets);
    if (rows.borrowed) {  // kept for instance() and prediction, at no cost
      cdl::CsrMatrix csr;
      csr.num_rows = x.rows;
      csr.num_cols = x.cols;
      csr.row_ptr = std::move(rows.offsets);
      csr.col_idx = std::move(rows.indices);
      csr.values = std::move(rows.values);
      impl->set_rows(std::move(csr));
    }
    return Access::make_data(std::move(impl));
  });
}

Data Data::from_csc(const SparseArrays& x, std::vector<double> labels,
                    std::vector<double> instance_weights) {
  return translating_errors([&] {
    Compressed columns = compress(x, kCsc, x.cols, x.rows, true);
    auto impl = array_data(kCsc, x.rows, std::move(labels), std::move(instance_weights),
                           columns.largest_magnitude, columns.borrowed);
    cdl::CscMatrix& csc = impl->csc.features;
    csc.num_rows = x.rows;
    csc.num_cols = x.cols;
    csc.col_ptr = std::move(columns.offsets);
    csc.row_idx = std::move(columns.indices);
    csc.values = std::move(columns.values);
    return Access::make_data(std::move(impl));
  });
}

bool Data::borrowed() const { return impl_->borrowed; }

}  // namespace cdlinear
