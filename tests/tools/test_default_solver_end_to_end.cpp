// cdtrain without -s: the L2-SVM's solver chosen by the data's shape
// (choose_solver_by_shape, docs/solvers.md "The default solver"): dual CD
// on data with more features than instances and enough nonzeros, the same
// model as -s dcd for any -m; cdper otherwise, and whenever -s, another
// problem, a solver's own option or -i is given. And -s 2 and -s 11 by the
// same shape: dcd and dcd-svr to their own rules on wide data, newton and
// TRON otherwise.
#include <gtest/gtest.h>

#include <string>

#include "test_util.h"

namespace cdl {
namespace {

// 200 instances, 5000 features, 100,000 nonzeros: the smallest wide data
// that the shape gives to dual CD.
std::string wide_file(const test::ScratchDir& dir) {
  return dir.write("wide.svm", test::sparse_libsvm_text(200, 5000, 500));
}

TEST(DefaultSolverEndToEnd, WideDataTrainsDualCdAsMinusSDcdForAnyThreads) {
  test::ScratchDir dir;
  const std::string wide = wide_file(dir);
  const auto by_shape = test::run_tool("cdtrain", "-m 1 " + wide + " " + dir.file("default"));
  ASSERT_EQ(by_shape.status, 0) << by_shape.err;
  EXPECT_EQ(by_shape.err.rfind("cdtrain: training, solver dcd (default for 5000 features > 200 "
                               "instances, 100000 nonzeros; -s cdper for the paper's CD), loss "
                               "l2svm, regularizer l2\n",
                               0),
            0u)
      << by_shape.err;
  EXPECT_EQ(test::first_line_of(dir.file("default")), "solver_type L2R_L2LOSS_SVC_DUAL");
  const std::string model = test::read_file(dir.file("default"));
  for (const std::string flags : {"-q -s dcd -m 2", "-q -m 2", "-q -m 3", "-q -s 1 -m 2"}) {
    const auto r = test::run_tool("cdtrain", flags + " " + wide + " " + dir.file("other"));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(test::read_file(dir.file("other")), model) << flags;
  }
  // A pipe is read as columns (no sample to guess the shape from), then
  // made rows: the same model.
  const auto piped = test::run_script(dir, "cat wide.svm | $CDTRAIN -q - piped");
  ASSERT_EQ(piped.status, 0) << piped.err;
  EXPECT_EQ(test::read_file(dir.file("piped")), model);
}

TEST(DefaultSolverEndToEnd, NamedSolversOtherProblemsAndOptionsKeepCdper) {
  test::ScratchDir dir;
  const std::string wide = wide_file(dir);
  for (const std::string flags : {"-s cdper", "-l lr", "--sigma 0.02", "--partitions 1"}) {
    const auto r = test::run_tool("cdtrain", flags + " " + wide + " " + dir.file("m"));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("cdtrain: training, solver cdper, loss"), std::string::npos)
        << flags << "\n"
        << r.err;
    EXPECT_NE(test::first_line_of(dir.file("m")).find("solver_type L2R_"), std::string::npos);
    EXPECT_EQ(test::first_line_of(dir.file("m")).find("_DUAL"), std::string::npos) << flags;
  }
  // -i starts from a model's w, which dual CD cannot: cdper trains on.
  const auto start = test::run_tool("cdtrain", "-q -s cdper " + wide + " " + dir.file("start"));
  ASSERT_EQ(start.status, 0) << start.err;
  const auto warm =
      test::run_tool("cdtrain", "-i " + dir.file("start") + " " + wide + " " + dir.file("m"));
  ASSERT_EQ(warm.status, 0) << warm.err;
  EXPECT_NE(warm.err.find("solver cdper, loss l2svm"), std::string::npos) << warm.err;
}

TEST(DefaultSolverEndToEnd, SmallOrTallDataKeepsCdperAndSaysWhy) {
  test::ScratchDir dir;
  // 200 x 5000 with 99,800 nonzeros: below the floor.
  const std::string small = dir.write("small.svm", test::sparse_libsvm_text(200, 5000, 499));
  const auto r = test::run_tool("cdtrain", small + " " + dir.file("m"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err.rfind("cdtrain: training, solver cdper (default for 99800 nonzeros < 100000), "
                        "loss l2svm",
                        0),
            0u)
      << r.err;
  EXPECT_EQ(test::first_line_of(dir.file("m")), "solver_type L2R_L2LOSS_SVC");
  // -v folds and -C's search keep the whole file's choice.
  const std::string wide = wide_file(dir);
  const auto cv = test::run_tool("cdtrain", "-v 3 " + wide);
  ASSERT_EQ(cv.status, 0) << cv.err;
  EXPECT_EQ(cv.err.rfind("cdtrain: 3-fold cross validation, solver dcd (default for", 0), 0u)
      << cv.err;
  EXPECT_EQ(cv.out.rfind("solver dcd, loss l2svm, regularizer l2: Cross Validation Accuracy", 0),
            0u)
      << cv.out;
}

// A primal number on wide data: dual CD (`dual`) to the number's rule, its
// model type, the same bytes for any -m; on tall data `primal`.
struct PrimalOnWide {
  std::string number;  // "2", "11"
  std::string dual;    // the wide data's solver
  std::string primal;  // the tall data's
  std::string loss;
  std::string model_type;
};

void expect_dual_on_wide_data(const PrimalOnWide& c) {
  test::ScratchDir dir;
  const std::string wide = wide_file(dir);
  const std::string s = "-s " + c.number;
  const auto r = test::run_tool("cdtrain", s + " -m 1 " + wide + " " + dir.file("m1"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err.rfind("cdtrain: training, solver " + c.dual +
                            " (for 5000 features > 200 instances, 100000 nonzeros: dual CD to " +
                            s + "'s rule on the primal gradient; -s " + c.primal + " -l " + c.loss +
                            " for " + c.primal + "), loss " + c.loss,
                        0),
            0u)
      << r.err;
  EXPECT_NE(r.err.find(", " + s + " stops at "), std::string::npos) << r.err;
  EXPECT_EQ(test::first_line_of(dir.file("m1")), "solver_type " + c.model_type);
  for (const std::string threads : {"2", "3"}) {
    const auto other =
        test::run_tool("cdtrain", "-q " + s + " -m " + threads + " " + wide + " " + dir.file("m"));
    ASSERT_EQ(other.status, 0) << other.err;
    EXPECT_EQ(test::read_file(dir.file("m")), test::read_file(dir.file("m1"))) << threads;
  }
  const std::string tall = dir.write("tall.svm", test::sparse_libsvm_text(400, 300, 100));
  const auto t = test::run_tool("cdtrain", s + " " + tall + " " + dir.file("t"));
  ASSERT_EQ(t.status, 0) << t.err;
  EXPECT_EQ(t.err.rfind("cdtrain: training, solver " + c.primal +
                            " (for 300 features <= 400 instances), loss " + c.loss,
                        0),
            0u)
      << t.err;
  EXPECT_EQ(test::first_line_of(dir.file("t")), "solver_type " + c.model_type);
}

TEST(DefaultSolverEndToEnd, PrimalNumbersOnWideDataRunDualCdAndWriteTheirModelType) {
  expect_dual_on_wide_data({"2", "dcd", "newton", "l2svm", "L2R_L2LOSS_SVC"});
  expect_dual_on_wide_data({"11", "dcd-svr", "tron", "svr2", "L2R_L2LOSS_SVR"});
  // -v keeps the primal solver on wide data too.
  test::ScratchDir dir;
  const auto cv = test::run_tool("cdtrain", "-s 11 -v 3 " + wide_file(dir));
  ASSERT_EQ(cv.status, 0) << cv.err;
  EXPECT_EQ(cv.err.rfind("cdtrain: 3-fold cross validation, solver tron, loss svr2", 0), 0u)
      << cv.err;
}

}  // namespace
}  // namespace cdl
