// The state of dual coordinate descent for the L2-regularized SVM, and the
// per-coordinate quantities that adaptive and greedy selection rules read.
//
// Problem (Hsieh et al. 2008, eq. 4; the primer's (40); Perekrestenko et al.
// 2017, Section 4.2, in LIBLINEAR's C parameterization C = 1/(lambda n)):
//
//   min_alpha D(alpha) = 1/2 alpha' Qbar alpha - e' alpha,  0 <= alpha_i <= U_i,
//   Qbar = Q + D,  Q_ij = y_i y_j x_i'x_j,
//   l1svm: U_i = C_i, D_ii = 0;   l2svm: U_i = inf, D_ii = 1/(2 C_i),
//
// with C_i = Problem::cost(i). Rows with C_i = 0 (held-out CV rows) are not
// coordinates of the problem: they keep alpha_i = 0, are never stepped, and
// every per-coordinate quantity of theirs is 0. The primal is
// P(w) = 1/2 w'w + sum_i C_i loss(m_i), m_i = y_i w'x_i, and at
// w = sum_i y_i alpha_i x_i the gap P(w) + D(alpha) (D is the negated
// maximization dual) splits into per-coordinate gaps (the paper's (4)):
//
//   l1svm: G_i = C_i [1 - m_i]_+   - alpha_i (1 - m_i)
//   l2svm: G_i = C_i [1 - m_i]_+^2 - alpha_i (1 - m_i) + alpha_i^2 / (4 C_i)
//
// (use w'w = sum_i alpha_i m_i). Each G_i >= 0 (Fenchel-Young).
//
// What is kept: alpha, w (O(d)), and, with track_margins, the margins m_j of
// all rows. A step on alpha_i changes w at the features of row i, and so m_j
// only for rows j that share a feature with row i: the step walks the CSC
// columns of those features, O(sum over k in row i of nnz(column k)), and
// lists the rows it changed (changed_rows()), so that a rule updates the
// weights of those rows only. Without tracking, margin(i) costs O(nnz of
// row i). Costs are counted in nnz_ops() (nonzeros touched by steps and
// margin updates), the cost axis of the experiments.
//
// Tracked margins drift by rounding over many steps; refresh_margins()
// recomputes them exactly in O(nnz), and the adaptive loop calls it once per
// epoch.
#ifndef CDL_OBJECTIVE_DUAL_STATE_H_
#define CDL_OBJECTIVE_DUAL_STATE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "data/problem.h"
#include "data/sparse_matrix.h"
#include "objective/loss.h"

namespace cdl {

class DualState {
 public:
  // loss: kL1Svm or kL2Svm (else ConfigError). Keeps a reference to
  // `problem`, which must outlive the state; uses problem.rows if given and
  // makes its own CSR copy otherwise.
  DualState(const Problem& problem, LossKind loss, bool track_margins);

  std::size_t size() const { return alpha_.size(); }
  LossKind loss() const { return loss_; }
  const Problem& problem() const { return problem_; }
  const CsrMatrix& rows() const { return *rows_; }
  bool tracks_margins() const { return track_margins_; }

  // Whether row i is a coordinate (C_i > 0).
  bool counts(std::size_t i) const { return cost_[i] > 0; }
  double alpha(std::size_t i) const { return alpha_[i]; }
  const std::vector<double>& alphas() const { return alpha_; }
  double upper(std::size_t i) const { return upper_[i]; }        // U_i
  double diag(std::size_t i) const { return diag_[i]; }          // D_ii
  double qbar(std::size_t i) const { return qbar_[i]; }          // Qbar_ii = ||x_i||^2 + D_ii
  double row_norm(std::size_t i) const { return row_norm_[i]; }  // ||x_i||
  const std::vector<double>& w() const { return w_; }

  // m_i = y_i w'x_i: the tracked value, or O(nnz of row i).
  double margin(std::size_t i) const;
  // grad_i D = m_i - 1 + D_ii alpha_i.
  double gradient(std::size_t i) const;
  // The projected gradient: grad_i, but min(grad_i, 0) at alpha_i = 0 and
  // max(grad_i, 0) at alpha_i = U_i (0 for rows that do not count).
  double projected_gradient(std::size_t i) const;
  // The exact coordinate minimizer clip(alpha_i - grad_i / Qbar_ii, 0, U_i)
  // (for Qbar_ii = 0, an empty l1svm row: U_i if grad_i < 0).
  double newton_target(std::size_t i) const;
  // G_i above, clamped at 0 against rounding.
  double gap(std::size_t i) const;
  // G_i at margin m in place of m_i (for gaps from freshly computed margins).
  double gap_at(std::size_t i, double m) const;
  // The dual residue kappa_i (Definition 2.3), see dual_state.cpp.
  double residue(std::size_t i) const;
  // L_i of importance sampling (Lemma 2.7), see dual_state.cpp.
  double lipschitz(std::size_t i) const;

  // The exact clipped Newton step on alpha_i (no-op for a row that does not
  // count); returns the change of alpha_i. Updates w, and the margins if
  // tracked. O(nnz of row i) plus, when tracking, the columns' nonzeros.
  double step(std::size_t i);
  // Rows whose alpha or margin the last step changed (the stepped row first;
  // empty after a zero step); valid until the next step.
  const std::vector<std::size_t>& changed_rows() const { return changed_; }

  std::int64_t nnz_ops() const { return nnz_ops_; }
  // For rules that do their own O(nnz) work (gap-per-epoch); const because
  // it is cost accounting, not state.
  void add_nnz_ops(std::int64_t count) const { nnz_ops_ += count; }

  // Recomputes the tracked margins from w. O(nnz).
  void refresh_margins();
  // All margins from w, tracked or not. O(nnz).
  std::vector<double> compute_margins() const;

  // D(alpha) = 1/2 w'w + 1/2 sum_i D_ii alpha_i^2 - sum_i alpha_i. O(n + d).
  double dual_objective() const;
  // P(w) with evaluate.h's formula. O(nnz).
  double primal_objective() const;
  // sum_i G_i from fresh margins. O(nnz).
  double total_gap() const;

 private:
  const Problem& problem_;
  LossKind loss_;
  bool track_margins_;
  std::unique_ptr<CsrMatrix> own_rows_;
  const CsrMatrix* rows_;
  std::vector<double> cost_, upper_, diag_, qbar_, row_norm_;
  std::vector<double> alpha_, w_, margin_;
  std::vector<std::size_t> changed_;
  std::vector<std::uint64_t> stamp_;  // step number that last listed a row
  std::uint64_t steps_ = 0;
  mutable std::int64_t nnz_ops_ = 0;
};

}  // namespace cdl

#endif  // CDL_OBJECTIVE_DUAL_STATE_H_
