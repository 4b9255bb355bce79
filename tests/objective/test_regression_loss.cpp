// The regression losses of loss.h, of (score s, target t): SquaredLoss,
// (s - t)^2, and SvrL2Loss, max(0, |s - t| - epsilon)^2, against the formulas
// written out here, d1 against central differences of value away from the
// tube's edges |s - t| = epsilon, the generalized d2 (2 outside the tube, 0
// inside) against central differences of d1, d2 <= kMaxD2, symmetry in s - t
// and a flat zero inside the tube.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "objective/loss.h"

namespace cdl {
namespace {

const std::vector<double> kTargets = {-3.5, -1.0, 0.0, 0.25, 2.0, 40.0};
const std::vector<double> kEpsilons = {0.0, 0.1, 0.5, 1.0, 2.75};

// Residuals r = s - t from -6 to 6 in steps of 1/16: dyadic, so that t + r and
// (t + r) - t are exact for every target above, and the tube edges 0.1 (not
// dyadic), 0.5, 1 and 2.75 (dyadic) are all met or straddled.
std::vector<double> residual_grid() {
  std::vector<double> grid;
  for (int k = -96; k <= 96; ++k) grid.push_back(k / 16.0);
  return grid;
}

constexpr double kStep = 1e-6;

template <class F>
double central_difference(F f, double s) {
  return (f(s + kStep) - f(s - kStep)) / ((s + kStep) - (s - kStep));
}

// Rounding of a central difference of a function of size `scale`
// (eps * scale / h) plus slack; the losses are piecewise quadratic, so away
// from the kinks there is no truncation error beyond rounding.
double fd_tolerance(double scale) { return 1e-8 * (1 + std::fabs(scale)); }

TEST(SquaredLoss, ValueIsTheSquaredResidual) {
  const SquaredLoss loss;
  for (double t : kTargets) {
    for (double r : residual_grid()) {
      const double s = t + r;
      EXPECT_EQ(loss.value(s, t), r * r) << "s = " << s << ", t = " << t;
    }
  }
  EXPECT_EQ(loss.value(3.0, 1.0), 4.0);
  EXPECT_EQ(loss.value(-1.5, 0.5), 4.0);
  EXPECT_EQ(loss.value(0.7, 0.7), 0.0);
}

TEST(SquaredLoss, D1MatchesFiniteDifferencesOfValue) {
  const SquaredLoss loss;
  for (double t : kTargets) {
    for (double r : residual_grid()) {
      const double s = t + r;
      const double fd = central_difference([&](double x) { return loss.value(x, t); }, s);
      EXPECT_NEAR(loss.d1(s, t), fd, fd_tolerance(loss.value(s, t)) * (1 + std::fabs(t)))
          << "s = " << s << ", t = " << t;
      EXPECT_EQ(loss.d1(s, t), 2 * r);
    }
  }
}

TEST(SquaredLoss, D2IsTwoAndMatchesFiniteDifferencesOfD1) {
  const SquaredLoss loss;
  for (double t : kTargets) {
    for (double r : residual_grid()) {
      const double s = t + r;
      const double fd = central_difference([&](double x) { return loss.d1(x, t); }, s);
      EXPECT_NEAR(loss.d2(s, t), fd, 1e-6 * (1 + std::fabs(t))) << "s = " << s << ", t = " << t;
      EXPECT_EQ(loss.d2(s, t), 2.0);
      EXPECT_LE(loss.d2(s, t), SquaredLoss::kMaxD2);
    }
  }
}

// value and d2 are even and d1 odd in the residual s - t; swapping score
// and target is the same reflection.
template <class Loss>
void expect_symmetric_in_the_residual(const Loss& loss) {
  for (double t : kTargets) {
    for (double r : residual_grid()) {
      EXPECT_EQ(loss.value(t + r, t), loss.value(t - r, t));
      EXPECT_EQ(loss.d1(t + r, t), -loss.d1(t - r, t));
      EXPECT_EQ(loss.d2(t + r, t), loss.d2(t - r, t));
      EXPECT_EQ(loss.value(t + r, t), loss.value(t, t + r));
    }
  }
}

TEST(SquaredLoss, IsSymmetricInTheResidual) { expect_symmetric_in_the_residual(SquaredLoss{}); }

TEST(SvrL2Loss, ValueIsTheSquaredDistanceOutsideTheTube) {
  for (double epsilon : kEpsilons) {
    SvrL2Loss loss;
    loss.epsilon = epsilon;
    for (double t : kTargets) {
      for (double r : residual_grid()) {
        const double s = t + r;
        const double outside = std::fabs(r) > epsilon ? std::fabs(r) - epsilon : 0.0;
        EXPECT_DOUBLE_EQ(loss.value(s, t), outside * outside)
            << "s = " << s << ", t = " << t << ", epsilon = " << epsilon;
      }
    }
  }
  // By hand, with epsilon = 0.5.
  SvrL2Loss loss;
  loss.epsilon = 0.5;
  EXPECT_EQ(loss.value(3.0, 1.0), 2.25);
  EXPECT_EQ(loss.value(-1.0, 1.0), 2.25);
  EXPECT_EQ(loss.value(1.5, 1.0), 0.0);  // on the edge
  EXPECT_EQ(loss.value(1.25, 1.0), 0.0);
}

TEST(SvrL2Loss, DefaultEpsilonIsATenth) {
  const SvrL2Loss loss;
  EXPECT_EQ(loss.epsilon, 0.1);
  EXPECT_EQ(loss.value(0.05, 0.0), 0.0);
  EXPECT_DOUBLE_EQ(loss.value(1.1, 0.0), 1.0);
  EXPECT_DOUBLE_EQ(loss.value(-1.1, 0.0), 1.0);
}

TEST(SvrL2Loss, WithZeroEpsilonItIsTheSquaredLoss) {
  SvrL2Loss svr;
  svr.epsilon = 0.0;
  const SquaredLoss squared;
  for (double t : kTargets) {
    for (double r : residual_grid()) {
      const double s = t + r;
      EXPECT_EQ(svr.value(s, t), squared.value(s, t));
      EXPECT_EQ(svr.d1(s, t), squared.d1(s, t));
      if (r != 0) {
        EXPECT_EQ(svr.d2(s, t), squared.d2(s, t));
      }
    }
  }
}

// Whether s is at least 10 steps away from both edges of the tube.
bool away_from_the_edges(double r, double epsilon) {
  return std::fabs(std::fabs(r) - epsilon) > 10 * kStep;
}

TEST(SvrL2Loss, D1MatchesFiniteDifferencesOfValueAwayFromTheEdges) {
  int checked = 0;
  for (double epsilon : kEpsilons) {
    SvrL2Loss loss;
    loss.epsilon = epsilon;
    for (double t : kTargets) {
      for (double r : residual_grid()) {
        if (!away_from_the_edges(r, epsilon)) continue;
        const double s = t + r;
        const double fd = central_difference([&](double x) { return loss.value(x, t); }, s);
        EXPECT_NEAR(loss.d1(s, t), fd, fd_tolerance(loss.value(s, t)) * (1 + std::fabs(t)))
            << "s = " << s << ", t = " << t << ", epsilon = " << epsilon;
        // The closed form 2 sign(r) max(|r| - epsilon, 0).
        const double outside = std::fabs(r) > epsilon ? std::fabs(r) - epsilon : 0.0;
        EXPECT_DOUBLE_EQ(loss.d1(s, t), r > 0 ? 2 * outside : -2 * outside);
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 5000);
}

TEST(SvrL2Loss, D1IsContinuousAcrossTheEdges) {
  // value is continuously differentiable: d1 is 0 on the edge and tends to 0
  // from both sides.
  for (double epsilon : {0.5, 1.0, 2.75}) {
    SvrL2Loss loss;
    loss.epsilon = epsilon;
    for (double t : kTargets) {
      for (double side : {1.0, -1.0}) {
        const double edge = t + side * epsilon;  // exact: dyadic
        EXPECT_EQ(loss.d1(edge, t), 0.0);
        EXPECT_EQ(loss.value(edge, t), 0.0);
        const double outward = edge + side * 1e-3;
        EXPECT_NEAR(loss.d1(outward, t), side * 2e-3, 1e-12 * (1 + std::fabs(t)));
      }
    }
  }
}

TEST(SvrL2Loss, GeneralizedD2IsTwoOutsideZeroInsideAndMatchesFiniteDifferencesOfD1) {
  int outside_count = 0;
  int inside_count = 0;
  for (double epsilon : kEpsilons) {
    SvrL2Loss loss;
    loss.epsilon = epsilon;
    for (double t : kTargets) {
      for (double r : residual_grid()) {
        const double s = t + r;
        const double d2 = loss.d2(s, t);
        EXPECT_LE(d2, SvrL2Loss::kMaxD2);
        EXPECT_GE(d2, 0.0);
        if (!away_from_the_edges(r, epsilon)) continue;
        const bool outside = std::fabs(r) > epsilon;
        EXPECT_EQ(d2, outside ? 2.0 : 0.0)
            << "s = " << s << ", t = " << t << ", epsilon = " << epsilon;
        const double fd = central_difference([&](double x) { return loss.d1(x, t); }, s);
        EXPECT_NEAR(d2, fd, 1e-6 * (1 + std::fabs(t)))
            << "s = " << s << ", t = " << t << ", epsilon = " << epsilon;
        ++(outside ? outside_count : inside_count);
      }
    }
  }
  EXPECT_GT(outside_count, 1000);
  EXPECT_GT(inside_count, 100);
}

TEST(SvrL2Loss, IsSymmetricInTheResidual) {
  for (double epsilon : kEpsilons) {
    SvrL2Loss loss;
    loss.epsilon = epsilon;
    expect_symmetric_in_the_residual(loss);
  }
}

TEST(SvrL2Loss, ValueAndD1AreZeroInsideTheTube) {
  for (double epsilon : {0.1, 0.5, 1.0, 2.75}) {
    SvrL2Loss loss;
    loss.epsilon = epsilon;
    for (double t : kTargets) {
      for (int k = -100; k <= 100; ++k) {
        // |r| <= epsilon, edges included.
        const double r = epsilon * k / 100.0;
        if (std::fabs(r) > epsilon) continue;
        const double s = t + r;
        // t + r - t may round to just outside for the non-dyadic epsilons;
        // only count the residual the loss actually sees.
        if (std::fabs(s - t) > epsilon) continue;
        EXPECT_EQ(loss.value(s, t), 0.0) << "s = " << s << ", t = " << t;
        EXPECT_EQ(loss.d1(s, t), 0.0) << "s = " << s << ", t = " << t;
        EXPECT_EQ(loss.d2(s, t), 0.0) << "s = " << s << ", t = " << t;
      }
    }
  }
}

TEST(RegressionLosses, AreTwiceDifferentiableWithCurvatureBoundTwo) {
  EXPECT_TRUE(SquaredLoss::kTwiceDifferentiable);
  EXPECT_TRUE(SvrL2Loss::kTwiceDifferentiable);
  EXPECT_EQ(SquaredLoss::kMaxD2, 2.0);
  EXPECT_EQ(SvrL2Loss::kMaxD2, 2.0);
}

}  // namespace
}  // namespace cdl

namespace cdl {
namespace {

// SvrL1Loss, max(0, |s - t| - epsilon): the formula, symmetry, the flat zero
// inside the tube, and d1 against central differences away from the kinks
// |s - t| = epsilon.
TEST(SvrL1Loss, ValueAndSubgradientMatchTheFormulaAndFiniteDifferences) {
  for (double epsilon : {0.0, 0.1, 0.5, 1.0, 2.75}) {
    SvrL1Loss loss;
    loss.epsilon = epsilon;
    for (double t : {-3.5, -1.0, 0.0, 0.25, 2.0, 40.0}) {
      for (int k = -96; k <= 96; ++k) {
        const double r = k / 16.0;
        const double s = t + r;
        SCOPED_TRACE(testing::Message() << "eps " << epsilon << " s " << s << " t " << t);
        EXPECT_DOUBLE_EQ(loss.value(s, t), std::max(0.0, std::fabs(r) - epsilon));
        EXPECT_EQ(loss.value(s, t), loss.value(t - r, t));
        if (std::fabs(std::fabs(r) - epsilon) < 1e-3) continue;  // the kink
        const double h = 1e-6;
        const double fd = (loss.value(s + h, t) - loss.value(s - h, t)) / ((s + h) - (s - h));
        EXPECT_NEAR(loss.d1(s, t), fd, 1e-6 * (1 + std::fabs(s)));
      }
    }
  }
}

}  // namespace
}  // namespace cdl
