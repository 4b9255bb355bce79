// --select adaptive, Perekrestenko et al. (2017), (17): p_i proportional to
// |kappa_i| ||x_i||, recomputed after every step.
#include <cmath>

#include "select/dual_rule_base.h"
#include "select/dual_rules.h"

namespace cdl {

std::unique_ptr<SelectionRule> make_adaptive_rule(const RuleContext& context) {
  return std::make_unique<SumTreeRule>(
      dual_state_of(context, "adaptive"), context.seed,
      [](const DualState& s, std::size_t i) { return std::fabs(s.residue(i)) * s.row_norm(i); });
}

}  // namespace cdl
