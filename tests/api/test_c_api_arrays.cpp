// The C interface's data from CSR and CSC arrays (cdl_data_from_csr,
// cdl_data_from_csc), built here from data files: cdtrain's models in every
// index and value width, decision values that are w'x of the arrays, and
// every malformed array a status and a message naming the row and entry.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "c_api_test_util.h"
#include "cdlinear_c.h"
#include "test_util.h"
#include "text_arrays.h"

namespace cdl {
namespace {

using test::DataHandle;
using test::ModelHandle;
using test::OptionsHandle;
using test::weights_in;

// A data file's instances as 32-bit CSR arrays and CSC arrays (64-bit
// offsets), parsed in the test.
using Arrays = test::TextArrays<std::int32_t, std::int32_t>;

Arrays arrays_of(const std::string& path) {
  return test::text_arrays<std::int32_t, std::int32_t>(path);
}

int csr_of(const Arrays& a, cdl_data** out) {
  return cdl_data_from_csr(a.rows, a.cols, a.values.size(), a.row_ptr.data(), CDL_INT32,
                           a.col_idx.data(), CDL_INT32, a.values.data(), CDL_FLOAT64,
                           a.labels.data(), a.labels.size(), nullptr, 0, out);
}

int csc_of(const Arrays& a, cdl_data** out) {
  return cdl_data_from_csc(a.rows, a.cols, a.col_values.size(), a.col_ptr.data(), CDL_INT64,
                           a.row_idx.data(), CDL_INT32, a.col_values.data(), CDL_FLOAT64,
                           a.labels.data(), a.labels.size(), nullptr, 0, out);
}

// The model `data` trains to with LIBLINEAR's number `solver`, as text.
std::string model_text(const cdl_data* data, const char* solver, const test::ScratchDir& dir) {
  OptionsHandle options;
  cdl_options_set_solver(options.handle, solver);
  ModelHandle model;
  if (cdl_train(data, options.handle, &model.handle) != CDL_OK) return cdl_last_error();
  const std::string path = dir.file("arrays.model");
  if (cdl_model_save(model.handle, path.c_str()) != CDL_OK) return cdl_last_error();
  return test::read_file(path);
}

TEST(CApi, CsrAndCscArraysTrainToCdtrainsModelBytes) {
  test::ScratchDir dir;
  for (const auto& [file, solvers] :
       {std::pair{test::data_path("heart_scale"),
                  std::vector<const char*>{"0", "1", "2", "3", "4", "5", "6", "7", "21"}},
        std::pair{test::data_path("dna.scale"), std::vector<const char*>{"4", "2"}},
        std::pair{test::fixture_path("diabetes.svm"),
                  std::vector<const char*>{"11", "12", "13"}}}) {
    const Arrays a = arrays_of(file);
    DataHandle csr;
    DataHandle csc;
    ASSERT_EQ(csr_of(a, &csr.handle), CDL_OK) << cdl_last_error();
    ASSERT_EQ(csc_of(a, &csc.handle), CDL_OK) << cdl_last_error();
    std::size_t rows = 0;
    std::size_t features = 0;
    EXPECT_EQ(cdl_data_num_rows(csc.handle, &rows), CDL_OK);
    EXPECT_EQ(cdl_data_num_features(csc.handle, &features), CDL_OK);
    EXPECT_EQ(rows, a.rows);
    EXPECT_EQ(features, a.cols);
    // float64 values and int32 indices: used in place.
    int borrowed = 0;
    EXPECT_EQ(cdl_data_borrowed(csr.handle, &borrowed), CDL_OK);
    EXPECT_EQ(borrowed, 1);
    borrowed = 0;
    EXPECT_EQ(cdl_data_borrowed(csc.handle, &borrowed), CDL_OK);
    EXPECT_EQ(borrowed, 1);
    for (const char* solver : solvers) {
      SCOPED_TRACE(file + " -s " + solver);
      const std::string tool_model = dir.file("tool.model");
      const auto r =
          test::run_tool("cdtrain", "-q -s " + std::string(solver) + " " + file + " " + tool_model);
      ASSERT_EQ(r.status, 0) << r.err;
      const std::string expected = test::read_file(tool_model);
      EXPECT_EQ(model_text(csr.handle, solver, dir), expected);
      EXPECT_EQ(model_text(csc.handle, solver, dir), expected);
    }
  }
}

TEST(CApi, Float32ValuesTrainAsTheirDoubles) {
  test::ScratchDir dir;
  Arrays a = arrays_of(test::data_path("heart_scale"));
  const std::vector<float> narrow(a.values.begin(), a.values.end());
  for (std::size_t k = 0; k < narrow.size(); ++k) a.values[k] = narrow[k];
  DataHandle widened;
  ASSERT_EQ(csr_of(a, &widened.handle), CDL_OK) << cdl_last_error();
  // The same numbers as float32, with 64-bit indices.
  const std::vector<std::int64_t> row_ptr(a.row_ptr.begin(), a.row_ptr.end());
  const std::vector<std::int64_t> col_idx(a.col_idx.begin(), a.col_idx.end());
  DataHandle single;
  ASSERT_EQ(cdl_data_from_csr(a.rows, a.cols, narrow.size(), row_ptr.data(), CDL_INT64,
                              col_idx.data(), CDL_INT64, narrow.data(), CDL_FLOAT32,
                              a.labels.data(), a.labels.size(), nullptr, 0, &single.handle),
            CDL_OK)
      << cdl_last_error();
  int borrowed = 1;
  EXPECT_EQ(cdl_data_borrowed(single.handle, &borrowed), CDL_OK);
  EXPECT_EQ(borrowed, 0);  // converted
  const std::string expected = model_text(widened.handle, "2", dir);
  EXPECT_EQ(expected.rfind("solver_type L2R_L2LOSS_SVC\n", 0), 0u) << expected;
  EXPECT_EQ(model_text(single.handle, "2", dir), expected);
}

TEST(CApi, InstanceWeightsOfArraysAreCdtrainsW) {
  test::ScratchDir dir;
  const Arrays a = arrays_of(test::data_path("heart_scale"));
  std::vector<double> weights;
  for (std::size_t j = 0; j < a.rows; ++j)
    weights.push_back(static_cast<double>((j * 7) % 4) * 0.5);
  DataHandle data;
  ASSERT_EQ(
      cdl_data_from_csr(a.rows, a.cols, a.values.size(), a.row_ptr.data(), CDL_INT32,
                        a.col_idx.data(), CDL_INT32, a.values.data(), CDL_FLOAT64, a.labels.data(),
                        a.labels.size(), weights.data(), weights.size(), &data.handle),
      CDL_OK)
      << cdl_last_error();
  const auto r =
      test::run_tool("cdtrain", "-q -s 3 -W " + test::fixture_path("heart_scale.weights") + " " +
                                    test::data_path("heart_scale") + " " + dir.file("tool.model"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(model_text(data.handle, "3", dir), test::read_file(dir.file("tool.model")));
}

// Three rows, four columns: row 0 has columns 0 and 2, row 1 none, row 2
// columns 1 and 3.
struct Tiny {
  std::vector<std::int64_t> indptr{0, 2, 2, 4};
  std::vector<std::int32_t> indices{0, 2, 1, 3};
  std::vector<double> values{1, 2, 3, 4};
  std::vector<double> labels{1, -1, 1};
  std::vector<double> weights;

  // cdl_data_from_csr's status; its message is cdl_last_error().
  int status() const {
    cdl_data* data = reinterpret_cast<cdl_data*>(const_cast<Tiny*>(this));
    const int result = cdl_data_from_csr(
        3, 4, values.size(), indptr.data(), CDL_INT64, indices.data(), CDL_INT32, values.data(),
        CDL_FLOAT64, labels.data(), labels.size(), weights.data(), weights.size(), &data);
    EXPECT_TRUE(result == CDL_OK || data == nullptr) << "a failed call left a handle";
    cdl_data_free(data);
    return result;
  }
};

TEST(CApi, MalformedArraysAreDataErrorsNamingRowAndEntry) {
  const double nan = std::nan("");
  const auto refused = [](const Tiny& t, const std::string& message) {
    EXPECT_EQ(t.status(), CDL_ERR_DATA);
    EXPECT_EQ(std::string(cdl_last_error()), message);
  };
  EXPECT_EQ(Tiny{}.status(), CDL_OK) << cdl_last_error();
  Tiny t;
  t.indptr[0] = 1;
  refused(t, "CSR: indptr[0] is 1, not 0");
  t = Tiny{};
  t.indptr[2] = 1;
  refused(t, "CSR row 1: indptr[2] = 1 is less than indptr[1] = 2");
  t = Tiny{};
  t.indices[3] = 4;
  refused(t, "CSR row 2, entry 1: column index 4 is not below the 4 columns");
  t = Tiny{};
  t.indices[1] = -1;
  refused(t, "CSR row 0, entry 1: column index -1 is negative");
  t = Tiny{};
  t.indices = {2, 0, 1, 3};
  refused(t, "CSR row 0, entry 1: column index 0 not greater than the previous index 2");
  t = Tiny{};
  t.indices = {0, 0, 1, 3};
  refused(t, "CSR row 0, entry 1: column index 0 not greater than the previous index 0");
  t = Tiny{};
  t.values[2] = nan;
  refused(t, "CSR row 2, entry 0: value nan is not finite");
  t = Tiny{};
  t.values[1] = HUGE_VAL;
  refused(t, "CSR row 0, entry 1: value inf is not finite");
  t = Tiny{};
  t.labels.pop_back();
  refused(t, "CSR: 2 labels for 3 rows");
  t = Tiny{};
  t.weights = {1, -0.5, 1};
  refused(t, "array row 1: instance weight -0.5 is not a finite number >= 0");
  t = Tiny{};
  t.weights = {1, 1};
  refused(t, "CSR: 2 instance weights for 3 rows");

  // A label that is not an integer: refused by a classification, as the
  // row's error.
  t = Tiny{};
  t.labels[2] = 0.5;
  DataHandle data;
  ASSERT_EQ(
      cdl_data_from_csr(3, 4, 4, t.indptr.data(), CDL_INT64, t.indices.data(), CDL_INT32,
                        t.values.data(), CDL_FLOAT64, t.labels.data(), 3, nullptr, 0, &data.handle),
      CDL_OK);
  cdl_model* model = nullptr;
  EXPECT_EQ(cdl_train(data.handle, nullptr, &model), CDL_ERR_DATA);
  EXPECT_EQ(model, nullptr);
  EXPECT_EQ(std::string(cdl_last_error()), "array row 2: label 0.5 is not an integer class label");

  // CSC names the column.
  const std::vector<std::int32_t> col_ptr{0, 1, 2, 3, 4};
  const std::vector<std::int64_t> row_idx{0, 3, 0, 2};
  DataHandle csc;
  EXPECT_EQ(
      cdl_data_from_csc(3, 4, 4, col_ptr.data(), CDL_INT32, row_idx.data(), CDL_INT64,
                        t.values.data(), CDL_FLOAT64, t.labels.data(), 3, nullptr, 0, &csc.handle),
      CDL_ERR_DATA);
  EXPECT_EQ(csc.handle, nullptr);
  EXPECT_EQ(std::string(cdl_last_error()),
            "CSC column 1, entry 0: row index 3 is not below the 3 rows");
}

TEST(CApi, ArraysThatAreNullOrOfUnknownTypeAreInvalidArguments) {
  const Tiny t;
  cdl_data* data = nullptr;
  const auto invalid = [&](int status, const std::string& message) {
    EXPECT_EQ(status, CDL_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(std::string(cdl_last_error()), message);
    EXPECT_EQ(data, nullptr);
  };
  invalid(cdl_data_from_csr(3, 4, 4, nullptr, CDL_INT64, t.indices.data(), CDL_INT32,
                            t.values.data(), CDL_FLOAT64, t.labels.data(), 3, nullptr, 0, &data),
          "cdl_data_from_csr: indptr is NULL");
  invalid(cdl_data_from_csr(3, 4, 4, t.indptr.data(), CDL_INT64, nullptr, CDL_INT32,
                            t.values.data(), CDL_FLOAT64, t.labels.data(), 3, nullptr, 0, &data),
          "cdl_data_from_csr: indices is NULL");
  invalid(cdl_data_from_csc(3, 4, 4, t.indptr.data(), CDL_INT64, t.indices.data(), CDL_INT32,
                            nullptr, CDL_FLOAT64, t.labels.data(), 3, nullptr, 0, &data),
          "cdl_data_from_csc: values is NULL");
  invalid(cdl_data_from_csr(3, 4, 4, t.indptr.data(), CDL_INT64, t.indices.data(), CDL_INT32,
                            t.values.data(), CDL_FLOAT64, nullptr, 3, nullptr, 0, &data),
          "cdl_data_from_csr: labels is NULL");
  invalid(cdl_data_from_csr(3, 4, 4, t.indptr.data(), CDL_INT64, t.indices.data(), CDL_INT32,
                            t.values.data(), CDL_FLOAT64, t.labels.data(), 3, nullptr, 3, &data),
          "cdl_data_from_csr: instance_weights is NULL");
  invalid(cdl_data_from_csr(3, 4, 4, t.indptr.data(), 2, t.indices.data(), CDL_INT32,
                            t.values.data(), CDL_FLOAT64, t.labels.data(), 3, nullptr, 0, &data),
          "cdl_data_from_csr: indptr_type 2 is neither CDL_INT32 nor CDL_INT64");
  invalid(cdl_data_from_csr(3, 4, 4, t.indptr.data(), CDL_INT64, t.indices.data(), -1,
                            t.values.data(), CDL_FLOAT64, t.labels.data(), 3, nullptr, 0, &data),
          "cdl_data_from_csr: indices_type -1 is neither CDL_INT32 nor CDL_INT64");
  invalid(cdl_data_from_csr(3, 4, 4, t.indptr.data(), CDL_INT64, t.indices.data(), CDL_INT32,
                            t.values.data(), 7, t.labels.data(), 3, nullptr, 0, &data),
          "cdl_data_from_csr: value_type 7 is neither CDL_FLOAT64 nor CDL_FLOAT32");
  invalid(cdl_data_from_csr(3, 4, 4, t.indptr.data(), CDL_INT64, t.indices.data(), CDL_INT32,
                            t.values.data(), CDL_FLOAT64, t.labels.data(), 3, nullptr, 0, nullptr),
          "cdl_data_from_csr: out is NULL");
  // No nonzero: NULL indices and values are fine.
  const std::vector<std::int64_t> empty_rows{0, 0, 0, 0};
  DataHandle empty;
  EXPECT_EQ(cdl_data_from_csr(3, 4, 0, empty_rows.data(), CDL_INT64, nullptr, CDL_INT32, nullptr,
                              CDL_FLOAT64, t.labels.data(), 3, nullptr, 0, &empty.handle),
            CDL_OK)
      << cdl_last_error();
}

TEST(CApi, DecisionValuesAreWeightsTimesFeaturesOnAnyThreads) {
  test::ScratchDir dir;
  const std::string file = test::data_path("dna.scale.t");
  const Arrays a = arrays_of(file);
  DataHandle data;
  ASSERT_EQ(csr_of(a, &data.handle), CDL_OK) << cdl_last_error();
  const std::string path = dir.file("dna.model");
  ASSERT_EQ(
      test::run_tool("cdtrain", "-q -s 2 -B 1 " + test::data_path("dna.scale") + " " + path).status,
      0);
  ModelHandle model;
  ASSERT_EQ(cdl_model_load(path.c_str(), &model.handle), CDL_OK);
  const std::vector<double> w = weights_in(test::read_file(path));
  const std::size_t nr_w = 3;
  const std::size_t features = w.size() / nr_w - 1;  // the last row is the bias's
  std::vector<double> one(a.rows * nr_w);
  std::vector<double> two(a.rows * nr_w);
  ASSERT_EQ(cdl_model_decision_values(model.handle, data.handle, 1, one.data(), one.size()), CDL_OK)
      << cdl_last_error();
  ASSERT_EQ(cdl_model_decision_values(model.handle, data.handle, 2, two.data(), two.size()),
            CDL_OK);
  EXPECT_EQ(one, two);
  for (std::size_t r = 0; r < a.rows; ++r) {
    for (std::size_t k = 0; k < nr_w; ++k) {
      double expected = w[features * nr_w + k];  // bias 1
      for (auto t = static_cast<std::size_t>(a.row_ptr[r]);
           t < static_cast<std::size_t>(a.row_ptr[r + 1]); ++t) {
        const auto column = static_cast<std::size_t>(a.col_idx[t]);
        if (column < features) expected += w[column * nr_w + k] * a.values[t];
      }
      EXPECT_NEAR(one[r * nr_w + k], expected, 1e-12 * (1 + std::fabs(expected)))
          << "instance " << r << ", class " << k;
    }
  }
  // No probabilities for an SVM.
  int has = -1;
  EXPECT_EQ(cdl_model_has_probabilities(model.handle, &has), CDL_OK);
  EXPECT_EQ(has, 0);
  EXPECT_EQ(cdl_model_probabilities(model.handle, data.handle, 0, one.data(), one.size()),
            CDL_ERR_CONFIG);
}

}  // namespace
}  // namespace cdl
