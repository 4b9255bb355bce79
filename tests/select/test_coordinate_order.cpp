#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "select/coordinate_order.h"
#include "select/random.h"

namespace cdl {
namespace {

std::vector<std::size_t> one_epoch(CoordinateOrder& order) {
  std::vector<std::size_t> seen;
  order.start_epoch();
  for (std::size_t i = order.next(); i != CoordinateOrder::kNone; i = order.next()) {
    seen.push_back(i);
  }
  return seen;
}

std::vector<std::size_t> iota(std::size_t n) {
  std::vector<std::size_t> out(n);
  std::iota(out.begin(), out.end(), std::size_t{0});
  return out;
}

TEST(CoordinateOrder, CyclicVisitsInOrder) {
  CyclicOrder order(5);
  EXPECT_EQ(one_epoch(order), iota(5));
  EXPECT_EQ(one_epoch(order), iota(5));
}

TEST(CoordinateOrder, PermutationReshufflesEveryEpoch) {
  PermutationOrder order(50, 7, true);
  const auto first = one_epoch(order);
  const auto second = one_epoch(order);
  EXPECT_NE(first, second);
  for (auto epoch : {first, second}) {
    std::sort(epoch.begin(), epoch.end());
    EXPECT_EQ(epoch, iota(50));
  }
}

TEST(CoordinateOrder, PermutationOnceKeepsItsOrder) {
  PermutationOrder order(50, 7, false);
  const auto first = one_epoch(order);
  EXPECT_NE(first, iota(50));
  EXPECT_EQ(one_epoch(order), first);
}

// The permutation is kept as 4-byte indices and handed out in chunks; the
// epochs are still the Fisher-Yates shuffles of 0..n-1 drawn from the seed,
// the same as shuffling std::size_t indices (n spans several chunks), also
// where the next epoch's permutation is shuffled on a thread of its own.
TEST(CoordinateOrder, PermutationInChunksIsTheShuffleOfTheSeed) {
  for (const std::size_t n : {std::size_t{10000}, PermutationOrder::kBackgroundFrom + 1})
    for (const bool reshuffle : {true, false}) {
      PermutationOrder order(n, 7, reshuffle, true);
      std::mt19937_64 rng(7);
      std::vector<std::size_t> expected = iota(n);
      std::size_t batches = 0;
      for (int epoch = 0; epoch < 3; ++epoch) {
        if (reshuffle || epoch == 0) shuffle(expected, rng);
        std::vector<std::size_t> seen;
        order.start_epoch();
        for (CoordinateBatch batch = order.next_batch(); batch.size > 0;
             batch = order.next_batch(), ++batches) {
          seen.insert(seen.end(), batch.begin, batch.begin + batch.size);
        }
        EXPECT_EQ(seen, expected) << "epoch " << epoch << ", reshuffle " << reshuffle;
      }
      EXPECT_GT(batches, 3u);
    }
}

TEST(CoordinateOrder, SameSeedSameOrder) {
  PermutationOrder a(30, 11, true);
  PermutationOrder b(30, 11, true);
  EXPECT_EQ(one_epoch(a), one_epoch(b));
  RandomOrder c(30, 11);
  RandomOrder d(30, 11);
  EXPECT_EQ(one_epoch(c), one_epoch(d));
}

TEST(CoordinateOrder, RandomOrderDrawsNWithReplacement) {
  RandomOrder order(40, 3);
  const auto epoch = one_epoch(order);
  ASSERT_EQ(epoch.size(), 40u);
  for (std::size_t i : epoch) EXPECT_LT(i, 40u);
  auto sorted = epoch;
  std::sort(sorted.begin(), sorted.end());
  // 40 draws from 40 values repeat one with probability 1 - 40!/40^40 ~ 1.
  EXPECT_NE(std::unique(sorted.begin(), sorted.end()), sorted.end());
}

TEST(CoordinateOrder, UniformIndexCoversTheRangeEvenly) {
  std::mt19937_64 rng(5);
  std::vector<int> counts(7, 0);
  const int draws = 70000;
  for (int k = 0; k < draws; ++k) ++counts[uniform_index(rng, 7)];
  for (int c : counts) EXPECT_NEAR(c, draws / 7, 500);  // > 5 standard deviations
}

// uniform_index() computes the rejection threshold 2^64 mod n only for a draw
// below n; its draws are those of rejecting below the threshold every time,
// also for n near 2^63, where about half the draws are rejected.
TEST(CoordinateOrder, UniformIndexRejectsAsTheFullThresholdTest) {
  const auto reference = [](std::mt19937_64& rng, std::uint64_t range) {
    const std::uint64_t threshold = (std::uint64_t{0} - range) % range;
    std::uint64_t draw = rng();
    while (draw < threshold) draw = rng();
    return draw % range;
  };
  for (const std::uint64_t range :
       {std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{7}, std::uint64_t{351806},
        (std::uint64_t{1} << 63) + 1, (std::uint64_t{3} << 62) + 5}) {
    std::mt19937_64 ours(11);
    std::mt19937_64 theirs(11);
    for (int k = 0; k < 2000; ++k) {
      ASSERT_EQ(uniform_index(ours, static_cast<std::size_t>(range)), reference(theirs, range))
          << "range " << range << ", draw " << k;
    }
  }
}

}  // namespace
}  // namespace cdl
