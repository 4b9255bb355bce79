// The factories of the importance, adaptive, gap-based and greedy rules
// one file each; rule_table.cpp has their rows.
//
// Perekrestenko, Cevher & Jaggi (2017), Section 3.4, on the SVM dual, each
// drawing n coordinates per epoch with replacement:
//   importance       p_i ~ L_i ||x_i|| (importance_sampling.cpp), fixed;
//                    on primal CD p_j ~ ||column j||
//   support-uniform  (16) p_i = 1/m_t on I_t = {i : kappa_i != 0}
//   adaptive         (17) p_i ~ |kappa_i| ||x_i||
//   ada-uniform      (18) sigma/m_t [kappa_i != 0] + (1 - sigma) adaptive, sigma = 1/2
//   ada-gap          Theorem 3.7, p_i = G_i / G
//   gap-per-epoch    G_i / G from the start of each epoch, fixed within it
// The primer's greedy rules (Shi et al., (18)-(20), Section 4.4.2), n picks
// per epoch, deterministic (ties: smallest index):
//   gs-s  largest |projected gradient|
//   gs-r  largest |clip(alpha_i - grad_i / Qbar_ii, 0, U_i) - alpha_i|
//   gs-q  largest decrease -(grad_i d + Qbar_ii d^2 / 2) along that step d
//         (the primer's (20) with L_j = Qbar_jj, exact for the quadratic dual)
//
// Cost per epoch (n steps), on top of the steps themselves: importance
// O(nnz + n) once, then O(1) a draw; gap-per-epoch O(nnz + n) an epoch;
// the per-step rules O(n + sum over steps of |changed rows| log n), where a
// step changes the rows that share a feature with the stepped row (see
// DualState): the paper's naive O(n nnz) becomes O(n c log n) with c the
// number of rows changed by a step, at most n.
//
// Held-out rows (C_i = 0) get weight 0. When every weight is 0 (the state is
// optimal), the per-step rules draw uniformly: every step is then a no-op.
#ifndef CDL_SELECT_DUAL_RULES_H_
#define CDL_SELECT_DUAL_RULES_H_

#include <memory>

#include "select/selection_rule.h"

namespace cdl {

std::unique_ptr<SelectionRule> make_importance_rule(const RuleContext& context);
std::unique_ptr<SelectionRule> make_support_uniform_rule(const RuleContext& context);
std::unique_ptr<SelectionRule> make_adaptive_rule(const RuleContext& context);
std::unique_ptr<SelectionRule> make_ada_uniform_rule(const RuleContext& context);
std::unique_ptr<SelectionRule> make_ada_gap_rule(const RuleContext& context);
std::unique_ptr<SelectionRule> make_gap_per_epoch_rule(const RuleContext& context);
std::unique_ptr<SelectionRule> make_gs_s_rule(const RuleContext& context);
std::unique_ptr<SelectionRule> make_gs_r_rule(const RuleContext& context);
std::unique_ptr<SelectionRule> make_gs_q_rule(const RuleContext& context);

}  // namespace cdl

#endif  // CDL_SELECT_DUAL_RULES_H_
