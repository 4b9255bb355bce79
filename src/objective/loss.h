// Per-instance loss functions. Classification losses take the margin
// m = y * w'x (y = +1 or -1); regression losses take the score s = w'x and
// the real target t.
//
// Each classification loss is a stateless struct of inline static functions so that the
// solvers' inner loops, which are templates over the loss, compile to straight
// arithmetic. Every loss offers value(m), d1(m) and, if it is differentiable,
// d2(m) with an upper bound kMaxD2 over all m. Paper: Chang, Hsieh & Lin
// (2008), "Coordinate Descent Method for Large-scale L2-loss Linear SVM",
// JMLR 9 (the paper).
#ifndef CDL_LOSS_H_
#define CDL_LOSS_H_

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace cdl {

// The losses -l names: the classification losses, of the margin, then the
// regression losses, of (score, target), then two that are neither: the
// one-class SVM's, of w'x and an offset rho fitted with w (no labels), and
// the losses of one score per class: Crammer and Singer's multi-class hinge
// and the multinomial logistic (softmax) loss. The last three are trained
// by their own solvers only (oneclass, cs, dcd-maxent) and have no
// per-instance struct below.
enum class LossKind {
  kL2Svm,
  kL1Svm,
  kLogistic,
  kSquared,
  kSvrL2,
  kSvrL1,
  kOneClass,
  kMultiHinge,
  kSoftmax,
};

// The -l table: a loss's name, kind and one line for -h; and the factor of
// 1 / (l max_j ||x_j||^2) where -C without -c starts (search_start_C,
// rounded down to a power of two): LIBLINEAR's 1 for logistic regression
// and 1/2 for the L2-SVM. The softmax at C is logistic regression at 2C
// on two classes, so 1/2.
struct LossInfo {
  const char* name;
  LossKind kind;
  const char* description;
  double start_C_scale = 0.5;
};

const std::vector<LossInfo>& loss_table();
const LossInfo& loss_info(LossKind kind);
// nullptr if no loss has that name.
const LossInfo* find_loss(const std::string& name);

// Whether the loss is a regression loss: real targets, no classes.
inline bool is_regression(LossKind loss) {
  return loss == LossKind::kSquared || loss == LossKind::kSvrL2 || loss == LossKind::kSvrL1;
}
// Whether the loss is the one-class SVM's: no labels, a model that tells
// typical instances (+1) from outliers (-1).
inline bool is_one_class(LossKind loss) { return loss == LossKind::kOneClass; }
// Whether a model of the loss has classes: not for a regression nor the
// one-class SVM, each trained as one problem of all rows.
inline bool has_classes(LossKind loss) { return !is_regression(loss) && !is_one_class(loss); }
// Whether the loss has SVR's tube width epsilon (-p).
inline bool is_svr(LossKind loss) { return loss == LossKind::kSvrL2 || loss == LossKind::kSvrL1; }

// max(b, 0), exactly, as arithmetic rather than a select (which compilers
// turn into a branch, and whether an instance is active is data-dependent):
// b/2 + |b|/2 is b for b > 0 and +0 otherwise. Halving is exact unless
// b < 2^-1021, where the result may be off by the smallest subnormal.
inline double positive_part(double b) { return 0.5 * b + 0.5 * std::fabs(b); }

// `value` if `keep`, else +0, by masking its bits: compilers turn the
// select, and even 2.0 * (m < 1.0), into a branch, which mispredicts on data.
inline double keep_if(bool keep, double value) {
  std::uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  bits &= std::uint64_t{0} - static_cast<std::uint64_t>(keep);
  std::memcpy(&value, &bits, sizeof bits);
  return value;
}

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
  static double d2(double m) { return keep_if(m < 1.0, 2.0); }
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

// ---- regression: losses of (score s, target t) ----
// Each has value(s, t), d1 and d2 (derivatives in s) and kMaxD2, as the
// margin losses do, so the same CD and Newton machinery applies.

// Squared error (s - t)^2, least squares and the Lasso's loss (Shi, Tu, Xu &
// Yin, Section 2.1, up to the factor 1/2 that C absorbs).
struct SquaredLoss {
  static constexpr const char* kName = "squared";
  static constexpr bool kTwiceDifferentiable = true;
  static constexpr double kMaxD2 = 2.0;

  double value(double s, double t) const {
    const double r = s - t;
    return r * r;
  }
  double d1(double s, double t) const { return 2.0 * (s - t); }
  double d2(double /*s*/, double /*t*/) const { return 2.0; }
};

// The epsilon-insensitive L2 loss of support vector regression,
// max(0, |s - t| - epsilon)^2 (LIBLINEAR's L2R_L2LOSS_SVR, whose -p is
// epsilon). d2 is the generalized second derivative: 2 outside the tube,
// else 0.
struct SvrL2Loss {
  static constexpr const char* kName = "svr";
  static constexpr bool kTwiceDifferentiable = true;
  static constexpr double kMaxD2 = 2.0;
  double epsilon = 0.1;

  double value(double s, double t) const {
    const double b = positive_part(std::fabs(s - t) - epsilon);
    return b * b;
  }
  double d1(double s, double t) const {
    const double r = s - t;
    const double b = positive_part(std::fabs(r) - epsilon);
    return r >= 0 ? 2.0 * b : -2.0 * b;
  }
  double d2(double s, double t) const {
    return 2.0 * static_cast<double>(std::fabs(s - t) > epsilon);
  }
};

// The epsilon-insensitive loss of L1-loss support vector regression,
// max(0, |s - t| - epsilon) (LIBLINEAR's L2R_L1LOSS_SVR_DUAL; Ho & Lin
// 2012). Not differentiable at |s - t| = epsilon; d1 is the
// subgradient sign(s - t) outside the tube and 0 inside. There is no second
// derivative, so only the dual solver (solver_svr_dual.cpp) trains it.
struct SvrL1Loss {
  static constexpr const char* kName = "svr1";
  static constexpr bool kTwiceDifferentiable = false;
  double epsilon = 0.1;

  double value(double s, double t) const { return positive_part(std::fabs(s - t) - epsilon); }
  double d1(double s, double t) const {
    const double r = s - t;
    if (std::fabs(r) <= epsilon) return 0.0;
    return r > 0 ? 1.0 : -1.0;
  }
};

}  // namespace cdl

#endif  // CDL_LOSS_H_
