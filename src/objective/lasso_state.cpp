#include "objective/lasso_state.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "objective/regularizer.h"
#include "util/error.h"

namespace cdl {

double lasso_rescaled_gap(const Problem& problem, const std::vector<double>& w, double* primal,
                          std::size_t free) {
  const CscMatrix& x = problem.x();
  // The residuals r_j = y_j - w'x_j, from the scores.
  std::vector<double> r(problem.num_rows(), 0.0);
  for (std::size_t i = 0; i < x.num_cols && i < w.size(); ++i) {
    if (w[i] == 0) continue;
    for (auto k = x.col_ptr[i]; k < x.col_ptr[i + 1]; ++k) {
      const auto t = static_cast<std::size_t>(k);
      r[x.row_idx[t]] += w[i] * x.values[t];
    }
  }
  for (std::size_t j = 0; j < r.size(); ++j) r[j] = problem.y[j] - r[j];
  // The free weight moved by `shift` to its minimizer (the header): r then
  // has sum_j C_j b_j r_j = 0, and f(w) - f(w') = shift^2 sum_j C_j b_j^2
  // exactly (the cross term is that sum).
  double moved_loss = 0;
  if (free < x.num_cols && free < w.size()) {
    double along = 0;
    double curvature = 0;
    for (auto k = x.col_ptr[free]; k < x.col_ptr[free + 1]; ++k) {
      const auto t = static_cast<std::size_t>(k);
      const double cb = problem.cost(x.row_idx[t]) * x.values[t];
      along += cb * r[x.row_idx[t]];
      curvature += cb * x.values[t];
    }
    if (curvature > 0) {
      const double shift = along / curvature;
      for (auto k = x.col_ptr[free]; k < x.col_ptr[free + 1]; ++k) {
        const auto t = static_cast<std::size_t>(k);
        r[x.row_idx[t]] -= shift * x.values[t];
      }
      moved_loss = shift * shift * curvature;
    }
  }
  double loss = 0;
  for (std::size_t j = 0; j < r.size(); ++j) loss += problem.cost(j) * r[j] * r[j];
  // g_i = 2 sum_j C_j x_ji (w'x_j - y_j) = -(X'u_raw)_i, and s = max(1, max |g_i|)
  // over the regularized weights (the free one's g is 0).
  std::vector<double> g(x.num_cols, 0.0);
  double scale = 1.0;
  for (std::size_t i = 0; i < x.num_cols; ++i) {
    if (i == free) continue;
    double sum = 0;
    for (auto k = x.col_ptr[i]; k < x.col_ptr[i + 1]; ++k) {
      const auto t = static_cast<std::size_t>(k);
      const std::size_t j = x.row_idx[t];
      sum -= 2.0 * problem.cost(j) * r[j] * x.values[t];
    }
    g[i] = sum;
    scale = std::max(scale, std::fabs(sum));
  }
  // f - D(u) with u = u_raw / s, written without its cancellation: with
  // y = r + Xw it is sum_i (|w_i| + w_i g_i / s) + (1 - 1/s)^2 sum_j C_j r_j^2,
  // a sum of terms >= 0 (|g_i| / s <= 1); the free weight's term is
  // w_i g_i / s = 0. Then f(w) - f(w') on top.
  double gap = (1.0 - 1.0 / scale) * (1.0 - 1.0 / scale) * loss + moved_loss;
  double norm1 = 0;
  for (std::size_t i = 0; i < x.num_cols && i < w.size(); ++i) {
    if (i == free) continue;
    norm1 += std::fabs(w[i]);
    gap += std::max(std::fabs(w[i]) + w[i] * g[i] / scale, 0.0);
  }
  if (primal != nullptr) *primal = norm1 + loss + moved_loss;
  return gap;
}

double lasso_line_search(const Problem& problem, const std::vector<double>& w,
                         const std::vector<double>& d, std::size_t free) {
  const CscMatrix& x = problem.x();
  // Xw and Xd over the columns.
  std::vector<double> xw(problem.num_rows(), 0.0);
  std::vector<double> xd(problem.num_rows(), 0.0);
  for (std::size_t i = 0; i < x.num_cols && i < w.size(); ++i) {
    if (w[i] == 0 && d[i] == 0) continue;
    for (auto k = x.col_ptr[i]; k < x.col_ptr[i + 1]; ++k) {
      const auto t = static_cast<std::size_t>(k);
      xw[x.row_idx[t]] += w[i] * x.values[t];
      xd[x.row_idx[t]] += d[i] * x.values[t];
    }
  }
  // phi'(t) = slope + curvature t on a piece.
  double curvature = 0;
  double slope = 0;
  for (std::size_t j = 0; j < xw.size(); ++j) {
    const double c = problem.cost(j);
    curvature += 2.0 * c * xd[j] * xd[j];
    slope -= 2.0 * c * (problem.y[j] - xw[j]) * xd[j];
  }
  // (breakpoint, 2 |d_i|) for the weights that d moves through 0 at t > 0.
  std::vector<std::pair<double, double>> breaks;
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (d[i] == 0 || i == free) continue;
    // The sign of w_i + t d_i just after t = 0.
    const double sign = w[i] != 0 ? (w[i] > 0 ? 1.0 : -1.0) : (d[i] > 0 ? 1.0 : -1.0);
    slope += d[i] * sign;
    if (w[i] != 0 && (w[i] > 0) != (d[i] > 0))
      breaks.emplace_back(-w[i] / d[i], 2.0 * std::fabs(d[i]));
  }
  if (slope >= 0) return 0.0;
  std::sort(breaks.begin(), breaks.end());
  double start = 0;
  for (const auto& [at, jump] : breaks) {
    // phi' < 0 at start; the root of this piece, if before the breakpoint.
    if (curvature > 0 && -slope / curvature <= at - start) return start - slope / curvature;
    slope += curvature * (at - start);
    start = at;
    slope += jump;
    if (slope >= 0) return at;
  }
  // The last piece: phi' rises with the curvature (none: phi is unbounded
  // below along d, which a Lasso with C > 0 and this d cannot be unless
  // Xd = 0 and the l1 part falls; stay).
  return curvature > 0 ? start - slope / curvature : start;
}

std::vector<double> lasso_support_point(const Problem& problem, const std::vector<double>& w,
                                        std::size_t free) {
  const CscMatrix& x = problem.x();
  std::vector<std::size_t> support;
  for (std::size_t i = 0; i < w.size() && i < x.num_cols; ++i) {
    if (w[i] != 0 || i == free) support.push_back(i);
  }
  const std::size_t k = support.size();
  if (k == 0 || k > kSupportPointMax) return {};
  // Column a of X_S scattered as a dense l-vector scaled by C_j, dotted
  // with the columns b >= a.
  std::vector<double> gram(k * k, 0.0);
  std::vector<double> rhs(k, 0.0);
  std::vector<double> dense(problem.num_rows(), 0.0);
  for (std::size_t a = 0; a < k; ++a) {
    const std::size_t i = support[a];
    for (auto p = x.col_ptr[i]; p < x.col_ptr[i + 1]; ++p) {
      const auto t = static_cast<std::size_t>(p);
      dense[x.row_idx[t]] = problem.cost(x.row_idx[t]) * x.values[t];
    }
    for (auto p = x.col_ptr[i]; p < x.col_ptr[i + 1]; ++p) {
      const auto t = static_cast<std::size_t>(p);
      rhs[a] += dense[x.row_idx[t]] * problem.y[x.row_idx[t]];
    }
    if (i != free) rhs[a] -= (w[i] > 0 ? 0.5 : -0.5);
    for (std::size_t b = a; b < k; ++b) {
      double sum = 0;
      const std::size_t m = support[b];
      for (auto p = x.col_ptr[m]; p < x.col_ptr[m + 1]; ++p) {
        const auto t = static_cast<std::size_t>(p);
        sum += dense[x.row_idx[t]] * x.values[t];
      }
      gram[a * k + b] = gram[b * k + a] = sum;
    }
    for (auto p = x.col_ptr[i]; p < x.col_ptr[i + 1]; ++p) {
      dense[x.row_idx[static_cast<std::size_t>(p)]] = 0;
    }
  }
  double trace = 0;
  for (std::size_t a = 0; a < k; ++a) trace += gram[a * k + a];
  if (!(trace > 0)) return {};
  for (std::size_t a = 0; a < k; ++a) gram[a * k + a] += 1e-12 * trace;
  // Cholesky, lower triangle in place, then the two triangular solves.
  for (std::size_t j = 0; j < k; ++j) {
    double pivot = gram[j * k + j];
    for (std::size_t p = 0; p < j; ++p) pivot -= gram[j * k + p] * gram[j * k + p];
    if (!(pivot > 0)) return {};
    const double root = std::sqrt(pivot);
    gram[j * k + j] = root;
    for (std::size_t i = j + 1; i < k; ++i) {
      double sum = gram[i * k + j];
      for (std::size_t p = 0; p < j; ++p) sum -= gram[i * k + p] * gram[j * k + p];
      gram[i * k + j] = sum / root;
    }
  }
  for (std::size_t i = 0; i < k; ++i) {
    double sum = rhs[i];
    for (std::size_t p = 0; p < i; ++p) sum -= gram[i * k + p] * rhs[p];
    rhs[i] = sum / gram[i * k + i];
  }
  for (std::size_t i = k; i-- > 0;) {
    double sum = rhs[i];
    for (std::size_t p = i + 1; p < k; ++p) sum -= gram[p * k + i] * rhs[p];
    rhs[i] = sum / gram[i * k + i];
  }
  std::vector<double> point(w.size(), 0.0);
  for (std::size_t a = 0; a < k; ++a) point[support[a]] = rhs[a];
  return point;
}

LassoState::LassoState(const Problem& problem, const std::vector<double>* w0, bool track_gradients)
    : problem_(problem),
      track_gradients_(track_gradients),
      w_(problem.num_features(), 0.0),
      cost_(problem.num_rows()),
      r_(problem.num_rows()),
      g_(problem.num_features()),
      h_(problem.num_features(), 0.0),
      mark_(problem.num_features(), 0) {
  if (w0 != nullptr) {
    if (w0->size() != w_.size()) throw Error("initial w has the wrong number of features");
    w_ = *w0;
  }
  for (std::size_t j = 0; j < cost_.size(); ++j) cost_[j] = problem.cost(j);
  const CscMatrix& x = problem.x();
  for (std::size_t i = 0; i < h_.size(); ++i) {
    for (auto k = x.col_ptr[i]; k < x.col_ptr[i + 1]; ++k) {
      const auto t = static_cast<std::size_t>(k);
      h_[i] += 2.0 * cost_[x.row_idx[t]] * x.values[t] * x.values[t];
    }
  }
  if (track_gradients_) rows_ = to_csr(x);
  refresh();
  bound_ = 0;
  for (std::size_t j = 0; j < r_.size(); ++j) bound_ += cost_[j] * r_[j] * r_[j];
  for (double wi : w_) bound_ += std::fabs(wi);
}

double LassoState::column_norm(std::size_t i) const {
  const CscMatrix& x = problem_.x();
  double sq = 0;
  for (auto k = x.col_ptr[i]; k < x.col_ptr[i + 1]; ++k) {
    const double v = x.values[static_cast<std::size_t>(k)];
    sq += v * v;
  }
  return std::sqrt(sq);
}

double LassoState::gap(std::size_t i) const {
  const double g = g_[i];
  const double wi = w_[i];
  return std::max(bound_ * std::max(std::fabs(g) - 1.0, 0.0) + std::fabs(wi) + wi * g, 0.0);
}

double LassoState::residue(std::size_t i) const {
  const double g = g_[i];
  const double wi = w_[i];
  const double a = std::fabs(g);
  if (a < 1.0) return std::fabs(wi);
  // The subdifferential of g_i^* at u = -g: {-B sign(g)} for |g| > 1, the
  // segment between 0 and -B sign(g) at |g| = 1.
  const double end = -bound_ * (g > 0 ? 1.0 : -1.0);
  if (a > 1.0) return std::fabs(wi - end);
  const double lo = std::min(0.0, end);
  const double hi = std::max(0.0, end);
  return wi < lo ? lo - wi : wi > hi ? wi - hi : 0.0;
}

double LassoState::subgradient(std::size_t i) const {
  const double g = g_[i];
  const double wi = w_[i];
  if (wi > 0) return g + 1.0;
  if (wi < 0) return g - 1.0;
  return soft_threshold(g, 1.0);
}

double LassoState::newton_step(std::size_t i) const {
  const double h = h_[i];
  if (!(h > 0)) return 0.0;
  return soft_threshold(h * w_[i] - g_[i], 1.0) / h - w_[i];
}

double LassoState::decrease(std::size_t i) const {
  const double d = newton_step(i);
  const double wi = w_[i];
  if (d == 0) return 0.0;
  const double to = wi + d;
  if (to == 0) {
    // The step to 0: -(g d + h/2 d^2 - |w_i|) at d = -w_i.
    return std::max(g_[i] * wi - 0.5 * h_[i] * wi * wi + std::fabs(wi), 0.0);
  }
  // Elsewhere d solves g + h d + s = 0 with s = sign(w_i + d), so the
  // decrease is h/2 d^2 + |w_i| - s w_i, free of the cancellation of
  // g d + |w_i + d| - |w_i| (O(|d|) terms for an O(d^2) result) near the
  // optimum.
  const double s = to > 0 ? 1.0 : -1.0;
  return 0.5 * h_[i] * d * d + (std::fabs(wi) - s * wi);
}

void LassoState::step(std::size_t i, double z) {
  changed_.clear();
  if (z == 0) return;
  w_[i] += z;
  ++steps_;
  const CscMatrix& x = problem_.x();
  for (auto k = x.col_ptr[i]; k < x.col_ptr[i + 1]; ++k) {
    const auto t = static_cast<std::size_t>(k);
    const std::size_t j = x.row_idx[t];
    const double move = z * x.values[t];
    r_[j] += move;
    if (!track_gradients_ || cost_[j] == 0) continue;
    const double scale = 2.0 * cost_[j] * move;
    for (auto q = rows_.row_ptr[j]; q < rows_.row_ptr[j + 1]; ++q) {
      const auto u = static_cast<std::size_t>(q);
      const std::size_t c = rows_.col_idx[u];
      g_[c] += scale * rows_.values[u];
      if (mark_[c] != steps_) {
        mark_[c] = steps_;
        changed_.push_back(c);
      }
    }
  }
  if (track_gradients_ && mark_[i] != steps_) {
    mark_[i] = steps_;
    changed_.push_back(i);
  }
}

void LassoState::refresh() {
  const CscMatrix& x = problem_.x();
  for (std::size_t j = 0; j < r_.size(); ++j) r_[j] = -problem_.y[j];
  for (std::size_t i = 0; i < w_.size(); ++i) {
    if (w_[i] == 0) continue;
    for (auto k = x.col_ptr[i]; k < x.col_ptr[i + 1]; ++k) {
      const auto t = static_cast<std::size_t>(k);
      r_[x.row_idx[t]] += w_[i] * x.values[t];
    }
  }
  for (std::size_t i = 0; i < g_.size(); ++i) {
    double g = 0;
    for (auto k = x.col_ptr[i]; k < x.col_ptr[i + 1]; ++k) {
      const auto t = static_cast<std::size_t>(k);
      const std::size_t j = x.row_idx[t];
      g += cost_[j] * r_[j] * x.values[t];
    }
    g_[i] = 2.0 * g;
  }
}

}  // namespace cdl
