// The adaptive dual-CD loop with every dual rule reaches the optimum of a
// long cyclic run on heart_scale (dual objective and gap), for both losses;
// the same seed gives the same w bit for bit; a primal solver refuses the
// dual rules.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "objective/dual_state.h"
#include "objective/evaluate.h"
#include "solver_test_util.h"
#include "solvers/solver.h"
#include "solvers/solver_dcd_adaptive.h"

namespace cdl {
namespace {

Params params_with(double eps, std::int64_t max_iter, bool exact_gaps = false) {
  Params params;
  params.eps = eps;
  params.max_iter = max_iter;
  params.own<DualOptions>().exact_gaps = exact_gaps;
  return params;
}

struct Optimum {
  double dual;
  double primal;
};

Optimum cyclic_optimum(const Problem& problem, LossKind loss) {
  test::RecordingReporter reporter;
  DualEpochInfo last;
  solve_dcd_with_rule(problem, loss, "cyclic", 1, params_with(0.0, 100000), reporter, 1e-10,
                      [&](const DualEpochInfo& info) { last = info; });
  EXPECT_LE(last.gap, 1e-10);
  return {last.dual, last.primal};
}

class DcdAdaptiveTest : public ::testing::TestWithParam<std::tuple<LossKind, std::string>> {};

// heart_scale's 13 dense columns make an exact epoch about 264 uniform ones
// (exact_epoch_cost_ratio), so the rules that read the margins run
// bounded-staleness gaps there unless exact_gaps: both forms are checked.
TEST_P(DcdAdaptiveTest, ReachesTheCyclicOptimum) {
  const auto [loss, rule] = GetParam();
  const Problem problem = test::problem_of("heart_scale", 0.1);
  EXPECT_GT(exact_epoch_cost_ratio(problem.x()), kStaleGapsRatio);
  static std::map<LossKind, Optimum> optima;
  if (!optima.count(loss)) optima[loss] = cyclic_optimum(problem, loss);
  const Optimum best = optima[loss];
  for (const bool exact : {false, true}) {
    SCOPED_TRACE(exact ? "exact gaps" : "stale gaps");
    test::RecordingReporter reporter;
    std::vector<DualEpochInfo> trace;
    // Stop on the gap alone (eps 0): 1e-7 of the optimum's primal value.
    const double gap_tol = 1e-7 * best.primal;
    const SolveResult result =
        solve_dcd_with_rule(problem, loss, rule, 7, params_with(0.0, 5000, exact), reporter,
                            gap_tol, [&](const DualEpochInfo& info) { trace.push_back(info); });
    ASSERT_GE(trace.size(), 2u);
    const DualEpochInfo& last = trace.back();
    EXPECT_EQ(result.status, Status::kConverged) << rule;
    EXPECT_LE(last.gap, gap_tol) << rule;
    // Both objectives within the gap of the cyclic run's optimum.
    EXPECT_NEAR(last.dual, best.dual, gap_tol + 1e-9) << rule;
    EXPECT_NEAR(result.objective, best.primal, gap_tol + 1e-9) << rule;
    // The dual objective never increases from epoch to epoch (exact steps).
    for (std::size_t k = 1; k < trace.size(); ++k) {
      EXPECT_LE(trace[k].dual, trace[k - 1].dual + 1e-12) << rule << " epoch " << k;
      EXPECT_GE(trace[k].nnz_ops, trace[k - 1].nnz_ops);
    }
    // Same seed, same model, byte for byte.
    test::RecordingReporter again;
    const SolveResult twice =
        solve_dcd_with_rule(problem, loss, rule, 7, params_with(0.0, 5000, exact), again, gap_tol);
    ASSERT_EQ(twice.w.size(), result.w.size());
    EXPECT_EQ(std::memcmp(twice.w.data(), result.w.data(), result.w.size() * sizeof(double)), 0)
        << rule;
  }
}

// sum_k nnz(column k)^2 / nnz, by hand: columns of 3 and 1 nonzeros.
TEST(DcdAdaptive, ExactEpochCostRatioCountsSquaredColumns) {
  const CsrMatrix rows = test::csr_from_dense(3, 2, {1, 1, 2, 0, 3, 0});
  EXPECT_DOUBLE_EQ(exact_epoch_cost_ratio(to_csc(rows)), (9.0 + 1.0) / 4.0);
}

INSTANTIATE_TEST_SUITE_P(
    Rules, DcdAdaptiveTest,
    ::testing::Combine(::testing::Values(LossKind::kL1Svm, LossKind::kL2Svm),
                       ::testing::Values("uniform", "perm", "importance", "support-uniform",
                                         "adaptive", "ada-uniform", "ada-gap", "gap-per-epoch",
                                         "gs-s", "gs-r", "gs-q")),
    [](const auto& param_info) {
      std::string name =
          std::string(std::get<0>(param_info.param) == LossKind::kL1Svm ? "l1" : "l2") + "_" +
          std::get<1>(param_info.param);
      for (char& c : name) {
        if (c == '-') c = '_';
      }
      return name;
    });

TEST(DcdAdaptive, HeldOutRowsStayAtZero) {
  const test::Data& data = test::load("heart_scale");
  std::vector<std::uint8_t> held(data.file.features.num_rows, 0);
  for (std::size_t j = 0; j < held.size(); j += 3) held[j] = 1;
  const Problem problem =
      one_vs_rest(data.file.features, data.classes, 0, 1.0, 1.0, &data.rows, &held);
  DualState state(problem, LossKind::kL1Svm, true);
  RuleContext context{problem.num_rows(), 3, &problem.x(), &state};
  auto rule = make_rule("ada-gap", context);
  test::RecordingReporter reporter;
  solve_dcd_adaptive(state, *rule, params_with(1e-6, 500), reporter);
  for (std::size_t j = 0; j < held.size(); j += 3) EXPECT_EQ(state.alpha(j), 0.0);
  EXPECT_LT(state.total_gap(), 1e-4);
}

TEST(DcdAdaptive, RefusesRulesOfPrimalSolversOnly) {
  const Problem problem = test::problem_of("heart_scale");
  test::RecordingReporter reporter;
  EXPECT_THROW(
      solve_dcd_with_rule(problem, LossKind::kL1Svm, "nosuch", 1, params_with(0.1, 1), reporter),
      ConfigError);
  EXPECT_THROW(solve_dcd_with_rule(problem, LossKind::kLogistic, "ada-gap", 1, params_with(0.1, 1),
                                   reporter),
               ConfigError);
}

}  // namespace
}  // namespace cdl
