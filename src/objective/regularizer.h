// The regularizer r(w) of f(w) = r(w) + sum_j C_j loss_j, as LIBLINEAR
// scales it (C weighs the loss, the regularizer has weight 1):
//
//   r(w) = l1 ||w||_1 + l2/2 ||w||^2
//
// L2 (l1 = 0, l2 = 1) is 1/2 w'w of Chang, Hsieh & Lin (2008), equation (1);
// L1 (l1 = 1, l2 = 0) is LIBLINEAR's -s 5/6 problem; the elastic net has
// both. One struct serves all three, so that the solvers, evaluation and the
// trace write the regularizer once; its per-coordinate functions are inline,
// for the CD inner loops.
//
// Per coordinate, with g and h the first and second derivatives of the loss
// part at w_i (h > 0):
//   derivative(w_i, g)         D'_i(0) = g + l2 w_i, for smooth r (l1 = 0)
//   curvature(h)               D''_i(0) = h + l2
//   delta(w_i, z)              r_i(w_i + z) - r_i(w_i)
//   prox_step(w_i, g, h)       the z minimizing g z + h/2 z^2 + r_i(w_i + z):
//                              w_i + z = S(h w_i - g, l1) / (h + l2), with the
//                              soft threshold S(u, t) = sign(u) max(|u| - t, 0);
//                              for l1 = 0 this is the Newton step -D'/D''
//   min_norm_subgradient(w_i, d)
//                              given d = derivative(w_i, g), the element of
//                              least magnitude of the subdifferential of f
//                              along coordinate i: the stopping measure, d
//                              itself when r is smooth.
#ifndef CDL_OBJECTIVE_REGULARIZER_H_
#define CDL_OBJECTIVE_REGULARIZER_H_

#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

namespace cdl {

enum class RegularizerKind { kL2, kL1, kElasticNet };

// S(u, t) = sign(u) max(|u| - t, 0), the proximal map of t|.|.
inline double soft_threshold(double u, double t) {
  if (u > t) return u - t;
  if (u < -t) return u + t;
  return 0.0;
}

struct Regularizer {
  static constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
  double l1 = 0.0;
  double l2 = 1.0;
  // The one coordinate r leaves out (cdtrain -R: the bias weight, as
  // LIBLINEAR 2.50's regularize_bias = 0), or kNone. value() skips it; the
  // per-coordinate functions are at(i)'s.
  std::size_t unregularized = kNone;

  static Regularizer l2_only() { return {0.0, 1.0}; }
  static Regularizer l1_only() { return {1.0, 0.0}; }
  // l1_ratio ||w||_1 + (1 - l1_ratio)/2 ||w||^2, 0 < l1_ratio < 1.
  static Regularizer elastic_net(double l1_ratio) { return {l1_ratio, 1.0 - l1_ratio}; }
  static Regularizer of(RegularizerKind kind, double l1_ratio = 0.5);

  bool smooth() const { return l1 == 0.0; }

  // The regularizer of coordinate i: this one, or none (l1 = l2 = 0) for
  // the unregularized coordinate.
  Regularizer at(std::size_t i) const {
    return i == unregularized ? Regularizer{0.0, 0.0, kNone} : *this;
  }

  // r(w), O(n).
  double value(const std::vector<double>& w) const {
    double squares = 0;
    for (std::size_t i = 0; i < w.size(); ++i) squares += i == unregularized ? 0.0 : w[i] * w[i];
    double out = 0.5 * l2 * squares;
    if (l1 != 0.0) {
      double absolute = 0;
      for (std::size_t i = 0; i < w.size(); ++i) {
        absolute += i == unregularized ? 0.0 : std::fabs(w[i]);
      }
      out += l1 * absolute;
    }
    return out;
  }

  double derivative(double wi, double g) const { return wi * l2 + g; }
  double curvature(double h) const { return l2 + h; }

  double delta(double wi, double z) const {
    double out = l2 * (wi * z + 0.5 * z * z);
    if (l1 != 0.0) out += l1 * (std::fabs(wi + z) - std::fabs(wi));
    return out;
  }

  double prox_step(double wi, double g, double h) const {
    return soft_threshold(h * wi - g, l1) / (h + l2) - wi;
  }

  double min_norm_subgradient(double wi, double d) const {
    if (l1 == 0.0) return d;
    if (wi > 0) return d + l1;
    if (wi < 0) return d - l1;
    return soft_threshold(d, l1);
  }
};

struct RegularizerInfo {
  const char* name;
  RegularizerKind kind;
  const char* description;
};

const std::vector<RegularizerInfo>& regularizer_table();
const RegularizerInfo& regularizer_info(RegularizerKind kind);
const RegularizerInfo* find_regularizer(const std::string& name);

}  // namespace cdl

#endif  // CDL_OBJECTIVE_REGULARIZER_H_
