// Data::from_csr and Data::from_csc: arrays built here from data files train
// to the model bytes of Data::read() of the same file, in every index and
// value width, borrowed or copied, and every malformed array is refused
// with the place named.
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "api/internal.h"
#include "cdlinear.h"
#include "data/libsvm_reader.h"
#include "objective/loss.h"
#include "solvers/liblinear_numbers.h"
#include "test_util.h"
#include "text_arrays.h"
#include "util/file_pages.h"

namespace cdl {
namespace {

// A file's instances as 64-bit CSR and CSC arrays, parsed in the test.
using Arrays = test::TextArrays<std::int64_t, std::int64_t>;

Arrays parse(const std::string& path) {
  return test::text_arrays<std::int64_t, std::int64_t>(path);
}

template <class T>
std::vector<T> narrow(const std::vector<std::int64_t>& v) {
  return std::vector<T>(v.begin(), v.end());
}

cdlinear::SparseArrays view(std::size_t rows, std::size_t cols, const std::vector<double>& values,
                            const void* indptr, cdlinear::IndexType indptr_type,
                            const void* indices, cdlinear::IndexType indices_type) {
  cdlinear::SparseArrays x;
  x.rows = rows;
  x.cols = cols;
  x.nnz = values.size();
  x.indptr = indptr;
  x.indptr_type = indptr_type;
  x.indices = indices;
  x.indices_type = indices_type;
  x.values = values.data();
  return x;
}

constexpr auto k32 = cdlinear::IndexType::kInt32;
constexpr auto k64 = cdlinear::IndexType::kInt64;

struct Case {
  const char* name;
  std::string data;
  cdlinear::TrainOptions options;
};

cdlinear::TrainOptions options(const std::string& solver, const std::string& loss, double bias) {
  cdlinear::TrainOptions o;
  o.solver = solver;
  o.loss = loss;
  o.bias = bias;
  return o;
}

TEST(Arrays, TrainToTheModelBytesOfTheFile) {
  const std::vector<Case> cases = {
      {"heart_scale", test::data_path("heart_scale"), cdlinear::TrainOptions{}},
      {"heart_scale_dcd_bias", test::data_path("heart_scale"), options("dcd", "l1svm", 1)},
      {"a9a_s0", test::data_path("a9a"), options("0", "", 1)},
      {"dna_multiclass", test::data_path("dna.scale"), options("2", "", 1)},
      {"diabetes_ridge", test::fixture_path("diabetes.svm"), options("cdper", "sq", 1)},
      {"diabetes_svr_tron", test::fixture_path("diabetes.svm"), options("tron", "svr2", -1)},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string expected =
        cdlinear::train(cdlinear::Data::read(c.data), c.options).to_string();
    const Arrays a = parse(c.data);
    const std::vector<std::int32_t> row_ptr32 = narrow<std::int32_t>(a.row_ptr);
    const std::vector<std::int32_t> col_idx32 = narrow<std::int32_t>(a.col_idx);
    const std::vector<std::int32_t> row_idx32 = narrow<std::int32_t>(a.row_idx);
    const cdlinear::Data csr64 = cdlinear::Data::from_csr(
        view(a.rows, a.cols, a.values, a.row_ptr.data(), k64, a.col_idx.data(), k64), a.labels);
    const cdlinear::Data csr32 = cdlinear::Data::from_csr(
        view(a.rows, a.cols, a.values, row_ptr32.data(), k32, col_idx32.data(), k32), a.labels);
    const cdlinear::Data csc = cdlinear::Data::from_csc(
        view(a.rows, a.cols, a.col_values, a.col_ptr.data(), k64, row_idx32.data(), k32), a.labels);
    for (const cdlinear::Data* data : {&csr64, &csr32, &csc}) {
      EXPECT_EQ(data->size(), a.rows);
      EXPECT_EQ(data->num_features(), a.cols);
      EXPECT_EQ(cdlinear::train(*data, c.options).to_string(), expected);
    }
    // The instances are the file's.
    const std::size_t row = a.rows / 2;
    const cdlinear::Instance x = csc.instance(row);
    ASSERT_EQ(x.size(), static_cast<std::size_t>(a.row_ptr[row + 1] - a.row_ptr[row]));
    for (std::size_t k = 0; k < x.size(); ++k) {
      const auto t = static_cast<std::size_t>(a.row_ptr[row]) + k;
      EXPECT_EQ(x[k].index, a.col_idx[t] + 1);
      EXPECT_EQ(x[k].value, a.values[t]);
    }
  }
}

TEST(Arrays, InstanceWeightsOfTheDataAreTrainOptionsWeights) {
  const Arrays a = parse(test::data_path("heart_scale"));
  std::vector<double> weights;
  for (std::size_t j = 0; j < a.rows; ++j) weights.push_back(static_cast<double>(j % 3) * 0.5);
  cdlinear::TrainOptions o = options("dcd", "l1svm", -1);
  const auto x = view(a.rows, a.cols, a.values, a.row_ptr.data(), k64, a.col_idx.data(), k64);
  const cdlinear::Data own = cdlinear::Data::from_csr(x, a.labels, weights);
  EXPECT_EQ(own.instance_weights(), weights);
  const std::string with_own = cdlinear::train(own, o).to_string();
  o.instance_weights = weights;
  EXPECT_EQ(cdlinear::train(cdlinear::Data::from_csr(x, a.labels), o).to_string(), with_own);
  EXPECT_THROW(cdlinear::train(own, o), cdlinear::ConfigError);  // two sets
  o.instance_weights.clear();
  EXPECT_NE(cdlinear::train(cdlinear::Data::from_csr(x, a.labels), o).to_string(), with_own);
}

TEST(Arrays, Float32ValuesAreWidened) {
  const Arrays a = parse(test::data_path("heart_scale"));
  std::vector<float> narrow_values(a.values.begin(), a.values.end());
  std::vector<double> widened(narrow_values.begin(), narrow_values.end());
  cdlinear::SparseArrays x =
      view(a.rows, a.cols, a.values, a.row_ptr.data(), k64, a.col_idx.data(), k64);
  x.values = narrow_values.data();
  x.value_type = cdlinear::ValueType::kFloat32;
  cdlinear::SparseArrays wide = x;
  wide.values = widened.data();
  wide.value_type = cdlinear::ValueType::kFloat64;
  const cdlinear::Model from_float = cdlinear::train(cdlinear::Data::from_csr(x, a.labels));
  EXPECT_EQ(from_float.to_string(),
            cdlinear::train(cdlinear::Data::from_csr(wide, a.labels)).to_string());
  EXPECT_EQ(cdlinear::Data::from_csr(x, a.labels).instance(0)[0].value, widened[0]);
}

// A tiny 3 x 4 matrix, CSR:  row 0: (0, 1) (2, 2); row 1: none; row 2: (1, 3) (3, 4).
struct Tiny {
  std::vector<std::int64_t> indptr{0, 2, 2, 4};
  std::vector<std::int64_t> indices{0, 2, 1, 3};
  std::vector<double> values{1, 2, 3, 4};
  std::vector<double> labels{1, -1, 1};

  cdlinear::SparseArrays arrays() const {
    return view(3, 4, values, indptr.data(), k64, indices.data(), k64);
  }
};

// The message of the ArrayError that `make` throws.
template <class Make>
std::string refusal(Make make) {
  try {
    make();
  } catch (const cdlinear::ArrayError& e) {
    return e.what();
  }
  return "(no ArrayError)";
}

TEST(Arrays, TinyMatrixAsGiven) {
  const Tiny t;
  const cdlinear::Data data = cdlinear::Data::from_csr(t.arrays(), t.labels);
  EXPECT_EQ(data.name(), "(CSR arrays)");
  EXPECT_TRUE(data.instance(1).empty());
  ASSERT_EQ(data.instance(2).size(), 2u);
  EXPECT_EQ(data.instance(2)[1].index, 4);
  EXPECT_EQ(data.instance(2)[1].value, 4);
  // The same numbers as CSC: column 0: (0, 1); 1: (2, 3); 2: (0, 2); 3: (2, 4).
  const std::vector<std::int32_t> col_ptr{0, 1, 2, 3, 4};
  const std::vector<std::int32_t> row_idx{0, 2, 0, 2};
  const std::vector<double> col_values{1, 3, 2, 4};
  const cdlinear::Data csc = cdlinear::Data::from_csc(
      view(3, 4, col_values, col_ptr.data(), k32, row_idx.data(), k32), t.labels);
  for (std::size_t r = 0; r < 3; ++r) {
    ASSERT_EQ(csc.instance(r).size(), data.instance(r).size());
    for (std::size_t k = 0; k < csc.instance(r).size(); ++k) {
      EXPECT_EQ(csc.instance(r)[k].index, data.instance(r)[k].index);
      EXPECT_EQ(csc.instance(r)[k].value, data.instance(r)[k].value);
    }
  }
}

TEST(Arrays, MalformedArraysAreRefusedNamingThePlace) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto csr = [](const Tiny& t) {
    return refusal([&] { cdlinear::Data::from_csr(t.arrays(), t.labels); });
  };
  Tiny t;
  t.indptr[0] = 1;
  EXPECT_EQ(csr(t), "CSR: indptr[0] is 1, not 0");
  t = Tiny{};
  t.indptr[2] = 1;
  EXPECT_EQ(csr(t), "CSR row 1: indptr[2] = 1 is less than indptr[1] = 2");
  t = Tiny{};
  t.indptr[3] = 3;
  EXPECT_EQ(csr(t), "CSR: indptr[3] is 3, not nnz = 4");
  t = Tiny{};
  t.indices[1] = -2;
  EXPECT_EQ(csr(t), "CSR row 0, entry 1: column index -2 is negative");
  t = Tiny{};
  t.indices[3] = 4;
  EXPECT_EQ(csr(t), "CSR row 2, entry 1: column index 4 is not below the 4 columns");
  t = Tiny{};
  t.indices[3] = std::int64_t{1} << 40;
  EXPECT_EQ(csr(t), "CSR row 2, entry 1: column index 1099511627776 is not below the 4 columns");
  t = Tiny{};
  t.indices[1] = 0;
  EXPECT_EQ(csr(t), "CSR row 0, entry 1: column index 0 not greater than the previous index 0");
  t = Tiny{};
  t.indices = {2, 0, 1, 3};
  EXPECT_EQ(csr(t), "CSR row 0, entry 1: column index 0 not greater than the previous index 2");
  t = Tiny{};
  t.values[2] = nan;
  EXPECT_EQ(csr(t), "CSR row 2, entry 0: value nan is not finite");
  t = Tiny{};
  t.values[3] = -std::numeric_limits<double>::infinity();
  EXPECT_EQ(csr(t), "CSR row 2, entry 1: value -inf is not finite");
  t = Tiny{};
  t.labels.pop_back();
  EXPECT_EQ(csr(t), "CSR: 2 labels for 3 rows");
  t = Tiny{};
  t.labels[1] = nan;
  EXPECT_EQ(csr(t), "array row 1: label nan is not finite");
  t = Tiny{};
  EXPECT_EQ(refusal([&] {
              cdlinear::Data::from_csr(t.arrays(), t.labels, {1, 1});
            }),
            "CSR: 2 instance weights for 3 rows");
  EXPECT_EQ(refusal([&] {
              cdlinear::Data::from_csr(t.arrays(), t.labels, {1, -1, 1});
            }),
            "array row 1: instance weight -1 is not a finite number >= 0");
  EXPECT_EQ(refusal([&] {
              cdlinear::Data::from_csr(t.arrays(), t.labels, {1, 1, nan});
            }),
            "array row 2: instance weight nan is not a finite number >= 0");
  cdlinear::SparseArrays x = t.arrays();
  x.cols = std::size_t{1} << 31;
  EXPECT_EQ(refusal([&] { cdlinear::Data::from_csr(x, t.labels); }),
            "CSR shape 3 x 2147483648: at most 2147483647 rows and columns are supported");
  x = t.arrays();
  x.rows = 0;
  EXPECT_EQ(refusal([&] { cdlinear::Data::from_csr(x, {}); }), "CSR: no instance (rows is 0)");
  x = t.arrays();
  x.indices = nullptr;
  EXPECT_EQ(refusal([&] { cdlinear::Data::from_csr(x, t.labels); }),
            "CSR: indices or values is null with nnz 4");
  x = t.arrays();
  x.values = nullptr;
  EXPECT_EQ(refusal([&] { cdlinear::Data::from_csr(x, t.labels); }),
            "CSR: indices or values is null with nnz 4");
  x = t.arrays();
  x.indptr = nullptr;
  EXPECT_EQ(refusal([&] { cdlinear::Data::from_csr(x, t.labels); }), "CSR: indptr is null");
  EXPECT_EQ(refusal([&] { cdlinear::Data::from_csc(x, t.labels); }), "CSC: indptr is null");
  // Without nonzeros the values and indices are not read: null will do.
  const std::vector<std::int32_t> empty_rows(4, 0);
  x = t.arrays();
  x.nnz = 0;
  x.indptr = empty_rows.data();
  x.indptr_type = k32;
  x.indices = nullptr;
  x.values = nullptr;
  EXPECT_EQ(cdlinear::Data::from_csr(x, t.labels).size(), 3u);
  // CSC names the column.
  const std::vector<std::int32_t> col_ptr{0, 1, 2, 3, 4};
  const std::vector<std::int32_t> row_idx{0, 3, 0, 2};
  const std::vector<double> col_values{1, 3, 2, 4};
  EXPECT_EQ(refusal([&] {
              cdlinear::Data::from_csc(
                  view(3, 4, col_values, col_ptr.data(), k32, row_idx.data(), k32), t.labels);
            }),
            "CSC column 1, entry 0: row index 3 is not below the 3 rows");
}

// 2147483647 columns from a few bytes of arrays: the transposition to
// columns would zero-fill 2^31 offsets and as many cursors (16 bytes a
// column, 32 GiB). The check refuses them before anything is allocated
// where the memory is less, as the file reader refuses such an index: with
// a budget of 16 GiB it refuses, with 64 GiB it lets them through; and
// Data::from_csr refuses them on a machine with less than 32 GiB.
TEST(Arrays, ColumnsBeyondTheMemoryAreRefusedBeforeAllocating) {
  constexpr std::size_t kCols = 2147483647;
  const std::vector<std::int32_t> indptr{0, 1};
  const std::vector<std::int32_t> indices{static_cast<std::int32_t>(kCols - 1)};
  const std::vector<double> values{1};
  const cdlinear::SparseArrays x = view(1, kCols, values, indptr.data(), k32, indices.data(), k32);
  const std::string expected =
      "CSR shape 1 x 2147483647 with 1 nonzeros needs 32.0 GiB, more than the ";
  const double gib = 1024.0 * 1024.0 * 1024.0;
  const std::string budget =
      refusal([&] { cdlinear::check_array_memory("CSR", x, true, true, 16 * gib); });
  EXPECT_EQ(budget, expected + "16.0 GiB of memory here");
  EXPECT_NO_THROW(cdlinear::check_array_memory("CSR", x, true, true, 64 * gib));
  if (16.0 * (kCols + 1.0) > static_cast<double>(available_memory())) {
    const std::string message = refusal([&] { cdlinear::Data::from_csr(x, {1}); });
    EXPECT_EQ(message.rfind(expected, 0), 0u) << message;
  }
}

// A copy of `values` on pages that may only be read: a write to them, by
// anything that borrowed them, ends the test with SIGSEGV.
template <class T>
class ReadOnlyCopy {
 public:
  explicit ReadOnlyCopy(const std::vector<T>& values)
      : bytes_(std::max<std::size_t>(1, values.size() * sizeof(T))) {
    void* pages =
        ::mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (pages == MAP_FAILED) throw std::bad_alloc();
    std::memcpy(pages, values.data(), values.size() * sizeof(T));
    if (::mprotect(pages, bytes_, PROT_READ) != 0) {
      ::munmap(pages, bytes_);
      throw std::bad_alloc();
    }
    data_ = static_cast<T*>(pages);
  }
  ReadOnlyCopy(const ReadOnlyCopy&) = delete;
  ReadOnlyCopy& operator=(const ReadOnlyCopy&) = delete;
  ~ReadOnlyCopy() { ::munmap(data_, bytes_); }
  const T* data() const { return data_; }

 private:
  std::size_t bytes_;
  T* data_ = nullptr;
};

// What training on `data` gives: the model file's text, or the error.
std::string outcome(const cdlinear::Data& data, const cdlinear::TrainOptions& o) {
  try {
    return cdlinear::train(data, o).to_string();
  } catch (const cdlinear::Error& e) {
    return std::string("error: ") + e.what();
  }
}

// Every LIBLINEAR number this build solves (the solvers that read columns
// and those that read rows), with and without a bias column: float64 and
// int32 arrays on read-only pages are borrowed, never written, and train
// to the model bytes of the same arrays copied and of the file.
TEST(Arrays, BorrowedArraysTrainAsCopiesAndTheFileAndAreNeverWritten) {
  std::size_t compared = 0;
  for (const LiblinearNumber& entry : liblinear_numbers()) {
    LossKind loss{};
    try {
      loss = resolve_liblinear_number(entry.number).loss;
    } catch (const ConfigError&) {
      continue;  // a number no solver of this build lists
    }
    const bool regression = !has_classes(loss) && !is_one_class(loss);
    const std::string path =
        regression ? test::fixture_path("diabetes.svm") : test::data_path("heart_scale");
    const Arrays a = parse(path);
    const std::vector<std::int32_t> row_ptr32 = narrow<std::int32_t>(a.row_ptr);
    const std::vector<std::int32_t> col_idx32 = narrow<std::int32_t>(a.col_idx);
    const std::vector<std::int32_t> row_idx32 = narrow<std::int32_t>(a.row_idx);
    const ReadOnlyCopy<std::int32_t> col_idx(col_idx32);
    const ReadOnlyCopy<double> values(a.values);
    const ReadOnlyCopy<std::int32_t> row_idx(row_idx32);
    const ReadOnlyCopy<double> col_values(a.col_values);
    cdlinear::SparseArrays csr =
        view(a.rows, a.cols, a.values, row_ptr32.data(), k32, col_idx.data(), k32);
    csr.values = values.data();
    cdlinear::SparseArrays csc =
        view(a.rows, a.cols, a.col_values, a.col_ptr.data(), k64, row_idx.data(), k32);
    csc.values = col_values.data();
    cdlinear::SparseArrays csr_copy = csr;
    csr_copy.copy = true;
    cdlinear::SparseArrays csc_copy = csc;
    csc_copy.copy = true;
    const cdlinear::Data file = cdlinear::Data::read(path);
    const cdlinear::Data borrowed_rows = cdlinear::Data::from_csr(csr, a.labels);
    const cdlinear::Data borrowed_columns = cdlinear::Data::from_csc(csc, a.labels);
    const cdlinear::Data copied_rows = cdlinear::Data::from_csr(csr_copy, a.labels);
    const cdlinear::Data copied_columns = cdlinear::Data::from_csc(csc_copy, a.labels);
    EXPECT_TRUE(borrowed_rows.borrowed());
    EXPECT_TRUE(borrowed_columns.borrowed());
    EXPECT_FALSE(copied_rows.borrowed());
    EXPECT_FALSE(copied_columns.borrowed());
    EXPECT_FALSE(file.borrowed());
    // The one-class SVM has no bias feature.
    const std::vector<double> biases =
        is_one_class(loss) ? std::vector<double>{-1} : std::vector<double>{-1, 1};
    for (const double bias : biases) {
      SCOPED_TRACE("-s " + std::to_string(entry.number) + " -B " + std::to_string(bias));
      cdlinear::TrainOptions o;
      o.solver = std::to_string(entry.number);
      o.bias = bias;
      const std::string expected = outcome(file, o);
      EXPECT_EQ(expected.rfind("error: ", 0), std::string::npos) << expected;
      EXPECT_EQ(outcome(borrowed_rows, o), expected);
      EXPECT_EQ(outcome(borrowed_columns, o), expected);
      EXPECT_EQ(outcome(copied_rows, o), expected);
      EXPECT_EQ(outcome(copied_columns, o), expected);
      ++compared;
    }
    // Unchanged, as the read-only pages make sure; and still the file's.
    EXPECT_EQ(std::memcmp(values.data(), a.values.data(), a.values.size() * sizeof(double)), 0);
    EXPECT_EQ(std::memcmp(row_idx.data(), row_idx32.data(), row_idx32.size() * 4), 0);
  }
  EXPECT_GE(compared, std::size_t{20});
}

TEST(Arrays, OtherLayoutsAreConvertedAndFreedOnesForgotten) {
  const Arrays a = parse(test::data_path("heart_scale"));
  const std::vector<std::int32_t> col_idx32 = narrow<std::int32_t>(a.col_idx);
  const std::vector<float> narrow_values(a.values.begin(), a.values.end());
  cdlinear::SparseArrays x =
      view(a.rows, a.cols, a.values, a.row_ptr.data(), k64, col_idx32.data(), k32);
  {
    const cdlinear::Data borrowed = cdlinear::Data::from_csr(x, a.labels);
    EXPECT_TRUE(borrowed.borrowed());
    EXPECT_TRUE(is_borrowed_memory(a.values.data()));
    EXPECT_TRUE(is_borrowed_memory(col_idx32.data()));
    // A copy of the Data shares the borrowed matrix.
    const cdlinear::Data copy = borrowed;  // NOLINT(performance-unnecessary-copy-initialization)
    EXPECT_TRUE(copy.borrowed());
  }
  EXPECT_FALSE(is_borrowed_memory(a.values.data()));
  EXPECT_FALSE(is_borrowed_memory(col_idx32.data()));
  cdlinear::SparseArrays wide_indices = x;
  wide_indices.indices = a.col_idx.data();
  wide_indices.indices_type = k64;
  EXPECT_FALSE(cdlinear::Data::from_csr(wide_indices, a.labels).borrowed());
  cdlinear::SparseArrays float32 = x;
  float32.values = narrow_values.data();
  float32.value_type = cdlinear::ValueType::kFloat32;
  EXPECT_FALSE(cdlinear::Data::from_csr(float32, a.labels).borrowed());
  EXPECT_FALSE(is_borrowed_memory(col_idx32.data()));
}

TEST(Arrays, ABorrowedCsrWithABadIndexIsRefusedAndLeftAlone) {
  Tiny t;
  std::vector<std::int32_t> indices(t.indices.begin(), t.indices.end());
  indices[3] = 1;  // row 2: columns 1, 1
  cdlinear::SparseArrays x = t.arrays();
  x.indices = indices.data();
  x.indices_type = k32;
  EXPECT_EQ(refusal([&] { cdlinear::Data::from_csr(x, t.labels); }),
            "CSR row 2, entry 1: column index 1 not greater than the previous index 1");
  indices[3] = -3;
  EXPECT_EQ(refusal([&] { cdlinear::Data::from_csr(x, t.labels); }),
            "CSR row 2, entry 1: column index -3 is negative");
  EXPECT_FALSE(is_borrowed_memory(indices.data()));
  EXPECT_FALSE(is_borrowed_memory(t.values.data()));
}

// Arrays of more than 2^20 nonzeros are checked and converted on threads:
// the same matrix as a single loop makes, and the first fault in row order
// is the one named, wherever the other faults are.
TEST(Arrays, LargeArraysAreCheckedAndConvertedOnThreadsInOrder) {
  constexpr std::size_t kRows = 40000;
  constexpr std::size_t kCols = 5000;
  constexpr std::size_t kPerRow = 30;
  std::mt19937_64 random(7);
  std::vector<std::int64_t> indptr{0};
  std::vector<std::int64_t> indices;
  std::vector<float> values;
  std::vector<double> labels;
  for (std::size_t r = 0; r < kRows; ++r) {
    std::int64_t column = static_cast<std::int64_t>(random() % 100);
    for (std::size_t k = 0; k < kPerRow; ++k) {
      indices.push_back(column);
      values.push_back(static_cast<float>(random() % 1000) / 64.0f - 7.0f);
      column += 1 + static_cast<std::int64_t>(random() % 150);
    }
    indptr.push_back(static_cast<std::int64_t>(indices.size()));
    labels.push_back(r % 2 == 0 ? 1 : -1);
  }
  ASSERT_GT(indices.size(), std::size_t{1} << 20);
  ASSERT_LT(indices.back(), static_cast<std::int64_t>(kCols));
  cdlinear::SparseArrays x;
  x.rows = kRows;
  x.cols = kCols;
  x.nnz = indices.size();
  x.indptr = indptr.data();
  x.indices = indices.data();
  x.indices_type = k64;
  x.values = values.data();
  x.value_type = cdlinear::ValueType::kFloat32;
  const cdlinear::Data data = cdlinear::Data::from_csr(x, labels);
  EXPECT_FALSE(data.borrowed());
  for (const std::size_t r : {std::size_t{0}, kRows / 3, kRows - 1}) {
    const cdlinear::Instance instance = data.instance(r);
    ASSERT_EQ(instance.size(), kPerRow);
    for (std::size_t k = 0; k < kPerRow; ++k) {
      const std::size_t t = r * kPerRow + k;
      EXPECT_EQ(instance[k].index, indices[t] + 1);
      EXPECT_EQ(instance[k].value, static_cast<double>(values[t]));
    }
  }
  // Faults near the end and in the middle: the middle one is named.
  indices[(kRows - 2) * kPerRow + 4] = -1;
  values[(kRows / 2) * kPerRow + 3] = std::numeric_limits<float>::infinity();
  EXPECT_EQ(refusal([&] { cdlinear::Data::from_csr(x, labels); }),
            "CSR row " + std::to_string(kRows / 2) + ", entry 3: value inf is not finite");
}

TEST(Arrays, TrainingErrorsNameTheArrayRow) {
  Tiny t;
  t.labels[2] = 1.5;
  const cdlinear::Data data = cdlinear::Data::from_csr(t.arrays(), t.labels);
  EXPECT_EQ(refusal([&] { cdlinear::train(data); }),
            "array row 2: label 1.5 is not an integer class label");
  // A regression takes the same labels as targets.
  EXPECT_NO_THROW(cdlinear::train(data, options("cdper", "sq", -1)));
  Tiny huge;
  huge.values[3] = 1e300;
  EXPECT_THROW(cdlinear::train(cdlinear::Data::from_csr(huge.arrays(), huge.labels)),
               cdlinear::ArrayError);
}

}  // namespace
}  // namespace cdl
