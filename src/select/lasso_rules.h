// The --select rules on the Lasso (-r l1 -l sq on primal CD),
// one file each; rule_table.cpp names them in the make_lasso field of the
// rows of the same name, whose make serves the SVM dual. A coordinate is a
// feature, and the rules weigh it by the Lasso's state
// (objective/lasso_state.h), which each rule keeps itself from the solver's
// feedback (the step z taken on w_i), so the solver needs no change.
//
// Perekrestenko, Cevher & Jaggi (2017), Sections 3.4 and 4.1, each drawing n
// features per epoch with replacement (uniform and importance, p_i ~
// ||column i|| = L_i ||a_i|| with L_i = B the same for every i, are the
// generic primal rows):
//   support-uniform  (16) p_i = 1/m_t on {i : kappa_i != 0}
//   adaptive         (17) p_i ~ |kappa_i| ||column i||
//   ada-uniform      (18) 1/2 support-uniform + 1/2 adaptive
//   ada-gap          Theorem 3.7, p_i = gap_i / gap, after every step
//   gap-per-epoch    gap_i / gap from the start of each epoch, fixed within it
// with gap_i the Lasso's (21) and kappa_i its dual residual, both with the
// "Lipschitzing" bound B. The primer's greedy rules (Shi et al., (18)-(20),
// Lasso in its Section 4.1.3), n picks per epoch, deterministic (ties: the
// smallest index):
//   gs-s  largest |minimum-norm subgradient| (18)
//   gs-r  largest |d_i|, the exact coordinate step (19) with L_i = h_i
//         (the primer's GSL-r: its coordinate-wise Lipschitz constants)
//   gs-q  largest decrease of f by that step (20) with L_i = h_i, exact for
//         the Lasso's quadratic loss
//
// Cost per epoch (n steps) on top of the steps: gap-per-epoch O(nnz) (a
// refresh of the gradients) plus O(nnz of the stepped columns) to follow the
// residual; the per-step rules O(nnz) a refresh plus, a step, O(sum over the
// rows j of column i of nnz(row j)) to follow the gradients and O(log n) per
// changed feature in the sum-tree or heap. On a dense l x n matrix that is
// O(l n) a step, the paper's Theta(d nnz) per epoch (its Table 1).
#ifndef CDL_SELECT_LASSO_RULES_H_
#define CDL_SELECT_LASSO_RULES_H_

#include <memory>

#include "select/selection_rule.h"

namespace cdl {

// Each throws ConfigError unless context.lasso is set.
std::unique_ptr<SelectionRule> make_lasso_support_uniform_rule(const RuleContext& context);
std::unique_ptr<SelectionRule> make_lasso_adaptive_rule(const RuleContext& context);
std::unique_ptr<SelectionRule> make_lasso_ada_uniform_rule(const RuleContext& context);
std::unique_ptr<SelectionRule> make_lasso_ada_gap_rule(const RuleContext& context);
std::unique_ptr<SelectionRule> make_lasso_gap_per_epoch_rule(const RuleContext& context);
std::unique_ptr<SelectionRule> make_lasso_gs_s_rule(const RuleContext& context);
std::unique_ptr<SelectionRule> make_lasso_gs_r_rule(const RuleContext& context);
std::unique_ptr<SelectionRule> make_lasso_gs_q_rule(const RuleContext& context);

}  // namespace cdl

#endif  // CDL_SELECT_LASSO_RULES_H_
