// Dual coordinate descent for L2-regularized L1- and L2-loss support vector
// regression (LIBLINEAR's -s 13 and -s 12).
//
// Problem: the primal min_w 1/2 w'w + sum_j C_j loss(w'x_j, y_j), with the
//   epsilon-insensitive losses (epsilon = -p)
//     L1-loss: max(0, |w'x_j - y_j| - epsilon),
//     L2-loss: max(0, |w'x_j - y_j| - epsilon)^2,
//   solved through its dual in one variable beta_j per instance (Ho & Lin,
//   "Large-scale Linear Support Vector Regression", JMLR 13, 2012,
//   Section 4, the dual written in beta = alpha+ - alpha-):
//     min_beta f(beta) = 1/2 beta' Qbar beta - y'beta + epsilon ||beta||_1,
//     -U_j <= beta_j <= U_j,  Qbar = Q + D,  Q_jk = x_j'x_k,
//   with U_j = C_j, D_jj = 0 for the L1 loss and U_j = inf,
//   D_jj = 1/(2 C_j) for the L2 loss; w = sum_j beta_j x_j.
//
// Algorithm: dual CD (the paper's Section 4, its dual CD with shrinking;
//   LIBLINEAR 2.50's source cites it as the paper's Algorithm 4; the
//   formulas below are written out in full, and neither number is checked
//   against the paper's text). w is kept up to date, so the
//   smooth part's partial gradient is g = w'x_j - y_j + D_jj beta_j, and the one-variable
//   sub-problem
//     min_d g d + 1/2 Qbar_jj d^2 + epsilon |beta_j + d|
//   has the closed form (soft thresholding of the Newton step): with
//   G+ = g + epsilon, G- = g - epsilon and H = Qbar_jj,
//     d = -G+ / H if G+ < H beta_j; d = -G- / H if G- > H beta_j; else -beta_j,
//   and beta_j + d is clipped to [-U_j, U_j]; then w += (change) x_j. The
//   instances are visited in a new random permutation every epoch
//   (--seed). Shrinking: with M the largest violation of the previous
//   epoch, beta_j = 0 with G+ > M and G- < -M, beta_j = U_j with G+ < -M,
//   and beta_j = -U_j with G- > M leave the active set.
//
// Stopping rule: the violation of instance j is |PG_j|, the projected
//   (minimum-norm) gradient of f at beta_j (G+ for beta_j > 0, G- for
//   beta_j < 0, the part of [G-, G+] nearest 0 at beta_j = 0, and only the
//   part pointing inward at a bound). An epoch whose sum of violations over
//   the active set is <= eps times that of the first epoch (at beta = 0)
//   passes; with instances shrunk, all are restored and the solver goes on,
//   stopping only when an epoch over all of them passes. Default eps 0.1, as
//   LIBLINEAR 2.50's for -s 12 and -s 13. Also after --max-iter epochs.
//
// Under LIBLINEAR's -s 11 (the primal problem, which the data's shape sends
//   here on wide data) the rule is -s 11's own, ||grad f(w)|| <= eps
//   ||grad f(0)|| (default eps 0.0001), checked between epochs as
//   primal_rule.h says; a check that fails restores the shrunk instances.
//
// Cost: one visit is O(nonzeros of row j) for w'x_j, and again for the
//   update of w when beta_j moves; an epoch is O(nonzeros of the active
//   rows + l); -s 11's check is O(#nz + B n), B <= 8 (primal_rule.h).
//   f(w) for the progress lines is O(#nz + l + n) per epoch, with the clock
//   stopped, and skipped under -q without a trace. The epochs run on one
//   thread (a partitioned form, as dcd's, took 82 epochs for these 9 to
//   -s 11's tolerance on a 10^5 x 10^6 text-like file with a fixed cut, and
//   13 with a new cut every epoch, each of them slower on two threads than
//   a serial epoch on one: docs/checks.md); -m's threads share the setup's
//   x_j'x_j, -s 11's checks and each f(w).
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <random>

#include "objective/evaluate.h"
#include "select/random.h"
#include "solvers/primal_rule.h"
#include "solvers/progress.h"
#include "solvers/solver.h"
#include "util/parallel.h"
#include "util/populate.h"

namespace cdl {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
// Rows are prefetched this far ahead in the epoch's order (dcd's distance).
constexpr std::size_t kPrefetchDistance = 8;

}  // namespace

SolveResult solve_svr_dual(const SolverInput& input) {
  const Problem& problem = input.problem;
  const Params& params = input.params;
  const LossKind loss = params.loss.value();
  const bool l1_loss = loss == LossKind::kSvrL1;
  const double epsilon = params.svr_epsilon.value_or(kDefaultSvrEpsilon);
  std::optional<CsrMatrix> own_rows;
  const CsrMatrix& x = rows_of(problem, own_rows);
  const std::size_t l = x.num_rows;

  const unsigned threads = thread_count(params);
  std::vector<double> w = populated_vector(x.num_cols, 0.0);
  std::vector<double> beta(l, 0.0);
  std::vector<double> upper(l), diag(l), qbar(l);
  // Qbar_jj's O(#nz) on the threads, each row's sum one thread's.
  run_in_blocks_or_throw(l, threads, [&](std::size_t j) {
    const double c = problem.cost(j);
    if (c <= 0) return;  // held out
    upper[j] = l1_loss ? c : kInfinity;
    diag[j] = l1_loss ? 0.0 : 0.5 / c;
    qbar[j] = row_squared_norm(x, j) + diag[j];
  });
  std::vector<std::size_t> index;
  for (std::size_t j = 0; j < l; ++j) {
    if (problem.cost(j) > 0) index.push_back(j);
  }
  const std::size_t total = index.size();
  std::size_t active = total;
  std::mt19937_64 rng(input.seed);
  const bool compute_f =
      input.reporter.level() != Reporter::Level::kQuiet || input.reporter.wants_w();

  std::optional<PrimalRule> primal_rule;
  if (stops_by_primal_rule(params)) {
    primal_rule.emplace(problem, params, threads, input.reporter);
  }

  SolveResult result;
  Progress progress(input.reporter);
  const std::int64_t max_iter = params.max_iter.value();
  double first_norm = 0;
  double violation_bound = kInfinity;  // M of the previous epoch
  result.status = Status::kMaxIter;
  std::int64_t iter = 0;
  while (iter < max_iter) {
    ++iter;
    std::vector<std::size_t> order(index.begin(),
                                   index.begin() + static_cast<std::ptrdiff_t>(active));
    shuffle(order, rng);
    // Positions in `index` follow `order`, so a shrunk instance swaps to the end.
    std::copy(order.begin(), order.end(), index.begin());
    double violation_sum = 0, violation_max = 0;
    for (std::size_t s = 0; s < active;) {
      // The rows ahead in the epoch's order: their offsets and per-row values
      // at twice kPrefetchDistance, their nonzeros at kPrefetchDistance (as
      // dcd's prefetch_ahead()). On a 10^5 x 10^6 text-like file, whole
      // -s 11 runs at -m 2 were faster with them (measured at 6a89846;
      // docs/checks.md).
      if (s + 2 * kPrefetchDistance < active) {
        const std::size_t ahead = index[s + 2 * kPrefetchDistance];
        __builtin_prefetch(&x.row_ptr[ahead]);
        __builtin_prefetch(&beta[ahead]);
        __builtin_prefetch(&qbar[ahead]);
        __builtin_prefetch(&diag[ahead]);
        __builtin_prefetch(&problem.y[ahead]);
      }
      if (s + kPrefetchDistance < active) prefetch_row(x, index[s + kPrefetchDistance]);
      const std::size_t j = index[s];
      const double b = beta[j];
      const double g = row_dot(x, j, w) - problem.y[j] + diag[j] * b;
      const double gp = g + epsilon;
      const double gn = g - epsilon;
      double violation = 0;
      bool shrink = false;
      if (b == 0) {
        if (gp < 0) {
          violation = -gp;
        } else if (gn > 0) {
          violation = gn;
        } else {
          shrink = gp > violation_bound && gn < -violation_bound;
        }
      } else if (b >= upper[j]) {
        if (gp > 0) {
          violation = gp;
        } else {
          shrink = gp < -violation_bound;
        }
      } else if (b <= -upper[j]) {
        if (gn < 0) {
          violation = -gn;
        } else {
          shrink = gn > violation_bound;
        }
      } else {
        violation = std::fabs(b > 0 ? gp : gn);
      }
      ++result.inner_iterations;
      if (shrink) {
        --active;
        std::swap(index[s], index[active]);
        continue;
      }
      violation_sum += violation;
      violation_max = std::max(violation_max, violation);
      const double h = qbar[j];
      double d;
      if (gp < h * b) {
        d = -gp / h;
      } else if (gn > h * b) {
        d = -gn / h;
      } else {
        d = -b;
      }
      const double updated = std::clamp(b + d, -upper[j], upper[j]);
      if (std::fabs(updated - b) > 1e-12) {
        add_row(x, j, updated - b, w);
        beta[j] = updated;
        result.nnz_ops += x.row_ptr[j + 1] - x.row_ptr[j];
      }
      ++s;
    }
    if (iter == 1) first_norm = violation_sum;
    violation_bound = violation_max > 0 ? violation_max : kInfinity;
    progress.pause();
    result.grad_norm = violation_sum;
    const double f =
        compute_f ? regression_objective(problem, loss, w, Regularizer::l2_only(), epsilon, threads)
                  : std::numeric_limits<double>::quiet_NaN();
    progress.report(iter, f, violation_sum, &w);
    if (primal_rule) {
      if (!primal_rule->due(iter)) continue;
      if (primal_rule->passes(iter, w)) {
        result.status = Status::kConverged;
        break;
      }
      active = total;  // restore the shrunk instances
      violation_bound = kInfinity;
      continue;
    }
    if (violation_sum <= params.eps.value() * first_norm) {
      if (active == total) {
        result.status = Status::kConverged;
        break;
      }
      active = total;  // restore the shrunk instances and check them all
      violation_bound = kInfinity;
    }
  }
  result.iterations = iter;
  result.seconds = progress.seconds();
  result.objective =
      regression_objective(problem, loss, w, Regularizer::l2_only(), epsilon, threads);
  result.w = std::move(w);
  result.alpha = std::move(beta);
  return result;
}

}  // namespace cdl
