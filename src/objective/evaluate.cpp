#include "objective/evaluate.h"

#include <algorithm>
#include <cmath>

#include "objective/vector_math.h"
#include "util/error.h"

namespace cdl {
namespace {

// Calls body(Loss{}) with the margin loss of `loss`.
template <class Body>
auto with_margin_loss(LossKind loss, Body body) {
  switch (loss) {
    case LossKind::kL2Svm:
      return body(L2SvmLoss{});
    case LossKind::kL1Svm:
      return body(L1SvmLoss{});
    case LossKind::kLogistic:
      return body(LogisticLoss{});
    default:  // the other losses, of no margin or vector form here
      break;
  }
  throw Error("this evaluation is for the margin losses");
}

}  // namespace

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

std::vector<double> decision_values(const CsrMatrix& x, const std::vector<double>& w,
                                    unsigned threads) {
  std::vector<double> out(x.num_rows, 0.0);
  run_in_blocks_or_throw(x.num_rows, threads, [&](std::size_t j) {
    double sum = 0;
    for (auto k = x.row_ptr[j]; k < x.row_ptr[j + 1]; ++k) {
      const auto t = static_cast<std::size_t>(k);
      const std::size_t i = x.col_idx[t];
      if (i < w.size() && w[i] != 0) sum += w[i] * x.values[t];
    }
    out[j] = sum;
  });
  return out;
}

std::vector<double> decision_values(const Problem& problem, const std::vector<double>& w,
                                    unsigned threads) {
  return problem.has_columns() ? decision_values(problem.x(), w)
                               : decision_values(*problem.rows, w, threads);
}

void add_transpose_product(const Problem& problem, const std::vector<double>& u,
                           std::vector<double>& out) {
  if (problem.has_columns()) {
    const CscMatrix& x = problem.x();
    const std::size_t columns = std::min(x.num_cols, out.size());
    for (std::size_t i = 0; i < columns; ++i) {
      double sum = out[i];
      for (auto k = x.col_ptr[i]; k < x.col_ptr[i + 1]; ++k) {
        const auto t = static_cast<std::size_t>(k);
        sum += u[x.row_idx[t]] * x.values[t];
      }
      out[i] = sum;
    }
    return;
  }
  const CsrMatrix& x = *problem.rows;
  for (std::size_t j = 0; j < x.num_rows; ++j) {
    for (auto k = x.row_ptr[j]; k < x.row_ptr[j + 1]; ++k) {
      const auto t = static_cast<std::size_t>(k);
      const std::size_t i = x.col_idx[t];
      if (i < out.size()) out[i] += u[j] * x.values[t];
    }
  }
}

std::vector<double> margins(const Problem& problem, const std::vector<double>& w,
                            unsigned threads) {
  std::vector<double> out = decision_values(problem, w, threads);
  for (std::size_t j = 0; j < out.size(); ++j) out[j] *= problem.y[j];
  return out;
}

double objective_value(const Problem& problem, LossKind loss, const Regularizer& regularizer,
                       const std::vector<double>& w, const std::vector<double>& margin) {
  return with_margin_loss(loss, [&](auto l) {
    return objective_value<decltype(l)>(problem, regularizer.value(w), margin);
  });
}

std::vector<double> gradient_at_zero(const Problem& problem, LossKind loss) {
  return with_margin_loss(loss, [&](auto l) { return gradient_at_zero<decltype(l)>(problem); });
}

namespace {

// evaluate() for a regression loss: the same sums over scores w'x_j.
template <class Loss>
Evaluation evaluate_regression(const Problem& problem, const Loss& loss,
                               const std::vector<double>& w, const Regularizer& regularizer) {
  std::vector<double> slope = decision_values(problem, w);  // becomes C_j loss'(s_j, y_j)
  double f = regularizer.value(w);
  for (std::size_t j = 0; j < slope.size(); ++j) {
    f += problem.cost(j) * loss.value(slope[j], problem.y[j]);
    slope[j] = problem.cost(j) * loss.d1(slope[j], problem.y[j]);
  }
  std::vector<double> g(problem.num_features(), 0.0);
  for (std::size_t i = 0; i < std::min(g.size(), w.size()); ++i) g[i] = w[i] * regularizer.l2;
  add_transpose_product(problem, slope, g);
  for (std::size_t i = 0; i < g.size(); ++i) {
    g[i] = regularizer.min_norm_subgradient(i < w.size() ? w[i] : 0.0, g[i]);
  }
  return Evaluation{f, norm2(g)};
}

// body(loss) with the regression loss `kind` (tube width svr_epsilon).
template <class Body>
auto with_regression_loss(LossKind kind, double svr_epsilon, Body body) {
  if (kind == LossKind::kSvrL2) {
    SvrL2Loss svr;
    svr.epsilon = svr_epsilon;
    return body(svr);
  }
  if (kind == LossKind::kSvrL1) {
    SvrL1Loss svr;
    svr.epsilon = svr_epsilon;
    return body(svr);
  }
  return body(SquaredLoss{});
}

}  // namespace

Evaluation evaluate(const Problem& problem, LossKind loss, const std::vector<double>& w,
                    const Regularizer& regularizer, double svr_epsilon) {
  if (!has_classes(loss)) {
    return with_regression_loss(loss, svr_epsilon, [&](const auto& regression) {
      return evaluate_regression(problem, regression, w, regularizer);
    });
  }
  return with_margin_loss(loss, [&](auto l) {
    using Loss = decltype(l);
    std::vector<double> slope = margins(problem, w);  // becomes C_j loss'(m_j) y_j
    const double f = objective_value<Loss>(problem, regularizer.value(w), slope);
    for (std::size_t j = 0; j < slope.size(); ++j) {
      slope[j] = problem.cost(j) * Loss::d1(slope[j]) * problem.y[j];
    }
    // g = l2 w + the loss part, then the L1 part's least subgradient.
    std::vector<double> g(problem.num_features(), 0.0);
    for (std::size_t i = 0; i < std::min(g.size(), w.size()); ++i) g[i] = w[i] * regularizer.l2;
    add_transpose_product(problem, slope, g);
    for (std::size_t i = 0; i < g.size(); ++i) {
      g[i] = regularizer.min_norm_subgradient(i < w.size() ? w[i] : 0.0, g[i]);
    }
    return Evaluation{f, norm2(g)};
  });
}

double regression_objective(const Problem& problem, LossKind loss, const std::vector<double>& w,
                            const Regularizer& regularizer, double svr_epsilon, unsigned threads) {
  return with_regression_loss(loss, svr_epsilon, [&](const auto& regression) {
    const std::vector<double> scores = decision_values(problem, w, threads);
    double f = regularizer.value(w);
    for (std::size_t j = 0; j < scores.size(); ++j) {
      f += problem.cost(j) * regression.value(scores[j], problem.y[j]);
    }
    return f;
  });
}

double lasso_duality_gap(const Problem& problem, const std::vector<double>& w) {
  const CscMatrix& x = problem.x();
  std::vector<double> slope = decision_values(x, w);  // becomes 2 C_j (w'x_j - y_j)
  double bound = 0;
  for (std::size_t j = 0; j < slope.size(); ++j) {
    bound += problem.cost(j) * problem.y[j] * problem.y[j];
    slope[j] = 2.0 * problem.cost(j) * (slope[j] - problem.y[j]);
  }
  double gap = 0;
  for (std::size_t i = 0; i < x.num_cols; ++i) {
    double g = 0;
    for (auto k = x.col_ptr[i]; k < x.col_ptr[i + 1]; ++k) {
      const auto t = static_cast<std::size_t>(k);
      g += slope[x.row_idx[t]] * x.values[t];
    }
    const double wi = i < w.size() ? w[i] : 0.0;
    gap += bound * std::max(std::fabs(g) - 1.0, 0.0) + std::fabs(wi) + wi * g;
  }
  return gap;
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

double curvature_bound(const Problem& problem, const Regularizer& regularizer, double max_d2,
                       std::size_t i) {
  const CscMatrix& x = problem.x();
  double curvature = 0;
  for (auto k = static_cast<std::size_t>(x.col_ptr[i]);
       k < static_cast<std::size_t>(x.col_ptr[i + 1]); ++k) {
    const double v = x.values[k];
    curvature += problem.cost(x.row_idx[k]) * v * v;
  }
  return require_finite_bound(regularizer.at(i).curvature(max_d2 * curvature), i);
}

double require_finite_bound(double bound, std::size_t i) {
  if (!std::isfinite(bound)) {
    throw Error("feature " + std::to_string(i + 1) +
                " has values too large to train on (their squares overflow); scale the data");
  }
  return bound;
}

std::vector<double> curvature_bounds(const Problem& problem, const Regularizer& regularizer,
                                     double max_d2) {
  std::vector<double> bounds(problem.x().num_cols);
  for (std::size_t i = 0; i < bounds.size(); ++i) {
    bounds[i] = curvature_bound(problem, regularizer, max_d2, i);
  }
  return bounds;
}

std::size_t longest_column(const CscMatrix& x) {
  std::int64_t longest = 0;
  for (std::size_t i = 0; i < x.num_cols; ++i)
    longest = std::max(longest, x.col_ptr[i + 1] - x.col_ptr[i]);
  return static_cast<std::size_t>(longest);
}

}  // namespace cdl
