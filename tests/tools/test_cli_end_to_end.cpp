// Runs the built cdtrain and cdpredict (CDL_BIN_DIR) on the data/ files.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "test_util.h"

namespace cdl {
namespace {

namespace fs = std::filesystem;

using test::tool_path;

std::string data(const std::string& name) { return test::absolute_data_path(name); }

// Runs a shell command line, capturing its output.
test::CommandResult run_shell(const std::string& command) {
  static test::ScratchDir capture;
  const std::string out = capture.file("stdout");
  const std::string err = capture.file("stderr");
  const int raw = std::system(("(" + command + ") >" + out + " 2>" + err).c_str());
  const int status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return {status, test::read_file(out), test::read_file(err)};
}

// Runs a tool with `dir` as the working directory.
test::CommandResult run_in(const test::ScratchDir& dir, const std::string& tool,
                           const std::string& args) {
  return run_shell("cd " + dir.file("") + " && " + tool_path(tool) + " " + args);
}

std::set<std::string> entries(const test::ScratchDir& dir) {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir.file(""))) {
    names.insert(entry.path().filename().string());
  }
  return names;
}

// The X of "Accuracy = X% (c/total)\n", or -1 if stdout is not that line.
double accuracy(const std::string& out, int total) {
  const std::regex line("Accuracy = ([0-9.]+)% \\(([0-9]+)/" + std::to_string(total) + "\\)\n");
  std::smatch match;
  if (!std::regex_match(out, match, line)) return -1;
  return std::stod(match[1]);
}

// Trains on heart_scale with `flags` into `model` and returns cdpredict's accuracy.
double heart_scale_accuracy(const test::ScratchDir& dir, const std::string& flags,
                            const std::string& model) {
  const auto trained =
      test::run_tool("cdtrain", "-q " + flags + " " + data("heart_scale") + " " + model);
  EXPECT_EQ(trained.status, 0) << trained.err;
  const auto predicted =
      test::run_tool("cdpredict", data("heart_scale") + " " + model + " " + dir.file("out"));
  EXPECT_EQ(predicted.status, 0) << predicted.err;
  return accuracy(predicted.out, 270);
}

const char kTrainUsage[] = "usage: cdtrain [options] training_file [model_file]\n";
const char kPredictUsage[] = "usage: cdpredict [options] test_file model_file output_file\n";

// ---- cdtrain and cdpredict together ----

TEST(EndToEnd, TrainThenPredictHeartScale) {
  test::ScratchDir dir;
  const std::string model = dir.file("heart.model");
  const auto trained = test::run_tool("cdtrain", data("heart_scale") + " " + model);
  ASSERT_EQ(trained.status, 0) << trained.err;
  EXPECT_EQ(trained.out, "");
  ASSERT_TRUE(fs::exists(model));

  const auto predicted =
      test::run_tool("cdpredict", data("heart_scale") + " " + model + " " + dir.file("out"));
  ASSERT_EQ(predicted.status, 0) << predicted.err;
  EXPECT_EQ(predicted.err, "");
  EXPECT_GE(accuracy(predicted.out, 270), 83.0) << predicted.out;

  const std::string out = test::read_file(dir.file("out"));
  std::istringstream lines(out);
  int count = 0;
  for (std::string label; std::getline(lines, label); ++count) {
    EXPECT_TRUE(label == "1" || label == "-1") << label;
  }
  EXPECT_EQ(count, 270);
  EXPECT_EQ(out.back(), '\n');
}

TEST(EndToEnd, TrainPrintsProgressUnlessQuiet) {
  test::ScratchDir dir;
  const auto loud = test::run_tool("cdtrain", data("heart_scale") + " " + dir.file("a.model"));
  ASSERT_EQ(loud.status, 0) << loud.err;
  // A header naming what runs (and why the data's shape chose it), the
  // iterations with the quantity each prints named for what it is, the
  // summary and the total time, reading vs training.
  EXPECT_EQ(loud.err.rfind("cdtrain: training, solver cdper (default for 13 features <= 270 "
                           "instances), loss l2svm, regularizer l2\niter 1 ",
                           0),
            0u)
      << loud.err;
  EXPECT_TRUE(std::regex_search(
      loud.err, std::regex("\niter 2  f [0-9.e+]+  \\|D'\\| [0-9.e+-]+  time [0-9.]+ms\n")))
      << loud.err;
  EXPECT_EQ(loud.err.find("|g|"), std::string::npos) << loud.err;
  EXPECT_NE(loud.err.find("full Newton steps"), std::string::npos) << loud.err;
  EXPECT_NE(loud.err.find("line-search evaluations"), std::string::npos) << loud.err;
  EXPECT_TRUE(std::regex_search(
      loud.err, std::regex("\ntotal time [0-9.]+m?s: reading [0-9.]+m?s, training [0-9.]+m?s\n$")))
      << loud.err;
  // TRON's norm is the true gradient's; Pegasos has none.
  const auto tron =
      test::run_tool("cdtrain", "-s tron " + data("heart_scale") + " " + dir.file("t.model"));
  EXPECT_NE(tron.err.find("  |grad f| "), std::string::npos) << tron.err;
  EXPECT_EQ(tron.err.find("|D'|"), std::string::npos) << tron.err;
  const auto pegasos = test::run_tool(
      "cdtrain", "-s pegasos --max-iter 540 " + data("heart_scale") + " " + dir.file("p.model"));
  ASSERT_EQ(pegasos.status, 0) << pegasos.err;
  EXPECT_NE(pegasos.err.find("\niter 1  f "), std::string::npos) << pegasos.err;
  EXPECT_EQ(pegasos.err.find("|"), std::string::npos) << pegasos.err;

  const auto quiet =
      test::run_tool("cdtrain", "-q " + data("heart_scale") + " " + dir.file("b.model"));
  ASSERT_EQ(quiet.status, 0);
  EXPECT_EQ(quiet.err, "");
  EXPECT_EQ(quiet.out, "");
  EXPECT_EQ(test::read_file(dir.file("a.model")), test::read_file(dir.file("b.model")));
}

TEST(EndToEnd, DefaultModelPathIsInTheWorkingDirectory) {
  test::ScratchDir dir;
  const auto trained = run_in(dir, "cdtrain", "-q " + data("heart_scale"));
  ASSERT_EQ(trained.status, 0) << trained.err;
  EXPECT_EQ(entries(dir), (std::set<std::string>{"heart_scale.model"}));
}

// ---- cdpredict on LIBLINEAR's models ----

// cdpredict with a LIBLINEAR model writes LIBLINEAR's stored predictions
// byte for byte and prints `accuracy`.
void expect_liblinear_predictions(const std::string& data_set, const std::string& fixture,
                                  const std::string& accuracy) {
  test::ScratchDir dir;
  const auto r = test::run_tool("cdpredict", data(data_set) + " " +
                                                 test::fixture_path(fixture + ".liblinear.model") +
                                                 " " + dir.file("out"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, accuracy);
  EXPECT_EQ(test::read_file(dir.file("out")),
            test::read_file(test::fixture_path(fixture + ".liblinear.predictions")));
}

TEST(EndToEnd, PredictReproducesLiblinearOnHeartScale) {
  expect_liblinear_predictions("heart_scale", "heart_scale", "Accuracy = 84.4444% (228/270)\n");
}

TEST(EndToEnd, PredictReproducesLiblinearOnDnaWithBias) {
  // 1121 of LIBLINEAR's 1186 stored predictions equal the file's labels.
  expect_liblinear_predictions("dna.scale.t", "dna_bias", "Accuracy = 94.5194% (1121/1186)\n");
}

TEST(EndToEnd, PredictIgnoresFeaturesBeyondTheModel) {
  test::ScratchDir dir;
  // heart_scale's model: w1 = 0.0977 > 0, w2 = 0.231 > 0.
  const std::string test_file = dir.write("far.svm", "1 1:0.5 1000:-30\n-1 2:-1 14:5\n");
  const auto r = test::run_tool(
      "cdpredict",
      test_file + " " + test::fixture_path("heart_scale.liblinear.model") + " " + dir.file("out"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(test::read_file(dir.file("out")), "1\n-1\n");
  EXPECT_EQ(r.out, "Accuracy = 100% (2/2)\n");
}

TEST(EndToEnd, PredictQuietPrintsNothing) {
  test::ScratchDir dir;
  const auto r = test::run_tool("cdpredict", "-q " + data("heart_scale") + " " +
                                                 test::fixture_path("heart_scale.liblinear.model") +
                                                 " " + dir.file("out"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(test::read_file(dir.file("out")),
            test::read_file(test::fixture_path("heart_scale.liblinear.predictions")));
}

// ---- cross validation, seeds ----

TEST(EndToEnd, CrossValidationPrintsAccuracyAndWritesNoModel) {
  test::ScratchDir dir;
  const auto r = run_in(dir, "cdtrain", "-q -v 5 " + data("heart_scale"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(std::regex_match(
      r.out, std::regex("solver cdper, loss l2svm, regularizer l2: Cross Validation Accuracy = "
                        "[0-9.]+%\n")))
      << r.out;
  EXPECT_TRUE(entries(dir).empty());

  const auto named = run_in(dir, "cdtrain", "-q -v 5 " + data("heart_scale") + " cv.model");
  ASSERT_EQ(named.status, 0) << named.err;
  EXPECT_TRUE(entries(dir).empty());
}

TEST(EndToEnd, SameSeedGivesIdenticalModels) {
  test::ScratchDir dir;
  for (const char* name : {"a.model", "b.model"}) {
    const auto r =
        test::run_tool("cdtrain", "-q --seed 7 " + data("heart_scale") + " " + dir.file(name));
    ASSERT_EQ(r.status, 0) << r.err;
  }
  EXPECT_EQ(test::read_file(dir.file("a.model")), test::read_file(dir.file("b.model")));
}

TEST(EndToEnd, DifferentSeedsBothReachGoodAccuracy) {
  test::ScratchDir dir;
  EXPECT_GE(heart_scale_accuracy(dir, "--seed 1", dir.file("a.model")), 83.0);
  EXPECT_GE(heart_scale_accuracy(dir, "--seed 12345", dir.file("b.model")), 83.0);
}

// ---- help ----

TEST(EndToEnd, HelpGoesToStdoutWithStatusZero) {
  for (const char* tool : {"cdtrain", "cdpredict"}) {
    for (const char* flag : {"-h", "--help"}) {
      SCOPED_TRACE(std::string(tool) + " " + flag);
      const auto r = test::run_tool(tool, flag);
      EXPECT_EQ(r.status, 0);
      EXPECT_EQ(r.err, "");
      EXPECT_EQ(r.out.rfind(std::string("usage: ") + tool, 0), 0u) << r.out;
      EXPECT_NE(r.out.find("-q"), std::string::npos);
    }
  }
}

// ---- cdtrain failures ----

struct FailingTrain {
  std::string args;  // "%M" stands for the model path
  int status;
  std::string message;  // expected in stderr after "cdtrain: error: "
};

std::string with_model(std::string args, const std::string& model) {
  const auto pos = args.find("%M");
  return pos == std::string::npos ? args : args.replace(pos, 2, model);
}

std::vector<FailingTrain> failing_train_cases(const test::ScratchDir& dir) {
  const std::string heart = data("heart_scale");
  const std::string malformed = dir.write("bad.svm", "+1 1:0.5 2:1\n-1 3:1 2:1\n");
  return {
      {"-c abc " + heart + " %M", 2, "-c: expected a positive number, got 'abc'"},
      {"-c -1 " + heart + " %M", 2, "-c: expected a positive number, got '-1'"},
      {"-e 0 " + heart + " %M", 2, "-e: expected a positive number, got '0'"},
      {"-x " + heart + " %M", 2, "unknown option '-x'"},
      {"-s tron -l l1svm " + heart + " %M", 2,
       "solver tron does not train loss l1svm; valid pairs"},
      {"-s pegasos -l lr " + heart + " %M", 2,
       "solver pegasos does not train loss lr; valid pairs"},
      {dir.file("missing.svm") + " %M", 1, dir.file("missing.svm") + ": "},
      {dir.file("") + " %M", 1, dir.file("")},
      {malformed + " %M", 1, malformed + ":2: "},
  };
}

TEST(EndToEnd, TrainUsageErrorsExitTwoWithUsage) {
  test::ScratchDir dir;
  for (const std::string& args :
       {"-c abc " + data("heart_scale"), "-c -1 " + data("heart_scale"),
        "-e 0 " + data("heart_scale"), "-x " + data("heart_scale"), std::string("-c"),
        std::string(""), "-s cmls -l lr " + data("heart_scale")}) {
    SCOPED_TRACE(args);
    const auto r = run_in(dir, "cdtrain", args);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err.rfind("cdtrain: error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(kTrainUsage), std::string::npos) << r.err;
  }
  EXPECT_TRUE(entries(dir).empty());
}

TEST(EndToEnd, TrainFailuresCreateNoModelFile) {
  test::ScratchDir dir;
  for (const auto& c : failing_train_cases(dir)) {
    SCOPED_TRACE(c.args);
    const std::string model = dir.file("new.model");
    const auto r = test::run_tool("cdtrain", with_model(c.args, model));
    EXPECT_EQ(r.status, c.status);
    EXPECT_EQ(r.err.rfind("cdtrain: error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find(kTrainUsage) != std::string::npos, c.status == 2) << r.err;
    EXPECT_FALSE(fs::exists(model));
  }
  EXPECT_EQ(entries(dir), (std::set<std::string>{"bad.svm"}));
}

TEST(EndToEnd, TrainFailuresLeaveAnExistingModelUntouched) {
  test::ScratchDir dir;
  const std::string sentinel = dir.write("old.model", "sentinel model\n");
  for (const auto& c : failing_train_cases(dir)) {
    SCOPED_TRACE(c.args);
    const auto r = test::run_tool("cdtrain", with_model(c.args, sentinel));
    EXPECT_EQ(r.status, c.status);
    EXPECT_EQ(test::read_file(sentinel), "sentinel model\n");
  }
  EXPECT_EQ(entries(dir), (std::set<std::string>{"bad.svm", "old.model"}));
}

TEST(EndToEnd, TrainRejectsUnwritableModelPathsBeforeTraining) {
  test::ScratchDir dir;
  const auto missing_dir =
      test::run_tool("cdtrain", data("heart_scale") + " " + dir.file("no/such/dir.model"));
  EXPECT_EQ(missing_dir.status, 1);
  EXPECT_EQ(missing_dir.err.rfind("cdtrain: error: " + dir.file("no/such/dir.model"), 0), 0u)
      << missing_dir.err;
  EXPECT_EQ(missing_dir.err.find("iter "), std::string::npos) << "trained before failing";

  fs::create_directory(dir.file("sub"));
  const auto is_dir = test::run_tool("cdtrain", data("heart_scale") + " " + dir.file("sub"));
  EXPECT_EQ(is_dir.status, 1);
  EXPECT_NE(is_dir.err.find("is a directory"), std::string::npos) << is_dir.err;
  EXPECT_EQ(is_dir.err.find("iter "), std::string::npos) << "trained before failing";
  EXPECT_TRUE(fs::is_directory(dir.file("sub")));
  EXPECT_TRUE(fs::is_empty(dir.file("sub")));
  EXPECT_EQ(entries(dir), (std::set<std::string>{"sub"}));
}

TEST(EndToEnd, TrainWriteFailureKeepsTheOldModel) {
  // `ulimit -f 1` caps files at 512 or 1024 bytes, well below the dna model
  // (about 12 kB), so writing the temporary file fails; SIGXFSZ is ignored
  // so that the write returns an error instead of killing the tool.
  test::ScratchDir dir;
  const std::string sentinel = dir.write("old.model", "sentinel model\n");
  const auto r = run_shell("trap '' XFSZ; ulimit -f 1 && " + tool_path("cdtrain") + " -q -B 1 " +
                           data("dna.scale") + " " + sentinel);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err.rfind("cdtrain: error: " + sentinel, 0), 0u) << r.err;
  EXPECT_EQ(test::read_file(sentinel), "sentinel model\n");
  EXPECT_EQ(entries(dir), (std::set<std::string>{"old.model"}));
}

// ---- cdpredict failures ----

class PredictFailure : public ::testing::Test {
 protected:
  std::string model() const { return test::fixture_path("heart_scale.liblinear.model"); }
  std::string heart() const { return data("heart_scale"); }
  // Runs cdpredict with `args` + " " + output and checks that it fails with
  // `status` and leaves no output file.
  test::CommandResult expect_failure(const std::string& args, int status) {
    const std::string output = dir_.file("new.out");
    const auto r = test::run_tool("cdpredict", args + " " + output);
    EXPECT_EQ(r.status, status);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err.rfind("cdpredict: error: ", 0), 0u) << r.err;
    EXPECT_EQ(r.err.find(kPredictUsage) != std::string::npos, status == 2) << r.err;
    EXPECT_FALSE(fs::exists(output));
    // A pre-existing output file is left as it was.
    const std::string sentinel = dir_.write("old.out", "sentinel\n");
    EXPECT_EQ(test::run_tool("cdpredict", args + " " + sentinel).status, status);
    EXPECT_EQ(test::read_file(sentinel), "sentinel\n");
    fs::remove(sentinel);
    return r;
  }

  test::ScratchDir dir_;
};

TEST_F(PredictFailure, MissingModel) {
  const std::string missing = dir_.file("missing.model");
  const auto r = expect_failure(heart() + " " + missing, 1);
  EXPECT_NE(r.err.find(missing), std::string::npos) << r.err;
}

TEST_F(PredictFailure, MalformedModel) {
  const std::string bad = dir_.write("bad.model", "solver_type L2R_L2LOSS_SVC\nnr_class x\n");
  const auto r = expect_failure(heart() + " " + bad, 1);
  EXPECT_EQ(r.err, "cdpredict: error: " + bad + ":2: nr_class: 'x' is not a valid integer\n");
}

TEST_F(PredictFailure, HugeNrFeatureInATruncatedModel) {
  // Seven lines claiming 2^31 - 1 features and 100 classes must be reported
  // as too short, not make the loader reserve 1.7 TB up front.
  std::string labels;
  for (int k = 1; k <= 100; ++k) labels += " " + std::to_string(k);
  std::string weights;
  for (int k = 0; k < 100; ++k) weights += "0.5 ";
  const std::string bad =
      dir_.write("huge.model", "solver_type L2R_L2LOSS_SVC\nnr_class 100\nlabel" + labels +
                                   "\nnr_feature 2147483647\nbias 1\nw\n" + weights + "\n");
  const auto r = expect_failure(heart() + " " + bad, 1);
  EXPECT_EQ(r.err,
            "cdpredict: error: " + bad + ":8: the weights end after 1 of 2147483648 lines\n");
}

TEST_F(PredictFailure, ModelIsADirectory) {
  const auto r = expect_failure(heart() + " " + dir_.file(""), 1);
  EXPECT_NE(r.err.find("is a directory"), std::string::npos) << r.err;
}

TEST_F(PredictFailure, MissingTestFile) {
  const std::string missing = dir_.file("missing.svm");
  const auto r = expect_failure(missing + " " + model(), 1);
  EXPECT_NE(r.err.find(missing), std::string::npos) << r.err;
}

TEST_F(PredictFailure, MalformedTestFile) {
  // The error is on the last line, after two rows were predicted.
  const std::string bad = dir_.write("bad.svm", "1 1:0.5\n-1 2:1\n-1 3:x\n");
  const auto r = expect_failure(bad + " " + model(), 1);
  EXPECT_NE(r.err.find(bad + ":3: "), std::string::npos) << r.err;
}

TEST_F(PredictFailure, EmptyTestFile) {
  const std::string empty = dir_.write("empty.svm", "");
  const auto r = expect_failure(empty + " " + model(), 1);
  EXPECT_NE(r.err.find(empty), std::string::npos) << r.err;
}

TEST_F(PredictFailure, ProbabilityOutputOfAnSvmModel) {
  const auto r = expect_failure("-b 1 " + heart() + " " + model(), 1);
  EXPECT_NE(r.err.find("-b 1"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("logistic regression"), std::string::npos) << r.err;
}

TEST_F(PredictFailure, BadUsage) {
  expect_failure("-b 2 " + heart() + " " + model(), 2);
  expect_failure("-x " + heart() + " " + model(), 2);
  expect_failure(heart(), 2);  // only two operands with the output
  const auto none = test::run_tool("cdpredict", "");
  EXPECT_EQ(none.status, 2);
  EXPECT_NE(none.err.find(kPredictUsage), std::string::npos);
}

TEST_F(PredictFailure, OutputPathIsADirectory) {
  fs::create_directory(dir_.file("sub"));
  const auto r = test::run_tool("cdpredict", heart() + " " + model() + " " + dir_.file("sub"));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("is a directory"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::is_empty(dir_.file("sub")));
}

}  // namespace
}  // namespace cdl
