#include "objective/vector_objective.h"

#include <cassert>
#include <cmath>
#include <cstdint>

#include "objective/evaluate.h"
#include "objective/vector_math.h"
#include "util/error.h"

namespace cdl {
namespace {

template <class Loss>
class RowObjective final : public VectorObjective {
 public:
  RowObjective(const Problem& problem, const Regularizer& regularizer)
      : problem_(problem),
        regularizer_(regularizer),
        rows_(*problem.rows),
        margin_(problem.num_rows()),
        curvature_(problem.num_rows()) {
    assert(problem.rows != nullptr);
    gradient_norm_at_zero_ = norm2(cdl::gradient_at_zero<Loss>(problem));
  }

  std::size_t num_features() const override { return problem_.num_features(); }

  double evaluate(const std::vector<double>& w) override {
    assert(w.size() == num_features());
    w_ = w;
    active_.clear();
    for (std::size_t j = 0; j < margin_.size(); ++j) {
      const double m = problem_.y[j] * row_dot(rows_, j, w);
      margin_[j] = m;
      curvature_[j] = problem_.cost(j) * Loss::d2(m);
      if (curvature_[j] != 0) active_.push_back(static_cast<Index>(j));
    }
    evaluated_ = true;
    return objective_value<Loss>(problem_, regularizer_.value(w), margin_);
  }

  void gradient(std::vector<double>& g) const override {
    assert(evaluated_);
    g = w_;
    if (regularizer_.l2 != 1.0) {
      for (double& gi : g) gi *= regularizer_.l2;
    }
    for (std::size_t j = 0; j < margin_.size(); ++j) {
      const double scale = problem_.y[j] * problem_.cost(j) * Loss::d1(margin_[j]);
      if (scale != 0) add_row(rows_, j, scale, g);
    }
  }

  void hess_vec(const std::vector<double>& s, std::vector<double>& hs) const override {
    assert(evaluated_);
    hs = s;
    if (regularizer_.l2 != 1.0) {
      for (double& h : hs) h *= regularizer_.l2;
    }
    for (Index j : active_) add_row(rows_, j, curvature_[j] * row_dot(rows_, j, s), hs);
  }

  double gradient_norm_at_zero() const override { return gradient_norm_at_zero_; }

 private:
  const Problem& problem_;
  const Regularizer regularizer_;
  const CsrMatrix& rows_;
  std::vector<double> w_;
  std::vector<double> margin_;
  std::vector<double> curvature_;  // D_jj
  std::vector<Index> active_;      // rows with D_jj != 0
  double gradient_norm_at_zero_ = 0;
  bool evaluated_ = false;
};

}  // namespace

std::unique_ptr<VectorObjective> make_vector_objective(LossKind loss, const Problem& problem,
                                                       const Regularizer& regularizer) {
  if (problem.rows == nullptr) throw Error("the whole-vector objective needs the rows");
  if (!regularizer.smooth()) throw ConfigError("a Newton method needs a smooth regularizer");
  switch (loss) {
    case LossKind::kL2Svm:
      return std::make_unique<RowObjective<L2SvmLoss>>(problem, regularizer);
    case LossKind::kLogistic:
      return std::make_unique<RowObjective<LogisticLoss>>(problem, regularizer);
    case LossKind::kL1Svm:
      throw ConfigError("l1svm has no second derivative for a Newton method");
    case LossKind::kSquared:
    case LossKind::kSvrL2:
      break;
  }
  throw ConfigError("the whole-vector objective is for classification losses");
}

}  // namespace cdl
