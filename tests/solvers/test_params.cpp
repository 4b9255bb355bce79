// choose_solver_by_shape (params.h): the default L2-SVM solver by l, n and
// the nonzeros, and the runs it leaves alone.
#include <gtest/gtest.h>

#include "solvers/params.h"

namespace cdl {
namespace {

TEST(SolverByShape, DualCdOnMoreFeaturesThanInstancesFromTheFloorOfNonzeros) {
  const Params given;
  const Params wide = choose_solver_by_shape(given, {100000, 1000000, 11000000});
  EXPECT_EQ(wide.solver, SolverKind("dcd"));
  EXPECT_EQ(wide.solver_reason,
            "default for 1000000 features > 100000 instances, 11000000 nonzeros; -s cdper for "
            "the paper's CD");
  EXPECT_EQ(choose_solver_by_shape(given, {10, 11, kShapeNonzeros}).solver, SolverKind("dcd"));
  const Params few = choose_solver_by_shape(given, {10, 11, kShapeNonzeros - 1});
  EXPECT_EQ(few.solver, SolverKind::kCdPer);
  EXPECT_EQ(few.solver_reason, "default for 99999 nonzeros < 100000");
  const Params tall = choose_solver_by_shape(given, {200000, 200000, 12000000});
  EXPECT_EQ(tall.solver, SolverKind::kCdPer);
  EXPECT_EQ(tall.solver_reason, "default for 200000 features <= 200000 instances");
}

TEST(SolverByShape, TheChosenRowGivesEpsUnlessEpsWasGiven) {
  const DataShape wide{100, 5000, 200000};
  EXPECT_EQ(resolve_defaults(choose_solver_by_shape(Params{}, wide)).eps, 0.1);
  EXPECT_EQ(resolve_defaults(choose_solver_by_shape(Params{}, {5000, 100, 200000})).eps, 0.001);
  Params given;
  given.eps = 0.5;
  EXPECT_EQ(resolve_defaults(choose_solver_by_shape(given, wide)).eps, 0.5);
}

TEST(SolverByShape, LeavesGivenSolversOtherProblemsAndSolverOptionsAlone) {
  const DataShape wide{100, 5000, 200000};
  std::vector<Params> kept(6);
  kept[0].solver_given = true;  // -s cdper
  kept[1].loss = LossKind::kLogistic;
  kept[2].loss = LossKind::kSvrL2;
  kept[3].regularizer = RegularizerKind::kL1;
  kept[4].partitions = 1;
  kept[5].sigma = 0.02;
  for (const Params& given : kept) {
    EXPECT_FALSE(solver_by_shape(given));
    const Params out = choose_solver_by_shape(given, wide);
    EXPECT_EQ(out.solver, SolverKind::kCdPer);
    EXPECT_TRUE(out.solver_reason.empty());
  }
  Params l2svm;
  l2svm.loss = LossKind::kL2Svm;  // -l l2svm is the default problem
  EXPECT_TRUE(solver_by_shape(l2svm));
}

}  // namespace
}  // namespace cdl
