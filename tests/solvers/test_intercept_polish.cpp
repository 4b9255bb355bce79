// The polish of pdcd and rcd-pair (intercept_polish.h) and its place in
// their stopping rule (intercept_epoch.h), against LIBSVM's solution
// (tests/fixtures/libsvm_linear.txt and heart_scale.libsvm.model; the
// commands in tests/fixtures/README.md).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "libsvm_fixture.h"
#include "objective/evaluate.h"
#include "objective/intercept_gap.h"
#include "solver_test_util.h"
#include "solvers/intercept_epoch.h"
#include "solvers/intercept_polish.h"
#include "solvers/pdcd.h"

namespace cdl {
namespace {

double distance(const std::vector<double>& a, const std::vector<double>& b, std::size_t n) {
  double sum = 0;
  for (std::size_t i = 0; i < n; ++i) sum += (a[i] - b[i]) * (a[i] - b[i]);
  return std::sqrt(sum);
}

TEST(KktViolation, IsTwoAtZeroAndSmallAtLibsvmSolution) {
  const test::Data& data = test::load("heart_scale");
  const Problem problem = one_vs_rest(data.file.features, data.classes, 0, 1.0, 1.0, &data.rows);
  // At alpha = 0, w = 0: g_j = -y_j; the positive rows can move up (g = -1),
  // the negative ones down (g = +1).
  const std::vector<double> zero(problem.num_rows(), 0.0);
  EXPECT_DOUBLE_EQ(kkt_violation(problem, zero, std::vector<double>(problem.num_rows(), 0.0)), 2.0);
  // LIBSVM stopped at -e 1e-5 on the same quantity (its m(alpha) - M(alpha));
  // its model file rounds alpha and w, hence the slack.
  const std::vector<double> alpha = test::libsvm_alpha("heart_scale.libsvm.model", data.rows);
  const std::vector<double> scores = decision_values(problem, weights_of(problem, alpha));
  EXPECT_LT(kkt_violation(problem, alpha, scores), 1e-3);
}

TEST(PolishInterceptDual, FromZeroAndFromAnIterateReachesLibsvmSolution) {
  for (const char* name : {"heart_scale", "breast-cancer_scale"}) {
    SCOPED_TRACE(name);
    const test::Data& data = test::load(name);
    const Problem problem = one_vs_rest(data.file.features, data.classes, 0, 1.0, 1.0, &data.rows);
    const test::LibsvmFigures libsvm = test::libsvm_figures(name);
    // A pdcd iterate after 20 epochs (relative gap of a few 1e-2) and alpha = 0.
    PrimalDualCd state(problem, default_pd_sigma(problem), 0.95);
    for (int epoch = 0; epoch < 20; ++epoch) {
      for (std::size_t k = 0; k < state.active_count(); ++k) state.step(k);
    }
    for (const std::vector<double>& start :
         {std::vector<double>(problem.num_rows(), 0.0), state.alpha()}) {
      const PolishedDual polished = polish_intercept_dual(problem, start);
      EXPECT_LE(polished.violation, kPolishTol);
      // Feasible.
      double balance = 0;
      for (std::size_t j = 0; j < polished.alpha.size(); ++j) {
        EXPECT_GE(polished.alpha[j], 0.0);
        EXPECT_LE(polished.alpha[j], problem.cost(j));
        balance += problem.y[j] * polished.alpha[j];
      }
      EXPECT_NEAR(balance, 0.0, 1e-9);
      const InterceptGap point = post_process(problem, polished.alpha);
      EXPECT_LE(point.gap, 1e-6 * point.primal);
      EXPECT_NEAR(point.primal, libsvm.objective, 1e-6 * libsvm.objective);
      EXPECT_NEAR(point.w.back(), libsvm.intercept, 1e-4);
      // The violation recomputed from the point's own scores.
      const std::vector<double> scores =
          decision_values(problem, weights_of(problem, polished.alpha));
      EXPECT_DOUBLE_EQ(kkt_violation(problem, polished.alpha, scores), polished.violation);
    }
  }
}

TEST(PolishInterceptDual, WeightsMatchLibsvmAlpha) {
  const test::Data& data = test::load("heart_scale");
  const Problem problem = one_vs_rest(data.file.features, data.classes, 0, 1.0, 1.0, &data.rows);
  const std::vector<double> w_star =
      weights_of(problem, test::libsvm_alpha("heart_scale.libsvm.model", data.rows));
  const PolishedDual polished =
      polish_intercept_dual(problem, std::vector<double>(problem.num_rows(), 0.0));
  const std::vector<double> w = weights_of(problem, polished.alpha);
  EXPECT_LT(distance(w, w_star, w.size()), 1e-3);
}

TEST(InterceptStop, PolishIsTriedFromTenTimesEpsThenAfterTheEpochDoubles) {
  Params params;
  params.solver = SolverKind("pdcd");
  params.loss = LossKind::kL1Svm;
  params.quiet = true;
  params = resolve_defaults(params);
  const double eps = *params.eps;
  InterceptStop stop(params);
  InterceptGap far;
  far.primal = 100;
  far.gap = 100 * kPolishStart * eps * 1.01;
  InterceptGap near = far;
  near.gap = 100 * kPolishStart * eps * 0.99;
  EXPECT_FALSE(stop.polish_due(50, far, false));
  EXPECT_TRUE(stop.polish_due(50, far, true));  // the last epoch
  EXPECT_TRUE(stop.polish_due(50, near, false));
  // A failed attempt at epoch 50: the next from epoch 100.
  InterceptGap failed = near;
  EXPECT_FALSE(stop.polish_accepted(50, failed, 10 * kPolishTol));
  EXPECT_FALSE(stop.polish_due(99, near, false));
  EXPECT_TRUE(stop.polish_due(100, near, false));
  // A small violation with a gap above eps P is not accepted either.
  failed.gap = 100 * eps * 1.01;
  EXPECT_FALSE(stop.polish_accepted(100, failed, kPolishTol));
  InterceptGap good = near;
  good.gap = 100 * eps * 0.5;
  EXPECT_TRUE(stop.polish_accepted(200, good, kPolishTol));
  EXPECT_TRUE(stop.polished());
  // --gap-tol (the papers' figures) never polishes.
  params.own<GapTolOptions>().gap_tol = 1e-9;
  const InterceptStop figures(params);
  EXPECT_FALSE(figures.polish_due(50, near, false));
  EXPECT_FALSE(figures.polish_due(50, near, true));
}

}  // namespace
}  // namespace cdl
