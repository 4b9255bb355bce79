// CsrFile: a LIBSVM file read into rows (read_libsvm_rows) and shown as
// CSR arrays, with no copy.
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "api/internal.h"
#include "cdlinear.h"
#include "data/input_file.h"
#include "data/libsvm_reader.h"
#include "data/sparse_matrix.h"

namespace cdlinear {

struct CsrFile::Impl {
  cdl::LabeledRows rows;
};

CsrFile CsrFile::read(const std::string& path, unsigned threads) {
  return translating_errors([&] {
    cdl::ReadOptions options;
    options.threads = threads;
    auto impl = std::make_shared<Impl>();
    impl->rows = cdl::read_libsvm_rows(path, options);
    // The indices are shown as int32, scipy's for a matrix of this size.
    static_assert(sizeof(cdl::Index) == sizeof(std::int32_t), "indices are 32 bits");
    if (impl->rows.features.num_cols >
        static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max())) {
      throw cdl::DataError(cdl::input_name(path) +
                           ": a feature index above 2147483647 does not "
                           "fit a CSR matrix's 32-bit column indices");
    }
    return CsrFile(std::move(impl));
  });
}

std::size_t CsrFile::rows() const { return impl_->rows.features.num_rows; }
std::size_t CsrFile::cols() const { return impl_->rows.features.num_cols; }
std::size_t CsrFile::nnz() const { return impl_->rows.features.nnz(); }
const std::int64_t* CsrFile::indptr() const { return impl_->rows.features.row_ptr.data(); }
const std::int32_t* CsrFile::indices() const {
  return reinterpret_cast<const std::int32_t*>(impl_->rows.features.col_idx.data());
}
const double* CsrFile::values() const { return impl_->rows.features.values.data(); }
const std::vector<double>& CsrFile::labels() const { return impl_->rows.labels; }

}  // namespace cdlinear
