// The one-class SVM by dual coordinate descent on pairs of variables
// (LIBLINEAR 2.50's -s 21, ONECLASS_SVM).
//
// Problem: Schoelkopf et al.'s linear one-class SVM in LIBLINEAR 2.50's
//   scaling (its linear.cpp states the dual; the primal is its Lagrange dual,
//   worked out here): the primal
//     min_{w, rho} P(w, rho) = 1/2 w'w - nu l rho + sum_j max(0, rho - w'x_j),
//   and its dual
//     min_alpha D(alpha) = 1/2 alpha'Q alpha,  Q_jk = x_j'x_k,
//     0 <= alpha_j <= 1,  sum_j alpha_j = nu l,
//   with w = sum_j alpha_j x_j and P* = -D*. The decision value is
//   w'x - rho: +1 (typical) if positive, -1 (outlier) otherwise. l counts
//   the rows that count (a row held out by cross-validation is left out);
//   the labels and C play no part.
//   Instance weights s_j (-W) replace the box's 1 by s_j and nu l by
//   nu sum_j s_j: 0 <= alpha_j <= s_j, sum_j alpha_j = nu sum_j s_j. Row j
//   repeated s_j times has s_j variables in [0, 1] that enter D only
//   through their sum, so an integer s_j trains the problem of the repeated
//   rows (the same w and D*), as -W means for the rows with a C; s_j = 0
//   leaves the row out. Without -W every s_j is 1: LIBLINEAR 2.50's problem.
//
// Algorithm: the dual's gradient is G = Q alpha, G_j = w'x_j. Its KKT
//   conditions ask for a rho with G_j <= rho where alpha_j = s_j, G_j >= rho
//   where alpha_j = 0 and G_j = rho in between, i.e. (the maximal violating
//   pair of Keerthi et al. 2001, as LIBSVM uses it)
//     m = max {-G_j : alpha_j < s_j} - min {-G_j : alpha_j > 0} <= 0.
//   The start is feasible: the first rows at their bound s_j (1 without
//   -W) until the next takes the rest of nu sum_j s_j, as LIBLINEAR 2.50
//   starts. An outer iteration computes G on the active rows, shrinks the
//   rows that cannot move now (alpha_j = s_j with -G_j above the first max,
//   alpha_j = 0 with -G_j below the second min),
//   and pairs the k = max(active/10, 1) most violating rows of each side:
//   the k largest -G_j with alpha_j < s_j with the k smallest with alpha_j > 0,
//   in order (the two-level CD of Chou et al., SDM 2020, its supplement's
//   Algorithm 7, the number LIBLINEAR 2.50's source gives; not checked
//   against the paper's text). Each pair (u, d) that still violates with fresh
//   gradients moves t from alpha_d to alpha_u, which keeps the sum: the
//   sub-problem min_t t (G_u - G_d) + t^2/2 (Q_uu + Q_dd - 2 Q_ud) gives
//   t = (G_d - G_u) / (Q_uu + Q_dd - 2 Q_ud), clipped to
//   min(s_u - alpha_u, alpha_d) (a variable that reaches its bound is set
//   to it exactly); then w += t (x_u - x_d). Ties in the selection go to the
//   lower row, so the model is the same on every run.
//   rho at the end, from the KKT conditions: the mean of G_j over the free
//   alpha_j (0 < alpha_j < s_j) if any, else the midpoint of max{G_j :
//   alpha_j = s_j} and min{G_j : alpha_j = 0}, or the one of the two that
//   exists (every rho beyond it is optimal then).
//
// Stopping rule: m <= eps on the active rows (default eps 0.01, LIBLINEAR
//   2.50's for -s 21); when rows are shrunk, all are restored and the test
//   is made again on all of them, so the solver stops only when m <= eps
//   over every row. Also after --max-iter outer iterations.
//
// Cost per outer iteration: O(nonzeros of the active rows) for G, O(active)
//   for the selection (nth_element) plus O(k log k) to order the k pairs,
//   and O(nonzeros of both rows) per pair for the fresh gradients, Q_ud and
//   the update of w. D(alpha) = 1/2 w'w for the progress lines is O(n).
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>

#include "solvers/progress.h"
#include "solvers/solver.h"

namespace cdl {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
// A pair whose gradients differ by less than this is not moved, and a
// curvature below it is raised to it (x_u = x_d).
constexpr double kTiny = 1e-12;

// A row and its -G_j, ordered by -G_j and then by row, so that the
// selection does not depend on how the standard library breaks ties.
using Score = std::pair<double, std::size_t>;

// The k largest scores of `up`, largest first, and the k smallest of `down`,
// smallest first.
void top_pairs(std::vector<Score>& up, std::vector<Score>& down, std::size_t k) {
  const auto larger = [](const Score& a, const Score& b) {
    return a.first > b.first || (a.first == b.first && a.second < b.second);
  };
  const auto smaller = [](const Score& a, const Score& b) {
    return a.first < b.first || (a.first == b.first && a.second < b.second);
  };
  std::nth_element(up.begin(), up.begin() + static_cast<std::ptrdiff_t>(k - 1), up.end(), larger);
  std::sort(up.begin(), up.begin() + static_cast<std::ptrdiff_t>(k), larger);
  std::nth_element(down.begin(), down.begin() + static_cast<std::ptrdiff_t>(k - 1), down.end(),
                   smaller);
  std::sort(down.begin(), down.begin() + static_cast<std::ptrdiff_t>(k), smaller);
}

// rho from the KKT conditions at the end (the header's rule).
double offset(const std::vector<double>& alpha, const std::vector<double>& bound,
              const std::vector<double>& gradient, const std::vector<std::size_t>& rows) {
  double lower = -kInfinity, upper = kInfinity, free_sum = 0;
  std::size_t free = 0;
  for (const std::size_t j : rows) {
    if (alpha[j] >= bound[j]) {
      lower = std::max(lower, gradient[j]);
    } else if (alpha[j] <= 0) {
      upper = std::min(upper, gradient[j]);
    } else {
      free_sum += gradient[j];
      ++free;
    }
  }
  if (free > 0) return free_sum / static_cast<double>(free);
  if (lower == -kInfinity) return upper;
  if (upper == kInfinity) return lower;
  return 0.5 * (lower + upper);
}

double half_squared_norm(const std::vector<double>& w) {
  double sum = 0;
  for (double v : w) sum += v * v;
  return 0.5 * sum;
}

}  // namespace

SolveResult solve_oneclass(const SolverInput& input) {
  const Problem& problem = input.problem;
  const Params& params = input.params;
  std::optional<CsrMatrix> own_rows;
  const CsrMatrix& x = rows_of(problem, own_rows);
  const double eps = params.eps.value();
  const double nu = params.nu.value_or(kDefaultNu);

  std::vector<std::size_t> rows;               // the rows that count
  std::vector<double> upper(x.num_rows, 0.0);  // s_j, the bound of alpha_j
  double weight_sum = 0;
  for (std::size_t j = 0; j < x.num_rows; ++j) {
    if (problem.cost(j) > 0) {
      rows.push_back(j);
      upper[j] = problem.weight(j);
      weight_sum += upper[j];
    }
  }
  // Without -W: the first floor(nu l) rows at 1 and the next at the rest.
  double remaining = nu * weight_sum;
  std::vector<double> alpha(x.num_rows, 0.0), gradient(x.num_rows, 0.0), norm2(x.num_rows, 0.0);
  std::vector<double> w(x.num_cols, 0.0);
  for (const std::size_t j : rows) {
    alpha[j] = std::min(upper[j], std::max(remaining, 0.0));
    remaining -= alpha[j];
    norm2[j] = row_squared_norm(x, j);
    if (alpha[j] != 0) add_row(x, j, alpha[j], w);
  }

  SolveResult result;
  Progress progress(input.reporter);
  const std::int64_t max_iter = params.max_iter.value();
  result.status = Status::kMaxIter;
  std::vector<std::size_t> active = rows;
  std::vector<Score> up, down;
  std::int64_t iter = 0;
  while (iter < max_iter) {
    double up_max = -kInfinity, down_min = kInfinity;
    for (const std::size_t j : active) {
      gradient[j] = row_dot(x, j, w);
      if (alpha[j] < upper[j]) up_max = std::max(up_max, -gradient[j]);
      if (alpha[j] > 0) down_min = std::min(down_min, -gradient[j]);
    }
    const double violation = up_max - down_min;
    if (violation <= eps) {
      result.grad_norm = std::max(violation, 0.0);
      if (active.size() == rows.size()) {
        result.status = Status::kConverged;
        break;
      }
      active = rows;  // restore the shrunk rows and test again on all
      continue;
    }
    ++iter;
    // Shrinking: rows at a bound that no pair can move now.
    std::size_t kept = 0;
    for (const std::size_t j : active) {
      const bool stuck = (alpha[j] >= upper[j] && -gradient[j] > up_max) ||
                         (alpha[j] <= 0 && -gradient[j] < down_min);
      if (!stuck) active[kept++] = j;
    }
    active.resize(kept);
    up.clear();
    down.clear();
    for (const std::size_t j : active) {
      if (alpha[j] < upper[j]) up.emplace_back(-gradient[j], j);
      if (alpha[j] > 0) down.emplace_back(-gradient[j], j);
    }
    const std::size_t k =
        std::min({std::max<std::size_t>(active.size() / 10, 1), up.size(), down.size()});
    if (k > 0) top_pairs(up, down, k);
    for (std::size_t s = 0; s < k; ++s) {
      std::size_t u = up[s].second;
      std::size_t d = down[s].second;
      if (u == d) continue;
      const double g_u = row_dot(x, u, w);
      const double g_d = row_dot(x, d, w);
      // Fresh gradients: move toward the row of the smaller gradient,
      // if the pair still violates in either direction.
      double pull = g_d - g_u;
      if (!(alpha[u] < upper[u] && alpha[d] > 0 && pull > kTiny)) {
        if (!(alpha[d] < upper[d] && alpha[u] > 0 && -pull > kTiny)) continue;
        std::swap(u, d);
        pull = -pull;
      }
      const double curvature = std::max(norm2[u] + norm2[d] - 2.0 * rows_dot(x, u, d), kTiny);
      double t = pull / curvature;
      const double room_u = upper[u] - alpha[u];
      const double room_d = alpha[d];
      if (t >= room_u || t >= room_d) {
        t = std::min(room_u, room_d);
        alpha[u] = room_u <= room_d ? upper[u] : alpha[u] + t;
        alpha[d] = room_d <= room_u ? 0.0 : alpha[d] - t;
      } else {
        alpha[u] += t;
        alpha[d] -= t;
      }
      add_row(x, u, t, w);
      add_row(x, d, -t, w);
      ++result.inner_iterations;
      result.nnz_ops += (x.row_ptr[u + 1] - x.row_ptr[u]) + (x.row_ptr[d + 1] - x.row_ptr[d]);
    }
    result.grad_norm = violation;
    progress.pause();
    progress.report(iter, half_squared_norm(w), violation, &w);
  }
  for (const std::size_t j : rows) gradient[j] = row_dot(x, j, w);
  result.iterations = iter;
  result.seconds = progress.seconds();
  result.rho = offset(alpha, upper, gradient, rows);
  result.objective = half_squared_norm(w);
  result.w = std::move(w);
  result.alpha = std::move(alpha);
  return result;
}

}  // namespace cdl
