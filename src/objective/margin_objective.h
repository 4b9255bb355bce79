// MarginObjective: the CoordinateObjective of the margin losses (objective.h),
// in a header so that the CD solver can be compiled against the concrete
// type, with no virtual call per coordinate.
#ifndef CDL_OBJECTIVE_MARGIN_OBJECTIVE_H_
#define CDL_OBJECTIVE_MARGIN_OBJECTIVE_H_

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "objective/column_prefetch.h"
#include "objective/evaluate.h"
#include "objective/objective.h"
#include "objective/vector_math.h"
#include "util/error.h"
#include "util/parallel.h"
#include "util/populate.h"

namespace cdl {

// The objective of a margin loss, one coordinate at a time (objective.h).
//
// Memory layout, for the CD inner loop at the memory floor: the per-instance
// state is split by how often it is read: the margins (8 bytes a row) on every
// nonzero visited, and the label (1 byte a row) from a separate small array
// that stays in cache. The Problem itself is never written. (A 16-byte
// {margin, y_j C_j} pair per row, which saves the label's access, was no
// faster per CDPER epoch on the wide text shape and slower on the rcv1-like
// file, whose long columns sweep the rows and then touch twice the cache
// lines; bench_cd sweep --order cdper, at c424f83, docs/checks.md.) The class is
// final and its hot functions are inline, so a solver templated on it makes
// no virtual call per coordinate, and the prefetch_*() hints let it fetch a
// few coordinates ahead along a permutation.
template <class Loss>
class MarginObjective final : public CoordinateObjective {
 public:
  // `threads` share the setup pass over the matrix and gradient() at w = 0
  // (the solve itself is on the caller's thread).
  MarginObjective(const Problem& problem, const Regularizer& regularizer, unsigned threads = 1)
      : problem_(problem),
        regularizer_(regularizer),
        x_(problem.x()),
        cost_pos_(problem.cost_pos),
        cost_neg_(problem.cost_neg),
        threads_(threads),
        w_(populated_vector(problem.num_features(), 0.0)),
        margin_(huge_page_filled<double>(problem.num_rows())),
        positive_(huge_page_filled<std::uint8_t>(problem.num_rows())) {
    for (std::size_t j = 0; j < margin_.size(); ++j) {
      positive_[j] = problem.cost_class(j);
    }
    // One pass over the matrix: grad f(0), of which only the norm is kept
    // (gradient() recomputes the vector at w = 0, once per solve, instead of
    // holding another n-vector), and H_i, which refuses data whose squares
    // overflow before training starts. O(nnz), in blocks of columns on
    // threads; the first block's error is the first bad column's, as in one
    // loop, and the norm is summed in column order after.
    std::vector<double> g = populated_vector(x_.num_cols, 0.0);
    run_in_blocks_or_throw(x_.num_cols, threads, [&](std::size_t i) {
      const ColumnSums sums = column_sums(i);
      g[i] = Loss::d1(0.0) * sums.slope;
      bound_of(i, sums);
    });
    gradient_norm_at_zero_ = norm2(g);
    saved_.resize(longest_column(x_));
  }

  std::size_t num_features() const override { return x_.num_cols; }
  const std::vector<double>& w() const override { return w_; }
  std::vector<double> release_w() override { return std::move(w_); }

  void reset(const std::vector<double>& w) override {
    if (w.size() != num_features()) throw Error("initial w has the wrong number of features");
    w_ = w;
    std::fill(margin_.begin(), margin_.end(), 0.0);
    for (std::size_t i = 0; i < w_.size(); ++i) {
      if (w_[i] != 0) move_margins(i, w_[i]);
    }
  }

  // The hot loops below copy every member they use into locals first (the
  // stores to the margins could otherwise alias the members, and the compiler
  // would reload them for every nonzero), and pick y_j and C_j from two-entry
  // tables instead of branching on the label; with instance weights (-W),
  // C_j is the table's C times s_j (with_instance_weights(), problem.h).
  CoordDerivs coord_derivs(std::size_t i) const final {
    const BoundedDerivs derivs = bounded_derivs(i);
    return {derivs.d1, derivs.d2};
  }

  // H_i of (14) is summed here from the column, beside D'_i(0) and D''_i(0),
  // by curvature_bound()'s expression (the same bits), instead of being kept
  // as an n-vector: the loop waits on the rows' margins anyway, and the
  // solve holds one n-vector fewer (one per class on one-vs-rest threads)
  // and fetches one cache line fewer per coordinate.
  BoundedDerivs bounded_derivs(std::size_t i) const final {
    const Index* rows = x_.row_idx.data();
    const double* values = x_.values.data();
    const double* margin = margin_.data();
    const std::uint8_t* positive = positive_.data();
    const double cost[3] = {cost_neg_, cost_pos_, 0.0};
    const double signed_cost[3] = {-cost_neg_, cost_pos_, 0.0};
    return with_instance_weights(problem_, [&](auto weight) -> BoundedDerivs {
      double g = 0;
      double h = 0;
      double squares = 0;  // sum_j C_j x_ji^2
      for (std::size_t k = begin(i), stop = end(i); k < stop; ++k) {
        column_prefetch::ahead_in_column(rows, k, stop, margin, positive);
        const std::size_t j = rows[k];
        const double m = margin[j];
        const double v = values[k];
        g += signed_cost[positive[j]] * weight(j) * Loss::d1(m) * v;
        h += cost[positive[j]] * weight(j) * Loss::d2(m) * v * v;
        squares += cost[positive[j]] * weight(j) * v * v;
      }
      const Regularizer r = regularizer_.at(i);
      return {r.derivative(w_[i], g), r.curvature(h), r.curvature(Loss::kMaxD2 * squares)};
    });
  }

  void apply(std::size_t i, double z) final {
    w_[i] += z;
    move_margins(i, z);
  }

  double apply_with_delta(std::size_t i, double z) final {
    const Index* rows = x_.row_idx.data();
    const double* values = x_.values.data();
    double* margin = margin_.data();
    const std::uint8_t* positive = positive_.data();
    const double cost[3] = {cost_neg_, cost_pos_, 0.0};
    const double step[3] = {-z, z, 0.0};
    double* saved = saved_.data();
    const double sum = with_instance_weights(problem_, [&](auto weight) {
      double total = 0;
      for (std::size_t k = begin(i), stop = end(i); k < stop; ++k, ++saved) {
        const std::size_t j = rows[k];
        const double before = margin[j];
        const double after = before + step[positive[j]] * values[k];
        *saved = before;
        margin[j] = after;
        total += cost[positive[j]] * weight(j) * (Loss::value(after) - Loss::value(before));
      }
      return total;
    });
    last_ = i;
    saved_w_ = w_[i];
    w_[i] += z;
    return regularizer_.at(i).delta(saved_w_, z) + sum;
  }

  void undo() final {
    w_[last_] = saved_w_;
    const double* saved = saved_.data();
    for (auto k = begin(last_); k < end(last_); ++k, ++saved) {
      margin_[x_.row_idx[k]] = *saved;
    }
  }

  double bound(std::size_t i) const final { return column_bound(i); }

  double value() const override {
    return objective_value<Loss>(problem_, regularizer_.value(w_), margin_);
  }

  // For solvers that keep several copies of the state and move w between
  // them (solver_cd_partitioned.cpp): the per-row l-vector kept here
  // (the margins y_j w'x_j), loading one (O(l)), setting w_i without moving it
  // (O(1)), and sum_j C_j loss_j over rows [first, stop) of a given l-vector
  // in row order (O(stop - first); over all rows, f(w) less r(w)), which the
  // solver sums in fixed chunks on its threads.
  const std::vector<double>& row_state() const { return margin_; }
  void load_row_state(const std::vector<double>& state) {
    assert(state.size() == margin_.size());
    std::copy(state.begin(), state.end(), margin_.begin());
  }
  void set_weight(std::size_t i, double value) { w_[i] = value; }
  double loss_sum(const std::vector<double>& state, std::size_t first, std::size_t stop) const {
    double sum = 0;
    for (std::size_t j = first; j < stop; ++j) sum += problem_.cost(j) * Loss::value(state[j]);
    return sum;
  }

  // Prefetch hints for coordinate i (column_prefetch.h), on the margins.
  void prefetch_coordinate(std::size_t i) const { column_prefetch::coordinate(x_, w_.data(), i); }
  void prefetch_column(std::size_t i) const { column_prefetch::column(x_, i); }
  void prefetch_rows(std::size_t i) const { column_prefetch::rows(x_, margin_.data(), i); }

  std::vector<double> gradient() const override {
    const bool at_zero = std::all_of(w_.begin(), w_.end(), [](double wi) { return wi == 0; });
    std::vector<double> g = populated_vector(w_.size(), 0.0);
    run_in_blocks_or_throw(w_.size(), threads_, [&](std::size_t i) {
      g[i] = at_zero ? Loss::d1(0.0) * column_sums(i).slope : coord_derivs(i).d1;
    });
    return g;
  }

  double gradient_norm_at_zero() const override { return gradient_norm_at_zero_; }

 private:
  // n zeros, in memory asked for 2 MiB pages (advise_huge_pages()) before it
  // is first written if it spans at least 4 MiB: the margins and labels are
  // read at random rows, and on the 200M-nonzero file (2.7M rows) 4 KiB pages
  // cost the TLB 7-10% of a CDPER epoch (bench_cd sweep --order cdper).
  template <class T>
  static std::vector<T> huge_page_filled(std::size_t n) {
    std::vector<T> out;
    out.reserve(n);
    if (n * sizeof(T) >= (std::size_t{4} << 20)) advise_huge_pages(out.data(), n * sizeof(T));
    out.assign(n, T{});
    return out;
  }
  std::size_t begin(std::size_t i) const { return static_cast<std::size_t>(x_.col_ptr[i]); }
  std::size_t end(std::size_t i) const { return static_cast<std::size_t>(x_.col_ptr[i + 1]); }
  // Column i's sums at w = 0 on the objective's own tables: sum_j y_j C_j
  // x_ji (grad f(0)_i = loss'(0) times it, the products of
  // cdl::gradient_at_zero()) and sum_j C_j x_ji^2 (H_i by bounded_derivs()'s
  // sum, the bits of curvature_bound()).
  struct ColumnSums {
    double slope;
    double squares;
  };
  ColumnSums column_sums(std::size_t i) const {
    const Index* rows = x_.row_idx.data();
    const double* values = x_.values.data();
    const std::uint8_t* positive = positive_.data();
    const double cost[3] = {cost_neg_, cost_pos_, 0.0};
    const double signed_cost[3] = {-cost_neg_, cost_pos_, 0.0};
    return with_instance_weights(problem_, [&](auto weight) {
      ColumnSums sums{0, 0};
      for (std::size_t k = begin(i), stop = end(i); k < stop; ++k) {
        const std::uint8_t t = positive[rows[k]];
        sums.slope += signed_cost[t] * weight(rows[k]) * values[k];
        sums.squares += cost[t] * weight(rows[k]) * values[k] * values[k];
      }
      return sums;
    });
  }
  // H_i from column i's sums; an Error naming the feature if it overflows.
  double bound_of(std::size_t i, const ColumnSums& sums) const {
    return require_finite_bound(regularizer_.at(i).curvature(Loss::kMaxD2 * sums.squares), i);
  }
  double column_bound(std::size_t i) const { return bound_of(i, column_sums(i)); }

  // Equation (17): m_j += z y_j x_ji for the nonzeros of column i.
  void move_margins(std::size_t i, double z) {
    const Index* rows = x_.row_idx.data();
    const double* values = x_.values.data();
    double* margin = margin_.data();
    const std::uint8_t* positive = positive_.data();
    const double step[3] = {-z, z, 0.0};
    for (std::size_t k = begin(i), stop = end(i); k < stop; ++k) {
      const std::size_t j = rows[k];
      margin[j] += step[positive[j]] * values[k];
    }
  }

  const Problem& problem_;
  const Regularizer regularizer_;
  const CscMatrix& x_;
  const double cost_pos_;
  const double cost_neg_;
  const unsigned threads_;
  std::vector<double> w_;
  std::vector<double> margin_;
  // Problem::cost_class: 0 negative, 1 positive, 2 held out (C_j = 0, margin
  // never moves), the index into the loops' tables of C_j, y_j C_j, y_j z.
  std::vector<std::uint8_t> positive_;
  double gradient_norm_at_zero_ = 0;
  // State of the last apply_with_delta(), for undo().
  std::vector<double> saved_;  // the column's margins before the step
  std::size_t last_ = 0;
  double saved_w_ = 0;
};

// Calls body(objective) with the MarginObjective of `loss`, for a smooth
// regularizer, its setup on `threads`; throws ConfigError for a loss or
// regularizer that Newton CD cannot take.
template <class Body>
auto with_margin_objective(LossKind loss, const Problem& problem, const Regularizer& regularizer,
                           unsigned threads, Body body) {
  if (!regularizer.smooth()) {
    throw ConfigError("the Newton CD objective needs a smooth regularizer");
  }
  switch (loss) {
    case LossKind::kL2Svm: {
      MarginObjective<L2SvmLoss> objective(problem, regularizer, threads);
      return body(objective);
    }
    case LossKind::kLogistic: {
      MarginObjective<LogisticLoss> objective(problem, regularizer, threads);
      return body(objective);
    }
    case LossKind::kL1Svm:
      throw ConfigError("l1svm has no second derivative for a Newton step");
    default:  // the other losses, of no margin or vector form here
      break;
  }
  throw ConfigError(std::string("loss ") + loss_info(loss).name + " has no margin objective");
}

}  // namespace cdl

#endif  // CDL_OBJECTIVE_MARGIN_OBJECTIVE_H_
