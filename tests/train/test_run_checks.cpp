// The checks that cdtrain and the library make with one piece of code
// (train/run_checks.h): a start model that does not fit the data, and
// values too large to train on, refused with the same words by both, the
// start named "-i path" by cdtrain and "initial_model" by the library.
#include <gtest/gtest.h>

#include <string>

#include "cdlinear.h"
#include "test_util.h"

namespace cdl {
namespace {

// The library's message for training `data` from `start` with `bias`.
std::string library_refusal(const cdlinear::Data& data, const cdlinear::Model& start, double bias) {
  cdlinear::TrainOptions options;
  options.initial_model = &start;
  options.bias = bias;
  try {
    cdlinear::train(data, options);
  } catch (const cdlinear::ConfigError& e) {
    return e.what();
  }
  return "(trained)";
}

// cdtrain's message (its first stderr line, after "cdtrain: error: ").
std::string tool_refusal(const std::string& args) {
  const test::CommandResult r = test::run_tool("cdtrain", "-q " + args);
  EXPECT_EQ(r.status, 2) << r.err;
  const std::string prefix = "cdtrain: error: ";
  EXPECT_EQ(r.err.rfind(prefix, 0), 0u) << r.err;
  return r.err.substr(prefix.size(), r.err.find('\n') - prefix.size());
}

TEST(RunChecks, AStartModelThatDoesNotFitIsRefusedInCdtrainsWords) {
  test::ScratchDir dir;
  const std::string heart = test::data_path("heart_scale");
  const std::string dna = test::data_path("dna.scale");
  const std::string start = dir.file("heart.model");
  ASSERT_EQ(test::run_tool("cdtrain", "-q -s 2 " + heart + " " + start).status, 0);
  const cdlinear::Model model = cdlinear::Model::load(start);
  // Other classes: the counts and the labels, then the bias, each named.
  const std::string classes = library_refusal(cdlinear::Data::read(dna), model, -1);
  EXPECT_EQ(classes, "initial_model: the model has 2 classes (-1 1), the training data 3 (1 2 3)");
  EXPECT_EQ(tool_refusal("-s 2 -i " + start + " " + dna + " " + dir.file("out")),
            "-i " + start + classes.substr(std::string("initial_model").size()));
  const std::string bias = library_refusal(cdlinear::Data::read(heart), model, 1);
  EXPECT_EQ(bias,
            "initial_model: the model has bias -1, this run bias 1; train with the model's bias");
  EXPECT_EQ(tool_refusal("-s 2 -B 1 -i " + start + " " + heart + " " + dir.file("out")),
            "-i " + start + ": the model has bias -1, this run -B 1; train with the model's -B");
}

TEST(RunChecks, ValuesTooLargeAreNamedByTheirLineByBoth) {
  test::ScratchDir dir;
  const std::string data = dir.write("huge.svm", "1 1:0.5\n-1 1:0.25 2:3\n1 2:1e300\n-1 1:1\n");
  const test::CommandResult r = test::run_tool("cdtrain", "-q -s 2 " + data + " " + dir.file("m"));
  EXPECT_EQ(r.status, 1) << r.err;
  std::string library = "(trained)";
  try {
    cdlinear::train(cdlinear::Data::read(data));
  } catch (const cdlinear::ParseError& e) {
    library = e.what();
    EXPECT_EQ(e.line(), 3u);  // 1e300's square overflows
  }
  EXPECT_EQ(r.err, "cdtrain: error: " + library + "\n");
  EXPECT_EQ(library.rfind(data + ":3: ", 0), 0u) << library;
}

}  // namespace
}  // namespace cdl
