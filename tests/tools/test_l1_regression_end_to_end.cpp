// cdtrain -r l1 and the regression losses end to end: model types, cdpredict
// on them, -v's regression scores, and the refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "model/model.h"
#include "test_util.h"

namespace cdl {
namespace {

using test::run_script;
using test::ScratchDir;

// L1-regularized models at LIBLINEAR's -s 5/-s 6 optimum (C = 0.1, tight
// eps) predict heart_scale as liblinear-predict does with LIBLINEAR's model
// (tests/fixtures/README.md).
TEST(L1EndToEnd, ModelsSayL1rAndPredictAsLiblinear) {
  const ScratchDir dir;
  for (const auto& [loss, number, type] :
       {std::tuple{"l2svm", "5", "L1R_L2LOSS_SVC"}, std::tuple{"lr", "6", "L1R_LR"}}) {
    SCOPED_TRACE(loss);
    const auto run = run_script(
        dir, std::string("$CDTRAIN -q -r l1 -l ") + loss +
                 " -c 0.1 -e 1e-6 $DATA/heart_scale m && $CDPREDICT $DATA/heart_scale m out");
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_EQ(run.out, "Accuracy = " +
                           std::string(number == std::string("5") ? "84.4444% (228/270)"
                                                                  : "84.0741% (227/270)") +
                           "\n");
    const LinearModel model = load_model(dir.file("m"));
    EXPECT_EQ(model.solver_type, type);
    EXPECT_EQ(test::read_file(dir.file("out")),
              test::read_file(test::fixture_path(std::string("heart_scale_l1r_s") + number +
                                                 ".liblinear.predictions")));
  }
}

// The Lasso at cdtrain's defaults against scikit-learn's optimum of the
// same objective, ||w||_1 + C ||y - Xw||^2 = 2 C l (||y - Xw||^2 / (2 l) +
// alpha ||w||_1) with alpha = 1 / (2 C l), fit_intercept=False:
//   Lasso(alpha=1/(2*C*442), fit_intercept=False, tol=1e-14,
//         max_iter=1000000).fit(X, y) on tests/fixtures/diabetes.svm
// (python3-sklearn 1.2.1) gave f* = 116897.806816 at C = 0.01 and
// 11497243.7488 at C = 1. The gap stop (eps 1e-3) bounds f - f* by 0.1%.
TEST(RegressionEndToEnd, LassoDefaultsReachScikitLearnsOptimum) {
  const ScratchDir dir;
  const std::string data = test::fixture_path("diabetes.svm");
  for (const auto& [cost, f_star] : {std::pair{"0.01", 116897.806816}, {"1", 11497243.7488}}) {
    SCOPED_TRACE(cost);
    const auto run =
        run_script(dir, std::string("$CDTRAIN -q -r l1 -l sq -c ") + cost + " " + data + " m");
    ASSERT_EQ(run.status, 0) << run.err;
    const LinearModel model = load_model(dir.file("m"));
    // f of the model, from the data file.
    std::istringstream in(test::read_file(data));
    std::string line;
    const double c = std::stod(cost);
    double f = 0;
    for (double wi : model.w) f += std::fabs(wi);
    while (std::getline(in, line)) {
      std::istringstream fields(line);
      double y = 0;
      fields >> y;
      double score = 0;
      std::string pair;
      while (fields >> pair) {
        const std::size_t colon = pair.find(':');
        score += model.w[std::stoul(pair.substr(0, colon)) - 1] * std::stod(pair.substr(colon + 1));
      }
      f += c * (y - score) * (y - score);
    }
    EXPECT_GE(f, f_star * (1 - 1e-9));
    EXPECT_LE(f, f_star * (1 + 1e-3));
  }
}

// Regression: SVR at LIBLINEAR's -s 11 optimum predicts what it does; the
// Lasso and ridge write their own types, which cdpredict reads.
TEST(RegressionEndToEnd, TrainsAndPredictsEveryRegressionModel) {
  const ScratchDir dir;
  const std::string data = test::fixture_path("diabetes.svm");
  const auto svr = run_script(dir, "$CDTRAIN -q -l svr2 -B 1 -e 1e-9 --max-iter 100000 " + data +
                                       " m && $CDPREDICT " + data + " m out");
  ASSERT_EQ(svr.status, 0) << svr.err;
  EXPECT_EQ(load_model(dir.file("m")).solver_type, "L2R_L2LOSS_SVR");
  // liblinear-predict printed "Mean squared error = 3039.55 (regression)" and
  // "Squared correlation coefficient = 0.504221" for LIBLINEAR's model at
  // -e 1e-7 (diabetes_svr_tight.liblinear.model); ours agrees to the digits
  // shown but the last of the correlation (0.5042205 rounds either way).
  EXPECT_EQ(svr.out.rfind("Mean squared error = 3039.55 (regression)\n"
                          "Squared correlation coefficient = 0.50422",
                          0),
            0u)
      << svr.out;
  const LinearModel peer = load_model(test::fixture_path("diabetes_svr_tight.liblinear.model"));
  const LinearModel ours = load_model(dir.file("m"));
  ASSERT_EQ(ours.w.size(), peer.w.size());
  for (std::size_t i = 0; i < ours.w.size(); ++i) {
    EXPECT_NEAR(ours.w[i], peer.w[i], 1e-4 * (1 + std::fabs(peer.w[i]))) << i;
  }
  for (const auto& [args, type] : {std::pair{"-l sq -r l1 -c 0.01", "L1R_SQUARED_LOSS"},
                                   std::pair{"-l sq -c 0.01", "L2R_SQUARED_LOSS"},
                                   std::pair{"-l svr2 -p 2 -r l1", "L1R_L2LOSS_SVR"}}) {
    SCOPED_TRACE(args);
    const auto run = run_script(dir, std::string("$CDTRAIN -q ") + args + " " + data +
                                         " m && $CDPREDICT " + data + " m out");
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_EQ(load_model(dir.file("m")).solver_type, type);
    EXPECT_NE(run.out.find("Mean squared error = "), std::string::npos) << run.out;
  }
}

// TRON on the L2-loss SVR reaches LIBLINEAR 2.3's -s 11 optimum at -e 1e-7
// (diabetes_svr_tight.liblinear.model), with LIBLINEAR's stopping rule and
// eps, and the same model for any -m.
TEST(RegressionEndToEnd, TronSvrReachesLiblinearsOptimum) {
  const ScratchDir dir;
  const std::string data = test::fixture_path("diabetes.svm");
  const auto run =
      run_script(dir, "$CDTRAIN -q -s tron -l svr2 -B 1 -e 1e-7 -m 1 " + data + " m1 && " +
                          "$CDTRAIN -q -s tron -l svr2 -B 1 -e 1e-7 -m 3 " + data + " m3");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(test::read_file(dir.file("m1")), test::read_file(dir.file("m3")));
  const LinearModel peer = load_model(test::fixture_path("diabetes_svr_tight.liblinear.model"));
  const LinearModel ours = load_model(dir.file("m1"));
  EXPECT_EQ(ours.solver_type, "L2R_L2LOSS_SVR");
  ASSERT_EQ(ours.w.size(), peer.w.size());
  for (std::size_t i = 0; i < ours.w.size(); ++i) {
    EXPECT_NEAR(ours.w[i], peer.w[i], 1e-4 * (1 + std::fabs(peer.w[i]))) << i;
  }
}

TEST(RegressionEndToEnd, CrossValidationReportsErrorAndCorrelation) {
  const ScratchDir dir;
  const auto run =
      run_script(dir, "$CDTRAIN -q -l svr2 -v 5 " + test::fixture_path("diabetes.svm"));
  ASSERT_EQ(run.status, 0) << run.err;
  // Both lines name the solver and problem, and end in their value (the
  // last word, which LIBSVM's grid.py reads).
  const std::string run_name = "solver cdper, loss svr2, regularizer l2";
  EXPECT_TRUE(
      std::regex_match(run.out, std::regex(run_name +
                                           ": Cross Validation Mean squared error = "
                                           "[0-9.e+]+\n" +
                                           run_name +
                                           ": Cross Validation Squared correlation coefficient = "
                                           "[0-9.e+-]+\n")))
      << run.out;
  const auto numbered =
      run_script(dir, "$CDTRAIN -s 11 -v 5 " + test::fixture_path("diabetes.svm"));
  ASSERT_EQ(numbered.status, 0) << numbered.err;
  const std::string problem =
      "solver tron, loss svr2, regularizer l2 (LIBLINEAR's -s 11: L2-regularized L2-loss support "
      "vector regression (primal))";
  EXPECT_EQ(numbered.err.rfind("cdtrain: 5-fold cross validation, " + problem + "\n", 0), 0u)
      << numbered.err;
  EXPECT_EQ(numbered.out.rfind(problem + ": Cross Validation Mean squared error = ", 0), 0u)
      << numbered.out;
}

// Regression -v as classification's: one line per fold,
// live and in order, whose errors weighted by the fold sizes give the
// overall mean squared error; per-iteration lines only with -V, each fold
// under its header.
TEST(RegressionEndToEnd, CrossValidationPrintsOneLinePerFold) {
  const ScratchDir dir;
  const std::string data = test::fixture_path("diabetes.svm");
  const auto run = run_script(dir, "$CDTRAIN -s 11 -v 5 " + data);
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.err.find("iter "), std::string::npos) << run.err;
  const std::regex fold(
      "fold ([0-9])/5: mean squared error ([0-9.e+]+) \\(([0-9]+) instances\\), "
      "[0-9.]+ ms");
  std::istringstream lines(run.err);
  std::string line;
  int expected = 1;
  double squared_errors = 0;
  double total = 0;
  while (std::getline(lines, line)) {
    std::smatch m;
    if (!std::regex_match(line, m, fold)) continue;
    EXPECT_EQ(std::stoi(m[1]), expected++);
    squared_errors += std::stod(m[2]) * std::stod(m[3]);
    total += std::stod(m[3]);
  }
  EXPECT_EQ(expected, 6) << run.err;
  EXPECT_EQ(total, 442.0);
  const std::regex overall(".*Cross Validation Mean squared error = ([0-9.e+]+)\n");
  std::smatch m;
  const std::string first_line = run.out.substr(0, run.out.find('\n') + 1);
  ASSERT_TRUE(std::regex_match(first_line, m, overall)) << run.out;
  EXPECT_NEAR(squared_errors / total, std::stod(m[1]), 1e-5 * std::stod(m[1]));

  const auto verbose = run_script(dir, "$CDTRAIN -s 11 -v 5 -V " + data);
  ASSERT_EQ(verbose.status, 0) << verbose.err;
  std::size_t at = 0;
  for (int f = 1; f <= 5; ++f) {
    const std::size_t header = verbose.err.find("fold " + std::to_string(f) + "/5, C = 1\n", at);
    ASSERT_NE(header, std::string::npos) << verbose.err;
    const std::size_t iteration = verbose.err.find("\niter 1 ", header);
    const std::size_t summary = verbose.err.find("fold " + std::to_string(f) + "/5: ", header);
    EXPECT_LT(iteration, summary) << verbose.err;
    at = summary;
  }
}

// A Lasso run's trace has the duality gap (21) as its last column, and the
// gap ends below where it starts.
TEST(RegressionEndToEnd, LassoTraceHasTheDualityGap) {
  const ScratchDir dir;
  const auto run = run_script(dir, "$CDTRAIN -q -r l1 -l sq -c 0.01 -e 1e-6 --trace t.tsv " +
                                       test::fixture_path("diabetes.svm") + " m && cat t.tsv");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out.rfind("iteration\tseconds\tobjective\tgrad_f_norm\tduality_gap\n", 0), 0u)
      << run.out;
  std::istringstream rows(run.out);
  std::string line;
  std::getline(rows, line);
  std::vector<double> gaps;
  while (std::getline(rows, line)) gaps.push_back(std::stod(line.substr(line.rfind('\t') + 1)));
  ASSERT_GE(gaps.size(), 2u);
  EXPECT_GE(gaps.back(), 0.0);
  EXPECT_LT(gaps.back(), 1e-3 * gaps.front());
}

TEST(RegressionEndToEnd, RefusesWithClearErrors) {
  const ScratchDir dir;
  const std::string data = test::fixture_path("diabetes.svm");
  dir.write("bad.svm", "1.5 1:2\n2.5 1:1\nabc 1:3\n");
  const auto non_numeric = run_script(dir, "$CDTRAIN -q -l sq bad.svm m");
  EXPECT_EQ(non_numeric.status, 1);
  EXPECT_NE(non_numeric.err.find("bad.svm:3: label 'abc' is not a number"), std::string::npos)
      << non_numeric.err;

  const auto p_with_lr = run_script(dir, "$CDTRAIN -q -l lr -p 0.2 $DATA/heart_scale m");
  EXPECT_EQ(p_with_lr.status, 2);
  EXPECT_NE(p_with_lr.err.find("-p is the SVR tube width: it needs -l svr2"), std::string::npos)
      << p_with_lr.err;

  const auto classifier_start =
      run_script(dir, "$CDTRAIN -q -l sq -i " + test::fixture_path("heart_scale.liblinear.model") +
                          " " + data + " m");
  EXPECT_EQ(classifier_start.status, 1);
  EXPECT_NE(classifier_start.err.find("is a classifier's"), std::string::npos)
      << classifier_start.err;

  const auto regression_start =
      run_script(dir, "$CDTRAIN -q -i " + test::fixture_path("diabetes_svr.liblinear.model") +
                          " $DATA/heart_scale m");
  EXPECT_EQ(regression_start.status, 1);
  EXPECT_NE(regression_start.err.find("is a regression model (L2R_L2LOSS_SVR)"), std::string::npos)
      << regression_start.err;

  // -C on a regression searches C by mean squared error (the search itself
  // is tested in test_model_selection_end_to_end.cpp) and writes no model.
  const auto search = run_script(dir, "$CDTRAIN -q -l sq -C " + data);
  EXPECT_EQ(search.status, 0) << search.err;
  EXPECT_NE(search.out.find("  CV MSE = "), std::string::npos) << search.out;
  EXPECT_FALSE(std::ifstream(dir.file("m")).good());
}

}  // namespace
}  // namespace cdl
