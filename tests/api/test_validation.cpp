// cross_validate() and search_C(): cdtrain -v's and -C's numbers for the
// same data and options, and each instance's prediction agreeing with them.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cdlinear.h"
#include "test_util.h"

namespace cdl {
namespace {

std::string print(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

// The first group of `pattern` in cdtrain's stdout for `flags` on `file`.
std::string cdtrain_prints(const std::string& flags, const std::string& file,
                           const std::string& pattern) {
  const auto r = test::run_tool("cdtrain", "-q " + flags + " " + file);
  EXPECT_EQ(r.status, 0) << r.err;
  std::smatch match;
  EXPECT_TRUE(std::regex_search(r.out, match, std::regex(pattern))) << r.out;
  return match.size() > 1 ? match[1].str() : "";
}

TEST(LibraryCrossValidation, ClassificationIsCdtrainsAccuracy) {
  struct Case {
    std::string flags;
    std::string file;
    int folds;
    cdlinear::TrainOptions options;
  };
  cdlinear::TrainOptions lr;
  lr.solver = "0";
  lr.bias = 1;
  lr.threads = 2;
  cdlinear::TrainOptions dcd;
  dcd.solver = "dcd";
  dcd.stratified = true;
  dcd.seed = 5;
  for (const Case& c : std::vector<Case>{
           {"-v 5", test::data_path("heart_scale"), 5, cdlinear::TrainOptions{}},
           {"-s 0 -B 1 -v 3 -m 2", test::data_path("dna.scale"), 3, lr},
           {"-s dcd -v 4 --stratified --seed 5", test::data_path("heart_scale"), 4, dcd}}) {
    SCOPED_TRACE(c.flags);
    const cdlinear::Data data = cdlinear::Data::read(c.file);
    const cdlinear::CrossValidation cv = cdlinear::cross_validate(data, c.folds, c.options);
    EXPECT_EQ(print("%g", 100 * cv.accuracy),
              cdtrain_prints(c.flags, c.file, "Cross Validation Accuracy = ([^%]+)%"));
    ASSERT_EQ(cv.predictions.size(), data.size());
    std::size_t right = 0;
    for (std::size_t j = 0; j < data.size(); ++j) right += cv.predictions[j] == data.labels()[j];
    EXPECT_EQ(static_cast<double>(right) / static_cast<double>(data.size()), cv.accuracy);
    EXPECT_TRUE(std::isnan(cv.mean_squared_error));
  }
}

TEST(LibraryCrossValidation, RegressionIsCdtrainsErrorAndCorrelation) {
  const std::string file = test::fixture_path("diabetes.svm");
  const cdlinear::Data data = cdlinear::Data::read(file);
  cdlinear::TrainOptions svr;
  svr.solver = "11";
  svr.bias = 1;
  cdlinear::TrainOptions ridge;
  ridge.loss = "sq";
  for (const auto& [flags, options] : std::vector<std::pair<std::string, cdlinear::TrainOptions>>{
           {"-s 11 -B 1 -v 4", svr}, {"-l sq -v 5", ridge}}) {
    SCOPED_TRACE(flags);
    const int folds = flags.back() - '0';
    const cdlinear::CrossValidation cv = cdlinear::cross_validate(data, folds, options);
    EXPECT_EQ(print("%g", cv.mean_squared_error),
              cdtrain_prints(flags, file, "Mean squared error = (\\S+)"));
    EXPECT_EQ(print("%g", cv.squared_correlation),
              cdtrain_prints(flags, file, "Squared correlation coefficient = (\\S+)"));
    ASSERT_EQ(cv.predictions.size(), data.size());
    double squared_error = 0;
    for (std::size_t j = 0; j < data.size(); ++j) {
      const double e = cv.predictions[j] - data.labels()[j];
      squared_error += e * e;
    }
    EXPECT_NEAR(squared_error / static_cast<double>(data.size()), cv.mean_squared_error,
                1e-9 * cv.mean_squared_error);
    EXPECT_TRUE(std::isnan(cv.accuracy));
  }
}

// cdtrain -C's "log2c=... rate=..." or "log2c=... p=... Mean squared
// error=..." lines from a search's steps.
std::string step_lines(const cdlinear::Search& search, bool regression) {
  std::string out;
  for (const cdlinear::Search::Step& step : search.steps) {
    out += print("log2c=%7.2f\t", std::log2(step.C));
    if (!regression) {
      out += print("rate=%g\n", 100 * step.score);
    } else if (step.p >= 0) {
      out += print("p=%7.2f\t", step.p) + print("Mean squared error=%g\n", step.score);
    } else {
      out += print("Mean squared error=%g\n", step.score);
    }
  }
  return out;
}

std::string cdtrain_step_lines(const std::string& flags, const std::string& file) {
  const auto r = test::run_tool("cdtrain", "-q " + flags + " " + file);
  EXPECT_EQ(r.status, 0) << r.err;
  std::string out;
  std::istringstream in(r.out);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("log2c=", 0) == 0) out += line + "\n";
  }
  return out;
}

TEST(LibrarySearch, ClassificationStepsAreCdtrainsLines) {
  const std::string file = test::data_path("heart_scale");
  const cdlinear::Data data = cdlinear::Data::read(file);
  cdlinear::TrainOptions lr;
  lr.loss = "lr";
  const cdlinear::Search found = cdlinear::search_C(data, 0, lr);
  ASSERT_FALSE(found.steps.empty());
  EXPECT_EQ(step_lines(found, false), cdtrain_step_lines("-l lr -C", file));
  // The best is the first step of the highest accuracy.
  const cdlinear::Search::Step* best = &found.steps[0];
  for (const auto& step : found.steps) best = step.score > best->score ? &step : best;
  EXPECT_EQ(found.best_C, best->C);
  EXPECT_EQ(found.best_score, best->score);
  const cdlinear::Search from = cdlinear::search_C(data, 3, cdlinear::TrainOptions{}, 0.25);
  EXPECT_EQ(from.steps.front().C, 0.25);
  EXPECT_EQ(step_lines(from, false), cdtrain_step_lines("-C -v 3 -c 0.25", file));
}

TEST(LibrarySearch, RegressionSearchesCAndP) {
  const std::string file = test::fixture_path("diabetes.svm");
  const cdlinear::Data data = cdlinear::Data::read(file);
  cdlinear::TrainOptions svr;
  svr.solver = "11";
  svr.svr_epsilon = 40;
  const cdlinear::Search found = cdlinear::search_C(data, 5, svr);
  EXPECT_EQ(step_lines(found, true), cdtrain_step_lines("-s 11 -p 40 -C", file));
  EXPECT_GE(found.best_p, 0);
  cdlinear::TrainOptions ridge;
  ridge.loss = "sq";
  const cdlinear::Search ridge_found = cdlinear::search_C(data, 5, ridge);
  EXPECT_EQ(step_lines(ridge_found, true), cdtrain_step_lines("-l sq -C", file));
  EXPECT_EQ(ridge_found.best_p, -1);
}

TEST(LibraryCrossValidation, RefusesFewFoldsAndOneClass) {
  const cdlinear::Data data = cdlinear::Data::read(test::data_path("heart_scale"));
  EXPECT_THROW(cdlinear::cross_validate(data, 1), cdlinear::ConfigError);
  cdlinear::TrainOptions one_class;
  one_class.solver = "21";
  EXPECT_THROW(cdlinear::cross_validate(data, 5, one_class), cdlinear::ConfigError);
  EXPECT_THROW(cdlinear::search_C(data, 5, one_class), cdlinear::ConfigError);
  EXPECT_THROW(cdlinear::search_C(data, 5, {}, -1.0), cdlinear::ConfigError);
}

}  // namespace
}  // namespace cdl
