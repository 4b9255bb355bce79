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
// (13 of heart_scale's 270 rows, about 400 of a9a's 32,561), so once the
// iterate has roughly found them the rest of the problem is a small dense QP
// that a pairwise method with greedy pairs solves to 1e-9 in milliseconds,
// where the random steps of pdcd and rcd-pair need thousands of epochs.
//
// The method: alpha is first projected onto the feasible set
// (project_to_dual_feasible) and w0 taken at its exact value for that w
// (best_intercept). S is the rows with 0 < alpha_j < C_j and the rows at a
// bound whose margin y_j (w'x_j + w0) is within kPolishBand of 1, nearest
// first, at most kPolishRows of them. On S, with g_j = w'x_j - y_j and the
// kernel K_ij = x_i'x_j stored densely, each step moves a pair
//   alpha_i += y_i t, alpha_j -= y_j t   (y'alpha unchanged, w += t (x_i - x_j))
// chosen as Fan, Chen & Lin (2005, JMLR 6, "Working set selection using
// second order information", WSS 2 in our signs): i minimizes g over the
// rows that can move up, j maximizes (g_j - g_i)^2 / ||x_i - x_j||^2 over
// the rows that can move down with g_j > g_i, and t = (g_j - g_i) / ||x_i -
// x_j||^2 clipped to the boxes; then g_k += t (K_ki - K_kj) on S. It stops
// when max g (down) - min g (up) <= kPolishTol, the KKT conditions on S
// (Keerthi et al.'s maximal violating pair). The rows outside S that the new
// w and w0 put on the wrong side of the margin (alpha_j = 0 with margin < 1,
// alpha_j = C_j with margin > 1) then join S and the loop repeats, at most
// kPolishRounds times. Nothing here is certified: the caller post-processes
// the result (post_process) and trusts it only for a small duality gap.
//
// Cost: O(#nz + l log l) for the scores and the set, O(|S|^2) row products
// for K, O(|S|) per pair step, O(#nz) per round for the violators.
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
// The largest KKT violation on S that ends the pair steps.
constexpr double kPolishTol = 1e-5;
// The rounds of "solve on S, add the violators".
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
