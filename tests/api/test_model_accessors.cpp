// Model's accessors: the weights are the model file's, per class too; the
// iterations and objectives are the run's summary lines, and the objective
// is f(w) computed here from the weights.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cdlinear.h"
#include "test_util.h"

namespace cdl {
namespace {

// The weight lines of a model file's text, as numbers, in order.
std::vector<double> weights_in_text(const std::string& text) {
  const std::size_t start = text.find("\nw\n");
  std::istringstream in(text.substr(start + 3));
  std::vector<double> out;
  std::string token;
  while (in >> token) out.push_back(std::strtod(token.c_str(), nullptr));
  return out;
}

TEST(ModelAccessors, WeightsAreTheFilesInLiblinearsLayout) {
  cdlinear::TrainOptions options;
  options.solver = "2";
  options.bias = 1;
  const cdlinear::Model model =
      cdlinear::train(cdlinear::Data::read(test::data_path("dna.scale")), options);
  EXPECT_EQ(model.nr_class(), 3u);
  EXPECT_EQ(model.nr_w(), 3u);
  EXPECT_EQ(model.labels().size(), 3u);
  EXPECT_EQ(model.solver_type(), "L2R_L2LOSS_SVC");
  EXPECT_EQ(model.bias(), 1);
  const std::vector<double> text = weights_in_text(model.to_string());
  ASSERT_EQ(model.weights().size(), (model.num_features() + 1) * 3);
  EXPECT_EQ(model.weights(), text);
  for (std::size_t k = 0; k < 3; ++k) {
    const std::vector<double> column = model.weights_of(k);
    ASSERT_EQ(column.size(), model.num_features() + 1);
    for (std::size_t i = 0; i < column.size(); ++i) EXPECT_EQ(column[i], text[i * 3 + k]);
  }
  EXPECT_THROW(model.weights_of(3), cdlinear::ConfigError);
  // Decision values are the weights' dot products.
  const cdlinear::Instance x{{1, 0.5}, {7, -1}};
  const std::vector<double> decision = model.decision_values(x);
  for (std::size_t k = 0; k < 3; ++k) {
    const std::vector<double> w = model.weights_of(k);
    EXPECT_DOUBLE_EQ(decision[k], 0.5 * w[0] - w[6] + w[model.num_features()]);
  }
}

// The iterations and f of every summary line the run printed.
void summaries(const std::string& log, std::vector<std::int64_t>& iterations,
               std::vector<double>& objectives) {
  const std::regex line(": (\\d+) outer iterations, f ([-+0-9.e]+)");
  for (std::sregex_iterator it(log.begin(), log.end(), line), end; it != end; ++it) {
    iterations.push_back(std::stoll((*it)[1]));
    objectives.push_back(std::strtod((*it)[2].str().c_str(), nullptr));
  }
}

TEST(ModelAccessors, IterationsAndObjectivesAreTheRunsPerClass) {
  const cdlinear::Data data = cdlinear::Data::read(test::data_path("dna.scale"));
  for (unsigned threads : {1u, 3u}) {
    SCOPED_TRACE(threads);
    std::ostringstream log;
    cdlinear::TrainOptions options;
    options.solver = "dcd";
    options.threads = threads;  // 3: the classes on threads
    options.progress = &log;
    const cdlinear::Model model = cdlinear::train(data, options);
    std::vector<std::int64_t> iterations;
    std::vector<double> objectives;
    summaries(log.str(), iterations, objectives);
    ASSERT_EQ(iterations.size(), 3u) << log.str();
    EXPECT_EQ(model.iterations(), iterations);
    ASSERT_EQ(model.objectives().size(), 3u);
    for (std::size_t k = 0; k < 3; ++k) {
      EXPECT_NEAR(model.objectives()[k], objectives[k], 1e-9 * std::fabs(objectives[k]));
    }
  }
}

TEST(ModelAccessors, ObjectiveIsTheL2SvmPrimalOfTheWeights) {
  const cdlinear::Data data = cdlinear::Data::read(test::data_path("heart_scale"));
  cdlinear::TrainOptions options;
  options.solver = "cdper";
  options.C = 0.5;
  const cdlinear::Model model = cdlinear::train(data, options);
  // f(w) = 1/2 w'w + C sum_j max(0, 1 - y_j w'x_j)^2, y_j = +1 for labels()[0].
  const std::vector<double>& w = model.weights();
  double f = 0;
  for (double v : w) f += 0.5 * v * v;
  for (std::size_t j = 0; j < data.size(); ++j) {
    double margin = 0;
    for (const cdlinear::Feature& x : data.instance(j)) margin += w[x.index - 1] * x.value;
    const double y = data.labels()[j] == model.labels()[0] ? 1 : -1;
    const double loss = std::max(0.0, 1 - y * margin);
    f += options.C * loss * loss;
  }
  ASSERT_EQ(model.objectives().size(), 1u);
  EXPECT_NEAR(model.objectives()[0], f, 1e-9 * f);
  ASSERT_EQ(model.iterations().size(), 1u);
  EXPECT_GT(model.iterations()[0], 0);
}

TEST(ModelAccessors, LoadedModelHasNoRun) {
  test::ScratchDir dir;
  const cdlinear::Model trained =
      cdlinear::train(cdlinear::Data::read(test::data_path("heart_scale")));
  trained.save(dir.file("m.model"));
  const cdlinear::Model loaded = cdlinear::Model::load(dir.file("m.model"));
  EXPECT_EQ(loaded.weights(), trained.weights());
  EXPECT_TRUE(loaded.iterations().empty());
  EXPECT_TRUE(loaded.objectives().empty());
  EXPECT_EQ(loaded.rho(), 0);
}

TEST(ModelAccessors, OneClassRhoAndRegression) {
  cdlinear::TrainOptions options;
  options.solver = "21";
  const cdlinear::Model one_class =
      cdlinear::train(cdlinear::Data::read(test::data_path("heart_scale")), options);
  EXPECT_EQ(one_class.nr_w(), 1u);
  const std::string text = one_class.to_string();
  const std::size_t at = text.find("rho ");
  ASSERT_NE(at, std::string::npos);
  EXPECT_EQ(one_class.rho(), std::strtod(text.c_str() + at + 4, nullptr));
  const cdlinear::Instance x{{1, 0.5}};
  EXPECT_DOUBLE_EQ(one_class.decision_values(x)[0], 0.5 * one_class.weights()[0] - one_class.rho());
  options.solver = "11";
  const cdlinear::Model svr =
      cdlinear::train(cdlinear::Data::read(test::fixture_path("diabetes.svm")), options);
  EXPECT_TRUE(svr.is_regression());
  EXPECT_EQ(svr.nr_class(), 2u);
  EXPECT_EQ(svr.nr_w(), 1u);
  EXPECT_EQ(svr.weights_of(0), svr.weights());
  EXPECT_EQ(svr.iterations().size(), 1u);
}

}  // namespace
}  // namespace cdl
