// Per-instance loss functions of the margin m = y * w'x.
//
// Each loss is a stateless struct of inline static functions so that the
// solvers' inner loops, which are templates over the loss, compile to straight
// arithmetic. Every loss offers value(m), d1(m) and, if it is differentiable,
// d2(m) with an upper bound kMaxD2 over all m. Paper: Chang, Hsieh & Lin
// (2008), "Coordinate Descent Method for Large-scale L2-loss Linear SVM",
// JMLR 9 (the paper).
#ifndef CDL_LOSS_H_
#define CDL_LOSS_H_

#include <cmath>

namespace cdl {

enum class LossKind { kL2Svm, kL1Svm, kLogistic };

// max(b, 0), exactly, as arithmetic rather than a select (which compilers
// turn into a branch, and whether an instance is active is data-dependent):
// b/2 + |b|/2 is b for b > 0 and +0 otherwise. Halving is exact unless
// b < 2^-1021, where the result may be off by the smallest subnormal.
inline double positive_part(double b) { return 0.5 * b + 0.5 * std::fabs(b); }

// Squared hinge, the L2-SVM loss of equation (3): max(0, 1 - m)^2.
// d2 is the generalized second derivative of equation (10) (Mangasarian
// 2002): 2 where 1 - m > 0, else 0.
struct L2SvmLoss {
  static constexpr const char* kName = "l2svm";
  static constexpr bool kTwiceDifferentiable = true;
  // Upper bound on d2 over all margins: H_i of equation (14) is
  // 1 + C * kMaxD2 * sum_j x_ji^2.
  static constexpr double kMaxD2 = 2.0;

  // Arithmetic rather than selects, so the inner loops do not branch.
  static double value(double m) {
    const double b = positive_part(1.0 - m);
    return b * b;
  }
  static double d1(double m) { return -2.0 * positive_part(1.0 - m); }
  static double d2(double m) { return 2.0 * static_cast<double>(m < 1.0); }
};

// Hinge, the L1-SVM loss of equation (2): max(0, 1 - m). Not differentiable
// at m = 1; d1 is the subgradient -1 for m < 1 and 0 otherwise, as Pegasos
// (24) uses it. There is no second derivative, so no Newton-type solver
// accepts this loss.
struct L1SvmLoss {
  static constexpr const char* kName = "l1svm";
  static constexpr bool kTwiceDifferentiable = false;

  static double value(double m) { return positive_part(1.0 - m); }
  static double d1(double m) { return -static_cast<double>(m < 1.0); }
};

// Logistic loss of equation (4): log(1 + exp(-m)). Every form below calls exp
// only on -|m| <= 0, so nothing overflows for any margin:
//   value = max(-m, 0) + log1p(exp(-|m|))
//   d1    = -1 / (1 + exp(m))        = -exp(-|m|) / (1 + exp(-|m|)) for m >= 0
//   d2    = exp(-|m|) / (1 + exp(-|m|))^2, at most 1/4 (at m = 0).
struct LogisticLoss {
  static constexpr const char* kName = "lr";
  static constexpr bool kTwiceDifferentiable = true;
  static constexpr double kMaxD2 = 0.25;

  static double value(double m) { return positive_part(-m) + std::log1p(std::exp(-std::fabs(m))); }
  static double d1(double m) {
    const double e = std::exp(-std::fabs(m));
    const double p = 1.0 / (1.0 + e);  // sigma(|m|)
    return m >= 0 ? -e * p : -p;
  }
  static double d2(double m) {
    const double e = std::exp(-std::fabs(m));
    const double p = 1.0 / (1.0 + e);
    return e * p * p;
  }
};

}  // namespace cdl

#endif  // CDL_LOSS_H_
