// The per-coordinate state of the Lasso that the adaptive and greedy
// selection rules read on primal CD (--select ada-gap, gap-per-epoch,
// adaptive, support-uniform, ada-uniform, gs-s, gs-r, gs-q with -r l1 -l sq).
//
// Problem: f(w) = ||w||_1 + sum_j C_j (y_j - w'x_j)^2 (no 1/2), with
// C_j = Problem::cost(j). Rows scaled by sqrt(C_j) make it the
// adaptive-sampling paper's (20), ||A w - y'||^2 + lambda ||w||_1, with
// lambda = 1 (Perekrestenko, Cevher & Jaggi 2017, Section 4.1), so every
// quantity below is in f's own units, as lasso_duality_gap() (evaluate.h).
//
// For each feature i, with the residual r_j = w'x_j - y_j:
//   g_i = 2 sum_j C_j x_ji r_j        D'_i(0) of the loss part (the paper's a_i'w, w = 2r)
//   h_i = 2 sum_j C_j x_ji^2          its exact second derivative (L_i of the primer)
//   gap_i = B [|g_i| - 1]_+ + |w_i| + w_i g_i                          the paper's (21)
//   B = f(w_start) = ||w_start||_1 + sum_j C_j (y_j - w_start'x_j)^2   the "Lipschitzing"
//       radius (the paper's B = (f(A alpha0) + lambda ||alpha0||_1) / lambda): CD's
//       steps never increase f, so ||w||_1 <= f(w) <= B for every iterate, and
//       restricting |w_i| <= B changes no iterate but makes g_i^* B-Lipschitz.
//   kappa_i = the distance from w_i to the subdifferential of
//       g_i^*(u) = B [|u| - 1]_+ at u = -g_i (the paper's dual residual,
//       Section 2): |w_i| when |g_i| < 1, |w_i + B sign(g_i)| when |g_i| > 1,
//       and the distance to the segment between 0 and -B sign(g_i) at |g_i| = 1.
//   d_i = S(h_i w_i - g_i, 1) / h_i - w_i    the exact coordinate minimizer's step
//       (Regularizer::prox_step; 0 for an empty column).
// Each gap_i >= 0 while |w_i| <= B (Fenchel-Young); rounding is clamped at 0.
//
// What is kept: w, the residual r (O(l)), and with track_gradients all g_i.
// A step on w_i moves r over column i, and so g_k for every feature k that
// shares a row with column i: the step walks the CSR rows of column i,
// O(sum over j in column i of nnz(row j)), and lists the features it changed
// (changed()), so that a rule re-weighs those only. Without tracking, g is
// recomputed by refresh() in O(nnz). Tracked g drifts by rounding over many
// steps; refresh() recomputes r and g exactly, and the rules call it at the
// start of every epoch.
#ifndef CDL_OBJECTIVE_LASSO_STATE_H_
#define CDL_OBJECTIVE_LASSO_STATE_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "data/problem.h"
#include "data/sparse_matrix.h"
#include "objective/regularizer.h"

namespace cdl {

// The Lasso's duality gap with the dual point rescaled into the feasible
// set, as scikit-learn's Lasso measures it (the stopping test of -r l1 -l
// sq, solver_cd_l1.cpp). With f(w) = ||w||_1 + sum_j C_j (y_j - w'x_j)^2,
// the Fenchel dual is
//   D(u) = sum_j (u_j y_j - u_j^2 / (4 C_j))  over ||X'u||_inf <= 1,
// (rows with C_j = 0 take no part), whose optimum is u_j = 2 C_j (y_j -
// w*'x_j). From w: u = 2 C_j (y_j - w'x_j) / max(1, ||X'u_raw||_inf), and
// f(w) - f* <= f(w) - D(u) = the returned gap (>= 0 up to rounding).
// Unlike lasso_duality_gap()'s (21), whose B = f(0) multiplies every
// |g_i| > 1, it needs no bound on ||w||_1 and is tight near the optimum.
// `primal` (if not null) receives f(w). O(#nz + l + n).
//
// `free`: the index of a weight left out of ||w||_1 (-R's bias weight), or
// Regularizer::kNone. Its column b adds the constraint b'u = 0 to the dual.
// The dual point is then taken at w' = w with that weight moved to its
// exact minimizer, where sum_j C_j b_j (y_j - w''x_j) = 0, so that u meets
// the constraint and the rescaling over the other columns keeps it; the
// gap returned is f(w) - D(u) = (f(w) - f(w')) + (f(w') - D(u)), still a
// bound on f(w) - f*.
double lasso_rescaled_gap(const Problem& problem, const std::vector<double>& w,
                          double* primal = nullptr, std::size_t free = Regularizer::kNone);

// The exact minimizer t >= 0 of phi(t) = f(w + t d), f the Lasso's
// objective above: phi is convex and piecewise quadratic, with
//   phi'(t) = sum_i d_i sign(w_i + t d_i) - 2 sum_j C_j (r_j - t (Xd)_j) (Xd)_j,
// r = y - Xw, which rises by 2 |d_i| where w_i + t d_i crosses 0. The
// breakpoints -w_i/d_i > 0 are walked in increasing order until phi'
// changes sign, inside a quadratic piece (its root) or at a breakpoint
// (that t: a weight lands exactly on 0). 0 when phi'(0+) >= 0 (d is no
// descent direction). The line search of the Lasso's support steps
// (solver_cd_l1.cpp). `free` as lasso_rescaled_gap's: that weight has no
// |.| term and no breakpoint. O(#nz + l + n log n).
double lasso_line_search(const Problem& problem, const std::vector<double>& w,
                         const std::vector<double>& d, std::size_t free = Regularizer::kNone);

// The most nonzero weights lasso_support_point() works with (its Gram
// matrix takes 8 k^2 bytes and k^3/3 flops to factor).
constexpr std::size_t kSupportPointMax = 500;

// The minimizer of f over the weights' current sign pattern s (the support
// S = {i : w_i != 0}): with those signs fixed, f restricted to S is the
// quadratic s'w_S + sum_j C_j (y_j - x_jS'w_S)^2, whose stationary point
// solves (X_S' C X_S) w_S = X_S' C y - s / 2; zero off S. The system is
// solved by Cholesky with a ridge of 1e-12 times its trace (duplicated or
// collinear columns make it singular; the point then runs far along their
// null space, where only the l1 part changes, and the line search stops
// where a weight reaches 0). Empty when S is empty or larger than
// kSupportPointMax. `free` as lasso_rescaled_gap's: that weight is in S
// whatever its value, with no sign term (s_i = 0).
// O(|S| #nz of S's columns + |S|^3).
std::vector<double> lasso_support_point(const Problem& problem, const std::vector<double>& w,
                                        std::size_t free = Regularizer::kNone);

class LassoState {
 public:
  // Keeps a reference to `problem` (which must outlive the state) and makes
  // its own CSR copy when track_gradients is set. w0: the starting point
  // (null: 0), of problem.num_features() entries.
  LassoState(const Problem& problem, const std::vector<double>* w0, bool track_gradients);

  std::size_t size() const { return w_.size(); }
  bool tracks_gradients() const { return track_gradients_; }
  double bound() const { return bound_; }
  double w(std::size_t i) const { return w_[i]; }
  double gradient(std::size_t i) const { return g_[i]; }
  double curvature(std::size_t i) const { return h_[i]; }
  double column_norm(std::size_t i) const;

  double gap(std::size_t i) const;
  double residue(std::size_t i) const;  // kappa_i
  // The minimum-norm subgradient of f along i (the primer's GS-s score (18)).
  double subgradient(std::size_t i) const;
  double newton_step(std::size_t i) const;  // d_i
  // The decrease of f by the step d_i, -(g_i d + h_i/2 d^2 + |w_i + d| - |w_i|)
  // (the primer's GS-q score (20) with L_i = h_i; exact for the Lasso),
  // computed as h_i/2 d^2 + |w_i| - sign(w_i + d) w_i where w_i + d != 0.
  double decrease(std::size_t i) const;

  // w_i += z: moves r and, when tracked, g. O(nnz of column i) untracked,
  // O(sum over its rows of their nnz) tracked.
  void step(std::size_t i, double z);
  // The features whose g the last step changed (tracked only; i itself is
  // listed when z != 0).
  const std::vector<std::size_t>& changed() const { return changed_; }
  // Recomputes r and every g_i from w. O(nnz + l).
  void refresh();

 private:
  const Problem& problem_;
  bool track_gradients_;
  CsrMatrix rows_;  // empty unless track_gradients
  std::vector<double> w_;
  std::vector<double> cost_;  // C_j, 0 for held-out rows
  std::vector<double> r_;     // w'x_j - y_j
  std::vector<double> g_;
  std::vector<double> h_;
  double bound_ = 0;
  std::vector<std::size_t> changed_;
  std::vector<std::uint64_t> mark_;  // per feature: the step that last listed it
  std::uint64_t steps_ = 0;
};

}  // namespace cdl

#endif  // CDL_OBJECTIVE_LASSO_STATE_H_
