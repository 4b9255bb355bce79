// Dual coordinate descent (solver_dcd.cpp) and the duality gap
// (objective/dual_gap.h): the gap against an independent P - D, the optimum
// against LIBLINEAR's stored models, KKT conditions, shrinking, held-out
// rows, -wi and the stopping rules.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "model/model.h"
#include "objective/dual_gap.h"
#include "objective/evaluate.h"
#include "select/selection_rule.h"
#include "solver_test_util.h"
#include "solvers/solver.h"

namespace cdl {
namespace {

const SolverKind kDcd{"dcd"};

Params dcd_params(LossKind loss, double eps) {
  Params params;
  params.solver = kDcd;
  params.loss = loss;
  params.eps = eps;
  // L1-SVM takes a few thousand epochs to reach eps 1e-6 on heart_scale.
  if (eps < 0.01) params.max_iter = 100000;
  return resolve_defaults(params);
}

// Records each iteration's gap, recomputed from its alpha and w.
class GapRecorder : public Reporter {
 public:
  explicit GapRecorder(const Problem& problem, LossKind loss)
      : Reporter(sink_, Level::kQuiet), problem_(problem), loss_(loss) {}
  void iteration(const IterationInfo& info) override {
    ASSERT_NE(info.alpha, nullptr);
    gaps.push_back(duality_gap(problem_, loss_, *info.alpha, *info.w).gap);
    nnz_ops.push_back(info.nnz_ops);
  }
  bool wants_w() const override { return true; }
  bool observes_iterations() const override { return true; }
  std::vector<double> gaps;
  std::vector<std::int64_t> nnz_ops;

 private:
  std::ostringstream sink_;
  const Problem& problem_;
  LossKind loss_;
};

SolveResult run_dcd(const Problem& problem, const Params& params, Reporter& reporter,
                    const std::string& rule = "perm", std::uint64_t seed = 1) {
  std::size_t coordinates = 0;  // the rows that count
  for (std::size_t j = 0; j < problem.num_rows(); ++j) coordinates += problem.counts(j);
  auto order = make_rule(rule, {coordinates, seed, nullptr});
  return solve_dcd(problem, params.loss.value(), *order, params, reporter);
}

SolveResult run_dcd(const Problem& problem, const Params& params) {
  test::RecordingReporter quiet;
  return run_dcd(problem, params, quiet);
}

// f of a stored LIBLINEAR model's w on `problem` (labels 1 -1: w scores +1).
double liblinear_f(const Problem& problem, LossKind loss, const std::string& fixture) {
  const LinearModel model = load_model(test::fixture_path(fixture));
  EXPECT_EQ(model.labels, (std::vector<int>{1, -1}));
  return evaluate(problem, loss, model.w).objective;
}

using Small = test::SmallDualProblem;

// The dual objective D(alpha) = e'alpha - 1/2 alpha' Qbar alpha from the
// dense matrix Qbar, without w.
double dense_dual(const Problem& problem, LossKind loss, const std::vector<double>& alpha) {
  const CsrMatrix& x = *problem.rows;
  double quadratic = 0, linear = 0;
  for (std::size_t i = 0; i < alpha.size(); ++i) {
    if (problem.cost(i) == 0) continue;
    linear += alpha[i];
    for (std::size_t j = 0; j < alpha.size(); ++j) {
      if (problem.cost(j) == 0) continue;
      double dot = 0;
      for (auto a = x.row_ptr[i]; a < x.row_ptr[i + 1]; ++a) {
        for (auto b = x.row_ptr[j]; b < x.row_ptr[j + 1]; ++b) {
          const auto ta = static_cast<std::size_t>(a), tb = static_cast<std::size_t>(b);
          if (x.col_idx[ta] == x.col_idx[tb]) dot += x.values[ta] * x.values[tb];
        }
      }
      double q = problem.y[i] * problem.y[j] * dot;
      if (i == j && loss == LossKind::kL2Svm) q += 0.5 / problem.cost(i);
      quadratic += alpha[i] * q * alpha[j];
    }
  }
  return linear - 0.5 * quadratic;
}

std::vector<double> w_of(const Problem& problem, const std::vector<double>& alpha) {
  std::vector<double> w(problem.num_features(), 0.0);
  for (std::size_t j = 0; j < alpha.size(); ++j)
    add_row(*problem.rows, j, problem.y[j] * alpha[j], w);
  return w;
}

class DualGapTest : public ::testing::TestWithParam<LossKind> {};

TEST_P(DualGapTest, CoordinateGapsSumToPrimalMinusDenseDual) {
  const LossKind loss = GetParam();
  const Small s;
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<double> alpha(6, 0.0);
    for (std::size_t j = 0; j < 6; ++j) {
      if (s.problem.cost(j) == 0) continue;
      // Some at the bounds, some inside; L2-SVM has no upper bound.
      const double u = unit(rng);
      const double upper = loss == LossKind::kL1Svm ? s.problem.cost(j) : 3.0;
      alpha[j] = u < 0.2 ? 0.0 : u > 0.8 && loss == LossKind::kL1Svm ? upper : u * upper;
    }
    const std::vector<double> w = w_of(s.problem, alpha);
    const double primal = evaluate(s.problem, loss, w).objective;
    const double dual = dense_dual(s.problem, loss, alpha);
    const DualGap gap = duality_gap(s.problem, loss, alpha, w);
    EXPECT_NEAR(gap.primal, primal, 1e-12 * std::max(1.0, primal));
    EXPECT_NEAR(gap.dual, dual, 1e-10 * std::max(1.0, std::fabs(dual)));
    EXPECT_NEAR(gap.gap, primal - dual, 1e-10 * std::max(1.0, primal));
    for (double g : coordinate_gaps(s.problem, loss, alpha, margins(s.problem, w))) {
      EXPECT_GE(g, -1e-12);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Losses, DualGapTest,
                         ::testing::Values(LossKind::kL1Svm, LossKind::kL2Svm));

TEST(DualGap, RefusesLogisticLoss) {
  const Small s;
  EXPECT_FALSE(has_svm_dual(LossKind::kLogistic));
  EXPECT_NE(test::error_message([&] {
              duality_gap(s.problem, LossKind::kLogistic, std::vector<double>(6, 0.0),
                          std::vector<double>(3, 0.0));
            }).find("l1svm and l2svm"),
            std::string::npos);
}

struct LossCase {
  LossKind loss;
  const char* fixture;   // LIBLINEAR -e 0.0001 on heart_scale
  const char* weighted;  // the same with -w1 2 -w-1 0.5
};

class DcdHeartScale : public ::testing::TestWithParam<LossCase> {};

TEST_P(DcdHeartScale, DefaultEpsIsWithinOnePercentOfLiblinear) {
  const LossCase c = GetParam();
  const Problem problem = test::problem_of("heart_scale");
  const double f_star = liblinear_f(problem, c.loss, c.fixture);
  for (const std::string rule : {"perm", "cyclic", "uniform"}) {
    test::RecordingReporter quiet;
    const SolveResult result = run_dcd(problem, dcd_params(c.loss, 0.1), quiet, rule);
    EXPECT_EQ(result.status, Status::kConverged) << rule;
    EXPECT_LT((result.objective - f_star) / f_star, 0.01) << rule;
    EXPECT_GE(result.objective, f_star * (1 - 1e-6)) << rule;
    EXPECT_EQ(result.objective, evaluate(problem, c.loss, result.w).objective);
  }
}

TEST_P(DcdHeartScale, TightEpsMeetsKktAndClosesTheGap) {
  const LossCase c = GetParam();
  const Problem problem = test::problem_of("heart_scale");
  GapRecorder recorder(problem, c.loss);
  const SolveResult result = run_dcd(problem, dcd_params(c.loss, 1e-6), recorder);
  ASSERT_EQ(result.status, Status::kConverged);
  // LIBLINEAR's -s 3 -e 0.0001 stopped at its 1000 iterations, 4e-5 above
  // the optimum; -s 1 converged.
  const double f_star = liblinear_f(problem, c.loss, c.fixture);
  EXPECT_LE(result.objective, f_star * (1 + 1e-7));
  EXPECT_GE(result.objective, f_star * (1 - 1e-4));
  // w is sum_j y_j alpha_j x_j.
  const std::vector<double> w = w_of(problem, result.alpha);
  for (std::size_t i = 0; i < w.size(); ++i) EXPECT_NEAR(result.w[i], w[i], 1e-9);
  // KKT: G_j = m_j - 1 + D_jj alpha_j is >= 0 at alpha_j = 0, 0 inside and
  // <= 0 at U_j.
  const std::vector<double> m = margins(problem, result.w);
  for (std::size_t j = 0; j < m.size(); ++j) {
    const double C = problem.cost(j);
    const double a = result.alpha[j];
    const double G = m[j] - 1 + (c.loss == LossKind::kL2Svm ? a / (2 * C) : 0.0);
    ASSERT_GE(a, 0.0);
    if (c.loss == LossKind::kL1Svm) {
      ASSERT_LE(a, C);
    }
    if (a == 0) {
      EXPECT_GE(G, -1e-5);
    } else if (c.loss == LossKind::kL1Svm && a == C) {
      EXPECT_LE(G, 1e-5);
    } else {
      EXPECT_NEAR(G, 0.0, 1e-5);
    }
  }
  // The gap is >= 0 in every epoch and all but closed at the end; nnz_ops grows.
  ASSERT_EQ(recorder.gaps.size(), static_cast<std::size_t>(result.iterations));
  for (double g : recorder.gaps) EXPECT_GE(g, -1e-9);
  EXPECT_LT(recorder.gaps.back(), 1e-5 * result.objective);
  EXPECT_GT(recorder.gaps.front(), 100 * recorder.gaps.back());
  for (std::size_t k = 1; k < recorder.nnz_ops.size(); ++k) {
    EXPECT_GT(recorder.nnz_ops[k], recorder.nnz_ops[k - 1]);
  }
  EXPECT_EQ(recorder.nnz_ops.back(), result.nnz_ops);
}

TEST_P(DcdHeartScale, ShrinkingReachesTheSameOptimum) {
  const LossCase c = GetParam();
  const Problem problem = test::problem_of("heart_scale");
  Params params = dcd_params(c.loss, 1e-6);
  const SolveResult shrunk = run_dcd(problem, params);
  params.own<DualOptions>().shrink = false;
  const SolveResult full = run_dcd(problem, params);
  EXPECT_NEAR(shrunk.objective, full.objective, 1e-6 * full.objective);
  // L1-SVM has many alpha_j at a bound (heart_scale: 107 of 270 support
  // vectors), which shrinking skips: fewer nonzeros touched. (L2-SVM has 193,
  // and U = inf, so there is little to skip.)
  if (c.loss == LossKind::kL1Svm) {
    EXPECT_LT(shrunk.nnz_ops, full.nnz_ops);
  }
}

TEST_P(DcdHeartScale, ClassWeightsMatchLiblinearW) {
  const LossCase c = GetParam();
  const test::Data& data = test::load("heart_scale");
  const Problem problem = one_vs_rest(data.file.features, data.classes, 0, 2.0, 0.5, &data.rows);
  const SolveResult result = run_dcd(problem, dcd_params(c.loss, 1e-6));
  const double f_star = liblinear_f(problem, c.loss, c.weighted);
  EXPECT_NEAR(result.objective, f_star, 1e-5 * f_star);
  if (c.loss == LossKind::kL1Svm) {
    for (std::size_t j = 0; j < problem.num_rows(); ++j)
      EXPECT_LE(result.alpha[j], problem.cost(j));
  }
}

INSTANTIATE_TEST_SUITE_P(
    Losses, DcdHeartScale,
    ::testing::Values(LossCase{LossKind::kL1Svm, "heart_scale_l1svm_opt.liblinear.model",
                               "heart_scale_l1svm_weights_opt.liblinear.model"},
                      LossCase{LossKind::kL2Svm, "heart_scale_l2svm_opt.liblinear.model",
                               "heart_scale_l2svm_weights_opt.liblinear.model"}));

TEST(Dcd, BiasFeatureMatchesLiblinearWithBias) {
  const test::Data& data = test::load("heart_scale");
  CscMatrix x = data.file.features;
  append_constant_column(x, 1.0);
  const CsrMatrix rows = to_csr(x);
  const Problem problem = one_vs_rest(x, data.classes, 0, 1.0, 1.0, &rows);
  const SolveResult result = run_dcd(problem, dcd_params(LossKind::kL1Svm, 1e-6));
  // LIBLINEAR stopped at its 1000 iterations here ("reaching max number of
  // iterations"), a little above the optimum; eps 1e-6 gets closer.
  const double f_star =
      liblinear_f(problem, LossKind::kL1Svm, "heart_scale_l1svm_bias_opt.liblinear.model");
  EXPECT_LE(result.objective, f_star);
  EXPECT_GT(result.objective, f_star * (1 - 1e-3));
  EXPECT_NE(result.w.back(), 0.0);
}

TEST(Dcd, HeldOutRowsAreSkippedAndMatchTrainingWithoutThem) {
  for (LossKind loss : {LossKind::kL1Svm, LossKind::kL2Svm}) {
    const Small s;
    const SolveResult held = run_dcd(s.problem, dcd_params(loss, 1e-9));
    EXPECT_EQ(held.alpha[4], 0.0);
    // The same problem without row 4.
    const CscMatrix kept = select_rows(s.x, {0, 1, 2, 3, 5});
    const CsrMatrix kept_rows = to_csr(kept);
    const Problem without{kept, &kept_rows, {1, -1, 1, -1, 1}, 2.0, 0.5};
    const SolveResult copy = run_dcd(without, dcd_params(loss, 1e-9));
    ASSERT_EQ(held.w.size(), copy.w.size());
    // The rule numbers the kept rows alike in both: the same steps, bit for bit.
    EXPECT_EQ(held.w, copy.w);
    // The empty row 2 (x = 0): G = -1 always, so alpha is at U (L1) or at
    // the L2 minimizer 2 C (G = -1 + alpha / (2 C) = 0).
    EXPECT_NEAR(held.alpha[2], loss == LossKind::kL1Svm ? 2.0 : 4.0, 1e-9);
  }
}

TEST(Dcd, StopsAtMaxIter) {
  const Problem problem = test::problem_of("heart_scale");
  Params params = dcd_params(LossKind::kL2Svm, 1e-12);
  params.max_iter = 3;
  const SolveResult result = run_dcd(problem, params);
  EXPECT_EQ(result.iterations, 3);
  EXPECT_EQ(result.status, Status::kMaxIter);
}

TEST(Dcd, GapTolStopsOnceTheGapIsSmallEnough) {
  const Problem problem = test::problem_of("heart_scale");
  Params params = dcd_params(LossKind::kL1Svm, 1e-12);
  params.own<GapTolOptions>().gap_tol = 1.0;
  GapRecorder recorder(problem, LossKind::kL1Svm);
  const SolveResult result = run_dcd(problem, params, recorder);
  EXPECT_EQ(result.status, Status::kConverged);
  ASSERT_GE(recorder.gaps.size(), 2u);
  EXPECT_LE(recorder.gaps.back(), 1.0);
  EXPECT_GT(recorder.gaps[recorder.gaps.size() - 2], 1.0);
}

TEST(Dcd, RowRefusesWarmStartAndWritesDualModelTypes) {
  const SolverInfo& row = solver_info(kDcd);
  EXPECT_TRUE(row.dual);
  EXPECT_TRUE(row.needs_rows);
  EXPECT_FALSE(row.warm_start);
  EXPECT_STREQ(row.rule, "perm");
  EXPECT_STREQ(model_solver_type(row, LossKind::kL2Svm, RegularizerKind::kL2),
               "L2R_L2LOSS_SVC_DUAL");
  EXPECT_STREQ(model_solver_type(row, LossKind::kL1Svm, RegularizerKind::kL2),
               "L2R_L1LOSS_SVC_DUAL");
  EXPECT_EQ(row.losses, (std::vector<LossKind>{LossKind::kL2Svm, LossKind::kL1Svm}));
}

TEST(Dcd, ValidateRefusesDualFlagsForPrimalSolvers) {
  Params params;
  params.solver = SolverKind::kCdPer;
  params.own<DualOptions>().shrink = false;
  EXPECT_NE(test::error_message([&] { validate(resolve_defaults(params)); }).find("--no-shrink"),
            std::string::npos);
  params.own<DualOptions>().shrink.reset();
  params.own<GapTolOptions>().gap_tol = 0.5;
  EXPECT_NE(test::error_message([&] { validate(resolve_defaults(params)); }).find("--gap-tol"),
            std::string::npos);
  params.solver = kDcd;
  EXPECT_EQ(test::error_message([&] { validate(resolve_defaults(params)); }), "(no error)");
  params.loss = LossKind::kLogistic;
  EXPECT_NE(test::error_message([&] { validate(resolve_defaults(params)); }).find("lr"),
            std::string::npos);
}

TEST(Dcd, SameSeedSameWeights) {
  const Problem problem = test::problem_of("heart_scale");
  const Params params = dcd_params(LossKind::kL1Svm, 0.1);
  test::RecordingReporter a, b;
  EXPECT_EQ(run_dcd(problem, params, a, "perm", 5).w, run_dcd(problem, params, b, "perm", 5).w);
}

}  // namespace
}  // namespace cdl
