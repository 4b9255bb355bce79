#include "objective/dual_state.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "objective/evaluate.h"
#include "objective/regularizer.h"
#include "util/error.h"

namespace cdl {
namespace {

constexpr double kFlatMargin = 1e-12;  // see residue()

}  // namespace

DualState::DualState(const Problem& problem, LossKind loss, bool track_margins)
    : problem_(problem), loss_(loss), track_margins_(track_margins) {
  if (loss != LossKind::kL1Svm && loss != LossKind::kL2Svm) {
    throw ConfigError("dual coordinate descent trains l1svm and l2svm only");
  }
  if (problem.rows != nullptr) {
    rows_ = problem.rows;
  } else {
    own_rows_ = std::make_unique<CsrMatrix>(to_csr(problem.x()));
    rows_ = own_rows_.get();
  }
  const std::size_t n = problem.num_rows();
  cost_.resize(n);
  upper_.resize(n);
  diag_.resize(n);
  qbar_.resize(n);
  row_norm_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double c = problem.cost(i);
    const double sq = row_squared_norm(*rows_, i);
    cost_[i] = c;
    row_norm_[i] = std::sqrt(sq);
    if (c <= 0) {
      upper_[i] = diag_[i] = 0;
    } else if (loss == LossKind::kL1Svm) {
      upper_[i] = c;
      diag_[i] = 0;
    } else {
      upper_[i] = std::numeric_limits<double>::infinity();
      diag_[i] = 0.5 / c;
    }
    qbar_[i] = sq + diag_[i];
  }
  alpha_.assign(n, 0.0);
  w_.assign(problem.num_features(), 0.0);
  if (track_margins_) margin_.assign(n, 0.0);
  stamp_.assign(n, 0);
}

double DualState::margin(std::size_t i) const {
  if (track_margins_) return margin_[i];
  return problem_.y[i] * row_dot(*rows_, i, w_);
}

double DualState::gradient(std::size_t i) const {
  if (!counts(i)) return 0;
  return margin(i) - 1.0 + diag_[i] * alpha_[i];
}

double DualState::projected_gradient(std::size_t i) const {
  const double g = gradient(i);
  if (alpha_[i] <= 0) return std::min(g, 0.0);
  if (alpha_[i] >= upper_[i]) return std::max(g, 0.0);
  return g;
}

double DualState::newton_target(std::size_t i) const {
  if (!counts(i)) return 0;
  const double g = gradient(i);
  if (qbar_[i] <= 0) return g < 0 ? upper_[i] : (g > 0 ? 0.0 : alpha_[i]);
  return std::clamp(alpha_[i] - g / qbar_[i], 0.0, upper_[i]);
}

double DualState::gap_at(std::size_t i, double m) const {
  if (!counts(i)) return 0;
  const double c = cost_[i];
  const double a = alpha_[i];
  const double hinge = positive_part(1.0 - m);
  const double g = loss_ == LossKind::kL1Svm ? c * hinge - a * (1.0 - m)
                                             : c * hinge * hinge - a * (1.0 - m) + a * a / (4 * c);
  return std::max(g, 0.0);
}

double DualState::gap(std::size_t i) const { return gap_at(i, margin(i)); }

// kappa_i = min |u - alpha_i| over u in dg_i*(-a_i'w) (Definition 2.3). By
// Fenchel-Young, u is in that subdifferential exactly when the coordinate gap
// G_i(u), with w (so m_i) held fixed, is 0: the set is the alphas that are
// optimal for row i given m_i, and kappa_i is alpha_i's distance to it.
//   l1svm: G_i(u) = C_i [1 - m]_+ - u (1 - m) on [0, C_i] is 0 at u = C_i
//          if m < 1, at u = 0 if m > 1, and on all of [0, C_i] if m = 1, so
//          kappa_i = C_i - alpha_i, alpha_i, or 0 (the paper's Section 4.2
//          with beta_i = alpha_i / C_i, times C_i).
//   l2svm: G_i(u) = C_i [1 - m]_+^2 - u (1 - m) + u^2 / (4 C_i) on u >= 0 is
//          a square, (u - 2 C_i (1 - m))^2 / (4 C_i), for m < 1, and has its
//          only zero at u = 0 for m >= 1: the set is {2 C_i [1 - m]_+}, and
//          kappa_i = |alpha_i - 2 C_i [1 - m_i]_+|.
//
// The l1svm residue jumps at m = 1, and an exact step to a free alpha_i puts
// m_i at 1 only up to rounding: without a tolerance, the coordinate just made
// optimal would keep a residue of C_i - alpha_i or alpha_i and stay the most
// likely draw of the adaptive rules. So |1 - m_i| <= kFlatMargin counts as
// m_i = 1 (what exact arithmetic gives right after the step).
double DualState::residue(std::size_t i) const {
  if (!counts(i)) return 0;
  const double m = margin(i);
  const double a = alpha_[i];
  if (loss_ == LossKind::kL1Svm) {
    if (std::fabs(1.0 - m) <= kFlatMargin) return 0;
    return m < 1 ? upper_[i] - a : a;
  }
  return std::fabs(a - 2 * cost_[i] * positive_part(1.0 - m));
}

// Lemma 2.7: with g_i* L_i-Lipschitz, g_i has L_i-bounded support, |alpha_i|
// <= L_i. For the hinge loss that bound is the box, L_i = C_i (the paper's
// L_i = 1 in its beta_i = alpha_i / C_i scaling). The l2svm dual's g_i is
// strongly convex, not of bounded support; we use the same scale C_i, so that
// with one C for all rows importance is p_i proportional to ||x_i|| (the
// issue's rule) for both losses.
double DualState::lipschitz(std::size_t i) const { return cost_[i]; }

double DualState::step(std::size_t i) {
  changed_.clear();
  if (!counts(i)) return 0;
  ++steps_;
  const auto begin = static_cast<std::size_t>(rows_->row_ptr[i]);
  const auto end = static_cast<std::size_t>(rows_->row_ptr[i + 1]);
  if (!track_margins_) nnz_ops_ += static_cast<std::int64_t>(end - begin);  // the margin
  const double target = newton_target(i);
  const double delta = target - alpha_[i];
  if (delta == 0) return 0;
  alpha_[i] = target;
  changed_.push_back(i);
  stamp_[i] = steps_;
  const double yi_delta = problem_.y[i] * delta;
  const CscMatrix& x = problem_.x();
  nnz_ops_ += static_cast<std::int64_t>(end - begin);
  for (std::size_t k = begin; k < end; ++k) {
    const std::size_t feature = rows_->col_idx[k];
    const double dw = yi_delta * rows_->values[k];
    w_[feature] += dw;
    if (!track_margins_) continue;
    const auto cb = static_cast<std::size_t>(x.col_ptr[feature]);
    const auto ce = static_cast<std::size_t>(x.col_ptr[feature + 1]);
    nnz_ops_ += static_cast<std::int64_t>(ce - cb);
    for (std::size_t t = cb; t < ce; ++t) {
      const std::size_t j = x.row_idx[t];
      margin_[j] += problem_.y[j] * dw * x.values[t];
      if (stamp_[j] != steps_) {
        stamp_[j] = steps_;
        changed_.push_back(j);
      }
    }
  }
  return delta;
}

std::vector<double> DualState::compute_margins() const { return margins(problem_, w_); }

void DualState::refresh_margins() {
  if (track_margins_) margin_ = compute_margins();
}

double DualState::dual_objective() const {
  double ww = 0;
  for (double v : w_) ww += v * v;
  double value = 0.5 * ww;
  for (std::size_t i = 0; i < alpha_.size(); ++i) {
    value += 0.5 * diag_[i] * alpha_[i] * alpha_[i] - alpha_[i];
  }
  return value;
}

double DualState::primal_objective() const {
  return objective_value(problem_, loss_, Regularizer::l2_only(), w_, compute_margins());
}

double DualState::total_gap() const {
  const std::vector<double> m = compute_margins();
  double sum = 0;
  for (std::size_t i = 0; i < alpha_.size(); ++i) sum += gap_at(i, m[i]);
  return sum;
}

}  // namespace cdl
