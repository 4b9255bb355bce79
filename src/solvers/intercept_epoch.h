// The end of an outer iteration, and of the run, shared by the solvers of the
// SVM with an unregularized intercept (pdcd, rcd-pair): both report the
// post-processed point of objective/intercept_gap.h and stop on its gap and
// on its intercept.
//
// Why the intercept has its own test: P is flat along w0 near the optimum,
// so a relative gap of 1e-3 (and on a9a even 1e-5) leaves the written w0
// off LIBSVM's by 0.01-1 while f is within 0.03%. The post-processed w0 is
// the exact minimizer for the iterate's w, and it wanders while w settles:
// slowly, in plateaus, until the support is found (breast-cancer_scale's
// w0 stays near 2.319 from epoch 700 to 1300, then moves to 2.339 by epoch
// 2500), after which the gap falls fast. So, unless --gap-tol asks for an
// absolute gap alone, the run stops at a check after epoch k when
//   P - D <= eps P                                  (the gap, as before),
//   sqrt(2 (P - D)) <= kInterceptSettle ||w||       (w is close), and
//   max - min of w0 over the checks of epochs k/2 .. k
//       <= kInterceptSettle = 3e-3                  (the intercept has settled).
// The second is a bound, not a guess: P is 1-strongly convex in w, so
// ||w - w*||^2 <= 2 (P(w, w0) - P*) <= 2 (P - D); each score w'x_j is then
// within 3e-3 ||x_j|| ||w|| of the optimum's, and w0, a weighted median of
// y_j - w'x_j, moves with them. It is what the plateau fails (relative gap
// 1.3e-4 on breast-cancer_scale); with it pdcd's w0 is within 1e-2 of
// LIBSVM's on heart_scale, breast-cancer_scale, diabetes_scale,
// german.numer_scale, australian_scale and rcv1_small (docs/checks.md).
// For the third, w0 is in the units of the margins y_j (w'x_j + w0): moving it by d moves
// every margin by d, against the hinge's kink at 1. A window of half the
// run sees a plateau only once the run is twice as long as the plateau,
// and sees a slow drift or the noise of a random order.
//
// The polish (intercept_polish.h): the three tests above can take thousands
// of epochs after the gap passed (australian_scale's w0 settles at epoch
// 70,000), while the iterate has found the support vectors roughly much
// earlier. So, without --gap-tol, at the first check whose gap is at most
// kPolishStart eps P, and then at the first check after the epoch of the
// last attempt has doubled, and at the last epoch, the iterate is also
// polished: a small dense QP on its free and near-margin rows, solved by
// greedy pairs to LIBSVM's KKT violation kPolishTol (= the -e of the
// fixture's svm-train), over rounds that rebuild the set from the free
// rows and the worst violators. The run stops
// with the polished point when its KKT violation over all rows is at most
// kPolishTol and its gap at most eps P; otherwise the polished point is
// dropped and the epochs go on from the iterate. An attempt costs a QP over
// the set it builds, small beside the epochs it saves (measured at f2d06d9;
// docs/checks.md); the clock counts it.
//
// The checks: post-processing costs O(#nz + l log l), more than a pdcd
// epoch on small sets (5x on breast-cancer_scale), so without --gap-tol the
// point is checked after epochs 1 .. kEveryEpochChecks and then every
// max(1, k / kChecksPerRun) epochs; with --gap-tol after every epoch (the
// papers' figures, one row per epoch). The schedule depends on k alone, so
// the model does not depend on timing.
//
// The epoch limit: --max-iter if given. Otherwise it scales with what the
// run needs: it goes on until kSettleFactor times the first epoch whose gap
// passed (at least kDefaultMaxIter; breast-cancer_scale's gap passes at
// epoch 327 and its intercept moves until about 2500), and past that while
// the gap still falls, the smallest gap of the checks up to epoch k at most
// kProgressRatio times the smallest up to epoch k/2 (once the support is
// found the gap falls geometrically).
#ifndef CDL_SOLVERS_INTERCEPT_EPOCH_H_
#define CDL_SOLVERS_INTERCEPT_EPOCH_H_

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "objective/intercept_gap.h"
#include "solvers/params.h"
#include "solvers/progress.h"
#include "solvers/solve_result.h"

namespace cdl {

// The largest spread of w0 over the settling window that stops a run (the
// header).
constexpr double kInterceptSettle = 3e-3;
// The check schedule without --gap-tol (the header).
constexpr std::int64_t kEveryEpochChecks = 10;
constexpr std::int64_t kChecksPerRun = 50;
// Without --max-iter, past kDefaultMaxIter epochs, the largest ratio of the
// smallest gap up to epoch k to the smallest up to k/2 that continues.
constexpr double kProgressRatio = 0.8;
// A polish is tried first at a check whose gap is at most kPolishStart eps P
// (the header).
constexpr double kPolishStart = 10;
// Without --max-iter, the epochs the intercept has to settle, as a multiple
// of the first epoch whose gap passed.
constexpr std::int64_t kSettleFactor = 20;

// sqrt(2 (P - D)) of the post-processed point: ||w - w*|| is at most this
// (the header).
double weight_distance_bound(const InterceptGap& point);

// max - min of the w0 of the checks at epochs k/2 .. k, k the last epoch in
// `checks` ((epoch, w0) in increasing epochs); +inf when fewer than two
// checks fall in that window. O(checks in the window).
double intercept_spread(const std::vector<std::pair<std::int64_t, double>>& checks);

// The stopping rule of the header, fed the post-processed point after each
// epoch that due() names.
class InterceptStop {
 public:
  explicit InterceptStop(const Params& params)
      : eps_(params.eps.value()),
        gap_tol_(params.own<GapTolOptions>().gap_tol),
        max_iter_(params.max_iter) {}

  // Whether the point after `epoch` is checked (post-processed).
  bool due(std::int64_t epoch) const;
  // Records the check after `epoch` and says whether the stopping rule is met.
  bool converged(std::int64_t epoch, const InterceptGap& last);
  // Whether another epoch may start after `epoch` epochs (the limit).
  bool may_continue(std::int64_t epoch) const;
  // Whether the iterate after `epoch`, whose post-processed point is `last`,
  // is polished (the header); `last_epoch`: no epoch follows.
  bool polish_due(std::int64_t epoch, const InterceptGap& last, bool last_epoch) const;
  // Records the polish after `epoch` and says whether its point `polished`,
  // of KKT violation `violation`, stops the run.
  bool polish_accepted(std::int64_t epoch, const InterceptGap& polished, double violation);
  // Whether the run stopped on a polished point.
  bool polished() const { return polished_; }
  // The spread of w0 over the current window.
  double spread() const { return intercept_spread(checks_); }

 private:
  double eps_;
  std::optional<double> gap_tol_;
  std::optional<std::int64_t> max_iter_;
  std::vector<std::pair<std::int64_t, double>> checks_;  // (epoch, w0)
  std::vector<double> best_gap_;                         // per check: the smallest gap so far
  std::int64_t gap_passed_ = 0;    // the first epoch whose gap passed, 0: none yet
  std::int64_t polish_epoch_ = 0;  // the epoch of the last polish, 0: none yet
  bool polished_ = false;
};

// The check after `epoch` of the iterate `alpha`: post-processes it into
// `last` (the clock paused), polishes it if due (the clock running), reports
// the point and returns whether `stop`'s rule is met; `last` is then the
// point the run ends with.
bool check_intercept_epoch(const Problem& problem, const std::vector<double>& alpha,
                           std::int64_t epoch, bool last_epoch, Progress& progress,
                           InterceptStop& stop, InterceptGap& last);

// Moves the last post-processed point (w with w0 last) into the result.
inline void take_intercept_point(SolveResult& result, const Problem& problem, InterceptGap last) {
  result.objective = last.primal;
  result.grad_norm = intercept_subgradient_norm(problem, last.w);
  result.w = std::move(last.w);
}

}  // namespace cdl

#endif  // CDL_SOLVERS_INTERCEPT_EPOCH_H_
