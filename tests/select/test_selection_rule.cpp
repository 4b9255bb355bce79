// The --select rules through their table: what each epoch visits, in
// batches, and how the seed and the epochs change it.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <set>

#include "select/selection_rule.h"
#include "util/error.h"

namespace cdl {
namespace {

// One epoch through next_batch(), checking that no batch is empty.
std::vector<std::size_t> epoch_in_batches(SelectionRule& rule, std::size_t* batches = nullptr) {
  std::vector<std::size_t> seen;
  rule.start_epoch();
  std::size_t count = 0;
  for (CoordinateBatch batch = rule.next_batch(); batch.size > 0; batch = rule.next_batch()) {
    seen.insert(seen.end(), batch.begin, batch.begin + batch.size);
    ++count;
  }
  if (batches != nullptr) *batches = count;
  return seen;
}

std::vector<std::size_t> epoch_one_by_one(SelectionRule& rule) {
  std::vector<std::size_t> seen;
  rule.start_epoch();
  for (std::size_t i = rule.next(); i != SelectionRule::kNone; i = rule.next()) seen.push_back(i);
  return seen;
}

std::vector<std::size_t> sorted(std::vector<std::size_t> v) {
  std::sort(v.begin(), v.end());
  return v;
}

std::vector<std::size_t> iota(std::size_t n) {
  std::vector<std::size_t> out(n);
  std::iota(out.begin(), out.end(), std::size_t{0});
  return out;
}

RuleContext context(std::size_t n, std::uint64_t seed = 7) { return {n, seed, nullptr}; }

TEST(SelectionRuleTable, NamesTheFourRules) {
  std::vector<std::string> names;
  for (const RuleInfo& rule : rule_table()) names.emplace_back(rule.name);
  EXPECT_EQ(names, (std::vector<std::string>{"cyclic", "perm", "perm-once", "uniform", "importance",
                                             "support-uniform", "adaptive", "ada-uniform",
                                             "ada-gap", "gap-per-epoch", "gs-s", "gs-r", "gs-q"}));
  EXPECT_EQ(rule_choices(kPrimalCoordinates), "cyclic, perm, perm-once, uniform or importance");
  EXPECT_EQ(find_rule("Perm"), nullptr);
  EXPECT_THROW(make_rule("greedy", context(3)), Error);
  EXPECT_FALSE(find_rule("cyclic")->randomized);
  EXPECT_TRUE(find_rule("uniform")->randomized);
}

TEST(SelectionRuleTable, CyclicVisitsInOrderInChunks) {
  // 2500 coordinates go out in more than one chunk, still 0..n-1.
  auto rule = make_rule("cyclic", context(2500));
  std::size_t batches = 0;
  EXPECT_EQ(epoch_in_batches(*rule, &batches), iota(2500));
  EXPECT_GT(batches, 1u);
  EXPECT_EQ(epoch_in_batches(*rule), iota(2500));
  EXPECT_TRUE(rule->visits_all());
}

TEST(SelectionRuleTable, PermIsLongBatchesANewPermutationEachEpoch) {
  auto rule = make_rule("perm", context(300));
  std::size_t batches = 0;
  const auto first = epoch_in_batches(*rule, &batches);
  EXPECT_EQ(batches, 1u);  // long batches, for look-ahead: 300 fit in one
  const auto second = epoch_in_batches(*rule);
  EXPECT_EQ(sorted(first), iota(300));
  EXPECT_EQ(sorted(second), iota(300));
  EXPECT_NE(first, second);
  EXPECT_NE(first, iota(300));
}

TEST(SelectionRuleTable, PermOnceKeepsItsPermutation) {
  auto rule = make_rule("perm-once", context(300));
  const auto first = epoch_in_batches(*rule);
  EXPECT_EQ(sorted(first), iota(300));
  EXPECT_NE(first, iota(300));
  EXPECT_EQ(epoch_in_batches(*rule), first);
}

TEST(SelectionRuleTable, UniformDrawsNWithReplacement) {
  const std::size_t n = 3000;
  auto rule = make_rule("uniform", context(n));
  EXPECT_FALSE(rule->visits_all());
  const auto epoch = epoch_in_batches(*rule);
  ASSERT_EQ(epoch.size(), n);
  for (std::size_t i : epoch) EXPECT_LT(i, n);
  // n draws from n values leave about n/e of them out.
  const std::size_t distinct = std::set<std::size_t>(epoch.begin(), epoch.end()).size();
  EXPECT_GT(distinct, n / 2);
  EXPECT_LT(distinct, n - n / 5);
  EXPECT_NE(epoch_in_batches(*rule), epoch);
}

// The rules of primal solvers, which need no dual state (the dual rules have
// their own tests, test_dual_rules.cpp).
TEST(SelectionRuleTable, SameSeedSameEpochsAndNextAgreesWithBatches) {
  for (const RuleInfo& info : rule_table()) {
    if (!info.applies_to(kPrimalCoordinates)) continue;
    SCOPED_TRACE(info.name);
    auto a = make_rule(info.name, context(1500, 11));
    auto b = make_rule(info.name, context(1500, 11));
    for (int epoch = 0; epoch < 3; ++epoch) {
      EXPECT_EQ(epoch_in_batches(*a), epoch_one_by_one(*b));
    }
    auto c = make_rule(info.name, context(1500, 12));
    auto d = make_rule(info.name, context(1500, 11));
    if (info.randomized) {
      EXPECT_NE(epoch_in_batches(*c), epoch_in_batches(*d));
    }
  }
}

TEST(SelectionRuleTable, NoCoordinatesNoVisits) {
  for (const RuleInfo& info : rule_table()) {
    if (!info.applies_to(kPrimalCoordinates)) continue;
    auto rule = make_rule(info.name, context(0));
    EXPECT_TRUE(epoch_in_batches(*rule).empty()) << info.name;
    EXPECT_FALSE(rule->wants_feedback()) << info.name;
    EXPECT_FALSE(rule->restore_active_set()) << info.name;
  }
}

}  // namespace
}  // namespace cdl
