// The regularized objective f(w) = r(w) + sum_j C_j loss(y_j w'x_j)
// (paper, equation 1, r(w) = 1/2 w'w), or for the L2-loss SVR
// r(w) + sum_j C_j max(0, |w'x_j - t_j| - epsilon)^2, seen as a function of
// the whole vector w, for TRON. r is a smooth Regularizer (regularizer.h).
//
// Contract: evaluate(w) computes f(w) and caches, for that w, the margins
// m_j = y_j w'x_j and the curvatures D_jj = C_j loss''(m_j). gradient() and
// hess_vec() then use the cache; calling them before evaluate() is a bug,
// checked by assert. For L2-SVM, D_jj is the generalized Hessian of
// Mangasarian (2002) and is zero for inactive instances (m_j >= 1), which
// hess_vec() skips, as Lin, Weng & Keerthi (2008) do; for the SVR it is zero
// inside the tube (|w'x_j - t_j| <= epsilon).
//
// For a line search (the Newton method of solver_newton.cpp), the objective
// also keeps the scores x_j'w of the evaluated w: begin_line(s) computes
// X s once, after which f(w + alpha s) costs O(l) for any alpha, and
// take_line_step() moves the evaluated point to w + alpha s without
// another pass over the matrix.
//
// Cost: evaluate O(#nz + n); gradient O(#nz + B n); hess_vec and hess_diag
// O(#nz of rows with D_jj != 0 + B n); begin_line O(#nz + n); line_value
// O(l); take_line_step O(l + n). The products: X s and X'u over the active
// rows of the CSR, X'u in B fixed blocks of rows (B <= 8 unless
// --partitions says more), each into an n-vector of its own, then added in
// block order (at most max(7, threads) vectors kept: by default at most 2
// bytes per nonzero). Beside them, 5 l-vectors (scores, X s, terms,
// slopes, curvatures). The Problem needs its rows alone (problem.rows) and
// must outlive the objective.
//
// Threads: with threads > 1 (and more than 65,536 nonzeros) each of these
// passes runs on a team of that many threads, kept for the objective's life.
// Each margin is computed whole by one thread; each block of X'u by one
// thread, and the blocks are added in block order; B depends on the data
// alone (the nonzeros of the rows not held out, and n), and f is summed on
// the calling thread in row order, so every result is the same bits for any
// number of threads, and with rows held out the same as on a copy without
// them.
#ifndef CDL_VECTOR_OBJECTIVE_H_
#define CDL_VECTOR_OBJECTIVE_H_

#include <memory>
#include <vector>

#include "data/problem.h"
#include "objective/loss.h"
#include "objective/regularizer.h"

namespace cdl {

class VectorObjective {
 public:
  virtual ~VectorObjective() = default;
  virtual std::size_t num_features() const = 0;
  virtual double evaluate(const std::vector<double>& w) = 0;
  // grad f at the last evaluated w.
  virtual void gradient(std::vector<double>& g) const = 0;
  // (generalized) Hessian at the last evaluated w, times s.
  virtual void hess_vec(const std::vector<double>& s, std::vector<double>& hs) const = 0;
  // ||grad f(0)||, the scale of the relative stopping rule.
  virtual double gradient_norm_at_zero() const = 0;
  // The diagonal of that Hessian at the last evaluated w: r's l2 (0 for its
  // unregularized coordinate) + sum_j D_jj x_ji^2.
  virtual void hess_diag(std::vector<double>& d) const = 0;
  // Caches X s and w's, s's products for f(w + alpha s), w the last
  // evaluated w; s must not change until take_line_step().
  virtual void begin_line(const std::vector<double>& s) = 0;
  // f(w + alpha s) from the cached X w and X s (the scores x_j'w + alpha
  // x_j's), r's part from w'w, w's and s's. Changes no cache but f's terms.
  virtual double line_value(double alpha) = 0;
  // Makes w + alpha s the evaluated point, its scores x_j'w + alpha x_j's
  // (as line_value() saw them, not recomputed from the matrix), and returns
  // its f; gradient(), hess_vec() and hess_diag() then hold for it.
  virtual double take_line_step(double alpha, const std::vector<double>& s) = 0;
};

// For l2svm, lr and svr2 (problem.y the targets, svr_epsilon its tube
// width), its passes on `threads` threads, X'u added in `blocks` fixed
// blocks of rows (--partitions; 0: as many as the data's size gives,
// transpose_blocks.h); throws ConfigError for others.
std::unique_ptr<VectorObjective> make_vector_objective(
    LossKind loss, const Problem& problem, const Regularizer& regularizer = Regularizer::l2_only(),
    unsigned threads = 1, double svr_epsilon = SvrL2Loss{}.epsilon, std::size_t blocks = 0);

}  // namespace cdl

#endif  // CDL_VECTOR_OBJECTIVE_H_
