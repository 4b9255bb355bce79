// RegressionObjective: the CoordinateObjective (objective.h) of a regression
// loss of (score, target), f(w) = r(w) + sum_j C_j loss(w'x_j, y_j), for the
// CD family: ridge regression and L2-loss SVR with the L2 regularizer, the
// Lasso and L1-regularized SVR with the L1 one.
//
// It keeps the scores s_j = w'x_j of the current w, as MarginObjective keeps
// the margins (Chang, Hsieh & Lin 2008, equation 17 with y_j = 1): a step
// z on coordinate i moves s_j by z x_ji over column i, so D'_i(0) =
// sum_j C_j loss'(s_j, y_j) x_ji and D''_i(0) = sum_j C_j loss''(s_j, y_j) x_ji^2
// cost O(nonzeros of column i). For the squared loss, s - y is the residual
// of the Lasso's coordinate update. Both regression losses have loss'' <=
// kMaxD2 = 2, so H_i = r's curvature + 2 sum_j C_j x_ji^2 bounds D''_i(z) for
// every z, and Theorem 1's lambda_bar (15) carries over unchanged; for the
// squared loss D''_i(z) = H_i exactly.
//
// Held-out rows (Problem::held_out, cross-validation's folds) have C_j = 0.
// The Problem must outlive the objective.
#ifndef CDL_OBJECTIVE_REGRESSION_OBJECTIVE_H_
#define CDL_OBJECTIVE_REGRESSION_OBJECTIVE_H_

#include <algorithm>
#include <cassert>
#include <cmath>
#include <string>
#include <vector>

#include "objective/column_prefetch.h"
#include "objective/loss.h"
#include "objective/objective.h"
#include "objective/vector_math.h"
#include "util/error.h"
#include "util/populate.h"

namespace cdl {

// f(w) = r(w) + sum_j C_j loss(s_j, y_j), summed in row order, from given
// scores. O(l).
template <class Loss>
double regression_objective_value(const Problem& problem, const Loss& loss,
                                  double regularizer_value, const std::vector<double>& scores) {
  double f = regularizer_value;
  for (std::size_t j = 0; j < scores.size(); ++j) {
    f += problem.cost(j) * loss.value(scores[j], problem.y[j]);
  }
  return f;
}

template <class Loss>
class RegressionObjective final : public CoordinateObjective {
 public:
  RegressionObjective(const Problem& problem, const Regularizer& regularizer, Loss loss)
      : problem_(problem),
        regularizer_(regularizer),
        loss_(loss),
        x_(problem.x()),
        w_(populated_vector(problem.num_features(), 0.0)),
        score_(problem.num_rows(), 0.0),
        cost_(problem.num_rows()),
        bounds_(curvature_bounds(problem, regularizer, Loss::kMaxD2)) {
    for (std::size_t j = 0; j < cost_.size(); ++j) cost_[j] = problem.cost(j);
    saved_.resize(longest_column(x_));
    gradient_at_zero_.assign(w_.size(), 0.0);
    for (std::size_t i = 0; i < w_.size(); ++i) gradient_at_zero_[i] = coord_derivs(i).d1;
    gradient_norm_at_zero_ = norm2(gradient_at_zero_);
  }

  std::size_t num_features() const override { return w_.size(); }
  const std::vector<double>& w() const override { return w_; }

  void reset(const std::vector<double>& w) override {
    if (w.size() != w_.size()) throw Error("initial w has the wrong number of features");
    w_ = w;
    std::fill(score_.begin(), score_.end(), 0.0);
    for (std::size_t i = 0; i < w_.size(); ++i) {
      if (w_[i] != 0) move_scores(i, w_[i]);
    }
  }

  CoordDerivs coord_derivs(std::size_t i) const final {
    const Index* rows = x_.row_idx.data();
    const double* values = x_.values.data();
    const double* score = score_.data();
    const double* cost = cost_.data();
    const double* y = problem_.y.data();
    double g = 0;
    double h = 0;
    for (std::size_t k = begin(i), stop = end(i); k < stop; ++k) {
      column_prefetch::ahead_in_column(rows, k, stop, score, cost, y);
      const std::size_t j = rows[k];
      const double v = values[k];
      g += cost[j] * loss_.d1(score[j], y[j]) * v;
      h += cost[j] * loss_.d2(score[j], y[j]) * v * v;
    }
    const Regularizer r = regularizer_.at(i);
    return {r.derivative(w_[i], g), r.curvature(h)};
  }

  void apply(std::size_t i, double z) final {
    w_[i] += z;
    move_scores(i, z);
  }

  double apply_with_delta(std::size_t i, double z) final {
    const Index* rows = x_.row_idx.data();
    const double* values = x_.values.data();
    double* score = score_.data();
    const double* cost = cost_.data();
    const double* y = problem_.y.data();
    double* saved = saved_.data();
    double sum = 0;
    for (std::size_t k = begin(i), stop = end(i); k < stop; ++k, ++saved) {
      const std::size_t j = rows[k];
      const double before = score[j];
      const double after = before + z * values[k];
      *saved = before;
      score[j] = after;
      sum += cost[j] * (loss_.value(after, y[j]) - loss_.value(before, y[j]));
    }
    last_ = i;
    saved_w_ = w_[i];
    w_[i] += z;
    return regularizer_.at(i).delta(saved_w_, z) + sum;
  }

  void undo() final {
    w_[last_] = saved_w_;
    const double* saved = saved_.data();
    for (auto k = begin(last_); k < end(last_); ++k, ++saved) score_[x_.row_idx[k]] = *saved;
  }

  double bound(std::size_t i) const final { return bounds_[i]; }
  // The base's bounded_derivs() without its virtual calls.
  BoundedDerivs bounded_derivs(std::size_t i) const final {
    const CoordDerivs derivs = coord_derivs(i);
    return {derivs.d1, derivs.d2, bounds_[i]};
  }

  double value() const override {
    return regression_objective_value(problem_, loss_, regularizer_.value(w_), score_);
  }

  // For solvers that keep several copies of the state and move w between
  // them (solver_cd_partitioned.cpp): the per-row l-vector kept here
  // (the scores w'x_j), loading one (O(l)), setting w_i without moving it
  // (O(1)), and sum_j C_j loss_j over rows [first, stop) of a given l-vector
  // in row order (O(stop - first); over all rows, f(w) less r(w)).
  const std::vector<double>& row_state() const { return score_; }
  void load_row_state(const std::vector<double>& state) {
    assert(state.size() == score_.size());
    std::copy(state.begin(), state.end(), score_.begin());
  }
  void set_weight(std::size_t i, double value) { w_[i] = value; }
  double loss_sum(const std::vector<double>& state, std::size_t first, std::size_t stop) const {
    double sum = 0;
    for (std::size_t j = first; j < stop; ++j) {
      sum += problem_.cost(j) * loss_.value(state[j], problem_.y[j]);
    }
    return sum;
  }

  // Prefetch hints for coordinate i (column_prefetch.h), on the scores.
  void prefetch_coordinate(std::size_t i) const {
    column_prefetch::coordinate(x_, w_.data(), i);
    __builtin_prefetch(&bounds_[i]);
  }
  void prefetch_column(std::size_t i) const { column_prefetch::column(x_, i); }
  void prefetch_rows(std::size_t i) const { column_prefetch::rows(x_, score_.data(), i); }

  std::vector<double> gradient() const override {
    std::vector<double> g = populated_vector(w_.size(), 0.0);
    for (std::size_t i = 0; i < w_.size(); ++i) g[i] = coord_derivs(i).d1;
    return g;
  }

  double gradient_norm_at_zero() const override { return gradient_norm_at_zero_; }

 private:
  std::size_t begin(std::size_t i) const { return static_cast<std::size_t>(x_.col_ptr[i]); }
  std::size_t end(std::size_t i) const { return static_cast<std::size_t>(x_.col_ptr[i + 1]); }
  void move_scores(std::size_t i, double z) {
    const Index* rows = x_.row_idx.data();
    const double* values = x_.values.data();
    double* score = score_.data();
    for (std::size_t k = begin(i), stop = end(i); k < stop; ++k) score[rows[k]] += z * values[k];
  }

  const Problem& problem_;
  const Regularizer regularizer_;
  const Loss loss_;
  const CscMatrix& x_;
  std::vector<double> w_;
  std::vector<double> score_;  // s_j = w'x_j
  std::vector<double> cost_;   // C_j, 0 for held-out rows
  std::vector<double> bounds_;
  std::vector<double> gradient_at_zero_;
  double gradient_norm_at_zero_ = 0;
  std::vector<double> saved_;
  std::size_t last_ = 0;
  double saved_w_ = 0;
};

// Calls body(objective) with the RegressionObjective of `loss` (kSquared, or
// kSvrL2 with tube width `svr_epsilon`); throws ConfigError for a
// classification loss.
template <class Body>
auto with_regression_objective(LossKind loss, const Problem& problem,
                               const Regularizer& regularizer, double svr_epsilon, Body body) {
  if (loss == LossKind::kSquared) {
    RegressionObjective<SquaredLoss> objective(problem, regularizer, SquaredLoss{});
    return body(objective);
  }
  if (loss == LossKind::kSvrL2) {
    SvrL2Loss svr;
    svr.epsilon = svr_epsilon;
    RegressionObjective<SvrL2Loss> objective(problem, regularizer, svr);
    return body(objective);
  }
  throw ConfigError("not a regression loss");
}

}  // namespace cdl

#endif  // CDL_OBJECTIVE_REGRESSION_OBJECTIVE_H_
