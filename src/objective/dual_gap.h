// The primal and dual objectives of the L2-regularized SVMs and their
// duality gap, computed from scratch for a dual point alpha (one variable
// per instance) and its w = sum_j y_j alpha_j x_j.
//
// Primal (Hsieh, Chang, Lin, Keerthi & Sundararajan, ICML 2008, (1)):
//   P(w) = 1/2 w'w + sum_j C_j loss(m_j),  m_j = y_j w'x_j,
// with loss(m) = max(0, 1 - m) (L1-SVM) or max(0, 1 - m)^2 (L2-SVM).
// Dual (the paper's (4); the primer of Shi, Tu, Xu & Yin, (40)):
//   D(alpha) = sum_j alpha_j - 1/2 w'w - 1/2 sum_j D_jj alpha_j^2,
//   0 <= alpha_j <= U_j, with U_j = C_j, D_jj = 0 (L1-SVM) or U_j = inf,
//   D_jj = 1/(2 C_j) (L2-SVM), so the last term is sum_j alpha_j^2 / (4 C_j).
// Per-coordinate gaps, the Fenchel-Young gap of each instance (Perekrestenko,
// Cevher & Jaggi 2017, (4), in the C parameterization C = 1/(lambda n)):
//   L1-SVM  G_j = C_j max(0, 1 - m_j) - alpha_j (1 - m_j)
//   L2-SVM  G_j = C_j max(0, 1 - m_j)^2 - alpha_j (1 - m_j) + alpha_j^2 / (4 C_j)
// Each G_j >= 0 for a feasible alpha_j, and sum_j G_j = P(w) - D(alpha)
// because sum_j alpha_j m_j = w'w. A row with C_j = 0 (held out by
// cross-validation) must have alpha_j = 0 and contributes nothing.
//
// Preconditions: alpha.size() == problem.num_rows(), alpha is feasible and w
// is sum_j y_j alpha_j x_j (the dual solver keeps it so); only the
// classification losses l1svm and l2svm have a dual here (Error otherwise).
#ifndef CDL_OBJECTIVE_DUAL_GAP_H_
#define CDL_OBJECTIVE_DUAL_GAP_H_

#include <vector>

#include "data/problem.h"
#include "objective/loss.h"

namespace cdl {

// Whether `loss` has a dual in this module (l1svm, l2svm).
bool has_svm_dual(LossKind loss);

// G_j for one instance of cost C (> 0), dual variable alpha and margin m.
// O(1).
double coordinate_gap(LossKind loss, double C, double alpha, double margin);

// G_j of every instance, given the margins m_j = y_j w'x_j. O(l).
std::vector<double> coordinate_gaps(const Problem& problem, LossKind loss,
                                    const std::vector<double>& alpha,
                                    const std::vector<double>& margin);

// D(alpha), given w = sum_j y_j alpha_j x_j. O(l + n).
double dual_objective(const Problem& problem, LossKind loss, const std::vector<double>& alpha,
                      const std::vector<double>& w);

struct DualGap {
  double primal;  // P(w), the same formula as evaluate.h's f
  double dual;    // D(alpha)
  double gap;     // sum_j G_j, which equals P(w) - D(alpha) up to rounding
};

// All three from scratch. O(#nz + l + n); the margins on `threads` threads
// (evaluate.h's margins(), the same bits on any number).
DualGap duality_gap(const Problem& problem, LossKind loss, const std::vector<double>& alpha,
                    const std::vector<double>& w, unsigned threads = 1);

}  // namespace cdl

#endif  // CDL_OBJECTIVE_DUAL_GAP_H_
