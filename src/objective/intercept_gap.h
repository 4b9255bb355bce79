// The L1-loss SVM with an unregularized intercept w0, its dual, and the
// post-processed duality gap of Fercoq & Bianchi (2015), Section 4.2 and the
// caption of Figure 2, in cdtrain's scaling (LIBSVM's C-SVC with a linear
// kernel):
//
//   P(w, w0) = 1/2 w'w + sum_j C_j max(0, 1 - y_j (w'x_j + w0))
//   D(alpha) = e'alpha - 1/2 ||sum_j alpha_j y_j x_j||^2,
//              0 <= alpha_j <= C_j,  y'alpha = 0.
//
// The paper writes the same pair with lambda and C'_j = lambda C_j, and its
// dual variable x = lambda alpha; its P and D are lambda times these, so
// gaps compare after multiplying ours by lambda (docs/solvers.md, pdcd).
//
// Post-processing turns any alpha (a solver's iterate, feasible or not) into
// a feasible dual point and a primal point, so that P - D >= 0 bounds the
// suboptimality of both:
//   1. alpha^ = clip(alpha - theta y, 0, C), theta the root of the
//      nonincreasing piecewise-linear y'alpha^(theta): the Euclidean
//      projection onto {box, y'alpha = 0} (its KKT conditions give this
//      form), found exactly among the breakpoints;
//   2. w = sum_j alpha^_j y_j x_j (the paper's w = A D(b) x / lambda);
//   3. w0 = argmin_w0 P(w, w0), a weighted median: the breakpoints
//      y_j - w'x_j weighted by C_j (midpoint of a flat stretch).
// Rows with C_j = 0 (cross-validation's held-out rows) take no part.
//
// Cost: O(#nz + l log l) per post-processing, from the CSC.
#ifndef CDL_OBJECTIVE_INTERCEPT_GAP_H_
#define CDL_OBJECTIVE_INTERCEPT_GAP_H_

#include <vector>

#include "data/problem.h"

namespace cdl {

// Projects alpha (size l) onto {0 <= alpha_j <= C_j, y'alpha = 0} in place;
// returns theta. Exact up to rounding: |y'alpha| afterwards is a few ulps of
// sum_j C_j.
double project_to_dual_feasible(const Problem& problem, std::vector<double>& alpha);

// w = sum_j alpha_j y_j x_j (size n). O(#nz).
std::vector<double> weights_of(const Problem& problem, const std::vector<double>& alpha);

// The w0 minimizing sum_j C_j max(0, 1 - y_j (score_j + w0)) for the scores
// w'x_j. O(l log l).
double best_intercept(const Problem& problem, const std::vector<double>& scores);

// P(w, w0) for `w_and_intercept` = (w, w0), size n + 1. O(#nz + l).
double intercept_primal(const Problem& problem, const std::vector<double>& w_and_intercept);
// D(alpha), whether or not alpha is feasible. O(#nz + l).
double intercept_dual(const Problem& problem, const std::vector<double>& alpha);

// ||g|| of the subgradient g of P at (w, w0) that takes loss'(m) = -1 for
// m < 1 and 0 otherwise (evaluate.h's convention for l1svm), over all n + 1
// coordinates. O(#nz + l).
double intercept_subgradient_norm(const Problem& problem,
                                  const std::vector<double>& w_and_intercept);

struct InterceptGap {
  std::vector<double> w;  // n + 1: w of the projected alpha, then its best w0
  double primal = 0;      // P(w, w0)
  double dual = 0;        // D(projected alpha)
  double gap = 0;         // primal - dual, >= 0 up to rounding
};

// Steps 1-3 above on a copy of alpha.
InterceptGap post_process(const Problem& problem, std::vector<double> alpha);

}  // namespace cdl

#endif  // CDL_OBJECTIVE_INTERCEPT_GAP_H_
