// The Lasso's state and rules (objective/lasso_state.h, select/lasso_rules.h):
// every per-coordinate quantity against a brute-force computation from the
// dense matrix, the sum-tree rules' distributions against the brute-force
// gaps and residues, the greedy rules' picks against a brute-force argmax,
// and the KKT conditions of the Lasso solved with each rule.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "objective/evaluate.h"
#include "objective/lasso_state.h"
#include "objective/regularizer.h"
#include "select/lasso_rule_base.h"
#include "select/lasso_rules.h"
#include "select/selection_rule.h"
#include "solver_test_util.h"
#include "solvers/params.h"
#include "solvers/solver.h"
#include "test_util.h"
#include "util/error.h"

namespace cdl {
namespace {

// A small l x n design with about a third of the entries zero (so that steps
// change only some gradients), real targets, and its dense copy.
struct Design {
  std::size_t l, n;
  std::vector<double> dense;  // row-major
  CscMatrix x;
  std::vector<double> y;
};

Design design(std::size_t l, std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> unit;
  Design d{l, n, std::vector<double>(l * n, 0.0), {}, std::vector<double>(l)};
  for (double& v : d.dense) v = unit(rng) < 0.35 ? 0.0 : normal(rng);
  for (std::size_t j = 0; j < l; ++j) {
    for (std::size_t i = 0; i < n; i += 3) d.y[j] += d.dense[j * n + i] * (i % 2 ? -1.0 : 1.5);
    d.y[j] += 0.1 * normal(rng);
  }
  d.x = to_csc(test::csr_from_dense(l, n, d.dense), n);
  return d;
}

// The brute-force quantities at w, in long double from the dense matrix.
struct Brute {
  std::vector<double> g, h, gap, kappa, subgradient, step, decrease;
  double bound;
};

Brute brute(const Design& d, double C, const std::vector<double>& w, double bound) {
  Brute b{};
  b.bound = bound;
  std::vector<long double> r(d.l);
  for (std::size_t j = 0; j < d.l; ++j) {
    long double s = -d.y[j];
    for (std::size_t i = 0; i < d.n; ++i) s += (long double)d.dense[j * d.n + i] * w[i];
    r[j] = s;
  }
  for (std::size_t i = 0; i < d.n; ++i) {
    long double g = 0, h = 0;
    for (std::size_t j = 0; j < d.l; ++j) {
      g += 2 * C * d.dense[j * d.n + i] * r[j];
      h += 2 * C * d.dense[j * d.n + i] * d.dense[j * d.n + i];
    }
    const double gi = static_cast<double>(g), hi = static_cast<double>(h), wi = w[i];
    b.g.push_back(gi);
    b.h.push_back(hi);
    // (21) with lambda = 1.
    b.gap.push_back(bound * std::max(std::fabs(gi) - 1, 0.0) + std::fabs(wi) + wi * gi);
    // kappa: the distance from w_i to the subdifferential of B[|u| - 1]_+ at u = -g_i.
    double kappa;
    if (std::fabs(gi) < 1) {
      kappa = std::fabs(wi);
    } else {
      kappa = std::fabs(wi + bound * (gi > 0 ? 1 : -1));
    }
    b.kappa.push_back(kappa);
    b.subgradient.push_back(wi != 0 ? gi + (wi > 0 ? 1 : -1)
                                    : (std::fabs(gi) <= 1 ? 0.0 : gi - (gi > 0 ? 1 : -1)));
    // The exact minimizer of |w_i + z| + g z + h/2 z^2 by brute force over
    // the three candidates (z = -w_i, and the stationary points of each side).
    double best_z = -wi;
    auto value = [&](double z) { return std::fabs(wi + z) + gi * z + 0.5 * hi * z * z; };
    for (double z : {-(gi + 1) / hi, -(gi - 1) / hi}) {
      if (value(z) < value(best_z)) best_z = z;
    }
    b.step.push_back(best_z);
    b.decrease.push_back(value(0) - value(best_z));
  }
  return b;
}

double start_bound(const Design& d, double C) {
  double b = 0;
  for (double v : d.y) b += C * v * v;
  return b;
}

TEST(LassoState, QuantitiesMatchBruteForceAlongRandomSteps) {
  const Design d = design(12, 9, 1);
  const double C = 0.7;
  const Problem problem = regression_problem(d.x, d.y, C);
  LassoState tracked(problem, nullptr, true);
  LassoState plain(problem, nullptr, false);
  EXPECT_NEAR(tracked.bound(), start_bound(d, C), 1e-12 * start_bound(d, C));
  std::vector<double> w(d.n, 0.0);
  std::mt19937_64 rng(5);
  std::normal_distribution<double> normal;
  for (int t = 0; t < 40; ++t) {
    const std::size_t i = static_cast<std::size_t>(rng() % d.n);
    const double z = t % 5 == 4 ? -w[i] : 0.3 * normal(rng);  // sometimes back to exactly 0
    w[i] += z;
    tracked.step(i, z);
    plain.step(i, z);
    // The features listed as changed are those sharing a row with column i.
    std::vector<std::size_t> expected;
    for (std::size_t k = 0; k < d.n; ++k) {
      bool shares = false;
      for (std::size_t j = 0; j < d.l; ++j) {
        shares = shares || (d.dense[j * d.n + i] != 0 && d.dense[j * d.n + k] != 0);
      }
      if (shares && z != 0) expected.push_back(k);
    }
    std::vector<std::size_t> changed = tracked.changed();
    std::sort(changed.begin(), changed.end());
    EXPECT_EQ(changed, expected) << t;
  }
  plain.refresh();
  const Brute b = brute(d, C, w, tracked.bound());
  for (std::size_t i = 0; i < d.n; ++i) {
    SCOPED_TRACE(i);
    for (const LassoState* s : {&tracked, &plain}) {
      EXPECT_EQ(s->w(i), w[i]);
      EXPECT_NEAR(s->gradient(i), b.g[i], 1e-10);
      EXPECT_NEAR(s->curvature(i), b.h[i], 1e-10);
      EXPECT_NEAR(s->gap(i), b.gap[i], 1e-9 * b.bound);
      EXPECT_NEAR(s->residue(i), b.kappa[i], 1e-9 * b.bound);
      EXPECT_NEAR(s->subgradient(i), b.subgradient[i], 1e-10);
      EXPECT_NEAR(s->newton_step(i), b.step[i], 1e-10);
      EXPECT_NEAR(s->decrease(i), b.decrease[i], 1e-10);
      EXPECT_GE(s->gap(i), 0.0);
    }
  }
}

TEST(LassoState, GapsSumToTheTraceColumnsDualityGap) {
  const Design d = design(10, 7, 2);
  const double C = 0.4;
  const Problem problem = regression_problem(d.x, d.y, C);
  LassoState state(problem, nullptr, false);
  state.step(1, 0.5);
  state.step(4, -0.25);
  state.refresh();
  std::vector<double> w(d.n, 0.0);
  w[1] = 0.5;
  w[4] = -0.25;
  double sum = 0;
  for (std::size_t i = 0; i < d.n; ++i) sum += state.gap(i);
  EXPECT_NEAR(sum, lasso_duality_gap(problem, w), 1e-10 * state.bound());
}

TEST(LassoState, BoundIsTheObjectiveAtTheStart) {
  const Design d = design(8, 5, 3);
  const double C = 2.0;
  const Problem problem = regression_problem(d.x, d.y, C);
  const std::vector<double> w0 = {0.5, 0, -1, 0, 0.25};
  const LassoState state(problem, &w0, false);
  double f = 1.75;
  for (std::size_t j = 0; j < d.l; ++j) {
    double s = 0;
    for (std::size_t i = 0; i < d.n; ++i) s += d.dense[j * d.n + i] * w0[i];
    f += C * (d.y[j] - s) * (d.y[j] - s);
  }
  EXPECT_NEAR(state.bound(), f, 1e-12 * f);
}

RuleContext lasso_context(const Problem& problem, std::uint64_t seed = 1) {
  RuleContext context{problem.num_features(), seed, &problem.x()};
  context.lasso = &problem;
  return context;
}

// The sum-tree rules' probabilities are the brute-force weights' shares,
// at the start and after steps heard through feedback().
TEST(LassoRules, SumTreeDistributionsMatchBruteForce) {
  const Design d = design(12, 9, 4);
  const double C = 0.7;
  const Problem problem = regression_problem(d.x, d.y, C);
  const double bound = start_bound(d, C);
  struct Case {
    const char* name;
    std::unique_ptr<SelectionRule> (*make)(const RuleContext&);
  };
  for (const Case& c :
       {Case{"ada-gap", make_lasso_ada_gap_rule}, Case{"adaptive", make_lasso_adaptive_rule},
        Case{"support-uniform", make_lasso_support_uniform_rule},
        Case{"ada-uniform", make_lasso_ada_uniform_rule}}) {
    SCOPED_TRACE(c.name);
    auto rule = c.make(lasso_context(problem));
    auto& tree_rule = dynamic_cast<LassoSumTreeRule&>(*rule);
    std::vector<double> w(d.n, 0.0);
    const std::vector<std::pair<std::size_t, double>> steps = {{0, 0.4}, {3, -0.2}, {0, -0.4}};
    for (std::size_t t = 0; t <= steps.size(); ++t) {
      const Brute b = brute(d, C, w, bound);
      std::vector<double> p(d.n), q(d.n);
      double sp = 0, sq = 0;
      for (std::size_t i = 0; i < d.n; ++i) {
        double norm = 0;
        for (std::size_t j = 0; j < d.l; ++j) norm += d.dense[j * d.n + i] * d.dense[j * d.n + i];
        const std::string name = c.name;
        if (name == "ada-gap") p[i] = b.gap[i];
        if (name == "adaptive" || name == "ada-uniform") p[i] = b.kappa[i] * std::sqrt(norm);
        if (name == "support-uniform") p[i] = b.kappa[i] > 1e-12 ? 1 : 0;
        q[i] = b.kappa[i] > 1e-12 ? 1 : 0;
        sp += p[i];
        sq += q[i];
      }
      for (std::size_t i = 0; i < d.n; ++i) {
        double expected = p[i] / sp;
        if (std::string(c.name) == "ada-uniform") expected = 0.5 * p[i] / sp + 0.5 * q[i] / sq;
        EXPECT_NEAR(tree_rule.probability(i), expected, 1e-9) << "step " << t << " i " << i;
      }
      if (t == steps.size()) break;
      w[steps[t].first] += steps[t].second;
      rule->feedback({steps[t].first, 0.0, 0.0, steps[t].second});
    }
  }
}

// Draw frequencies of gap-per-epoch (alias table, fixed in an epoch) follow
// the brute-force gaps at the epoch's start.
TEST(LassoRules, GapPerEpochDrawsByTheGaps) {
  const Design d = design(12, 6, 6);
  const double C = 0.7;
  const Problem problem = regression_problem(d.x, d.y, C);
  auto rule = make_lasso_gap_per_epoch_rule(lasso_context(problem, 11));
  std::vector<double> w(d.n, 0.0);
  w[2] = 0.3;
  rule->start_epoch();
  rule->feedback({2, 0.0, 0.0, 0.3});  // heard now, used from the next epoch on
  const Brute b = brute(d, C, w, start_bound(d, C));
  double total = 0;
  for (double g : b.gap) total += g;
  std::vector<double> count(d.n, 0.0);
  const int epochs = 20000;
  for (int e = 0; e < epochs; ++e) {
    rule->start_epoch();
    for (std::size_t i = rule->next(); i != SelectionRule::kNone; i = rule->next()) ++count[i];
  }
  const double draws = static_cast<double>(epochs) * static_cast<double>(d.n);
  for (std::size_t i = 0; i < d.n; ++i) {
    const double p = b.gap[i] / total;
    // 5 standard deviations of a binomial share.
    EXPECT_NEAR(count[i] / draws, p, 5 * std::sqrt(p * (1 - p) / draws) + 1e-12) << i;
  }
}

// Each greedy pick is the brute-force argmax of its score at the current w,
// while the rule hears the exact coordinate steps it asked for.
TEST(LassoRules, GreedyRulesPickTheBruteForceArgmax) {
  const Design d = design(12, 9, 7);
  const double C = 0.7;
  const Problem problem = regression_problem(d.x, d.y, C);
  struct Case {
    const char* name;
    std::unique_ptr<SelectionRule> (*make)(const RuleContext&);
  };
  for (const Case& c : {Case{"gs-s", make_lasso_gs_s_rule}, Case{"gs-r", make_lasso_gs_r_rule},
                        Case{"gs-q", make_lasso_gs_q_rule}}) {
    SCOPED_TRACE(c.name);
    auto rule = c.make(lasso_context(problem));
    std::vector<double> w(d.n, 0.0);
    rule->start_epoch();
    for (int t = 0; t < static_cast<int>(d.n); ++t) {
      const Brute b = brute(d, C, w, start_bound(d, C));
      const std::vector<double>& score = std::string(c.name) == "gs-s"   ? b.subgradient
                                         : std::string(c.name) == "gs-r" ? b.step
                                                                         : b.decrease;
      std::size_t best = 0;
      for (std::size_t i = 1; i < d.n; ++i) {
        if (std::fabs(score[i]) > std::fabs(score[best])) best = i;
      }
      const std::size_t pick = rule->next();
      ASSERT_NE(pick, SelectionRule::kNone);
      // A tie within rounding may go either way; the pick's score must be the largest.
      EXPECT_NEAR(std::fabs(score[pick]), std::fabs(score[best]), 1e-9) << t;
      w[pick] += b.step[pick];
      rule->feedback({pick, 0.0, 0.0, b.step[pick]});
    }
    EXPECT_EQ(rule->next(), SelectionRule::kNone);  // n picks an epoch
  }
}

TEST(LassoRules, RefuseWithoutTheLasso) {
  const Design d = design(4, 3, 8);
  const Problem problem = regression_problem(d.x, d.y, 1.0);
  const RuleContext plain{problem.num_features(), 1, &problem.x()};
  EXPECT_THROW(make_lasso_ada_gap_rule(plain), ConfigError);
  EXPECT_THROW(make_lasso_gs_q_rule(plain), ConfigError);
  // make_rule dispatches to the Lasso's rule only with the Lasso's context.
  EXPECT_NO_THROW(make_rule("gs-r", lasso_context(problem)));
  // With -R's free bias they refuse; the rules without state serve it.
  RuleContext free = lasso_context(problem);
  free.lasso_free_bias = true;
  EXPECT_THROW(make_rule("gs-r", free), ConfigError);
  EXPECT_THROW(make_rule("ada-gap", free), ConfigError);
  EXPECT_NO_THROW(make_rule("cyclic", free));
}

Params lasso_params(const std::string& rule) {
  Params params;
  params.solver = SolverKind::kCd;
  params.loss = LossKind::kSquared;
  params.regularizer = RegularizerKind::kL1;
  params.own<SelectOptions>().rule = rule;
  return params;
}

TEST(LassoRules, ValidateAcceptsThemForTheLassoOnly) {
  for (const char* rule : {"ada-gap", "gap-per-epoch", "gs-s", "gs-r", "gs-q", "adaptive",
                           "support-uniform", "ada-uniform", "importance", "uniform"}) {
    SCOPED_TRACE(rule);
    EXPECT_NO_THROW(validate(lasso_params(rule)));
  }
  for (const char* rule : {"ada-gap", "gap-per-epoch", "gs-s", "gs-r", "gs-q"}) {
    SCOPED_TRACE(rule);
    for (const auto& [loss, regularizer] : {std::pair{LossKind::kLogistic, RegularizerKind::kL1},
                                            std::pair{LossKind::kL2Svm, RegularizerKind::kL1},
                                            std::pair{LossKind::kSquared, RegularizerKind::kL2},
                                            std::pair{LossKind::kSvrL2, RegularizerKind::kL1}}) {
      Params params = lasso_params(rule);
      params.loss = loss;
      params.regularizer = regularizer;
      try {
        validate(params);
        ADD_FAILURE() << "accepted";
      } catch (const ConfigError& e) {
        EXPECT_NE(std::string(e.what()).find("is defined for the Lasso only (-r l1 -l sq)"),
                  std::string::npos)
            << e.what();
      }
    }
  }
}

// Every rule solves the Lasso: the KKT conditions to 1e-6, from the dense
// matrix (x_i'r = sign(w_i)/(2C) where w_i != 0, |x_i'r| <= 1/(2C) where
// w_i = 0, r = y - Xw).
class LassoKkt : public ::testing::TestWithParam<const char*> {};

TEST_P(LassoKkt, SatisfiesTheKktConditions) {
  const Design d = design(30, 40, 9);
  const double C = 0.5;
  const Problem problem = regression_problem(d.x, d.y, C);
  Params params = lasso_params(GetParam());
  params.C = C;
  params.eps = 1e-9;
  params.max_iter = 100000;
  params.quiet = true;
  std::ostringstream sink;
  Reporter reporter(sink, Reporter::Level::kQuiet);
  const SolveResult result = solve_cd({problem, params, 3, reporter, nullptr});
  ASSERT_EQ(result.status, Status::kConverged);
  const std::size_t nonzeros = test::expect_lasso_kkt(d.dense, d.l, d.n, d.y, result.w, C);
  EXPECT_GT(nonzeros, 0u);
  EXPECT_LT(nonzeros, d.n);
}

INSTANTIATE_TEST_SUITE_P(EveryRule, LassoKkt,
                         ::testing::Values("cyclic", "perm", "uniform", "importance", "ada-gap",
                                           "gap-per-epoch", "adaptive", "support-uniform",
                                           "ada-uniform", "gs-s", "gs-r", "gs-q"),
                         [](const ::testing::TestParamInfo<const char*>& param) {
                           std::string name = param.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

}  // namespace
}  // namespace cdl
