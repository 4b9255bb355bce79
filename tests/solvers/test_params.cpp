// choose_solver_by_shape (params.h): the default L2-SVM solver and the
// solvers of LIBLINEAR's -s 2 and -s 11 by l, n and the nonzeros, and the
// runs it leaves alone.
#include <gtest/gtest.h>

#include "solvers/liblinear_numbers.h"
#include "solvers/params.h"
#include "solvers/solver_cd.h"

namespace cdl {
namespace {

TEST(SolverByShape, DualCdOnMoreFeaturesThanInstancesFromTheFloorOfNonzeros) {
  const Params given;
  const Params wide = choose_solver_by_shape(given, {100000, 1000000, 11000000});
  EXPECT_EQ(wide.solver, SolverKind("dcd"));
  EXPECT_EQ(wide.choice.reason,
            "default for 1000000 features > 100000 instances, 11000000 nonzeros; -s cdper for "
            "the paper's CD");
  EXPECT_EQ(choose_solver_by_shape(given, {10, 11, kShapeNonzeros}).solver, SolverKind("dcd"));
  const Params few = choose_solver_by_shape(given, {10, 11, kShapeNonzeros - 1});
  EXPECT_EQ(few.solver, SolverKind::kCdPer);
  EXPECT_EQ(few.choice.reason, "default for 99999 nonzeros < 100000");
  const Params tall = choose_solver_by_shape(given, {200000, 200000, 12000000});
  EXPECT_EQ(tall.solver, SolverKind::kCdPer);
  EXPECT_EQ(tall.choice.reason, "default for 200000 features <= 200000 instances");
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
  kept[0].choice.given = true;  // -s cdper
  kept[1].loss = LossKind::kLogistic;
  kept[2].loss = LossKind::kSvrL2;
  kept[3].regularizer = RegularizerKind::kL1;
  kept[4].own<PartitionOptions>().count = 1;
  kept[5].own<LineSearchOptions>().sigma = 0.02;
  for (const Params& given : kept) {
    EXPECT_FALSE(solver_by_shape(given));
    const Params out = choose_solver_by_shape(given, wide);
    EXPECT_EQ(out.solver, SolverKind::kCdPer);
    EXPECT_TRUE(out.choice.reason.empty());
  }
  Params l2svm;
  l2svm.loss = LossKind::kL2Svm;  // -l l2svm is the default problem
  EXPECT_TRUE(solver_by_shape(l2svm));
}

// -s N as cdtrain's command line sets it.
Params number(int n) {
  Params params;
  params.choice.given = true;
  params.choice.liblinear_number = n;
  apply_liblinear_number(params, false, {"-s", "-l", "-r", true});
  return params;
}

Params primal_svr() { return number(11); }

// -s 11 on wide data: dual CD, to -s 11's own eps (TRON's 0.0001, not the
// dual's 0.1) unless -e was given; TRON otherwise.
TEST(SolverByShape, PrimalSvrRunsDualCdOnWideDataWithItsOwnEps) {
  const Params given = primal_svr();
  EXPECT_EQ(given.solver, SolverKind("tron"));
  EXPECT_TRUE(solver_by_shape(given));
  const Params wide = resolve_defaults(choose_solver_by_shape(given, {100000, 1000000, 11000000}));
  EXPECT_EQ(wide.solver, SolverKind("dcd-svr"));
  EXPECT_EQ(wide.eps, 0.0001);
  EXPECT_EQ(wide.choice.liblinear_number, 11);
  EXPECT_EQ(wide.choice.reason,
            "for 1000000 features > 100000 instances, 11000000 nonzeros: dual CD to -s 11's "
            "rule on the primal gradient; -s tron -l svr2 for tron");
  Params eps_given = given;
  eps_given.eps = 0.01;
  EXPECT_EQ(resolve_defaults(choose_solver_by_shape(eps_given, {100, 5000, 200000})).eps, 0.01);
  const Params tall = resolve_defaults(choose_solver_by_shape(given, {200000, 100000, 12000000}));
  EXPECT_EQ(tall.solver, SolverKind("tron"));
  EXPECT_EQ(tall.eps, 0.0001);
  EXPECT_EQ(tall.choice.reason, "for 100000 features <= 200000 instances");
  EXPECT_EQ(choose_solver_by_shape(given, {10, 11, kShapeNonzeros - 1}).solver, SolverKind("tron"));
}

// -s 2 likewise: dcd on wide data to -s 2's rule and eps (newton's 0.01),
// newton otherwise.
TEST(SolverByShape, PrimalL2SvmRunsDualCdOnWideDataWithItsOwnEps) {
  const Params given = number(2);
  EXPECT_EQ(given.solver, SolverKind("newton"));
  const Params wide = resolve_defaults(choose_solver_by_shape(given, {100000, 1000000, 11000000}));
  EXPECT_EQ(wide.solver, SolverKind("dcd"));
  EXPECT_EQ(wide.eps, 0.01);
  EXPECT_EQ(wide.loss, LossKind::kL2Svm);
  EXPECT_EQ(wide.choice.reason,
            "for 1000000 features > 100000 instances, 11000000 nonzeros: dual CD to -s 2's "
            "rule on the primal gradient; -s newton -l l2svm for newton");
  const Params tall = resolve_defaults(choose_solver_by_shape(given, {200000, 100000, 12000000}));
  EXPECT_EQ(tall.solver, SolverKind("newton"));
  EXPECT_EQ(tall.eps, 0.01);
}

// -R (dual CD has no free bias), -v and -C (folds and warm starts) keep
// TRON and newton.
TEST(SolverByShape, PrimalNumbersKeepTheirSolverWithFreeBiasAndCrossValidation) {
  const DataShape wide{100, 5000, 200000};
  for (int n : {2, 11}) {
    std::vector<Params> kept(2, number(n));
    kept[0].free_bias = true;
    kept[1].cv_folds = 5;
    for (const Params& given : kept) {
      EXPECT_FALSE(solver_by_shape(given));
      EXPECT_EQ(choose_solver_by_shape(given, wide).solver,
                n == 2 ? SolverKind("newton") : SolverKind("tron"));
    }
  }
  // The numbers that name a dual, or LR's primal (-s 0), are never chosen
  // by shape.
  for (int n : {0, 1, 12}) EXPECT_FALSE(solver_by_shape(number(n))) << n;
}

}  // namespace
}  // namespace cdl
