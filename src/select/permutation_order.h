// --select perm: a fresh random permutation every epoch (CDPER, Section 3.2
// of Chang, Hsieh & Lin 2008); --select perm-once: one permutation drawn
// before training and kept (CDPERONE, Section 6.1). Ignores the feedback.
//
// The permutation is kept as 4-byte indices (half of an n-vector of
// std::size_t: one-vs-rest holds one per thread) and handed out in chunks
// of kChunk, long enough that the solver's look-ahead along a batch loses
// nothing measurable at the chunk ends.
#ifndef CDL_SELECT_PERMUTATION_ORDER_H_
#define CDL_SELECT_PERMUTATION_ORDER_H_

#include <array>
#include <cstdint>
#include <random>
#include <vector>

#include "select/selection_rule.h"

namespace cdl {

class PermutationOrder final : public SelectionRule {
 public:
  PermutationOrder(std::size_t n, std::uint64_t seed, bool reshuffle_every_epoch);
  CoordinateBatch next_batch() override;

 private:
  static constexpr std::size_t kChunk = 4096;
  void on_start_epoch() override;

  std::mt19937_64 rng_;
  std::vector<std::uint32_t> order_;
  bool reshuffle_;
  std::size_t pos_ = 0;
  std::array<std::size_t, kChunk> chunk_{};
};

}  // namespace cdl

#endif  // CDL_SELECT_PERMUTATION_ORDER_H_
