// The post-processed duality gap of the SVM with an unregularized intercept
// (intercept_gap.h): the projection, the exact w0, gap = P - D against a
// dense recomputation, gap >= 0, and gap -> 0 at LIBSVM's solution.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "libsvm_fixture.h"
#include "objective/intercept_gap.h"
#include "solver_test_util.h"

namespace cdl {
namespace {

// A small dense problem with random features, labels and two class costs.
struct Dense {
  std::vector<std::vector<double>> x;  // rows
  std::vector<double> y;
  CscMatrix csc;
  CsrMatrix csr;
  Problem problem() const { return Problem{csc, &csr, y, 1.5, 0.5}; }
};

Dense make_dense(std::size_t rows, std::size_t cols, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> value(-1, 1);
  Dense d;
  std::vector<double> flat;
  for (std::size_t j = 0; j < rows; ++j) {
    std::vector<double> row;
    for (std::size_t i = 0; i < cols; ++i) row.push_back(value(rng) > -0.3 ? value(rng) : 0.0);
    d.x.push_back(row);
    flat.insert(flat.end(), row.begin(), row.end());
    d.y.push_back(value(rng) > 0 ? 1.0 : -1.0);
  }
  d.y[0] = 1;
  d.y[1] = -1;
  d.csr = test::csr_from_dense(rows, cols, flat);
  d.csc = to_csc(d.csr);
  return d;
}

double dense_primal(const Dense& d, const Problem& p, const std::vector<double>& w, double w0) {
  double f = 0;
  for (double v : w) f += 0.5 * v * v;
  for (std::size_t j = 0; j < d.x.size(); ++j) {
    double s = w0;
    for (std::size_t i = 0; i < w.size(); ++i) s += w[i] * d.x[j][i];
    f += p.cost(j) * std::max(0.0, 1.0 - d.y[j] * s);
  }
  return f;
}

std::vector<double> dense_w(const Dense& d, const std::vector<double>& alpha) {
  std::vector<double> w(d.x[0].size(), 0.0);
  for (std::size_t j = 0; j < d.x.size(); ++j) {
    for (std::size_t i = 0; i < w.size(); ++i) w[i] += alpha[j] * d.y[j] * d.x[j][i];
  }
  return w;
}

double dense_dual(const Dense& d, const std::vector<double>& alpha) {
  const std::vector<double> w = dense_w(d, alpha);
  double f = 0;
  for (double a : alpha) f += a;
  for (double v : w) f -= 0.5 * v * v;
  return f;
}

std::vector<double> random_alpha(std::size_t n, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> value(-0.5, 2.0);
  std::vector<double> alpha(n);
  for (double& a : alpha) a = value(rng);
  return alpha;
}

TEST(InterceptGap, ProjectionIsFeasibleAndNearest) {
  const Dense d = make_dense(12, 4, 1);
  const Problem p = d.problem();
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 50; ++trial) {
    const std::vector<double> alpha = random_alpha(12, rng);
    std::vector<double> projected = alpha;
    project_to_dual_feasible(p, projected);
    double balance = 0;
    for (std::size_t j = 0; j < 12; ++j) {
      EXPECT_GE(projected[j], 0.0);
      EXPECT_LE(projected[j], p.cost(j));
      balance += d.y[j] * projected[j];
    }
    EXPECT_NEAR(balance, 0.0, 1e-12);
    double best = 0;
    for (std::size_t j = 0; j < 12; ++j) best += std::pow(alpha[j] - projected[j], 2);
    // No other feasible point (projections of random vectors) is nearer.
    for (int other = 0; other < 40; ++other) {
      std::vector<double> beta = random_alpha(12, rng);
      project_to_dual_feasible(p, beta);
      double distance = 0;
      for (std::size_t j = 0; j < 12; ++j) distance += std::pow(alpha[j] - beta[j], 2);
      EXPECT_LE(best, distance + 1e-12);
    }
  }
}

TEST(InterceptGap, ProjectionKeepsAFeasiblePoint) {
  const Dense d = make_dense(6, 2, 3);
  const Problem p = d.problem();
  std::vector<double> alpha(6, 0.0);
  alpha[0] = 0.25;  // y = +1
  alpha[1] = 0.25;  // y = -1
  const std::vector<double> before = alpha;
  EXPECT_NEAR(project_to_dual_feasible(p, alpha), 0.0, 1e-15);
  for (std::size_t j = 0; j < 6; ++j) EXPECT_NEAR(alpha[j], before[j], 1e-15);
}

TEST(InterceptGap, BestInterceptMinimizesThePrimalOverW0) {
  const Dense d = make_dense(15, 3, 5);
  const Problem p = d.problem();
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> value(-1, 1);
  for (int trial = 0; trial < 30; ++trial) {
    const std::vector<double> w = {value(rng), value(rng), value(rng)};
    std::vector<double> scores(15);
    for (std::size_t j = 0; j < 15; ++j) {
      for (std::size_t i = 0; i < 3; ++i) scores[j] += w[i] * d.x[j][i];
    }
    const double w0 = best_intercept(p, scores);
    // The minimum of a piecewise-linear convex function is at a breakpoint.
    double brute = HUGE_VAL;
    for (std::size_t j = 0; j < 15; ++j) {
      brute = std::min(brute, dense_primal(d, p, w, d.y[j] - scores[j]));
    }
    EXPECT_NEAR(dense_primal(d, p, w, w0), brute, 1e-12 * (1 + brute));
  }
}

TEST(InterceptGap, GapIsPrimalMinusDualComputedDenselyAndNonNegative) {
  const Dense d = make_dense(20, 5, 9);
  const Problem p = d.problem();
  std::mt19937_64 rng(13);
  for (int trial = 0; trial < 40; ++trial) {
    const std::vector<double> alpha = random_alpha(20, rng);
    const InterceptGap out = post_process(p, alpha);
    std::vector<double> projected = alpha;
    project_to_dual_feasible(p, projected);
    const std::vector<double> w = dense_w(d, projected);
    ASSERT_EQ(out.w.size(), 6u);
    for (std::size_t i = 0; i < 5; ++i) EXPECT_NEAR(out.w[i], w[i], 1e-12);
    const double primal = dense_primal(d, p, w, out.w.back());
    const double dual = dense_dual(d, projected);
    EXPECT_NEAR(out.primal, primal, 1e-10 * (1 + primal));
    EXPECT_NEAR(out.dual, dual, 1e-10 * (1 + std::fabs(dual)));
    EXPECT_NEAR(out.gap, primal - dual, 1e-10 * (1 + primal));
    EXPECT_GE(out.gap, -1e-12);
    EXPECT_NEAR(intercept_primal(p, out.w), primal, 1e-10 * (1 + primal));
    EXPECT_NEAR(intercept_dual(p, projected), dual, 1e-10 * (1 + std::fabs(dual)));
  }
}

TEST(InterceptGap, HeldOutRowsTakeNoPart) {
  const Dense d = make_dense(10, 3, 21);
  std::vector<std::uint8_t> held_out(10, 0);
  held_out[3] = held_out[4] = 1;
  Problem p = d.problem();
  p.held_out = &held_out;
  std::mt19937_64 rng(2);
  const InterceptGap out = post_process(p, random_alpha(10, rng));
  std::vector<double> projected = random_alpha(10, rng);
  project_to_dual_feasible(p, projected);
  EXPECT_EQ(projected[3], 0.0);
  EXPECT_EQ(projected[4], 0.0);
  EXPECT_GE(out.gap, -1e-12);
}

// LIBSVM's alpha (tight -e 1e-5) is optimal: its post-processed gap is tiny,
// P is LIBSVM's objective and w0 its -rho.
TEST(InterceptGap, VanishesAtLibsvmSolution) {
  struct Case {
    const char* data;
    const char* model;
    double weight;
  };
  for (const Case& c : {Case{"heart_scale", "heart_scale.libsvm.model", 1.0},
                        Case{"heart_scale", "heart_scale_w.libsvm.model", 0.5},
                        Case{"breast-cancer_scale", "breast-cancer_scale.libsvm.model", 1.0}}) {
    SCOPED_TRACE(c.model);
    const test::Data& data = test::load(c.data);
    const Problem p = one_vs_rest(data.file.features, data.classes, 0, 1.0, c.weight, &data.rows);
    ASSERT_EQ(data.classes.labels[0], 1);
    const std::vector<double> alpha = test::libsvm_alpha(c.model, data.rows);
    const InterceptGap out = post_process(p, alpha);
    const test::LibsvmFigures figures = test::libsvm_figures(c.data, c.weight);
    EXPECT_LE(out.gap, 1e-4 * out.primal);
    EXPECT_GE(out.gap, -1e-9);
    EXPECT_NEAR(out.primal, figures.objective, 1e-4 * figures.objective);
    EXPECT_NEAR(out.w.back(), figures.intercept, 1e-3);
    // A random feasible alpha is far from optimal: the gap is not trivially 0.
    std::mt19937_64 rng(3);
    std::vector<double> scrambled = alpha;
    std::shuffle(scrambled.begin(), scrambled.end(), rng);
    EXPECT_GT(post_process(p, scrambled).gap, 100 * out.gap);
  }
}

}  // namespace
}  // namespace cdl
