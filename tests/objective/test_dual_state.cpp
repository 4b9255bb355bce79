// DualState against independent computations: the per-coordinate gaps sum to
// P(w) (evaluate.h) plus D(alpha) (from an explicit Qbar), tracked margins
// equal recomputed ones, the changed rows are exactly the rows sharing a
// feature with the stepped row, and the residues are the distances of the
// Definition 2.3 (found by scanning the zero set of the coordinate gap).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <vector>

#include "data/problem.h"
#include "objective/dual_gap.h"
#include "objective/dual_state.h"
#include "objective/evaluate.h"
#include "select/random.h"
#include "test_util.h"

namespace cdl {
namespace {

// 7 rows, 4 features; row 5 shares no feature with row 0; row 6 is held out.
const std::vector<double> kDense = {
    1.0,  0.0, 0.5, 0.0,  //
    0.0,  2.0, 0.0, 0.0,  //
    0.3,  0.0, 0.0, 1.0,  //
    0.0,  1.0, 1.0, 0.0,  //
    -1.0, 0.5, 0.0, 0.2,  //
    0.0,  0.7, 0.0, 0.0,  //
    0.4,  0.0, 0.9, 0.0,  //
};
const std::vector<double> kLabels = {1, -1, 1, -1, -1, 1, 1};

struct Fixture {
  CsrMatrix rows = test::csr_from_dense(7, 4, kDense);
  CscMatrix cols = to_csc(rows, 4);
  std::vector<std::uint8_t> held_out = {0, 0, 0, 0, 0, 0, 1};
  Problem problem{cols, &rows, kLabels, 0.8, 1.5, Task::kClassification, &held_out};
};

// D(alpha) = 1/2 alpha'Qbar alpha - e'alpha from Q_ij = y_i y_j x_i'x_j.
double explicit_dual(const Problem& p, LossKind loss, const std::vector<double>& alpha) {
  double value = 0;
  for (std::size_t i = 0; i < 7; ++i) {
    for (std::size_t j = 0; j < 7; ++j) {
      double dot = 0;
      for (std::size_t k = 0; k < 4; ++k) dot += kDense[i * 4 + k] * kDense[j * 4 + k];
      value += 0.5 * alpha[i] * alpha[j] * p.y[i] * p.y[j] * dot;
    }
    if (loss == LossKind::kL2Svm && p.cost(i) > 0) {
      value += 0.5 * alpha[i] * alpha[i] / (2 * p.cost(i));
    }
    value -= alpha[i];
  }
  return value;
}

class DualStateTest : public ::testing::TestWithParam<LossKind> {};

TEST_P(DualStateTest, GapsSumToPrimalMinusDual) {
  Fixture f;
  for (bool track : {false, true}) {
    DualState state(f.problem, GetParam(), track);
    std::mt19937_64 rng(4);
    for (int k = 0; k < 12; ++k) {
      state.step(uniform_index(rng, 7));
      const double primal = evaluate(f.problem, GetParam(), state.w()).objective;
      const double dual = explicit_dual(f.problem, GetParam(), state.alphas());
      double sum = 0;
      for (std::size_t i = 0; i < 7; ++i) {
        EXPECT_GE(state.gap(i), 0.0);
        sum += state.gap(i);
      }
      EXPECT_NEAR(sum, primal + dual, 1e-12 * (1 + std::fabs(primal)));
      EXPECT_NEAR(state.dual_objective(), dual, 1e-12 * (1 + std::fabs(dual)));
      EXPECT_NEAR(state.total_gap(), primal + dual, 1e-12 * (1 + std::fabs(primal)));
      EXPECT_EQ(state.alpha(6), 0.0);  // held out: never moves
      EXPECT_EQ(state.gap(6), 0.0);
    }
  }
}

TEST_P(DualStateTest, GapsAgreeWithTheDualGapModule) {
  // objective/dual_gap (helper dcd's, written apart from this state): its
  // per-coordinate gaps, its total and its D (the maximized form, -D here).
  Fixture f;
  DualState state(f.problem, GetParam(), true);
  std::mt19937_64 rng(21);
  for (int k = 0; k < 25; ++k) {
    state.step(uniform_index(rng, 7));
    const DualGap total = duality_gap(f.problem, GetParam(), state.alphas(), state.w());
    const std::vector<double> each =
        coordinate_gaps(f.problem, GetParam(), state.alphas(), margins(f.problem, state.w()));
    double sum = 0;
    for (std::size_t i = 0; i < 7; ++i) {
      EXPECT_NEAR(state.gap(i), std::max(each[i], 0.0), 1e-13) << i;
      sum += state.gap(i);
    }
    EXPECT_NEAR(sum, total.gap, 1e-12);
    EXPECT_NEAR(state.dual_objective(), -total.dual, 1e-12);
    EXPECT_NEAR(state.primal_objective(), total.primal, 1e-12);
  }
}

TEST_P(DualStateTest, StepIsTheExactClippedMinimizer) {
  // After a step on i, D(alpha + t e_i) is not smaller for t in a grid.
  Fixture f;
  DualState state(f.problem, GetParam(), false);
  std::mt19937_64 rng(8);
  for (int k = 0; k < 20; ++k) {
    const std::size_t i = uniform_index(rng, 6);
    state.step(i);
    std::vector<double> alpha = state.alphas();
    const double best = explicit_dual(f.problem, GetParam(), alpha);
    for (double t = -1.0; t <= 1.0; t += 0.01) {
      std::vector<double> other = alpha;
      other[i] = std::clamp(alpha[i] + t, 0.0, state.upper(i));
      EXPECT_GE(explicit_dual(f.problem, GetParam(), other), best - 1e-12);
    }
    EXPECT_NEAR(state.newton_target(i), state.alpha(i), 1e-12);
  }
}

TEST_P(DualStateTest, TrackedMarginsAndChangedRows) {
  Fixture f;
  DualState state(f.problem, GetParam(), true);
  std::mt19937_64 rng(6);
  for (int k = 0; k < 40; ++k) {
    const std::size_t i = uniform_index(rng, 6);
    const double delta = state.step(i);
    const std::vector<double> fresh = margins(f.problem, state.w());
    for (std::size_t j = 0; j < 7; ++j) EXPECT_NEAR(state.margin(j), fresh[j], 1e-12);
    std::set<std::size_t> expected;
    if (delta != 0) {
      expected.insert(i);
      for (std::size_t j = 0; j < 7; ++j) {
        for (std::size_t c = 0; c < 4; ++c) {
          if (kDense[i * 4 + c] != 0 && kDense[j * 4 + c] != 0) expected.insert(j);
        }
      }
      EXPECT_EQ(state.changed_rows().front(), i);
    }
    const auto& changed = state.changed_rows();
    EXPECT_EQ(std::set<std::size_t>(changed.begin(), changed.end()), expected);
    EXPECT_EQ(changed.size(), expected.size());  // no duplicates
  }
}

constexpr double kFlatMargin = 1e-12;  // dual_state.cpp's tolerance on m_i = 1

TEST_P(DualStateTest, ResidueIsTheDistanceToTheZeroSetOfTheCoordinateGap) {
  // kappa_i = min |u - alpha_i| over u >= 0 (<= U_i) with G_i(u; m_i) = 0,
  // scanned on a fine grid from the gap formula of the paper's (4).
  Fixture f;
  DualState state(f.problem, GetParam(), true);
  std::mt19937_64 rng(12);
  for (int k = 0; k < 15; ++k) {
    state.step(uniform_index(rng, 6));
    for (std::size_t i = 0; i < 6; ++i) {
      const double c = f.problem.cost(i);
      const double m = state.margin(i);
      const double top = GetParam() == LossKind::kL1Svm ? c : 4 * c + 4;
      double nearest = 1e300;
      const int steps = 400000;
      for (int s = 0; s <= steps; ++s) {
        const double u = top * s / steps;
        const double hinge = std::max(0.0, 1 - m);
        const double g = GetParam() == LossKind::kL1Svm
                             ? c * hinge - u * (1 - m)
                             : c * hinge * hinge - u * (1 - m) + u * u / (4 * c);
        // For l1svm G_i(u) is linear in u with slope -(1 - m): scaled by the
        // slope, its zero is found to the grid's resolution whatever m is.
        const double scale = GetParam() == LossKind::kL1Svm && std::fabs(1 - m) > kFlatMargin
                                 ? std::fabs(1 - m)
                                 : 1.0;
        if (std::fabs(g) <= 1e-9 * scale)
          nearest = std::min(nearest, std::fabs(u - state.alpha(i)));
      }
      EXPECT_NEAR(state.residue(i), nearest, 2e-4 * top) << i;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Losses, DualStateTest,
                         ::testing::Values(LossKind::kL1Svm, LossKind::kL2Svm));

TEST(DualState, RefusesOtherLosses) {
  Fixture f;
  EXPECT_THROW(DualState(f.problem, LossKind::kLogistic, false), ConfigError);
}

}  // namespace
}  // namespace cdl
