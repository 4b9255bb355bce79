// libFuzzer target: Data::from_csr and Data::from_csc on fuzzed arrays,
// then, for arrays they take, instance(), training for 2 outer iterations
// and prediction. The input is
//
//   flags rows cols nnz  indptr  indices  values  labels  [weights]
//
// with flags' bits: 1 CSC, 2 int64 indptr, 4 int64 indices, 8 float32
// values, 16 instance weights; rows, cols and nnz one byte each (below 16,
// 16 and 64); indptr and indices in their width, values in theirs, raw, so
// that the checks meet every bit pattern; one signed byte per label and one
// byte per weight (in sixteenths). A short input ends the run. The arrays
// may be refused only with ArrayError; the Data they make must hold indices
// in range and increasing, and training may fail only with an Error of the
// interface (a label that is not an integer, values too large).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cdlinear.h"
#include "fuzz_util.h"

namespace {

// Reads the input front to back.
class Bytes {
 public:
  Bytes(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  // Copies `bytes` bytes to `out`; false if the input is shorter.
  bool take(void* out, std::size_t bytes) {
    if (size_ - used_ < bytes) return false;
    if (bytes > 0) std::memcpy(out, data_ + used_, bytes);
    used_ += bytes;
    return true;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t used_ = 0;
};

// An index array of either width, as raw bytes.
std::vector<std::uint8_t> index_array(Bytes& in, std::size_t count, bool wide, bool& ok) {
  std::vector<std::uint8_t> out(count * (wide ? 8 : 4) + 8);
  ok = ok && in.take(out.data(), count * (wide ? 8 : 4));
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Bytes in(data, size);
  std::uint8_t head[4];
  if (!in.take(head, sizeof head)) return 0;
  const bool csc = (head[0] & 1) != 0;
  const std::size_t rows = head[1] % 16;
  const std::size_t cols = head[2] % 16;
  const std::size_t nnz = head[3] % 64;
  cdlinear::SparseArrays x;
  x.rows = rows;
  x.cols = cols;
  x.nnz = nnz;
  x.indptr_type = (head[0] & 2) != 0 ? cdlinear::IndexType::kInt64 : cdlinear::IndexType::kInt32;
  x.indices_type = (head[0] & 4) != 0 ? cdlinear::IndexType::kInt64 : cdlinear::IndexType::kInt32;
  x.value_type = (head[0] & 8) != 0 ? cdlinear::ValueType::kFloat32 : cdlinear::ValueType::kFloat64;
  bool ok = true;
  const std::vector<std::uint8_t> indptr =
      index_array(in, (csc ? cols : rows) + 1, (head[0] & 2) != 0, ok);
  const std::vector<std::uint8_t> indices = index_array(in, nnz, (head[0] & 4) != 0, ok);
  std::vector<std::uint8_t> values(nnz * 8 + 8);
  ok = ok && in.take(values.data(), nnz * ((head[0] & 8) != 0 ? 4 : 8));
  std::vector<double> labels(rows);
  std::vector<double> weights;
  for (std::size_t j = 0; ok && j < rows; ++j) {
    std::int8_t label = 0;
    ok = in.take(&label, 1);
    labels[j] = label;
  }
  for (std::size_t j = 0; ok && (head[0] & 16) != 0 && j < rows; ++j) {
    std::uint8_t weight = 0;
    ok = in.take(&weight, 1);
    weights.push_back(weight / 16.0);
  }
  if (!ok) return 0;
  // The arrays in aligned storage of their element types.
  std::vector<std::int64_t> indptr_storage(indptr.size() / 8 + 1);
  std::vector<std::int64_t> indices_storage(indices.size() / 8 + 1);
  std::vector<double> values_storage(values.size() / 8 + 1);
  std::memcpy(indptr_storage.data(), indptr.data(), indptr.size());
  std::memcpy(indices_storage.data(), indices.data(), indices.size());
  std::memcpy(values_storage.data(), values.data(), values.size());
  x.indptr = indptr_storage.data();
  x.indices = indices_storage.data();
  x.values = values_storage.data();

  std::optional<cdlinear::Data> made;
  try {
    made = csc ? cdlinear::Data::from_csc(x, labels, weights)
               : cdlinear::Data::from_csr(x, labels, weights);
  } catch (const cdlinear::ArrayError&) {
    return 0;
  } catch (const std::exception& e) {
    cdl::fuzz::fail(std::string("refused with an error other than ArrayError: ") + e.what());
  }
  const cdlinear::Data& d = *made;
  if (d.size() != rows || d.num_features() != cols) cdl::fuzz::fail("shape differs");
  for (std::size_t r = 0; r < rows; ++r) {
    int previous = 0;
    for (const cdlinear::Feature& f : d.instance(r)) {
      if (f.index <= previous || f.index > static_cast<int>(cols) || !std::isfinite(f.value)) {
        cdl::fuzz::fail("an instance holds a bad feature");
      }
      previous = f.index;
    }
  }
  cdlinear::TrainOptions options;
  options.max_iter = 2;
  options.threads = 1;
  options.solver = (head[0] & 32) != 0 ? "dcd" : "cdper";
  try {
    const cdlinear::Model model = cdlinear::train(d, options);
    for (double w : model.weights()) {
      if (!std::isfinite(w)) cdl::fuzz::fail("a weight is not finite");
    }
    if (model.predict(d).size() != rows) cdl::fuzz::fail("predictions of another count");
  } catch (const cdlinear::ArrayError&) {
  } catch (const cdlinear::ConfigError&) {  // every instance weight 0
  } catch (const std::exception& e) {
    cdl::fuzz::fail(std::string("training failed: ") + e.what());
  }
  return 0;
}
