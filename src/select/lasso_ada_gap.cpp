// --select ada-gap on the Lasso, Perekrestenko et al. (2017), Theorem 3.7
// with the Lasso's coordinate gaps (21): p_i = gap_i / gap, recomputed after
// every step for the features whose gradient the step changed.
#include "select/lasso_rule_base.h"
#include "select/lasso_rules.h"

namespace cdl {

std::unique_ptr<SelectionRule> make_lasso_ada_gap_rule(const RuleContext& context) {
  return std::make_unique<LassoSumTreeRule>(
      context, "ada-gap", [](const LassoState& s, std::size_t i) { return s.gap(i); });
}

}  // namespace cdl
