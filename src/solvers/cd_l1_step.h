// The L1 coordinate step that the serial L1 rows (solver_cd_l1.cpp) and
// the partitioned CD (solver_cd_partitioned.cpp) share: the backtracking
// search along one coordinate's CDN direction, its curvature shortcut,
// LIBLINEAR's shrinking and the scale of its tolerances. The direction,
// the rule and the shortcut's derivation are in solver_cd_l1.cpp's header.
#ifndef CDL_SOLVERS_CD_L1_STEP_H_
#define CDL_SOLVERS_CD_L1_STEP_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include "data/problem.h"
#include "objective/objective.h"
#include "objective/regularizer.h"

namespace cdl {

// The smallest lambda the line search tries before it leaves a coordinate
// as it is.
inline constexpr double kMinL1Lambda = 1e-18;

// For L1-LR and L1-L2SVM, and for the Lasso while its gap has not passed,
// shrunk coordinates come back after this many outer iterations even if the
// stopping test has not passed on the active ones. On a9a at -e 1e-4 the active set alone never
// meets the test (the one-hot groups make CD crawl), and coordinates shrunk in the first iterations
// stayed at 0 with |g| up to 12.6 for all 1,000 iterations: 21 features off the optimum's pattern,
// 4 with the restore. A full visit costs two multiply-adds per nonzero with cached terms.
inline constexpr std::int64_t kClassificationRestoreEvery = 10;

template <class Objective, class = void>
struct HasCurvatureBound : std::false_type {};
template <class Objective>
struct HasCurvatureBound<
    Objective, std::void_t<decltype(std::declval<const Objective&>().curvature_bound(0, 0.0, 0.0))>>
    : std::true_type {};

// An upper bound of D''_i(t) over |t| <= |z|, given coordinate i's
// bounded_derivs(): the objective's own if it has one that depends on z
// (CachedMarginObjective<LogisticLoss>::curvature_bound), else H_i.
template <class Objective>
double curvature_bound(const Objective& objective, std::size_t i, const BoundedDerivs& derivs,
                       double z) {
  if constexpr (HasCurvatureBound<Objective>::value) {
    return objective.curvature_bound(i, derivs.d2, z);
  } else {
    (void)i;
    (void)z;
    return derivs.bound;
  }
}

// The backtracking search along coordinate i's direction d (the Armijo-type
// rule D_i(lambda d) - D_i(0) <= sigma lambda model, model = g d + |w_i + d|
// - |w_i|), lambda = 1, beta, beta^2, ...: each lambda is tried on the
// curvature bound first (O(1)), then on D_i itself (counted in
// function_evaluations). Takes the step and returns lambda, or 0 when
// lambda falls below kMinL1Lambda and the coordinate stays: in exact
// arithmetic the bound's test passes once lambda <= 2 (1 - sigma) |model| /
// (H_i d^2), so a search that ends before is rounding at the optimum.
template <class Objective>
inline double l1_line_search(Objective& objective, const Regularizer& regularizer, std::size_t i,
                             const BoundedDerivs& derivs, double wi, double g, double d,
                             double model, double sigma, double beta,
                             std::int64_t& function_evaluations) {
  double lambda = 1.0;
  while (lambda >= kMinL1Lambda) {
    const double z = lambda * d;
    // The loss part changes by at most g z + bound/2 z^2 (bound
    // includes r's l2, which delta() counts too: subtract it).
    const double bound = curvature_bound(objective, i, derivs, z);
    const double upper = g * z + 0.5 * (bound - regularizer.l2) * z * z + regularizer.delta(wi, z);
    if (upper <= sigma * lambda * model) {
      objective.apply(i, z);
      return lambda;
    }
    ++function_evaluations;
    if (objective.apply_with_delta(i, z) <= sigma * lambda * model) return lambda;
    objective.undo();
    lambda *= beta;
  }
  return 0.0;
}

// LIBLINEAR's shrinking of its L1 solvers: the active set, and M, the
// largest violation of the previous outer iteration. A coordinate with
// w_i = 0 and |g| < 1 - M/l leaves the active set.
struct L1Shrinking {
  std::vector<char> active;
  std::size_t inactive = 0;
  double max_violation_old = std::numeric_limits<double>::infinity();
  std::int64_t since_restore = 0;

  explicit L1Shrinking(std::size_t n) : active(n, 1) {}

  // After an outer iteration: restores every coordinate when some are
  // shrunk and the test passed on the active ones (or they have had
  // restore_every outer iterations), and says whether it did.
  bool restore_if_due(bool converged, std::int64_t restore_every) {
    ++since_restore;
    if (inactive == 0 || !(converged || (restore_every > 0 && since_restore >= restore_every))) {
      return false;
    }
    since_restore = 0;
    std::fill(active.begin(), active.end(), 1);
    inactive = 0;
    max_violation_old = std::numeric_limits<double>::infinity();
    return true;
  }
};

// The rows that count, and max(min(#positive, #negative), 1) / their
// number (1 when none count): LIBLINEAR's scale of its primal tolerances.
struct L1RowCounts {
  double minority_share;
  std::size_t counted;
};
inline L1RowCounts l1_row_counts(const Problem& problem) {
  std::size_t positive = 0;
  std::size_t counted = 0;
  for (std::size_t j = 0; j < problem.num_rows(); ++j) {
    if (!problem.counts(j)) continue;
    ++counted;
    positive += problem.y[j] > 0;
  }
  if (counted == 0) return {1.0, 0};
  const std::size_t smaller = std::min(positive, counted - positive);
  return {static_cast<double>(std::max<std::size_t>(smaller, 1)) / static_cast<double>(counted),
          counted};
}

}  // namespace cdl

#endif  // CDL_SOLVERS_CD_L1_STEP_H_
