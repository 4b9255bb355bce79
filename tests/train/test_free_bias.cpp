// -R: the bias weight left out of the regularizer. TRON (LIBLINEAR's -s 0
// and -s 2) and primal CD reach LIBLINEAR 2.50's -R optimum on heart_scale,
// where f's derivative along the bias (by central differences of evaluate())
// is 0; with the L1 regularizer (LIBLINEAR's -s 5 and -s 6 -R) primal CD
// reaches LIBLINEAR 2.50's optimum, where f's one-sided slopes along every
// weight satisfy the optimality conditions of the L1 problem with the bias
// left out (the Lasso's free intercept: test_solver_cd_l1.cpp); the rows
// that do not serve -R, and -R without -B, are refused.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>

#include "model/model.h"
#include "objective/evaluate.h"
#include "solver_test_util.h"
#include "train/train.h"
#include "train/train_regression.h"
#include "util/error.h"

namespace cdl {
namespace {

struct FreeBiasRun {
  const char* solver;
  LossKind loss;
  const char* fixture;
};

// -B 1 -R, eps 1e-8, for a run's solver and loss, validated.
Params free_bias_params(const FreeBiasRun& run, RegularizerKind regularizer) {
  Params params;
  params.solver = find_solver(run.solver)->kind;
  params.loss = run.loss;
  params.regularizer = regularizer;
  params.bias = 1;
  params.free_bias = true;
  params.eps = 1e-8;
  params.max_iter = 100000;
  params.threads = 1;
  params = resolve_defaults(params);
  validate(params);
  return params;
}

// heart_scale with its bias column of 1s (-B 1).
const CscMatrix& heart_scale_with_bias() {
  static const CscMatrix x = [] {
    CscMatrix with_bias = test::load("heart_scale").file.features;
    append_constant_column(with_bias, 1.0);
    return with_bias;
  }();
  return x;
}

// Our model of heart_scale -B 1 with `params`, and LIBLINEAR 2.50's fixture.
std::pair<LinearModel, LinearModel> ours_and_liblinears(const Params& params, const char* fixture) {
  test::RecordingReporter reporter;
  std::pair<LinearModel, LinearModel> out{
      train(heart_scale_with_bias(), test::load("heart_scale").classes, params, reporter),
      load_model(test::fixture_path(fixture))};
  return out;
}

// LIBLINEAR 2.50: `train -s 0 -B 1 -R -e 1e-6 data/heart_scale MODEL` and
// `-s 2` (tests/fixtures/README.md).
constexpr FreeBiasRun kRuns[] = {
    {"tron", LossKind::kLogistic, "heart_scale_s0_R.liblinear250.model"},
    {"tron", LossKind::kL2Svm, "heart_scale_s2_R.liblinear250.model"},
    {"newton", LossKind::kL2Svm, "heart_scale_s2_R.liblinear250.model"},
    {"newton", LossKind::kLogistic, "heart_scale_s0_R.liblinear250.model"},
    {"cdper", LossKind::kLogistic, "heart_scale_s0_R.liblinear250.model"},
    {"cd", LossKind::kL2Svm, "heart_scale_s2_R.liblinear250.model"},
};

TEST(FreeBias, ReachesLiblinearsOptimumWithAZeroBiasDerivative) {
  const test::Data& data = test::load("heart_scale");
  const CscMatrix& x = heart_scale_with_bias();
  for (const FreeBiasRun& run : kRuns) {
    SCOPED_TRACE(std::string(run.solver) + " " + loss_info(run.loss).name);
    const Params params = free_bias_params(run, RegularizerKind::kL2);
    const auto [ours, theirs] = ours_and_liblinears(params, run.fixture);
    ASSERT_EQ(ours.w.size(), theirs.w.size());
    const Problem problem = one_vs_rest(x, data.classes, 0, 1.0, 1.0);
    const Regularizer free = regularizer_of(params, x.num_cols);
    const double f_ours = evaluate(problem, run.loss, ours.w, free).objective;
    const double f_theirs = evaluate(problem, run.loss, theirs.w, free).objective;
    EXPECT_LE(f_ours, f_theirs * (1 + 1e-9));
    EXPECT_NEAR(f_ours, f_theirs, 1e-7 * f_theirs);
    for (std::size_t i = 0; i < ours.w.size(); ++i) EXPECT_NEAR(ours.w[i], theirs.w[i], 2e-4) << i;
    // f's derivative along each weight by central differences: 0 at the
    // optimum, the bias's included, although its weight is far from 0.
    const double h = 1e-5;
    for (std::size_t i = 0; i < ours.w.size(); ++i) {
      std::vector<double> up = ours.w;
      std::vector<double> down = ours.w;
      up[i] += h;
      down[i] -= h;
      const double slope = (evaluate(problem, run.loss, up, free).objective -
                            evaluate(problem, run.loss, down, free).objective) /
                           (2 * h);
      EXPECT_NEAR(slope, 0.0, 1e-4) << i;
    }
    EXPECT_GT(std::fabs(ours.w.back()), 0.5);
    // The bias is unregularized: with it regularized, the optimum moves.
    const double regularized = evaluate(problem, run.loss, ours.w).objective;
    EXPECT_NEAR(regularized - f_ours, 0.5 * ours.w.back() * ours.w.back(), 1e-9 * f_ours);
  }
}

// LIBLINEAR 2.50's -s 11 -R (the labels as targets): primal CD reaches it.
TEST(FreeBias, SvrReachesLiblinearsOptimum) {
  const test::Data& data = test::load("heart_scale");
  CscMatrix x = data.file.features;
  append_constant_column(x, 1.0);
  Params params;
  params.solver = find_solver("cdper")->kind;
  params.loss = LossKind::kSvrL2;
  params.bias = 1;
  params.free_bias = true;
  params.eps = 1e-8;
  params.max_iter = 100000;
  params.threads = 1;
  params = resolve_defaults(params);
  validate(params);
  test::RecordingReporter reporter;
  const LinearModel ours = train_regression(x, data.file.labels, params, reporter);
  const LinearModel theirs = load_model(test::fixture_path("heart_scale_s11_R.liblinear250.model"));
  ASSERT_EQ(ours.w.size(), theirs.w.size());
  const Problem problem = regression_problem(x, data.file.labels, 1.0);
  const Regularizer free = regularizer_of(params, x.num_cols);
  const double f_ours = evaluate(problem, LossKind::kSvrL2, ours.w, free, 0.1).objective;
  const double f_theirs = evaluate(problem, LossKind::kSvrL2, theirs.w, free, 0.1).objective;
  EXPECT_LE(f_ours, f_theirs * (1 + 1e-9));
  EXPECT_NEAR(f_ours, f_theirs, 1e-7 * f_theirs);
  for (std::size_t i = 0; i < ours.w.size(); ++i) EXPECT_NEAR(ours.w[i], theirs.w[i], 2e-4) << i;
}

// LIBLINEAR 2.50: `train -s 5 -B 1 -R -e 1e-6 data/heart_scale MODEL` and
// `-s 6` (tests/fixtures/README.md), the L1-regularized problems.
constexpr FreeBiasRun kL1Runs[] = {
    {"cdper", LossKind::kL2Svm, "heart_scale_s5_R.liblinear250.model"},
    {"cd", LossKind::kLogistic, "heart_scale_s6_R.liblinear250.model"},
};

TEST(FreeBias, L1ReachesLiblinearsOptimumWhereItsOptimalityConditionsHold) {
  const test::Data& data = test::load("heart_scale");
  const CscMatrix& x = heart_scale_with_bias();
  for (const FreeBiasRun& run : kL1Runs) {
    SCOPED_TRACE(std::string(run.solver) + " " + loss_info(run.loss).name);
    const Params params = free_bias_params(run, RegularizerKind::kL1);
    const auto [ours, theirs] = ours_and_liblinears(params, run.fixture);
    ASSERT_EQ(ours.w.size(), theirs.w.size());
    const Problem problem = one_vs_rest(x, data.classes, 0, 1.0, 1.0);
    const Regularizer free = regularizer_of(params, x.num_cols);
    ASSERT_EQ(free.unregularized, x.num_cols - 1);
    const auto f = [&](const std::vector<double>& w) {
      return evaluate(problem, run.loss, w, free).objective;
    };
    const double f_ours = f(ours.w);
    EXPECT_LE(f_ours, f(theirs.w) * (1 + 1e-9));
    EXPECT_NEAR(f_ours, f(theirs.w), 1e-7 * f_ours);
    // The optimality conditions, from f's one-sided slopes along each
    // weight: both 0 where f is smooth (w_i != 0, and the bias, which has
    // no |.|), and at w_i = 0 the right slope g + 1 >= 0 and the left slope
    // g - 1 <= 0 (|g| <= 1, g the loss part's derivative).
    const double h = 1e-6;
    for (std::size_t i = 0; i < ours.w.size(); ++i) {
      std::vector<double> up = ours.w;
      std::vector<double> down = ours.w;
      up[i] += h;
      down[i] -= h;
      const double right = (f(up) - f_ours) / h;
      const double left = (f_ours - f(down)) / h;
      if (ours.w[i] != 0 || i == free.unregularized) {
        EXPECT_NEAR(right, 0.0, 1e-3) << i;
        EXPECT_NEAR(left, 0.0, 1e-3) << i;
      } else {
        EXPECT_GE(right, -1e-3) << i;
        EXPECT_LE(left, 1e-3) << i;
      }
    }
    // The bias is far from 0 and unpenalized: with |b| in f, f grows by it.
    EXPECT_GT(std::fabs(ours.w.back()), 0.1);
    const double penalized = evaluate(problem, run.loss, ours.w, Regularizer::l1_only()).objective;
    EXPECT_NEAR(penalized - f_ours, std::fabs(ours.w.back()), 1e-9 * f_ours);
  }
}

TEST(FreeBias, RowsThatDoNotServeItAndAMissingBiasAreRefused) {
  const auto message = [](const std::string& solver, LossKind loss, double bias,
                          RegularizerKind regularizer = RegularizerKind::kL2) {
    Params params;
    params.solver = find_solver(solver)->kind;
    params.loss = loss;
    params.regularizer = regularizer;
    params.bias = bias;
    params.free_bias = true;
    return test::error_message([&] { validate(resolve_defaults(params)); });
  };
  EXPECT_EQ(message("tron", LossKind::kLogistic, 1.0), "(no error)");
  EXPECT_EQ(message("cdper", LossKind::kL2Svm, 2.0), "(no error)");
  EXPECT_EQ(message("tron", LossKind::kLogistic, -1.0),
            "-R leaves the bias weight unregularized; it needs a bias feature, -B with a value > "
            "0 (LIBLINEAR asks -B 1)");
  EXPECT_EQ(message("tron", LossKind::kLogistic, 0.0).rfind("-R leaves the bias", 0), 0u);
  const std::string dcd = message("dcd", LossKind::kL2Svm, 1.0);
  EXPECT_EQ(dcd.rfind("-R: solver dcd with -l l2svm -r l2 does not leave the bias unregularized; "
                      "-R is served with -r l2 by cdper -l l2svm/lr/svr2/sq, ",
                      0),
            0u)
      << dcd;
  EXPECT_NE(dcd.find("tron -l l2svm/lr"), std::string::npos) << dcd;
  EXPECT_EQ(dcd.find("pdcd"), std::string::npos) << dcd;
  EXPECT_NE(message("dcd", LossKind::kL1Svm, 1.0).find("use -s pdcd or rcd-pair"),
            std::string::npos);
  EXPECT_NE(message("pegasos", LossKind::kL1Svm, 1.0).find("use -s pdcd or rcd-pair"),
            std::string::npos);
  EXPECT_EQ(message("cdper", LossKind::kL2Svm, 1.0, RegularizerKind::kL1), "(no error)");
  EXPECT_EQ(message("online", LossKind::kLogistic, 1.0, RegularizerKind::kL1), "(no error)");
  // The Lasso takes it (its free intercept, test_solver_cd_l1.cpp); the
  // L2-loss SVR with -r l1 does not.
  EXPECT_EQ(message("cdper", LossKind::kSquared, 1.0, RegularizerKind::kL1), "(no error)");
  const std::string svr = message("cdper", LossKind::kSvrL2, 1.0, RegularizerKind::kL1);
  EXPECT_NE(svr.find("-R: solver cdper with -l svr2 -r l1"), std::string::npos) << svr;
  EXPECT_NE(svr.find("and with -r l1 by cdper -l l2svm/lr/sq, "), std::string::npos) << svr;
  EXPECT_NE(message("pdcd", LossKind::kL1Svm, -1.0)
                .find("fits an unregularized intercept "
                      "already: drop -R"),
            std::string::npos);
}

TEST(FreeBias, CdtrainExitsTwoForAnUnservedRun) {
  const std::string data = test::absolute_data_path("heart_scale");
  const test::CommandResult no_bias =
      test::run_tool("cdtrain", "-q -R -s 0 " + data + " /dev/null");
  EXPECT_EQ(no_bias.status, 2);
  EXPECT_EQ(no_bias.err.rfind("cdtrain: error: -R leaves the bias weight unregularized", 0), 0u)
      << no_bias.err;
  const test::CommandResult dual =
      test::run_tool("cdtrain", "-q -R -B 1 -s 3 " + data + " /dev/null");
  EXPECT_EQ(dual.status, 2);
  EXPECT_NE(dual.err.find("use -s pdcd or rcd-pair"), std::string::npos) << dual.err;
}

}  // namespace
}  // namespace cdl
