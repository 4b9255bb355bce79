// Primal coordinate descent with an L1 regularizer (-r l1 on the CD rows),
// and the dispatch of the CD rows' entry point to it and to regression.
//
// Problem: min_w f(w) = ||w||_1 + sum_j C_j loss_j(w), LIBLINEAR's scaling
//   (C weighs the loss, the regularizer has weight 1), for
//   - L2-SVM, loss(m) = max(0, 1 - m)^2 of the margin m = y_j w'x_j
//     (LIBLINEAR's -s 5, L1R_L2LOSS_SVC);
//   - logistic regression, log(1 + exp(-m)) (-s 6, L1R_LR);
//   - the squared loss (y_j - w'x_j)^2, no 1/2: the Lasso (L1R_SQUARED_LOSS);
//   - the L2-loss SVR max(0, |y_j - w'x_j| - p)^2 (L1R_L2LOSS_SVR).
//   The Regularizer (regularizer.h) carries the L1 weight; its prox_step,
//   delta and min_norm_subgradient are the only places the |.| appears.
//   With -R (L2-SVM and LR, LIBLINEAR 2.50's -s 5/6 -R, and the Lasso) the
//   bias weight is left out of ||w||_1 (Regularizer::unregularized): its
//   step is the plain Newton step d = -g/h with the same line search
//   (Delta = g d), its v_i is g, and it is never shrunk. For the Lasso that
//   step is exact (the bias is the free intercept of scikit-learn's Lasso,
//   without centering X), the gap's dual point has the intercept's
//   constraint sum_j C_j u_j = 0, and the support steps keep the bias in S.
//
// Algorithm: cyclic (or --select's order) coordinate descent with a
//   one-variable Newton direction for the nonsmooth sub-problem, Shi, Tu, Xu &
//   Yin, "A Primer on Coordinate Descent Algorithms", Section 4.3, equation
//   (36) (Tseng & Yun's CGD, as in Yuan, Chang, Hsieh & Lin 2010 "CDN"):
//   with g = D'_i(0) of the loss part and h = max(D''_i(0), 1e-12),
//     d = -(g + 1)/h   if g + 1 <= h w_i,
//     d = -(g - 1)/h   if g - 1 >= h w_i,
//     d = -w_i         otherwise,
//   which is Regularizer::prox_step (the soft threshold S(h w_i - g, 1)/h - w_i).
//   Step lambda d, lambda = 1, beta, beta^2, ..., with the Armijo-type rule
//     D_i(lambda d) - D_i(0) <= sigma lambda Delta,  Delta = g d + |w_i + d| - |w_i|
//   (the primer's condition after (36)). The loss's second derivative is
//   bounded (H_i of Chang et al. (14), the objective's bound(i)), so the
//   loss part changes by at most lambda g d + H_i/2 lambda^2 d^2; when that
//   bound already satisfies the rule (the analogue of Theorem 1's lambda_bar,
//   O(1) to check), the step is taken without evaluating D_i. For the
//   logistic loss the bound is also e^(|z| max_j |x_ji|) D''_i(0)
//   (CachedMarginObjective::curvature_bound: loss'' changes by at most a
//   factor e^|delta| when a margin moves by delta), which accepts every step
//   whose margins move by less than about 0.68 (for sigma = 0.01): on a9a
//   the evaluated steps fall from 67% to 0.7%, on the rcv1-like file from
//   16% to 3%. Otherwise D_i
//   is evaluated while the margins move, and the step undone if it fails
//   (apply_with_delta/undo, as solver_cd.cpp). In exact arithmetic the
//   bound's test passes for every lambda <= 2 (1 - sigma) |Delta| / (H_i d^2);
//   at the optimum rounding can leave Delta >= 0 or fail every test, and
//   then (Delta >= 0, or lambda below 1e-18) the coordinate is left as it is
//   instead of failing the run. The margins (scores for
//   regression) are kept up to date after each step, so the logistic terms
//   come from the stored margins; nothing is recomputed from scratch. L1-LR
//   keeps, beside the margins, each row's y_j C_j loss'(m_j) and
//   C_j loss''(m_j) (CachedMarginObjective): most visits leave w_i at 0,
//   and then D'_i and D''_i cost two multiply-adds per nonzero and no exp;
//   the exp moves to the steps, one per nonzero of a column that moves.
//
//   The Lasso (squared loss): D_i is quadratic with D''_i = H_i, so d is the
//   exact minimizer of the one-variable problem, the soft-threshold
//   coordinate update w_i <- S(w_i - g/H_i, 1/H_i) with g = 2C x_i'r and
//   r = Xw - y the residual the objective keeps up to date; its loss part
//   changes by exactly g d + H_i/2 d^2 <= Delta/2 <= sigma Delta, so the
//   shortcut always accepts lambda = 1: every Lasso step is the exact one.
//
//   Support steps, the Lasso with a rule that keeps no state of its own
//   (cyclic, perm, uniform; the default): plain CD crawls when the design
//   is ill-conditioned and the regularization weak (30,000 epochs leave the
//   50 x 100 Gaussian design at C = 500 18% above f*, agaricus' one-hot
//   columns at C = 20 3%, docs/checks.md), zigzagging along directions
//   in which Xw hardly moves. So after every kSupportStepEvery-th outer
//   iteration whose gap fails, w takes a round of support steps
//   (lasso_state.h): the point that minimizes f with the signs of w fixed
//   (a linear system on the support, (X_S' C X_S) w_S = X_S' C y - s/2),
//   and the exact line search of f along the segment to it, which stops
//   where a weight reaches 0; repeated (at most kSupportSteps times) until a
//   step reaches the point. f never increases, and once CD has found the
//   optimum's signs one step lands on the optimum, where the gap test then
//   stops the run. This is the active-set Newton step of homotopy/LARS-type
//   Lasso solvers (Osborne, Presnell & Turlach 2000, "A new approach to
//   variable selection in least squares problems") placed between CD
//   epochs; it replaces no CD step, so the iterates between the rounds are
//   CD's. Skipped when the support has more than kSupportPointMax = 500
//   features. Anderson extrapolation (Bertrand & Massias 2021) was measured
//   first and kept f 108% (Gaussian) and 31% (agaricus) above f* after 1000
//   epochs: the iterates drift at a constant rate, which an affine
//   combination of them cannot extrapolate.
//
//   Shrinking, as LIBLINEAR's L1 solvers: with M the largest violation of
//   the previous outer iteration, a coordinate with w_i = 0 and
//   |g| < 1 - M/l is left out of the next ones; when the stopping test passes
//   on the remaining coordinates, all come back for another full iteration,
//   and for classification also every 10 outer iterations (a coordinate
//   shrunk early can become a violator later; kClassificationRestoreEvery).
//   No shrinking with a rule that weighs coordinates by the state (the
//   Lasso's adaptive and greedy rules, SelectionRule::solver_may_shrink()).
//
// Stopping rule, the Lasso: after each outer iteration, the relative
//   duality gap f(w) - D(u) <= max(eps, 1e-10) f(w) (lasso_rescaled_gap,
//   lasso_state.h: the dual point is the residuals rescaled into the dual
//   feasible set, as scikit-learn's Lasso measures its gap; default eps
//   kLassoGapEps = 1e-3); when it fails, the objective's scores are
//   recomputed from w (the kept ones drift by rounding, and CD's fixed point
//   on drifted scores is not the optimum the gap measures) and shrunk
//   features come back every kClassificationRestoreEvery iterations. Or
//   after max_iter outer iterations.
// Stopping rule, the other L1 problems: the minimum-norm subgradient of f along coordinate i,
//   v_i = g + sign(w_i) for w_i != 0 and S(g, 1) for w_i = 0
//   (Regularizer::min_norm_subgradient), is stored when i is visited. After
//   each outer iteration, stop when ||v||_1 <= eps' ||v_0||_1 (LIBLINEAR's
//   Gnorm1 <= eps Gnorm1_init), where v_0 is measured as LIBLINEAR measures
//   it for the same problem:
//   - L1-L2SVM (-s 5, CDN): the v_i of the first outer iteration, each taken
//     when i is visited, so after the steps before it in that sweep (its
//     Gnorm1_init). This sum is usually smaller than ||v(0)||_1 (the
//     steps before i have already reduced v_i), and the stricter test
//     takes the default run's f from 6.2e-3 above f* to 3.2e-4 on the
//     wide file (LIBLINEAR's own default: 2.5e-4), 1.8e-3 to 3.4e-4 on
//     a9a.
//   - L1-LR (-s 6, newGLMNET, whose Gnorm1_init is the whole subgradient at
//     the start of its first Newton iteration), regression (no LIBLINEAR
//     counterpart) and rules that do not visit every coordinate in an outer
//     iteration: ||v(w_start)||_1 at the starting point.
//   eps' is eps times max(min(#pos, #neg), 1)/l for classification, as
//   LIBLINEAR scales its primal tolerances, and eps itself for regression.
//   The default eps is 0.01, LIBLINEAR's -s 5/6 default, so that -e means
//   what it means there. Or after max_iter outer iterations.
//
// Cost: an outer iteration is O(#nz of the active columns) when the steps
//   pass the shortcut, plus O(nonzeros of column i) per evaluation of D_i;
//   the Lasso's gap and its recomputed scores add O(#nz + l + n), and a
//   support step O(|S| #nz of S's columns + |S|^3 + #nz + n log n).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <type_traits>
#include <utility>

#include "objective/cached_margin_objective.h"
#include "objective/cd_math.h"
#include "objective/lasso_state.h"
#include "objective/margin_objective.h"
#include "objective/regression_objective.h"
#include "objective/vector_math.h"
#include "solvers/cd_l1_step.h"
#include "solvers/progress.h"
#include "solvers/solver.h"
#include "solvers/solver_cd.h"

namespace cdl {
namespace {

// The Lasso's support steps (the header): the outer iterations between two
// rounds of them, and the most steps in a round.
constexpr std::int64_t kSupportStepEvery = 5;
constexpr int kSupportSteps = 20;

// The smallest relative duality gap the Lasso's test asks for: the
// rounding of the residuals and of CD's steps leaves the gap at a few 1e-11
// of f (measured on a 50 x 100 Gaussian design).
constexpr double kMinRelativeGap = 1e-10;

// A round of the Lasso's support steps from w (the header): the step to
// lasso_support_point() with the exact line search along it, repeated
// while a step ends early at a weight that reaches 0, at most
// kSupportSteps times. Returns the steps that moved w. O(per step: |S|
// #nz of S's columns + |S|^3 + #nz + n log n).
int support_steps(const Problem& problem, std::vector<double>& w, std::size_t free) {
  int moved = 0;
  for (int step_count = 0; step_count < kSupportSteps; ++step_count) {
    const std::vector<double> target = lasso_support_point(problem, w, free);
    if (target.empty()) break;
    std::vector<double> direction(w.size());
    for (std::size_t i = 0; i < w.size(); ++i) direction[i] = target[i] - w[i];
    const double step = lasso_line_search(problem, w, direction, free);
    if (!(step > 0)) break;
    for (std::size_t i = 0; i < w.size(); ++i) {
      // The weight the step was stopped at lands on 0 exactly.
      const double next = w[i] + step * direction[i];
      w[i] = i != free && std::fabs(next) <= 1e-12 * std::fabs(w[i]) ? 0.0 : next;
    }
    ++moved;
    if (step >= 1) break;  // the stationary point of the sign pattern
  }
  return moved;
}

double l1_norm(const std::vector<double>& v) {
  double out = 0;
  for (double x : v) out += std::fabs(x);
  return out;
}

// The minimum-norm subgradients of f at the objective's w.
template <class Objective>
std::vector<double> min_norm_subgradients(const Objective& objective,
                                          const Regularizer& regularizer) {
  std::vector<double> v = objective.gradient();
  const std::vector<double>& w = objective.w();
  for (std::size_t i = 0; i < v.size(); ++i) {
    v[i] = regularizer.at(i).min_norm_subgradient(w[i], v[i]);
  }
  return v;
}

// What eps multiplies in the stopping test (see the header); kLassoGap:
// the Lasso's relative duality gap in place of the subgradient test.
enum class StopBase { kStart, kFirstSweep, kLassoGap };

// What the outer iterations read and never change.
struct L1Settings {
  double sigma;     // the Armijo-type rule's constant
  double beta;      // the line search's shrink factor
  bool feedback;    // rule.wants_feedback()
  bool may_shrink;  // rule.solver_may_shrink()
};

// What an outer iteration measured and did.
struct L1EpochStats {
  double violation_sum = 0;  // ||v||_1 over the coordinates visited
  double max_violation = 0;
  bool failed = false;     // a non-finite direction
  std::size_t shrunk = 0;  // coordinates it left out of the active set
  std::int64_t visits = 0;
  std::int64_t full_newton_steps = 0;
  std::int64_t function_evaluations = 0;
};

// One outer iteration in the rule's order: for each active i, the
// derivatives, the shrinking test, v_i, the direction (36) and the line
// search. The per-coordinate step is in this one function (line_search
// inlined), so that it compiles into one loop.
template <class Objective>
L1EpochStats cd_l1_epoch(Objective& objective, const Regularizer& regularizer, SelectionRule& rule,
                         const L1Settings& settings, double shrink_below, std::vector<char>& active,
                         std::vector<double>& violation) {
  L1EpochStats stats;
  rule.start_epoch();
  for (CoordinateBatch batch = rule.next_batch(); batch.size > 0 && !stats.failed;
       batch = rule.next_batch()) {
    for (std::size_t k = 0; k < batch.size; ++k) {
      const std::size_t i = batch.begin[k];
      if (!active[i]) continue;
      const BoundedDerivs derivs = objective.bounded_derivs(i);
      const double wi = objective.w()[i];
      // -R's bias weight has no regularizer: its step is the plain Newton
      // step -g/h and it is never shrunk (as LIBLINEAR 2.50's -R).
      const bool free = i == regularizer.unregularized;
      const Regularizer r = regularizer.at(i);
      // The loss part's derivatives (r's smooth part taken back out).
      const double g = derivs.d1 - r.l2 * wi;
      const double h = std::max(derivs.d2 - r.l2, kMinSecondDerivative);
      const double v = r.min_norm_subgradient(wi, derivs.d1);
      ++stats.visits;
      if (settings.may_shrink && !free && wi == 0 && std::fabs(g) < shrink_below) {
        active[i] = 0;
        ++stats.shrunk;
        violation[i] = 0;
        continue;
      }
      violation[i] = v;
      stats.violation_sum += std::fabs(v);
      stats.max_violation = std::max(stats.max_violation, std::fabs(v));
      const double d = r.prox_step(wi, g, h);
      if (d == 0) {
        ++stats.full_newton_steps;
        if (settings.feedback) rule.feedback({i, derivs.d1, derivs.d2, 0.0});
        continue;
      }
      if (!std::isfinite(d)) {
        stats.failed = true;
        break;
      }
      // Delta of the Armijo rule: < 0 for d != 0 in exact arithmetic; near
      // the optimum rounding can leave it >= 0, and then no step can
      // decrease f by a measurable amount: the coordinate stays.
      const double model = g * d + r.delta(wi, d);
      if (!(model < 0)) {
        if (settings.feedback) rule.feedback({i, derivs.d1, derivs.d2, 0.0});
        continue;
      }
      const double lambda = l1_line_search(objective, r, i, derivs, wi, g, d, model, settings.sigma,
                                           settings.beta, stats.function_evaluations);
      if (lambda == 1.0) ++stats.full_newton_steps;
      if (settings.feedback) rule.feedback({i, derivs.d1, derivs.d2, lambda * d});
    }
  }
  return stats;
}

// ||v||_1 after an outer iteration: the sum over the coordinates it
// visited; but when that passes the test under a rule that may miss
// coordinates (uniform draws), v measured afresh at w over the active ones.
template <class Objective>
double violation_norm(const Objective& objective, const Regularizer& regularizer,
                      const SelectionRule& rule, double visited_sum, double stop_norm,
                      const std::vector<char>& active, std::vector<double>& violation) {
  if (!(visited_sum <= stop_norm) || rule.visits_all()) return visited_sum;
  violation = min_norm_subgradients(objective, regularizer);
  double norm = 0;
  for (std::size_t i = 0; i < active.size(); ++i) {
    if (active[i]) norm += std::fabs(violation[i]);
  }
  return norm;
}

// The header's algorithm: outer iterations until the stopping rule, a
// non-finite direction or max_iter ends the run. restore_every: see
// kClassificationRestoreEvery (0: only when the test passes).
// kLassoGap reads `problem` (the objective's data).
template <class Objective>
SolveResult cd_l1_loop(Objective& objective, const Regularizer& regularizer, SelectionRule& rule,
                       const Params& params, double eps, std::size_t num_rows, Reporter& reporter,
                       std::int64_t restore_every = 0, StopBase stop_base = StopBase::kStart,
                       const Problem* problem = nullptr) {
  const std::int64_t max_iter = params.max_iter.value();
  const bool gap_stop = stop_base == StopBase::kLassoGap;
  // The Lasso's support steps (the header), with the rules that keep no
  // state of their own about w.
  const bool support_stepping = gap_stop && !rule.wants_feedback();
  const L1Settings settings{params.own<LineSearchOptions>().sigma,
                            params.own<LineSearchOptions>().beta, rule.wants_feedback(),
                            rule.solver_may_shrink()};
  const double rows = static_cast<double>(std::max<std::size_t>(num_rows, 1));

  SolveResult result;
  std::vector<double> violation = min_norm_subgradients(objective, regularizer);
  double stop_norm = eps * l1_norm(violation);
  const bool first_sweep_base = stop_base == StopBase::kFirstSweep && rule.visits_all();
  result.grad_norm = l1_norm(violation);
  double gap = 0;
  double gap_primal = 0;
  // The relative gap test: gap <= eps f(w), both from lasso_rescaled_gap,
  // or <= kMinRelativeGap f(w) for a smaller eps.
  const auto gap_passes = [&] {
    gap = lasso_rescaled_gap(*problem, objective.w(), &gap_primal, regularizer.unregularized);
    return gap <= std::max(eps, kMinRelativeGap) * gap_primal;
  };
  bool converged = gap_stop ? gap_passes() : result.grad_norm <= stop_norm;
  bool failed = false;
  L1Shrinking shrinking(objective.num_features());
  std::int64_t support_moves = 0;  // support steps that moved w

  Progress progress(reporter);
  while (!converged && !failed && result.iterations < max_iter) {
    const double shrink_below = regularizer.l1 - shrinking.max_violation_old / rows;
    const L1EpochStats epoch = cd_l1_epoch(objective, regularizer, rule, settings, shrink_below,
                                           shrinking.active, violation);
    result.inner_iterations += epoch.visits;
    result.full_newton_steps += epoch.full_newton_steps;
    result.function_evaluations += epoch.function_evaluations;
    shrinking.inactive += epoch.shrunk;
    failed = epoch.failed;
    // Nothing is shrunk in the first outer iteration (max_violation_old is
    // infinite), so its sum covers every coordinate.
    if (first_sweep_base && result.iterations == 0) stop_norm = eps * epoch.violation_sum;
    result.grad_norm = violation_norm(objective, regularizer, rule, epoch.violation_sum, stop_norm,
                                      shrinking.active, violation);
    ++result.iterations;
    if (epoch.max_violation > 0) shrinking.max_violation_old = epoch.max_violation;
    progress.pause();
    progress.report(result.iterations, objective.value(), result.grad_norm, &objective.w());
    if (gap_stop) {
      // The gap is over every coordinate, shrunk or not: it certifies w.
      converged = gap_passes();
      if (!converged) {
        // The kept scores drift by rounding over many steps, and CD's fixed
        // point on them is not the optimum the gap measures: recompute them
        // from w (O(nnz), as the gap).
        std::vector<double> w = objective.w();
        if (support_stepping && result.iterations % kSupportStepEvery == 0) {
          support_moves += support_steps(*problem, w, regularizer.unregularized);
        }
        objective.reset(w);
        shrinking.restore_if_due(result.grad_norm <= stop_norm, kClassificationRestoreEvery);
      }
      continue;
    }
    converged = result.grad_norm <= stop_norm;
    // Restored: the test passed on the active coordinates (or they have had
    // restore_every outer iterations); check them all.
    if (shrinking.restore_if_due(converged, restore_every)) converged = false;
  }
  if (gap_stop) {
    char line[160];
    std::snprintf(line, sizeof line, "duality gap %.6e (relative %.3e), %lld support steps", gap,
                  gap_primal > 0 ? gap / gap_primal : 0.0, static_cast<long long>(support_moves));
    reporter.info(line);
  }
  result.status = failed      ? Status::kLineSearchFailed
                  : converged ? Status::kConverged
                              : Status::kMaxIter;
  result.w = objective.w();
  result.objective = objective.value();
  result.seconds = progress.seconds();
  return result;
}

template <class Objective>
SolveResult run(Objective& objective, const SolverInput& input, const Regularizer& regularizer) {
  if (input.w0 != nullptr) objective.reset(*input.w0);
  auto rule = make_selection_rule(input);
  if (regularizer.smooth()) return solve_cd(objective, *rule, input.params, input.reporter);
  double eps = input.params.eps.value();
  const L1RowCounts counts = l1_row_counts(input.problem);
  if (input.problem.task == Task::kClassification) eps *= counts.minority_share;
  const std::int64_t restore_every =
      input.problem.task == Task::kClassification ? kClassificationRestoreEvery : 0;
  const LossKind loss = input.params.loss.value();
  const StopBase stop_base = loss == LossKind::kL2Svm     ? StopBase::kFirstSweep
                             : loss == LossKind::kSquared ? StopBase::kLassoGap
                                                          : StopBase::kStart;
  return cd_l1_loop(objective, regularizer, *rule, input.params, eps, counts.counted,
                    input.reporter, restore_every, stop_base, &input.problem);
}

}  // namespace

SolveResult solve_cd_l1(CoordinateObjective& objective, SelectionRule& rule, const Params& params,
                        const Regularizer& regularizer, double eps, std::size_t num_rows,
                        Reporter& reporter) {
  return cd_l1_loop(objective, regularizer, rule, params, eps, num_rows, reporter);
}

SolveResult solve_cd_general(const SolverInput& input) {
  const Regularizer regularizer = regularizer_of(input.params, input.problem.num_features());
  const LossKind loss = input.params.loss.value();
  if (is_regression(loss)) {
    return with_regression_objective(
        loss, input.problem, regularizer, input.params.svr_epsilon.value_or(kDefaultSvrEpsilon),
        [&](auto& objective) { return run(objective, input, regularizer); });
  }
  switch (loss) {
    case LossKind::kL2Svm: {
      MarginObjective<L2SvmLoss> objective(input.problem, regularizer, thread_count(input.params));
      return run(objective, input, regularizer);
    }
    case LossKind::kLogistic: {
      if (regularizer.smooth()) {
        MarginObjective<LogisticLoss> objective(input.problem, regularizer,
                                                thread_count(input.params));
        return run(objective, input, regularizer);
      }
      // Most L1 visits leave w_i at 0: derivatives from cached per-row terms.
      CachedMarginObjective<LogisticLoss> objective(input.problem, regularizer);
      return run(objective, input, regularizer);
    }
    default:
      break;
  }
  throw ConfigError(std::string("the CD solvers do not train loss ") + loss_info(loss).name);
}

}  // namespace cdl
