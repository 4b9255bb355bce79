// --select gap-per-epoch, Perekrestenko et al. (2017), Section 3.4: ada-gap's
// p_i = G_i / G, computed at the start of each epoch from fresh margins
// (O(nnz), counted in the state's nnz_ops) and then fixed for the epoch's n
// draws (an alias table: O(n) to build, O(1) a draw). Needs no margins kept
// up to date and no feedback.
#include <vector>

#include "objective/dual_state.h"
#include "select/dual_rule_base.h"
#include "select/dual_rules.h"
#include "select/epoch_draws.h"

namespace cdl {
namespace {

class GapPerEpochRule final : public SelectionRule {
 public:
  GapPerEpochRule(const DualState& state, std::uint64_t seed) : state_(state), draws_(seed) {
    draws_.start_uniform(state_.size());
  }
  CoordinateBatch next_batch() override { return draws_.next(); }
  bool visits_all() const override { return false; }

 private:
  void on_start_epoch() override {
    // The gaps at fresh margins, computed here even when the state tracks
    // them, so that the rule's cost is the same in every setting.
    const std::vector<double> m = state_.compute_margins();
    state_.add_nnz_ops(static_cast<std::int64_t>(state_.problem().x().nnz()));
    std::vector<double> gaps(state_.size(), 0.0);
    for (std::size_t i = 0; i < gaps.size(); ++i) gaps[i] = state_.gap_at(i, m[i]);
    draws_.start(gaps);
  }

  const DualState& state_;
  EpochDraws draws_;
};

}  // namespace

std::unique_ptr<SelectionRule> make_gap_per_epoch_rule(const RuleContext& context) {
  return std::make_unique<GapPerEpochRule>(dual_state_of(context, "gap-per-epoch"), context.seed);
}

}  // namespace cdl
