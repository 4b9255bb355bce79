// Scalar formulas of one coordinate-descent sub-problem, kept apart from the
// loops so that they can be tested on their own.
//
// The sub-problem (paper, equation 7) is min_z D_i(z) = f(w + z e_i).
#ifndef CDL_CD_MATH_H_
#define CDL_CD_MATH_H_

namespace cdl {

// D''_i(0) never drops below this, so the Newton step stays finite.
constexpr double kMinSecondDerivative = 1e-12;

// Newton direction d = -D'_i(0) / D''_i(0), equation (13).
inline double newton_direction(double d1, double d2) {
  return -d1 / (d2 > kMinSecondDerivative ? d2 : kMinSecondDerivative);
}

// Sufficient decrease condition (12): D_i(z) - D_i(0) <= -sigma z^2.
inline bool sufficient_decrease(double delta, double z, double sigma) {
  return delta <= -sigma * z * z;
}

// lambda_bar of Theorem 1, equation (15): every step lambda * d with
// 0 <= lambda <= lambda_bar satisfies (12), so D_i need not be evaluated.
// `h` is H_i of equation (14), an upper bound of D''_i over all z.
inline double lambda_bar(double d2, double h, double sigma) { return d2 / (h / 2.0 + sigma); }

}  // namespace cdl

#endif  // CDL_CD_MATH_H_
