// The stopping rule of LIBLINEAR's primal numbers -s 2 and -s 11 for the
// dual CD solvers that the data's shape gives them on wide data
// (choose_solver_by_shape, params.h): the rule of TRON and the Newton
// method, ||grad f(w)|| <= eps ||grad f(0)|| of the primal f at the dual's
// w (eps scaled as train_binary() scales theirs: by the minority share for
// -s 2, as given for -s 11).
//
// f and grad f are evaluated on the rows by vector_objective.h, on the run's
// threads (the same bits for any -m), O(#nz + B n) a check. A check costs
// about as much as two to three epochs, so checks are spaced by the rate at
// which ||grad f|| fell between the last two: the next comes after the
// epochs that rate needs to reach the target, at least 1 and at most as
// many as have run (the first two come after epochs 1 and 2). A check that
// fails tells the solver to restore the instances it has shrunk. The dual's
// own rule is not used.
#ifndef CDL_SOLVERS_PRIMAL_RULE_H_
#define CDL_SOLVERS_PRIMAL_RULE_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "data/problem.h"
#include "objective/vector_objective.h"
#include "solvers/params.h"
#include "solvers/report.h"

namespace cdl {

// The dual CD row that wide data send params' -s number to, stopped by
// the number's own rule (SolverInfo::wide_data_numbers), or null for a
// number that no row lists there.
const SolverInfo* primal_on_wide_data(const Params& params);

// Whether params run a dual solver to a primal number's rule: -s 2 or
// -s 11 whose shape chose dual CD.
bool stops_by_primal_rule(const Params& params);

class PrimalRule {
 public:
  // For `problem` with params (resolved, eps scaled), on `threads` threads;
  // each check is reported on `reporter` (an info line).
  PrimalRule(const Problem& problem, const Params& params, unsigned threads, Reporter& reporter);

  // Whether a check is due after `epoch` (counted from 1).
  bool due(std::int64_t epoch) const { return epoch >= next_; }

  // Checks w after `epoch`: true when ||grad f(w)|| passes; else schedules
  // the next check.
  bool passes(std::int64_t epoch, const std::vector<double>& w);

 private:
  std::unique_ptr<VectorObjective> objective_;
  Reporter& reporter_;
  int number_;
  double target_;
  std::vector<double> gradient_;
  std::int64_t next_ = 1;
  std::int64_t last_epoch_ = 0;
  double last_norm_ = 0;
};

}  // namespace cdl

#endif  // CDL_SOLVERS_PRIMAL_RULE_H_
