// CMLS: coordinate descent with a per-coordinate trust region for L2-SVM.
//
// Problem: min_w f(w) = 1/2 w'w + sum_j C_j max(0, 1 - y_j w'x_j)^2 (paper,
//   equation 3).
//
// Algorithm: Zhang & Oles (2001), as given in Chang, Hsieh & Lin (2008),
//   Section 4.3, Algorithm 6. In outer iteration k (from 0) each coordinate i
//   in turn (cyclic for CMLS, a new permutation every outer iteration for
//   CMLSPER, Section 6.1):
//   - works on the smoothed loss b_j^2 with b_j = 1 - m_j where 1 - m_j > 0
//     and c_k (1 - m_j) elsewhere, c_k = max(0, 1 - k/50) (30), so that
//     its derivative at z = 0 is D'_i = w_i - 2 sum_j C_j y_j x_ji b_j s_j
//     with s_j = 1 on active and c_k on inactive instances;
//   - bounds the second derivative on |z| <= Delta_i by
//     U_i = 1 + sum_j beta_j, beta_j = 2 C_j x_ji^2 if y_j w'x_j <=
//     1 + |Delta_i x_ji| (the instance can be active in the region) and
//     2 C_j c_k^2 x_ji^2 otherwise. The paper writes beta_j = 2C; the factor
//     x_ji^2 is that of the generalized second derivative (10), and the c_k^2
//     term keeps U_i a bound of the smoothed function while c_k > 0;
//   - steps z = min(max(-D'_i / U_i, -Delta_i), Delta_i) (28) and sets
//     Delta_i = 2|z| + epsilon (29), starting from Delta_i = 10.
//
// Stopping rule: the true D'_i(0) (of f, not of the smoothed function) is
//   kept for every coordinate as in CD; once c_k = 0, stop when its norm is
//   at most eps ||grad f(0)||, or after max_iter outer iterations. f does not
//   increase from one outer iteration to the next once c_k = 0 (Zhang & Oles).
//
// Cost: one outer iteration is O(#nz): one pass over each column for D'_i
//   and U_i, one to move the margins.
#include <cmath>
#include <cstdint>

#include "objective/evaluate.h"
#include "objective/vector_math.h"
#include "solvers/progress.h"
#include "solvers/solver.h"

namespace cdl {
namespace {

constexpr double kInitialRadius = 10.0;  // Delta^{0,i}
constexpr double kRadiusFloor = 1e-4;    // epsilon of (29)
constexpr double kSmoothingIterations = 50.0;

}  // namespace

SolveResult solve_cmls(const Problem& problem, std::vector<double> w, SelectionRule& rule,
                       const Params& params, Reporter& reporter) {
  const CscMatrix& x = problem.x();
  const std::size_t n = problem.num_features();
  const double eps = params.eps.value();
  const std::int64_t max_iter = params.max_iter.value();

  std::vector<double> margin(problem.num_rows(), 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    if (w[i] == 0) continue;
    for (auto k = x.col_ptr[i]; k < x.col_ptr[i + 1]; ++k) {
      const auto t = static_cast<std::size_t>(k);
      margin[x.row_idx[t]] += w[i] * problem.y[x.row_idx[t]] * x.values[t];
    }
  }
  std::vector<double> radius(n, kInitialRadius);
  // grad f(0)_i = -2 sum_j C_j y_j x_ji, the first stored derivatives.
  std::vector<double> last_d1 = gradient_at_zero<L2SvmLoss>(problem);
  const double zero_norm = norm2(last_d1);
  const Regularizer regularizer = Regularizer::of(params.regularizer);
  const auto value = [&] {
    return objective_value<L2SvmLoss>(problem, regularizer.value(w), margin);
  };

  SolveResult result;
  result.status = Status::kMaxIter;
  const bool feedback = rule.wants_feedback();
  Progress progress(reporter);
  while (result.iterations < max_iter) {
    const double smoothing =
        std::max(0.0, 1.0 - static_cast<double>(result.iterations) / kSmoothingIterations);
    const double smoothing2 = smoothing * smoothing;
    double visited_d1_squares = 0;  // for the test over an active set
    rule.start_epoch();
    for (std::size_t i = rule.next(); i != SelectionRule::kNone; i = rule.next()) {
      double d1 = w[i];
      double true_d1 = w[i];
      double bound = 1.0;
      for (auto k = x.col_ptr[i]; k < x.col_ptr[i + 1]; ++k) {
        const auto t = static_cast<std::size_t>(k);
        const std::size_t j = x.row_idx[t];
        const double v = x.values[t];
        const double c = problem.cost(j);
        const double r = 1.0 - margin[j];
        const double slope = -2.0 * c * problem.y[j] * v * r;
        if (r > 0) {
          d1 += slope;
          true_d1 += slope;
        } else {
          d1 += smoothing2 * slope;
        }
        const bool reachable = margin[j] <= 1.0 + std::fabs(radius[i] * v);
        bound += 2.0 * c * v * v * (reachable ? 1.0 : smoothing2);
      }
      last_d1[i] = true_d1;
      visited_d1_squares += true_d1 * true_d1;
      ++result.inner_iterations;
      const double z = std::min(std::max(-d1 / bound, -radius[i]), radius[i]);
      radius[i] = 2.0 * std::fabs(z) + kRadiusFloor;
      // The rule hears f's derivative and CMLS's curvature bound U_i.
      if (feedback) rule.feedback({i, true_d1, bound, z});
      if (z == 0) continue;
      w[i] += z;
      for (auto k = x.col_ptr[i]; k < x.col_ptr[i + 1]; ++k) {
        const auto t = static_cast<std::size_t>(k);
        const std::size_t j = x.row_idx[t];
        margin[j] += z * problem.y[j] * x.values[t];
      }
    }
    ++result.iterations;
    result.grad_norm = rule.inactive_count() > 0 ? std::sqrt(visited_d1_squares) : norm2(last_d1);
    progress.pause();
    progress.report(result.iterations, value(), result.grad_norm, &w);
    if (smoothing == 0 && result.grad_norm <= eps * zero_norm && !rule.restore_active_set()) {
      result.status = Status::kConverged;
      break;
    }
  }
  result.objective = value();
  result.seconds = progress.seconds();
  result.w = std::move(w);
  return result;
}

SolveResult solve_cmls(const SolverInput& input) {
  auto rule = make_selection_rule(input);
  return solve_cmls(input.problem, starting_w(input), *rule, input.params, input.reporter);
}

}  // namespace cdl
