// Regression models, the task seam of the model layer: cdpredict reads
// LIBLINEAR's SVR models and predicts what liblinear-predict does, with its
// mean squared error and squared correlation (fixtures: tests/fixtures/README.md).
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "model/model.h"
#include "test_util.h"
#include "util/error.h"

namespace cdl {
namespace {

const std::string kModel = "diabetes_svr.liblinear.model";

TEST(RegressionModel, ReadsLiblinearSvrModelAndWritesItBackUnchanged) {
  const std::string text = test::read_file(test::fixture_path(kModel));
  const LinearModel model = parse_model(text, kModel);
  EXPECT_EQ(model.task(), Task::kRegression);
  EXPECT_EQ(model.nr_class(), 2u);
  EXPECT_EQ(model.nr_w(), 1u);
  EXPECT_TRUE(model.labels.empty());
  EXPECT_FALSE(model.has_probabilities());
  EXPECT_EQ(model.num_features, 10u);
  EXPECT_EQ(model.w.size(), 11u);  // with the bias
  EXPECT_EQ(format_model(model), text);
}

TEST(RegressionModel, HeaderIsStrict) {
  const std::string good =
      "solver_type L2R_L2LOSS_SVR\nnr_class 2\nnr_feature 1\nbias -1\nw\n0.5 \n";
  EXPECT_NO_THROW(parse_model(good, "m"));
  const auto error = [](const std::string& text) -> std::string {
    try {
      parse_model(text, "m");
    } catch (const ParseError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(error("solver_type L2R_L2LOSS_SVR\nnr_class 2\nlabel 1 -1\nnr_feature 1\nbias -1\nw\n"
                  "0.5 \n"),
            "m:3: a regression model (L2R_L2LOSS_SVR) has no 'label' line");
  EXPECT_EQ(error("solver_type L2R_L1LOSS_SVR_DUAL\nnr_class 3\nnr_feature 1\nbias -1\nw\n0.5 \n"),
            "m:5: nr_class of a regression model is 2, got 3");
  EXPECT_EQ(error("solver_type ONECLASS_SVM\nnr_class 2\nnr_feature 1\nbias -1\nw\n0.5 \n"),
            "m:5: missing 'rho' before 'w'");
  // A classifier still needs its labels.
  EXPECT_EQ(error("solver_type L2R_L2LOSS_SVC\nnr_class 2\nnr_feature 1\nbias -1\nw\n0.5 \n"),
            "m:5: missing 'label' before 'w'");
}

TEST(RegressionScore, MatchesTheDirectFormulas) {
  const std::vector<double> v = {1.5, -0.25, 3.0, 2.0, 0.0};
  const std::vector<double> y = {1.0, 0.5, 2.5, 2.5, -1.0};
  RegressionScore score;
  double se = 0, mv = 0, my = 0;
  for (std::size_t k = 0; k < v.size(); ++k) {
    score.add(v[k], y[k]);
    se += (v[k] - y[k]) * (v[k] - y[k]);
    mv += v[k] / 5;
    my += y[k] / 5;
  }
  double cov = 0, vv = 0, yy = 0;  // centred, a different formula for the same number
  for (std::size_t k = 0; k < v.size(); ++k) {
    cov += (v[k] - mv) * (y[k] - my);
    vv += (v[k] - mv) * (v[k] - mv);
    yy += (y[k] - my) * (y[k] - my);
  }
  EXPECT_DOUBLE_EQ(score.mean_squared_error(), se / 5);
  EXPECT_NEAR(score.squared_correlation(), cov * cov / (vv * yy), 1e-14);
}

TEST(RegressionPredict, SameValuesAndScoresAsLiblinearPredict) {
  test::ScratchDir dir;
  const auto result =
      test::run_tool("cdpredict", test::fixture_path("diabetes.svm") + " " +
                                      test::fixture_path(kModel) + " " + dir.file("out"));
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(test::read_file(dir.file("out")),
            test::read_file(test::fixture_path("diabetes_svr.liblinear.predictions")));
  EXPECT_EQ(result.out,
            "Mean squared error = 3039.33 (regression)\n"
            "Squared correlation coefficient = 0.504248 (regression)\n");

  const auto probabilities =
      test::run_tool("cdpredict", "-b 1 " + test::fixture_path("diabetes.svm") + " " +
                                      test::fixture_path(kModel) + " " + dir.file("p"));
  EXPECT_EQ(probabilities.status, 1);
  EXPECT_NE(probabilities.err.find("L2R_L2LOSS_SVR"), std::string::npos) << probabilities.err;
}

}  // namespace
}  // namespace cdl
