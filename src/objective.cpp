#include "objective.h"

#include <cmath>

#include "error.h"

namespace cdl {
namespace {

// Per-instance state kept side by side, so that the inner loops touch one
// cache line per nonzero: the margin y_j w'x_j and the signed penalty y_j C_j.
struct RowState {
  double margin;
  double yc;
};

template <class Loss>
class MarginObjective final : public CoordinateObjective {
 public:
  explicit MarginObjective(const Problem& problem)
      : x_(problem.x), w_(problem.num_features(), 0.0), rows_(problem.num_rows()),
        bounds_(problem.num_features()) {
    for (std::size_t j = 0; j < rows_.size(); ++j) {
      rows_[j] = {0.0, problem.y[j] * problem.cost[j]};
    }
    for (std::size_t i = 0; i < bounds_.size(); ++i) {
      double sum = 0;
      for (auto k = begin(i); k < end(i); ++k) {
        const double v = x_.values[k];
        sum += std::fabs(rows_[x_.row_idx[k]].yc) * v * v;
      }
      bounds_[i] = 1.0 + Loss::kMaxD2 * sum;
    }
  }

  std::size_t num_features() const override { return w_.size(); }
  const std::vector<double>& w() const override { return w_; }

  void reset(const std::vector<double>& w) override {
    if (w.size() != w_.size()) throw Error("initial w has the wrong number of features");
    w_ = w;
    for (auto& row : rows_) row.margin = 0;
    for (std::size_t i = 0; i < w_.size(); ++i) {
      if (w_[i] != 0) move_margins(i, w_[i]);
    }
  }

  CoordDerivs coord_derivs(std::size_t i) const override {
    double g = 0;
    double h = 0;
    for (auto k = begin(i); k < end(i); ++k) {
      const RowState& row = rows_[x_.row_idx[k]];
      const double v = x_.values[k];
      g += row.yc * Loss::d1(row.margin) * v;
      h += std::fabs(row.yc) * Loss::d2(row.margin) * v * v;
    }
    return {w_[i] + g, 1.0 + h};
  }

  double coord_delta(std::size_t i, double z) const override {
    double sum = 0;
    for (auto k = begin(i); k < end(i); ++k) {
      const RowState& row = rows_[x_.row_idx[k]];
      const double shift = z * x_.values[k] * (row.yc > 0 ? 1.0 : -1.0);
      sum += std::fabs(row.yc) * (Loss::value(row.margin + shift) - Loss::value(row.margin));
    }
    return w_[i] * z + 0.5 * z * z + sum;
  }

  void apply(std::size_t i, double z) override {
    w_[i] += z;
    move_margins(i, z);
  }

  double bound(std::size_t i) const override { return bounds_[i]; }

  double value() const override {
    double reg = 0;
    for (double wi : w_) reg += wi * wi;
    double loss = 0;
    for (const auto& row : rows_) loss += std::fabs(row.yc) * Loss::value(row.margin);
    return 0.5 * reg + loss;
  }

  std::vector<double> gradient() const override {
    std::vector<double> g(w_.size());
    for (std::size_t i = 0; i < w_.size(); ++i) g[i] = coord_derivs(i).d1;
    return g;
  }

  double gradient_norm_at_zero() const override {
    const double d1 = Loss::d1(0.0);
    double sum = 0;
    for (std::size_t i = 0; i < w_.size(); ++i) {
      double g = 0;
      for (auto k = begin(i); k < end(i); ++k) g += rows_[x_.row_idx[k]].yc * d1 * x_.values[k];
      sum += g * g;
    }
    return std::sqrt(sum);
  }

 private:
  std::size_t begin(std::size_t i) const { return static_cast<std::size_t>(x_.col_ptr[i]); }
  std::size_t end(std::size_t i) const { return static_cast<std::size_t>(x_.col_ptr[i + 1]); }

  // Equation (17): m_j += z y_j x_ji for the nonzeros of column i.
  void move_margins(std::size_t i, double z) {
    for (auto k = begin(i); k < end(i); ++k) {
      RowState& row = rows_[x_.row_idx[k]];
      row.margin += row.yc > 0 ? z * x_.values[k] : -z * x_.values[k];
    }
  }

  const CscMatrix& x_;
  std::vector<double> w_;
  std::vector<RowState> rows_;
  std::vector<double> bounds_;
};

}  // namespace

std::unique_ptr<CoordinateObjective> make_coordinate_objective(LossKind loss,
                                                               const Problem& problem) {
  switch (loss) {
    case LossKind::kL2Svm:
      return std::make_unique<MarginObjective<L2SvmLoss>>(problem);
    case LossKind::kL1Svm:
    case LossKind::kLogistic:
      break;
  }
  throw ConfigError("this loss is not available for coordinate descent yet");
}

}  // namespace cdl
