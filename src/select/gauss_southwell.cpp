// --select gs-s, gs-r, gs-q: the primer's greedy rules (Shi et al., (18)-(20),
// derived for the SVM dual in its Section 4.4.2), on the box-constrained dual
// min 1/2 alpha'Qbar alpha - e'alpha, 0 <= alpha_i <= U_i. Scores live in an
// indexed max-heap; a step re-scores only the rows whose margin it changed.
//   gs-s (18): |the minimum-norm element of grad_i + d(indicator of the box)|,
//              the projected gradient.
//   gs-r (19): |alpha_i - clip(alpha_i - grad_i / Qbar_ii, 0, U_i)|, with the
//              coordinate constant Qbar_ii for L (the primer's GSL-r; its
//              Section 4.4.2 writes Q_jj as well).
//   gs-q (20): the largest decrease -(grad_i d + Qbar_ii d^2 / 2) at that d,
//              i.e. argmin of the model value, which for this quadratic is
//              the exact decrease of D along coordinate i.
#include <cmath>

#include "select/dual_rule_base.h"
#include "select/dual_rules.h"

namespace cdl {

std::unique_ptr<SelectionRule> make_gs_s_rule(const RuleContext& context) {
  return std::make_unique<GreedyRule>(
      dual_state_of(context, "gs-s"),
      [](const DualState& s, std::size_t i) { return std::fabs(s.projected_gradient(i)); });
}

std::unique_ptr<SelectionRule> make_gs_r_rule(const RuleContext& context) {
  return std::make_unique<GreedyRule>(
      dual_state_of(context, "gs-r"),
      [](const DualState& s, std::size_t i) { return std::fabs(s.newton_target(i) - s.alpha(i)); });
}

std::unique_ptr<SelectionRule> make_gs_q_rule(const RuleContext& context) {
  return std::make_unique<GreedyRule>(dual_state_of(context, "gs-q"),
                                      [](const DualState& s, std::size_t i) {
                                        const double d = s.newton_target(i) - s.alpha(i);
                                        return -(s.gradient(i) * d + 0.5 * s.qbar(i) * d * d);
                                      });
}

}  // namespace cdl
