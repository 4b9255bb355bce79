// --select gs-s, gs-r, gs-q on the Lasso: the primer's greedy rules (Shi et
// al., (18)-(20), derived for the Lasso in its Section 4.1.3), with f's own
// scaling, ||w||_1 + sum_j C_j (y_j - w'x_j)^2 (the primer's lambda/2 is C):
//   gs-s (18): |S(g_i, 1)| at w_i = 0, |g_i + sign(w_i)| otherwise.
//   gs-r (19): |w_i - prox_{|.|/L_i}(w_i - g_i / L_i)| = |d_i|, with the
//              coordinate constants L_i = h_i (the primer's GSL-r; its
//              Section 4.1.3 writes the global L, which would make every
//              step smaller than CD's exact one).
//   gs-q (20): the largest decrease -(g_i d_i + L_i/2 d_i^2 + |w_i + d_i| -
//              |w_i|), which for the Lasso is the exact decrease of f by the
//              exact coordinate step.
#include <cmath>

#include "select/lasso_rule_base.h"
#include "select/lasso_rules.h"

namespace cdl {

std::unique_ptr<SelectionRule> make_lasso_gs_s_rule(const RuleContext& context) {
  return std::make_unique<LassoGreedyRule>(context, "gs-s", [](const LassoState& s, std::size_t i) {
    return std::fabs(s.subgradient(i));
  });
}

std::unique_ptr<SelectionRule> make_lasso_gs_r_rule(const RuleContext& context) {
  return std::make_unique<LassoGreedyRule>(context, "gs-r", [](const LassoState& s, std::size_t i) {
    return std::fabs(s.newton_step(i));
  });
}

std::unique_ptr<SelectionRule> make_lasso_gs_q_rule(const RuleContext& context) {
  return std::make_unique<LassoGreedyRule>(
      context, "gs-q", [](const LassoState& s, std::size_t i) { return s.decrease(i); });
}

}  // namespace cdl
