// CachedMarginObjective (cached_margin_objective.h), the L1 rows' margin
// objective with per-row derivative terms: against MarginObjective, bit for
// bit, through a sequence of steps, rejected steps (undo) and a reset, for
// both margin losses and the L1 and L2 regularizers; its curvature bound
// against D''_i(t) computed directly at many t; LossTerms against the
// Loss's own functions; a held-out row that never counts; the loss and
// terms that the partitioned solver loads into a copy; and the setup
// passes on threads.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "data/problem.h"
#include "objective/cached_margin_objective.h"
#include "objective/margin_objective.h"
#include "test_util.h"

namespace cdl {
namespace {

using Vec = std::vector<double>;

// 7 instances, 6 features, C = 1.5 for y = +1 and
// 0.7 for y = -1.
const Vec kDense = {0.5, 0,   -1.0, 0,   0, 2.0, 0.3, 0,    -0.7, 0,   0.1, 0,   0,     0,
                    0,   1.5, 0,    0.8, 0, 0,   0,   -0.4, 0,    0.9, 0,   0.9, 0.9,   0,
                    0,   0,   3.0,  0,   0, 0,   0,   -2.5, 0.2,  0,   0,   0,   -0.05, 0};
const Vec kLabels = {1, -1, 1, -1, 1, -1, 1};
constexpr std::size_t kRows = 7;
constexpr std::size_t kCols = 6;

struct Fixture {
  CscMatrix x = to_csc(test::csr_from_dense(kRows, kCols, kDense));
  Problem problem{x, nullptr, kLabels, 1.5, 0.7};
};

template <class Loss>
void expect_same_as_margin_objective(const Regularizer& regularizer) {
  Fixture data;
  MarginObjective<Loss> plain(data.problem, regularizer);
  CachedMarginObjective<Loss> cached(data.problem, regularizer);
  auto expect_same = [&](const char* when) {
    for (std::size_t i = 0; i < kCols; ++i) {
      const CoordDerivs a = plain.coord_derivs(i);
      const CoordDerivs b = cached.coord_derivs(i);
      EXPECT_EQ(a.d1, b.d1) << when << ", feature " << i;
      EXPECT_EQ(a.d2, b.d2) << when << ", feature " << i;
      EXPECT_EQ(plain.bound(i), cached.bound(i));
    }
    EXPECT_EQ(plain.value(), cached.value()) << when;
    EXPECT_EQ(plain.w(), cached.w()) << when;
    EXPECT_EQ(plain.gradient(), cached.gradient()) << when;
  };
  expect_same("at 0");
  EXPECT_EQ(plain.gradient_norm_at_zero(), cached.gradient_norm_at_zero());
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> step(-2.0, 2.0);
  for (int t = 0; t < 60; ++t) {
    const std::size_t i = static_cast<std::size_t>(t * 5 % static_cast<int>(kCols));
    const double z = step(rng);
    if (t % 3 == 0) {
      plain.apply(i, z);
      cached.apply(i, z);
    } else {
      EXPECT_EQ(plain.apply_with_delta(i, z), cached.apply_with_delta(i, z));
      if (t % 3 == 2) {
        plain.undo();
        cached.undo();
      }
    }
    expect_same("after a step");
  }
  const Vec w = {0.25, -1.0, 0.0, 3.0, 0.0, -0.5};
  plain.reset(w);
  cached.reset(w);
  expect_same("after reset");
}

TEST(CachedMarginObjective, SameAsMarginObjectiveBitForBit) {
  expect_same_as_margin_objective<LogisticLoss>(Regularizer::l1_only());
  expect_same_as_margin_objective<LogisticLoss>(Regularizer::l2_only());
  expect_same_as_margin_objective<L2SvmLoss>(Regularizer::l1_only());
  expect_same_as_margin_objective<L2SvmLoss>(Regularizer::elastic_net(0.5));
}

TEST(CachedMarginObjective, LossTermsAreTheLossFunctions) {
  for (double m : {-800.0, -30.0, -1.0, -1e-300, 0.0, 0.5, 1.0, 2.0, 40.0, 900.0}) {
    double d1;
    double d2;
    EXPECT_EQ(LossTerms<LogisticLoss>::value_and_derivs(m, d1, d2), LogisticLoss::value(m));
    EXPECT_EQ(d1, LogisticLoss::d1(m));
    EXPECT_EQ(d2, LogisticLoss::d2(m));
    EXPECT_EQ(LossTerms<L2SvmLoss>::value_and_derivs(m, d1, d2), L2SvmLoss::value(m));
    EXPECT_EQ(d1, L2SvmLoss::d1(m));
    EXPECT_EQ(d2, L2SvmLoss::d2(m));
  }
}

// D''_i(t) = l2 + sum_j C_j loss''(m_j + t y_j x_ji) x_ji^2, directly.
double second_derivative_at(const Fixture& data, const Vec& margin, double l2, std::size_t i,
                            double t) {
  double h = l2;
  for (std::size_t j = 0; j < kRows; ++j) {
    const double v = kDense[j * kCols + i];
    const double c = kLabels[j] > 0 ? 1.5 : 0.7;
    h += c * LogisticLoss::d2(margin[j] + t * kLabels[j] * v) * v * v;
  }
  (void)data;
  return h;
}

TEST(CachedMarginObjective, LogisticCurvatureBoundHoldsOverTheStep) {
  Fixture data;
  for (const Regularizer& regularizer : {Regularizer::l1_only(), Regularizer::l2_only()}) {
    CachedMarginObjective<LogisticLoss> objective(data.problem, regularizer);
    const Vec w = {0.8, -1.2, 0.3, 2.0, 0.0, -0.7};
    objective.reset(w);
    Vec margin(kRows, 0.0);
    for (std::size_t j = 0; j < kRows; ++j) {
      for (std::size_t i = 0; i < kCols; ++i) margin[j] += kDense[j * kCols + i] * w[i];
      margin[j] *= kLabels[j];
    }
    bool tighter_somewhere = false;
    for (std::size_t i = 0; i < kCols; ++i) {
      const double d2 = objective.coord_derivs(i).d2;
      for (double z : {-4.0, -1.0, -0.3, -0.01, 0.0, 0.02, 0.5, 1.0, 3.0}) {
        const double bound = objective.curvature_bound(i, d2, z);
        EXPECT_LE(bound, objective.bound(i));
        tighter_somewhere |= bound < 0.5 * objective.bound(i);
        for (int s = 0; s <= 20; ++s) {
          const double t = z * s / 20.0;
          EXPECT_LE(second_derivative_at(data, margin, regularizer.l2, i, t), bound * (1 + 1e-12))
              << "feature " << i << ", z " << z << ", t " << t;
        }
      }
    }
    EXPECT_TRUE(tighter_somewhere);
  }
}

TEST(CachedMarginObjective, HeldOutRowNeverCounts) {
  Fixture data;
  const std::vector<std::uint8_t> held_out = {0, 0, 1, 0, 0, 0, 0};
  Problem partial = data.problem;
  partial.held_out = &held_out;
  MarginObjective<LogisticLoss> plain(partial, Regularizer::l1_only());
  CachedMarginObjective<LogisticLoss> cached(partial, Regularizer::l1_only());
  for (std::size_t i = 0; i < kCols; ++i) {
    plain.apply(i, 0.5);
    cached.apply(i, 0.5);
  }
  for (std::size_t i = 0; i < kCols; ++i) {
    EXPECT_EQ(plain.coord_derivs(i).d1, cached.coord_derivs(i).d1);
    EXPECT_EQ(plain.coord_derivs(i).d2, cached.coord_derivs(i).d2);
  }
  EXPECT_EQ(plain.value(), cached.value());
}

// The setup pass runs in blocks of 8192 columns on threads: the norm of
// grad f(0) has the same bits on 1, 2 and 4 threads and is the norm of
// gradient() at 0, and an overflowing column is named as in one loop: the
// first of features 9001 and 17001 (blocks 1 and 2), on any thread count.
TEST(MarginObjective, SetupOnThreadsKeepsTheNormAndTheFirstError) {
  constexpr std::size_t kWideCols = 20000;
  constexpr std::size_t kWideRows = 12;
  Vec dense(kWideRows * kWideCols, 0.0);
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  for (std::size_t k = 0; k < dense.size(); k += 7) dense[k] = value(rng);
  Vec labels(kWideRows);
  for (std::size_t j = 0; j < kWideRows; ++j) labels[j] = j % 3 == 0 ? 1 : -1;
  const CscMatrix x = to_csc(test::csr_from_dense(kWideRows, kWideCols, dense));
  const Problem problem{x, nullptr, labels, 1.5, 0.7};
  const Regularizer l2 = Regularizer::of(RegularizerKind::kL2);
  const double one_thread = MarginObjective<L2SvmLoss>(problem, l2, 1).gradient_norm_at_zero();
  for (unsigned threads : {2u, 4u}) {
    EXPECT_EQ(MarginObjective<L2SvmLoss>(problem, l2, threads).gradient_norm_at_zero(), one_thread);
  }
  const Vec g = MarginObjective<L2SvmLoss>(problem, l2, 2).gradient();
  double squares = 0;
  for (double gi : g) squares += gi * gi;
  EXPECT_NEAR(one_thread, std::sqrt(squares), 1e-12 * one_thread);

  for (std::size_t column : {std::size_t{17000}, std::size_t{9000}}) dense[column] = 1e154;
  const CscMatrix bad_x = to_csc(test::csr_from_dense(kWideRows, kWideCols, dense));
  const Problem bad{bad_x, nullptr, labels, 1.5, 0.7};
  for (unsigned threads : {1u, 2u, 4u}) {
    SCOPED_TRACE(threads);
    try {
      MarginObjective<L2SvmLoss> objective(bad, l2, threads);
      FAIL() << "no error";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("feature 9001 "), std::string::npos) << e.what();
    }
  }
}

// What solver_cd_partitioned.cpp does at a merge: loss_sum() over row
// ranges writes the terms at given margins, and a copy set up on 3 threads
// that loads them (and w) gives the stepped objective's D'_i and D''_i bit
// for bit; the ranges' loss is the loss of f(w) less r(w).
TEST(CachedMarginObjective, LoadedMarginsAndTermsAreTheObjectivesOwn) {
  Fixture data;
  const Regularizer regularizer = Regularizer::of(RegularizerKind::kL1);
  CachedMarginObjective<LogisticLoss> stepped(data.problem, regularizer);
  CachedMarginObjective<LogisticLoss> copy(data.problem, regularizer, 3);
  EXPECT_EQ(copy.gradient_norm_at_zero(), stepped.gradient_norm_at_zero());
  EXPECT_EQ(copy.gradient(), stepped.gradient());
  const Vec steps = {0.7, -1.3, 0.0, 2.1, -0.4, 0.9};
  for (std::size_t i = 0; i < kCols; ++i) stepped.apply(i, steps[i]);
  const Vec& margins = stepped.row_state();
  std::vector<CachedMarginObjective<LogisticLoss>::Terms> terms(kRows);
  const double loss = copy.loss_sum(margins, 0, 3, terms) + copy.loss_sum(margins, 3, kRows, terms);
  EXPECT_NEAR(loss, stepped.value() - regularizer.value(stepped.w()), 1e-12 * stepped.value());
  copy.load_row_state(margins, terms);
  for (std::size_t i = 0; i < kCols; ++i) copy.set_weight(i, stepped.w()[i]);
  for (std::size_t i = 0; i < kCols; ++i) {
    EXPECT_EQ(copy.coord_derivs(i).d1, stepped.coord_derivs(i).d1) << "feature " << i;
    EXPECT_EQ(copy.coord_derivs(i).d2, stepped.coord_derivs(i).d2) << "feature " << i;
    EXPECT_EQ(copy.bound(i), stepped.bound(i));
  }
  EXPECT_EQ(copy.value(), stepped.value());
}

}  // namespace
}  // namespace cdl
