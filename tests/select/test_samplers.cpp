// The samplers of the adaptive and greedy rules against brute force: the
// sum-tree's draws and exactness under many updates, the alias table's exact
// probabilities, the indexed heap's maximum.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "select/alias_table.h"
#include "select/max_heap.h"
#include "select/random.h"
#include "select/sum_tree.h"

namespace cdl {
namespace {

// Draw counts against probabilities p: each count within 5 standard
// deviations sqrt(N p (1 - p)) of N p (a false alarm has probability below
// 1e-5 per index), and exactly 0 where p = 0.
void expect_frequencies(const std::vector<std::size_t>& counts, const std::vector<double>& p,
                        std::size_t draws) {
  for (std::size_t i = 0; i < p.size(); ++i) {
    const double mean = static_cast<double>(draws) * p[i];
    const double sd = std::sqrt(mean * (1 - p[i]));
    if (p[i] == 0) {
      EXPECT_EQ(counts[i], 0u) << i;
    } else {
      EXPECT_NEAR(static_cast<double>(counts[i]), mean, 5 * sd + 1) << i;
    }
  }
}

std::vector<double> normalized(std::vector<double> w) {
  double sum = 0;
  for (double v : w) sum += v;
  for (double& v : w) v /= sum;
  return w;
}

TEST(SumTree, FindWalksTheCumulativeWeights) {
  SumTree tree(5);
  tree.assign({1.0, 0.0, 2.0, 0.0, 3.0});
  EXPECT_EQ(tree.total(), 6.0);
  EXPECT_EQ(tree.find(0.0), 0u);
  EXPECT_EQ(tree.find(0.999), 0u);
  EXPECT_EQ(tree.find(1.0), 2u);  // index 1 has weight 0: skipped
  EXPECT_EQ(tree.find(2.999), 2u);
  EXPECT_EQ(tree.find(3.0), 4u);
  EXPECT_EQ(tree.find(5.999), 4u);
  // A target at (or rounded past) the total still lands on a positive leaf.
  EXPECT_EQ(tree.find(6.0), 4u);
  tree.set(4, 0.0);
  EXPECT_EQ(tree.find(3.0), 2u);
  EXPECT_EQ(tree.total(), 3.0);
}

TEST(SumTree, DrawFrequenciesMatchTheWeights) {
  const std::vector<double> w = {0.5, 0.0, 3.0, 1.5, 0.0, 0.25, 2.0};
  SumTree tree(w.size());
  tree.assign(w);
  std::mt19937_64 rng(11);
  const std::size_t draws = 200000;
  std::vector<std::size_t> counts(w.size(), 0);
  for (std::size_t k = 0; k < draws; ++k) ++counts[tree.draw(rng)];
  expect_frequencies(counts, normalized(w), draws);
}

TEST(SumTree, StaysExactUnderManyUpdates) {
  // After a million updates, every node equals the tree rebuilt from the
  // leaves bit for bit (nodes are recomputed, never adjusted), and the
  // total is the exact sum of the leaves up to one rounding per level.
  const std::size_t n = 1000;
  SumTree tree(n);
  std::vector<double> w(n, 0.0);
  std::mt19937_64 rng(3);
  for (std::size_t k = 0; k < 1000000; ++k) {
    const std::size_t i = uniform_index(rng, n);
    w[i] = uniform_real(rng) < 0.2 ? 0.0 : std::ldexp(uniform_real(rng), -static_cast<int>(k % 40));
    tree.set(i, w[i]);
  }
  SumTree fresh(n);
  fresh.assign(w);
  EXPECT_EQ(tree.total(), fresh.total());
  for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(tree.weight(i), w[i]);
  long double exact = 0;
  for (double v : w) exact += v;
  EXPECT_NEAR(tree.total(), static_cast<double>(exact), 1e-14 * static_cast<double>(exact));
  // All weights zero but one: only that one is drawn.
  for (std::size_t i = 0; i < n; ++i) tree.set(i, 0.0);
  tree.set(617, 1e-300);
  for (int k = 0; k < 1000; ++k) EXPECT_EQ(tree.draw(rng), 617u);
}

TEST(AliasTable, ProbabilitiesAreTheNormalizedWeights) {
  const std::vector<double> w = {0.5, 0.0, 3.0, 1.5, 0.0, 0.25, 2.0, 1e-9};
  AliasTable table(w);
  const std::vector<double> p = normalized(w);
  double total = 0;
  for (std::size_t i = 0; i < w.size(); ++i) {
    EXPECT_NEAR(table.probability(i), p[i], 1e-15) << i;
    total += table.probability(i);
  }
  EXPECT_NEAR(total, 1.0, 1e-15);
  EXPECT_EQ(table.probability(1), 0.0);
  EXPECT_EQ(table.probability(4), 0.0);
  std::mt19937_64 rng(5);
  const std::size_t draws = 200000;
  std::vector<std::size_t> counts(w.size(), 0);
  for (std::size_t k = 0; k < draws; ++k) ++counts[table.draw(rng)];
  expect_frequencies(counts, p, draws);
}

TEST(AliasTable, ZeroWeightsAreNeverDrawnWhateverTheRounding) {
  // Many zeros among weights that do not divide evenly.
  std::vector<double> w(301, 0.0);
  for (std::size_t i = 0; i < w.size(); i += 3) w[i] = 1.0 / static_cast<double>(i + 7);
  AliasTable table(w);
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (w[i] == 0) {
      EXPECT_EQ(table.probability(i), 0.0) << i;
    }
  }
  std::mt19937_64 rng(9);
  for (int k = 0; k < 100000; ++k) EXPECT_GT(w[table.draw(rng)], 0.0);
  EXPECT_THROW(AliasTable(std::vector<double>{0.0, 0.0}), std::exception);
}

TEST(IndexedMaxHeap, TopIsTheBruteForceArgmaxUnderUpdates) {
  const std::size_t n = 200;
  IndexedMaxHeap heap(n);
  std::vector<double> s(n);
  std::mt19937_64 rng(2);
  // Few distinct values, so that ties (smallest index wins) happen.
  for (double& v : s) v = static_cast<double>(uniform_index(rng, 10));
  heap.assign(s);
  for (int k = 0; k < 20000; ++k) {
    const auto best = std::max_element(s.begin(), s.end());  // first of the maxima
    ASSERT_EQ(heap.top(), static_cast<std::size_t>(best - s.begin()));
    const std::size_t i = uniform_index(rng, n);
    s[i] = static_cast<double>(uniform_index(rng, 10));
    heap.set(i, s[i]);
  }
}

}  // namespace
}  // namespace cdl
