#include "solvers/intercept_epoch.h"

#include <cmath>

#include "solvers/intercept_polish.h"

namespace cdl {

double weight_distance_bound(const InterceptGap& point) {
  return std::sqrt(2.0 * std::max(point.gap, 0.0));
}

double intercept_spread(const std::vector<std::pair<std::int64_t, double>>& checks) {
  if (checks.empty()) return HUGE_VAL;
  const std::int64_t from = checks.back().first / 2;
  double low = HUGE_VAL;
  double high = -HUGE_VAL;
  std::size_t count = 0;
  for (auto it = checks.rbegin(); it != checks.rend() && it->first >= from; ++it, ++count) {
    low = std::min(low, it->second);
    high = std::max(high, it->second);
  }
  return count >= 2 ? high - low : HUGE_VAL;
}

bool InterceptStop::due(std::int64_t epoch) const {
  if (gap_tol_ || epoch <= kEveryEpochChecks) return true;
  if (max_iter_ && epoch == *max_iter_) return true;
  return epoch % std::max<std::int64_t>(1, epoch / kChecksPerRun) == 0;
}

bool InterceptStop::converged(std::int64_t epoch, const InterceptGap& last) {
  checks_.emplace_back(epoch, last.w.back());
  best_gap_.push_back(best_gap_.empty() ? last.gap : std::min(best_gap_.back(), last.gap));
  if (gap_tol_) return last.gap <= *gap_tol_;
  const bool gap_passed = last.gap <= eps_ * last.primal;
  if (gap_passed && gap_passed_ == 0) gap_passed_ = epoch;
  double norm2 = 0;
  for (std::size_t i = 0; i + 1 < last.w.size(); ++i) norm2 += last.w[i] * last.w[i];
  const bool w_close = weight_distance_bound(last) <= kInterceptSettle * std::sqrt(norm2);
  return gap_passed && w_close && spread() <= kInterceptSettle;
}

bool InterceptStop::polish_due(std::int64_t epoch, const InterceptGap& last,
                               bool last_epoch) const {
  if (gap_tol_ || polished_) return false;
  if (last_epoch) return true;
  return last.gap <= kPolishStart * eps_ * last.primal && epoch >= 2 * polish_epoch_;
}

bool InterceptStop::polish_accepted(std::int64_t epoch, const InterceptGap& polished,
                                    double violation) {
  polish_epoch_ = epoch;
  polished_ = violation <= kPolishTol && polished.gap <= eps_ * polished.primal;
  return polished_;
}

bool check_intercept_epoch(const Problem& problem, const std::vector<double>& alpha,
                           std::int64_t epoch, bool last_epoch, Progress& progress,
                           InterceptStop& stop, InterceptGap& last) {
  progress.pause();
  last = post_process(problem, alpha);
  bool stops = false;
  if (stop.polish_due(epoch, last, last_epoch)) {
    progress.resume();
    PolishedDual polished = polish_intercept_dual(problem, alpha);
    progress.pause();
    InterceptGap point = post_process(problem, std::move(polished.alpha));
    if (stop.polish_accepted(epoch, point, polished.violation)) {
      last = std::move(point);
      stops = true;
    }
  }
  IterationInfo info{epoch, last.primal, last.gap, 0.0, &last.w};
  info.intercept = true;
  info.primal = last.primal;
  info.dual = last.dual;
  info.gap = last.gap;
  progress.report(info);
  // The rule's record of the checks is kept for a polished stop too.
  return stop.converged(epoch, last) || stops;
}

bool InterceptStop::may_continue(std::int64_t epoch) const {
  if (max_iter_) return epoch < *max_iter_;
  if (epoch < kDefaultMaxIter || epoch < kSettleFactor * gap_passed_) return true;
  // The last check at or before epoch k/2 (the checks after epoch 1 are
  // never empty by now: epoch 1 is always checked).
  std::size_t half = 0;
  while (half + 1 < checks_.size() && checks_[half + 1].first <= epoch / 2) ++half;
  return best_gap_.back() <= kProgressRatio * best_gap_[half];
}

}  // namespace cdl
