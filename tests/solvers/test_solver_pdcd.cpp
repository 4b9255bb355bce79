// pdcd and rcd-pair: Section 2.4's example on the step of PrimalDualCd, and
// the SVM with an unregularized intercept against LIBSVM's stored solution.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <random>
#include <vector>

#include "libsvm_fixture.h"
#include "objective/intercept_gap.h"
#include "select/random.h"
#include "solver_test_util.h"
#include "solvers/intercept_epoch.h"
#include "solvers/pdcd.h"
#include "train/cross_validation.h"
#include "train/train.h"

namespace cdl {
namespace {

// Fercoq & Bianchi, Section 2.4: f(x) = 1/2 (x1 + x2 + x3 - 1)^2, g = h = 0.
// It is pdcd's dual f(alpha) = 1/2 ||sum alpha_j y_j x_j||^2 - e'alpha (+1/2)
// for three instances x_j = (1), y_j = +1, with sigma = 0 (h ignored) and a
// box [0, 10] that the iterates never reach; then beta_i = 1 and tau_i =
// tau_factor.
struct Toy {
  CsrMatrix rows = test::csr_from_dense(3, 1, {1, 1, 1});
  CscMatrix x = to_csc(rows);
  Problem problem{x, &rows, {1, 1, 1}, 10, 10};
};

double distance2_to_third(const std::vector<double>& a) {
  double d = 0;
  for (double v : a) d += (v - 1.0 / 3) * (v - 1.0 / 3);
  return d;
}

TEST(PdcdSection24, ExpectedDistanceAfterOneStepGrowsForTauAboveTwoThirds) {
  const Toy toy;
  for (double tau : {0.5, 2.0 / 3, 0.8, 0.9, 0.99}) {
    SCOPED_TRACE(tau);
    // E||x1 - x*||^2 over the three equally likely coordinates, from x0 = 0.
    double expected = 0;
    for (std::size_t i = 0; i < 3; ++i) {
      PrimalDualCd state(toy.problem, 0.0, tau);
      EXPECT_DOUBLE_EQ(state.tau(i), tau);
      state.step(i);
      EXPECT_DOUBLE_EQ(state.alpha()[i], tau);  // x1_i = 0 - tau (0 + 0 + 0 - 1)
      expected += distance2_to_third(state.alpha()) / 3;
    }
    // The section's formula, (1/3)((1/3 - tau)^2 + 2/9) * 3 / 3 summed over i.
    EXPECT_NEAR(expected, (tau - 1.0 / 3) * (tau - 1.0 / 3) + 2.0 / 9, 1e-15);
    const double start = 1.0 / 3;  // ||x0 - x*||^2
    if (tau > 2.0 / 3 + 1e-12) {
      EXPECT_GT(expected, start);  // not stochastically Fejer monotone
    } else if (tau < 2.0 / 3 - 1e-12) {
      EXPECT_LT(expected, start);
    } else {
      EXPECT_NEAR(expected, start, 1e-15);
    }
  }
}

TEST(PdcdSection24, ConvergesForTauBelowOneWithMeanOneThird) {
  const Toy toy;
  for (double tau : {0.5, 0.9}) {
    SCOPED_TRACE(tau);
    std::vector<double> mean(3, 0.0);
    const int runs = 3000;
    for (int run = 0; run < runs; ++run) {
      std::mt19937_64 rng(derive_seed(42, static_cast<std::uint64_t>(run)));
      PrimalDualCd state(toy.problem, 0.0, tau);
      for (int k = 0; k < 200; ++k) state.step(uniform_index(rng, 3));
      const std::vector<double>& a = state.alpha();
      // Converged to a minimizer: x1 + x2 + x3 = 1.
      ASSERT_NEAR(a[0] + a[1] + a[2], 1.0, 1e-12);
      for (std::size_t i = 0; i < 3; ++i) mean[i] += a[i] / runs;
    }
    // By symmetry the limit's mean is x* = (1/3, 1/3, 1/3).
    for (double m : mean) EXPECT_NEAR(m, 1.0 / 3, 0.02);
  }
}

TEST(PdcdSection24, DivergesBeyondTheCoordinateBound) {
  // tau = 2.5 > 2/beta_i: each step multiplies the residual by 1 - tau.
  const Toy toy;
  PrimalDualCd state(toy.problem, 0.0, 2.5);
  for (std::size_t k = 0; k < 9; ++k) state.step(k % 3);
  const auto& a = state.alpha();
  EXPECT_GT(std::fabs(a[0] + a[1] + a[2] - 1.0), 1.0);
}

// eps unset: the solver's default, and no --max-iter (the limit the
// solver scales itself).
Params intercept_params(const char* solver, std::optional<double> eps) {
  Params params;
  params.solver = SolverKind(solver);
  params.loss = LossKind::kL1Svm;
  params.eps = eps;
  params.quiet = true;
  params.threads = 1;
  return resolve_defaults(params);
}

double training_accuracy(const LinearModel& model, const test::Data& data) {
  const std::vector<int> predicted = model.predict(data.file.features);
  std::size_t correct = 0;
  for (std::size_t j = 0; j < predicted.size(); ++j) {
    correct += predicted[j] == static_cast<int>(data.file.labels[j]);
  }
  return 100.0 * static_cast<double>(correct) / static_cast<double>(predicted.size());
}

struct LibsvmCase {
  const char* solver;
  const char* data;
  double weight;  // of class -1
};

class InterceptVsLibsvm : public ::testing::TestWithParam<LibsvmCase> {};

TEST_P(InterceptVsLibsvm, ObjectiveInterceptAndAccuracyMatch) {
  const LibsvmCase c = GetParam();
  const test::Data& data = test::load(c.data);
  // At the defaults: the intercept test of intercept_epoch.h, no -e or
  // --max-iter.
  Params params = intercept_params(c.solver, std::nullopt);
  if (c.weight != 1.0) params.class_weights[-1] = c.weight;
  test::RecordingReporter reporter;
  const LinearModel model = train(data.file.features, data.classes, params, reporter);
  const test::LibsvmFigures libsvm = test::libsvm_figures(c.data, c.weight);
  ASSERT_EQ(model.bias, 1.0);
  ASSERT_EQ(model.num_features, data.file.features.num_cols);
  ASSERT_EQ(model.w.size(), data.file.features.num_cols + 1);
  EXPECT_EQ(model.solver_type, "L2R_L1LOSS_SVC_DUAL");
  // P of the model, recomputed from scratch.
  const Problem problem =
      one_vs_rest(data.file.features, data.classes, 0, 1.0, c.weight, &data.rows);
  const double primal = intercept_primal(problem, model.w);
  EXPECT_NEAR(primal, libsvm.objective, 0.01 * libsvm.objective);
  EXPECT_GE(primal, libsvm.objective * (1 - 1e-6));     // LIBSVM's is the optimum
  EXPECT_NEAR(model.w.back(), libsvm.intercept, 1e-3);  // the polish: 1e-5 here
  EXPECT_NEAR(training_accuracy(model, data), libsvm.accuracy, 0.3);
  // The reported gap bounds the model's suboptimality.
  ASSERT_FALSE(reporter.iterations.empty());
  const IterationInfo& last = reporter.iterations.back();
  EXPECT_TRUE(last.intercept);
  EXPECT_NEAR(last.primal, primal, 1e-9 * primal);
  EXPECT_LE(last.gap, *params.eps * last.primal);
  EXPECT_GE(primal - libsvm.objective, -1e-6 * primal);
  EXPECT_LE(primal - libsvm.objective, last.gap + 1e-6 * primal);
}

INSTANTIATE_TEST_SUITE_P(Libsvm, InterceptVsLibsvm,
                         ::testing::Values(LibsvmCase{"pdcd", "heart_scale", 1.0},
                                           LibsvmCase{"pdcd", "heart_scale", 0.5},
                                           LibsvmCase{"pdcd", "breast-cancer_scale", 1.0},
                                           LibsvmCase{"rcd-pair", "heart_scale", 1.0},
                                           LibsvmCase{"rcd-pair", "heart_scale", 0.5},
                                           LibsvmCase{"rcd-pair", "breast-cancer_scale", 1.0}));

TEST(Pdcd, GapsDecreaseOverallAndUniformDrawsConverge) {
  const test::Data& data = test::load("heart_scale");
  for (const char* rule : {"uniform", "perm", "cyclic"}) {
    SCOPED_TRACE(rule);
    Params params = intercept_params("pdcd", 1e-3);
    params.own<SelectOptions>().rule = rule;
    test::RecordingReporter reporter;
    train(data.file.features, data.classes, params, reporter);
    ASSERT_GE(reporter.iterations.size(), 2u);
    EXPECT_LE(reporter.iterations.back().gap, 1e-3 * reporter.iterations.back().primal);
    EXPECT_LT(reporter.iterations.back().gap, reporter.iterations.front().gap);
    for (const IterationInfo& info : reporter.iterations) EXPECT_GE(info.gap, -1e-9);
  }
}

TEST(Pdcd, SameSeedSameModelAndGapTolStops) {
  const test::Data& data = test::load("heart_scale");
  Params params = intercept_params("pdcd", 1e-3);
  params.seed = 5;
  test::RecordingReporter a_log, b_log;
  const LinearModel a = train(data.file.features, data.classes, params, a_log);
  const LinearModel b = train(data.file.features, data.classes, params, b_log);
  EXPECT_EQ(a.w, b.w);
  params.own<GapTolOptions>().gap_tol = 1.0;
  test::RecordingReporter c_log;
  train(data.file.features, data.classes, params, c_log);
  ASSERT_FALSE(c_log.iterations.empty());
  EXPECT_LE(c_log.iterations.back().gap, 1.0);
  for (std::size_t k = 0; k + 1 < c_log.iterations.size(); ++k) {
    EXPECT_GT(c_log.iterations[k].gap, 1.0);
  }
}

TEST(Pdcd, HeldOutRowsGiveTheModelOfTheSubset) {
  const test::Data& data = test::load("heart_scale");
  const CscMatrix& x = data.file.features;
  std::vector<std::uint8_t> held_out(x.num_rows, 0);
  std::vector<std::size_t> kept;
  for (std::size_t j = 0; j < x.num_rows; ++j) {
    held_out[j] = j % 4 == 1;
    if (!held_out[j]) kept.push_back(j);
  }
  const CscMatrix sub = select_rows(x, kept);
  std::vector<double> sub_labels;
  for (std::size_t j : kept) sub_labels.push_back(data.file.labels[j]);
  const ClassMap sub_classes = map_classes(sub_labels);
  ASSERT_EQ(sub_classes.labels, data.classes.labels);
  for (const char* solver : {"pdcd", "rcd-pair"}) {
    SCOPED_TRACE(solver);
    const Params params = intercept_params(solver, 1e-3);
    test::RecordingReporter log;
    const LinearModel whole = train(x, data.classes, params, log, nullptr, &held_out);
    const LinearModel part = train(sub, sub_classes, params, log);
    ASSERT_EQ(whole.w.size(), part.w.size());
    for (std::size_t i = 0; i < whole.w.size(); ++i) EXPECT_NEAR(whole.w[i], part.w[i], 1e-10);
  }
  // Cross validation predicts with the intercept.
  Params params = intercept_params("pdcd", 1e-3);
  params.cv_folds = 5;
  test::RecordingReporter log;
  EXPECT_GT(cross_validate(x, data.classes, params, log).accuracy, 0.8);
}

// The stopping quantity sqrt(2 (P - D)) bounds ||w - w*||: checked against
// w* from LIBSVM's alpha (tests/fixtures/heart_scale.libsvm.model, the
// command in tests/fixtures/README.md) at several points of a run.
TEST(InterceptStop, WeightDistanceBoundHoldsAgainstLibsvmSolution) {
  const test::Data& data = test::load("heart_scale");
  const Problem problem = one_vs_rest(data.file.features, data.classes, 0, 1.0, 1.0, &data.rows);
  const std::vector<double> w_star =
      weights_of(problem, test::libsvm_alpha("heart_scale.libsvm.model", data.rows));
  for (const char* solver : {"pdcd", "rcd-pair"}) {
    for (std::int64_t epochs : {5, 50, 500, 3000}) {
      SCOPED_TRACE(std::string(solver) + " " + std::to_string(epochs));
      Params params = intercept_params(solver, 1e-12);
      params.max_iter = epochs;
      test::RecordingReporter reporter;
      const LinearModel model = train(data.file.features, data.classes, params, reporter);
      InterceptGap point;
      point.gap = reporter.iterations.back().gap;
      double distance2 = 0;
      for (std::size_t i = 0; i < w_star.size(); ++i) {
        distance2 += (model.w[i] - w_star[i]) * (model.w[i] - w_star[i]);
      }
      // LIBSVM's own alpha is optimal to -e 1e-5: a little slack.
      EXPECT_LE(std::sqrt(distance2), weight_distance_bound(point) + 1e-4);
    }
  }
}

TEST(InterceptStop, SpreadIsOverTheChecksOfTheRunsSecondHalf) {
  using Checks = std::vector<std::pair<std::int64_t, double>>;
  EXPECT_EQ(intercept_spread(Checks{}), HUGE_VAL);
  EXPECT_EQ(intercept_spread(Checks{{1, 0.5}}), HUGE_VAL);
  // Epochs 5 .. 10: 1.0 at epoch 4 is outside, 0.2 at 5 and 0.25 at 10 inside.
  EXPECT_DOUBLE_EQ(intercept_spread(Checks{{4, 1.0}, {5, 0.2}, {8, 0.22}, {10, 0.25}}), 0.05);
  // One check in the window is not enough.
  EXPECT_EQ(intercept_spread(Checks{{1, 0.0}, {100, 0.0}}), HUGE_VAL);
}

TEST(InterceptStop, GapTolChecksEveryEpochAndTheDefaultThinsOut) {
  Params params = intercept_params("pdcd", std::nullopt);
  InterceptStop sparse(params);
  std::int64_t checks = 0;
  for (std::int64_t epoch = 1; epoch <= 10000; ++epoch) checks += sparse.due(epoch);
  EXPECT_LT(checks, 500);  // 4.5% of the epochs
  EXPECT_TRUE(sparse.due(7));
  params.own<GapTolOptions>().gap_tol = 1e-9;
  InterceptStop every(params);
  for (std::int64_t epoch = 1; epoch <= 1000; ++epoch) EXPECT_TRUE(every.due(epoch));
}

}  // namespace
}  // namespace cdl
