// Data that parse but cannot be trained on: check_magnitudes() names the
// instance, cdtrain turns it into the file's line, and no solver is ever
// left to produce a weight that is not finite.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <sstream>
#include <string>

#include "data/libsvm_reader.h"
#include "data/problem.h"
#include "solvers/report.h"
#include "test_util.h"
#include "train/train.h"
#include "train/train_regression.h"
#include "util/error.h"

namespace cdl {
namespace {

// check_magnitudes()'s reason for a feature and the value at which its sum
// overflows.
std::string too_large(int feature, const std::string& value) {
  return "feature " + std::to_string(feature) + " (value " + value +
         ") is too large to train on: C times the sum of its squares overflows; scale the data";
}

LabeledCsc read(const test::ScratchDir& dir, const std::string& text) {
  ReadOptions options;
  options.integer_labels = true;
  return read_libsvm_csc(dir.write("data.svm", text), options);
}

TEST(CheckMagnitudes, NamesTheInstanceWhereTheSumOverflows) {
  test::ScratchDir dir;
  // C * (1e152^2 + 1e153^2) = 1.01e306 > DBL_MAX / 1024: the sum fails at
  // the second nonzero of feature 2, which is instance 3.
  const LabeledCsc data = read(dir, "1 2:1e152\n-1 1:1\n1 2:1e153\n-1 2:1\n");
  const ClassMap classes = map_classes(data.labels);
  Params params = resolve_defaults(Params{});
  // The same with the reader's largest |value|: a bound that does not clear
  // the data leaves the judgement to the pass over the values.
  for (const double largest : {std::numeric_limits<double>::infinity(), data.largest_magnitude}) {
    try {
      check_magnitudes(data.features, classes, params, largest);
      FAIL() << "no error";
    } catch (const InstanceError& e) {
      EXPECT_EQ(e.row(), 2u);
      EXPECT_EQ(e.reason(), too_large(2, "1e+153"));
    }
  }
  // The same values with a tiny C fit.
  params.C = 1e-10;
  EXPECT_NO_THROW(check_magnitudes(data.features, classes, params));
  // A -wi weight that raises one class's C counts.
  params.class_weights[-1] = 1e20;
  EXPECT_THROW(check_magnitudes(data.features, classes, params), InstanceError);
  // Squares that alone overflow a double (1e155^2) fit under a C that brings
  // C x^2 down: the sum is of C x^2, entry by entry.
  const LabeledCsc large = read(dir, "1 1:1e155\n-1 1:-1e155\n");
  params = resolve_defaults(Params{});
  params.C = 1e-10;
  EXPECT_NO_THROW(check_magnitudes(large.features, map_classes(large.labels), params));
  params.C = 1e-3;
  EXPECT_THROW(check_magnitudes(large.features, map_classes(large.labels), params), InstanceError);
}

// A column is screened by its whole sum, and one near the limit takes the
// exact test: 17 squares of 1e152 (1.7e305) fit under DBL_MAX / 1024
// (1.756e305); of 20, the 18th (instance 18) is where the sum overflows.
TEST(CheckMagnitudes, AColumnNearTheLimitIsJudgedEntryByEntry) {
  test::ScratchDir dir;
  const auto rows = [](int count) {
    std::string text;
    for (int j = 0; j < count; ++j)
      text += (j % 2 == 0 ? "1" : "-1") + std::string(" 2:1 3:1e152\n");
    return text;
  };
  const LabeledCsc fits = read(dir, rows(17));
  const LabeledCsc all = read(dir, rows(20));
  ASSERT_EQ(fits.features.num_rows, 17u);
  const Params params = resolve_defaults(Params{});
  EXPECT_NO_THROW(check_magnitudes(fits.features, map_classes(fits.labels), params));
  EXPECT_NO_THROW(
      check_magnitudes(fits.features, map_classes(fits.labels), params, fits.largest_magnitude));
  for (const double largest : {std::numeric_limits<double>::infinity(), all.largest_magnitude}) {
    try {
      check_magnitudes(all.features, map_classes(all.labels), params, largest);
      FAIL() << "no error";
    } catch (const InstanceError& e) {
      EXPECT_EQ(e.row(), 17u);
      EXPECT_EQ(e.reason(), too_large(3, "1e+152"));
    }
  }
}

// The columns are checked in blocks on threads; the error is still the
// first bad column's: feature 10 (block 0) overflows at instance 3, features
// 20,000 and 30,000 (blocks 2 and 3) at instance 1, on 1, 2 and 4 threads.
TEST(CheckMagnitudes, OnThreadsNamesTheFirstBadColumn) {
  test::ScratchDir dir;
  const LabeledCsc data = read(dir, "1 10:1e152 20000:1e200 30000:1e200\n-1 1:1\n1 10:1e153\n");
  const ClassMap classes = map_classes(data.labels);
  for (unsigned threads : {1u, 2u, 4u}) {
    SCOPED_TRACE(threads);
    Params params = resolve_defaults(Params{});
    params.threads = threads;
    try {
      check_magnitudes(data.features, classes, params);
      FAIL() << "no error";
    } catch (const InstanceError& e) {
      EXPECT_EQ(e.row(), 2u);
      EXPECT_EQ(e.reason(), too_large(10, "1e+153"));
    }
  }
}

TEST(CheckMagnitudes, EverySolverRefusesInsteadOfReturningNaN) {
  test::ScratchDir dir;
  const LabeledCsc data = read(dir, "1 1:1e200\n-1 1:-1e200 2:1\n");
  const ClassMap classes = map_classes(data.labels);
  for (const SolverInfo& info : solver_table()) {
    SCOPED_TRACE(info.name);
    Params params;
    params.solver = info.kind;
    params = resolve_defaults(params);
    params.max_iter = params.max_iter.value_or(100);
    std::ostringstream log;
    Reporter reporter(log, Reporter::Level::kQuiet);
    if (!has_classes(params.loss.value())) {
      EXPECT_THROW(train_regression(data.features, data.labels, params, reporter), InstanceError);
    } else {
      EXPECT_THROW(train(data.features, classes, params, reporter), InstanceError);
    }
  }
}

// CscMatrix::checked_cost says that the caller ran the check up to that C
// (cdtrain does, on the whole file, to name the line): train() does not run
// it again at that C or below, and does at a larger one
// (nor, since they train through it, do the folds of -v and -C). On data that fail it, training
// then meets the overflow itself and stops at its own safety net (the objective's bound on H_i),
// not with the check's InstanceError.
TEST(CheckMagnitudes, TrainSkipsTheCheckItsCallerMade) {
  test::ScratchDir dir;
  LabeledCsc data = read(dir, "1 1:1e200\n-1 1:-1e200 2:1\n");
  const ClassMap classes = map_classes(data.labels);
  Params params = resolve_defaults(Params{});
  std::ostringstream log;
  Reporter reporter(log, Reporter::Level::kQuiet);
  EXPECT_THROW(train(data.features, classes, params, reporter), InstanceError);
  data.features.checked_cost = 0.5;  // below C = 1: checked again
  EXPECT_THROW(train(data.features, classes, params, reporter), InstanceError);
  data.features.checked_cost = params.C;
  try {
    train(data.features, classes, params, reporter);
    FAIL() << "no error";
  } catch (const InstanceError&) {
    FAIL() << "the check ran";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "feature 1 has values too large to train on (their squares overflow); scale the "
              "data");
  }
}

TEST(LineOfInstance, CountsInstancesNotCommentLines) {
  test::ScratchDir dir;
  const std::string path = dir.write("d.svm", "# head\n1 1:1\n\t# note\n-1 2:1\n1 3:1");
  EXPECT_EQ(line_of_instance(path, 0), 2);
  EXPECT_EQ(line_of_instance(path, 1), 4);
  EXPECT_EQ(line_of_instance(path, 2), 5);
  EXPECT_THROW(line_of_instance(path, 3), Error);
}

TEST(CheckMagnitudesEndToEnd, CdtrainNamesTheLineAndWritesNoModel) {
  test::ScratchDir dir;
  const std::string path = dir.write("big.svm", "# scaled badly\n1 1:1\n# more\n-1 1:2e200\n");
  const std::string model = dir.file("big.model");
  const test::CommandResult result = test::run_tool("cdtrain", "-q " + path + " " + model);
  EXPECT_EQ(result.status, 1);
  EXPECT_EQ(result.err, "cdtrain: error: " + path + ":4: " + too_large(1, "2e+200") + "\n");
  EXPECT_FALSE(std::filesystem::exists(model));
}

TEST(TrainWarningsEndToEnd, AClassWeightForALabelNotInTheData) {
  test::ScratchDir dir;
  const std::string path = dir.write("d.svm", "1 1:1\n-1 2:1\n");
  const std::string model = dir.file("d.model");
  const test::CommandResult result =
      test::run_tool("cdtrain", "-q -w3 2 -w1 2 " + path + " " + model);
  EXPECT_EQ(result.status, 0);
  EXPECT_EQ(result.err,
            "warning: -w3: no instance of " + path + " has label 3; the weight is unused\n");
  EXPECT_TRUE(std::filesystem::exists(model));
}

TEST(CheckMagnitudesEndToEnd, TheSearchForCChecksAtItsLargestC) {
  test::ScratchDir dir;
  // C * 1e304 fits at C = 1 but not at C = 1024.
  const std::string path = dir.write("d.svm", "-1 2:1\n1 1:1e152\n");
  const test::CommandResult result = test::run_tool("cdtrain", "-q -C " + path);
  EXPECT_EQ(result.status, 1);
  EXPECT_EQ(result.err, "cdtrain: error: " + path + ":2: " + too_large(1, "1e+152") + "\n");
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(test::run_tool("cdtrain", "-q " + path + " " + dir.file("d.model")).status, 0);
}

TEST(CheckMagnitudesEndToEnd, AHugeBiasIsAUsageError) {
  test::ScratchDir dir;
  const std::string path = dir.write("d.svm", "-1 2:1\n1 1:1\n");
  const std::string model = dir.file("d.model");
  const test::CommandResult result = test::run_tool("cdtrain", "-q -B 1e160 " + path + " " + model);
  EXPECT_EQ(result.status, 2);
  EXPECT_EQ(result.err.substr(0, result.err.find('\n')),
            "cdtrain: error: -B 1e+160 is too large to train on: C times the sum of its squares "
            "over the instances overflows");
  EXPECT_FALSE(std::filesystem::exists(model));
}

}  // namespace
}  // namespace cdl
