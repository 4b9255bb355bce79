// Per-instance loss functions of the margin m = y * w'x.
//
// Each loss is a stateless struct of inline static functions so that the
// solvers' inner loops, which are templates over the loss, compile to straight
// arithmetic. Paper: Chang, Hsieh & Lin (2008), "Coordinate Descent Method for
// Large-scale L2-loss Linear SVM", JMLR 9 (the paper).
#ifndef CDL_LOSS_H_
#define CDL_LOSS_H_

#include <cmath>

namespace cdl {

enum class LossKind { kL2Svm, kL1Svm, kLogistic };

// Squared hinge, the L2-SVM loss of equation (3): max(0, 1 - m)^2.
// d2 is the generalized second derivative of equation (10) (Mangasarian
// 2002): 2 where 1 - m > 0, else 0.
struct L2SvmLoss {
  static constexpr const char* kName = "l2svm";
  // Upper bound on d2 over all margins: H_i of equation (14) is
  // 1 + C * kMaxD2 * sum_j x_ji^2.
  static constexpr double kMaxD2 = 2.0;

  // Written as arithmetic, not selects: whether an instance is active is
  // data-dependent, and the compiler turns selects into branches whose
  // mispredictions cost more than the arithmetic.
  static double value(double m) {
    const double b = positive_part(1.0 - m);
    return b * b;
  }
  static double d1(double m) { return -2.0 * positive_part(1.0 - m); }
  static double d2(double m) { return 2.0 * static_cast<double>(m < 1.0); }

 private:
  // max(b, 0), exactly: b/2 + |b|/2 is b for b > 0 and +0 otherwise (halving
  // is exact here, since 1 - m is never subnormal).
  static double positive_part(double b) { return 0.5 * b + 0.5 * std::fabs(b); }
};

}  // namespace cdl

#endif  // CDL_LOSS_H_
