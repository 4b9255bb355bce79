// Data::from_csr and Data::from_csc: a caller's compressed sparse arrays,
// checked whole and then copied into the core's matrices.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "api/internal.h"
#include "cdlinear.h"
#include "data/sparse_matrix.h"

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
// indices and values, the largest |value|.
struct Compressed {
  std::vector<std::int64_t> offsets;
  cdl::Buffer<cdl::Index> indices;
  cdl::Buffer<double> values;
  double largest_magnitude = 0;
};

// Checks `x` as a matrix compressed along `outer` (its size) over `inner`
// and copies it; throws ArrayError naming the first fault.
Compressed compress(const SparseArrays& x, const Layout& layout, std::size_t outer,
                    std::size_t inner) {
  const std::string name = layout.name;
  if (x.rows > cdl::kMaxDimension || x.cols > cdl::kMaxDimension) {
    throw ArrayError(name + " shape " + std::to_string(x.rows) + " x " + std::to_string(x.cols) +
                     ": at most " + std::to_string(cdl::kMaxDimension) +
                     " rows and columns are supported");
  }
  if (x.rows == 0) throw ArrayError(name + ": no instance (rows is 0)");
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
  out.indices.resize(x.nnz);
  out.values.resize(x.nnz);
  std::uint64_t largest = 0;
  for (std::size_t r = 0; r < outer; ++r) {
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
      out.indices[k] = static_cast<cdl::Index>(index);
      out.values[k] = value;
      largest = std::max(largest, cdl::magnitude_bits(value));
    }
  }
  out.largest_magnitude = cdl::magnitude_of_bits(largest);
  return out;
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
                                       double largest_magnitude) {
  check_targets(layout.name, rows, labels, weights);
  auto impl = std::make_shared<Data::Impl>();
  impl->name = std::string("(") + layout.name + " arrays)";
  impl->from_file = false;
  impl->csc.labels = std::move(labels);
  impl->csc.largest_magnitude = largest_magnitude;
  impl->weights = std::move(weights);
  return impl;
}

}  // namespace

Data Data::from_csr(const SparseArrays& x, std::vector<double> labels,
                    std::vector<double> instance_weights) {
  return translating_errors([&] {
    Compressed rows = compress(x, kCsr, x.rows, x.cols);
    auto impl = array_data(kCsr, x.rows, std::move(labels), std::move(instance_weights),
                           rows.largest_magnitude);
    cdl::CsrMatrix csr;
    csr.num_rows = x.rows;
    csr.num_cols = x.cols;
    csr.row_ptr = std::move(rows.offsets);
    csr.col_idx = std::move(rows.indices);
    csr.values = std::move(rows.values);
    impl->csc.features = cdl::to_csc(csr);
    impl->set_rows(std::move(csr));
    return Access::make_data(std::move(impl));
  });
}

Data Data::from_csc(const SparseArrays& x, std::vector<double> labels,
                    std::vector<double> instance_weights) {
  return translating_errors([&] {
    Compressed columns = compress(x, kCsc, x.cols, x.rows);
    auto impl = array_data(kCsc, x.rows, std::move(labels), std::move(instance_weights),
                           columns.largest_magnitude);
    cdl::CscMatrix& csc = impl->csc.features;
    csc.num_rows = x.rows;
    csc.num_cols = x.cols;
    csc.col_ptr = std::move(columns.offsets);
    csc.row_idx = std::move(columns.indices);
    csc.values = std::move(columns.values);
    return Access::make_data(std::move(impl));
  });
}

}  // namespace cdlinear
