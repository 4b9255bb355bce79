// cdtrain -W: a bad weight file is a data error (exit 1, "path:line:
// reason", no model file); a good one trains, cross-validates and searches C,
// with or without --cache (the weights are read at each run, not cached).
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "test_util.h"

namespace cdl {
namespace {

namespace fs = std::filesystem;

// Four instances of two features; the weight files below are for it.
const char kData[] = "1 1:1 2:0.5\n-1 1:-1\n1 2:1\n-1 1:-0.5 2:-1\n";

struct BadFile {
  const char* text;
  const char* message;  // after "cdtrain: error: PATH:"
};

TEST(InstanceWeightsEndToEnd, BadWeightFilesExitOneWithPathAndLineAndNoModel) {
  const BadFile cases[] = {
      {"1\nabc\n1\n1\n", "2: expected an instance weight (a finite number >= 0), got 'abc'"},
      {"1\n1\n-2\n1\n", "3: instance weight -2 is negative"},
      {"nan\n1\n1\n1\n", "1: expected an instance weight (a finite number >= 0), got 'nan'"},
      {"1\ninf\n1\n1\n", "2: expected an instance weight (a finite number >= 0), got 'inf'"},
      {"1\n1\n1e999\n1\n", "3: expected an instance weight (a finite number >= 0), got '1e999'"},
      {"1\n1\n1\n",
       "4: the file ends after 3 weights; the training data has 4 instances (one "
       "weight a line)"},
      {"1\n1\n1\n1\n1\n",
       "5: more weights than the 4 instances of the training data (one weight "
       "a line)"},
      {"1\n\n1\n1\n", "2: expected an instance weight (a number >= 0), got an empty line"},
      {"0\n0\n0\n0\n", "4: every instance weight is 0: there is nothing to train on"},
      {"1 2\n1\n1\n1\n", "1: expected an instance weight (a finite number >= 0), got '1 2'"},
  };
  const test::ScratchDir dir;
  const std::string data = dir.write("train.svm", kData);
  for (const std::string solver : {"cdper", "tron", "dcd"}) {
    for (const BadFile& bad : cases) {
      SCOPED_TRACE(solver + " " + bad.text);
      const std::string weights = dir.write("w.txt", bad.text);
      const std::string model = dir.file("out.model");
      const test::CommandResult r = test::run_tool(
          "cdtrain", "-q -s " + solver + " -W " + weights + " " + data + " " + model);
      EXPECT_EQ(r.status, 1);
      EXPECT_EQ(r.err, "cdtrain: error: " + weights + ":" + bad.message + "\n");
      EXPECT_FALSE(fs::exists(model));
    }
  }
  const test::CommandResult missing = test::run_tool(
      "cdtrain", "-q -W " + dir.file("none.txt") + " " + data + " " + dir.file("out.model"));
  EXPECT_EQ(missing.status, 1);
  EXPECT_NE(missing.err.find(dir.file("none.txt")), std::string::npos) << missing.err;
  EXPECT_FALSE(fs::exists(dir.file("out.model")));
  // An empty name is a usage error.
  EXPECT_EQ(test::run_tool("cdtrain", "-q -W '' " + data).status, 2);
}

TEST(InstanceWeightsEndToEnd, CrlfAndSpacesAroundTheNumberAreAccepted) {
  const test::ScratchDir dir;
  const std::string data = dir.write("train.svm", kData);
  const std::string plain = dir.write("plain.txt", "1\n2\n0.5\n1\n");
  const std::string crlf = dir.write("crlf.txt", " 1\r\n2 \r\n\t0.5\r\n1");
  ASSERT_EQ(test::run_tool("cdtrain", "-q -W " + plain + " " + data + " " + dir.file("a")).status,
            0);
  ASSERT_EQ(test::run_tool("cdtrain", "-q -W " + crlf + " " + data + " " + dir.file("b")).status,
            0);
  EXPECT_EQ(test::read_file(dir.file("a")), test::read_file(dir.file("b")));
}

// The weights change the model; the same weights give the same model with
// --cache (the cache holds the data, the weight file is read at each run),
// and a weight of 2 gives the model of the file with that line twice.
TEST(InstanceWeightsEndToEnd, WeightsWithCacheAndDuplicatedLines) {
  const test::ScratchDir dir;
  const std::string data = dir.write("train.svm", kData);
  const std::string twice =
      dir.write("twice.svm", "1 1:1 2:0.5\n-1 1:-1\n-1 1:-1\n1 2:1\n-1 1:-0.5 2:-1\n");
  const std::string ones = dir.write("ones.txt", "1\n1\n1\n1\n");
  const std::string weights = dir.write("w.txt", "1\n2\n1\n1\n");
  const auto train = [&](const std::string& args, const std::string& model) {
    const test::CommandResult r =
        test::run_tool("cdtrain", "-q -s tron -e 1e-8 " + args + " " + dir.file(model));
    EXPECT_EQ(r.status, 0) << r.err;
    return test::read_file(dir.file(model));
  };
  const std::string plain = train(data, "plain");
  EXPECT_EQ(train("-W " + ones + " " + data, "ones"), plain);
  const std::string weighted = train("-W " + weights + " " + data, "weighted");
  EXPECT_NE(weighted, plain);
  EXPECT_EQ(train("--cache -W " + weights + " " + data, "cached1"), weighted);  // writes the cache
  EXPECT_EQ(train("--cache -W " + weights + " " + data, "cached2"), weighted);  // loads it
  EXPECT_EQ(train("--cache " + data, "cached3"), plain);
  // The model of the file with line 2 twice: the same optimum, to TRON's
  // tolerance (not to the bit: its sums run over other rows).
  const std::string repeated = train(twice, "twice");
  const auto weights_of = [](const std::string& model) {
    std::istringstream in(model.substr(model.find("\nw\n") + 3));
    std::vector<double> w;
    for (double v = 0; in >> v;) w.push_back(v);
    return w;
  };
  const std::vector<double> a = weights_of(repeated);
  const std::vector<double> b = weights_of(weighted);
  ASSERT_EQ(a.size(), 2u);
  ASSERT_EQ(b.size(), 2u);
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-6);
  EXPECT_EQ(repeated.substr(0, repeated.find("\nw\n")), weighted.substr(0, weighted.find("\nw\n")));
}

TEST(InstanceWeightsEndToEnd, CrossValidationAndSearchTakeTheWeights) {
  const test::ScratchDir dir;
  const std::string data = test::absolute_data_path("heart_scale");
  std::string ones;
  std::string zeros;
  for (int j = 0; j < 270; ++j) {
    ones += "1\n";
    zeros += j % 2 == 0 ? "1\n" : "0\n";
  }
  const std::string one_file = dir.write("ones.txt", ones);
  const std::string half_file = dir.write("half.txt", zeros);
  const auto cv = [&](const std::string& args) {
    const test::CommandResult r = test::run_tool("cdtrain", "-q -v 5 " + args + " " + data);
    EXPECT_EQ(r.status, 0) << r.err;
    return r.out;
  };
  EXPECT_EQ(cv("-W " + one_file), cv(""));
  EXPECT_NE(cv("-W " + half_file), cv(""));
  const test::CommandResult search =
      test::run_tool("cdtrain", "-q -C -W " + half_file + " " + data);
  EXPECT_EQ(search.status, 0) << search.err;
  EXPECT_NE(search.out.find("Best C"), std::string::npos);
  // A regression takes them too.
  const test::CommandResult regression =
      test::run_tool("cdtrain", "-q -l sq -v 3 -W " + half_file + " " + data);
  EXPECT_EQ(regression.status, 0) << regression.err;
}

}  // namespace
}  // namespace cdl
