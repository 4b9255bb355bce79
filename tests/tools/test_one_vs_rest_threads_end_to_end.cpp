// One-vs-rest on threads (-n): the model file and the progress output are
// the same byte for byte for any number of threads, for a randomized solver
// and for TRON, and equal to training each class as its own binary problem.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "solver_test_util.h"
#include "test_util.h"
#include "train/train.h"

namespace cdl {
namespace {

TEST(OneVsRestThreads, SameModelAndOutputForAnyThreadCount) {
  test::ScratchDir dir;
  const std::string data = test::data_path("dna.scale");  // 3 classes
  for (const std::string solver : {"cdper", "tron", "online"}) {
    SCOPED_TRACE(solver);
    std::string first_model;
    std::string first_err;
    for (const std::string threads : {"1", "2", "3", "8"}) {
      const std::string model = dir.file(solver + threads + ".model");
      const auto run = test::run_tool(
          "cdtrain", "-s " + solver + " -e 0.01 --seed 9 -m " + threads + " " + data + " " + model);
      ASSERT_EQ(run.status, 0) << run.err;
      // The progress lines differ only in their times ("0.016s").
      const std::string err =
          std::regex_replace(run.err, std::regex("[0-9]+\\.[0-9]+ ?m?s"), "<time>");
      if (threads == "1") {
        first_model = test::read_file(model);
        first_err = err;
        EXPECT_NE(err.find("class 1 vs rest"), std::string::npos);
        EXPECT_LT(err.find("class 1 vs rest"), err.find("class 2 vs rest"));
        continue;
      }
      EXPECT_EQ(test::read_file(model), first_model) << threads << " threads";
      EXPECT_EQ(err, first_err) << threads << " threads";
    }
  }
}

TEST(OneVsRestThreads, EachColumnIsItsClassAgainstTheRest) {
  const test::Data& data = test::load("dna.scale");
  Params params;
  params.solver = SolverKind::kCdPer;
  params.eps = 0.01;
  params.threads = 3;
  params = resolve_defaults(params);
  Reporter quiet_threads(std::cerr, Reporter::Level::kQuiet);
  const LinearModel model = train(data.file.features, data.classes, params, quiet_threads);
  ASSERT_EQ(model.nr_w(), 3u);
  for (std::size_t k = 0; k < 3; ++k) {
    const Problem problem = one_vs_rest(data.file.features, data.classes, k, 1.0, 1.0);
    test::RecordingReporter reporter;
    const SolveResult alone = train_binary(problem, params, derive_seed(params.seed, k), reporter);
    for (std::size_t i = 0; i < data.file.features.num_cols; ++i) {
      ASSERT_EQ(model.w[i * 3 + k], alone.w[i]) << "class " << k << ", feature " << i;
    }
  }
}

}  // namespace
}  // namespace cdl
