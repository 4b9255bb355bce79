// Dual coordinate descent for L2-regularized L1- and L2-loss linear SVMs.
//
// Problem: the dual of min_w 1/2 w'w + sum_j C_j loss(y_j w'x_j), with
//   loss(m) = max(0, 1 - m) (L1-SVM) or max(0, 1 - m)^2 (L2-SVM):
//     min_alpha f(alpha) = 1/2 alpha' Qbar alpha - e'alpha,
//     0 <= alpha_j <= U_j,  Qbar = Q + D,  Q_jk = y_j y_k x_j'x_k,
//   with U_j = C_j, D_jj = 0 for L1-SVM and U_j = inf, D_jj = 1/(2 C_j) for
//   L2-SVM (Hsieh, Chang, Lin, Keerthi & Sundararajan, "A Dual Coordinate
//   Descent Method for Large-scale Linear SVM", ICML 2008, the dual of its
//   primal problem; the primer of Shi, Tu, Xu & Yin, example (40)). C_j is Problem::cost(j): C
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
//   is <= G at the end of an epoch.
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
#include "solvers/progress.h"
#include "solvers/solver.h"
#include "solvers/solver_dcd_adaptive.h"
#include "util/error.h"

namespace cdl {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
// Rows are prefetched this far ahead along the rule's batch: the row's
// offsets and per-row values at 2x, its nonzeros at 1x.
constexpr std::size_t kPrefetchDistance = 8;
// A step is taken only when |PG| exceeds this (a step of that size moves
// alpha by less than rounding).
constexpr double kMinProjectedGradient = 1e-12;

// What a coordinate step reads for instance j, packed so that one visit
// touches one place: alpha_j, Qbar_jj and y_j.
struct DualRow {
  double alpha;
  double qbar;  // x_j'x_j + D_jj
  double y;     // +1 or -1
};

// U_j (L1-SVM) and D_jj (L2-SVM) of each class (the header's problem). A
// template on the loss, so that the epoch's loop sees L2-SVM's U_j = inf
// as a constant.
struct ClassBounds {
  double upper_pos;
  double upper_neg;
  double diag_pos;
  double diag_neg;
};

template <LossKind kLoss>
ClassBounds class_bounds(const Problem& problem) {
  static_assert(kLoss == LossKind::kL1Svm || kLoss == LossKind::kL2Svm);
  constexpr bool kL1 = kLoss == LossKind::kL1Svm;
  return {kL1 ? problem.cost_pos : kInfinity, kL1 ? problem.cost_neg : kInfinity,
          kL1 ? 0.0 : 0.5 / problem.cost_pos, kL1 ? 0.0 : 0.5 / problem.cost_neg};
}

// The dual variables and which of them the epochs visit.
struct DualRows {
  std::vector<DualRow> row;
  std::vector<std::uint8_t> active;  // C_j > 0 and not shrunk
  std::size_t countable = 0;         // rows with C_j > 0
  std::size_t active_count = 0;
  // The rule numbers the rows that count, in order; with rows held out,
  // kept[k] is the row of the rule's coordinate k (so that a fold visits its
  // rows in the same order as a copy without the held-out rows would).
  std::vector<std::size_t> kept;
  bool rows_held_out = false;

  // kept's rows, or null when the rule's coordinate k is row k.
  const std::size_t* row_map() const { return rows_held_out ? kept.data() : nullptr; }
  // Every coordinate back in the active set (after shrinking).
  void restore(const Problem& problem) {
    for (std::size_t j = 0; j < row.size(); ++j) active[j] = problem.cost(j) > 0;
    active_count = countable;
  }
  void copy_alpha(std::vector<double>& out) const {
    out.resize(row.size());
    for (std::size_t j = 0; j < row.size(); ++j) out[j] = row[j].alpha;
  }
};

// Algorithm 1's start: alpha = 0 (so w = 0), Qbar_jj computed once, every
// row with C_j > 0 active.
template <LossKind kLoss>
DualRows start_dual(const Problem& problem, const CsrMatrix& x) {
  const ClassBounds bounds = class_bounds<kLoss>(problem);
  const std::size_t l = problem.num_rows();
  DualRows dual;
  dual.row.resize(l);
  dual.active.assign(l, 0);
  dual.rows_held_out = problem.held_out != nullptr;
  for (std::size_t j = 0; j < l; ++j) {
    if (problem.cost(j) > 0 && problem.held_out != nullptr) dual.kept.push_back(j);
    const double y = problem.y[j] > 0 ? 1.0 : -1.0;
    dual.row[j] = {0.0, row_squared_norm(x, j) + (y > 0 ? bounds.diag_pos : bounds.diag_neg), y};
    dual.active[j] = problem.cost(j) > 0;
    dual.countable += dual.active[j];
  }
  dual.active_count = dual.countable;
  return dual;
}

// The shrinking thresholds of an epoch: Mbar and mbar, the largest and
// smallest PG of the previous one (infinite when nothing may be shrunk).
struct ShrinkBounds {
  double max_prev = kInfinity;   // Mbar
  double min_prev = -kInfinity;  // mbar
};

// What an epoch measured and did.
struct EpochStats {
  double max_pg = -kInfinity;  // over the coordinates visited, before their steps
  double min_pg = kInfinity;
  std::size_t shrunk = 0;  // coordinates it removed from the active set
  std::int64_t visits = 0;
  std::int64_t nnz_ops = 0;

  // The stopping rule's PG spread; no coordinate visited (all shrunk):
  // nothing violates.
  double spread() const { return max_pg >= min_pg ? max_pg - min_pg : 0.0; }
};

// Prefetches the rows kPrefetchDistance and twice that ahead of batch
// entry k (see kPrefetchDistance).
template <class RowOf>
inline void prefetch_ahead(const CsrMatrix& x, const DualRow* row, const CoordinateBatch& batch,
                           std::size_t k, const RowOf& row_of) {
  constexpr std::size_t d = kPrefetchDistance;
  if (k + 2 * d < batch.size) {
    const std::size_t ahead = row_of(batch.begin[k + 2 * d]);
    __builtin_prefetch(&x.row_ptr[ahead]);
    __builtin_prefetch(&row[ahead], 1);
  }
  if (k + d < batch.size) {
    const std::size_t ahead = row_of(batch.begin[k + d]);
    const auto start = static_cast<std::size_t>(x.row_ptr[ahead]);
    __builtin_prefetch(&x.values[start]);
    __builtin_prefetch(&x.col_idx[start]);
  }
}

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
      DualRow& r = row[i];
      const auto begin = static_cast<std::size_t>(x.row_ptr[i]);
      const auto end = static_cast<std::size_t>(x.row_ptr[i + 1]);
      double dot = 0;
      for (std::size_t t = begin; t < end; ++t) dot += x.values[t] * w[x.col_idx[t]];
      stats.nnz_ops += static_cast<std::int64_t>(end - begin);
      ++stats.visits;
      const bool positive = r.y > 0;
      const double upper = positive ? bounds.upper_pos : bounds.upper_neg;
      const double G = r.y * dot - 1.0 + (positive ? bounds.diag_pos : bounds.diag_neg) * r.alpha;
      double pg = G;
      if (r.alpha == 0) {
        if (shrink && G > prev.max_prev) {
          active[i] = 0;
          ++stats.shrunk;
          continue;
        }
        pg = std::min(G, 0.0);
      } else if (r.alpha == upper) {
        if (shrink && G < prev.min_prev) {
          active[i] = 0;
          ++stats.shrunk;
          continue;
        }
        pg = std::max(G, 0.0);
      }
      stats.max_pg = std::max(stats.max_pg, pg);
      stats.min_pg = std::min(stats.min_pg, pg);
      if (std::fabs(pg) <= kMinProjectedGradient) continue;
      // (40); an empty row of L1-SVM (Qbar_ii = 0) has G = -1: alpha_i = U_i.
      const double target = r.qbar > 0 ? r.alpha - G / r.qbar : upper;
      const double next = std::min(std::max(target, 0.0), upper);
      const double step = (next - r.alpha) * r.y;
      r.alpha = next;
      if (step == 0) continue;
      for (std::size_t t = begin; t < end; ++t) w[x.col_idx[t]] += step * x.values[t];
      stats.nnz_ops += static_cast<std::int64_t>(end - begin);
    }
  }
  return stats;
}

// The stopping test after an epoch, and the next epoch's shrinking
// thresholds. A pass with coordinates shrunk has only solved the shrunk
// problem: every coordinate is restored and the solver goes on (false), as
// the paper does.
bool epoch_passes(const EpochStats& epoch, double eps, const Problem& problem, DualRows& dual,
                  ShrinkBounds& next) {
  if (epoch.spread() <= eps && dual.active_count < dual.countable) {
    dual.restore(problem);
    next = ShrinkBounds{};
    return false;
  }
  next.max_prev = epoch.max_pg > 0 ? epoch.max_pg : kInfinity;
  next.min_prev = epoch.min_pg < 0 ? epoch.min_pg : -kInfinity;
  return epoch.spread() <= eps;
}

// Reports the epoch just ended, with the clock stopped. f(w) costs O(#nz)
// here (CD keeps the margins; this solver does not), so it comes with the
// duality gap, computed only when something shows it or --gap-tol needs it
// (else f is NaN). Returns whether the gap is within --gap-tol.
template <LossKind kLoss>
bool report_epoch(const Problem& problem, const Params& params, bool wants_gap,
                  const DualRows& dual, const std::vector<double>& w, const SolveResult& result,
                  std::vector<double>& alpha, Progress& progress) {
  progress.pause();
  IterationInfo info{result.iterations, std::nan(""), result.grad_norm, 0.0, &w};
  bool gap_met = false;
  if (wants_gap) {
    dual.copy_alpha(alpha);
    const DualGap gap = duality_gap(problem, kLoss, alpha, w);
    info.objective = gap.primal;
    info.alpha = &alpha;
    gap_met = params.gap_tol && gap.gap <= *params.gap_tol;
  }
  info.nnz_ops = result.nnz_ops;
  progress.report(info);
  return gap_met;
}

// Algorithm 1 with shrinking (the header): epochs until the stopping rule,
// the duality gap or max_iter ends the run.
template <LossKind kLoss>
SolveResult dcd_loop(const Problem& problem, const CsrMatrix& x, SelectionRule& rule,
                     const Params& params, Reporter& reporter) {
  const double eps = params.eps.value();
  const std::int64_t max_iter = params.max_iter.value();
  const bool shrink = params.shrink.value_or(true);
  assert(x.num_rows == problem.num_rows());
  DualRows dual = start_dual<kLoss>(problem, x);
  std::vector<double> w(x.num_cols, 0.0);

  SolveResult result;
  const bool wants_gap = params.gap_tol.has_value() ||
                         reporter.level() != Reporter::Level::kQuiet || reporter.wants_w();
  ShrinkBounds shrink_bounds;
  bool converged = false;
  std::vector<double> alpha;  // a copy for reports

  Progress progress(reporter);
  while (!converged && result.iterations < max_iter) {
    const EpochStats epoch = dcd_epoch<kLoss>(problem, x, shrink, shrink_bounds, rule, dual, w);
    result.nnz_ops += epoch.nnz_ops;
    result.inner_iterations += epoch.visits;
    dual.active_count -= epoch.shrunk;
    ++result.iterations;
    result.grad_norm = epoch.spread();
    converged = epoch_passes(epoch, eps, problem, dual, shrink_bounds);
    if (report_epoch<kLoss>(problem, params, wants_gap, dual, w, result, alpha, progress)) {
      converged = true;
    }
  }
  result.seconds = progress.seconds();
  result.status = converged ? Status::kConverged : Status::kMaxIter;
  dual.copy_alpha(result.alpha);
  result.objective =
      objective_value(problem, kLoss, Regularizer::l2_only(), w, margins(problem, w));
  result.w = std::move(w);
  return result;
}

}  // namespace

SolveResult solve_dcd(const Problem& problem, LossKind loss, SelectionRule& rule,
                      const Params& params, Reporter& reporter) {
  std::optional<CsrMatrix> own_rows;
  if (problem.rows == nullptr) own_rows = to_csr(problem.x());
  const CsrMatrix& x = problem.rows != nullptr ? *problem.rows : *own_rows;
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
  const SolverInfo& solver = solver_info(input.params.solver);
  const std::string name = input.params.select ? *input.params.select : solver.rule;
  // Rules that read the dual state (importance, the adaptive and greedy
  // rules) run in the adaptive loop, one coordinate per draw
  // (solver_dcd_adaptive.cpp).
  const RuleInfo* info = find_rule(name);
  if (info != nullptr && info->dual_needs != DualNeeds::kNone) {
    return solve_dcd_with_rule(input.problem, input.params.loss.value(), name, input.seed,
                               input.params, input.reporter, input.params.gap_tol.value_or(0.0));
  }
  // The dual's coordinates are the instances.
  std::size_t coordinates = 0;
  for (std::size_t j = 0; j < input.problem.num_rows(); ++j) coordinates += input.problem.counts(j);
  const std::unique_ptr<SelectionRule> rule = make_rule(name, {coordinates, input.seed, nullptr});
  return solve_dcd(input.problem, input.params.loss.value(), *rule, input.params, input.reporter);
}

}  // namespace cdl
