// The per-instance losses of loss.h against the textbook formulas, computed
// here independently (in long double where that helps), their derivatives
// against central finite differences, and the logistic loss at margins that
// would overflow a naive exp.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "objective/loss.h"

namespace cdl {
namespace {

// -50, -49.75, ..., 50: includes the L2/L1 kink at 1 and the LR centre at 0.
std::vector<double> margin_grid() {
  std::vector<double> grid;
  for (int k = -200; k <= 200; ++k) grid.push_back(0.25 * k);
  return grid;
}

// Margins whose naive exp(m) or exp(-m) overflows or underflows.
const std::vector<double> kExtremeMargins = {1e300, -1e300, 1e10, -1e10, 800,
                                             -800,  709,    -709, 710,   -710};

// |actual - expected| within `ulps` units of the expected value, or within the
// subnormal spacing for results that underflow.
::testing::AssertionResult close_relative(double actual, long double expected, double ulps = 4) {
  const long double tolerance =
      ulps * DBL_EPSILON * std::fabs(expected) + std::numeric_limits<double>::denorm_min();
  if (std::fabs(static_cast<long double>(actual) - expected) <= tolerance) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure()
         << "actual " << actual << ", expected " << static_cast<double>(expected);
}

// log(1 + exp(-m)): for |m| > 40 the dropped terms are below 1e-17 relative.
long double logistic_reference(double m) {
  const long double x = m;
  if (x > 40) return std::exp(-x);
  if (x < -40) return -x + std::exp(x);
  return std::log1p(std::exp(-x));
}

// -1 / (1 + exp(m)); exp overflowing to inf gives the correct -0.
long double logistic_d1_reference(double m) {
  return -1.0L / (1.0L + std::exp(static_cast<long double>(m)));
}

// exp(m) / (1 + exp(m))^2 = 1 / (2 + exp(m) + exp(-m)).
long double logistic_d2_reference(double m) {
  const long double x = m;
  return 1.0L / (2.0L + std::exp(x) + std::exp(-x));
}

// Central differences with step h; no margin in the grid is within h of a kink
// unless the test skips it.
constexpr double kStep = 1e-5;

template <class F>
double central_difference(F f, double m) {
  return (f(m + kStep) - f(m - kStep)) / (2 * kStep);
}

// Tolerance of a central difference of a function of size `scale`: rounding
// (eps * scale / h ~ 1e-11 * scale) plus the h^2 truncation of smooth losses.
double fd_tolerance(double scale) { return 1e-7 * (1 + std::fabs(scale)); }

TEST(LossL2Svm, ValueIsTheSquaredHinge) {
  for (double m : margin_grid()) {
    const double b = m < 1 ? 1 - m : 0.0;
    EXPECT_DOUBLE_EQ(L2SvmLoss::value(m), b * b) << "m = " << m;
  }
  EXPECT_EQ(L2SvmLoss::value(1.0), 0.0);
  EXPECT_EQ(L2SvmLoss::value(0.0), 1.0);
  EXPECT_EQ(L2SvmLoss::value(-1.0), 4.0);
  EXPECT_EQ(L2SvmLoss::value(3.0), 0.0);
}

TEST(LossL2Svm, D1MatchesFiniteDifferencesOfValue) {
  for (double m : margin_grid()) {
    if (std::fabs(m - 1) < 10 * kStep) continue;
    EXPECT_NEAR(L2SvmLoss::d1(m), central_difference(L2SvmLoss::value, m),
                fd_tolerance(L2SvmLoss::value(m)))
        << "m = " << m;
  }
  EXPECT_EQ(L2SvmLoss::d1(1.0), 0.0);  // continuous at the kink
  EXPECT_EQ(L2SvmLoss::d1(0.0), -2.0);
}

TEST(LossL2Svm, D2MatchesFiniteDifferencesOfD1AwayFromTheKink) {
  for (double m : margin_grid()) {
    if (std::fabs(m - 1) < 10 * kStep) continue;
    EXPECT_NEAR(L2SvmLoss::d2(m), central_difference(L2SvmLoss::d1, m),
                fd_tolerance(L2SvmLoss::d1(m)))
        << "m = " << m;
  }
  // The generalized second derivative of equation (10): 0 from m = 1 on.
  EXPECT_EQ(L2SvmLoss::d2(1.0), 0.0);
  EXPECT_EQ(L2SvmLoss::d2(std::nextafter(1.0, 0.0)), 2.0);
}

TEST(LossL2Svm, D2NeverExceedsKMaxD2) {
  std::vector<double> margins = margin_grid();
  margins.insert(margins.end(), kExtremeMargins.begin(), kExtremeMargins.end());
  for (double m : margins) {
    EXPECT_GE(L2SvmLoss::d2(m), 0.0) << "m = " << m;
    EXPECT_LE(L2SvmLoss::d2(m), L2SvmLoss::kMaxD2) << "m = " << m;
  }
}

TEST(LossL1Svm, ValueIsTheHinge) {
  for (double m : margin_grid()) {
    EXPECT_DOUBLE_EQ(L1SvmLoss::value(m), m < 1 ? 1 - m : 0.0) << "m = " << m;
  }
  EXPECT_EQ(L1SvmLoss::value(1.0), 0.0);
  EXPECT_EQ(L1SvmLoss::value(0.0), 1.0);
}

TEST(LossL1Svm, D1MatchesFiniteDifferencesOfValueAwayFromTheKink) {
  for (double m : margin_grid()) {
    if (std::fabs(m - 1) < 10 * kStep) continue;
    EXPECT_NEAR(L1SvmLoss::d1(m), central_difference(L1SvmLoss::value, m),
                fd_tolerance(L1SvmLoss::value(m)))
        << "m = " << m;
  }
  // The subgradient Pegasos uses: -1 below the kink, 0 from it on.
  EXPECT_EQ(L1SvmLoss::d1(1.0), 0.0);
  EXPECT_EQ(L1SvmLoss::d1(std::nextafter(1.0, 0.0)), -1.0);
}

TEST(LossLogistic, ValueMatchesLog1pExpInLongDouble) {
  for (double m : margin_grid()) {
    EXPECT_TRUE(close_relative(LogisticLoss::value(m), logistic_reference(m))) << "m = " << m;
  }
  EXPECT_DOUBLE_EQ(LogisticLoss::value(0.0), std::log(2.0));
}

TEST(LossLogistic, D1AndD2MatchTheirClosedForms) {
  for (double m : margin_grid()) {
    EXPECT_TRUE(close_relative(LogisticLoss::d1(m), logistic_d1_reference(m))) << "m = " << m;
    EXPECT_TRUE(close_relative(LogisticLoss::d2(m), logistic_d2_reference(m))) << "m = " << m;
  }
  EXPECT_DOUBLE_EQ(LogisticLoss::d1(0.0), -0.5);
  EXPECT_DOUBLE_EQ(LogisticLoss::d2(0.0), 0.25);
}

TEST(LossLogistic, DerivativesMatchFiniteDifferences) {
  for (double m : margin_grid()) {
    EXPECT_NEAR(LogisticLoss::d1(m), central_difference(LogisticLoss::value, m),
                fd_tolerance(LogisticLoss::value(m)))
        << "m = " << m;
    EXPECT_NEAR(LogisticLoss::d2(m), central_difference(LogisticLoss::d1, m),
                fd_tolerance(LogisticLoss::d1(m)))
        << "m = " << m;
  }
}

TEST(LossLogistic, ExtremeMarginsStayFiniteAndAccurate) {
  for (double m : kExtremeMargins) {
    const double value = LogisticLoss::value(m);
    const double d1 = LogisticLoss::d1(m);
    const double d2 = LogisticLoss::d2(m);
    ASSERT_TRUE(std::isfinite(value) && std::isfinite(d1) && std::isfinite(d2)) << "m = " << m;
    if (m < 0) {
      EXPECT_DOUBLE_EQ(value, -m) << "m = " << m;  // log(1 + e^-m) = -m + log1p(e^m)
      EXPECT_DOUBLE_EQ(d1, -1.0) << "m = " << m;
    } else {
      EXPECT_TRUE(close_relative(value, std::exp(-static_cast<long double>(m)))) << "m = " << m;
      EXPECT_TRUE(close_relative(d1, logistic_d1_reference(m))) << "m = " << m;
    }
    EXPECT_TRUE(close_relative(d2, logistic_d2_reference(m))) << "m = " << m;
  }
}

TEST(LossLogistic, DerivativesStayInTheirRangesAndD2UnderKMaxD2) {
  std::vector<double> margins = margin_grid();
  margins.insert(margins.end(), kExtremeMargins.begin(), kExtremeMargins.end());
  for (double m : margins) {
    EXPECT_GE(LogisticLoss::d1(m), -1.0) << "m = " << m;
    EXPECT_LE(LogisticLoss::d1(m), 0.0) << "m = " << m;
    EXPECT_GE(LogisticLoss::d2(m), 0.0) << "m = " << m;
    EXPECT_LE(LogisticLoss::d2(m), 0.25) << "m = " << m;
    EXPECT_LE(LogisticLoss::d2(m), LogisticLoss::kMaxD2) << "m = " << m;
  }
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

TEST(LossPositivePart, PositiveValuesComeBackBitForBit) {
  for (double b :
       {1.0, 0.5, 3.141592653589793, 1e-300, 1e300, DBL_MAX, 2 * DBL_MIN,
        std::nextafter(2 * DBL_MIN, 1.0), std::nextafter(1.0, 2.0), 123456789.123, 0.1, 1e-15}) {
    EXPECT_TRUE(same_bits(positive_part(b), b)) << b;
  }
}

TEST(LossPositivePart, NonPositiveValuesGivePositiveZero) {
  for (double b : {0.0, -0.0, -1.0, -0.5, -1e-300, -DBL_MIN, -DBL_TRUE_MIN, -1e300, -DBL_MAX}) {
    EXPECT_TRUE(same_bits(positive_part(b), 0.0)) << b;  // +0, not -0
  }
}

TEST(LossPositivePart, TinyValuesAreOffByAtMostTheSmallestSubnormal) {
  // Halving rounds when b < 2^-1021 has its last bit set.
  for (double b : {DBL_TRUE_MIN, 3 * DBL_TRUE_MIN, DBL_MIN / 3, DBL_MIN,
                   std::nextafter(DBL_MIN, 1.0), std::nextafter(2 * DBL_MIN, 0.0)}) {
    EXPECT_LE(std::fabs(positive_part(b) - b), DBL_TRUE_MIN) << b;
  }
}

TEST(LossFlags, OnlyTheHingeIsNotTwiceDifferentiable) {
  EXPECT_TRUE(L2SvmLoss::kTwiceDifferentiable);
  EXPECT_TRUE(LogisticLoss::kTwiceDifferentiable);
  EXPECT_FALSE(L1SvmLoss::kTwiceDifferentiable);
}

}  // namespace
}  // namespace cdl
