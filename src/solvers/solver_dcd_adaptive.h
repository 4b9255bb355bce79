// The adaptive dual-CD loop (solver_dcd_adaptive.cpp): one coordinate per
// draw of a selection rule that reads the dual state. The dual CD solver
// (-s dcd) dispatches here when its --select rule needs the state
// (RuleInfo::dual_needs != kNone); tests and the experiments call it
// directly with their own state and rule.
#ifndef CDL_SOLVERS_SOLVER_DCD_ADAPTIVE_H_
#define CDL_SOLVERS_SOLVER_DCD_ADAPTIVE_H_

#include <cstdint>
#include <functional>
#include <memory>

#include "objective/dual_state.h"
#include "select/selection_rule.h"
#include "solvers/params.h"
#include "solvers/report.h"
#include "solvers/solve_result.h"

namespace cdl {

// Above this ratio of an exact epoch's cost (re-weighing every row each step
// changes) to a uniform epoch's, dual CD runs bounded-staleness gaps unless
// --exact-gaps is given, and with --exact-gaps cdtrain warns.
constexpr double kStaleGapsRatio = 100;
// Bounded-staleness gaps rebuild the rule's weights this many times an epoch.
constexpr std::size_t kRefreshesPerEpoch = 8;

// sum_k nnz(column k)^2 / nnz: the nonzeros an epoch of exactly re-weighed
// steps touches, relative to a uniform epoch's. O(n).
double exact_epoch_cost_ratio(const CscMatrix& x);

// What the loop knows after each epoch (and at epoch 0, before any step).
struct DualEpochInfo {
  std::int64_t epoch = 0;
  double primal = 0;         // P(w)
  double dual = 0;           // D(alpha) (the minimized form; -D is the dual value)
  double gap = 0;            // P(w) + D(alpha) = sum_i G_i
  double violation = 0;      // max_i PG_i - min_i PG_i, the stopping measure
  std::int64_t nnz_ops = 0;  // DualState::nnz_ops() so far
};
using DualEpochCallback = std::function<void(const DualEpochInfo&)>;

// Runs epochs of the rule (start_epoch, then one step per coordinate it
// hands out, with feedback) on `state` until the projected-gradient
// violation is at most eps, the gap is at most gap_tol (if > 0), or
// max_iter epochs have run. eps and max_iter are read from `params`
// (resolved). on_epoch, if set, is called at epoch 0 and after every epoch,
// off the clock. The result's w is the state's w, its objective P(w).
// refresh_every > 0: the rule rebuilds its weights after every that many
// steps (bounded-staleness gaps, on a state that does not track margins).
SolveResult solve_dcd_adaptive(DualState& state, SelectionRule& rule, const Params& params,
                               Reporter& reporter, double gap_tol = 0,
                               const DualEpochCallback& on_epoch = {},
                               std::size_t refresh_every = 0);

// Builds the state (tracking margins only if the rule's row asks for them
// and the gaps are exact: see kStaleGapsRatio) and the rule by name, then
// runs the loop: the entry of -s dcd for rules that read the state.
SolveResult solve_dcd_with_rule(const Problem& problem, LossKind loss, const std::string& rule,
                                std::uint64_t seed, const Params& params, Reporter& reporter,
                                double gap_tol = 0, const DualEpochCallback& on_epoch = {});

}  // namespace cdl

#endif  // CDL_SOLVERS_SOLVER_DCD_ADAPTIVE_H_
