#include "objective/dual_gap.h"

#include <cassert>

#include "objective/evaluate.h"
#include "util/error.h"

namespace cdl {
namespace {

void check_loss(LossKind loss) {
  if (!has_svm_dual(loss)) {
    throw Error("the duality gap is defined for l1svm and l2svm only");
  }
}

}  // namespace

bool has_svm_dual(LossKind loss) { return loss == LossKind::kL1Svm || loss == LossKind::kL2Svm; }

double coordinate_gap(LossKind loss, double C, double alpha, double margin) {
  const double slack = 1.0 - margin;
  const double hinge = positive_part(slack);
  if (loss == LossKind::kL1Svm) return C * hinge - alpha * slack;
  return C * hinge * hinge - alpha * slack + alpha * alpha / (4.0 * C);
}

std::vector<double> coordinate_gaps(const Problem& problem, LossKind loss,
                                    const std::vector<double>& alpha,
                                    const std::vector<double>& margin) {
  check_loss(loss);
  assert(alpha.size() == problem.num_rows() && margin.size() == problem.num_rows());
  std::vector<double> out(alpha.size(), 0.0);
  for (std::size_t j = 0; j < alpha.size(); ++j) {
    const double C = problem.cost(j);
    if (C > 0) out[j] = coordinate_gap(loss, C, alpha[j], margin[j]);
  }
  return out;
}

double dual_objective(const Problem& problem, LossKind loss, const std::vector<double>& alpha,
                      const std::vector<double>& w) {
  check_loss(loss);
  assert(alpha.size() == problem.num_rows());
  double linear = 0;    // sum_j alpha_j
  double diagonal = 0;  // 1/2 sum_j D_jj alpha_j^2
  for (std::size_t j = 0; j < alpha.size(); ++j) {
    const double C = problem.cost(j);
    if (C == 0) continue;
    linear += alpha[j];
    if (loss == LossKind::kL2Svm) diagonal += alpha[j] * alpha[j] / (4.0 * C);
  }
  double w_squares = 0;
  for (double v : w) w_squares += v * v;
  return linear - 0.5 * w_squares - diagonal;
}

DualGap duality_gap(const Problem& problem, LossKind loss, const std::vector<double>& alpha,
                    const std::vector<double>& w, unsigned threads) {
  check_loss(loss);
  const std::vector<double> margin = margins(problem, w, threads);
  DualGap out{};
  out.primal = objective_value(problem, loss, Regularizer::l2_only(), w, margin);
  out.dual = dual_objective(problem, loss, alpha, w);
  double gap = 0;
  for (double g : coordinate_gaps(problem, loss, alpha, margin)) gap += g;
  out.gap = gap;
  return out;
}

}  // namespace cdl
