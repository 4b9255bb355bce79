// Training on rows alone (no CSC): the solvers whose row says needs_rows
// train the same model, bit for bit, from a Problem of rows only as from one
// with the columns too, one-vs-rest and cross-validation share the one
// matrix, and the checks after reading give the columns' errors.
#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "solver_test_util.h"
#include "test_util.h"
#include "train/cross_validation.h"
#include "train/train.h"
#include "train/train_regression.h"

namespace cdl {
namespace {

using test::params_for;

// The model of every row that needs rows, on both labels sets (binary and
// three classes), from rows alone and from columns beside them.
TEST(RowsOnly, SameModelAsWithTheColumns) {
  for (const char* name : {"heart_scale", "dna.scale"}) {
    const test::Data& data = test::load(name);
    for (const SolverInfo& solver : solver_table()) {
      // A model over all classes gets the columns too (MultiClassInput).
      if (!solver.needs_rows || solver.solve_all_classes) continue;
      for (LossKind loss : solver.losses) {
        if (!has_classes(loss)) continue;  // trained from columns by train_regression()
        SCOPED_TRACE(std::string(name) + " " + solver.name + " " + loss_info(loss).name);
        const Params params = params_for(solver, loss);
        ASSERT_TRUE(trains_on_rows(params));
        test::RecordingReporter a;
        test::RecordingReporter b;
        const LinearModel both = train_with_row(solver, DataMatrix{&data.file.features, &data.rows},
                                                data.classes, params, a, nullptr, nullptr);
        const LinearModel rows = train(DataMatrix{nullptr, &data.rows}, data.classes, params, b);
        EXPECT_EQ(rows.w, both.w);
        EXPECT_EQ(rows.num_features, both.num_features);
        EXPECT_EQ(rows.labels, both.labels);
        ASSERT_EQ(a.iterations.size(), b.iterations.size());
        for (std::size_t k = 0; k < a.iterations.size(); ++k) {
          const double fa = a.iterations[k].objective, fb = b.iterations[k].objective;
          EXPECT_TRUE(fa == fb || (std::isnan(fa) && std::isnan(fb))) << k;
        }
      }
    }
  }
}

// The regression losses of those rows (svr2 for tron, newton and dcd-svr,
// svr1), trained by train_regression() from rows alone, as cdtrain reads a
// plain regression run for them: the model of the columns, bit for bit.
TEST(RowsOnly, RegressionSameModelAsWithTheColumns) {
  const test::Data& data = test::load("heart_scale");
  const std::vector<double> targets(data.file.labels.begin(), data.file.labels.end());
  int trained = 0;
  for (const SolverInfo& solver : solver_table()) {
    if (!solver.needs_rows || solver.solve_all_classes) continue;
    for (LossKind loss : solver.losses) {
      if (!is_regression(loss)) continue;
      SCOPED_TRACE(std::string(solver.name) + " " + loss_info(loss).name);
      const Params params = params_for(solver, loss);
      ASSERT_TRUE(trains_on_rows(params));
      test::RecordingReporter a;
      test::RecordingReporter b;
      const LinearModel columns = train_regression(data.file.features, targets, params, a);
      const LinearModel rows =
          train_regression(DataMatrix{nullptr, &data.rows}, targets, params, b);
      EXPECT_EQ(rows.w, columns.w);
      EXPECT_EQ(rows.num_features, columns.num_features);
      EXPECT_EQ(rows.solver_type, columns.solver_type);
      ++trained;
    }
  }
  EXPECT_GE(trained, 3);
}

// A solver without needs_rows given rows alone gets their transpose: the
// same model as from the columns.
TEST(RowsOnly, AColumnSolverGivenRowsTransposesThem) {
  const test::Data& data = test::load("heart_scale");
  Params params;
  params.solver = find_solver("cdper")->kind;
  params = resolve_defaults(params);
  test::RecordingReporter a;
  test::RecordingReporter b;
  EXPECT_EQ(train(DataMatrix{nullptr, &data.rows}, data.classes, params, a).w,
            train(data.file.features, data.classes, params, b).w);
}

// Cross-validation on rows alone: the same folds, models and accuracy.
TEST(RowsOnly, CrossValidationIsTheSame) {
  const test::Data& data = test::load("dna.scale");
  for (const char* solver_name : {"tron", "dcd", "pdcd"}) {
    SCOPED_TRACE(solver_name);
    const SolverInfo& solver = *find_solver(solver_name);
    Params params = params_for(solver, solver.losses.front());
    params.cv_folds = 3;
    test::RecordingReporter a;
    test::RecordingReporter b;
    const CrossValidation columns = cross_validate(data.file.features, data.classes, params, a);
    const CrossValidation rows =
        cross_validate(DataMatrix{nullptr, &data.rows}, data.classes, params, b);
    EXPECT_EQ(rows.accuracy, columns.accuracy);
    ASSERT_EQ(rows.models.size(), columns.models.size());
    for (std::size_t f = 0; f < rows.models.size(); ++f)
      EXPECT_EQ(rows.models[f].w, columns.models[f].w);
    EXPECT_EQ(search_start_C(DataMatrix{nullptr, &data.rows}, LossKind::kLogistic),
              search_start_C(data.file.features, LossKind::kLogistic));
  }
}

// The value check on rows names the same feature, value and instance as
// on columns, and the -B column as such.
TEST(RowsOnly, ValuesTooLargeGiveTheColumnsError) {
  CsrMatrix rows;
  rows.num_rows = 4;
  rows.num_cols = 3;
  rows.row_ptr = {0, 2, 3, 5, 6};
  rows.col_idx = {0, 2, 1, 1, 2, 2};
  rows.values = {1, 1e153, 2e152, 1e154, 3e153, 1};
  const CscMatrix columns = to_csc(rows);
  const ClassMap classes = map_classes({1, -1, 1, -1});
  for (const double bias : {-1.0, 1.0}) {
    Params params;
    params.C = 1;
    params.bias = bias;
    const std::string from_columns =
        test::error_message([&] { check_magnitudes(columns, classes, params); });
    EXPECT_FALSE(from_columns.empty());
    EXPECT_EQ(test::error_message([&] { check_magnitudes(rows, classes, params); }), from_columns);
  }
  Params params;
  params.C = 1e-300;
  EXPECT_EQ(test::error_message([&] { check_magnitudes(rows, classes, params); }), "(no error)");
}

}  // namespace
}  // namespace cdl
