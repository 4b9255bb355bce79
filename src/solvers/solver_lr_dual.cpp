// Dual coordinate descent for L2-regularized logistic regression
// (LIBLINEAR's -s 7).
//
// Problem: the primal min_w 1/2 w'w + sum_j C_j log(1 + exp(-y_j w'x_j)),
//   solved through its dual (Yu, Huang & Lin, "Dual coordinate descent
//   methods for logistic regression and maximum entropy models", Machine
//   Learning 85, 2011, its dual of logistic regression; the formulas are
//   written out in full; the algorithm numbers below are not checked
//   against the paper's text, and LIBLINEAR 2.50's source cites the
//   method as the paper's Algorithm 5):
//     min_alpha D(alpha) = 1/2 alpha' Q alpha
//                          + sum_j [alpha_j log alpha_j
//                                   + (C_j - alpha_j) log(C_j - alpha_j)
//                                   - C_j log C_j],
//     0 < alpha_j < C_j,  Q_jk = y_j y_k x_j'x_k,
//   with w = sum_j y_j alpha_j x_j and min P(w) = -min D(alpha). C_j is
//   Problem::cost(j); a row held out by cross-validation is never visited.
//
// Algorithm: the paper's Algorithm 3 (dual CD) with its Algorithm 4 (a
//   modified Newton method) on each one-variable sub-problem. For instance
//   i, with a = x_i'x_i, b = y_i w'x_i and c = C_i, the sub-problem in the
//   new value Z of alpha_i is
//     min_Z  a/2 (Z - alpha_i)^2 + b (Z - alpha_i) + Z log Z + (c - Z) log(c - Z),
//   whose derivative a (Z - alpha_i) + b + log(Z / (c - Z)) is increasing.
//   Its root lies in (0, c/2] when the derivative at c/2, a (c/2 - alpha_i)
//   + b, is >= 0; otherwise the same equation in c - Z (alpha_i -> c -
//   alpha_i, b -> -b) has its root there. Newton's method runs on that half,
//   where the derivative is concave, from min(current, c/2); a step that
//   would leave (0, c) multiplies Z by 0.1 instead (the paper's safeguard).
//   alpha_j and c - alpha_j are both kept, so neither loses precision near a
//   bound. Inner Newton stops at |derivative| <= innereps, starting at 0.01
//   and divided by 10 after every epoch whose Newton steps number at most
//   l/10, down to min(1e-8, eps); at most 100 steps per sub-problem. The
//   start is alpha_j = min(0.001 C_j, 1e-8). The order is a new random
//   permutation every epoch (--seed).
//
// Stopping rule: the largest |dD/dalpha_i| measured at the visits of an
//   epoch, before each step, is <= eps (default 0.1, LIBLINEAR 2.50's for
//   -s 7); also after --max-iter epochs.
//
// Cost: one visit is O(nonzeros of row i) for w'x_i, a few logs per Newton
//   step (independent of the row), and O(nonzeros of row i) to update w; an
//   epoch is O(#nz + l). f(w) for the progress lines is O(#nz + l + n) per
//   epoch, with the clock stopped, and skipped under -q without a trace.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <random>

#include "objective/evaluate.h"
#include "select/random.h"
#include "solvers/progress.h"
#include "solvers/solver.h"

namespace cdl {
namespace {

constexpr double kInitialShare = 1e-3;  // alpha_j starts at min(kInitialShare C_j, kInitialCap)
constexpr double kInitialCap = 1e-8;
constexpr double kSafeguard = 0.1;  // Algorithm 4's shrink of a step out of (0, c)
constexpr int kMaxNewtonSteps = 100;
constexpr double kFirstInnerEps = 1e-2;

// The root in (0, c/2] of a (Z - z0) + b + log(Z / (c - Z)), by Newton's
// method from min(z0, c/2); `steps` counts the Newton steps taken.
double solve_half(double a, double b, double c, double z0, double inner_eps, std::int64_t& steps) {
  double z = std::min(z0, 0.5 * c);
  for (int k = 0; k < kMaxNewtonSteps; ++k) {
    const double g = a * (z - z0) + b + std::log(z / (c - z));
    if (std::fabs(g) < inner_eps) break;
    ++steps;
    const double h = a + c / ((c - z) * z);
    const double next = z - g / h;
    z = next <= 0 ? kSafeguard * z : next;
  }
  return z;
}

}  // namespace

SolveResult solve_lr_dual(const SolverInput& input) {
  const Problem& problem = input.problem;
  const Params& params = input.params;
  std::optional<CsrMatrix> own_rows;
  const CsrMatrix& x = rows_of(problem, own_rows);
  const std::size_t l = x.num_rows;
  const double eps = params.eps.value();

  std::vector<double> w(x.num_cols, 0.0);
  std::vector<double> alpha(l, 0.0), rest(l, 0.0), qii(l, 0.0);  // rest = C_j - alpha_j
  std::vector<std::size_t> order;
  for (std::size_t j = 0; j < l; ++j) {
    const double c = problem.cost(j);
    if (c <= 0) continue;  // held out
    alpha[j] = std::min(kInitialShare * c, kInitialCap);
    rest[j] = c - alpha[j];
    qii[j] = row_squared_norm(x, j);
    add_row(x, j, problem.y[j] * alpha[j], w);
    order.push_back(j);
  }
  std::mt19937_64 rng(input.seed);
  const bool compute_f =
      input.reporter.level() != Reporter::Level::kQuiet || input.reporter.wants_w();
  const double inner_min = std::min(1e-8, eps);
  double inner_eps = kFirstInnerEps;

  SolveResult result;
  Progress progress(input.reporter);
  const std::int64_t max_iter = params.max_iter.value();
  result.status = Status::kMaxIter;
  std::int64_t iter = 0;
  while (iter < max_iter) {
    ++iter;
    shuffle(order, rng);
    double largest = 0;
    std::int64_t newton_steps = 0;
    for (const std::size_t i : order) {
      const double y = problem.y[i];
      const double c = alpha[i] + rest[i];
      const double a = qii[i];
      const double b = y * row_dot(x, i, w);
      largest = std::max(largest, std::fabs(b + std::log(alpha[i] / rest[i])));
      ++result.inner_iterations;
      double z;
      double z_rest;
      if (a * (0.5 * c - alpha[i]) + b >= 0) {
        z = solve_half(a, b, c, alpha[i], inner_eps, newton_steps);
        z_rest = c - z;
      } else {
        z_rest = solve_half(a, -b, c, rest[i], inner_eps, newton_steps);
        z = c - z_rest;
      }
      const double step = z - alpha[i];
      alpha[i] = z;
      rest[i] = z_rest;
      if (step != 0) {
        add_row(x, i, y * step, w);
        result.nnz_ops += x.row_ptr[i + 1] - x.row_ptr[i];
      }
    }
    if (newton_steps <= static_cast<std::int64_t>(order.size() / 10)) {
      inner_eps = std::max(inner_min, 0.1 * inner_eps);
    }
    progress.pause();
    result.grad_norm = largest;
    const double f = compute_f ? evaluate(problem, LossKind::kLogistic, w).objective
                               : std::numeric_limits<double>::quiet_NaN();
    progress.report(iter, f, largest, &w);
    if (largest <= eps) {
      result.status = Status::kConverged;
      break;
    }
  }
  result.iterations = iter;
  result.seconds = progress.seconds();
  result.objective = evaluate(problem, LossKind::kLogistic, w).objective;
  result.w = std::move(w);
  result.alpha = std::move(alpha);
  return result;
}

}  // namespace cdl
