// cdtrain -s dcd end to end: the dual model types, LIBLINEAR's predictions
// from our models, the refusals of -i and of the dual flags with primal
// solvers, cross validation, -C and the trace's dual columns.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "test_util.h"

namespace cdl {
namespace {

std::string data(const std::string& name) { return test::absolute_data_path(name); }

// Trains with `flags`, predicts heart_scale with cdpredict and compares with
// what liblinear-predict wrote for the same model (the model is the same
// bytes for the same seed).
void expect_liblinear_predictions(const std::string& flags, const std::string& solver_type,
                                  const std::string& fixture, const std::string& accuracy) {
  test::ScratchDir dir;
  const auto trained = test::run_tool(
      "cdtrain", "-q -s dcd " + flags + " " + data("heart_scale") + " " + dir.file("m"));
  ASSERT_EQ(trained.status, 0) << trained.err;
  EXPECT_EQ(test::first_line_of(dir.file("m")), "solver_type " + solver_type);
  const auto predicted =
      test::run_tool("cdpredict", data("heart_scale") + " " + dir.file("m") + " " + dir.file("p"));
  ASSERT_EQ(predicted.status, 0) << predicted.err;
  EXPECT_EQ(predicted.out, accuracy);
  EXPECT_EQ(test::read_file(dir.file("p")),
            test::read_file(test::fixture_path(fixture + ".liblinear.predictions")));
}

TEST(DcdEndToEnd, L1SvmModelPredictsAsLiblinearPredictReadsIt) {
  expect_liblinear_predictions("-l l1svm", "L2R_L1LOSS_SVC_DUAL", "heart_scale_dcd_l1svm",
                               "Accuracy = 84.4444% (228/270)\n");
}

TEST(DcdEndToEnd, L2SvmModelWithBiasPredictsAsLiblinearPredictReadsIt) {
  expect_liblinear_predictions("-l l2svm -B 1", "L2R_L2LOSS_SVC_DUAL", "heart_scale_dcd_l2svm_bias",
                               "Accuracy = 85.1852% (230/270)\n");
}

TEST(DcdEndToEnd, RefusesWarmStart) {
  test::ScratchDir dir;
  const auto r =
      test::run_tool("cdtrain", "-s dcd -i " + test::fixture_path("heart_scale.liblinear.model") +
                                    " " + data("heart_scale") + " " + dir.file("m"));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("-i: dcd solves the dual"), std::string::npos) << r.err;
  EXPECT_FALSE(test::read_file(dir.file("m")).size() > 0);
}

TEST(DcdEndToEnd, RefusesDualFlagsWithPrimalSolvers) {
  test::ScratchDir dir;
  for (const std::string flags :
       {"-s cdper --no-shrink", "-s tron --shrink", "-s cd --gap-tol 1"}) {
    const auto r =
        test::run_tool("cdtrain", flags + " " + data("heart_scale") + " " + dir.file("m"));
    EXPECT_EQ(r.status, 2) << flags;
    EXPECT_NE(r.err.find("does not use it (use -s dcd"), std::string::npos) << r.err;
  }
  const auto bad =
      test::run_tool("cdtrain", "-s dcd --gap-tol -1 " + data("heart_scale") + " " + dir.file("m"));
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("--gap-tol: expected a positive number, got '-1'"), std::string::npos)
      << bad.err;
}

TEST(DcdEndToEnd, CrossValidationAndCSearchRun) {
  const auto cv = test::run_tool("cdtrain", "-q -s dcd -l l1svm -v 5 " + data("heart_scale"));
  ASSERT_EQ(cv.status, 0) << cv.err;
  const std::string prefix = "solver dcd, loss l1svm, regularizer l2: Cross Validation Accuracy = ";
  ASSERT_EQ(cv.out.compare(0, prefix.size(), prefix), 0) << cv.out;
  // LIBLINEAR's -s 3 -v 5 on heart_scale gives about 83-84%.
  EXPECT_GT(std::stod(cv.out.substr(prefix.size())), 78.0);
  const auto search = test::run_tool("cdtrain", "-q -s dcd -C -c 0.25 " + data("heart_scale"));
  ASSERT_EQ(search.status, 0) << search.err;
  EXPECT_NE(search.out.find("log2c=  -2.00\trate="), std::string::npos) << search.out;
  EXPECT_NE(search.out.find("\nsolver dcd, loss l2svm, regularizer l2: Best C = "),
            std::string::npos)
      << search.out;
}

TEST(DcdEndToEnd, TraceHasDualColumnsWithANonnegativeGap) {
  test::ScratchDir dir;
  const auto r =
      test::run_tool("cdtrain", "-q -s dcd -l l1svm --no-shrink --trace " + dir.file("t") + " " +
                                    data("heart_scale") + " " + dir.file("m"));
  ASSERT_EQ(r.status, 0) << r.err;
  std::istringstream in(test::read_file(dir.file("t")));
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(
      line,
      "iteration\tseconds\tobjective\tgrad_f_norm\tprimal\tdual\tgap\tnnz_ops\tintercept_gap");
  int rows = 0;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    double iteration, seconds, objective, grad, primal, dual, gap, nnz_ops;
    ASSERT_TRUE(fields >> iteration >> seconds >> objective >> grad >> primal >> dual >> gap >>
                nnz_ops)
        << line;
    EXPECT_EQ(objective, primal);
    EXPECT_GE(gap, 0.0);
    EXPECT_NEAR(gap, primal - dual, 1e-5 * gap + 1e-8 * primal);  // gap has 6 digits
    EXPECT_GT(nnz_ops, 0);
    ++rows;
  }
  EXPECT_GT(rows, 5);
}

TEST(DcdEndToEnd, AdaptiveRulesTrainThroughTheSelectFlag) {
  // -s dcd --select <rule> for the rules that read the dual state: the
  // default -s dcd's optimum (its trace's last primal; both run to a small
  // gap), the dual trace columns, and the same seed giving the same bytes.
  test::ScratchDir dir;
  const auto last_primal = [](const std::string& trace) {
    const auto cells = [](const std::string& line) {
      std::istringstream in(line);
      std::vector<std::string> cell;
      for (std::string c; std::getline(in, c, '\t');) cell.push_back(c);
      return cell;
    };
    std::istringstream in(trace);
    std::string header;
    std::getline(in, header);
    std::string last;
    for (std::string line; std::getline(in, line);) last = line;
    const std::vector<std::string> names = cells(header);
    const auto column = std::find(names.begin(), names.end(), "primal") - names.begin();
    return std::stod(cells(last).at(static_cast<std::size_t>(column)));
  };
  const std::string common = "-q -s dcd -l l1svm -c 0.1 -e 1e-9 --gap-tol 1e-6 ";
  const auto base = test::run_tool("cdtrain", common + "--trace " + dir.file("base.trace") + " " +
                                                  data("heart_scale") + " " + dir.file("base"));
  ASSERT_EQ(base.status, 0) << base.err;
  const double optimum = last_primal(test::read_file(dir.file("base.trace")));
  for (const std::string rule : {"importance", "ada-gap", "gap-per-epoch", "gs-q"}) {
    SCOPED_TRACE(rule);
    const std::string flags = common + "--seed 5 --select " + rule + " ";
    const auto a = test::run_tool("cdtrain", flags + "--trace " + dir.file("a.trace") + " " +
                                                 data("heart_scale") + " " + dir.file("a"));
    ASSERT_EQ(a.status, 0) << a.err;
    const std::string trace = test::read_file(dir.file("a.trace"));
    EXPECT_EQ(trace.substr(0, trace.find('\n')),
              "iteration\tseconds\tobjective\tgrad_f_norm\tprimal\tdual\tgap\tnnz_ops\t"
              "intercept_gap");
    EXPECT_NEAR(last_primal(trace), optimum, 2e-6);
    const auto b = test::run_tool("cdtrain", flags + data("heart_scale") + " " + dir.file("b"));
    ASSERT_EQ(b.status, 0) << b.err;
    EXPECT_EQ(test::read_file(dir.file("a")), test::read_file(dir.file("b")));
    EXPECT_EQ(test::first_line_of(dir.file("a")), "solver_type L2R_L1LOSS_SVC_DUAL");
  }
  const auto shrink = test::run_tool(
      "cdtrain", "-s dcd --shrink --select ada-gap " + data("heart_scale") + " " + dir.file("c"));
  EXPECT_EQ(shrink.status, 2);
  EXPECT_NE(shrink.err.find("--shrink: rule ada-gap runs dual CD without shrinking"),
            std::string::npos)
      << shrink.err;
}

}  // namespace
}  // namespace cdl
