#include "objective/intercept_gap.h"

#include <algorithm>
#include <cassert>
#include <utility>

#include "objective/evaluate.h"
#include "objective/vector_math.h"

namespace cdl {
namespace {

double clip(double value, double high) { return std::min(std::max(value, 0.0), high); }

// y'clip(alpha - theta y, 0, C) over the rows that count.
double shifted_balance(const Problem& problem, const std::vector<double>& alpha, double theta) {
  double sum = 0;
  for (std::size_t j = 0; j < alpha.size(); ++j) {
    const double c = problem.cost(j);
    if (c <= 0) continue;
    sum += problem.y[j] * clip(alpha[j] - theta * problem.y[j], c);
  }
  return sum;
}

}  // namespace

double project_to_dual_feasible(const Problem& problem, std::vector<double>& alpha) {
  assert(alpha.size() == problem.num_rows());
  // Breakpoints of theta -> y'alpha(theta): where each clipped term leaves
  // or reaches a bound.
  std::vector<double> breaks;
  breaks.reserve(2 * alpha.size());
  for (std::size_t j = 0; j < alpha.size(); ++j) {
    const double c = problem.cost(j);
    if (c <= 0) continue;
    const double y = problem.y[j];
    breaks.push_back(y * alpha[j]);
    breaks.push_back(y * (alpha[j] - c));
  }
  double theta = 0;
  if (!breaks.empty()) {
    std::sort(breaks.begin(), breaks.end());
    breaks.erase(std::unique(breaks.begin(), breaks.end()), breaks.end());
    // The first breakpoint at which the balance is <= 0 (there is one: at
    // the last, every term sits at its far bound, -sum of the negatives' C).
    std::size_t low = 0;
    std::size_t high = breaks.size() - 1;
    while (low < high) {
      const std::size_t mid = low + (high - low) / 2;
      if (shifted_balance(problem, alpha, breaks[mid]) <= 0) {
        high = mid;
      } else {
        low = mid + 1;
      }
    }
    theta = breaks[low];
    if (low > 0) {
      // Linear between breaks[low - 1] (balance > 0) and breaks[low].
      const double left = breaks[low - 1];
      const double f_left = shifted_balance(problem, alpha, left);
      const double f_right = shifted_balance(problem, alpha, theta);
      theta = left + (theta - left) * f_left / (f_left - f_right);
    }
  }
  for (std::size_t j = 0; j < alpha.size(); ++j) {
    alpha[j] = clip(alpha[j] - theta * problem.y[j], problem.cost(j));
  }
  return theta;
}

std::vector<double> weights_of(const Problem& problem, const std::vector<double>& alpha) {
  std::vector<double> u(alpha.size());
  for (std::size_t j = 0; j < u.size(); ++j) u[j] = alpha[j] * problem.y[j];
  std::vector<double> w(problem.num_features(), 0.0);
  add_transpose_product(problem, u, w);
  return w;
}

double best_intercept(const Problem& problem, const std::vector<double>& scores) {
  // Term j, C_j max(0, 1 - y_j (s_j + w0)), bends at w0 = y_j - s_j: a
  // positive term's slope goes from -C_j to 0 there, a negative one's from 0
  // to +C_j. Walk the breakpoints from the left with the total slope.
  std::vector<std::pair<double, double>> breaks;  // (w0, C_j)
  double slope = 0;
  for (std::size_t j = 0; j < scores.size(); ++j) {
    const double c = problem.cost(j);
    if (c <= 0) continue;
    breaks.emplace_back(problem.y[j] - scores[j], c);
    if (problem.y[j] > 0) slope -= c;
  }
  if (breaks.empty()) return 0.0;
  std::sort(breaks.begin(), breaks.end());
  if (slope >= 0) return breaks.front().first;  // no positive term: flat, then rising
  for (std::size_t k = 0; k < breaks.size(); ++k) {
    slope += breaks[k].second;
    if (k + 1 < breaks.size() && breaks[k + 1].first == breaks[k].first) continue;
    if (slope > 0) return breaks[k].first;
    if (slope == 0) {  // flat up to the next breakpoint: its midpoint
      return k + 1 < breaks.size() ? 0.5 * (breaks[k].first + breaks[k + 1].first)
                                   : breaks[k].first;
    }
  }
  return breaks.back().first;
}

double intercept_primal(const Problem& problem, const std::vector<double>& w_and_intercept) {
  const std::size_t n = problem.num_features();
  assert(w_and_intercept.size() == n + 1);
  const double w0 = w_and_intercept[n];
  const std::vector<double> scores = decision_values(problem, w_and_intercept);
  double f = 0;
  for (std::size_t i = 0; i < n; ++i) f += w_and_intercept[i] * w_and_intercept[i];
  f *= 0.5;
  for (std::size_t j = 0; j < scores.size(); ++j) {
    f += problem.cost(j) * std::max(0.0, 1.0 - problem.y[j] * (scores[j] + w0));
  }
  return f;
}

double intercept_dual(const Problem& problem, const std::vector<double>& alpha) {
  const std::vector<double> w = weights_of(problem, alpha);
  double sum = 0;
  for (double a : alpha) sum += a;
  return sum - 0.5 * dot(w, w);
}

double intercept_subgradient_norm(const Problem& problem,
                                  const std::vector<double>& w_and_intercept) {
  const std::size_t n = problem.num_features();
  assert(w_and_intercept.size() == n + 1);
  const double w0 = w_and_intercept[n];
  const std::vector<double> scores = decision_values(problem, w_and_intercept);
  // slope_j = C_j loss'(m_j) y_j with loss' = -1 for m < 1.
  std::vector<double> slope(scores.size(), 0.0);
  double g0 = 0;
  for (std::size_t j = 0; j < scores.size(); ++j) {
    if (problem.y[j] * (scores[j] + w0) < 1) slope[j] = -problem.cost(j) * problem.y[j];
    g0 += slope[j];
  }
  std::vector<double> g(w_and_intercept.begin(), w_and_intercept.end() - 1);
  add_transpose_product(problem, slope, g);
  g.push_back(g0);
  return norm2(g);
}

InterceptGap post_process(const Problem& problem, std::vector<double> alpha) {
  project_to_dual_feasible(problem, alpha);
  InterceptGap out;
  out.w = weights_of(problem, alpha);
  const double half_norm2 = 0.5 * dot(out.w, out.w);
  std::vector<double> scores = decision_values(problem, out.w);
  const double w0 = best_intercept(problem, scores);
  out.w.push_back(w0);
  double loss = 0;
  double alpha_sum = 0;
  for (std::size_t j = 0; j < scores.size(); ++j) {
    loss += problem.cost(j) * std::max(0.0, 1.0 - problem.y[j] * (scores[j] + w0));
    alpha_sum += alpha[j];
  }
  out.primal = half_norm2 + loss;
  out.dual = alpha_sum - half_norm2;
  out.gap = out.primal - out.dual;
  return out;
}

}  // namespace cdl
