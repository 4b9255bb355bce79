// One coordinate of the SVR's dual CD (solver_svr_dual.cpp's header has the
// problem and the step), shared by the serial solver and the partitioned one
// (solver_svr_dual_partitioned.cpp).
#ifndef CDL_SOLVERS_SVR_DUAL_STEP_H_
#define CDL_SOLVERS_SVR_DUAL_STEP_H_

#include <algorithm>
#include <cmath>

namespace cdl {

// What a visit of beta_j found: the violation |PG_j|, whether beta_j leaves
// the active set (then it does not move), and its new value (beta_j itself
// when it does not move).
struct SvrVisit {
  double violation = 0;
  bool shrink = false;
  double updated = 0;
};

// beta_j = b, with partial gradient g of the dual's smooth part, bound
// U_j = upper, second derivative h and shrinking threshold M = bound: the
// soft-thresholded Newton step, clipped to [-U_j, U_j], kept when it moves
// beta_j by more than 1e-12.
inline SvrVisit svr_visit(double b, double g, double epsilon, double upper, double h,
                          double bound) {
  const double gp = g + epsilon;
  const double gn = g - epsilon;
  SvrVisit visit;
  visit.updated = b;
  if (b == 0) {
    if (gp < 0) {
      visit.violation = -gp;
    } else if (gn > 0) {
      visit.violation = gn;
    } else {
      visit.shrink = gp > bound && gn < -bound;
    }
  } else if (b >= upper) {
    if (gp > 0) {
      visit.violation = gp;
    } else {
      visit.shrink = gp < -bound;
    }
  } else if (b <= -upper) {
    if (gn < 0) {
      visit.violation = -gn;
    } else {
      visit.shrink = gn > bound;
    }
  } else {
    visit.violation = std::fabs(b > 0 ? gp : gn);
  }
  if (visit.shrink) return visit;
  double d;
  if (gp < h * b) {
    d = -gp / h;
  } else if (gn > h * b) {
    d = -gn / h;
  } else {
    d = -b;
  }
  const double updated = std::clamp(b + d, -upper, upper);
  if (std::fabs(updated - b) > 1e-12) visit.updated = updated;
  return visit;
}

}  // namespace cdl

#endif  // CDL_SOLVERS_SVR_DUAL_STEP_H_
