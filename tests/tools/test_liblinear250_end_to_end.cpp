// The numbers LIBLINEAR 2.50 solves that cdtrain added, end to end: -s 12
// and -s 13 (dcd-svr), -s 7 (dcd-lr): the model types, LIBLINEAR 2.50's
// predict on our model files, -p, the trace's rows and the pairs refused
// (fixtures: tests/fixtures/README.md).
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "test_util.h"

namespace cdl {
namespace {

std::string data(const std::string& name) { return test::absolute_data_path(name); }

// `cdtrain -q -s N data/heart_scale MODEL`, then cdpredict on it, against
// what LIBLINEAR 2.50's predict wrote for the same model file.
void expect_liblinear_predictions(int number, const std::string& solver_type) {
  SCOPED_TRACE(number);
  test::ScratchDir dir;
  const auto trained = test::run_tool("cdtrain", "-q -s " + std::to_string(number) + " " +
                                                     data("heart_scale") + " " + dir.file("m"));
  ASSERT_EQ(trained.status, 0) << trained.err;
  EXPECT_EQ(test::first_line_of(dir.file("m")), "solver_type " + solver_type);
  const auto predicted =
      test::run_tool("cdpredict", data("heart_scale") + " " + dir.file("m") + " " + dir.file("p"));
  ASSERT_EQ(predicted.status, 0) << predicted.err;
  EXPECT_EQ(test::read_file(dir.file("p")),
            test::read_file(test::fixture_path("heart_scale_s" + std::to_string(number) +
                                               ".liblinear250.predictions")));
}

TEST(SvrDualEndToEnd, L2LossModelPredictsAsLiblinear250PredictReadsIt) {
  expect_liblinear_predictions(12, "L2R_L2LOSS_SVR_DUAL");
}

TEST(SvrDualEndToEnd, L1LossModelPredictsAsLiblinear250PredictReadsIt) {
  expect_liblinear_predictions(13, "L2R_L1LOSS_SVR_DUAL");
}

TEST(LrDualEndToEnd, ModelPredictsAsLiblinear250PredictReadsIt) {
  expect_liblinear_predictions(7, "L2R_LR_DUAL");
}

// -s 0 still writes TRON's model type.
TEST(LrDualEndToEnd, NumberZeroKeepsItsModelType) {
  test::ScratchDir dir;
  const auto r = test::run_tool("cdtrain", "-q -s 0 " + data("heart_scale") + " " + dir.file("m"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(test::first_line_of(dir.file("m")), "solver_type L2R_LR");
}

TEST(SvrDualEndToEnd, TakesPAndRefusesItsPairs) {
  test::ScratchDir dir;
  const auto with_p = test::run_tool(
      "cdtrain", "-q -s 13 -p 0.5 " + data("heart_scale") + " " + dir.file("m"));
  EXPECT_EQ(with_p.status, 0) << with_p.err;
  const auto by_name = test::run_tool(
      "cdtrain", "-q -s dcd-svr -l svr1 -p 0.5 " + data("heart_scale") + " " + dir.file("n"));
  EXPECT_EQ(by_name.status, 0) << by_name.err;
  EXPECT_EQ(test::read_file(dir.file("m")), test::read_file(dir.file("n")));
  const auto classifier =
      test::run_tool("cdtrain", "-s dcd-svr -l l2svm " + data("heart_scale") + " " + dir.file("o"));
  EXPECT_EQ(classifier.status, 2);
  EXPECT_NE(classifier.err.find("solver dcd-svr does not train loss l2svm"), std::string::npos)
      << classifier.err;
  const auto mismatch =
      test::run_tool("cdtrain", "-s 13 -l svr2 " + data("heart_scale") + " " + dir.file("o"));
  EXPECT_EQ(mismatch.status, 2);
  EXPECT_NE(mismatch.err.find("whose loss is svr1"), std::string::npos) << mismatch.err;
  const auto primal_p =
      test::run_tool("cdtrain", "-s cdper -l svr1 " + data("heart_scale") + " " + dir.file("o"));
  EXPECT_EQ(primal_p.status, 2);
  EXPECT_FALSE(test::read_file(dir.file("o")).size() > 0);
}

// The trace's objective column is f(w) of the svr1 loss, and its last row's
// f is the one the summary line printed.
TEST(SvrDualEndToEnd, TraceRowsAreThePrimalObjective) {
  test::ScratchDir dir;
  const auto r = test::run_tool("cdtrain", "-s 13 --trace " + dir.file("t.tsv") + " " +
                                               data("heart_scale") + " " + dir.file("m"));
  ASSERT_EQ(r.status, 0) << r.err;
  std::istringstream in(test::read_file(dir.file("t.tsv")));
  std::string line, last;
  std::getline(in, line);
  EXPECT_EQ(line, "iteration\tseconds\tobjective\tgrad_f_norm");
  while (std::getline(in, line)) last = line;
  std::istringstream fields(last);
  std::string iteration, seconds, objective;
  std::getline(fields, iteration, '\t');
  std::getline(fields, seconds, '\t');
  std::getline(fields, objective, '\t');
  char printed[64];
  std::snprintf(printed, sizeof printed, "f %.10e", std::stod(objective));
  EXPECT_NE(r.err.find(printed), std::string::npos) << r.err << " / " << objective;
}

}  // namespace
}  // namespace cdl
