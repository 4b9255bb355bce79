#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "data/libsvm_reader.h"
#include "data/problem.h"
#include "data/sparse_matrix.h"
#include "objective/evaluate.h"
#include "objective/objective.h"
#include "test_util.h"
#include "util/error.h"

namespace cdl {
namespace {

// 6 instances, 4 features (feature 3 has no nonzeros), different C per class.
struct Fixture {
  CscMatrix x =
      to_csc(test::csr_from_dense(6, 4, {0.5, 0, -1.0, 0, 0, 2.0,  0.3, 0, -0.7, 0.1, 0,   0,
                                         1.5, 0, 0.8,  0, 0, -0.4, 0,   0, 0.9,  0.9, 0.9, 0}));
  Problem problem{x, nullptr, {1, -1, 1, -1, 1, -1}, 1.5, 0.7};
};

// f(w) computed directly from equation (3), independently of the objective.
double direct_l2svm(const Fixture& fx, const std::vector<double>& w) {
  const CsrMatrix rows =
      test::csr_from_dense(6, 4, {0.5, 0, -1.0, 0, 0, 2.0,  0.3, 0, -0.7, 0.1, 0,   0,
                                  1.5, 0, 0.8,  0, 0, -0.4, 0,   0, 0.9,  0.9, 0.9, 0});
  double f = 0;
  for (double wi : w) f += 0.5 * wi * wi;
  for (std::size_t j = 0; j < 6; ++j) {
    double dot = 0;
    for (auto k = rows.row_ptr[j]; k < rows.row_ptr[j + 1]; ++k) {
      const auto s = static_cast<std::size_t>(k);
      dot += w[rows.col_idx[s]] * rows.values[s];
    }
    const double b = std::max(0.0, 1.0 - fx.problem.y[j] * dot);
    f += fx.problem.cost(j) * b * b;
  }
  return f;
}

double value_at(CoordinateObjective& objective, const std::vector<double>& w) {
  objective.reset(w);
  return objective.value();
}

TEST(L2SvmObjective, ValueMatchesEquation3) {
  Fixture fx;
  auto objective = make_coordinate_objective(LossKind::kL2Svm, fx.problem);
  for (const auto& w : std::vector<std::vector<double>>{
           {0, 0, 0, 0}, {0.3, -0.2, 0.7, 1.0}, {-1.1, 0.4, 0.05, -0.3}}) {
    EXPECT_NEAR(value_at(*objective, w), direct_l2svm(fx, w), 1e-12);
  }
}

TEST(L2SvmObjective, CoordDerivativesMatchFiniteDifferences) {
  Fixture fx;
  auto objective = make_coordinate_objective(LossKind::kL2Svm, fx.problem);
  // No margin of this w sits on a kink (y w'x = 1), so f is twice
  // differentiable nearby and D'' of equation (10) is the true derivative.
  const std::vector<double> w = {0.3, -0.2, 0.7, 1.0};
  const double h = 1e-5;
  for (std::size_t i = 0; i < 4; ++i) {
    objective->reset(w);
    const CoordDerivs derivs = objective->coord_derivs(i);
    std::vector<double> plus = w;
    std::vector<double> minus = w;
    plus[i] += h;
    minus[i] -= h;
    const double f0 = value_at(*objective, w);
    const double fp = value_at(*objective, plus);
    const double fm = value_at(*objective, minus);
    EXPECT_NEAR(derivs.d1, (fp - fm) / (2 * h), 1e-7) << "feature " << i;
    EXPECT_NEAR(derivs.d2, (fp - 2 * f0 + fm) / (h * h), 1e-3) << "feature " << i;
  }
}

TEST(L2SvmObjective, ApplyWithDeltaReturnsTheExactChangeOfF) {
  Fixture fx;
  auto objective = make_coordinate_objective(LossKind::kL2Svm, fx.problem);
  const std::vector<double> w = {0.3, -0.2, 0.7, 1.0};
  for (std::size_t i = 0; i < 4; ++i) {
    for (double z : {-3.0, -0.5, 0.01, 0.4, 2.5}) {
      objective->reset(w);
      const double delta = objective->apply_with_delta(i, z);
      std::vector<double> moved = w;
      moved[i] += z;
      EXPECT_NEAR(delta, direct_l2svm(fx, moved) - direct_l2svm(fx, w), 1e-12);
      EXPECT_EQ(objective->w(), moved);
      EXPECT_NEAR(objective->value(), direct_l2svm(fx, moved), 1e-12);
    }
  }
}

TEST(L2SvmObjective, UndoRestoresTheStateBitForBit) {
  Fixture fx;
  auto objective = make_coordinate_objective(LossKind::kL2Svm, fx.problem);
  objective->reset({0.3, -0.2, 0.7, 1.0});
  const double before = objective->value();
  const std::vector<double> gradient = objective->gradient();
  objective->apply_with_delta(0, 0.123456789);
  objective->undo();
  EXPECT_EQ(objective->value(), before);
  EXPECT_EQ(objective->gradient(), gradient);
  EXPECT_EQ(objective->w(), (std::vector<double>{0.3, -0.2, 0.7, 1.0}));
}

TEST(L2SvmObjective, ApplyMovesWAndTheMargins) {
  Fixture fx;
  auto objective = make_coordinate_objective(LossKind::kL2Svm, fx.problem);
  objective->reset({0.3, -0.2, 0.7, 1.0});
  objective->apply(2, -0.45);
  const std::vector<double> expected_w = {0.3, -0.2, 0.25, 1.0};
  EXPECT_NEAR(objective->w()[2], 0.25, 1e-15);
  EXPECT_NEAR(objective->value(), direct_l2svm(fx, expected_w), 1e-12);
}

TEST(L2SvmObjective, GradientIsTheVectorOfCoordDerivatives) {
  Fixture fx;
  auto objective = make_coordinate_objective(LossKind::kL2Svm, fx.problem);
  objective->reset({-1.1, 0.4, 0.05, -0.3});
  const std::vector<double> g = objective->gradient();
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(g[i], objective->coord_derivs(i).d1);
  // An empty column has D' = w_i.
  EXPECT_DOUBLE_EQ(g[3], -0.3);
}

TEST(L2SvmObjective, GradientNormAtZero) {
  Fixture fx;
  auto objective = make_coordinate_objective(LossKind::kL2Svm, fx.problem);
  objective->reset({0.3, -0.2, 0.7, 1.0});  // must not matter
  const double expected = [&] {
    objective->reset({0, 0, 0, 0});
    double sum = 0;
    for (double g : objective->gradient()) sum += g * g;
    return std::sqrt(sum);
  }();
  objective->reset({0.3, -0.2, 0.7, 1.0});
  EXPECT_NEAR(objective->gradient_norm_at_zero(), expected, 1e-12);
}

TEST(L2SvmObjective, BoundIsEquation14AndBoundsD2Everywhere) {
  Fixture fx;
  auto objective = make_coordinate_objective(LossKind::kL2Svm, fx.problem);
  // H_0 = 1 + 2 sum_j C_j x_j0^2 over rows 0, 2 (C = 1.5) and 3, 5 (C = 0.7)
  EXPECT_NEAR(objective->bound(0), 1 + 2 * (1.5 * 0.25 + 1.5 * 0.49 + 0.7 * 2.25 + 0.7 * 0.81),
              1e-12);
  EXPECT_DOUBLE_EQ(objective->bound(3), 1.0);  // no nonzeros
  for (const auto& w :
       std::vector<std::vector<double>>{{0, 0, 0, 0}, {3, -3, 3, 0}, {-1.1, 0.4, 0.05, -0.3}}) {
    objective->reset(w);
    for (std::size_t i = 0; i < 4; ++i) {
      EXPECT_LE(objective->coord_derivs(i).d2, objective->bound(i));
    }
  }
}

// bounded_derivs() sums H_i in the derivatives' pass instead of reading a
// stored vector: the same D' and D'' as coord_derivs() and the same H_i as
// curvature_bounds(), bit for bit, for both losses, a held-out row (C_j = 0)
// and an L2 weight other than 1.
TEST(L2SvmObjective, BoundedDerivsAreCoordDerivsAndCurvatureBoundsBitForBit) {
  Fixture fx;
  std::vector<std::uint8_t> held_out = {0, 0, 1, 0, 0, 0};
  Problem with_held_out = fx.problem;
  with_held_out.held_out = &held_out;
  for (const Problem* problem : {&fx.problem, &with_held_out}) {
    for (const Regularizer& r : {Regularizer::l2_only(), Regularizer{0.0, 0.3}}) {
      for (const LossKind loss : {LossKind::kL2Svm, LossKind::kLogistic}) {
        auto objective = make_coordinate_objective(loss, *problem, r);
        const double max_d2 = loss == LossKind::kL2Svm ? 2.0 : 0.25;
        const std::vector<double> bounds = curvature_bounds(*problem, r, max_d2);
        objective->reset({-1.1, 0.4, 0.05, -0.3});
        for (std::size_t i = 0; i < 4; ++i) {
          const BoundedDerivs both = objective->bounded_derivs(i);
          const CoordDerivs derivs = objective->coord_derivs(i);
          EXPECT_EQ(both.d1, derivs.d1) << i;
          EXPECT_EQ(both.d2, derivs.d2) << i;
          EXPECT_EQ(both.bound, bounds[i]) << i;
          EXPECT_EQ(objective->bound(i), bounds[i]) << i;
        }
      }
    }
  }
}

TEST(L2SvmObjective, ValuesWhoseSquaresOverflowAreRefused) {
  const CscMatrix x = to_csc(test::csr_from_dense(2, 2, {1e200, 0, 0, 1}));
  const Problem problem{x, nullptr, {1, -1}, 1.0, 1.0};
  try {
    make_coordinate_objective(LossKind::kL2Svm, problem);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "feature 1 has values too large to train on (their squares overflow); scale the "
              "data");
  }
}

}  // namespace
}  // namespace cdl

namespace cdl {
namespace {

// The rows' dot products on several threads are the columns' scatter, bit
// for bit (each row's sum is one thread's, in increasing column order).
TEST(DecisionValues, RowsOnAnyThreadCountAreTheColumnsScatterBitForBit) {
  const LabeledCsr rows = read_libsvm_csr(test::data_path("rcv1_small"));
  const CscMatrix columns = to_csc(rows.features, rows.features.num_cols);
  std::vector<double> w(rows.features.num_cols);
  for (std::size_t i = 0; i < w.size(); ++i) {
    w[i] = i % 5 == 0 ? 0.0 : std::sin(static_cast<double>(i)) / 3.0;
  }
  const std::vector<double> scatter = decision_values(columns, w);
  ASSERT_EQ(scatter.size(), rows.features.num_rows);
  for (unsigned threads : {1u, 2u, 3u, 8u}) {
    EXPECT_EQ(decision_values(rows.features, w, threads), scatter) << threads << " threads";
  }
}

}  // namespace
}  // namespace cdl

namespace cdl {
namespace {

// The regression objective alone, from a problem of rows on 1, 2 and 3
// threads: evaluate()'s f on the same problem with its columns, bit for bit,
// and f = 1/2 w'w + sum_j C loss(x_j'w, t_j) summed here from the rows.
TEST(RegressionObjectiveValue, IsEvaluatesFBitForBitOnAnyThreadCount) {
  const LabeledCsr data = read_libsvm_csr(test::data_path("rcv1_small"));
  const CsrMatrix& rows = data.features;
  const CscMatrix columns = to_csc(rows, rows.num_cols);
  std::vector<double> targets(rows.num_rows);
  for (std::size_t j = 0; j < targets.size(); ++j) targets[j] = std::cos(static_cast<double>(j));
  std::vector<double> w(rows.num_cols);
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = std::sin(static_cast<double>(i)) / 2.0;
  const double C = 0.7;
  const double p = 0.3;
  const Problem by_columns = regression_problem(columns, targets, C);
  const Problem by_rows = regression_problem(nullptr, targets, C, &rows);
  for (LossKind loss : {LossKind::kSvrL2, LossKind::kSvrL1, LossKind::kSquared}) {
    double direct = 0;
    for (double wi : w) direct += 0.5 * wi * wi;
    for (std::size_t j = 0; j < rows.num_rows; ++j) {
      const double r = row_dot(rows, j, w) - targets[j];
      const double outside = std::max(0.0, std::fabs(r) - p);
      direct += C * (loss == LossKind::kSvrL2   ? outside * outside
                     : loss == LossKind::kSvrL1 ? outside
                                                : r * r);
    }
    const double expected = evaluate(by_columns, loss, w, Regularizer::l2_only(), p).objective;
    EXPECT_NEAR(expected, direct, 1e-12 * direct);
    for (unsigned threads : {1u, 2u, 3u}) {
      EXPECT_EQ(regression_objective(by_rows, loss, w, Regularizer::l2_only(), p, threads),
                expected)
          << loss_info(loss).name << " on " << threads << " threads";
    }
  }
}

}  // namespace
}  // namespace cdl
