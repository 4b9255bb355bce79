#include "objective/vector_objective.h"

#include <cassert>
#include <cmath>
#include <cstdint>

#include "objective/vector_math.h"
#include "util/error.h"

namespace cdl {
namespace {

template <class Loss>
class RowObjective final : public VectorObjective {
 public:
  explicit RowObjective(const Problem& problem)
      : problem_(problem),
        rows_(*problem.rows),
        margin_(problem.num_rows()),
        curvature_(problem.num_rows()) {
    assert(problem.rows != nullptr);
    std::vector<double> g(num_features(), 0.0);
    const double d1 = Loss::d1(0.0);
    for (std::size_t j = 0; j < margin_.size(); ++j) {
      add_row(rows_, j, problem_.y[j] * problem_.cost(j) * d1, g);
    }
    gradient_norm_at_zero_ = norm2(g);
  }

  std::size_t num_features() const override { return problem_.num_features(); }

  double evaluate(const std::vector<double>& w) override {
    assert(w.size() == num_features());
    w_ = w;
    double f = 0;
    for (double wi : w) f += 0.5 * wi * wi;
    active_.clear();
    for (std::size_t j = 0; j < margin_.size(); ++j) {
      const double m = problem_.y[j] * row_dot(rows_, j, w);
      margin_[j] = m;
      const double c = problem_.cost(j);
      f += c * Loss::value(m);
      curvature_[j] = c * Loss::d2(m);
      if (curvature_[j] != 0) active_.push_back(static_cast<Index>(j));
    }
    evaluated_ = true;
    return f;
  }

  void gradient(std::vector<double>& g) const override {
    assert(evaluated_);
    g = w_;
    for (std::size_t j = 0; j < margin_.size(); ++j) {
      const double scale = problem_.y[j] * problem_.cost(j) * Loss::d1(margin_[j]);
      if (scale != 0) add_row(rows_, j, scale, g);
    }
  }

  void hess_vec(const std::vector<double>& s, std::vector<double>& hs) const override {
    assert(evaluated_);
    hs = s;
    for (Index j : active_) add_row(rows_, j, curvature_[j] * row_dot(rows_, j, s), hs);
  }

  double gradient_norm_at_zero() const override { return gradient_norm_at_zero_; }

 private:
  const Problem& problem_;
  const CsrMatrix& rows_;
  std::vector<double> w_;
  std::vector<double> margin_;
  std::vector<double> curvature_;  // D_jj
  std::vector<Index> active_;      // rows with D_jj != 0
  double gradient_norm_at_zero_ = 0;
  bool evaluated_ = false;
};

}  // namespace

std::unique_ptr<VectorObjective> make_vector_objective(LossKind loss, const Problem& problem) {
  if (problem.rows == nullptr) throw Error("the whole-vector objective needs the rows");
  switch (loss) {
    case LossKind::kL2Svm:
      return std::make_unique<RowObjective<L2SvmLoss>>(problem);
    case LossKind::kLogistic:
      return std::make_unique<RowObjective<LogisticLoss>>(problem);
    case LossKind::kL1Svm:
      break;
  }
  throw ConfigError("l1svm has no second derivative for a Newton method");
}

}  // namespace cdl
