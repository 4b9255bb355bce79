// --select support-uniform, adaptive and ada-uniform on the Lasso,
// Perekrestenko et al. (2017), (16)-(18), with the Lasso's dual residual
// kappa_i (objective/lasso_state.h) under the "Lipschitzing" bound B:
//   support-uniform (16)  p_i = 1/m_t on {i : kappa_i != 0}
//   adaptive        (17)  p_i ~ |kappa_i| ||column i||
//   ada-uniform     (18)  sigma (16) + (1 - sigma) (17), sigma = 1/2
// all after every step. Note that kappa_i is |w_i| while |g_i| < 1 but
// jumps to about B as soon as |g_i| > 1, so (17) puts nearly all its mass on
// the violated coordinates; at the optimum |g_i| = 1 on the support holds
// only up to rounding, which makes the support of (16) noisy there.
#include <cmath>

#include "select/lasso_rule_base.h"
#include "select/lasso_rules.h"

namespace cdl {
namespace {

double support(const LassoState& s, std::size_t i) { return s.residue(i) != 0 ? 1.0 : 0.0; }

double adaptive(const LassoState& s, std::size_t i) { return s.residue(i) * s.column_norm(i); }

}  // namespace

std::unique_ptr<SelectionRule> make_lasso_support_uniform_rule(const RuleContext& context) {
  return std::make_unique<LassoSumTreeRule>(context, "support-uniform", support);
}

std::unique_ptr<SelectionRule> make_lasso_adaptive_rule(const RuleContext& context) {
  return std::make_unique<LassoSumTreeRule>(context, "adaptive", adaptive);
}

std::unique_ptr<SelectionRule> make_lasso_ada_uniform_rule(const RuleContext& context) {
  return std::make_unique<LassoSumTreeRule>(context, "ada-uniform", adaptive, support, 0.5);
}

}  // namespace cdl
