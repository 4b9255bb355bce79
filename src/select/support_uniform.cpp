// --select support-uniform, Perekrestenko et al. (2017), (16): uniform over
// the t-support set I_t = {i : kappa_i != 0}, recomputed after every step.
#include "select/dual_rule_base.h"
#include "select/dual_rules.h"

namespace cdl {

std::unique_ptr<SelectionRule> make_support_uniform_rule(const RuleContext& context) {
  return std::make_unique<SumTreeRule>(
      dual_state_of(context, "support-uniform"), context.seed,
      [](const DualState& s, std::size_t i) { return s.residue(i) != 0 ? 1.0 : 0.0; });
}

}  // namespace cdl
