// Random coordinate descent on pairs for the L1-loss SVM with an
// unregularized intercept.
//
// Problem: the dual of min_{w, w0} 1/2 w'w + sum_j C_j max(0, 1 - y_j (w'x_j
//   + w0)) (intercept_gap.h): min f(alpha) = 1/2 ||sum_j alpha_j y_j x_j||^2
//   - e'alpha over 0 <= alpha_j <= C_j, y'alpha = 0.
//
// Algorithm: Necoara & Patrascu (2012), random coordinate descent for
//   problems with one linear coupling constraint, the baseline "RCD" of
//   Fercoq & Bianchi's Figure 2: each step picks a pair i != j at random and
//   moves alpha_i += y_i d, alpha_j -= y_j d, which keeps y'alpha = 0 (alpha
//   starts at 0). Where Necoara & Patrascu take the step of the quadratic
//   upper bound with L_i + L_j, we take the exact minimizer along the pair:
//   with w = sum_j alpha_j y_j x_j,
//     f'(0)  = (x_i'w - y_i) - (x_j'w - y_j),
//     f''(0) = ||x_i - x_j||^2 = ||x_i||^2 + ||x_j||^2 - 2 x_i'x_j,
//   d = clip(-f'(0)/f''(0)) to the interval that keeps both in their boxes
//   (the far end of it in the descent direction if f'' = 0), then
//   w += d (x_i - x_j). This is SMO's two-variable step with random instead
//   of maximal-violating pairs. The pairs are consecutive coordinates of the
//   selection rule: --select uniform (the theory's i.i.d. pairs; a drawn
//   pair with i = j is skipped) or perm (the default: each row once per
//   epoch, in a new random order, an odd one out left to the next epoch's
//   permutation). One epoch is l/2 pairs, so every algorithm of Figure 2
//   touches l rows per epoch.
//
// Stopping rule: as pdcd (solver_pdcd.cpp, intercept_epoch.h): the
//   post-processed point's gap P - D <= eps P with w close and w0 settled,
//   or P - D <= --gap-tol, or the epoch limit; without --gap-tol, the
//   polished iterate (intercept_polish.h) once its KKT violation is at most
//   1e-5 and its gap at most eps P. The model is the post-processed primal
//   point (w, exact w0).
//
// Cost: O(nonzeros of rows i and j) per step (x_i'w, x_j'w, the sparse
//   merge for x_i'x_j, the update), O(#nz) per epoch; the post-processing,
//   O(#nz + l log l) per epoch, is not counted by the clock.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "objective/intercept_gap.h"
#include "select/selection_rule.h"
#include "solvers/intercept_epoch.h"
#include "solvers/progress.h"
#include "solvers/solver.h"

namespace cdl {
namespace {

// [low, high] of d with 0 <= alpha + s d <= c, for s = +1 or -1.
void limit_step(double alpha, double s, double c, double& low, double& high) {
  if (s > 0) {
    low = std::max(low, -alpha);
    high = std::min(high, c - alpha);
  } else {
    low = std::max(low, alpha - c);
    high = std::min(high, alpha);
  }
}

}  // namespace

SolveResult solve_rcd_pair(const SolverInput& input) {
  const Problem& problem = input.problem;
  const Params& params = input.params;
  const CsrMatrix& rows = *problem.rows;
  std::vector<std::size_t> active;
  for (std::size_t j = 0; j < problem.num_rows(); ++j) {
    if (problem.cost(j) > 0) active.push_back(j);
  }
  std::vector<double> norm2(active.size());
  for (std::size_t k = 0; k < active.size(); ++k) norm2[k] = row_squared_norm(rows, active[k]);
  std::vector<double> alpha(problem.num_rows(), 0.0);
  std::vector<double> w(problem.num_features(), 0.0);
  const std::unique_ptr<SelectionRule> rule =
      make_rule(rule_name(params), {active.size(), input.seed, nullptr});

  const auto pair_step = [&](std::size_t ka, std::size_t kb) {
    const std::size_t i = active[ka];
    const std::size_t j = active[kb];
    const double yi = problem.y[i];
    const double yj = problem.y[j];
    const double d1 = (row_dot(rows, i, w) - yi) - (row_dot(rows, j, w) - yj);
    const double d2 = norm2[ka] + norm2[kb] - 2.0 * rows_dot(rows, i, j);
    double low = -HUGE_VAL;
    double high = HUGE_VAL;
    limit_step(alpha[i], yi, problem.cost(i), low, high);
    limit_step(alpha[j], -yj, problem.cost(j), low, high);
    double d = 0;
    if (d2 > 0) {
      d = std::min(std::max(-d1 / d2, low), high);
    } else if (d1 < 0) {
      d = high;
    } else if (d1 > 0) {
      d = low;
    }
    if (d == 0) return;
    alpha[i] = std::min(std::max(alpha[i] + yi * d, 0.0), problem.cost(i));
    alpha[j] = std::min(std::max(alpha[j] - yj * d, 0.0), problem.cost(j));
    add_row(rows, i, d, w);
    add_row(rows, j, -d, w);
  };

  SolveResult result;
  result.status = Status::kMaxIter;
  Progress progress(input.reporter);
  InterceptStop stop(params);
  InterceptGap last;
  std::size_t pending = SelectionRule::kNone;  // the first of a pair not yet made
  for (std::int64_t epoch = 1;; ++epoch) {
    rule->start_epoch();
    for (CoordinateBatch batch = rule->next_batch(); batch.size > 0; batch = rule->next_batch()) {
      for (std::size_t p = 0; p < batch.size; ++p) {
        const std::size_t k = batch.begin[p];
        if (pending == SelectionRule::kNone) {
          pending = k;
          continue;
        }
        if (k != pending) {
          pair_step(pending, k);
          ++result.inner_iterations;
        }
        pending = SelectionRule::kNone;
      }
    }
    result.iterations = epoch;
    const bool last_epoch = !stop.may_continue(epoch);
    if (!stop.due(epoch) && !last_epoch) continue;
    if (check_intercept_epoch(problem, alpha, epoch, last_epoch, progress, stop, last)) {
      result.status = Status::kConverged;
      break;
    }
    if (last_epoch) break;
  }
  result.seconds = progress.seconds();
  char line[200];
  std::snprintf(line, sizeof line, "duality gap %.6e (primal %.10e, dual %.10e), w0 spread %.3e%s",
                last.gap, last.primal, last.dual, stop.spread(),
                stop.polished() ? ", polished" : "");
  take_intercept_point(result, problem, std::move(last));
  input.reporter.info(line);
  return result;
}

}  // namespace cdl
