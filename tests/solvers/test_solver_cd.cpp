// The CD family (CD, CDPER, CDPERONE, online CD) on real data: objective
// monotonicity, agreement of the four variants and with LIBLINEAR's optimum,
// determinism, and the statistics the paper reports.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <tuple>

#include "data/libsvm_reader.h"
#include "data/problem.h"
#include "objective/objective.h"
#include "solver_test_util.h"
#include "solvers/solver.h"
#include "solvers/solver_cd.h"
#include "test_util.h"
#include "train/train.h"

namespace cdl {
namespace {

using test::Optimum;
using test::RecordingReporter;

SolveResult solve(const std::string& name, SolverKind solver, std::uint64_t seed, double eps,
                  std::int64_t max_iter, RecordingReporter& reporter) {
  const Problem problem = test::problem_of(name);
  Params params;
  params.solver = solver;
  params.eps = eps;
  params.max_iter = max_iter;
  return train_binary(problem, resolve_defaults(params), seed, reporter);
}

const SolverKind kCdFamily[] = {SolverKind::kCd, SolverKind::kCdPer, SolverKind::kCdPerOne,
                                SolverKind::kOnlineCd};

std::string solver_param_name(SolverKind kind) { return solver_info(kind).name; }

class Monotone : public ::testing::TestWithParam<std::tuple<SolverKind, std::uint64_t>> {};

TEST_P(Monotone, ObjectiveNeverIncreasesBetweenOuterIterations) {
  const auto [solver, seed] = GetParam();
  for (const char* name : {"heart_scale", "rcv1_small"}) {
    RecordingReporter reporter;
    solve(name, solver, seed, 1e-6, 60, reporter);
    const std::vector<double> objectives = reporter.objectives();
    ASSERT_GE(objectives.size(), 2u) << name;
    for (std::size_t k = 1; k < objectives.size(); ++k) {
      EXPECT_LE(objectives[k], objectives[k - 1]) << name << " iteration " << k;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(CdFamily, Monotone,
                         ::testing::Combine(::testing::ValuesIn(kCdFamily),
                                            ::testing::Values(1u, 2u, 3u)),
                         [](const auto& test_info) {
                           return solver_param_name(std::get<0>(test_info.param)) + "_seed" +
                                  std::to_string(std::get<1>(test_info.param));
                         });

class SameOptimum : public ::testing::TestWithParam<Optimum> {};

TEST_P(SameOptimum, AllFourVariantsReachLiblinearsOptimum) {
  const Optimum optimum = GetParam();
  std::vector<double> values;
  for (SolverKind solver : kCdFamily) {
    RecordingReporter reporter;
    const SolveResult result = solve(optimum.name, solver, 1, 1e-7, 5000, reporter);
    EXPECT_EQ(result.status, Status::kConverged) << solver_param_name(solver);
    values.push_back(result.objective);
  }
  for (std::size_t k = 0; k < values.size(); ++k) {
    EXPECT_NEAR(values[k], values[0], 1e-6 * values[0]) << solver_param_name(kCdFamily[k]);
    EXPECT_NEAR(values[k], optimum.f, 1e-6 * optimum.f) << solver_param_name(kCdFamily[k]);
  }
}

INSTANTIATE_TEST_SUITE_P(DataSets, SameOptimum, ::testing::ValuesIn(test::kL2SvmOptima),
                         [](const auto& test_info) {
                           std::string name = test_info.param.name;
                           for (char& c : name) {
                             if (c == '.') c = '_';
                           }
                           return name;
                         });

TEST(SolveCd, SameSeedGivesTheSameModel) {
  for (SolverKind solver : {SolverKind::kCdPer, SolverKind::kOnlineCd}) {
    RecordingReporter a;
    RecordingReporter b;
    EXPECT_EQ(solve("rcv1_small", solver, 42, 1e-3, 100, a).w,
              solve("rcv1_small", solver, 42, 1e-3, 100, b).w);
  }
}

TEST(SolveCd, DifferentSeedsGiveDifferentPaths) {
  RecordingReporter a;
  RecordingReporter b;
  solve("rcv1_small", SolverKind::kCdPer, 1, 1e-3, 100, a);
  solve("rcv1_small", SolverKind::kCdPer, 2, 1e-3, 100, b);
  EXPECT_NE(a.objectives().front(), b.objectives().front());
}

TEST(SolveCd, FullNewtonStepIsTakenAlmostAlwaysOnDocuments) {
  // The paper reports 99.997% on rcv1.
  RecordingReporter reporter;
  const SolveResult result = solve("rcv1_small", SolverKind::kCdPer, 1, 1e-3, 100, reporter);
  ASSERT_GT(result.inner_iterations, 0);
  EXPECT_GT(static_cast<double>(result.full_newton_steps),
            0.999 * static_cast<double>(result.inner_iterations));
  // The shortcut (15) spares almost every evaluation of D_i.
  EXPECT_LT(static_cast<double>(result.function_evaluations),
            0.01 * static_cast<double>(result.inner_iterations));
}

TEST(SolveCd, LineSearchWithBetaCloseToOneStillConverges) {
  // Theorem 1 bounds the backtracking by lambda_bar; with beta = 0.99 and a
  // large C it takes many steps, but must still end in a converged model.
  const Problem problem = test::problem_of("a9a", 1000.0);
  RecordingReporter reporter;
  Params params;
  params.own<LineSearchOptions>().beta = 0.99;
  const SolveResult slow = train_binary(problem, resolve_defaults(params), 1, reporter);
  params.own<LineSearchOptions>().beta = 0.5;
  const SolveResult fast = train_binary(problem, resolve_defaults(params), 1, reporter);
  EXPECT_EQ(slow.status, Status::kConverged);
  EXPECT_NEAR(slow.objective, fast.objective, 1e-4 * fast.objective);  // both stop at eps 1e-3
}

TEST(SolveCd, StopsAtTheIterationLimitWithThatStatus) {
  RecordingReporter reporter;
  const SolveResult result = solve("heart_scale", SolverKind::kCd, 1, 1e-12, 3, reporter);
  EXPECT_EQ(result.status, Status::kMaxIter);
  EXPECT_EQ(result.iterations, 3);
  EXPECT_EQ(reporter.iterations.size(), 3u);
}

TEST(SolveCd, WarmStartAtTheOptimumStopsAtOnce) {
  const Problem problem = test::problem_of("heart_scale");
  Params params;
  params.solver = SolverKind::kCdPer;
  params = resolve_defaults(params);
  RecordingReporter reporter;
  auto objective = make_coordinate_objective(LossKind::kL2Svm, problem);
  PermutationOrder order(problem.num_features(), 1, true);
  params.eps = 1e-9;
  const SolveResult tight = solve_cd(*objective, order, params, reporter);
  params.eps = 1e-3;
  objective->reset(tight.w);
  const SolveResult warm = solve_cd(*objective, order, params, reporter);
  EXPECT_EQ(warm.iterations, 0);
  EXPECT_EQ(warm.status, Status::kConverged);
  EXPECT_EQ(warm.w, tight.w);
}

TEST(SolveCd, StoppingRuleIsRelativeToTheGradientAtZero) {
  // With eps = 1e-3 the reported norm must be at most 1e-3 ||grad f(0)||.
  const Problem problem = test::problem_of("svmlight_example1.train");
  auto objective = make_coordinate_objective(LossKind::kL2Svm, problem);
  const double g0 = objective->gradient_norm_at_zero();
  RecordingReporter reporter;
  const SolveResult result =
      solve("svmlight_example1.train", SolverKind::kCdPer, 1, 1e-3, 1000, reporter);
  EXPECT_EQ(result.status, Status::kConverged);
  EXPECT_LE(result.grad_norm, 1e-3 * g0);
}

}  // namespace
}  // namespace cdl
