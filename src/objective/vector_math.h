// Dense vector helpers shared by the solvers.
#ifndef CDL_VECTOR_MATH_H_
#define CDL_VECTOR_MATH_H_

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace cdl {

inline double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i) sum += a[i] * b[i];
  return sum;
}

// a += scale * b
inline void axpy(double scale, const std::vector<double>& b, std::vector<double>& a) {
  for (std::size_t i = 0; i < a.size(); ++i) a[i] += scale * b[i];
}

// ||v||_2, scaled by the largest magnitude so that it overflows only when
// the norm itself does.
inline double norm2(const std::vector<double>& v) {
  double largest = 0;
  for (double x : v) largest = std::max(largest, std::fabs(x));
  if (largest == 0 || !std::isfinite(largest)) return largest;
  double sum = 0;
  for (double x : v) sum += (x / largest) * (x / largest);
  return largest * std::sqrt(sum);
}

}  // namespace cdl

#endif  // CDL_VECTOR_MATH_H_
