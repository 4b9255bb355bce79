// The end of an outer iteration, and of the run, shared by the solvers of the
// SVM with an unregularized intercept (pdcd, rcd-pair): both report the
// post-processed point of objective/intercept_gap.h and stop on its gap.
#ifndef CDL_SOLVERS_INTERCEPT_EPOCH_H_
#define CDL_SOLVERS_INTERCEPT_EPOCH_H_

#include <cstdint>
#include <utility>

#include "objective/intercept_gap.h"
#include "solvers/params.h"
#include "solvers/progress.h"
#include "solvers/solve_result.h"

namespace cdl {

// Reports epoch's post-processed point `last` and returns whether its gap
// meets --gap-tol (absolute) or else -e (relative to the primal).
inline bool report_intercept_epoch(Progress& progress, std::int64_t epoch, const InterceptGap& last,
                                   const Params& params) {
  IterationInfo info{epoch, last.primal, last.gap, 0.0, &last.w};
  info.intercept = true;
  info.primal = last.primal;
  info.dual = last.dual;
  info.gap = last.gap;
  progress.report(info);
  const double tolerance = params.gap_tol ? *params.gap_tol : params.eps.value() * last.primal;
  return last.gap <= tolerance;
}

// Moves the last post-processed point (w with w0 last) into the result.
inline void take_intercept_point(SolveResult& result, const Problem& problem, InterceptGap last) {
  result.objective = last.primal;
  result.grad_norm = intercept_subgradient_norm(problem, last.w);
  result.w = std::move(last.w);
}

}  // namespace cdl

#endif  // CDL_SOLVERS_INTERCEPT_EPOCH_H_
