// An exact finish for the solvers of the SVM with an unregularized intercept
// (pdcd, rcd-pair): from their iterate, solve the dual (intercept_gap.h)
//   min 1/2 ||sum_j alpha_j y_j x_j||^2 - e'alpha,  0 <= alpha_j <= C_j,
//   y'alpha = 0
// over a small working set S of rows, the others held at their values.
//
// Why: both solvers find w to a relative gap of 1e-3 long before the
// intercept w0 settles (intercept_epoch.h): P is flat along w0, and w0, the
// weighted median of y_j - w'x_j, moves with every score until the support
// vectors with 0 < alpha_j < C_j are found exactly. Their number is small
// (13 in pdcd's late iterates on heart_scale's 270 rows, about 400 on a9a's
// 32,561), so once the
// iterate has roughly found them the rest of the problem is a small dense QP
// that a pairwise method with greedy pairs solves to LIBSVM's tolerance in
// milliseconds, where the random steps of pdcd and rcd-pair need thousands of
// epochs.
//
// The method: alpha is first projected onto the feasible set
// (project_to_dual_feasible). Each round takes w, the scores and the exact w0
// for that w (best_intercept), and builds S: the rows with 0 < alpha_j < C_j
// and the rows on the wrong side of the margin (alpha_j = 0 with margin
// y_j (w'x_j + w0) < 1, alpha_j = C_j with margin > 1), the farthest from it
// first, then the rows at a bound within kPolishBand of the margin, the
// nearest first; at most kPolishRows in all, and fewer if building K would
// take more than kPolishKernelWork multiply-adds. On S, with g_j = w'x_j - y_j
// and the kernel K_ij = x_i'x_j stored densely, each step moves a pair
//   alpha_i += y_i t, alpha_j -= y_j t   (y'alpha unchanged, w += t (x_i - x_j))
// chosen as Fan, Chen & Lin (2005, JMLR 6, "Working set selection using
// second order information", WSS 2 in our signs): i minimizes g over the
// rows that can move up, j maximizes (g_j - g_i)^2 / ||x_i - x_j||^2 over
// the rows that can move down with g_j > g_i, and t = (g_j - g_i) / ||x_i -
// x_j||^2 clipped to the boxes; then g_k += t (K_ki - K_kj) on S. The steps
// stop when max g (down) - min g (up) <= kPolishTol on S (Keerthi et al.'s
// maximal violating pair, LIBSVM's test), or after 20 |S| + 1000 steps. The
// rounds stop when that violation over all rows is at most kPolishTol, or
// after kPolishRounds. Nothing here is certified: the caller post-processes
// the result (post_process) and trusts it only for a small violation and
// duality gap.
//
// Cost per round: O(#nz + l log l) for the scores, w0 and S, O(|S|^2) row
// products for K, O(|S|) per pair step.
#ifndef CDL_SOLVERS_INTERCEPT_POLISH_H_
#define CDL_SOLVERS_INTERCEPT_POLISH_H_

#include <cstddef>
#include <vector>

#include "data/problem.h"

namespace cdl {

// The margin distance from 1 within which a row at a bound joins S.
constexpr double kPolishBand = 0.1;
// The most rows S holds (K takes 8 |S|^2 bytes: 32 MB).
constexpr std::size_t kPolishRows = 2000;
// The most multiply-adds K may take, |S| times the nonzeros of S's rows
// (a9a: 6e7, rcv1_small: 7e7): on dense rows S is cut shorter.
constexpr double kPolishKernelWork = 2e8;
// The largest KKT violation on S that ends the pair steps.
constexpr double kPolishTol = 1e-5;
// The most rounds (S rebuilt, then solved).
constexpr int kPolishRounds = 20;

// max g_j over the rows that can move down - min g_j over those that can move
// up (0 if either is empty), g_j = scores_j - y_j: the KKT violation of a
// feasible alpha, which is 0 exactly at an optimum. O(l).
double kkt_violation(const Problem& problem, const std::vector<double>& alpha,
                     const std::vector<double>& scores);

struct PolishedDual {
  std::vector<double> alpha;  // size l, feasible
  double violation;           // kkt_violation() of alpha, over all rows
};

// The polished alpha from any alpha of size l (the projected alpha
// unchanged if S would be empty or `problem` lacks its rows). It stops once
// the violation over all rows is at most kPolishTol, or after
// kPolishRounds rounds. Deterministic.
PolishedDual polish_intercept_dual(const Problem& problem, std::vector<double> alpha);

}  // namespace cdl

#endif  // CDL_SOLVERS_INTERCEPT_POLISH_H_
