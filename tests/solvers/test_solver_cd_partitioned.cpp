// Partitioned CD (--partitions P > 1, solver_cd_partitioned.cpp): the same
// weights for any thread count, the serial algorithm's optimum at a small
// eps (checked against P = 1, which is today's solver), f that never rises
// from one round to the next, more blocks than features, held-out rows,
// class weights and a bias column, and the default P.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "data/problem.h"
#include "objective/evaluate.h"
#include "solver_test_util.h"
#include "solvers/params.h"
#include "solvers/solver.h"
#include "train/train.h"
#include "train/train_regression.h"

namespace cdl {
namespace {

struct Case {
  const char* name;
  LossKind loss;
  RegularizerKind regularizer;
};

const Case kCases[] = {{"l2svm_l2", LossKind::kL2Svm, RegularizerKind::kL2},
                       {"lr_l2", LossKind::kLogistic, RegularizerKind::kL2},
                       {"l2svm_l1", LossKind::kL2Svm, RegularizerKind::kL1},
                       {"lr_l1", LossKind::kLogistic, RegularizerKind::kL1},
                       {"svr_l2", LossKind::kSvrL2, RegularizerKind::kL2}};

// rcv1_small's first class against the rest, or for the SVR its +-1 labels
// as real targets.
Problem problem_for(const Case& c) {
  const test::Data& data = test::load("rcv1_small");
  if (!is_regression(c.loss)) return test::problem_of("rcv1_small");
  return regression_problem(data.file.features,
                            std::vector<double>(data.file.labels.begin(), data.file.labels.end()),
                            1.0);
}

Params params_for(const Case& c, std::int64_t partitions, unsigned threads, double eps) {
  Params params;
  params.solver = SolverKind::kCdPer;
  params.loss = c.loss;
  params.regularizer = c.regularizer;
  params.own<PartitionOptions>().count = partitions;
  params.threads = threads;
  params.eps = eps;
  params.max_iter = 5000;
  params.quiet = true;
  params = resolve_defaults(params);
  validate(params);
  return params;
}

SolveResult solve(const Problem& problem, const Params& params, test::RecordingReporter& out) {
  return solve_cd({problem, params, 7, out, nullptr});
}

// Solves with P blocks on 2 threads and with the serial solver (P = 1) at
// `eps`; expects convergence and the same f within `tolerance` relative.
SolveResult expect_serial_optimum(const Problem& problem, const Case& c, std::int64_t partitions,
                                  double eps, double tolerance, test::RecordingReporter& out) {
  test::RecordingReporter serial_out;
  const SolveResult serial = solve(problem, params_for(c, 1, 1, eps), serial_out);
  const SolveResult parts = solve(problem, params_for(c, partitions, 2, eps), out);
  EXPECT_EQ(parts.status, Status::kConverged);
  EXPECT_NEAR(parts.objective, serial.objective, tolerance * serial.objective);
  return parts;
}

TEST(PartitionedCd, SameWeightsForAnyThreadCount) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.name);
    const Problem problem = problem_for(c);
    test::RecordingReporter one_out;
    const SolveResult one = solve(problem, params_for(c, 4, 1, 0.01), one_out);
    ASSERT_GT(one.iterations, 1);
    for (unsigned threads : {2u, 3u}) {
      test::RecordingReporter out;
      const SolveResult many = solve(problem, params_for(c, 4, threads, 0.01), out);
      EXPECT_EQ(many.w, one.w) << threads << " threads";
      EXPECT_EQ(many.objective, one.objective);
      EXPECT_EQ(many.iterations, one.iterations);
      EXPECT_EQ(out.objectives(), one_out.objectives());
    }
  }
}

// At a small eps, P = 3 and P = 1 (the serial solver) reach the same f to
// 1e-6 relative, and f of the returned w is the reported one; f does not
// rise from one round to the next.
TEST(PartitionedCd, ReachesTheSerialOptimumAndDecreasesEveryRound) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.name);
    const Problem problem = problem_for(c);
    const double eps = c.regularizer == RegularizerKind::kL1 ? 1e-5 : 1e-6;
    test::RecordingReporter out;
    const SolveResult parts = expect_serial_optimum(problem, c, 3, eps, 1e-6, out);
    const Regularizer r = Regularizer::of(c.regularizer);
    const double f = evaluate(problem, c.loss, parts.w, r, kDefaultSvrEpsilon).objective;
    EXPECT_NEAR(parts.objective, f, 1e-9 * f);
    const std::vector<double> objectives = out.objectives();
    for (std::size_t k = 1; k < objectives.size(); ++k) {
      EXPECT_LE(objectives[k], objectives[k - 1]) << "round " << k + 1;
    }
  }
}

// heart_scale has 13 features: 20 blocks leave some empty.
TEST(PartitionedCd, MoreBlocksThanFeatures) {
  const Problem problem = test::problem_of("heart_scale");
  ASSERT_LT(problem.num_features(), 20u);
  test::RecordingReporter out;
  expect_serial_optimum(problem, kCases[0], 20, 1e-8, 1e-8, out);
}

// Held-out rows (cross-validation's folds), class weights and a bias column
// go through the objective: the partitioned f matches the serial one.
TEST(PartitionedCd, HeldOutRowsClassWeightsAndBias) {
  const test::Data& data = test::load("heart_scale");
  CscMatrix with_bias = data.file.features;
  append_constant_column(with_bias, 1.0);
  std::vector<std::uint8_t> held_out(with_bias.num_rows, 0);
  for (std::size_t j = 0; j < held_out.size(); j += 3) held_out[j] = 1;
  const Problem problem = one_vs_rest(with_bias, data.classes, 0, 2.0, 0.5, nullptr, &held_out);
  for (const Case& c : {kCases[0], kCases[3]}) {
    SCOPED_TRACE(c.name);
    test::RecordingReporter out;
    expect_serial_optimum(problem, c, 4, 1e-7, 1e-6, out);
  }
}

// The default P: the serial algorithm below 10^6 nonzeros (small data keep
// the serial model), else 2; --partitions wins; another rule or solver: 1.
TEST(PartitionedCd, DefaultPartitionsFollowTheNonzeros) {
  const Params plain = resolve_defaults(Params{});
  EXPECT_EQ(cd_partitions(plain, 999999), 1);
  EXPECT_EQ(cd_partitions(plain, 1000000), 2);
  Params given;
  given.own<PartitionOptions>().count = 3;
  EXPECT_EQ(cd_partitions(resolve_defaults(given), 10), 3);
  Params rule;
  rule.own<SelectOptions>().rule = "cyclic";
  EXPECT_EQ(cd_partitions(resolve_defaults(rule), 5000000), 1);
  Params other;
  other.solver = SolverKind::kCd;
  EXPECT_EQ(cd_partitions(resolve_defaults(other), 5000000), 1);
}

TEST(PartitionedCd, PartitionsAreCheckedAgainstTheRule) {
  Params params;
  params.own<PartitionOptions>().count = 2;
  params.own<SelectOptions>().rule = "cyclic";
  EXPECT_THROW(validate(resolve_defaults(params)), ConfigError);
  params.own<PartitionOptions>().count = 1;
  EXPECT_NO_THROW(validate(resolve_defaults(params)));
  Params other;
  other.solver = SolverKind::kCd;
  other.own<PartitionOptions>().count = 2;
  EXPECT_THROW(validate(resolve_defaults(other)), ConfigError);
}

}  // namespace
}  // namespace cdl
