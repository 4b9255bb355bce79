// Primal coordinate descent for L2-regularized linear classifiers.
//
// Problem: min_w f(w) = 1/2 w'w + sum_j C_j loss(y_j w'x_j), for L2-SVM
//   loss(m) = max(0, 1 - m)^2 (paper, equation 3) and logistic regression
//   (equation 4); 1/2 w'w is the regularizer's value (regularizer.h), and the
//   objective's D' and D'' include its derivatives.
//
// Algorithm: Chang, Hsieh & Lin (2008), "Coordinate Descent Method for
//   Large-scale L2-loss Linear SVM", JMLR 9, Algorithm 1 (outer iterations
//   over all n coordinates) with each one-variable sub-problem (7) solved
//   approximately by Algorithm 2:
//   - the Newton direction d = -D'_i(0) / D''_i(0), equations (9), (10), (13);
//   - backtracking lambda = 1, beta, beta^2, ... until the sufficient decrease
//     condition (12) D_i(lambda d) - D_i(0) <= -sigma (lambda d)^2 holds;
//   - Theorem 1's shortcut (15): when lambda <= lambda_bar =
//     D''_i(0) / (H_i/2 + sigma), with H_i of (14), (12) holds without
//     evaluating D_i, so D_i is evaluated only for larger lambda. The margin
//     objectives sum H_i in the pass that computes D'_i(0) and D''_i(0)
//     (bounded_derivs) instead of keeping an n-vector of them;
//   - the margins are moved by (17) after each step, so D' and D'' of the next
//     coordinate cost O(nonzeros of its column). An evaluated step moves the
//     margins while it computes D_i(lambda d) - D_i(0) by (18), and is undone
//     exactly if (12) fails, so the common case costs two passes over the
//     column (derivatives, then step) as in the bare minimum.
//   The selection rule (src/select/, --select) makes the variants: cyclic
//   (CD), a new permutation every outer iteration (CDPER, Section 3.2), one
//   permutation (CDPERONE, Section 6.1), or n uniform draws per outer
//   iteration (online CD, Algorithm 3). The rule hands out coordinates in
//   batches and, if it asks for it, hears D'_i(0), D''_i(0) and the step
//   after every coordinate.
//
// Stopping rule (after Section 5.3): D'_i(0) = grad f(w^{k,i})_i, taken when
//   coordinate i is visited. After each outer iteration, stop when
//   ||(D'_1(0), ..., D'_n(0))||_2 <= eps * ||grad f(0)||_2, or after max_iter
//   outer iterations (status MaxIter). A rule that visits every coordinate
//   once an epoch (cyclic, permutations) sees each D'_i(0) once, so the
//   solver sums their squares as they come; for the others it stores the
//   last D'_i(0) of every coordinate. Online CD draws with replacement, so
//   a coordinate not drawn in an epoch keeps a D'_i(0) from an older one, and
//   one drawn twice keeps the second, measured after its own first step; when
//   those pass the test, the whole gradient at w is computed, O(#nz), and it
//   must pass too.
//
// Cost: one outer iteration is O(#nz) (equation 19) when the full Newton step
//   passes the shortcut, plus O(nonzeros of column i) for every evaluation
//   of D_i(lambda d). Reporting f(w) after each outer iteration adds O(l + n),
//   outside the timed part.
#include "solvers/solver_cd.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "objective/cd_math.h"
#include "objective/margin_objective.h"
#include "objective/vector_math.h"
#include "solvers/progress.h"
#include "solvers/solver.h"
#include "util/error.h"

namespace cdl {
namespace {

// Coordinates are prefetched this far ahead along a batch: a coordinate's
// column pointer and per-coordinate values at 3x, its column data at 2x, the
// margins of its first rows at 1x (bench_cd sweep --order perm-prefetch
// measures the distance).
constexpr std::size_t kPrefetchDistance = 8;

template <class Objective>
constexpr bool kPrefetches = !std::is_same_v<Objective, CoordinateObjective>;

// The algorithm, compiled for the concrete objective (no virtual call per
// coordinate) and for CoordinateObjective (tests with their own objects).
template <class Objective>
SolveResult cd_loop(Objective& objective, SelectionRule& rule, const Params& params,
                    Reporter& reporter) {
  const double eps = params.eps.value();
  const std::int64_t max_iter = params.max_iter.value();
  const double sigma = params.own<LineSearchOptions>().sigma;
  const double beta = params.own<LineSearchOptions>().beta;
  const bool feedback = rule.wants_feedback();

  SolveResult result;
  const double scale = objective.gradient_norm_at_zero();
  const double stop_norm = eps * scale;
  // A rule that visits every coordinate once an epoch needs only the sum of
  // the squares of the D'_i(0) it saw, not the n-vector of them. They are
  // scaled by 1 / ||grad f(0)|| first, so that the squares of data with huge
  // gradients do not overflow.
  const bool keep_d1 = !rule.visits_all();
  std::vector<double> last_d1;
  const std::vector<double>& w0 = objective.w();
  if (keep_d1 || std::any_of(w0.begin(), w0.end(), [](double wi) { return wi != 0; })) {
    last_d1 = objective.gradient();
    result.grad_norm = norm2(last_d1);
    if (!keep_d1) std::vector<double>().swap(last_d1);
  } else {
    result.grad_norm = scale;  // at w = 0 the objective has the norm already
  }
  bool converged = result.grad_norm <= stop_norm;
  const double inv_scale = scale > 0 && std::isfinite(1.0 / scale) ? 1.0 / scale : 1.0;
  bool failed = false;

  Progress progress(reporter);
  while (!converged && !failed && result.iterations < max_iter) {
    double visited_squares = 0;  // sum of (D'_i(0) inv_scale)^2 over the epoch's visits
    rule.start_epoch();
    for (CoordinateBatch batch = rule.next_batch(); batch.size > 0 && !failed;
         batch = rule.next_batch()) {
      for (std::size_t k = 0; k < batch.size; ++k) {
        if constexpr (kPrefetches<Objective>) {
          constexpr std::size_t d = kPrefetchDistance;
          if (k + 3 * d < batch.size) {
            objective.prefetch_coordinate(batch.begin[k + 3 * d]);
            if (keep_d1) __builtin_prefetch(&last_d1[batch.begin[k + 3 * d]], 1);
          }
          if (k + 2 * d < batch.size) objective.prefetch_column(batch.begin[k + 2 * d]);
          if (k + d < batch.size) objective.prefetch_rows(batch.begin[k + d]);
        }
        const std::size_t i = batch.begin[k];
        const BoundedDerivs derivs = objective.bounded_derivs(i);
        if (keep_d1) last_d1[i] = derivs.d1;
        const double scaled_d1 = derivs.d1 * inv_scale;
        visited_squares += scaled_d1 * scaled_d1;
        ++result.inner_iterations;
        if (derivs.d1 == 0) {
          ++result.full_newton_steps;
          if (feedback) rule.feedback({i, derivs.d1, derivs.d2, 0.0});
          continue;
        }
        const double d = newton_direction(derivs.d1, derivs.d2);
        const double shortcut = lambda_bar(derivs.d2, derivs.bound, sigma);
        // Theorem 1: the search ends at the latest when lambda <= lambda_bar,
        // after ceil(log lambda_bar / log beta) steps, unless lambda_bar is
        // not a positive number (overflow in the data).
        if (!(shortcut > 0) || !std::isfinite(d)) {
          failed = true;
          break;
        }
        double lambda = 1.0;
        for (;;) {
          if (lambda <= shortcut) {
            objective.apply(i, lambda * d);
            break;
          }
          ++result.function_evaluations;
          const double z = lambda * d;
          if (sufficient_decrease(objective.apply_with_delta(i, z), z, sigma)) break;
          objective.undo();
          lambda *= beta;
        }
        if (lambda == 1.0) ++result.full_newton_steps;
        if (feedback) rule.feedback({i, derivs.d1, derivs.d2, lambda * d});
      }
    }
    // With coordinates left out, their stored D' are old: the test is over
    // the coordinates visited.
    result.grad_norm = keep_d1 && rule.inactive_count() == 0
                           ? norm2(last_d1)
                           : std::sqrt(visited_squares) / inv_scale;
    if (result.grad_norm <= stop_norm && !rule.visits_all()) {
      last_d1 = objective.gradient();
      result.grad_norm = norm2(last_d1);
    }
    ++result.iterations;
    progress.pause();
    progress.report(result.iterations, objective.value(), result.grad_norm, &objective.w());
    converged = result.grad_norm <= stop_norm;
    // A rule that left coordinates out (shrinking) gets one more epoch over
    // all of them before the solver may stop.
    if (converged && rule.restore_active_set()) converged = false;
  }
  result.status = failed      ? Status::kLineSearchFailed
                  : converged ? Status::kConverged
                              : Status::kMaxIter;
  result.objective = objective.value();
  result.w = objective.release_w();
  result.seconds = progress.seconds();
  return result;
}

}  // namespace

SolveResult solve_cd(CoordinateObjective& objective, SelectionRule& rule, const Params& params,
                     Reporter& reporter) {
  return cd_loop(objective, rule, params, reporter);
}

template <class Loss>
SolveResult solve_cd(MarginObjective<Loss>& objective, SelectionRule& rule, const Params& params,
                     Reporter& reporter) {
  return cd_loop(objective, rule, params, reporter);
}
template SolveResult solve_cd(MarginObjective<L2SvmLoss>&, SelectionRule&, const Params&,
                              Reporter&);
template SolveResult solve_cd(MarginObjective<LogisticLoss>&, SelectionRule&, const Params&,
                              Reporter&);

template <class Loss>
SolveResult solve_cd(RegressionObjective<Loss>& objective, SelectionRule& rule,
                     const Params& params, Reporter& reporter) {
  return cd_loop(objective, rule, params, reporter);
}
template SolveResult solve_cd(RegressionObjective<SquaredLoss>&, SelectionRule&, const Params&,
                              Reporter&);
template SolveResult solve_cd(RegressionObjective<SvrL2Loss>&, SelectionRule&, const Params&,
                              Reporter&);

SolveResult solve_cd(const SolverInput& input) {
  if (cd_partitions(input.params, input.problem) > 1) return solve_cd_partitioned(input);
  if (is_regression(input.params.loss.value()) ||
      !Regularizer::of(input.params.regularizer).smooth()) {
    return solve_cd_general(input);
  }
  auto rule = make_selection_rule(input);
  return with_margin_objective(input.params.loss.value(), input.problem,
                               regularizer_of(input.params, input.problem.num_features()),
                               thread_count(input.params), [&](auto& objective) {
                                 if (input.w0 != nullptr) objective.reset(*input.w0);
                                 return solve_cd(objective, *rule, input.params, input.reporter);
                               });
}

const OptionGroup* line_search_options() {
  static const OptionGroup group{
      "--sigma",
      "sets CD's line search (Algorithm 2)",
      {{"--sigma", "sigma",
        "sufficient decrease constant of equation (12), in (0, 0.5) (default " +
            show_number(LineSearchOptions{}.sigma) + ")",
        [](Params& params, const std::string& flag, const std::string& value) {
          params.own<LineSearchOptions>().sigma = number_in(flag, value, 0, 0.5);
        },
        [](const Params& params) {
          return params.own<LineSearchOptions>().sigma != LineSearchOptions{}.sigma;
        },
        "-q"},
       {"--beta", "beta",
        "line search shrink factor of Algorithm 2, in (0, 1) (default " +
            show_number(LineSearchOptions{}.beta) + ")",
        [](Params& params, const std::string& flag, const std::string& value) {
          params.own<LineSearchOptions>().beta = number_in(flag, value, 0, 1);
        },
        [](const Params& params) {
          return params.own<LineSearchOptions>().beta != LineSearchOptions{}.beta;
        },
        "--sigma"}},
      [](const Params& params) {
        const LineSearchOptions& search = params.own<LineSearchOptions>();
        if (!(search.sigma > 0 && search.sigma < 0.5)) {
          throw ConfigError("sigma must be in (0, 0.5)");
        }
        if (!(search.beta > 0 && search.beta < 1)) throw ConfigError("beta must be in (0, 1)");
      }};
  return &group;
}

}  // namespace cdl
