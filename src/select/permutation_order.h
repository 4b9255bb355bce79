// --select perm: a fresh random permutation every epoch (CDPER, Section 3.2
// of Chang, Hsieh & Lin 2008); --select perm-once: one permutation drawn
// before training and kept (CDPERONE, Section 6.1). Ignores the feedback.
//
// The permutation is kept as 4-byte indices (half of an n-vector of
// std::size_t: one-vs-rest holds one per thread) and handed out in chunks
// of kChunk, long enough that the solver's look-ahead along a batch loses
// nothing measurable at the chunk ends.
//
// With `shuffle_ahead` (a core to spare) and n >= kBackgroundFrom
// coordinates, the next epoch's permutation is shuffled on a thread of its
// own while the solver works through this one (a copy of this epoch's
// order, shuffled by the same generator): the same permutations, epoch by
// epoch, as shuffling in place at each epoch's start, whatever the threads.
// It costs one more array of n indices, and takes the shuffle's time (the
// generator and a random swap for every index) out of each epoch (measured
// on 350,000 columns at cfd0feb; docs/checks.md).
#ifndef CDL_SELECT_PERMUTATION_ORDER_H_
#define CDL_SELECT_PERMUTATION_ORDER_H_

#include <array>
#include <cstdint>
#include <random>
#include <thread>
#include <vector>

#include "select/selection_rule.h"

namespace cdl {

class PermutationOrder final : public SelectionRule {
 public:
  PermutationOrder(std::size_t n, std::uint64_t seed, bool reshuffle_every_epoch,
                   bool shuffle_ahead = false);
  ~PermutationOrder() override;
  PermutationOrder(const PermutationOrder&) = delete;
  PermutationOrder& operator=(const PermutationOrder&) = delete;
  CoordinateBatch next_batch() override;

  static constexpr std::size_t kBackgroundFrom = std::size_t{1} << 16;

 private:
  static constexpr std::size_t kChunk = 4096;
  void on_start_epoch() override;
  // Starts shuffling a copy of order_ into next_ on shuffler_; if no thread
  // can be had, the next epoch shuffles order_ in place instead.
  void shuffle_next_in_background();

  std::mt19937_64 rng_;
  std::vector<std::uint32_t> order_;
  std::vector<std::uint32_t> next_;  // the next epoch's order, while shuffler_ runs
  std::thread shuffler_;
  bool reshuffle_;
  std::size_t pos_ = 0;
  std::array<std::size_t, kChunk> chunk_{};
};

}  // namespace cdl

#endif  // CDL_SELECT_PERMUTATION_ORDER_H_
