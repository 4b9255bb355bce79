#include "objective/evaluate.h"

#include <algorithm>

#include "objective/vector_math.h"

namespace cdl {
namespace {

// w'x_j for every row, by scattering the columns; columns beyond w count 0.
std::vector<double> decision_values(const CscMatrix& x, const std::vector<double>& w) {
  std::vector<double> out(x.num_rows, 0.0);
  const std::size_t columns = std::min(x.num_cols, w.size());
  for (std::size_t i = 0; i < columns; ++i) {
    if (w[i] == 0) continue;
    for (auto k = x.col_ptr[i]; k < x.col_ptr[i + 1]; ++k) {
      const auto t = static_cast<std::size_t>(k);
      out[x.row_idx[t]] += w[i] * x.values[t];
    }
  }
  return out;
}

template <class Loss>
Evaluation evaluate_with(const Problem& problem, const std::vector<double>& w) {
  const CscMatrix& x = problem.x;
  std::vector<double> slope = decision_values(x, w);  // becomes C_j loss'(m_j) y_j
  double f = 0.5 * dot(w, w);
  for (std::size_t j = 0; j < slope.size(); ++j) {
    const double m = problem.y[j] * slope[j];
    const double c = problem.cost(j);
    f += c * Loss::value(m);
    slope[j] = c * Loss::d1(m) * problem.y[j];
  }
  std::vector<double> g = w;
  for (std::size_t i = 0; i < x.num_cols; ++i) {
    for (auto k = x.col_ptr[i]; k < x.col_ptr[i + 1]; ++k) {
      const auto t = static_cast<std::size_t>(k);
      g[i] += slope[x.row_idx[t]] * x.values[t];
    }
  }
  return {f, norm2(g)};
}

}  // namespace

Evaluation evaluate(const Problem& problem, LossKind loss, const std::vector<double>& w) {
  switch (loss) {
    case LossKind::kL2Svm:
      return evaluate_with<L2SvmLoss>(problem, w);
    case LossKind::kL1Svm:
      return evaluate_with<L1SvmLoss>(problem, w);
    case LossKind::kLogistic:
      return evaluate_with<LogisticLoss>(problem, w);
  }
  return {0, 0};
}

double accuracy(const CscMatrix& x, const std::vector<double>& y, const std::vector<double>& w) {
  const std::vector<double> decision = decision_values(x, w);
  std::size_t correct = 0;
  for (std::size_t j = 0; j < decision.size(); ++j) {
    correct += (decision[j] > 0 ? 1.0 : -1.0) == y[j];
  }
  return decision.empty() ? 0.0
                          : static_cast<double>(correct) / static_cast<double>(decision.size());
}

}  // namespace cdl
