// cdtrain --select with the Lasso's rules end to end: each
// rule trains the Lasso to the same optimum as cyclic CD, and a rule that
// primal CD defines for the Lasso only is refused with a usage error
// (exit 2) for the other losses and regularizers, leaving no model behind.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "model/model.h"
#include "test_util.h"

namespace cdl {
namespace {

using test::run_script;
using test::ScratchDir;

// The last objective of a --trace file (its third column).
double last_objective(const std::string& trace) {
  std::istringstream rows(trace);
  std::string line;
  std::string last;
  while (std::getline(rows, line)) last = line;
  std::istringstream fields(last);
  std::string field;
  for (int k = 0; k < 3; ++k) std::getline(fields, field, '\t');
  return std::stod(field);
}

TEST(LassoRulesEndToEnd, EveryRuleReachesTheCyclicOptimum) {
  const ScratchDir dir;
  const std::string data = test::fixture_path("diabetes.svm");
  const std::string common = "$CDTRAIN -q -r l1 -l sq -c 0.01 -e 1e-9 --max-iter 20000 ";
  const auto reference = run_script(dir, common + "--trace t.tsv " + data + " m && cat t.tsv");
  ASSERT_EQ(reference.status, 0) << reference.err;
  const double f_star = last_objective(reference.out);
  for (const char* rule : {"importance", "ada-gap", "gap-per-epoch", "support-uniform",
                           "ada-uniform", "gs-s", "gs-r", "gs-q"}) {
    SCOPED_TRACE(rule);
    const auto run = run_script(dir, common + "--seed 3 --select " + rule + " --trace r.tsv " +
                                         data + " r.model && cat r.tsv");
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_NEAR(last_objective(run.out), f_star, 1e-8 * f_star);
    EXPECT_EQ(load_model(dir.file("r.model")).solver_type, "L1R_SQUARED_LOSS");
  }
}

TEST(LassoRulesEndToEnd, RefusesTheLassoRulesElsewhere) {
  const ScratchDir dir;
  for (const std::string args : {"-r l1 -l lr --select ada-gap $DATA/heart_scale",
                                 "-r l1 -l l2svm --select gs-q $DATA/heart_scale",
                                 "-r l2 -l sq --select gap-per-epoch $DATA/heart_scale",
                                 "-r l1 -l svr2 --select gs-s $DATA/heart_scale"}) {
    SCOPED_TRACE(args);
    const auto run = run_script(dir, "$CDTRAIN -q -s cd " + args + " m");
    EXPECT_EQ(run.status, 2);
    EXPECT_NE(run.err.find("is defined for the Lasso only (-r l1 -l sq)"), std::string::npos)
        << run.err;
    EXPECT_FALSE(std::ifstream(dir.file("m")).good());
  }
}

}  // namespace
}  // namespace cdl
