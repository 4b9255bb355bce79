// oneclass, the one-class SVM (LIBLINEAR 2.50's -s 21): its dual optimum
// against LIBLINEAR 2.50's (tests/fixtures/README.md has the commands), the
// primal value at (w, rho) computed here against the dual's, feasibility,
// held-out rows, and the bounds of nu.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "model/model.h"
#include "solver_test_util.h"
#include "solvers/solver.h"

namespace cdl {
namespace {

Params oneclass_params(double nu, double eps) {
  Params params;
  params.solver = SolverKind("oneclass");
  params.loss = LossKind::kOneClass;
  params.nu = nu;
  params.eps = eps;
  params.max_iter = kDefaultMaxIter;
  return params;
}

SolveResult solve(const Problem& problem, double nu, double eps) {
  test::RecordingReporter reporter;
  return solve_oneclass({problem, oneclass_params(nu, eps), 1, reporter, nullptr});
}

double half_squared_norm(const std::vector<double>& w) {
  return 0.5 * std::inner_product(w.begin(), w.end(), w.begin(), 0.0);
}

// The primal of the solver's header at (w, rho), from the rows that count:
// 1/2 w'w - nu l rho + sum_j max(0, rho - w'x_j).
double primal(const Problem& problem, const std::vector<double>& w, double rho, double nu) {
  double value = half_squared_norm(w);
  double l = 0;
  for (std::size_t j = 0; j < problem.rows->num_rows; ++j) {
    if (!problem.counts(j)) continue;
    l += 1;
    value += std::max(0.0, rho - row_dot(*problem.rows, j, w));
  }
  return value - nu * l * rho;
}

// The dual's constraints, and w = sum_j alpha_j x_j recomputed here.
void expect_feasible(const Problem& problem, const SolveResult& result, double nu) {
  const CsrMatrix& x = *problem.rows;
  double sum = 0, l = 0;
  std::vector<double> w(x.num_cols, 0.0);
  for (std::size_t j = 0; j < x.num_rows; ++j) {
    const double a = result.alpha[j];
    EXPECT_GE(a, 0.0);
    EXPECT_LE(a, 1.0);
    if (!problem.counts(j)) {
      EXPECT_EQ(a, 0.0) << "held-out row " << j;
      continue;
    }
    sum += a;
    l += 1;
    add_row(x, j, a, w);
  }
  EXPECT_NEAR(sum, nu * l, 1e-9 * l);
  for (std::size_t i = 0; i < w.size(); ++i) {
    EXPECT_NEAR(result.w[i], w[i], 1e-9 * (1 + std::fabs(w[i])));
  }
}

struct Case {
  const char* data;
  double nu;
  const char* fixture;
  double printed_objective;  // what LIBLINEAR 2.50 printed, "Objective value = ..."
};

const Case kCases[] = {
    {"heart_scale", 0.5, "heart_scale_s21_opt.liblinear250.model", 8750.837422},
    {"heart_scale", 0.1, "heart_scale_s21_nu0.1_opt.liblinear250.model", 70.884509},
    {"breast-cancer_scale", 0.5, "breast-cancer_scale_s21_opt.liblinear250.model", 82036.874431},
};

// At the default eps, D(alpha) = 1/2 w'w within 1% of LIBLINEAR 2.50's
// optimum (`train -s 21 -e 1e-6`); at a tight eps, within 1e-6 of it and of
// the value it printed, with its rho, and the primal at our (w, rho) equal
// to -D (the duality gap closes).
TEST(OneClass, MatchesLiblinear250Optimum) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(testing::Message() << c.data << " nu " << c.nu);
    const Problem problem = test::problem_of(c.data);
    const LinearModel theirs = load_model(test::fixture_path(c.fixture));
    ASSERT_EQ(theirs.solver_type, "ONECLASS_SVM");
    const double d_theirs = half_squared_norm(theirs.w);
    EXPECT_NEAR(d_theirs, c.printed_objective, 1e-6);

    const SolveResult loose = solve(problem, c.nu, 0.01);
    EXPECT_EQ(loose.status, Status::kConverged);
    EXPECT_NEAR(loose.objective, d_theirs, 0.01 * d_theirs);
    expect_feasible(problem, loose, c.nu);

    const SolveResult tight = solve(problem, c.nu, 1e-9);
    EXPECT_EQ(tight.status, Status::kConverged);
    EXPECT_NEAR(tight.objective, d_theirs, 1e-6 * d_theirs);
    EXPECT_NEAR(tight.rho, theirs.rho, 1e-5 * std::fabs(theirs.rho));
    expect_feasible(problem, tight, c.nu);
    const double p = primal(problem, tight.w, tight.rho, c.nu);
    EXPECT_NEAR(p, -tight.objective, 1e-6 * tight.objective);
  }
}

// D never increases: every pair step is an exact minimization along a
// feasible direction.
TEST(OneClass, DualDecreasesEveryIteration) {
  const Problem problem = test::problem_of("breast-cancer_scale");
  test::RecordingReporter reporter;
  solve_oneclass({problem, oneclass_params(0.3, 1e-6), 1, reporter, nullptr});
  const std::vector<double> d = reporter.objectives();
  ASSERT_GT(d.size(), 2u);
  for (std::size_t k = 1; k < d.size(); ++k) EXPECT_LE(d[k], d[k - 1] * (1 + 1e-12)) << k;
}

// A held-out row takes no part: the optimum equals the one on the data
// without it, and l counts the other rows.
TEST(OneClass, HeldOutRowsAreLeftOut) {
  test::SmallDualProblem small;
  const double nu = 0.5;
  const SolveResult with_held = solve(small.problem, nu, 1e-10);
  expect_feasible(small.problem, with_held, nu);
  const CsrMatrix kept = test::csr_from_dense(5, 3,
                                              {1.0, 0.0, 2.0,   //
                                               0.5, -1.0, 0.0,  //
                                               0.0, 0.0, 0.0,   //
                                               -2.0, 1.0, 1.0,  //
                                               1.5, 0.5, 0.5});
  const CscMatrix columns = to_csc(kept);
  const Problem without{columns, &kept, {1, 1, 1, 1, 1}, 1.0, 1.0, Task::kOneClass};
  const SolveResult reference = solve(without, nu, 1e-10);
  EXPECT_NEAR(with_held.objective, reference.objective, 1e-9);
  EXPECT_NEAR(with_held.rho, reference.rho, 1e-9);
}

// nu = 1 puts every alpha at 1 (the only feasible point): w is the sum of
// the rows, and rho the smallest optimal offset, the largest w'x_j.
TEST(OneClass, NuOneTakesEveryRow) {
  const Problem problem = test::problem_of("heart_scale");
  const SolveResult result = solve(problem, 1.0, 0.01);
  EXPECT_EQ(result.status, Status::kConverged);
  for (double a : result.alpha) EXPECT_EQ(a, 1.0);
  double largest = -INFINITY;
  for (std::size_t j = 0; j < problem.rows->num_rows; ++j) {
    largest = std::max(largest, row_dot(*problem.rows, j, result.w));
  }
  EXPECT_EQ(result.rho, largest);
  expect_feasible(problem, result, 1.0);
}

}  // namespace
}  // namespace cdl
