// The Regularizer of regularizer.h, r(w) = l1 ||w||_1 + l2/2 ||w||^2, against
// sums written out here; its prox step against a golden-section minimization
// of q(z) = g z + h/2 z^2 + r_i(w_i + z); its least subgradient against the
// subdifferential interval; the name table; and evaluate() of evaluate.h with
// an L1 part against f and the least-subgradient norm computed here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "data/problem.h"
#include "objective/evaluate.h"
#include "objective/regularizer.h"
#include "test_util.h"

namespace cdl {
namespace {

using Vec = std::vector<double>;

// L2, L1, two elastic nets and an arbitrary weighting of both parts.
const std::vector<Regularizer> kRegularizers = {
    Regularizer::l2_only(),        Regularizer::l1_only(), Regularizer::elastic_net(0.5),
    Regularizer::elastic_net(0.2), Regularizer{0.4, 2.0},  Regularizer{0.0, 3.5},
    Regularizer{2.5, 0.0},
};

const std::vector<Vec> kVectors = {{0, 0, 0}, {1.5, -2.0, 0.25},       {-0.3, 0, 7.0, -1e-3}, {4.0},
                                   {},        {0, -0.0, 1e-300, -5e10}};

// r(w) term by term.
double direct_value(const Regularizer& r, const Vec& w) {
  double sum = 0;
  for (double wi : w) sum += r.l1 * std::fabs(wi) + r.l2 / 2 * wi * wi;
  return sum;
}

// The coordinate's own part r_i(u) = l1 |u| + l2/2 u^2.
double r_i(const Regularizer& r, double u) { return r.l1 * std::fabs(u) + r.l2 / 2 * u * u; }

// Golden-section search for the minimizer of a convex function on [a, b].
template <class F>
double golden_section_minimize(F f, double a, double b) {
  const double ratio = (std::sqrt(5.0) - 1) / 2;
  double c = b - ratio * (b - a);
  double d = a + ratio * (b - a);
  double fc = f(c);
  double fd = f(d);
  for (int iteration = 0; iteration < 300 && b - a > 0; ++iteration) {
    if (fc <= fd) {
      b = d;
      d = c;
      fd = fc;
      c = b - ratio * (b - a);
      fc = f(c);
    } else {
      a = c;
      c = d;
      fc = fd;
      d = a + ratio * (b - a);
      fd = f(d);
    }
  }
  return fc <= fd ? c : d;
}

// The least-magnitude element of the interval [lo, hi] (lo <= hi).
double least_magnitude(double lo, double hi) { return std::clamp(0.0, lo, hi); }

TEST(SoftThreshold, IsSignTimesThePositivePartOfTheShrunkMagnitude) {
  for (double t : {0.0, 0.1, 1.0, 3.5}) {
    for (int k = -40; k <= 40; ++k) {
      const double u = 0.125 * k;
      const double shrunk = std::max(std::fabs(u) - t, 0.0);
      const double expected = u > 0 ? shrunk : -shrunk;
      EXPECT_EQ(soft_threshold(u, t), expected) << "u = " << u << ", t = " << t;
    }
  }
  // The threshold itself, and t = 0, which is the identity.
  EXPECT_EQ(soft_threshold(1.0, 1.0), 0.0);
  EXPECT_EQ(soft_threshold(-1.0, 1.0), 0.0);
  EXPECT_EQ(soft_threshold(-0.7, 0.0), -0.7);
  EXPECT_EQ(soft_threshold(1e-300, 0.0), 1e-300);
}

TEST(Regularizer, ValueIsTheDirectSum) {
  for (const Regularizer& r : kRegularizers) {
    for (const Vec& w : kVectors) {
      const double expected = direct_value(r, w);
      EXPECT_NEAR(r.value(w), expected, 1e-15 * (1 + std::fabs(expected)))
          << "l1 = " << r.l1 << ", l2 = " << r.l2;
    }
  }
  // By hand: w = (1.5, -2, 0.25).
  const Vec w = {1.5, -2.0, 0.25};
  EXPECT_DOUBLE_EQ(Regularizer::l2_only().value(w), 0.5 * (2.25 + 4.0 + 0.0625));
  EXPECT_DOUBLE_EQ(Regularizer::l1_only().value(w), 3.75);
  EXPECT_DOUBLE_EQ(Regularizer::elastic_net(0.25).value(w),
                   0.25 * 3.75 + 0.75 / 2 * (2.25 + 4.0 + 0.0625));
}

TEST(Regularizer, DeltaIsTheChangeOfValue) {
  const Vec w = {1.5, -2.0, 0.0, 0.25, -1e-3};
  for (const Regularizer& r : kRegularizers) {
    for (std::size_t i = 0; i < w.size(); ++i) {
      for (double z : {-3.0, -1.5, -0.25, -1e-3, 0.0, 1e-3, 0.25, 2.0, 1.5, 10.0}) {
        Vec moved = w;
        moved[i] += z;
        const double expected = direct_value(r, moved) - direct_value(r, w);
        EXPECT_NEAR(r.delta(w[i], z), expected, 1e-14 * (1 + direct_value(r, moved)))
            << "l1 = " << r.l1 << ", l2 = " << r.l2 << ", i = " << i << ", z = " << z;
      }
      // A step to exactly 0 removes the coordinate's whole part.
      EXPECT_NEAR(r.delta(w[i], -w[i]), -r_i(r, w[i]), 1e-14 * (1 + r_i(r, w[i])));
    }
  }
}

TEST(Regularizer, DerivativeAndCurvatureAreThoseOfTheSmoothPart) {
  for (const Regularizer& r : kRegularizers) {
    for (double wi : {-2.0, 0.0, 0.3}) {
      for (double g : {-1.0, 0.0, 2.5}) {
        EXPECT_DOUBLE_EQ(r.derivative(wi, g), g + r.l2 * wi);
      }
    }
    for (double h : {0.0, 0.5, 4.0}) EXPECT_DOUBLE_EQ(r.curvature(h), h + r.l2);
  }
}

TEST(Regularizer, ProxStepMinimizesTheQuadraticModelPlusR) {
  int landed_at_zero = 0;
  int landed_elsewhere = 0;
  for (const Regularizer& r : kRegularizers) {
    for (double wi : {-2.0, -0.5, 0.0, 0.3, 1.7}) {
      for (double g : {-3.0, -1.0, -0.2, 0.0, 0.25, 0.3, 0.9, 4.0}) {
        for (double h : {0.1, 1.0, 7.5}) {
          const auto q = [&](double z) { return g * z + h / 2 * z * z + r_i(r, wi + z); };
          const double z = r.prox_step(wi, g, h);
          // The minimizer u = w_i + z satisfies |u| <= (|g| + h |w_i| + l1) / (h + l2).
          const double reach = (std::fabs(g) + h * std::fabs(wi) + r.l1) / (h + r.l2);
          const double brute =
              golden_section_minimize(q, -reach - std::fabs(wi) - 1, reach + std::fabs(wi) + 1);
          const double scale = 1 + std::fabs(brute);
          // q is at least quadratic with curvature h around its minimizer, so
          // golden-section's own error is about sqrt(eps).
          EXPECT_NEAR(z, brute, 1e-6 * scale) << "l1 = " << r.l1 << ", l2 = " << r.l2
                                              << ", w = " << wi << ", g = " << g << ", h = " << h;
          // No point the search visited is better than the prox step.
          EXPECT_LE(q(z), q(brute) + 1e-14 * (1 + std::fabs(q(brute))));
          // Nor are its neighbours.
          for (double e : {1e-4, 1e-2}) {
            EXPECT_LE(q(z), q(z + e));
            EXPECT_LE(q(z), q(z - e));
          }
          if (wi + z == 0) {
            ++landed_at_zero;
            // Exactly at 0 iff 0 is in the subdifferential there:
            // |g - h w_i| <= l1.
            EXPECT_LE(std::fabs(g - h * wi), r.l1);
          } else {
            ++landed_elsewhere;
            EXPECT_GT(std::fabs(g - h * wi), r.l1);
          }
        }
      }
    }
  }
  // Both kinds of step were exercised.
  EXPECT_GT(landed_at_zero, 50);
  EXPECT_GT(landed_elsewhere, 50);
}

TEST(Regularizer, ProxStepLandsExactlyOnZeroInsideTheThreshold) {
  const Regularizer l1 = Regularizer::l1_only();
  // h w_i - g = 0.3 - 0.3 = 0, well inside [-1, 1].
  EXPECT_EQ(0.3 + l1.prox_step(0.3, 0.3, 1.0), 0.0);
  // On the threshold's edge: h w_i - g = 1 = l1.
  EXPECT_EQ(-0.5 + l1.prox_step(-0.5, -1.5, 1.0), 0.0);
  // Just outside: u = S(1 + 2^-20, 1) / 1 = 2^-20.
  EXPECT_EQ(0.0 + l1.prox_step(0.0, -(1.0 + std::ldexp(1.0, -20)), 1.0), std::ldexp(1.0, -20));
  // Elastic: u = S(h w - g, a) / (h + 1 - a).
  const Regularizer elastic = Regularizer::elastic_net(0.5);
  EXPECT_DOUBLE_EQ(1.0 + elastic.prox_step(1.0, -1.0, 2.0), (3.0 - 0.5) / 2.5);
  EXPECT_EQ(1.0 + elastic.prox_step(1.0, 1.75, 2.0), 0.0);  // |2 - 1.75| <= 0.5
}

TEST(Regularizer, ForL2TheProxStepIsTheNewtonStep) {
  for (const Regularizer& r : {Regularizer::l2_only(), Regularizer{0.0, 3.5}}) {
    ASSERT_TRUE(r.smooth());
    for (double wi : {-2.0, -0.5, 0.0, 0.3, 1.7}) {
      for (double g : {-3.0, -0.2, 0.0, 0.9, 4.0}) {
        for (double h : {0.1, 1.0, 7.5}) {
          const double newton = -r.derivative(wi, g) / r.curvature(h);
          EXPECT_NEAR(r.prox_step(wi, g, h), newton, 1e-15 * (1 + std::fabs(newton)))
              << "w = " << wi << ", g = " << g << ", h = " << h;
        }
      }
    }
  }
}

TEST(Regularizer, MinNormSubgradientIsTheLeastElementOfTheSubdifferential) {
  for (const Regularizer& r : kRegularizers) {
    for (double d : {-3.0, -1.0, -0.45, -0.2, 0.0, 0.2, 0.4, 1.0, 2.5}) {
      if (r.smooth()) {
        for (double wi : {-1.0, 0.0, 2.0}) EXPECT_EQ(r.min_norm_subgradient(wi, d), d);
        continue;
      }
      // Away from 0 the subdifferential is the single point d + l1 sign(w_i).
      EXPECT_DOUBLE_EQ(r.min_norm_subgradient(0.7, d), d + r.l1);
      EXPECT_DOUBLE_EQ(r.min_norm_subgradient(-1e-9, d), d - r.l1);
      // At 0 it is [d - l1, d + l1].
      const double expected = least_magnitude(d - r.l1, d + r.l1);
      EXPECT_DOUBLE_EQ(r.min_norm_subgradient(0.0, d), expected)
          << "l1 = " << r.l1 << ", d = " << d;
      // Checked against a fine scan of the interval as well.
      double best = d - r.l1;
      for (int k = 0; k <= 1000; ++k) {
        const double s = d - r.l1 + 2 * r.l1 * k / 1000.0;
        if (std::fabs(s) < std::fabs(best)) best = s;
      }
      EXPECT_NEAR(std::fabs(r.min_norm_subgradient(0.0, d)), std::fabs(best), 2 * r.l1 / 1000);
    }
  }
}

TEST(Regularizer, MinNormSubgradientIsZeroAfterAnExactProxStep) {
  // The loss part along coordinate i is the quadratic
  //   L(u) = g (u - w_i) + h/2 (u - w_i)^2,
  // whose derivative at u = w_i + z is g + h z: with h its exact curvature,
  // the prox step lands on the minimizer of L + r_i, where 0 is a subgradient.
  int exact_zeros = 0;
  for (const Regularizer& r : kRegularizers) {
    for (double wi : {-2.0, -0.5, 0.0, 0.3, 1.7}) {
      for (double g : {-3.0, -1.0, -0.2, 0.0, 0.25, 0.3, 0.9, 4.0}) {
        for (double h : {0.1, 1.0, 7.5}) {
          const double z = r.prox_step(wi, g, h);
          const double u = wi + z;
          const double d = r.derivative(u, g + h * z);
          const double s = r.min_norm_subgradient(u, d);
          const double scale =
              std::fabs(g) + h * (std::fabs(wi) + std::fabs(u)) + r.l1 + r.l2 * std::fabs(u) + 1;
          EXPECT_NEAR(s, 0.0, 1e-14 * scale) << "l1 = " << r.l1 << ", l2 = " << r.l2
                                             << ", w = " << wi << ", g = " << g << ", h = " << h;
          if (u == 0 && !r.smooth()) {
            EXPECT_EQ(s, 0.0);  // soft-thresholded to exactly 0
            ++exact_zeros;
          }
          // And a point off the minimizer has a nonzero least subgradient.
          const double off = u + 0.25;
          EXPECT_GT(std::fabs(r.min_norm_subgradient(off, r.derivative(off, g + h * (z + 0.25)))),
                    0.0);
        }
      }
    }
  }
  EXPECT_GT(exact_zeros, 50);
}

TEST(Regularizer, OfBuildsEachKind) {
  const Regularizer l2 = Regularizer::of(RegularizerKind::kL2);
  EXPECT_EQ(l2.l1, 0.0);
  EXPECT_EQ(l2.l2, 1.0);
  EXPECT_TRUE(l2.smooth());
  const Regularizer l1 = Regularizer::of(RegularizerKind::kL1);
  EXPECT_EQ(l1.l1, 1.0);
  EXPECT_EQ(l1.l2, 0.0);
  EXPECT_FALSE(l1.smooth());
  const Regularizer elastic = Regularizer::of(RegularizerKind::kElasticNet, 0.3);
  EXPECT_EQ(elastic.l1, 0.3);
  EXPECT_EQ(elastic.l2, 1.0 - 0.3);
  EXPECT_FALSE(elastic.smooth());
  const Regularizer half = Regularizer::of(RegularizerKind::kElasticNet);
  EXPECT_EQ(half.l1, 0.5);
  EXPECT_EQ(half.l2, 0.5);
  // The l1_ratio only matters for the elastic net.
  EXPECT_EQ(Regularizer::of(RegularizerKind::kL2, 0.9).l1, 0.0);
  EXPECT_EQ(Regularizer::of(RegularizerKind::kL1, 0.9).l2, 0.0);
  // The default-constructed regularizer is L2.
  EXPECT_EQ(Regularizer{}.l1, 0.0);
  EXPECT_EQ(Regularizer{}.l2, 1.0);
}

TEST(RegularizerTable, NamesEachKindOnceAndRoundTrips) {
  const auto& table = regularizer_table();
  ASSERT_EQ(table.size(), 3u);
  std::set<std::string> names;
  std::set<int> kinds;
  for (const RegularizerInfo& info : table) {
    names.insert(info.name);
    kinds.insert(static_cast<int>(info.kind));
    EXPECT_NE(std::string(info.description), "");
    const RegularizerInfo* found = find_regularizer(info.name);
    ASSERT_NE(found, nullptr) << info.name;
    EXPECT_EQ(found->kind, info.kind);
    EXPECT_EQ(std::string(regularizer_info(info.kind).name), info.name);
  }
  EXPECT_EQ(names, (std::set<std::string>{"l1", "l2", "elastic"}));
  EXPECT_EQ(kinds.size(), 3u);
  EXPECT_EQ(find_regularizer("l2")->kind, RegularizerKind::kL2);
  EXPECT_EQ(find_regularizer("l1")->kind, RegularizerKind::kL1);
  EXPECT_EQ(find_regularizer("elastic")->kind, RegularizerKind::kElasticNet);
  for (const char* unknown : {"", "L2", "l3", "elastic ", "l1 ", "elasticnet"}) {
    EXPECT_EQ(find_regularizer(unknown), nullptr) << "'" << unknown << "'";
  }
}

// ---- evaluate() with an L1 part ----

// 6 instances, 4 features (feature 3 has no nonzeros), C = 1.5 for y = +1 and
// 0.7 for y = -1.
const Vec kDense = {0.5, 0, -1.0, 0, 0, 2.0,  0.3, 0, -0.7, 0.1, 0,   0,
                    1.5, 0, 0.8,  0, 0, -0.4, 0,   0, 0.9,  0.9, 0.9, 0};
const Vec kLabels = {1, -1, 1, -1, 1, -1};
constexpr std::size_t kRows = 6;
constexpr std::size_t kCols = 4;

double cost_of(std::size_t j) { return kLabels[j] > 0 ? 1.5 : 0.7; }

double margin_of(const Vec& w, std::size_t j) {
  double sum = 0;
  for (std::size_t i = 0; i < kCols; ++i) sum += kDense[j * kCols + i] * w[i];
  return kLabels[j] * sum;
}

// Textbook losses (equations 3 and 4) and their derivatives.
double loss_value(LossKind loss, double m) {
  if (loss == LossKind::kL2Svm) return m < 1 ? (1 - m) * (1 - m) : 0.0;
  return std::log(1 + std::exp(-m));
}
double loss_d1(LossKind loss, double m) {
  if (loss == LossKind::kL2Svm) return m < 1 ? -2 * (1 - m) : 0.0;
  return -1 / (1 + std::exp(m));
}

double direct_objective(LossKind loss, const Regularizer& r, const Vec& w) {
  double f = 0;
  for (double wi : w) f += r.l1 * std::fabs(wi) + r.l2 / 2 * wi * wi;
  for (std::size_t j = 0; j < kRows; ++j) f += cost_of(j) * loss_value(loss, margin_of(w, j));
  return f;
}

// The gradient of the smooth part, l2 w_i + sum_j C_j y_j x_ji loss'(m_j).
double smooth_gradient(LossKind loss, const Regularizer& r, const Vec& w, std::size_t i) {
  double g = r.l2 * w[i];
  for (std::size_t j = 0; j < kRows; ++j) {
    g += cost_of(j) * kLabels[j] * kDense[j * kCols + i] * loss_d1(loss, margin_of(w, j));
  }
  return g;
}

TEST(EvaluateWithL1, ObjectiveAndLeastSubgradientNormMatchTheDirectFormulas) {
  const CscMatrix x = to_csc(test::csr_from_dense(kRows, kCols, kDense));
  const Problem problem{x, nullptr, kLabels, 1.5, 0.7};
  const std::vector<Vec> points = {
      {0, 0, 0, 0}, {0.3, 0, -0.4, 0}, {0, -0.2, 0, 0.8}, {-1.1, 0.4, 0.05, -0.3}};
  const std::vector<Regularizer> regularizers = {
      Regularizer::l1_only(), Regularizer::elastic_net(0.5), Regularizer{0.05, 0},
      Regularizer{3.0, 0}, Regularizer::l2_only()};
  int zero_inside = 0;   // w_i = 0 and |g_i| <= l1: contributes 0
  int zero_outside = 0;  // w_i = 0 and |g_i| > l1: contributes |g_i| - l1
  for (LossKind loss : {LossKind::kLogistic, LossKind::kL2Svm}) {
    for (const Regularizer& r : regularizers) {
      for (const Vec& w : points) {
        const Evaluation evaluation = evaluate(problem, loss, w, r);
        const double f = direct_objective(loss, r, w);
        EXPECT_NEAR(evaluation.objective, f, 1e-13 * (1 + f));
        double squares = 0;
        for (std::size_t i = 0; i < kCols; ++i) {
          const double g = smooth_gradient(loss, r, w, i);
          double s;
          if (w[i] > 0) {
            s = g + r.l1;
          } else if (w[i] < 0) {
            s = g - r.l1;
          } else {
            s = least_magnitude(g - r.l1, g + r.l1);
            if (r.l1 > 0) ++(std::fabs(g) <= r.l1 ? zero_inside : zero_outside);
          }
          squares += s * s;
        }
        EXPECT_NEAR(evaluation.gradient_norm, std::sqrt(squares), 1e-13 * (1 + std::sqrt(squares)))
            << "l1 = " << r.l1 << ", l2 = " << r.l2 << ", w = (" << w[0] << ", " << w[1] << ", "
            << w[2] << ", " << w[3] << ")";
      }
    }
  }
  EXPECT_GT(zero_inside, 5);
  EXPECT_GT(zero_outside, 5);
}

TEST(EvaluateWithL1, GradientNormIsZeroAtTheL1SolutionOfASeparableProblem) {
  // One feature per instance: f(w) = l1 |w_0| + C log(1 + exp(-w_0)) (y = +1,
  // x = 1), minimized where C / (1 + exp(w_0)) = l1, that is
  // w_0 = log(C / l1 - 1) for C > l1; and w_0 = 0 for C <= 2 l1, where the
  // slope at 0, -C/2, lies within [-l1, l1].
  const CscMatrix x = to_csc(test::csr_from_dense(1, 1, {1.0}));
  const Problem problem{x, nullptr, {1}, 3.0, 3.0};
  const Regularizer l1 = Regularizer::l1_only();
  const double w0 = std::log(3.0 / 1.0 - 1);
  EXPECT_NEAR(evaluate(problem, LossKind::kLogistic, {w0}, l1).gradient_norm, 0.0, 1e-15);
  // Elsewhere the norm is the slope's distance from the subdifferential.
  EXPECT_NEAR(evaluate(problem, LossKind::kLogistic, {0.0}, l1).gradient_norm, 1.5 - 1.0, 1e-15);
  const Problem weak{x, nullptr, {1}, 1.5, 1.5};
  EXPECT_EQ(evaluate(weak, LossKind::kLogistic, {0.0}, l1).gradient_norm, 0.0);
}

}  // namespace
}  // namespace cdl
