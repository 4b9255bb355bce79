// cdtrain's losses and solvers end to end: the solver_type each writes, the
// models read back by cdpredict, probability output against LIBLINEAR's, and
// the usage errors of invalid solver-loss pairs and Pegasos's -k.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "test_util.h"

namespace cdl {
namespace {

namespace fs = std::filesystem;

std::string data(const std::string& name) { return test::absolute_data_path(name); }

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

// The X of "Accuracy = X% (c/total)\n", or -1 if stdout is not that line.
double accuracy(const std::string& out, int total) {
  const std::regex line("Accuracy = ([0-9.]+)% \\(([0-9]+)/" + std::to_string(total) + "\\)\n");
  std::smatch match;
  if (!std::regex_match(out, match, line)) return -1;
  return std::stod(match[1]);
}

const char kTrainUsage[] = "usage: cdtrain [options] training_file [model_file]\n";

// ---- the solver_type of each loss, read back by cdpredict ----

struct LossCase {
  std::string flags;
  std::string solver_type;
};

TEST(LossesEndToEnd, EachLossWritesItsSolverTypeAndPredictsHeartScale) {
  const std::vector<LossCase> cases = {
      {"", "L2R_L2LOSS_SVC"},
      {"-l lr", "L2R_LR"},
      {"-s pegasos", "L2R_L1LOSS_SVC_DUAL"},
      {"-s pegasos -l l1svm", "L2R_L1LOSS_SVC_DUAL"},
      {"-s tron", "L2R_L2LOSS_SVC"},
      {"-s TRON -l lr", "L2R_LR"},
      {"-s cmls", "L2R_L2LOSS_SVC"},
      {"-s cd -l lr", "L2R_LR"},
      {"-s 0", "L2R_LR"},
      {"-s 2", "L2R_L2LOSS_SVC"},
  };
  test::ScratchDir dir;
  for (const auto& c : cases) {
    SCOPED_TRACE(c.flags);
    const std::string model = dir.file("heart.model");
    const auto trained =
        test::run_tool("cdtrain", "-q " + c.flags + " " + data("heart_scale") + " " + model);
    ASSERT_EQ(trained.status, 0) << trained.err;
    EXPECT_EQ(trained.out, "");
    EXPECT_EQ(trained.err, "");
    EXPECT_EQ(first_line(test::read_file(model)), "solver_type " + c.solver_type);
    const auto predicted =
        test::run_tool("cdpredict", data("heart_scale") + " " + model + " " + dir.file("out"));
    ASSERT_EQ(predicted.status, 0) << predicted.err;
    EXPECT_GE(accuracy(predicted.out, 270), 80.0) << predicted.out;
    fs::remove(model);
  }
}

TEST(LossesEndToEnd, LogisticModelOfCdtrainGivesProbabilities) {
  test::ScratchDir dir;
  const std::string model = dir.file("lr.model");
  const auto trained = test::run_tool("cdtrain", "-q -l lr " + data("heart_scale") + " " + model);
  ASSERT_EQ(trained.status, 0) << trained.err;
  const auto plain =
      test::run_tool("cdpredict", data("heart_scale") + " " + model + " " + dir.file("labels"));
  ASSERT_EQ(plain.status, 0) << plain.err;
  const auto r = test::run_tool("cdpredict",
                                "-b 1 " + data("heart_scale") + " " + model + " " + dir.file("p"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, plain.out);  // the same predictions, so the same accuracy

  std::istringstream probabilities(test::read_file(dir.file("p")));
  std::istringstream labels(test::read_file(dir.file("labels")));
  std::string line;
  ASSERT_TRUE(std::getline(probabilities, line));
  EXPECT_EQ(line, "labels 1 -1");
  int rows = 0;
  for (std::string expected; std::getline(labels, expected); ++rows) {
    ASSERT_TRUE(std::getline(probabilities, line)) << "row " << rows;
    std::istringstream fields(line);
    std::string label;
    double p_pos = -1;
    double p_neg = -1;
    fields >> label >> p_pos >> p_neg;
    EXPECT_EQ(label, expected) << line;
    EXPECT_NEAR(p_pos + p_neg, 1.0, 2e-6) << line;  // %g keeps six digits
    EXPECT_EQ(label, p_pos >= p_neg ? "1" : "-1") << line;
  }
  EXPECT_EQ(rows, 270);
  EXPECT_FALSE(std::getline(probabilities, line));
}

// ---- cdpredict -b 1 against LIBLINEAR ----

// Fixtures made with LIBLINEAR 2.3.0:
//   liblinear-train -s 0 data/heart_scale tests/fixtures/heart_scale_lr.liblinear.model
//   liblinear-predict -b 1 data/heart_scale tests/fixtures/heart_scale_lr.liblinear.model
//       tests/fixtures/heart_scale_lr.liblinear.probabilities
//   liblinear-train -s 0 data/dna.scale tests/fixtures/dna_lr.liblinear.model
//   liblinear-predict -b 1 data/dna.scale.t tests/fixtures/dna_lr.liblinear.model
//       tests/fixtures/dna_lr.liblinear.probabilities
// (each liblinear-predict command on one line, run in the repository root).
// liblinear-predict printed the Accuracy lines expected below.
struct ProbabilityCase {
  const char* test_file;
  const char* model;
  const char* probabilities;
  const char* accuracy_line;
};

class LiblinearProbabilities : public ::testing::TestWithParam<ProbabilityCase> {};

TEST_P(LiblinearProbabilities, ReproducedByteForByte) {
  const ProbabilityCase c = GetParam();
  test::ScratchDir dir;
  const auto r =
      test::run_tool("cdpredict", "-b 1 " + data(c.test_file) + " " + test::fixture_path(c.model) +
                                      " " + dir.file("out"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out, c.accuracy_line);
  const std::string expected = test::read_file(test::fixture_path(c.probabilities));
  ASSERT_FALSE(expected.empty()) << "missing fixture " << c.probabilities;
  EXPECT_TRUE(test::read_file(dir.file("out")) == expected)
      << "cdpredict -b 1 differs from " << c.probabilities;

  // Without -b the same model gives the same labels and accuracy.
  const auto labels =
      test::run_tool("cdpredict", data(c.test_file) + " " + test::fixture_path(c.model) + " " +
                                      dir.file("labels"));
  ASSERT_EQ(labels.status, 0) << labels.err;
  EXPECT_EQ(labels.out, c.accuracy_line);
  std::istringstream probability_lines(expected);
  std::istringstream label_lines(test::read_file(dir.file("labels")));
  std::string line;
  std::getline(probability_lines, line);  // the "labels ..." header
  int rows = 0;
  for (std::string label; std::getline(label_lines, label); ++rows) {
    ASSERT_TRUE(std::getline(probability_lines, line));
    EXPECT_EQ(line.substr(0, line.find(' ')), label) << "row " << rows;
  }
  EXPECT_FALSE(std::getline(probability_lines, line));
}

INSTANTIATE_TEST_SUITE_P(Fixtures, LiblinearProbabilities,
                         ::testing::Values(ProbabilityCase{"heart_scale",
                                                           "heart_scale_lr.liblinear.model",
                                                           "heart_scale_lr.liblinear.probabilities",
                                                           "Accuracy = 83.7037% (226/270)\n"},
                                           ProbabilityCase{"dna.scale.t", "dna_lr.liblinear.model",
                                                           "dna_lr.liblinear.probabilities",
                                                           "Accuracy = 94.941% (1126/1186)\n"}),
                         [](const auto& param_info) {
                           return std::string(param_info.index == 0 ? "HeartScaleBinary"
                                                                    : "DnaThreeClasses");
                         });

TEST(LossesEndToEnd, ProbabilitiesOfAnSvmModelAreRefused) {
  test::ScratchDir dir;
  const std::string l1_model = dir.file("l1.model");
  const auto trained =
      test::run_tool("cdtrain", "-q -s pegasos " + data("heart_scale") + " " + l1_model);
  ASSERT_EQ(trained.status, 0) << trained.err;
  struct Case {
    std::string model;
    std::string solver_type;
  };
  for (const Case& c : {Case{test::fixture_path("heart_scale.liblinear.model"), "L2R_L2LOSS_SVC"},
                        Case{test::fixture_path("dna_bias.liblinear.model"), "L2R_L2LOSS_SVC"},
                        Case{l1_model, "L2R_L1LOSS_SVC_DUAL"}}) {
    SCOPED_TRACE(c.model);
    ASSERT_NE(test::read_file(c.model).find("solver_type " + c.solver_type + "\n"),
              std::string::npos);
    const std::string output = dir.file("p.out");
    const auto r =
        test::run_tool("cdpredict", "-b 1 " + data("heart_scale") + " " + c.model + " " + output);
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err.rfind("cdpredict: error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(c.solver_type), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(output));
  }
}

// ---- invalid solver-loss pairs and -k ----

TEST(LossesEndToEnd, InvalidSolverLossPairsAreUsageErrors) {
  test::ScratchDir dir;
  for (const char* flags :
       {"-s cmls -l lr", "-s cmlsper -l l1svm", "-s tron -l l1svm", "-s pegasos -l l2svm",
        "-s pegasos -l lr", "-s cdper -l l1svm", "-s cd -l l1svm"}) {
    SCOPED_TRACE(flags);
    const std::string model = dir.file("bad.model");
    const auto r =
        test::run_tool("cdtrain", std::string(flags) + " " + data("heart_scale") + " " + model);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err.rfind("cdtrain: error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find("valid pairs"), std::string::npos) << r.err;
    // The message lists every valid pair.
    for (const char* pair :
         {"-s cdper/cd/cdperone/online: l2svm lr sq svr2", "-s cmls/cmlsper: l2svm",
          "-s tron/newton: l2svm lr svr2", "-s pegasos: l1svm", "-s dcd: l2svm l1svm",
          "-s pdcd/rcd-pair: l1svm"}) {
      EXPECT_NE(r.err.find(pair), std::string::npos) << r.err;
    }
    EXPECT_NE(r.err.find(kTrainUsage), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("iter "), std::string::npos) << "trained before failing";
    EXPECT_FALSE(fs::exists(model));
  }
}

TEST(LossesEndToEnd, PegasosBatchSize) {
  test::ScratchDir dir;
  const std::string model = dir.file("k.model");
  for (const char* flags :
       {"-s pegasos -k 0", "-s pegasos -k -1", "-s pegasos -k x", "-s pegasos -k"}) {
    SCOPED_TRACE(flags);
    const auto r =
        test::run_tool("cdtrain", std::string(flags) + " " + data("heart_scale") + " " + model);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.rfind("cdtrain: error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find("-k"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(kTrainUsage), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(model));
  }

  const auto trained =
      test::run_tool("cdtrain", "-q -s pegasos -k 5 " + data("heart_scale") + " " + model);
  ASSERT_EQ(trained.status, 0) << trained.err;
  EXPECT_EQ(first_line(test::read_file(model)), "solver_type L2R_L1LOSS_SVC_DUAL");
  const auto predicted =
      test::run_tool("cdpredict", data("heart_scale") + " " + model + " " + dir.file("out"));
  ASSERT_EQ(predicted.status, 0) << predicted.err;
  EXPECT_GE(accuracy(predicted.out, 270), 80.0) << predicted.out;

  // K changes the draws, so the model.
  const std::string other = dir.file("k1.model");
  ASSERT_EQ(test::run_tool("cdtrain", "-q -s pegasos " + data("heart_scale") + " " + other).status,
            0);
  EXPECT_NE(test::read_file(model), test::read_file(other));
}

}  // namespace
}  // namespace cdl
