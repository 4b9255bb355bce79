// CachedMarginObjective: the CoordinateObjective of a margin loss
// (objective.h) that keeps, for every row, the loss's derivative terms at
// the current margin, a_j = y_j C_j loss'(m_j) and b_j = C_j loss''(m_j),
// next to the margins. For the L1-regularized CD rows (solver_cd_l1.cpp).
//
// Why: with an L1 regularizer most coordinates sit at w_i = 0 and most
// visits leave them there, so a visit is D'_i(0) and D''_i(0) and no step.
// MarginObjective computes loss'(m_j) and loss''(m_j) for every nonzero
// visited; for the logistic loss that is an exp per nonzero, and the calls
// keep the CPU from running ahead to the next rows' margins. Here
// coord_derivs is two multiply-adds per nonzero on one 16-byte row record,
// and the exp moves to the steps: one per nonzero of a column that moves.
// A step moves the margins in one pass and computes the terms in a second,
// so that the rows' cache misses overlap instead of waiting on each exp.
//
// The terms are computed by the same expressions as MarginObjective's, in
// the same order (a_j * x_ji is (y_j C_j loss'(m_j)) x_ji there too), so
// both objectives give the same D'_i and D''_i to the last bit at the same
// margins.
//
// Also: max_abs(i) = max_j |x_ji| over column i, with which
// curvature_bound() bounds D''_i(t) for |t| <= |z| for the logistic loss,
// where loss'' changes by at most a factor e^|delta| when the margin moves
// by delta (d/dm log loss''(m) = 1 - 2 sigma(m) lies in (-1, 1)):
//   D''_i(t) <= e^(|z| max_abs(i)) D''_i(0), and always <= H_i (bound(i)).
// The L2-SVM's loss'' jumps from 0 to 2, so it has only H_i.
//
// Memory: per row 8 bytes of margin, 16 of terms, 1 of label; per nonzero
// of the longest column 24 bytes to undo a step. The Problem must outlive
// the objective and is never written.
#ifndef CDL_OBJECTIVE_CACHED_MARGIN_OBJECTIVE_H_
#define CDL_OBJECTIVE_CACHED_MARGIN_OBJECTIVE_H_

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "objective/column_prefetch.h"
#include "objective/evaluate.h"
#include "objective/objective.h"
#include "objective/vector_math.h"
#include "util/error.h"
#include "util/parallel.h"
#include "util/populate.h"

namespace cdl {

// loss'(m) and loss''(m), and with value_and_derivs also loss(m), computed
// as the Loss's own functions compute them (the same bits), with one exp
// for the logistic loss where the Loss's functions call it once each.
template <class Loss>
struct LossTerms {
  static void derivs(double m, double& d1, double& d2) {
    d1 = Loss::d1(m);
    d2 = Loss::d2(m);
  }
  static double value_and_derivs(double m, double& d1, double& d2) {
    derivs(m, d1, d2);
    return Loss::value(m);
  }
  // Whether loss''(m + delta) <= e^|delta| loss''(m) for all m, delta.
  static constexpr bool kLogCurvatureLipschitz = false;
};

template <>
struct LossTerms<LogisticLoss> {
  static void derivs(double m, double& d1, double& d2) {
    const double e = std::exp(-std::fabs(m));
    const double p = 1.0 / (1.0 + e);
    d1 = m >= 0 ? -e * p : -p;
    d2 = e * p * p;
  }
  static double value_and_derivs(double m, double& d1, double& d2) {
    const double e = std::exp(-std::fabs(m));
    const double p = 1.0 / (1.0 + e);
    d1 = m >= 0 ? -e * p : -p;
    d2 = e * p * p;
    return positive_part(-m) + std::log1p(e);
  }
  static constexpr bool kLogCurvatureLipschitz = true;
};

template <class Loss>
class CachedMarginObjective final : public CoordinateObjective {
 public:
  // `threads` share the setup passes over the rows and the columns (the
  // solve itself is on the caller's thread).
  CachedMarginObjective(const Problem& problem, const Regularizer& regularizer,
                        unsigned threads = 1)
      : problem_(problem),
        regularizer_(regularizer),
        x_(problem.x()),
        cost_pos_(problem.cost_pos),
        cost_neg_(problem.cost_neg),
        weights_(problem.weights != nullptr ? problem.weights->data() : nullptr),
        threads_(threads),
        w_(populated_vector(problem.num_features(), 0.0)),
        margin_(problem.num_rows(), 0.0),
        terms_(problem.num_rows()),
        positive_(problem.num_rows()),
        // Only its norm is kept: the vector itself is recomputed by
        // gradient() at w = 0 (once per solve), not held as another n-vector.
        gradient_norm_at_zero_(norm2(cdl::gradient_at_zero<Loss>(problem, threads))) {
    for (std::size_t j = 0; j < margin_.size(); ++j) positive_[j] = problem.cost_class(j);
    run_in_blocks_or_throw(margin_.size(), threads, [&](std::size_t j) { refresh_terms(j); });
    // H_i by curvature_bounds()'s sums (the same bits and the same error).
    auto tables = std::make_shared<ColumnTables>();
    tables->bounds = populated_vector(problem.num_features(), 0.0);
    tables->max_abs = populated_vector(problem.num_features(), 0.0);
    run_in_blocks_or_throw(problem.num_features(), threads, [&](std::size_t i) {
      tables->bounds[i] = cdl::curvature_bound(problem, regularizer, Loss::kMaxD2, i);
      for (auto k = begin(i); k < end(i); ++k) {
        tables->max_abs[i] = std::max(tables->max_abs[i], std::fabs(x_.values[k]));
      }
    });
    bounds_ = tables->bounds.data();
    max_abs_ = tables->max_abs.data();
    tables_ = std::move(tables);
    saved_.resize(longest_column(x_));
  }

  std::size_t num_features() const override { return w_.size(); }
  const std::vector<double>& w() const override { return w_; }

  void reset(const std::vector<double>& w) override {
    if (w.size() != w_.size()) throw Error("initial w has the wrong number of features");
    w_ = w;
    std::fill(margin_.begin(), margin_.end(), 0.0);
    for (std::size_t i = 0; i < w_.size(); ++i) {
      if (w_[i] == 0) continue;
      const double step[3] = {-w_[i], w_[i], 0.0};
      for (auto k = begin(i); k < end(i); ++k) {
        const std::size_t j = x_.row_idx[k];
        margin_[j] += step[positive_[j]] * x_.values[k];
      }
    }
    for (std::size_t j = 0; j < margin_.size(); ++j) refresh_terms(j);
  }

  // Two multiply-adds per nonzero on the cached terms; no loss function is
  // called.
  CoordDerivs coord_derivs(std::size_t i) const final {
    const Index* rows = x_.row_idx.data();
    const double* values = x_.values.data();
    const Terms* terms = terms_.data();
    double g = 0;
    double h = 0;
    for (std::size_t k = begin(i), stop = end(i); k < stop; ++k) {
      column_prefetch::ahead_in_column(rows, k, stop, terms);
      const Terms& t = terms[rows[k]];
      const double v = values[k];
      g += t.a * v;
      h += t.b * v * v;
    }
    const Regularizer r = regularizer_.at(i);
    return {r.derivative(w_[i], g), r.curvature(h)};
  }

  void apply(std::size_t i, double z) final {
    w_[i] += z;
    const Index* rows = x_.row_idx.data();
    const double* values = x_.values.data();
    double* margin = margin_.data();
    Terms* terms = terms_.data();
    const std::uint8_t* positive = positive_.data();
    const double step[3] = {-z, z, 0.0};
    const double cost[3] = {cost_neg_, cost_pos_, 0.0};
    const double signed_cost[3] = {-cost_neg_, cost_pos_, 0.0};
    // Two passes: the first moves the margins (loads and stores only, so
    // the CPU overlaps the rows' cache misses) and fetches the terms' lines;
    // the second computes the terms on rows now in cache. In one pass the
    // exp call between each row's load and the next kept the misses serial.
    const std::size_t first = begin(i);
    const std::size_t stop = end(i);
    for (std::size_t k = first; k < stop; ++k) {
      const std::size_t j = rows[k];
      margin[j] += step[positive[j]] * values[k];
      __builtin_prefetch(&terms[j], 1);
    }
    for (std::size_t k = first; k < stop; ++k) {
      const std::size_t j = rows[k];
      const std::uint8_t p = positive[j];
      double d1;
      double d2;
      LossTerms<Loss>::derivs(margin[j], d1, d2);
      terms[j] = {signed_cost[p] * weight_of(j) * d1, cost[p] * weight_of(j) * d2};
    }
  }

  double apply_with_delta(std::size_t i, double z) final {
    const Index* rows = x_.row_idx.data();
    const double* values = x_.values.data();
    double* margin = margin_.data();
    Terms* terms = terms_.data();
    const std::uint8_t* positive = positive_.data();
    const double step[3] = {-z, z, 0.0};
    const double cost[3] = {cost_neg_, cost_pos_, 0.0};
    const double signed_cost[3] = {-cost_neg_, cost_pos_, 0.0};
    Saved* saved = saved_.data();
    const std::size_t first = begin(i);
    const std::size_t stop = end(i);
    // Two passes, as apply(): save and move (memory only), then compute.
    for (std::size_t k = first; k < stop; ++k) {
      const std::size_t j = rows[k];
      const double before = margin[j];
      saved[k - first] = {before, terms[j]};
      margin[j] = before + step[positive[j]] * values[k];
    }
    double sum = 0;
    for (std::size_t k = first; k < stop; ++k) {
      const std::size_t j = rows[k];
      const std::uint8_t p = positive[j];
      double d1;
      double d2;
      const double value = LossTerms<Loss>::value_and_derivs(margin[j], d1, d2);
      terms[j] = {signed_cost[p] * weight_of(j) * d1, cost[p] * weight_of(j) * d2};
      sum += cost[p] * weight_of(j) * (value - Loss::value(saved[k - first].margin));
    }
    last_ = i;
    saved_w_ = w_[i];
    w_[i] += z;
    return regularizer_.at(i).delta(saved_w_, z) + sum;
  }

  void undo() final {
    w_[last_] = saved_w_;
    const Saved* saved = saved_.data();
    for (auto k = begin(last_); k < end(last_); ++k, ++saved) {
      const std::size_t j = x_.row_idx[k];
      margin_[j] = saved->margin;
      terms_[j] = saved->terms;
    }
  }

  double bound(std::size_t i) const final { return bounds_[i]; }
  // The base's bounded_derivs() without its virtual calls.
  BoundedDerivs bounded_derivs(std::size_t i) const final {
    const CoordDerivs derivs = coord_derivs(i);
    return {derivs.d1, derivs.d2, bounds_[i]};
  }

  // An upper bound of D''_i(t) for every |t| <= |z|, given d2 = D''_i(0)
  // (regularizer's curvature included, as in bound()).
  double curvature_bound(std::size_t i, double d2, double z) const {
    if constexpr (LossTerms<Loss>::kLogCurvatureLipschitz) {
      const double l2 = regularizer_.at(i).l2;
      const double loss_part = d2 - l2;
      const double grown = l2 + loss_part * std::exp(std::fabs(z) * max_abs_[i]);
      return std::min(bounds_[i], grown);
    } else {
      (void)d2;
      (void)z;
      return bounds_[i];
    }
  }

  // For solvers that keep several copies of the state and move w between
  // them (solver_cd_partitioned.cpp): the per-row l-vectors kept here (the
  // margins y_j w'x_j and their terms), loading both (O(l), copies, no
  // loss function called), setting w_i without moving it (O(1)), and
  // sum_j C_j loss_j over rows [first, stop) of given margins in row order
  // (O(stop - first); over all rows, f(w) less r(w)), which also writes
  // those rows' terms at the margins into `terms`: one exp a row gives both,
  // and the solver loads the terms with the margins instead of computing
  // them again in every copy.
  struct Terms {
    double a;  // y_j C_j loss'(m_j)
    double b;  // C_j loss''(m_j)
  };
  const std::vector<double>& row_state() const { return margin_; }
  const std::vector<Terms>& row_terms() const { return terms_; }
  void load_row_state(const std::vector<double>& state, const std::vector<Terms>& terms) {
    assert(state.size() == margin_.size() && terms.size() == terms_.size());
    std::copy(state.begin(), state.end(), margin_.begin());
    std::copy(terms.begin(), terms.end(), terms_.begin());
  }
  void set_weight(std::size_t i, double value) { w_[i] = value; }
  double loss_sum(const std::vector<double>& state, std::size_t first, std::size_t stop,
                  std::vector<Terms>& terms) const {
    double sum = 0;
    for (std::size_t j = first; j < stop; ++j) {
      double d1;
      double d2;
      const double value = LossTerms<Loss>::value_and_derivs(state[j], d1, d2);
      terms[j] = terms_of(j, d1, d2);
      sum += problem_.cost(j) * value;
    }
    return sum;
  }

  double value() const override {
    return objective_value<Loss>(problem_, regularizer_.value(w_), margin_);
  }

  std::vector<double> gradient() const override {
    if (std::all_of(w_.begin(), w_.end(), [](double wi) { return wi == 0; })) {
      return cdl::gradient_at_zero<Loss>(problem_, threads_);
    }
    std::vector<double> g = populated_vector(w_.size(), 0.0);
    for (std::size_t i = 0; i < w_.size(); ++i) g[i] = coord_derivs(i).d1;
    return g;
  }

  double gradient_norm_at_zero() const override { return gradient_norm_at_zero_; }

 private:
  struct Saved {
    double margin;
    Terms terms;
  };

  std::size_t begin(std::size_t i) const { return static_cast<std::size_t>(x_.col_ptr[i]); }
  std::size_t end(std::size_t i) const { return static_cast<std::size_t>(x_.col_ptr[i + 1]); }
  // Row j's terms from loss'(m_j) and loss''(m_j).
  Terms terms_of(std::size_t j, double d1, double d2) const {
    const double cost[3] = {cost_neg_, cost_pos_, 0.0};
    const double signed_cost[3] = {-cost_neg_, cost_pos_, 0.0};
    return {signed_cost[positive_[j]] * weight_of(j) * d1, cost[positive_[j]] * weight_of(j) * d2};
  }
  void refresh_terms(std::size_t j) {
    double d1;
    double d2;
    LossTerms<Loss>::derivs(margin_[j], d1, d2);
    terms_[j] = terms_of(j, d1, d2);
  }
  // s_j, the instance weight of row j (1 without -W): the loops here call
  // exp per row, beside which the test is free.
  double weight_of(std::size_t j) const { return weights_ == nullptr ? 1.0 : weights_[j]; }

  const Problem& problem_;
  const Regularizer regularizer_;
  const CscMatrix& x_;
  const double cost_pos_;
  const double cost_neg_;
  const double* weights_;   // problem.weights' s_j, or null
  const unsigned threads_;  // for the passes at w = 0 (gradient())
  std::vector<double> w_;
  std::vector<double> margin_;
  std::vector<Terms> terms_;
  // Problem::cost_class: 0 negative, 1 positive, 2 held out (C_j = 0: terms
  // 0, margin never moves), the index into the tables of C_j, y_j C_j, y_j z.
  std::vector<std::uint8_t> positive_;
  // The columns' H_i and max_j |x_ji|, fixed once made: a copy of the
  // objective (solver_cd_partitioned.cpp's, one per thread) shares them and
  // copies only the vectors that its steps change.
  struct ColumnTables {
    std::vector<double> bounds;
    std::vector<double> max_abs;
  };
  std::shared_ptr<const ColumnTables> tables_;
  const double* bounds_ = nullptr;   // tables_->bounds
  const double* max_abs_ = nullptr;  // tables_->max_abs
  double gradient_norm_at_zero_ = 0;
  // State of the last apply_with_delta(), for undo().
  std::vector<Saved> saved_;
  std::size_t last_ = 0;
  double saved_w_ = 0;
};

}  // namespace cdl

#endif  // CDL_OBJECTIVE_CACHED_MARGIN_OBJECTIVE_H_
