// Dual coordinate descent for L2-regularized L1- and L2-loss linear SVMs.
//
// Problem: the dual of min_w 1/2 w'w + sum_j C_j loss(y_j w'x_j), with
//   loss(m) = max(0, 1 - m) (L1-SVM) or max(0, 1 - m)^2 (L2-SVM):
//     min_alpha f(alpha) = 1/2 alpha' Qbar alpha - e'alpha,
//     0 <= alpha_j <= U_j,  Qbar = Q + D,  Q_jk = y_j y_k x_j'x_k,
//   with U_j = C_j, D_jj = 0 for L1-SVM and U_j = inf, D_jj = 1/(2 C_j) for
//   L2-SVM (Hsieh, Chang, Lin, Keerthi & Sundararajan, "A Dual Coordinate
//   Descent Method for Large-scale Linear SVM", ICML 2008, the dual of its
//   primal problem; the primer of Shi, Tu, Xu & Yin, Section 4.4, problem
//   (39); the Hsieh et al. algorithm and section numbers below are not
//   checked against that paper's text). C_j is Problem::cost(j): C
//   times the -wi weight of its class; a row held out by cross-validation has C_j = 0, alpha_j = 0
//   and is never visited.
//
// Algorithm: the paper's Algorithm 1. w = sum_j y_j alpha_j x_j is kept up
//   to date, so the partial gradient of coordinate i is
//     G = (Qbar alpha)_i - 1 = y_i w'x_i - 1 + D_ii alpha_i
//   and its exact one-variable minimizer over [0, U_i] is the primer's (40)
//     alpha_i <- min(max(alpha_i - G / Qbar_ii, 0), U_i)
//   after which w += (alpha_i_new - alpha_i_old) y_i x_i. Qbar_ii =
//   x_i'x_i + D_ii is computed once. A step is taken only when the
//   projected gradient PG (min(G, 0) at alpha_i = 0, max(G, 0) at
//   alpha_i = U_i, G inside) is not 0 to 1e-12. The selection rule
//   (--select, over the l instances) gives the order: by default a new
//   random permutation every epoch, as the paper recommends.
//   Shrinking (the paper's shrinking section and its Algorithm 3, on by
//   default, --no-shrink to turn it off):
//   with Mbar and mbar the largest and smallest PG of the previous epoch
//   (+inf and -inf when Mbar <= 0 or mbar >= 0, and in the first epoch), a
//   coordinate with alpha_i = 0 and G > Mbar, or alpha_i = U_i and
//   G < mbar, is removed from the active set; later epochs skip it.
//
// Stopping rule: after each epoch, the projected-gradient spread
//   max_j PG_j - min_j PG_j over the coordinates visited in it, measured
//   before each one's step, is <= eps (default 0.1; PG = 0 for every j
//   exactly at the optimum, so the spread is a KKT violation in the units of
//   the gradient). With coordinates shrunk, the test covers only the active
//   ones; when it passes, every coordinate is restored and the solver goes
//   on, as the paper does, and stops only when an epoch over all of them
//   passes. Also after --max-iter epochs (status MaxIter) and, with
//   --gap-tol G, once the duality gap P(w) - D(alpha) (objective/dual_gap.h)
//   is <= G at the end of an epoch. Under LIBLINEAR's -s 2 (the primal
//   L2-SVM, which the data's shape sends here on wide data) the rule is
//   -s 2's own instead, ||grad f(w)|| <= eps' ||grad f(0)||, checked between
//   epochs as primal_rule.h says.
//
// Cost: one step costs O(nonzeros of row i) twice (the dot product for G,
//   then the update of w when alpha_i moves); a skipped shrunk coordinate
//   costs O(1). An epoch is O(nonzeros of the active rows + l). The gap (for
//   --gap-tol, --trace and the progress lines) is O(#nz + l + n) per epoch,
//   computed with the clock stopped and skipped when nothing needs it (-q
//   without --trace or --gap-tol).
#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <optional>

#include "objective/dual_gap.h"
#include "objective/evaluate.h"
#include "select/selection_rule.h"
#include "solvers/dcd_state.h"
#include "solvers/progress.h"
#include "solvers/solver.h"
#include "solvers/solver_dcd_adaptive.h"
#include "util/error.h"

namespace cdl {
namespace {

using namespace dcd;
// One epoch of Algorithm 1 in the rule's order: for each active i, G, the
// shrinking test, PG, the step (40) and the update of w. The whole
// per-coordinate step is in this one function, so that it compiles into
// one loop.
template <LossKind kLoss>
EpochStats dcd_epoch(const Problem& problem, const CsrMatrix& x, bool shrink,
                     const ShrinkBounds prev, SelectionRule& rule, DualRows& dual,
                     std::vector<double>& w) {
  const ClassBounds bounds = class_bounds<kLoss>(problem);
  DualRow* const row = dual.row.data();
  std::uint8_t* const active = dual.active.data();
  const std::size_t* const map = dual.row_map();
  const auto row_of = [map](std::size_t coordinate) {
    return map != nullptr ? map[coordinate] : coordinate;
  };
  EpochStats stats;
  rule.start_epoch();
  for (CoordinateBatch batch = rule.next_batch(); batch.size > 0; batch = rule.next_batch()) {
    for (std::size_t k = 0; k < batch.size; ++k) {
      prefetch_ahead(x, row, batch, k, row_of);
      const std::size_t i = row_of(batch.begin[k]);
      if (active[i] == 0) continue;
      const double step =
          visit_row(x, i, w.data(), bounds, 1.0, shrink, prev, row[i], active[i], stats);
      if (step == 0) continue;
      const auto begin = static_cast<std::size_t>(x.row_ptr[i]);
      const auto end = static_cast<std::size_t>(x.row_ptr[i + 1]);
      for (std::size_t t = begin; t < end; ++t) w[x.col_idx[t]] += step * x.values[t];
      stats.nnz_ops += static_cast<std::int64_t>(end - begin);
    }
  }
  return stats;
}

// Algorithm 1 with shrinking (the header): epochs until the stopping rule,
// the duality gap or max_iter ends the run.
template <LossKind kLoss>
SolveResult dcd_loop(const Problem& problem, const CsrMatrix& x, SelectionRule& rule,
                     const Params& params, Reporter& reporter) {
  const std::int64_t max_iter = params.max_iter.value();
  const bool shrink = params.own<DualOptions>().shrink.value_or(true);
  assert(x.num_rows == problem.num_rows());
  DualRows dual = start_dual<kLoss>(problem, x);
  std::vector<double> w(x.num_cols, 0.0);

  SolveResult result;
  EpochLoop loop(problem, params, thread_count(params), reporter);
  Progress progress(reporter);
  while (!loop.converged && result.iterations < max_iter) {
    const EpochStats epoch =
        dcd_epoch<kLoss>(problem, x, shrink, loop.shrink_bounds, rule, dual, w);
    end_epoch<kLoss>(epoch, problem, params, dual, w, loop, result, progress);
  }
  finish_run<kLoss>(problem, loop, dual, std::move(w), progress, result);
  return result;
}

}  // namespace

SolveResult solve_dcd(const Problem& problem, LossKind loss, SelectionRule& rule,
                      const Params& params, Reporter& reporter) {
  std::optional<CsrMatrix> own_rows;
  const CsrMatrix& x = rows_of(problem, own_rows);
  switch (loss) {
    case LossKind::kL1Svm:
      return dcd_loop<LossKind::kL1Svm>(problem, x, rule, params, reporter);
    case LossKind::kL2Svm:
      return dcd_loop<LossKind::kL2Svm>(problem, x, rule, params, reporter);
    default:
      break;
  }
  throw Error(std::string("dual coordinate descent does not train loss ") + loss_info(loss).name);
}

SolveResult solve_dcd(const SolverInput& input) {
  const std::string name = rule_name(input.params);
  // Rules that read the dual state (importance, the adaptive and greedy
  // rules) run in the adaptive loop, one coordinate per draw
  // (solver_dcd_adaptive.cpp).
  const RuleInfo* info = find_rule(name);
  if (info != nullptr && info->dual_needs != DualNeeds::kNone) {
    return solve_dcd_with_rule(input.problem, input.params.loss.value(), name, input.seed,
                               input.params, input.reporter,
                               input.params.own<GapTolOptions>().gap_tol.value_or(0.0));
  }
  const std::size_t partitions = dcd_partitions(input.params, input.problem);
  if (partitions > 1) {
    return solve_dcd_partitioned(input.problem, input.params.loss.value(), partitions, input.seed,
                                 thread_count(input.params), input.params, input.reporter);
  }
  // The dual's coordinates are the instances.
  std::size_t coordinates = 0;
  for (std::size_t j = 0; j < input.problem.num_rows(); ++j) coordinates += input.problem.counts(j);
  const std::unique_ptr<SelectionRule> rule = make_rule(name, {coordinates, input.seed, nullptr});
  return solve_dcd(input.problem, input.params.loss.value(), *rule, input.params, input.reporter);
}

const OptionGroup* shrink_options() {
  static const OptionGroup group{
      "--shrink",
      "drops bounded dual variables",
      {{"--shrink", nullptr,
        "dual solvers (dcd): drop bounded dual variables from the epochs while they stay at their "
        "bound (default)",
        [](Params& params, const std::string&, const std::string&) {
          params.own<DualOptions>().shrink = true;
        },
        [](const Params& params) { return params.own<DualOptions>().shrink.value_or(false); },
        "--seed"},
       {"--no-shrink", nullptr, "dual solvers (dcd): visit every dual variable in every epoch",
        [](Params& params, const std::string&, const std::string&) {
          params.own<DualOptions>().shrink = false;
        },
        [](const Params& params) {
          const auto& shrink = params.own<DualOptions>().shrink;
          return shrink.has_value() && !*shrink;
        },
        "--shrink"}}};
  return &group;
}

const OptionGroup* exact_gaps_options() {
  static const OptionGroup group{
      "--exact-gaps",
      "re-weighs the dual rules' rows every step",
      {{"--exact-gaps", nullptr,
        "dcd with a rule that reads the margins (ada-gap, gs-s, ...): re-weigh every changed row "
        "after each step even where rows share features widely (default: refresh the weights "
        "8 times an epoch there)",
        [](Params& params, const std::string&, const std::string&) {
          params.own<DualOptions>().exact_gaps = true;
        },
        [](const Params& params) { return params.own<DualOptions>().exact_gaps; }, "--no-shrink"}}};
  return &group;
}

const OptionGroup* fixed_parts_options() {
  static const OptionGroup group{
      "--fixed-parts",
      "keeps dual CD's parts of the rows",
      {{"--fixed-parts", nullptr,
        "dcd with --partitions P > 1: every epoch's parts are the run's first cut of the rows "
        "(the parts cdtrain-mpi's ranks hold; its model); default: a new cut every epoch",
        [](Params& params, const std::string&, const std::string&) {
          params.own<DualOptions>().fixed_parts = true;
        },
        [](const Params& params) { return params.own<DualOptions>().fixed_parts; },
        "--partitions"}}};
  return &group;
}

}  // namespace cdl
