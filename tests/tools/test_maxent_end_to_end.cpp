// cdtrain -s dcd-maxent end to end: the model file and cdpredict -b 1's
// softmax probabilities, the same bytes for -m 1 and -m 2, -v, -C, -B,
// --seed, and the refusals of -i and -R by the row's fields.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "data/libsvm_reader.h"
#include "model/model.h"
#include "test_util.h"

namespace cdl {
namespace {

std::string data(const std::string& name) { return test::absolute_data_path(name); }

TEST(MaxentEndToEnd, TrainsDnaAndPredictsSoftmaxProbabilities) {
  test::ScratchDir dir;
  const auto trained =
      test::run_tool("cdtrain", "-q -s dcd-maxent " + data("dna.scale") + " " + dir.file("m"));
  ASSERT_EQ(trained.status, 0) << trained.err;
  EXPECT_EQ(test::first_line_of(dir.file("m")), "solver_type L2R_MAXENT_DUAL");
  const auto predicted = test::run_tool(
      "cdpredict", "-b 1 " + data("dna.scale.t") + " " + dir.file("m") + " " + dir.file("p"));
  ASSERT_EQ(predicted.status, 0) << predicted.err;
  // LIBLINEAR's dcd-lr-style test accuracy on dna.scale.t is about 95%.
  double accuracy = 0;
  ASSERT_EQ(std::sscanf(predicted.out.c_str(), "Accuracy = %lf%%", &accuracy), 1) << predicted.out;
  EXPECT_GT(accuracy, 93.0);

  // Each line: the label of the largest probability, then the softmax of
  // the model's decision values for the row (as printed, 6 digits).
  const LinearModel model = load_model(dir.file("m"));
  const LabeledCsr test_set = read_libsvm_csr(data("dna.scale.t"));
  std::istringstream lines(test::read_file(dir.file("p")));
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(line, "labels 3 1 2");
  std::vector<double> decision, p;
  std::size_t rows = 0;
  for (; std::getline(lines, line); ++rows) {
    ASSERT_LT(rows, test_set.features.num_rows);
    std::istringstream fields(line);
    int label = 0;
    fields >> label;
    const CsrMatrix& x = test_set.features;
    const auto begin = static_cast<std::size_t>(x.row_ptr[rows]);
    const auto count = static_cast<std::size_t>(x.row_ptr[rows + 1]) - begin;
    model.decision_values(&x.col_idx[begin], &x.values[begin], count, decision);
    const double largest = *std::max_element(decision.begin(), decision.end());
    double sum = 0;
    for (double d : decision) sum += std::exp(d - largest);
    double printed_sum = 0;
    for (std::size_t k = 0; k < decision.size(); ++k) {
      double printed = 0;
      fields >> printed;
      printed_sum += printed;
      EXPECT_NEAR(printed, std::exp(decision[k] - largest) / sum, 1e-6);
    }
    EXPECT_NEAR(printed_sum, 1.0, 1e-5);
    EXPECT_EQ(label, model.label_for(decision));
  }
  EXPECT_EQ(rows, test_set.features.num_rows);
}

TEST(MaxentEndToEnd, SameBytesForOneAndTwoThreadsAndSeedMatters) {
  test::ScratchDir dir;
  for (const char* threads : {"1", "2"}) {
    const auto r = test::run_tool("cdtrain", std::string("-q -s dcd-maxent -B 1 -m ") + threads +
                                                 " " + data("dna.scale") + " " +
                                                 dir.file(std::string("m") + threads));
    ASSERT_EQ(r.status, 0) << r.err;
  }
  const std::string one = test::read_file(dir.file("m1"));
  EXPECT_FALSE(one.empty());
  EXPECT_EQ(one, test::read_file(dir.file("m2")));
  // -B 1: the bias column's weights follow the 180 features'.
  const LinearModel model = load_model(dir.file("m1"));
  EXPECT_EQ(model.bias, 1.0);
  EXPECT_EQ(model.w.size(), 181u * 3u);
  const auto seeded = test::run_tool(
      "cdtrain", "-q -s dcd-maxent -B 1 --seed 7 " + data("dna.scale") + " " + dir.file("m7"));
  ASSERT_EQ(seeded.status, 0) << seeded.err;
  EXPECT_NE(test::read_file(dir.file("m7")), one);
}

TEST(MaxentEndToEnd, CrossValidationAndSearchOfC) {
  const auto cv = test::run_tool("cdtrain", "-q -s dcd-maxent -v 3 " + data("heart_scale"));
  ASSERT_EQ(cv.status, 0) << cv.err;
  const std::string prefix =
      "solver dcd-maxent, loss softmax, regularizer l2: Cross Validation Accuracy = ";
  ASSERT_EQ(cv.out.rfind(prefix, 0), 0u) << cv.out;
  const double accuracy = std::stod(cv.out.substr(prefix.size()));
  EXPECT_GT(accuracy, 75.0);
  test::ScratchDir dir;
  const auto search = test::run_tool(
      "cdtrain", "-q -s dcd-maxent -C -v 3 " + data("heart_scale") + " " + dir.file("m"));
  ASSERT_EQ(search.status, 0) << search.err;
  EXPECT_NE(search.out.find("Best C = "), std::string::npos) << search.out;
}

TEST(MaxentEndToEnd, RefusesWarmStartAndFreeBias) {
  test::ScratchDir dir;
  const auto warm = test::run_tool("cdtrain", "-s dcd-maxent -i " +
                                                  test::fixture_path("dna_softmax.sklearn.model") +
                                                  " " + data("dna.scale") + " " + dir.file("m"));
  EXPECT_EQ(warm.status, 2) << warm.err;
  EXPECT_NE(warm.err.find("-i: dcd-maxent"), std::string::npos) << warm.err;
  const auto free_bias =
      test::run_tool("cdtrain", "-s dcd-maxent -B 1 -R " + data("dna.scale") + " " + dir.file("m"));
  EXPECT_EQ(free_bias.status, 2) << free_bias.err;
  EXPECT_FALSE(test::read_file(dir.file("m")).size() > 0);
}

}  // namespace
}  // namespace cdl
