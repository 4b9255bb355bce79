// --select gap-per-epoch on the Lasso, Perekrestenko et al. (2017), Section
// 3.4: ada-gap's p_i = gap_i / gap with the Lasso's gaps (21), computed at the
// start of each epoch from a refreshed state (O(nnz)) and then fixed for the
// epoch's n draws (an alias table: O(n) to build, O(1) a draw). Its state
// follows only the residual (O(nnz of column i) a step), not the gradients.
#include <vector>

#include "objective/lasso_state.h"
#include "select/epoch_draws.h"
#include "select/lasso_rule_base.h"
#include "select/lasso_rules.h"

namespace cdl {
namespace {

class LassoGapPerEpochRule final : public LassoStateRule {
 public:
  explicit LassoGapPerEpochRule(const RuleContext& context)
      : LassoStateRule(context, "gap-per-epoch", false), draws_(context.seed) {
    on_start_epoch();
  }
  CoordinateBatch next_batch() override { return draws_.next(); }
  void feedback(const StepFeedback& step) override { state_.step(step.coordinate, step.step); }

 private:
  void on_start_epoch() override {
    state_.refresh();
    draws_.start(values_of([](const LassoState& state, std::size_t i) { return state.gap(i); }));
  }

  EpochDraws draws_;
};

}  // namespace

std::unique_ptr<SelectionRule> make_lasso_gap_per_epoch_rule(const RuleContext& context) {
  return std::make_unique<LassoGapPerEpochRule>(context);
}

}  // namespace cdl
