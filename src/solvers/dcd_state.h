// The state and the pieces of dual coordinate descent for the SVM that the
// serial solver (solver_dcd.cpp) and the partitioned one
// (solver_dcd_partitioned.cpp) share: the dual variables and their active
// set, one coordinate's step (40), an epoch's PG measurements, the stopping
// test with shrinking, and the report of an epoch. solver_dcd.cpp's header
// states the problem and the algorithm.
#ifndef CDL_SOLVERS_DCD_STATE_H_
#define CDL_SOLVERS_DCD_STATE_H_

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "data/problem.h"
#include "objective/dual_gap.h"
#include "objective/evaluate.h"
#include "select/selection_rule.h"
#include "solvers/params.h"
#include "solvers/primal_rule.h"
#include "solvers/progress.h"
#include "solvers/report.h"
#include "solvers/solve_result.h"

namespace cdl {
namespace dcd {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
// Rows are prefetched this far ahead along the rule's batch: the row's
// offsets and per-row values at 2x, its nonzeros at 1x.
constexpr std::size_t kPrefetchDistance = 8;
// A step is taken only when |PG| exceeds this (a step of that size moves
// alpha by less than rounding).
constexpr double kMinProjectedGradient = 1e-12;

// What a coordinate step reads for instance j, packed so that one visit
// touches one place: alpha_j, and Qbar_jj = x_j'x_j + D_jj >= 0 with the
// sign of y_j (-0.0 for Qbar_jj = 0 and y_j = -1): 16 bytes a row, where a
// third double for y_j made 24 (one-vs-rest holds one per class thread).
struct DualRow {
  double alpha;
  double signed_qbar;

  DualRow() = default;
  DualRow(double a, double qbar, double y) : alpha(a), signed_qbar(y > 0 ? qbar : -qbar) {}
  double qbar() const { return std::fabs(signed_qbar); }
  double y() const { return std::signbit(signed_qbar) ? -1.0 : 1.0; }
};

// U_j (L1-SVM) and D_jj (L2-SVM) of each class (the header's problem). A
// template on the loss, so that the epoch's loop sees L2-SVM's U_j = inf
// as a constant. With instance weights s_j (-W), C_j = C s_j: U_j is the
// class's times s_j, D_jj = 1/(2 C_j) the class's divided by s_j (rows of
// weight 0 are never visited).
struct ClassBounds {
  double upper_pos;
  double upper_neg;
  double diag_pos;
  double diag_neg;
  const double* weights = nullptr;  // s_j, or null: every s_j is 1

  double upper(bool positive, std::size_t j) const {
    const double u = positive ? upper_pos : upper_neg;
    return weights == nullptr ? u : u * weights[j];
  }
  double diag(bool positive, std::size_t j) const {
    const double d = positive ? diag_pos : diag_neg;
    return weights == nullptr ? d : d / weights[j];
  }
};

template <LossKind kLoss>
ClassBounds class_bounds(const Problem& problem) {
  static_assert(kLoss == LossKind::kL1Svm || kLoss == LossKind::kL2Svm);
  constexpr bool kL1 = kLoss == LossKind::kL1Svm;
  return {kL1 ? problem.cost_pos : kInfinity, kL1 ? problem.cost_neg : kInfinity,
          kL1 ? 0.0 : 0.5 / problem.cost_pos, kL1 ? 0.0 : 0.5 / problem.cost_neg,
          problem.weights != nullptr ? problem.weights->data() : nullptr};
}

// The dual variables and which of them the epochs visit.
struct DualRows {
  std::vector<DualRow> row;
  std::vector<std::uint8_t> active;  // C_j > 0 and not shrunk
  std::size_t countable = 0;         // rows with C_j > 0
  std::size_t active_count = 0;
  // The rule numbers the rows that count, in order; with rows held out (or
  // instance weights, some of which may be 0), kept[k] is the row of the rule's coordinate k (so
  // that a fold visits its rows in the same order as a copy without the held-out rows would).
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
  dual.rows_held_out = problem.may_drop_rows();
  for (std::size_t j = 0; j < l; ++j) {
    if (problem.cost(j) > 0 && dual.rows_held_out) dual.kept.push_back(j);
    const double y = problem.y[j] > 0 ? 1.0 : -1.0;
    const double diag = problem.counts(j) ? bounds.diag(y > 0, j) : 0.0;
    dual.row[j] = DualRow(0.0, row_squared_norm(x, j) + diag, y);
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

// The shrinking test, PG and the step (40) of one visited coordinate whose
// partial gradient is G and whose second derivative is qbar (r.qbar(), or a
// part's scaled one): updates r.alpha and stats, clears `active` if the
// coordinate is shrunk, and returns the change of y_i alpha_i (0 when none),
// which the caller adds times x_i to w.
inline double coordinate_step(DualRow& r, double G, double qbar, double upper, bool shrink,
                              const ShrinkBounds prev, std::uint8_t& active, EpochStats& stats) {
  double pg = G;
  if (r.alpha == 0) {
    if (shrink && G > prev.max_prev) {
      active = 0;
      ++stats.shrunk;
      return 0;
    }
    pg = std::min(G, 0.0);
  } else if (r.alpha == upper) {
    if (shrink && G < prev.min_prev) {
      active = 0;
      ++stats.shrunk;
      return 0;
    }
    pg = std::max(G, 0.0);
  }
  stats.max_pg = std::max(stats.max_pg, pg);
  stats.min_pg = std::min(stats.min_pg, pg);
  if (std::fabs(pg) <= kMinProjectedGradient) return 0;
  // (40); an empty row of L1-SVM (Qbar_ii = 0) has G = -1: alpha_i = U_i.
  const double target = qbar > 0 ? r.alpha - G / qbar : upper;
  const double next = std::min(std::max(target, 0.0), upper);
  const double step = (next - r.alpha) * r.y();
  r.alpha = next;
  return step;
}

// Visits active row i: its partial gradient G = y_i w'x_i - 1 + D_ii alpha_i
// read at `w`, then coordinate_step() with second derivative
// sigma x_i'x_i + D_ii (sigma = 1: Qbar_ii, the serial step; a part's
// sigma' otherwise, solver_dcd_partitioned.cpp). Returns the change of
// y_i alpha_i (0 when none); counts the visit and the dot product in stats.
inline double visit_row(const CsrMatrix& x, std::size_t i, const double* w,
                        const ClassBounds& bounds, double sigma, bool shrink,
                        const ShrinkBounds prev, DualRow& r, std::uint8_t& active,
                        EpochStats& stats) {
  const auto begin = static_cast<std::size_t>(x.row_ptr[i]);
  const auto end = static_cast<std::size_t>(x.row_ptr[i + 1]);
  double dot = 0;
  for (std::size_t t = begin; t < end; ++t) dot += x.values[t] * w[x.col_idx[t]];
  stats.nnz_ops += static_cast<std::int64_t>(end - begin);
  ++stats.visits;
  const double y = r.y();
  const bool positive = y > 0;
  const double upper = bounds.upper(positive, i);
  const double diag = bounds.diag(positive, i);
  const double G = y * dot - 1.0 + diag * r.alpha;
  const double qbar = sigma == 1 ? r.qbar() : sigma * (r.qbar() - diag) + diag;
  return coordinate_step(r, G, qbar, upper, shrink, prev, active, stats);
}

// Prefetches the rows kPrefetchDistance and twice that ahead of batch
// entry k (see kPrefetchDistance). Always inlined: GCC finds a function
// whose only effects are prefetches pure, and drops a call to it whose
// result is unused before it would inline it (not one prefetch instruction
// was left in the dual CD loops).
template <class RowOf>
__attribute__((always_inline)) inline void prefetch_ahead(const CsrMatrix& x, const DualRow* row,
                                                          const CoordinateBatch& batch,
                                                          std::size_t k, const RowOf& row_of) {
  constexpr std::size_t d = kPrefetchDistance;
  if (k + 2 * d < batch.size) {
    const std::size_t ahead = row_of(batch.begin[k + 2 * d]);
    __builtin_prefetch(&x.row_ptr[ahead]);
    __builtin_prefetch(&row[ahead], 1);
  }
  if (k + d < batch.size) prefetch_row(x, row_of(batch.begin[k + d]));
}

// The stopping test after an epoch, and the next epoch's shrinking
// thresholds. A pass with coordinates shrunk has only solved the shrunk
// problem: every coordinate is restored and the solver goes on (false), as
// the paper does.
inline bool epoch_passes(const EpochStats& epoch, double eps, const Problem& problem,
                         DualRows& dual, ShrinkBounds& next) {
  if (epoch.spread() <= eps && dual.active_count < dual.countable) {
    dual.restore(problem);
    next = ShrinkBounds{};
    return false;
  }
  next.max_prev = epoch.max_pg > 0 ? epoch.max_pg : kInfinity;
  next.min_prev = epoch.min_pg < 0 ? epoch.min_pg : -kInfinity;
  return epoch.spread() <= eps;
}

// What the loops carry from one epoch to the next besides the dual and w:
// whether the reports want the duality gap, and how it is computed if not
// by duality_gap() (dual_gap.h), the shrinking thresholds, whether the run
// has converged, the copy of alpha the reports read, and for -s 2 on wide
// data its primal rule (primal_rule.h, on `team_size` threads).
struct EpochLoop {
  EpochLoop(const Problem& problem, const Params& params, unsigned team_size, Reporter& reporter)
      : wants_gap(params.own<GapTolOptions>().gap_tol.has_value() ||
                  reporter.level() != Reporter::Level::kQuiet || reporter.wants_w()),
        threads(team_size) {
    if (stops_by_primal_rule(params)) primal.emplace(problem, params, team_size, reporter);
  }
  bool wants_gap;
  // P(w), D(alpha) and the gap at the loop's alpha and this w, if set.
  std::function<DualGap(const std::vector<double>& w)> gap;
  const unsigned threads;  // of the reports' and the result's margins
  ShrinkBounds shrink_bounds;
  bool converged = false;
  std::vector<double> alpha;
  std::optional<PrimalRule> primal;
};

// Reports the epoch just ended, with the clock stopped. f(w) costs O(#nz)
// here (CD keeps the margins; this solver does not), so it comes with the
// duality gap, computed only when something shows it or --gap-tol needs it
// (else f is NaN). Returns whether the gap is within --gap-tol.
template <LossKind kLoss>
bool report_epoch(const Problem& problem, const Params& params, const DualRows& dual,
                  const std::vector<double>& w, const SolveResult& result, EpochLoop& loop,
                  Progress& progress) {
  progress.pause();
  IterationInfo info{result.iterations, std::nan(""), result.grad_norm, 0.0, &w};
  bool gap_met = false;
  if (loop.wants_gap) {
    dual.copy_alpha(loop.alpha);
    const DualGap gap =
        loop.gap ? loop.gap(w) : duality_gap(problem, kLoss, loop.alpha, w, loop.threads);
    info.objective = gap.primal;
    info.alpha = &loop.alpha;
    const auto& gap_tol = params.own<GapTolOptions>().gap_tol;
    gap_met = gap_tol && gap.gap <= *gap_tol;
  }
  info.nnz_ops = result.nnz_ops;
  progress.report(info);
  return gap_met;
}

// The end of an epoch, shared by the loops: counts it into `result`, takes
// the stopping test (and the next shrinking thresholds) and reports it; sets
// loop.converged when the run has converged (-e's rule, or the primal rule
// of loop.primal, or --gap-tol).
template <LossKind kLoss>
void end_epoch(const EpochStats& epoch, const Problem& problem, const Params& params,
               DualRows& dual, const std::vector<double>& w, EpochLoop& loop, SolveResult& result,
               Progress& progress) {
  result.nnz_ops += epoch.nnz_ops;
  result.inner_iterations += epoch.visits;
  dual.active_count -= epoch.shrunk;
  ++result.iterations;
  result.grad_norm = epoch.spread();
  if (loop.primal) {
    // The primal rule in place of the spread's, which only sets the
    // shrinking thresholds; a failed check restores the shrunk rows.
    epoch_passes(epoch, -kInfinity, problem, dual, loop.shrink_bounds);
    loop.converged = report_epoch<kLoss>(problem, params, dual, w, result, loop, progress);
    if (loop.converged || !loop.primal->due(result.iterations)) return;
    loop.converged = loop.primal->passes(result.iterations, w);
    if (!loop.converged) {
      dual.restore(problem);
      loop.shrink_bounds = ShrinkBounds{};
    }
    return;
  }
  loop.converged = epoch_passes(epoch, params.eps.value(), problem, dual, loop.shrink_bounds);
  if (report_epoch<kLoss>(problem, params, dual, w, result, loop, progress)) {
    loop.converged = true;
  }
}

// The run's result: status, time, alpha, w and f(w).
template <LossKind kLoss>
void finish_run(const Problem& problem, const EpochLoop& loop, const DualRows& dual,
                std::vector<double> w, Progress& progress, SolveResult& result) {
  result.seconds = progress.seconds();
  result.status = loop.converged ? Status::kConverged : Status::kMaxIter;
  dual.copy_alpha(result.alpha);
  result.objective = loop.gap ? loop.gap(w).primal
                              : objective_value(problem, kLoss, Regularizer::l2_only(), w,
                                                margins(problem, w, loop.threads));
  result.w = std::move(w);
}

}  // namespace dcd
}  // namespace cdl

#endif  // CDL_SOLVERS_DCD_STATE_H_
