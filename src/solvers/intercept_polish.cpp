#include "solvers/intercept_polish.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "data/sparse_matrix.h"
#include "objective/evaluate.h"
#include "objective/intercept_gap.h"

namespace cdl {
namespace {

// Whether alpha_j can grow along +y_j (the step's "up" side) or shrink
// along it ("down"), within 0 <= alpha_j <= c.
bool can_move_up(double y, double alpha, double c) { return y > 0 ? alpha < c : alpha > 0; }
bool can_move_down(double y, double alpha, double c) { return y > 0 ? alpha > 0 : alpha < c; }

// The largest t >= 0 with 0 <= alpha + s t <= c, for s = +1 or -1.
double room(double alpha, double s, double c) { return s > 0 ? c - alpha : alpha; }

// The dense kernel x_i'x_j of the rows in `set`, row-major.
std::vector<double> kernel_of(const CsrMatrix& rows, const std::vector<std::size_t>& set) {
  const std::size_t m = set.size();
  std::vector<double> kernel(m * m);
  std::vector<double> dense(rows.num_cols, 0.0);
  for (std::size_t a = 0; a < m; ++a) {
    add_row(rows, set[a], 1.0, dense);
    for (std::size_t b = a; b < m; ++b) {
      kernel[a * m + b] = kernel[b * m + a] = row_dot(rows, set[b], dense);
    }
    add_row(rows, set[a], -1.0, dense);
  }
  return kernel;
}

// Pairwise steps with second-order pairs on the rows in `set`, the others
// fixed, until the KKT violation is below kPolishTol (the header). `scores`
// are w'x_j for the current alpha.
void solve_on_set(const Problem& problem, const std::vector<std::size_t>& set,
                  const std::vector<double>& scores, std::vector<double>& alpha) {
  const std::size_t m = set.size();
  const std::vector<double> kernel = kernel_of(*problem.rows, set);
  std::vector<double> g(m);
  for (std::size_t a = 0; a < m; ++a) g[a] = scores[set[a]] - problem.y[set[a]];
  const std::size_t max_steps = 20 * m + 1000;
  for (std::size_t step = 0; step < max_steps; ++step) {
    std::size_t i = m;
    for (std::size_t a = 0; a < m; ++a) {
      const std::size_t row = set[a];
      if (can_move_up(problem.y[row], alpha[row], problem.cost(row)) && (i == m || g[a] < g[i]))
        i = a;
    }
    if (i == m) return;
    std::size_t j = m;
    double best = 0;
    double down_max = -HUGE_VAL;
    for (std::size_t b = 0; b < m; ++b) {
      const std::size_t row = set[b];
      if (!can_move_down(problem.y[row], alpha[row], problem.cost(row))) continue;
      down_max = std::max(down_max, g[b]);
      const double rise = g[b] - g[i];
      if (rise <= 0) continue;
      const double quad =
          std::max(kernel[i * m + i] + kernel[b * m + b] - 2 * kernel[i * m + b], 1e-12);
      if (rise * rise / quad > best) {
        best = rise * rise / quad;
        j = b;
      }
    }
    if (j == m || down_max - g[i] <= kPolishTol) return;
    const std::size_t ri = set[i];
    const std::size_t rj = set[j];
    const double yi = problem.y[ri];
    const double yj = problem.y[rj];
    const double quad = kernel[i * m + i] + kernel[j * m + j] - 2 * kernel[i * m + j];
    const double room_i = room(alpha[ri], yi, problem.cost(ri));
    const double room_j = room(alpha[rj], -yj, problem.cost(rj));
    const double wanted = quad > 0 ? (g[j] - g[i]) / quad : HUGE_VAL;
    const double t = std::min({wanted, room_i, room_j});
    if (!(t > 0)) return;
    // A row that reaches its bound takes it exactly.
    alpha[ri] = t == room_i ? (yi > 0 ? problem.cost(ri) : 0.0) : alpha[ri] + yi * t;
    alpha[rj] = t == room_j ? (yj > 0 ? 0.0 : problem.cost(rj)) : alpha[rj] - yj * t;
    for (std::size_t k = 0; k < m; ++k) g[k] += t * (kernel[k * m + i] - kernel[k * m + j]);
  }
}

}  // namespace

double kkt_violation(const Problem& problem, const std::vector<double>& alpha,
                     const std::vector<double>& scores) {
  double up_min = HUGE_VAL;
  double down_max = -HUGE_VAL;
  for (std::size_t j = 0; j < alpha.size(); ++j) {
    const double c = problem.cost(j);
    if (c <= 0) continue;
    const double g = scores[j] - problem.y[j];
    if (can_move_up(problem.y[j], alpha[j], c)) up_min = std::min(up_min, g);
    if (can_move_down(problem.y[j], alpha[j], c)) down_max = std::max(down_max, g);
  }
  return std::max(down_max - up_min, 0.0);
}

PolishedDual polish_intercept_dual(const Problem& problem, std::vector<double> alpha) {
  project_to_dual_feasible(problem, alpha);
  const std::size_t l = alpha.size();
  for (int round = 0;; ++round) {
    const std::vector<double> scores = decision_values(problem, weights_of(problem, alpha));
    const double violation = kkt_violation(problem, alpha, scores);
    if (violation <= kPolishTol || round == kPolishRounds || problem.rows == nullptr) {
      return {std::move(alpha), violation};
    }
    const double w0 = best_intercept(problem, scores);
    // (priority, row): the violators of the margin conditions at w0 and the
    // rows with 0 < alpha_j < C_j, the worst first, then the rows at a
    // bound within kPolishBand of the margin, the nearest first.
    std::vector<std::pair<double, std::size_t>> candidates;
    for (std::size_t j = 0; j < l; ++j) {
      const double c = problem.cost(j);
      if (c <= 0) continue;
      const double distance = problem.y[j] * (scores[j] + w0) - 1;
      const bool free = alpha[j] > 0 && alpha[j] < c;
      const bool wrong_side = (alpha[j] <= 0 && distance < 0) || (alpha[j] >= c && distance > 0);
      if (free || wrong_side) {
        candidates.emplace_back(-1 - std::fabs(distance), j);
      } else if (std::fabs(distance) <= kPolishBand) {
        candidates.emplace_back(std::fabs(distance), j);
      }
    }
    if (candidates.empty()) return {std::move(alpha), violation};
    std::sort(candidates.begin(), candidates.end());
    std::vector<std::size_t> set;
    double nonzeros = 0;  // of the rows in the set
    for (const auto& entry : candidates) {
      const std::size_t row = entry.second;
      nonzeros += static_cast<double>(problem.rows->row_ptr[row + 1] - problem.rows->row_ptr[row]);
      if (set.size() == kPolishRows ||
          static_cast<double>(set.size() + 1) * nonzeros > kPolishKernelWork) {
        break;
      }
      set.push_back(row);
    }
    if (set.size() < 2) return {std::move(alpha), violation};
    solve_on_set(problem, set, scores, alpha);
  }
}

}  // namespace cdl
