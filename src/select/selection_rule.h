// Coordinate selection: which coordinate a coordinate-descent algorithm
// updates next, chosen by --select independently of the algorithm.
//
// A rule hands out coordinates in batches: next_batch() returns the next run
// of coordinates to visit, and an empty batch ends the epoch (an outer
// iteration). A static order (cyclic, permutation) returns a whole epoch, or
// large chunks of it, so the solver's inner loop makes no call per coordinate
// and can prefetch along the batch. A rule that adapts to the progress of the
// solve (importance or gap-based sampling, Gauss-Southwell, shrinking) says
// so with wants_feedback(); the solver then calls feedback() after every
// coordinate step with the coordinate, D'_i(0), D''_i(0) and the step taken,
// and such a rule returns small batches (one coordinate, for a greedy rule)
// so that the feedback is heard before the next choice.
//
// What a rule needs besides the feedback (the number of coordinates, a seed,
// the data for column norms) comes through its constructor (RuleContext),
// never through next_batch().
//
// Rules on the SVM dual (dual CD, -s dcd): a coordinate is an
// instance i, and the adaptive and greedy rules weigh it by quantities of the
// dual state (alpha_i, the margin m_i, the gap G_i, the residue kappa_i; see
// objective/dual_state.h). Such a rule gets the state through
// RuleContext::dual, reads it (never writes it), and in feedback() updates
// only the rows that the step changed (DualState::changed_rows()), not all
// n; it rebuilds its whole distribution in on_start_epoch(), after the
// solver has refreshed the margins. The table row says which solvers a rule
// serves (RuleInfo::coordinates) and what it needs from the state
// (RuleInfo::dual_needs), so that the solver builds a state that tracks all
// margins only when a rule reads them.
//
// Active set: a rule may leave coordinates out of its epochs (shrinking), and
// says how many with inactive_count(). While some are out, the solver's
// stopping test measures only the coordinates visited in the epoch; when that
// passes, it calls restore_active_set(), the rule puts them back and returns
// true, and the solver goes on for at least one more epoch over all of them.
#ifndef CDL_SELECT_SELECTION_RULE_H_
#define CDL_SELECT_SELECTION_RULE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "data/sparse_matrix.h"

namespace cdl {

class DualState;
struct Problem;

// What the solver reports after each coordinate step.
struct StepFeedback {
  std::size_t coordinate;
  double d1;    // D'_i(0), the derivative of f along the coordinate before the step
  double d2;    // D''_i(0), its (generalized) second derivative
  double step;  // the step z taken, w_i += z (0 if none)
};

// What a rule may be built from.
struct RuleContext {
  std::size_t num_coordinates = 0;
  std::uint64_t seed = 1;
  const CscMatrix* x = nullptr;  // the data, for rules that weigh columns; may be null
  // The dual CD state, for rules on the dual (num_coordinates is then the
  // number of rows); null for primal solvers. Not owned; outlives the rule.
  const DualState* dual = nullptr;
  // The Lasso's problem (targets and costs) when the run is the Lasso
  // (-r l1 -l sq on primal CD), for the rules that weigh features by its
  // state (objective/lasso_state.h, select/lasso_rules.h); null otherwise.
  // w0 is the solver's starting point (null: 0). Not owned.
  const Problem* lasso = nullptr;
  const std::vector<double>* w0 = nullptr;
  // The Lasso's bias weight is unregularized (-R): the rules on its state
  // take every weight as regularized, and refuse it.
  bool lasso_free_bias = false;
  // A core is free beside the solver's (-m is not 1, and no other problem
  // trains at the same time), for a rule that can prepare ahead on a thread.
  bool spare_thread = false;
};

struct CoordinateBatch {
  const std::size_t* begin = nullptr;
  std::size_t size = 0;
};

class SelectionRule {
 public:
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  virtual ~SelectionRule() = default;

  // Begins an outer iteration.
  void start_epoch() {
    batch_ = {};
    pos_ = 0;
    on_start_epoch();
  }
  // The next coordinates of this epoch; size 0 when it is over.
  virtual CoordinateBatch next_batch() = 0;

  // One coordinate at a time, over next_batch(); kNone when the epoch is
  // over. For tests and simple callers; the solvers loop over batches.
  std::size_t next() {
    if (pos_ == batch_.size) {
      batch_ = next_batch();
      pos_ = 0;
      if (batch_.size == 0) return kNone;
    }
    return batch_.begin[pos_++];
  }

  // Whether every epoch visits every coordinate (false for draws with
  // replacement, which leave some coordinates out of an epoch).
  virtual bool visits_all() const { return true; }

  virtual bool wants_feedback() const { return false; }
  // Whether the solver may leave coordinates out of later epochs on its own
  // (the primal L1 solver's shrinking). A rule that weighs coordinates by the
  // state (the Lasso's gaps, greedy scores) says no: it would keep picking a
  // coordinate that the solver skips, and the epoch would be lost.
  virtual bool solver_may_shrink() const { return true; }
  virtual void feedback(const StepFeedback& /*step*/) {}
  // Rebuilds every weight from the state, as at the start of an epoch, but
  // without starting a new one: dual CD with bounded-staleness gaps
  // (solver_dcd_adaptive.cpp) calls it every few steps instead of
  // re-weighing the rows each step changes. O(nnz) for the dual rules.
  virtual void refresh_weights() {}

  // See "Active set" above.
  virtual std::size_t inactive_count() const { return 0; }
  virtual bool restore_active_set() { return false; }

 protected:
  virtual void on_start_epoch() {}

 private:
  CoordinateBatch batch_;
  std::size_t pos_ = 0;
};

// Which coordinates a rule can pick (a bit set): the features of a primal CD
// solver (cd, cdper, ..., cmls), the instances of dual CD (dcd).
constexpr unsigned kPrimalCoordinates = 1;
constexpr unsigned kDualCoordinates = 2;
constexpr unsigned kAnyCoordinates = kPrimalCoordinates | kDualCoordinates;

// What a rule reads from the dual state.
enum class DualNeeds {
  kNone,     // nothing (static orders, importance on the primal)
  kState,    // alpha, w and the row norms; computes what else it needs itself
  kMargins,  // the margins of all rows, kept up to date after every step
};

// The --select table: one row per rule.
struct RuleInfo {
  const char* name;
  const char* description;  // one line for -h
  bool randomized;          // uses the seed
  std::unique_ptr<SelectionRule> (*make)(const RuleContext& context);
  unsigned coordinates = kAnyCoordinates;
  DualNeeds dual_needs = DualNeeds::kNone;
  // The rule on the Lasso's features (select/lasso_rules.h), for rules whose
  // make serves the dual: make_rule() calls it when RuleContext::lasso is
  // set, and validate() accepts the rule on primal CD for the Lasso only.
  std::unique_ptr<SelectionRule> (*make_lasso)(const RuleContext& context) = nullptr;

  bool applies_to(unsigned kind) const { return (coordinates & kind) != 0; }
};

const std::vector<RuleInfo>& rule_table();
// nullptr if unknown.
const RuleInfo* find_rule(const std::string& name);
// "cyclic, perm, perm-once or uniform".
std::string rule_choices();
// The same, of the rules that pick `kind` coordinates (kPrimalCoordinates or
// kDualCoordinates).
std::string rule_choices(unsigned kind);
// Throws Error for an unknown name.
std::unique_ptr<SelectionRule> make_rule(const std::string& name, const RuleContext& context);

}  // namespace cdl

#endif  // CDL_SELECT_SELECTION_RULE_H_
