// --select gap-per-epoch on the Lasso, Perekrestenko et al. (2017), Section
// 3.4: ada-gap's p_i = gap_i / gap with the Lasso's gaps (21), computed at the
// start of each epoch from a refreshed state (O(nnz)) and then fixed for the
// epoch's n draws (an alias table: O(n) to build, O(1) a draw). Its state
// follows only the residual (O(nnz of column i) a step), not the gradients.
#include <random>
#include <vector>

#include "objective/lasso_state.h"
#include "select/alias_table.h"
#include "select/lasso_rule_base.h"
#include "select/lasso_rules.h"
#include "select/random.h"

namespace cdl {
namespace {

class LassoGapPerEpochRule final : public SelectionRule {
 public:
  explicit LassoGapPerEpochRule(const RuleContext& context)
      : state_(lasso_problem_of(context, "gap-per-epoch"), context.w0, false), rng_(context.seed) {
    on_start_epoch();
  }
  CoordinateBatch next_batch() override {
    if (drawn_ == state_.size()) return {};
    ++drawn_;
    pick_ = uniform_ ? uniform_index(rng_, state_.size()) : table_.draw(rng_);
    return {&pick_, 1};
  }
  bool visits_all() const override { return false; }
  bool wants_feedback() const override { return true; }
  bool solver_may_shrink() const override { return false; }
  void feedback(const StepFeedback& step) override { state_.step(step.coordinate, step.step); }

 private:
  void on_start_epoch() override {
    drawn_ = 0;
    state_.refresh();
    std::vector<double> gaps(state_.size());
    double sum = 0;
    for (std::size_t i = 0; i < gaps.size(); ++i) {
      gaps[i] = state_.gap(i);
      sum += gaps[i];
    }
    uniform_ = !(sum > 0);
    if (!uniform_) table_ = AliasTable(gaps);
  }

  LassoState state_;
  std::mt19937_64 rng_;
  AliasTable table_;
  bool uniform_ = true;
  std::size_t drawn_ = 0;
  std::size_t pick_ = 0;
};

}  // namespace

std::unique_ptr<SelectionRule> make_lasso_gap_per_epoch_rule(const RuleContext& context) {
  return std::make_unique<LassoGapPerEpochRule>(context);
}

}  // namespace cdl
