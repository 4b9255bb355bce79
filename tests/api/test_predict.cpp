// Model's prediction of a whole Data on threads: cdpredict's labels,
// values and -b 1 probabilities, line for line, whatever the threads.
#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "cdlinear.h"
#include "test_util.h"

namespace cdl {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) out.push_back(line);
  return out;
}

std::string print(const char* format, double value) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

// cdtrain's model of `train_file` with `flags` and cdpredict's output on
// `test_file` with `predict_flags`, as lines.
struct ToolRun {
  std::string model_path;
  std::vector<std::string> output;
};

ToolRun run_tools(const test::ScratchDir& dir, const std::string& flags,
                  const std::string& train_file, const std::string& predict_flags,
                  const std::string& test_file) {
  ToolRun run;
  run.model_path = dir.file("m.model");
  const auto trained =
      test::run_tool("cdtrain", "-q " + flags + " " + train_file + " " + run.model_path);
  EXPECT_EQ(trained.status, 0) << trained.err;
  const std::string out = dir.file("out");
  const auto predicted = test::run_tool(
      "cdpredict", predict_flags + " " + test_file + " " + run.model_path + " " + out);
  EXPECT_EQ(predicted.status, 0) << predicted.err;
  run.output = lines_of(test::read_file(out));
  return run;
}

TEST(Predict, LabelsAndProbabilitiesAreCdpredictsOnThreads) {
  test::ScratchDir dir;
  const std::string test_file = test::data_path("dna.scale.t");
  const ToolRun run = run_tools(dir, "-s 0 -B 1", test::data_path("dna.scale"), "-b 1", test_file);
  const cdlinear::Model model = cdlinear::Model::load(run.model_path);
  const cdlinear::Data data = cdlinear::Data::read(test_file);
  ASSERT_TRUE(model.has_probabilities());
  ASSERT_EQ(run.output.size(), data.size() + 1);  // a "labels ..." header first
  const std::size_t nr_class = model.nr_class();
  for (unsigned threads : {1u, 2u, 0u}) {
    SCOPED_TRACE(threads);
    const std::vector<double> labels = model.predict(data, threads);
    const std::vector<double> probabilities = model.probabilities(data, threads);
    ASSERT_EQ(labels.size(), data.size());
    ASSERT_EQ(probabilities.size(), data.size() * nr_class);
    for (std::size_t j = 0; j < data.size(); ++j) {
      std::string line = print("%.17g", labels[j]);
      for (std::size_t k = 0; k < nr_class; ++k) {
        line += print(" %g", probabilities[j * nr_class + k]);
      }
      ASSERT_EQ(line, run.output[j + 1]) << "instance " << j;
    }
  }
}

TEST(Predict, DecisionValuesAreEachInstancesOnThreads) {
  const cdlinear::Data train = cdlinear::Data::read(test::data_path("dna.scale"));
  cdlinear::TrainOptions options;
  options.bias = 1;
  const cdlinear::Model model = cdlinear::train(train, options);
  const cdlinear::Data data = cdlinear::Data::read(test::data_path("dna.scale.t"));
  const std::vector<double> serial = model.decision_values(data, 1);
  EXPECT_EQ(model.decision_values(data, 2), serial);
  const std::size_t nr_w = model.nr_w();
  ASSERT_EQ(serial.size(), data.size() * nr_w);
  for (std::size_t j = 0; j < data.size(); j += 97) {
    const std::vector<double> one = model.decision_values(data.instance(j));
    // w'x by hand, from the weights.
    for (std::size_t k = 0; k < nr_w; ++k) {
      double sum = model.weights()[model.num_features() * nr_w + k];  // the bias feature, 1
      for (const cdlinear::Feature& x : data.instance(j)) {
        if (static_cast<std::size_t>(x.index) <= model.num_features()) {
          sum += model.weights()[(static_cast<std::size_t>(x.index) - 1) * nr_w + k] * x.value;
        }
      }
      EXPECT_EQ(serial[j * nr_w + k], one[k]);
      EXPECT_NEAR(serial[j * nr_w + k], sum, 1e-12);
    }
  }
  EXPECT_THROW(model.probabilities(data), cdlinear::ConfigError);
  EXPECT_THROW(model.probabilities(data.instance(0)), cdlinear::ConfigError);
}

TEST(Predict, LabelsAndValuesAreCdpredictsWithoutProbabilities) {
  test::ScratchDir dir;
  for (const auto& [flags, train_file, test_file] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {"-s 1", test::data_path("heart_scale"), test::data_path("heart_scale")},
           {"-s 11 -B 1", test::fixture_path("diabetes.svm"), test::fixture_path("diabetes.svm")},
           {"-s 2", test::data_path("a9a"), test::data_path("a9a.t")}}) {
    SCOPED_TRACE(flags);
    const ToolRun run = run_tools(dir, flags, train_file, "", test_file);
    const cdlinear::Model model = cdlinear::Model::load(run.model_path);
    const std::vector<double> predicted = model.predict(cdlinear::Data::read(test_file), 2);
    ASSERT_EQ(predicted.size(), run.output.size());
    for (std::size_t j = 0; j < predicted.size(); ++j) {
      ASSERT_EQ(print("%.17g", predicted[j]), run.output[j]) << "instance " << j;
    }
  }
}

}  // namespace
}  // namespace cdl
