// Dual coordinate descent for the L2-regularized L1-/L2-loss SVM with an
// adaptive or greedy selection rule.
//
// Problem: min_alpha 1/2 alpha'Qbar alpha - e'alpha, 0 <= alpha_i <= U_i (see
//   objective/dual_state.h: U_i = C_i, D_ii = 0 for l1svm; U_i = inf,
//   D_ii = 1/(2 C_i) for l2svm), whose solution gives w = sum_i y_i alpha_i x_i.
//
// Algorithm: Perekrestenko, Cevher & Jaggi (2017), Algorithm 1, with the
//   exact coordinate minimization of Hsieh et al. (2008) / the primer's (40):
//   draw i from the rule, alpha_i <- clip(alpha_i - grad_i / Qbar_ii, 0, U_i),
//   update w (and the margins, if the rule reads them), and tell the rule.
//   An epoch is n draws (or picks, for the greedy rules). No shrinking: the
//   adaptive rules already stop drawing coordinates with zero gap/residue.
//
// Stopping rule: after each epoch, from margins recomputed exactly, the
//   projected-gradient violation max_i PG_i - min_i PG_i <= eps (Hsieh et
//   al., Section 3.2, not checked against that paper's text; as -s dcd),
//   or the duality gap P(w) + D(alpha) <=
//   gap_tol, or max_iter epochs.
//
// Cost per epoch: n steps of O(nnz of the row) plus, for rules that read all
//   margins, the nonzeros of the columns the row touches and O(log n) per
//   changed row in the rule's sampler (dual_rules.h); O(nnz) to refresh the
//   margins. Reporting, O(nnz), is off the clock. Summed over an epoch of
//   steps, the exact re-weighing touches sum_k nnz(column k)^2 nonzeros
//   against nnz for a uniform epoch; where a feature is shared by nearly
//   every row (a9a) that ratio is about 10^4 and one step costs O(l).
//
// Bounded-staleness gaps: when that ratio exceeds kStaleGapsRatio (100) and
//   --exact-gaps is not given, the margins are not tracked; a step re-weighs
//   only its own row (its margin O(nnz of the row)), and every ceil(l /
//   kRefreshesPerEpoch) steps the rule rebuilds all weights from fresh
//   margins (refresh_weights(), O(nnz)). Each draw then uses weights at most
//   l/8 steps old, exact for the rows stepped since; a step costs O(nnz of
//   its row + log l) plus the refreshes' O(8 nnz / l) share, whatever l;
//   the greedy rules re-score the heap's top before they pick it (lazy
//   greedy, dual_rule_base.cpp), without which stale gs-s did not converge
//   on a9a in 1000 epochs. The
//   sampling differs from Algorithm 1 by that staleness (a row whose gap
//   another step changed keeps its old share until the next refresh); the
//   convergence theory of the paper is for exact gaps, which --exact-gaps
//   keeps (the experiments use it). cdtrain warns when the form it runs
//   costs more than kStaleGapsRatio uniform epochs an epoch.
//
// Matrices: both. The steps walk rows (x_i, w += delta y_i x_i); a rule that
//   reads all margins (DualNeeds::kMargins) updates the margins of the rows
//   that share a feature with x_i, which only the columns list, and its
//   epoch statistics count the CSC's nonzeros. So these runs are not
//   trains_on_rows() (train.h): train() gives them the columns beside the rows.
#include "solvers/solver_dcd_adaptive.h"

#include <algorithm>
#include <cstdio>
#include <limits>

#include "solvers/progress.h"
#include "solvers/solver.h"
#include "util/error.h"

namespace cdl {

double exact_epoch_cost_ratio(const CscMatrix& x) {
  double squares = 0;
  for (std::size_t k = 0; k < x.num_cols; ++k) {
    const auto count = static_cast<double>(x.col_ptr[k + 1] - x.col_ptr[k]);
    squares += count * count;
  }
  const auto nnz = static_cast<double>(x.nnz());
  return nnz > 0 ? squares / nnz : 1.0;
}

namespace {

DualEpochInfo measure(const DualState& state, std::int64_t epoch) {
  DualEpochInfo info;
  info.epoch = epoch;
  const std::vector<double> m = state.compute_margins();
  double low = std::numeric_limits<double>::infinity();
  double high = -low;
  double gap = 0;
  bool any = false;
  for (std::size_t i = 0; i < state.size(); ++i) {
    if (!state.counts(i)) continue;
    any = true;
    const double g = m[i] - 1.0 + state.diag(i) * state.alpha(i);
    double pg = g;
    if (state.alpha(i) <= 0) pg = std::min(g, 0.0);
    if (state.alpha(i) >= state.upper(i)) pg = std::max(g, 0.0);
    low = std::min(low, pg);
    high = std::max(high, pg);
    gap += state.gap_at(i, m[i]);
  }
  info.violation = any ? high - low : 0.0;
  info.dual = state.dual_objective();
  info.primal = state.primal_objective();
  info.gap = gap;
  info.nnz_ops = state.nnz_ops();
  return info;
}

}  // namespace

SolveResult solve_dcd_adaptive(DualState& state, SelectionRule& rule, const Params& params,
                               Reporter& reporter, double gap_tol,
                               const DualEpochCallback& on_epoch, std::size_t refresh_every) {
  const double eps = params.eps.value();
  const std::int64_t max_iter = params.max_iter.value();
  SolveResult result;
  result.status = Status::kMaxIter;
  DualEpochInfo info = measure(state, 0);  // before the clock starts
  if (on_epoch) on_epoch(info);
  Progress progress(reporter);
  for (std::int64_t epoch = 1; epoch <= max_iter; ++epoch) {
    rule.start_epoch();
    const bool feedback = rule.wants_feedback();
    std::size_t since_refresh = 0;
    for (std::size_t i = rule.next(); i != SelectionRule::kNone; i = rule.next()) {
      // D'_i(0) before the step, for the feedback (O(1) with tracked
      // margins, O(nnz of row i) with stale gaps).
      const double d1 = feedback ? state.gradient(i) : 0.0;
      const double step = state.step(i);
      ++result.inner_iterations;
      if (feedback) rule.feedback({i, d1, state.qbar(i), step});
      if (refresh_every > 0 && ++since_refresh == refresh_every) {
        since_refresh = 0;
        rule.refresh_weights();
        state.add_nnz_ops(static_cast<std::int64_t>(state.problem().nnz()));
      }
    }
    state.refresh_margins();
    if (state.tracks_margins()) {
      state.add_nnz_ops(static_cast<std::int64_t>(state.problem().x().nnz()));
    }
    progress.pause();
    info = measure(state, epoch);
    result.iterations = epoch;
    if (on_epoch) on_epoch(info);
    // The trace's primal, dual and gap columns come from alpha and w.
    IterationInfo report{epoch, info.primal, info.violation, 0.0, &state.w()};
    report.alpha = &state.alphas();
    report.nnz_ops = info.nnz_ops;
    progress.report(report);
    if (info.violation <= eps || (gap_tol > 0 && info.gap <= gap_tol)) {
      result.status = Status::kConverged;
      break;
    }
  }
  result.seconds = progress.seconds();
  result.w = state.w();
  result.alpha = state.alphas();
  result.nnz_ops = state.nnz_ops();
  result.objective = info.primal;
  result.grad_norm = info.violation;
  return result;
}

SolveResult solve_dcd_with_rule(const Problem& problem, LossKind loss, const std::string& rule,
                                std::uint64_t seed, const Params& params, Reporter& reporter,
                                double gap_tol, const DualEpochCallback& on_epoch) {
  const RuleInfo* info = find_rule(rule);
  if (info == nullptr) throw ConfigError("unknown selection rule '" + rule + "'");
  if (!info->applies_to(kDualCoordinates)) {
    throw ConfigError("--select " + rule + " does not apply to dual CD; use " +
                      rule_choices(kDualCoordinates));
  }
  const bool margins = info->dual_needs == DualNeeds::kMargins;
  const double ratio = margins ? exact_epoch_cost_ratio(problem.x()) : 1.0;
  const bool stale = margins && !params.own<DualOptions>().exact_gaps && ratio > kStaleGapsRatio;
  if (margins && !stale && ratio > kStaleGapsRatio) {
    char line[200];
    std::snprintf(line, sizeof line,
                  "--select %s with --exact-gaps: an epoch costs about %.0fx a uniform epoch on "
                  "this data (rows share features widely)",
                  rule.c_str(), ratio);
    reporter.warning(line);
  }
  DualState state(problem, loss, margins && !stale);
  const std::size_t refresh_every =
      stale ? std::max<std::size_t>(
                  1, (problem.num_rows() + kRefreshesPerEpoch - 1) / kRefreshesPerEpoch)
            : 0;
  RuleContext context;
  context.num_coordinates = problem.num_rows();
  context.seed = seed;
  context.x = &problem.x();
  context.dual = &state;
  std::unique_ptr<SelectionRule> selection = info->make(context);
  return solve_dcd_adaptive(state, *selection, params, reporter, gap_tol, on_epoch, refresh_every);
}

}  // namespace cdl
