// The whole-vector objective for TRON, for l2svm, lr and svr2: f(w), its gradient
// and Hessian-vector products against direct dense computations and central
// finite differences.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "data/problem.h"
#include "objective/vector_objective.h"
#include "test_util.h"
#include "util/error.h"

namespace cdl {
namespace {

using Vec = std::vector<double>;

// 6 instances, 4 features (feature 3 has no nonzeros), different C per class.
const Vec kDense = {0.5, 0, -1.0, 0, 0, 2.0,  0.3, 0, -0.7, 0.1, 0,   0,
                    1.5, 0, 0.8,  0, 0, -0.4, 0,   0, 0.9,  0.9, 0.9, 0};
constexpr std::size_t kRows = 6;
constexpr std::size_t kCols = 4;

struct Fixture {
  CscMatrix x = to_csc(test::csr_from_dense(kRows, kCols, kDense));
  CsrMatrix rows = to_csr(x);
  Problem problem{x, &rows, {1, -1, 1, -1, 1, -1}, 1.5, 0.7};
};

// The test points. For l2svm none has a margin within 0.1 of the kink at 1:
// the first has every instance active, the second only rows 0 and 4.
const std::vector<Vec> kPoints = {{0.3, -0.2, 0.7, 1.0}, {-2.0, -1.0, -0.5, 0.4}, {0, 0, 0, 0}};

double dot(const Vec& a, const Vec& b) {
  double sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i) sum += a[i] * b[i];
  return sum;
}

// y_j x_j'w for every row, from the dense matrix.
Vec margins(const Problem& problem, const Vec& w) {
  Vec m(kRows);
  for (std::size_t j = 0; j < kRows; ++j) {
    double sum = 0;
    for (std::size_t i = 0; i < kCols; ++i) sum += kDense[j * kCols + i] * w[i];
    m[j] = problem.y[j] * sum;
  }
  return m;
}

// Textbook losses (equations 3 and 4) and their second derivatives.
double loss_value(LossKind loss, double m) {
  if (loss == LossKind::kL2Svm) return m < 1 ? (1 - m) * (1 - m) : 0.0;
  return std::log1p(std::exp(-m));
}
double loss_d2(LossKind loss, double m) {
  if (loss == LossKind::kL2Svm) return m < 1 ? 2.0 : 0.0;
  const double e = std::exp(-m);
  return e / ((1 + e) * (1 + e));
}

// f(w) = 1/2 w'w + sum_j C_j loss(y_j w'x_j), directly.
double direct_f(LossKind loss, const Problem& problem, const Vec& w) {
  double f = 0.5 * dot(w, w);
  const Vec m = margins(problem, w);
  for (std::size_t j = 0; j < kRows; ++j) f += problem.cost(j) * loss_value(loss, m[j]);
  return f;
}

// s + X' D X s with D_jj = C_j loss''(m_j), dense.
Vec direct_hess_vec(LossKind loss, const Problem& problem, const Vec& w, const Vec& s) {
  const Vec m = margins(problem, w);
  Vec hs = s;
  for (std::size_t j = 0; j < kRows; ++j) {
    double xs = 0;
    for (std::size_t i = 0; i < kCols; ++i) xs += kDense[j * kCols + i] * s[i];
    const double d = problem.cost(j) * loss_d2(loss, m[j]);
    for (std::size_t i = 0; i < kCols; ++i) hs[i] += d * xs * kDense[j * kCols + i];
  }
  return hs;
}

Vec gradient_at(VectorObjective& objective, const Vec& w) {
  objective.evaluate(w);
  Vec g;
  objective.gradient(g);
  return g;
}

Vec axpy(double a, const Vec& x, const Vec& y) {  // a x + y
  Vec out = y;
  for (std::size_t i = 0; i < out.size(); ++i) out[i] += a * x[i];
  return out;
}

const std::vector<Vec> kDirections = {
    {1, 0, 0, 0}, {0, 0, 0, 1}, {0.3, -1.2, 0.5, 0.7}, {-2.0, 0.1, 1.4, -0.6}};

// The gradient at w against central differences of f; returns the gradient.
Vec expect_gradient_matches_finite_differences(VectorObjective& objective, const Vec& w) {
  const double h = 1e-6;
  const Vec g = gradient_at(objective, w);
  EXPECT_EQ(g.size(), kCols);
  for (std::size_t i = 0; i < std::min(g.size(), kCols); ++i) {
    Vec plus = w;
    Vec minus = w;
    plus[i] += h;
    minus[i] -= h;
    const double fd = (objective.evaluate(plus) - objective.evaluate(minus)) / (2 * h);
    EXPECT_NEAR(g[i], fd, 1e-7) << "feature " << i;
  }
  return g;
}

// H(w) s for every direction s against central differences of the gradient.
void expect_hess_vec_matches_finite_differences(VectorObjective& objective, const Vec& w) {
  const double h = 1e-5;
  for (const Vec& s : kDirections) {
    objective.evaluate(w);
    Vec hs;
    objective.hess_vec(s, hs);
    const Vec gp = gradient_at(objective, axpy(h, s, w));
    const Vec gm = gradient_at(objective, axpy(-h, s, w));
    ASSERT_EQ(hs.size(), kCols);
    for (std::size_t i = 0; i < kCols; ++i) {
      EXPECT_NEAR(hs[i], (gp[i] - gm[i]) / (2 * h), 1e-7) << "feature " << i;
    }
  }
}

class VectorObjectiveTest : public ::testing::TestWithParam<LossKind> {
 protected:
  Fixture fx_;
  std::unique_ptr<VectorObjective> objective_ = make_vector_objective(GetParam(), fx_.problem);
};

TEST_P(VectorObjectiveTest, KnowsTheNumberOfFeatures) {
  EXPECT_EQ(objective_->num_features(), kCols);
}

TEST_P(VectorObjectiveTest, TestPointsAvoidTheL2SvmKink) {
  for (const Vec& w : kPoints) {
    for (double m : margins(fx_.problem, w)) EXPECT_GT(std::fabs(m - 1), 0.1);
  }
}

TEST_P(VectorObjectiveTest, EvaluateMatchesTheDirectObjective) {
  for (const Vec& w : kPoints) {
    const double expected = direct_f(GetParam(), fx_.problem, w);
    EXPECT_NEAR(objective_->evaluate(w), expected, 1e-13 * expected);
  }
}

TEST_P(VectorObjectiveTest, GradientMatchesFiniteDifferences) {
  for (const Vec& w : kPoints) {
    const Vec g = expect_gradient_matches_finite_differences(*objective_, w);
    ASSERT_EQ(g.size(), kCols);
    EXPECT_EQ(g[3], w[3]);  // the empty feature contributes only w_3
  }
}

TEST_P(VectorObjectiveTest, HessVecMatchesFiniteDifferencesOfTheGradient) {
  for (const Vec& w : kPoints) expect_hess_vec_matches_finite_differences(*objective_, w);
}

TEST_P(VectorObjectiveTest, HessVecIsIdentityPlusXtDX) {
  for (const Vec& w : kPoints) {
    objective_->evaluate(w);
    for (const Vec& s : kDirections) {
      Vec hs;
      objective_->hess_vec(s, hs);
      const Vec expected = direct_hess_vec(GetParam(), fx_.problem, w, s);
      for (std::size_t i = 0; i < kCols; ++i) {
        EXPECT_NEAR(hs[i], expected[i], 1e-13 * (1 + std::fabs(expected[i]))) << "feature " << i;
      }
    }
  }
}

TEST_P(VectorObjectiveTest, HessianIsSymmetric) {
  for (const Vec& w : kPoints) {
    objective_->evaluate(w);
    for (const Vec& u : kDirections) {
      for (const Vec& v : kDirections) {
        Vec hu;
        Vec hv;
        objective_->hess_vec(u, hu);
        objective_->hess_vec(v, hv);
        const double uhv = dot(u, hv);
        const double vhu = dot(v, hu);
        EXPECT_NEAR(uhv, vhu, 1e-12 * std::max(std::fabs(uhv), std::fabs(vhu)));
      }
    }
  }
}

TEST_P(VectorObjectiveTest, GradientNormAtZeroIsTheNormOfTheGradientAtZero) {
  objective_->evaluate(kPoints[0]);  // the last evaluated w must not matter
  const double reported = objective_->gradient_norm_at_zero();
  const Vec g0 = gradient_at(*objective_, {0, 0, 0, 0});
  EXPECT_NEAR(reported, std::sqrt(dot(g0, g0)), 1e-14);
  EXPECT_GT(reported, 0.0);
}

std::string loss_name(const ::testing::TestParamInfo<LossKind>& param) {
  return param.param == LossKind::kL2Svm ? "l2svm" : "lr";
}

INSTANTIATE_TEST_SUITE_P(TwiceDifferentiable, VectorObjectiveTest,
                         ::testing::Values(LossKind::kL2Svm, LossKind::kLogistic), loss_name);

// The L2-loss SVR, f(w) = 1/2 w'w + C sum_j max(0, |x_j'w - t_j| - p)^2:
// f directly, the gradient by central differences, the generalized Hessian
// I + 2 C X_A'X_A (A: the rows outside the tube) by differences of the
// gradient, at points whose residuals stay 0.05 away from the tube's edges.
TEST(SvrVectorObjective, MatchesTheDirectObjectiveAndFiniteDifferences) {
  Fixture fx;
  const Vec targets = {0.4, -1.0, 2.0, 0.0, -0.3, 1.1};
  const double C = 0.8;
  const double p = 0.2;
  const Problem problem = regression_problem(fx.x, targets, C, &fx.rows);
  const auto objective =
      make_vector_objective(LossKind::kSvrL2, problem, Regularizer::l2_only(), 1, p);
  const auto residuals = [&](const Vec& w) {
    Vec r(kRows);
    for (std::size_t j = 0; j < kRows; ++j) {
      for (std::size_t i = 0; i < kCols; ++i) r[j] += kDense[j * kCols + i] * w[i];
      r[j] -= targets[j];
    }
    return r;
  };
  const std::vector<Vec> points = {{0.3, -0.2, 0.7, 1.0}, {-1.0, 0.5, 0.25, 0.4}, {0, 0, 0, 0}};
  for (const Vec& w : points) {
    const Vec r = residuals(w);
    double f = 0.5 * dot(w, w);
    std::size_t outside = 0;
    for (double r_j : r) {
      ASSERT_GT(std::fabs(std::fabs(r_j) - p), 0.05) << r_j;
      const double b = std::max(0.0, std::fabs(r_j) - p);
      f += C * b * b;
      outside += std::fabs(r_j) > p;
    }
    EXPECT_GT(outside, 0u);
    EXPECT_NEAR(objective->evaluate(w), f, 1e-13 * f);
    expect_gradient_matches_finite_differences(*objective, w);
    expect_hess_vec_matches_finite_differences(*objective, w);
  }
  const Vec g0 = gradient_at(*objective, {0, 0, 0, 0});
  EXPECT_NEAR(objective->gradient_norm_at_zero(), std::sqrt(dot(g0, g0)), 1e-14);
}

TEST(MakeVectorObjective, RejectsL1SvmAsAConfigError) {
  Fixture fx;
  EXPECT_THROW(make_vector_objective(LossKind::kL1Svm, fx.problem), ConfigError);
}

TEST(MakeVectorObjective, NeedsTheRows) {
  Fixture fx;
  const Problem no_rows{fx.x, nullptr, fx.problem.y, 1.5, 0.7};
  EXPECT_THROW(make_vector_objective(LossKind::kL2Svm, no_rows), Error);
  EXPECT_THROW(make_vector_objective(LossKind::kLogistic, no_rows), Error);
}

}  // namespace
}  // namespace cdl
