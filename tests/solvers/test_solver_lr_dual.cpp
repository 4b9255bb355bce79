// dcd-lr, dual CD for logistic regression (LIBLINEAR's -s 7): its primal
// optimum against TRON (-s 0) on the same problem, its duality gap computed
// here from alpha alone, and LIBLINEAR 2.50's optimum
// (tests/fixtures/README.md has the command).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "model/model.h"
#include "objective/evaluate.h"
#include "solver_test_util.h"
#include "solvers/solver.h"
#include "train/train.h"

namespace cdl {
namespace {

Params lr_params(SolverKind solver, double eps) {
  Params params;
  params.solver = solver;
  params.loss = LossKind::kLogistic;
  params.eps = eps;
  params.max_iter = 100000;
  return params;
}

SolveResult solve_dual(const Problem& problem, double eps) {
  test::RecordingReporter reporter;
  return solve_lr_dual({problem, lr_params(SolverKind("dcd-lr"), eps), 1, reporter, nullptr});
}

// D(alpha) of the solver's header (the value minimized; min P = -min D), with
// w = sum_j y_j alpha_j x_j recomputed here from the columns.
double dual_objective(const Problem& problem, const std::vector<double>& alpha) {
  const CscMatrix& x = problem.x();
  double d = 0;
  for (std::size_t i = 0; i < x.num_cols; ++i) {
    double wi = 0;
    for (auto k = x.col_ptr[i]; k < x.col_ptr[i + 1]; ++k) {
      const auto t = static_cast<std::size_t>(k);
      wi += problem.y[x.row_idx[t]] * alpha[x.row_idx[t]] * x.values[t];
    }
    d += 0.5 * wi * wi;
  }
  for (std::size_t j = 0; j < alpha.size(); ++j) {
    const double c = problem.cost(j);
    if (c == 0) continue;
    const double a = alpha[j];
    d += a * std::log(a) + (c - a) * std::log(c - a) - c * std::log(c);
  }
  return d;
}

TEST(LrDual, DualityGapCloses) {
  for (const char* name : {"heart_scale", "svmlight_example1.train"}) {
    for (double C : {0.1, 1.0, 16.0}) {
      SCOPED_TRACE(testing::Message() << name << " C " << C);
      const Problem problem = test::problem_of(name, C);
      const SolveResult result = solve_dual(problem, 1e-8);
      EXPECT_EQ(result.status, Status::kConverged);
      const double p = evaluate(problem, LossKind::kLogistic, result.w).objective;
      const double d = -dual_objective(problem, result.alpha);
      EXPECT_NEAR(result.objective, p, 1e-12 * p);
      EXPECT_LE(d, p * (1 + 1e-12));
      EXPECT_LE(p - d, 1e-7 * p);
      for (std::size_t j = 0; j < result.alpha.size(); ++j) {
        EXPECT_GT(result.alpha[j], 0.0);
        EXPECT_LT(result.alpha[j], C);
      }
    }
  }
}

// -s 7 and -s 0 solve the same primal: dual CD and TRON reach the same f,
// with class weights too.
TEST(LrDual, MatchesTron) {
  for (double C : {0.5, 4.0}) {
    const test::Data& data = test::load("heart_scale");
    const Problem problem = one_vs_rest(data.file.features, data.classes, 0, 2 * C, C, &data.rows);
    const SolveResult dual = solve_dual(problem, 1e-9);
    test::RecordingReporter reporter;
    const SolveResult tron =
        solve_tron({problem, lr_params(SolverKind::kTron, 1e-10), 1, reporter, nullptr});
    EXPECT_NEAR(dual.objective, tron.objective, 1e-9 * tron.objective) << "C " << C;
  }
}

// LIBLINEAR 2.50's `train -s 7 -e 1e-6` on heart_scale: the same f to 1e-9,
// and our dual value equals the objective it printed (its negated D, to six
// decimals).
TEST(LrDual, MatchesLiblinear250Optimum) {
  const double kLiblinearPrintedDual = -98.226800;  // "Objective value = -98.226800"
  const Problem problem = test::problem_of("heart_scale");
  const SolveResult result = solve_dual(problem, 1e-8);
  const LinearModel theirs =
      load_model(test::fixture_path("heart_scale_s7_opt.liblinear250.model"));
  ASSERT_EQ(theirs.solver_type, "L2R_LR_DUAL");
  const double f_theirs = evaluate(problem, LossKind::kLogistic, theirs.w).objective;
  EXPECT_NEAR(result.objective, f_theirs, 1e-9 * f_theirs);
  EXPECT_NEAR(dual_objective(problem, result.alpha), kLiblinearPrintedDual, 5e-7);
}

}  // namespace
}  // namespace cdl
