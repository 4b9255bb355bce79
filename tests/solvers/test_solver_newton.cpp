// The line-search Newton method (solver_newton.cpp) and the parts of the
// whole-vector objective that only it uses: the Hessian's diagonal against
// e_i'H e_i by hess_vec(), f along a line against evaluate(), the optimum
// against TRON's, LIBLINEAR 2.50's iterations, and the same bits for any -m.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "data/problem.h"
#include "objective/evaluate.h"
#include "objective/vector_objective.h"
#include "solver_test_util.h"
#include "solvers/params.h"
#include "solvers/solver_table.h"
#include "train/train.h"

namespace cdl {
namespace {

using test::problem_of;
using test::RecordingReporter;
using Vec = std::vector<double>;

// A data set's labels as real targets, with its rows, for the SVR.
Problem regression_of(const std::string& name) {
  const test::Data& data = test::load(name);
  return regression_problem(data.file.features,
                            Vec(data.file.labels.begin(), data.file.labels.end()), 1.0, &data.rows);
}

Problem problem_for(LossKind loss, const std::string& name) {
  return loss == LossKind::kSvrL2 ? regression_of(name) : problem_of(name);
}

Vec random_vector(std::size_t n, std::uint64_t seed, double scale) {
  std::mt19937_64 random(seed);
  std::normal_distribution<double> normal(0.0, scale);
  Vec v(n);
  for (double& x : v) x = normal(random);
  return v;
}

constexpr LossKind kLosses[] = {LossKind::kL2Svm, LossKind::kLogistic, LossKind::kSvrL2};

// diag(H)_i = e_i'H e_i, the latter by hess_vec(), with and without an
// unregularized last coordinate (-R), at a point where some L2-SVM and SVR
// rows are inactive.
TEST(NewtonObjective, HessianDiagonalIsEveryUnitVectorsCurvature) {
  for (LossKind loss : kLosses) {
    const Problem problem = problem_for(loss, "heart_scale");
    const std::size_t n = problem.num_features();
    for (bool free_last : {false, true}) {
      SCOPED_TRACE(std::string(loss_info(loss).name) + (free_last ? " -R" : ""));
      Regularizer regularizer = Regularizer::l2_only();
      if (free_last) regularizer.unregularized = n - 1;
      auto objective = make_vector_objective(loss, problem, regularizer, 1, 0.1);
      objective->evaluate(random_vector(n, 3, 0.2));
      Vec d, unit(n, 0.0), hu;
      objective->hess_diag(d);
      ASSERT_EQ(d.size(), n);
      for (std::size_t i = 0; i < n; ++i) {
        unit[i] = 1;
        objective->hess_vec(unit, hu);
        EXPECT_NEAR(d[i], hu[i], 1e-12 * std::fabs(hu[i])) << "i " << i;
        unit[i] = 0;
      }
    }
  }
}

// line_value(alpha) is f(w + alpha s) by a fresh evaluate(); after
// take_line_step() the objective's f, gradient and Hessian are those of
// evaluate(w + alpha s).
TEST(NewtonObjective, LineValuesAndStepsAgreeWithAFreshEvaluation) {
  for (LossKind loss : kLosses) {
    const Problem problem = problem_for(loss, "rcv1_small");
    const std::size_t n = problem.num_features();
    for (bool free_last : {false, true}) {
      SCOPED_TRACE(std::string(loss_info(loss).name) + (free_last ? " -R" : ""));
      Regularizer regularizer = Regularizer::l2_only();
      if (free_last) regularizer.unregularized = n - 1;
      auto line = make_vector_objective(loss, problem, regularizer, 1, 0.1);
      auto fresh = make_vector_objective(loss, problem, regularizer, 1, 0.1);
      const Vec w = random_vector(n, 5, 0.3);
      const Vec s = random_vector(n, 6, 0.5);
      line->evaluate(w);
      line->begin_line(s);
      for (double alpha : {1.0, 0.5, 0.125, 0.0}) {
        Vec moved = w;
        for (std::size_t i = 0; i < n; ++i) moved[i] += alpha * s[i];
        const double f = fresh->evaluate(moved);
        EXPECT_NEAR(line->line_value(alpha), f, 1e-12 * f) << "alpha " << alpha;
      }
      Vec moved = w;
      for (std::size_t i = 0; i < n; ++i) moved[i] += 0.5 * s[i];
      const double f = fresh->evaluate(moved);
      EXPECT_NEAR(line->take_line_step(0.5, s), f, 1e-12 * f);
      Vec g_line, g_fresh, h_line, h_fresh;
      line->gradient(g_line);
      fresh->gradient(g_fresh);
      line->hess_vec(s, h_line);
      fresh->hess_vec(s, h_fresh);
      const double g_scale = fresh->gradient_norm_at_zero();
      for (std::size_t i = 0; i < n; ++i) {
        EXPECT_NEAR(g_line[i], g_fresh[i], 1e-12 * g_scale) << "i " << i;
        EXPECT_NEAR(h_line[i], h_fresh[i], 1e-12 * (1 + std::fabs(h_fresh[i]))) << "i " << i;
      }
    }
  }
}

SolveResult solve_on(SolverKind solver, LossKind loss, const std::string& name, double eps,
                     unsigned threads = 1) {
  Params params;
  params.solver = solver;
  params.loss = loss;
  params.eps = eps;
  params.threads = threads;
  if (loss == LossKind::kSvrL2) params.svr_epsilon = 0.1;
  params = resolve_defaults(params);
  validate(params);
  RecordingReporter reporter;
  return train_binary(problem_for(loss, name), params, 1, reporter);
}

// Both Newton methods, run to a tight tolerance, reach the same f, and the
// Newton method's f is the independent evaluation's of its w.
TEST(Newton, ReachesTronsOptimum) {
  for (const char* name : {"heart_scale", "rcv1_small"}) {
    for (LossKind loss : kLosses) {
      SCOPED_TRACE(std::string(name) + " " + loss_info(loss).name);
      const SolveResult tron = solve_on(SolverKind::kTron, loss, name, 1e-8);
      const SolveResult newton = solve_on(SolverKind("newton"), loss, name, 1e-8);
      EXPECT_NE(newton.status, Status::kMaxIter);
      EXPECT_NEAR(newton.objective, tron.objective, 1e-6 * tron.objective);
      const double f =
          evaluate(problem_for(loss, name), loss, newton.w, Regularizer::l2_only(), 0.1).objective;
      EXPECT_NEAR(newton.objective, f, 1e-10 * f);
    }
  }
}

// LIBLINEAR 2.50 on rcv1_small (its first label against the rest), with
//   /tmp/peers/liblinear-2.50/train -s 2 -e 0.0001 data/rcv1_small
// prints 8 Newton iterations, CG 2 3 2 4 4 5 3 7 (30 steps), last |g| 5.398e-04;
// with -s 0: 4 iterations, CG 2 3 2 3 (10 steps), last |g| 7.566e-04.
TEST(Newton, TakesLiblinearsIterationsAndCgSteps) {
  const SolveResult l2svm = solve_on(SolverKind("newton"), LossKind::kL2Svm, "rcv1_small", 1e-4);
  EXPECT_EQ(l2svm.status, Status::kConverged);
  EXPECT_EQ(l2svm.iterations, 8);
  EXPECT_EQ(l2svm.inner_iterations, 30);
  EXPECT_NEAR(l2svm.grad_norm, 5.398e-04, 0.001e-4);
  const SolveResult lr = solve_on(SolverKind("newton"), LossKind::kLogistic, "rcv1_small", 1e-4);
  EXPECT_EQ(lr.status, Status::kConverged);
  EXPECT_EQ(lr.iterations, 4);
  EXPECT_EQ(lr.inner_iterations, 10);
  EXPECT_NEAR(lr.grad_norm, 7.566e-04, 0.001e-4);
}

// The bits of each element (operator== takes -0 for 0; a model file does not).
std::vector<std::uint64_t> bits(const Vec& v) {
  std::vector<std::uint64_t> out(v.size());
  std::memcpy(out.data(), v.data(), v.size() * sizeof(double));
  return out;
}

TEST(Newton, SameWeightsForAnyThreadCount) {
  // rcv1_small has more than 65,536 nonzeros: the products run on the team.
  ASSERT_GT(test::load("rcv1_small").rows.nnz(), 1u << 16);
  for (LossKind loss : kLosses) {
    SCOPED_TRACE(loss_info(loss).name);
    const SolveResult one = solve_on(SolverKind("newton"), loss, "rcv1_small", 1e-4, 1);
    ASSERT_GT(one.inner_iterations, 5);
    for (unsigned threads : {2u, 3u}) {
      SCOPED_TRACE(std::to_string(threads) + " threads");
      const SolveResult many = solve_on(SolverKind("newton"), loss, "rcv1_small", 1e-4, threads);
      EXPECT_EQ(bits(many.w), bits(one.w));
      EXPECT_EQ(bits({many.objective}), bits({one.objective}));
      EXPECT_EQ(many.inner_iterations, one.inner_iterations);
    }
  }
}

TEST(Newton, TheRowSolvesTronsProblemsOnThreads) {
  const SolverInfo& newton = solver_info(SolverKind("newton"));
  const SolverInfo& tron = solver_info(SolverKind::kTron);
  EXPECT_EQ(newton.losses, tron.losses);
  EXPECT_TRUE(newton.solve_on_threads);
  EXPECT_TRUE(newton.needs_rows);
}

}  // namespace
}  // namespace cdl
