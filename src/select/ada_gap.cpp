// --select ada-gap, Perekrestenko et al. (2017), Theorem 3.7: p_i = G_i / G,
// the coordinate's share of the duality gap, recomputed after every step.
#include "select/dual_rule_base.h"
#include "select/dual_rules.h"

namespace cdl {

std::unique_ptr<SelectionRule> make_ada_gap_rule(const RuleContext& context) {
  return std::make_unique<SumTreeRule>(dual_state_of(context, "ada-gap"), context.seed,
                                       [](const DualState& s, std::size_t i) { return s.gap(i); });
}

}  // namespace cdl
