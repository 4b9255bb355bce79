// cdtrain -s pdcd / rcd-pair end to end: the model's intercept as LIBLINEAR's
// bias weight, read by liblinear-predict (Debian's liblinear-tools 2.3.0)
// and cdpredict alike, accuracy against LIBSVM's, the trace's gap columns
// and the refused flag combinations.
#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "libsvm_fixture.h"
#include "test_util.h"

namespace cdl {
namespace {

std::string data(const std::string& name) { return test::absolute_data_path(name); }

// The X of "Accuracy = X% (c/total)" in `out`, or -1.
double accuracy_in(const std::string& out) {
  const std::regex line("Accuracy = ([0-9.]+)% \\(([0-9]+)/([0-9]+)\\)");
  std::smatch match;
  if (!std::regex_search(out, match, line)) return -1;
  return 100.0 * std::stod(match[2]) / std::stod(match[3]);
}

TEST(PdcdEndToEnd, InterceptIsTheBiasWeightForLiblinearPredictAndCdpredict) {
  for (const char* name : {"heart_scale", "breast-cancer_scale"}) {
    for (const char* solver : {"pdcd", "rcd-pair"}) {
      SCOPED_TRACE(std::string(name) + " " + solver);
      test::ScratchDir dir;
      const std::string model = dir.file("m");
      const auto trained =
          test::run_tool("cdtrain", std::string("-q -s ") + solver +
                                        " -e 0.00001 --max-iter 20000 " + data(name) + " " + model);
      ASSERT_EQ(trained.status, 0) << trained.err;
      const std::string text = test::read_file(model);
      EXPECT_NE(text.find("solver_type L2R_L1LOSS_SVC_DUAL\n"), std::string::npos) << text;
      EXPECT_NE(text.find("\nbias 1\n"), std::string::npos) << text;
      // One weight line per feature, then w0.
      const std::size_t features = std::string(name) == "heart_scale" ? 13 : 10;
      EXPECT_NE(text.find("nr_feature " + std::to_string(features) + "\n"), std::string::npos);
      std::istringstream lines(text.substr(text.find("\nw\n") + 3));
      std::vector<double> w;
      for (double v; lines >> v;) w.push_back(v);
      ASSERT_EQ(w.size(), features + 1);
      const test::LibsvmFigures libsvm = test::libsvm_figures(name);
      EXPECT_NEAR(w.back(), libsvm.intercept, 1e-2);

      const auto ours =
          test::run_tool("cdpredict", data(name) + " " + model + " " + dir.file("ours"));
      ASSERT_EQ(ours.status, 0) << ours.err;
      // liblinear-predict's output for this model, stored (tests/fixtures/README.md).
      EXPECT_EQ(test::read_file(dir.file("ours")),
                test::read_file(test::fixture_path(std::string(name) + "_" + solver +
                                                   ".liblinear.predictions")));
      const double accuracy = accuracy_in(ours.out);
      EXPECT_NEAR(accuracy, libsvm.accuracy, 0.3) << ours.out;
    }
  }
}

TEST(PdcdEndToEnd, TraceHasThePostProcessedGap) {
  test::ScratchDir dir;
  const auto r = test::run_tool("cdtrain", "-q -s pdcd --trace " + dir.file("t.tsv") + " -t " +
                                               data("heart_scale") + " " + data("heart_scale") +
                                               " " + dir.file("m"));
  ASSERT_EQ(r.status, 0) << r.err;
  std::istringstream in(test::read_file(dir.file("t.tsv")));
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "iteration\tseconds\tobjective\tgrad_f_norm\ttest_accuracy\tprimal\tdual\tgap");
  double objective = 0, primal = 0, dual = 0, gap = 0, first_gap = -1, accuracy = 0;
  std::size_t rows = 0;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    double iteration = 0, seconds = 0, gradient = 0;
    fields >> iteration >> seconds >> objective >> gradient >> accuracy >> primal >> dual >> gap;
    ASSERT_FALSE(fields.fail()) << line;
    EXPECT_NEAR(objective, primal, 1e-9 * primal);  // the reported point is the model
    EXPECT_NEAR(gap, primal - dual, 1e-6 * primal);
    EXPECT_GE(gap, 0.0);
    if (first_gap < 0) first_gap = gap;
    ++rows;
  }
  ASSERT_GE(rows, 2u);
  EXPECT_LE(gap, 1e-3 * primal);  // the default -e: relative gap
  EXPECT_LT(gap, first_gap);
  // The last row's test accuracy is the written model's, intercept included.
  const auto predicted =
      test::run_tool("cdpredict", data("heart_scale") + " " + dir.file("m") + " " + dir.file("p"));
  ASSERT_EQ(predicted.status, 0) << predicted.err;
  EXPECT_NEAR(accuracy, accuracy_in(predicted.out), 1e-3);
}

TEST(PdcdEndToEnd, RefusedCombinationsAreUsageErrors) {
  struct Case {
    const char* flags;
    const char* message;
  };
  for (const Case& c :
       {Case{"-s pdcd -B 1", "-B: solver pdcd fits its own unregularized intercept"},
        Case{"-s rcd-pair -B 0", "-B: solver rcd-pair fits its own unregularized intercept"},
        Case{"-s pdcd -l l2svm", "solver pdcd does not train loss l2svm"},
        Case{"-s cdper --pd-sigma 1",
             "--pd-sigma sets pdcd's step sizes; solver cdper does not use it (use -s pdcd)"},
        Case{"-s rcd-pair --tau-factor 0.5",
             "--tau-factor sets pdcd's step sizes; solver rcd-pair does not use it"},
        Case{"-s pdcd --tau-factor 1", "--tau-factor: expected a number in (0, 1), got '1'"},
        Case{"-s pdcd --pd-sigma 0", "--pd-sigma: expected a positive number, got '0'"},
        Case{"-s pdcd --gap-tol -1", "--gap-tol: expected a positive number, got '-1'"},
        Case{"-s pdcd -i m0", "-i: pdcd always starts from w = 0"}}) {
    SCOPED_TRACE(c.flags);
    test::ScratchDir dir;
    const auto r = test::run_tool(
        "cdtrain", std::string(c.flags) + " " + data("heart_scale") + " " + dir.file("m"));
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir.file("m")));
  }
}

TEST(PdcdEndToEnd, CrossValidationUsesTheIntercept) {
  const auto r = test::run_tool("cdtrain", "-q -s pdcd -v 5 " + data("breast-cancer_scale"));
  ASSERT_EQ(r.status, 0) << r.err;
  const std::regex line(
      "solver pdcd, loss l1svm, regularizer l2: Cross Validation Accuracy = ([0-9.]+)%\n");
  std::smatch match;
  ASSERT_TRUE(std::regex_match(r.out, match, line)) << r.out;
  // Without w0 this data (-1: 444, 1: 239, w0 = -2.34) is near 65%.
  EXPECT_GT(std::stod(match[1]), 95.0);
}

}  // namespace
}  // namespace cdl
