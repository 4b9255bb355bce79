// The importance, adaptive, gap-based and greedy rules against their
// formulas (dual_rules.h) on a small problem, from a state part way to the
// optimum: the frequencies of the random rules' draws (a fixed state, so a
// fixed distribution) within 5 standard deviations of n p_i, the greedy
// rules' picks as the brute-force argmax, and the table's solver checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <vector>

#include "data/problem.h"
#include "objective/dual_state.h"
#include "select/random.h"
#include "select/selection_rule.h"
#include "solvers/params.h"
#include "solvers/solver_table.h"
#include "test_util.h"

namespace cdl {
namespace {

// 9 rows, 4 features, one held out (row 8), one row of norm 0 (row 7).
const std::vector<double> kDense = {
    1.0,  0.0, 0.5, 0.0,  //
    0.0,  2.0, 0.0, 0.0,  //
    0.3,  0.0, 0.0, 1.0,  //
    0.0,  1.0, 1.0, 0.0,  //
    -1.0, 0.5, 0.0, 0.2,  //
    0.0,  0.7, 0.0, 0.0,  //
    0.9,  0.0, 0.9, 0.4,  //
    0.0,  0.0, 0.0, 0.0,  //
    0.4,  0.0, 0.9, 0.0,  //
};
const std::vector<double> kLabels = {1, -1, 1, -1, -1, 1, 1, -1, 1};
constexpr std::size_t kRows = 9;

struct Fixture {
  CsrMatrix rows = test::csr_from_dense(kRows, 4, kDense);
  CscMatrix cols = to_csc(rows, 4);
  std::vector<std::uint8_t> held_out = {0, 0, 0, 0, 0, 0, 0, 0, 1};
  Problem problem{cols, &rows, kLabels, 0.8, 1.5, Task::kClassification, &held_out};
};

// A state a few steps in: some alphas at 0, some free, some at C.
void advance(DualState& state) {
  for (std::size_t i : {0u, 1u, 2u, 3u, 4u, 5u, 6u, 1u, 3u, 0u}) state.step(i);
}

std::vector<double> frequencies(SelectionRule& rule, std::size_t draws) {
  std::vector<double> counts(kRows, 0.0);
  std::size_t made = 0;
  while (made < draws) {
    rule.start_epoch();  // the state does not move: the same distribution
    for (std::size_t i = rule.next(); i != SelectionRule::kNone; i = rule.next()) {
      counts[i] += 1;
      ++made;
    }
  }
  for (double& c : counts) c /= static_cast<double>(made);
  return counts;
}

void expect_distribution(const std::string& name, LossKind loss,
                         const std::function<double(const DualState&, std::size_t)>& weight) {
  Fixture f;
  DualState state(f.problem, loss, true);
  advance(state);
  std::vector<double> p(kRows, 0.0);
  double sum = 0;
  for (std::size_t i = 0; i < kRows; ++i) {
    p[i] = f.problem.cost(i) > 0 ? weight(state, i) : 0.0;
    sum += p[i];
  }
  ASSERT_GT(sum, 0) << name;
  for (double& v : p) v /= sum;
  RuleContext context{kRows, 99, &f.cols, &state};
  auto rule = make_rule(name, context);
  const std::size_t draws = 90000;
  const std::vector<double> freq = frequencies(*rule, draws);
  for (std::size_t i = 0; i < kRows; ++i) {
    const double sd = std::sqrt(p[i] * (1 - p[i]) / static_cast<double>(draws));
    if (p[i] == 0) {
      EXPECT_EQ(freq[i], 0.0) << name << " row " << i;
    } else {
      EXPECT_NEAR(freq[i], p[i], 5 * sd) << name << " row " << i;
    }
  }
}

// |kappa_i| recomputed from the margin by the case analysis of Definition
// 2.3 (dual_state.cpp), independently of DualState::residue.
double kappa(const DualState& s, std::size_t i) {
  const double m = s.margin(i);
  const double c = s.problem().cost(i);
  if (s.loss() == LossKind::kL1Svm) {
    if (std::fabs(1 - m) <= 1e-12) return 0.0;  // m = 1 up to rounding, as in DualState
    return m < 1 ? c - s.alpha(i) : s.alpha(i);
  }
  return std::fabs(s.alpha(i) - 2 * c * std::max(0.0, 1 - m));
}

double norm(std::size_t i) {
  double sq = 0;
  for (std::size_t k = 0; k < 4; ++k) sq += kDense[i * 4 + k] * kDense[i * 4 + k];
  return std::sqrt(sq);
}

class DualRuleTest : public ::testing::TestWithParam<LossKind> {};

TEST_P(DualRuleTest, ImportanceIsCTimesTheRowNorm) {
  expect_distribution("importance", GetParam(), [](const DualState& s, std::size_t i) {
    return s.problem().cost(i) * norm(i);
  });
}

TEST_P(DualRuleTest, SupportUniformIsUniformOnTheSupport) {
  expect_distribution("support-uniform", GetParam(), [](const DualState& s, std::size_t i) {
    return kappa(s, i) != 0 ? 1.0 : 0.0;
  });
}

TEST_P(DualRuleTest, AdaptiveIsResidueTimesNorm) {
  expect_distribution("adaptive", GetParam(),
                      [](const DualState& s, std::size_t i) { return kappa(s, i) * norm(i); });
}

TEST_P(DualRuleTest, AdaUniformIsTheHalfAndHalfMixture) {
  Fixture f;
  DualState probe(f.problem, GetParam(), true);
  advance(probe);
  double support = 0;
  double adaptive = 0;
  for (std::size_t i = 0; i < 8; ++i) {
    support += kappa(probe, i) != 0 ? 1.0 : 0.0;
    adaptive += kappa(probe, i) * norm(i);
  }
  expect_distribution("ada-uniform", GetParam(), [=](const DualState& s, std::size_t i) {
    if (kappa(s, i) == 0) return 0.0;
    return 0.5 / support + 0.5 * kappa(s, i) * norm(i) / adaptive;
  });
}

// G_i from the paper's (4) in our parameterization (dual_state.h).
double gap(const DualState& s, std::size_t i) {
  const double m = s.margin(i);
  const double c = s.problem().cost(i);
  const double a = s.alpha(i);
  const double h = std::max(0.0, 1 - m);
  return s.loss() == LossKind::kL1Svm ? c * h - a * (1 - m)
                                      : c * h * h - a * (1 - m) + a * a / (4 * c);
}

TEST_P(DualRuleTest, AdaGapIsTheGapShare) { expect_distribution("ada-gap", GetParam(), gap); }

TEST_P(DualRuleTest, GapPerEpochIsTheGapShareAtTheEpochStart) {
  expect_distribution("gap-per-epoch", GetParam(), gap);
}

TEST_P(DualRuleTest, GreedyRulesPickTheBruteForceArgmax) {
  const std::vector<std::pair<std::string, std::function<double(const DualState&, std::size_t)>>>
      rules = {
          {"gs-s",
           [](const DualState& s, std::size_t i) {
             const double g = s.margin(i) - 1 + s.diag(i) * s.alpha(i);
             if (s.alpha(i) <= 0) return std::fabs(std::min(g, 0.0));
             if (s.alpha(i) >= s.upper(i)) return std::fabs(std::max(g, 0.0));
             return std::fabs(g);
           }},
          {"gs-r",
           [](const DualState& s, std::size_t i) {
             const double g = s.margin(i) - 1 + s.diag(i) * s.alpha(i);
             const double q = norm(i) * norm(i) + s.diag(i);
             if (q == 0) return g < 0 ? s.upper(i) - s.alpha(i) : 0.0;
             return std::fabs(std::clamp(s.alpha(i) - g / q, 0.0, s.upper(i)) - s.alpha(i));
           }},
          {"gs-q",
           [](const DualState& s, std::size_t i) {
             // The decrease of D along e_i at its exact minimizer, by a scan.
             const double g = s.margin(i) - 1 + s.diag(i) * s.alpha(i);
             const double q = norm(i) * norm(i) + s.diag(i);
             double best = 0;
             const double hi = std::min(s.upper(i), s.alpha(i) + 10.0);
             for (int k = 0; k <= 200000; ++k) {
               const double u = hi * k / 200000;
               const double d = u - s.alpha(i);
               best = std::max(best, -(g * d + 0.5 * q * d * d));
             }
             return best;
           }},
      };
  for (const auto& [name, score] : rules) {
    Fixture f;
    DualState state(f.problem, GetParam(), true);
    RuleContext context{kRows, 1, &f.cols, &state};
    auto rule = make_rule(name, context);
    rule->start_epoch();
    for (int step = 0; step < 30; ++step) {
      std::vector<double> s(kRows, -1.0);
      for (std::size_t i = 0; i < 8; ++i) s[i] = score(state, i);
      const double best = *std::max_element(s.begin(), s.end());
      std::size_t pick = rule->next();
      if (pick == SelectionRule::kNone) {  // n picks make an epoch
        rule->start_epoch();
        pick = rule->next();
      }
      ASSERT_NE(pick, SelectionRule::kNone);
      // The pick's score is the maximum (to the scan's resolution for gs-q).
      EXPECT_NEAR(s[pick], best, 1e-6 * (1 + best)) << name << " step " << step;
      const double d1 = state.gradient(pick);
      const double delta = state.step(pick);
      rule->feedback({pick, d1, state.qbar(pick), delta});
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Losses, DualRuleTest,
                         ::testing::Values(LossKind::kL1Svm, LossKind::kL2Svm));

TEST(DualRuleTable, ImportanceOnPrimalCdIsTheColumnNorm) {
  Fixture f;
  RuleContext context{4, 5, &f.cols, nullptr};
  auto rule = make_rule("importance", context);
  std::vector<double> counts(4, 0.0);
  std::size_t made = 0;
  for (int epoch = 0; epoch < 20000; ++epoch) {
    rule->start_epoch();
    for (std::size_t j = rule->next(); j != SelectionRule::kNone; j = rule->next()) {
      counts[j] += 1;
      ++made;
    }
  }
  std::vector<double> p(4, 0.0);
  double sum = 0;
  for (std::size_t c = 0; c < 4; ++c) {
    for (std::size_t r = 0; r < kRows; ++r) p[c] += kDense[r * 4 + c] * kDense[r * 4 + c];
    p[c] = std::sqrt(p[c]);
    sum += p[c];
  }
  for (std::size_t c = 0; c < 4; ++c) {
    const double pc = p[c] / sum;
    const double n = static_cast<double>(made);
    EXPECT_NEAR(counts[c] / n, pc, 5 * std::sqrt(pc * (1 - pc) / n)) << c;
  }
}

TEST(DualRuleTable, DualRulesNeedTheDualStateAndAreRefusedForPrimalSolvers) {
  Fixture f;
  for (const char* name : {"support-uniform", "adaptive", "ada-uniform", "ada-gap", "gap-per-epoch",
                           "gs-s", "gs-r", "gs-q"}) {
    const RuleInfo* info = find_rule(name);
    ASSERT_NE(info, nullptr) << name;
    EXPECT_FALSE(info->applies_to(kPrimalCoordinates)) << name;
    EXPECT_TRUE(info->applies_to(kDualCoordinates)) << name;
    EXPECT_THROW(make_rule(name, RuleContext{4, 1, &f.cols, nullptr}), ConfigError) << name;
    Params params;
    params.solver = SolverKind::kCd;
    params.own<SelectOptions>().rule = name;
    try {
      validate(resolve_defaults(params));
      ADD_FAILURE() << name << " accepted for -s cd";
    } catch (const ConfigError& e) {
      // Followed by why: primal CD defines the rule for the Lasso only.
      EXPECT_EQ(std::string(e.what()).rfind(std::string("--select: rule ") + name +
                                                " does not apply to solver cd; its rules are "
                                                "cyclic, perm, perm-once, uniform or importance",
                                            0),
                0u);
    }
  }
  EXPECT_TRUE(find_rule("importance")->applies_to(kPrimalCoordinates));
  EXPECT_TRUE(find_rule("importance")->applies_to(kDualCoordinates));
  EXPECT_EQ(rule_choices(kDualCoordinates),
            "cyclic, perm, perm-once, uniform, importance, support-uniform, adaptive, "
            "ada-uniform, ada-gap, gap-per-epoch, gs-s, gs-r or gs-q");
  Params params;
  params.solver = SolverKind::kCd;
  params.own<SelectOptions>().rule = "importance";
  EXPECT_NO_THROW(validate(resolve_defaults(params)));
}

}  // namespace
}  // namespace cdl
