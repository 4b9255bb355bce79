// The logistic per-coordinate objective of objective.h,
//   f(w) = 1/2 w'w + sum_j C_j log(1 + exp(-y_j w'x_j))      (paper, eq. 1, 4)
// against the formula written out here in long double from a dense copy of the
// data: f, D'_i and D''_i against central finite differences of f along
// coordinate i, the step's change of f, the exact undo, the bound H_i of
// equation (14) with kMaxD2 = 1/4, the gradient, ||grad f(0)||, margins near
// +-1e3 (where exp of a margin overflows a double) and an empty column.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "data/problem.h"
#include "objective/objective.h"
#include "test_util.h"
#include "util/error.h"

namespace cdl {
namespace {

using Vec = std::vector<double>;
using Real = long double;

// 6 instances, 4 features (feature 3 has no nonzeros), C = 1.5 for y = +1 and
// 0.7 for y = -1.
const Vec kDense = {0.5, 0, -1.0, 0, 0, 2.0,  0.3, 0, -0.7, 0.1, 0,   0,
                    1.5, 0, 0.8,  0, 0, -0.4, 0,   0, 0.9,  0.9, 0.9, 0};
const Vec kLabels = {1, -1, 1, -1, 1, -1};
constexpr std::size_t kRows = 6;
constexpr std::size_t kCols = 4;
constexpr double kCostPos = 1.5;
constexpr double kCostNeg = 0.7;

struct Fixture {
  CscMatrix x = to_csc(test::csr_from_dense(kRows, kCols, kDense));
  Problem problem{x, nullptr, kLabels, kCostPos, kCostNeg};
};

Real cost_of(std::size_t j) { return kLabels[j] > 0 ? kCostPos : kCostNeg; }

// m_j = y_j w'x_j from the dense matrix, in long double.
std::vector<Real> direct_margins(const Vec& w) {
  std::vector<Real> m(kRows);
  for (std::size_t j = 0; j < kRows; ++j) {
    Real sum = 0;
    for (std::size_t i = 0; i < kCols; ++i) sum += static_cast<Real>(kDense[j * kCols + i]) * w[i];
    m[j] = kLabels[j] * sum;
  }
  return m;
}

// f(w) = l2/2 w'w + sum_j C_j log(1 + exp(-m_j)), naively: in long double,
// exp(-m) is finite for |m| up to about 11000.
Real direct_f(const Vec& w, Real l2 = 1) {
  Real f = 0;
  for (double wi : w) f += l2 / 2 * static_cast<Real>(wi) * wi;
  const std::vector<Real> m = direct_margins(w);
  for (std::size_t j = 0; j < kRows; ++j) f += cost_of(j) * std::log(1 + std::exp(-m[j]));
  return f;
}

// The analytic partial derivatives, for the extreme margins where finite
// differences of f lose everything to cancellation:
//   dF/dw_i   = l2 w_i - sum_j C_j y_j x_ji / (1 + exp(m_j))
//   d2F/dw_i2 = l2 + sum_j C_j x_ji^2 exp(m_j) / (1 + exp(m_j))^2
Real direct_d1(const Vec& w, std::size_t i) {
  const std::vector<Real> m = direct_margins(w);
  Real g = w[i];
  for (std::size_t j = 0; j < kRows; ++j) {
    g -= cost_of(j) * kLabels[j] * kDense[j * kCols + i] / (1 + std::exp(m[j]));
  }
  return g;
}
Real direct_d2(const Vec& w, std::size_t i) {
  const std::vector<Real> m = direct_margins(w);
  Real h = 1;
  for (std::size_t j = 0; j < kRows; ++j) {
    const Real v = kDense[j * kCols + i];
    const Real e = std::exp(m[j]);
    h += cost_of(j) * v * v * e / ((1 + e) * (1 + e));
  }
  return h;
}

// Central differences of direct_f along coordinate i with step h.
Real fd_d1(const Vec& w, std::size_t i, double h) {
  Vec plus = w, minus = w;
  plus[i] += h;
  minus[i] -= h;
  return (direct_f(plus) - direct_f(minus)) / (static_cast<Real>(plus[i]) - minus[i]);
}
Real fd_d2(const Vec& w, std::size_t i, double h) {
  Vec plus = w, minus = w;
  plus[i] += h;
  minus[i] -= h;
  const Real step = (static_cast<Real>(plus[i]) - minus[i]) / 2;
  return (direct_f(plus) - 2 * direct_f(w) + direct_f(minus)) / (step * step);
}

const std::vector<Vec> kPoints = {
    {0, 0, 0, 0}, {0.3, -0.2, 0.7, 1.0}, {-1.1, 0.4, 0.05, -0.3}, {2.5, -3.0, 1.75, 0.6}};

// Margins between -2160 and 840: row 3's is -2160, row 1's +840.
const Vec kExtremeW = {800, -600, 1200, 0};

double value_at(CoordinateObjective& objective, const Vec& w) {
  objective.reset(w);
  return objective.value();
}

TEST(LogisticObjective, ValueMatchesTheDirectFormula) {
  Fixture fx;
  auto objective = make_coordinate_objective(LossKind::kLogistic, fx.problem);
  for (const Vec& w : kPoints) {
    const Real expected = direct_f(w);
    EXPECT_NEAR(value_at(*objective, w), static_cast<double>(expected),
                1e-14 * (1 + std::fabs(static_cast<double>(expected))));
  }
  // f(0) = sum_j C_j log 2 = (3 * 1.5 + 3 * 0.7) log 2.
  EXPECT_NEAR(value_at(*objective, {0, 0, 0, 0}), 6.6 * std::log(2.0), 1e-14);
}

TEST(LogisticObjective, CoordDerivativesMatchFiniteDifferencesOfF) {
  Fixture fx;
  auto objective = make_coordinate_objective(LossKind::kLogistic, fx.problem);
  for (const Vec& w : kPoints) {
    objective->reset(w);
    for (std::size_t i = 0; i < kCols; ++i) {
      const CoordDerivs derivs = objective->coord_derivs(i);
      // long double differences: rounding ~1e-19 / h^2, truncation ~h^2.
      EXPECT_NEAR(derivs.d1, static_cast<double>(fd_d1(w, i, 1e-5)), 1e-9)
          << "feature " << i << ", w[0] = " << w[0];
      EXPECT_NEAR(derivs.d2, static_cast<double>(fd_d2(w, i, 1e-4)), 1e-7)
          << "feature " << i << ", w[0] = " << w[0];
      // The closed forms as well, to the last few bits.
      EXPECT_NEAR(derivs.d1, static_cast<double>(direct_d1(w, i)), 1e-14);
      EXPECT_NEAR(derivs.d2, static_cast<double>(direct_d2(w, i)), 1e-14);
    }
  }
}

TEST(LogisticObjective, ApplyWithDeltaReturnsTheExactChangeOfF) {
  Fixture fx;
  auto objective = make_coordinate_objective(LossKind::kLogistic, fx.problem);
  for (const Vec& w : kPoints) {
    for (std::size_t i = 0; i < kCols; ++i) {
      for (double z : {-4.0, -0.5, -1e-3, 0.0, 0.01, 0.4, 2.5, 30.0}) {
        objective->reset(w);
        const double delta = objective->apply_with_delta(i, z);
        Vec moved = w;
        moved[i] += z;
        const Real expected = direct_f(moved) - direct_f(w);
        EXPECT_NEAR(delta, static_cast<double>(expected),
                    1e-13 * (1 + std::fabs(static_cast<double>(direct_f(moved)))))
            << "feature " << i << ", z = " << z;
        EXPECT_EQ(objective->w(), moved);
        EXPECT_NEAR(objective->value(), static_cast<double>(direct_f(moved)),
                    1e-13 * (1 + std::fabs(static_cast<double>(direct_f(moved)))));
      }
    }
  }
}

TEST(LogisticObjective, UndoRestoresWValueAndGradientBitForBit) {
  Fixture fx;
  auto objective = make_coordinate_objective(LossKind::kLogistic, fx.problem);
  for (const Vec& w : kPoints) {
    // Start from a state reached by steps, not only by reset().
    objective->reset(w);
    objective->apply(1, 0.37);
    objective->apply(2, -1.3);
    const Vec w_before = objective->w();
    const double value_before = objective->value();
    const Vec gradient_before = objective->gradient();
    for (std::size_t i = 0; i < kCols; ++i) {
      for (double z : {-2.0, 1e-7, 0.123456789, 5.0}) {
        objective->apply_with_delta(i, z);
        objective->undo();
        EXPECT_EQ(objective->w(), w_before);
        EXPECT_EQ(objective->value(), value_before);
        EXPECT_EQ(objective->gradient(), gradient_before);
      }
    }
    // A step taken after an undo starts from the restored margins.
    const double delta = objective->apply_with_delta(0, 0.25);
    Vec moved = w_before;
    moved[0] += 0.25;
    EXPECT_NEAR(delta, static_cast<double>(direct_f(moved) - direct_f(w_before)), 1e-13);
  }
}

TEST(LogisticObjective, BoundIsEquation14WithAQuarterAndBoundsD2Everywhere) {
  Fixture fx;
  auto objective = make_coordinate_objective(LossKind::kLogistic, fx.problem);
  // H_i = 1 + 1/4 sum_j C_j x_ji^2, written out from the dense matrix.
  for (std::size_t i = 0; i < kCols; ++i) {
    double sum = 0;
    for (std::size_t j = 0; j < kRows; ++j) {
      const double v = kDense[j * kCols + i];
      sum += static_cast<double>(cost_of(j)) * v * v;
    }
    EXPECT_NEAR(objective->bound(i), 1 + 0.25 * sum, 1e-14) << "feature " << i;
  }
  // Feature 0 by hand: rows 0, 2 (C = 1.5) and 3, 5 (C = 0.7).
  EXPECT_NEAR(objective->bound(0), 1 + 0.25 * (1.5 * 0.25 + 1.5 * 0.49 + 0.7 * 2.25 + 0.7 * 0.81),
              1e-14);
  EXPECT_EQ(objective->bound(3), 1.0);
  // At w = 0 every margin is 0, where d2 = 1/4 is largest: the bound is tight.
  objective->reset({0, 0, 0, 0});
  for (std::size_t i = 0; i < kCols; ++i) {
    EXPECT_NEAR(objective->coord_derivs(i).d2, objective->bound(i), 1e-14);
  }
  // D''_i(z) <= H_i along each coordinate, for many z, from several w.
  for (const Vec& w : kPoints) {
    for (std::size_t i = 0; i < kCols; ++i) {
      for (int k = -40; k <= 40; ++k) {
        const double z = 0.125 * k;
        objective->reset(w);
        objective->apply(i, z);
        const double d2 = objective->coord_derivs(i).d2;
        EXPECT_LE(d2, objective->bound(i)) << "feature " << i << ", z = " << z;
        EXPECT_GE(d2, 1.0);  // the regularizer's curvature
      }
    }
  }
}

TEST(LogisticObjective, GradientMatchesFiniteDifferences) {
  Fixture fx;
  auto objective = make_coordinate_objective(LossKind::kLogistic, fx.problem);
  for (const Vec& w : kPoints) {
    objective->reset(w);
    const Vec g = objective->gradient();
    ASSERT_EQ(g.size(), kCols);
    for (std::size_t i = 0; i < kCols; ++i) {
      EXPECT_NEAR(g[i], static_cast<double>(fd_d1(w, i, 1e-5)), 1e-9) << "feature " << i;
      EXPECT_EQ(g[i], objective->coord_derivs(i).d1);
    }
  }
}

TEST(LogisticObjective, GradientNormAtZeroIsTheNormOfTheDirectGradient) {
  Fixture fx;
  auto objective = make_coordinate_objective(LossKind::kLogistic, fx.problem);
  // grad f(0) = -1/2 sum_j C_j y_j x_j, since loss'(0) = -1/2.
  Real sum = 0;
  for (std::size_t i = 0; i < kCols; ++i) {
    Real g = 0;
    for (std::size_t j = 0; j < kRows; ++j)
      g -= 0.5L * cost_of(j) * kLabels[j] * kDense[j * kCols + i];
    sum += g * g;
  }
  const double expected = static_cast<double>(std::sqrt(sum));
  // The same number by finite differences of f at 0.
  Real fd_sum = 0;
  for (std::size_t i = 0; i < kCols; ++i) {
    const Real g = fd_d1({0, 0, 0, 0}, i, 1e-5);
    fd_sum += g * g;
  }
  EXPECT_NEAR(expected, static_cast<double>(std::sqrt(fd_sum)), 1e-9);
  // Wherever the objective stands.
  for (const Vec& w : kPoints) {
    objective->reset(w);
    EXPECT_NEAR(objective->gradient_norm_at_zero(), expected, 1e-14);
  }
}

TEST(LogisticObjective, ExtremeMarginsGiveFiniteValuesAndDerivatives) {
  Fixture fx;
  auto objective = make_coordinate_objective(LossKind::kLogistic, fx.problem);
  objective->reset(kExtremeW);
  const std::vector<Real> m = direct_margins(kExtremeW);
  EXPECT_EQ(static_cast<double>(m[3]), -2160.0);  // exp(-m) overflows a double
  EXPECT_EQ(static_cast<double>(m[1]), 840.0);    // exp(m) overflows a double

  const double value = objective->value();
  ASSERT_TRUE(std::isfinite(value));
  const Real expected = direct_f(kExtremeW);
  EXPECT_NEAR(value, static_cast<double>(expected), 1e-13 * static_cast<double>(expected));

  const Vec g = objective->gradient();
  for (std::size_t i = 0; i < kCols; ++i) {
    const CoordDerivs derivs = objective->coord_derivs(i);
    ASSERT_TRUE(std::isfinite(derivs.d1)) << "feature " << i;
    ASSERT_TRUE(std::isfinite(derivs.d2)) << "feature " << i;
    ASSERT_TRUE(std::isfinite(g[i])) << "feature " << i;
    const double d1 = static_cast<double>(direct_d1(kExtremeW, i));
    EXPECT_NEAR(derivs.d1, d1, 1e-13 * (1 + std::fabs(d1))) << "feature " << i;
    // Every d2(m_j) is below exp(-240): D'' is the regularizer's 1.
    EXPECT_NEAR(derivs.d2, static_cast<double>(direct_d2(kExtremeW, i)), 1e-15);
    EXPECT_LE(derivs.d2, objective->bound(i));
  }

  // Steps that move margins further out or back through 0 stay finite and
  // exact, and undo restores the state.
  for (std::size_t i = 0; i < 3; ++i) {
    for (double z : {-1500.0, -2.0, 3.0, 900.0}) {
      objective->reset(kExtremeW);
      const double delta = objective->apply_with_delta(i, z);
      ASSERT_TRUE(std::isfinite(delta));
      Vec moved = kExtremeW;
      moved[i] += z;
      const Real change = direct_f(moved) - expected;
      EXPECT_NEAR(delta, static_cast<double>(change), 1e-12 * static_cast<double>(expected))
          << "feature " << i << ", z = " << z;
      objective->undo();
      EXPECT_EQ(objective->value(), value);
    }
  }
}

TEST(LogisticObjective, EmptyColumnHasDerivativeWiAndCurvatureOne) {
  Fixture fx;
  auto objective = make_coordinate_objective(LossKind::kLogistic, fx.problem);
  for (double w3 : {0.0, -0.3, 2.75, 1e3}) {
    objective->reset({0.3, -0.2, 0.7, w3});
    const CoordDerivs derivs = objective->coord_derivs(3);
    EXPECT_EQ(derivs.d1, w3);
    EXPECT_EQ(derivs.d2, 1.0);
    // Its step changes only 1/2 w_3^2.
    const double delta = objective->apply_with_delta(3, 0.5);
    EXPECT_NEAR(delta, 0.5 * ((w3 + 0.5) * (w3 + 0.5) - w3 * w3), 1e-12 * (1 + w3 * w3));
  }
}

TEST(LogisticObjective, AWeightedL2RegularizerScalesItsPart) {
  Fixture fx;
  const Regularizer regularizer{0.0, 2.5};
  auto objective = make_coordinate_objective(LossKind::kLogistic, fx.problem, regularizer);
  const Vec w = {0.3, -0.2, 0.7, 1.0};
  objective->reset(w);
  EXPECT_NEAR(objective->value(), static_cast<double>(direct_f(w, 2.5)), 1e-13);
  const CoordDerivs empty = objective->coord_derivs(3);
  EXPECT_EQ(empty.d1, 2.5 * 1.0);
  EXPECT_EQ(empty.d2, 2.5);
  EXPECT_EQ(objective->bound(3), 2.5);
  for (std::size_t i = 0; i < kCols; ++i) {
    Vec plus = w, minus = w;
    plus[i] += 1e-5;
    minus[i] -= 1e-5;
    const Real fd =
        (direct_f(plus, 2.5) - direct_f(minus, 2.5)) / (static_cast<Real>(plus[i]) - minus[i]);
    EXPECT_NEAR(objective->coord_derivs(i).d1, static_cast<double>(fd), 1e-9);
  }
}

TEST(LogisticObjective, ANonSmoothRegularizerIsAConfigError) {
  Fixture fx;
  EXPECT_THROW(make_coordinate_objective(LossKind::kLogistic, fx.problem, Regularizer::l1_only()),
               ConfigError);
  EXPECT_THROW(
      make_coordinate_objective(LossKind::kLogistic, fx.problem, Regularizer::elastic_net(0.5)),
      ConfigError);
}

}  // namespace
}  // namespace cdl
