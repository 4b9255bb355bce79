#include "select/permutation_order.h"

#include <numeric>

#include "select/random.h"

namespace cdl {

PermutationOrder::PermutationOrder(std::size_t n, std::uint64_t seed, bool reshuffle_every_epoch)
    : rng_(seed), order_(n), reshuffle_(reshuffle_every_epoch) {
  std::iota(order_.begin(), order_.end(), std::size_t{0});
  if (!reshuffle_) shuffle(order_, rng_);
}

void PermutationOrder::on_start_epoch() {
  if (reshuffle_) shuffle(order_, rng_);
  handed_out_ = false;
}

CoordinateBatch PermutationOrder::next_batch() {
  if (handed_out_) return {};
  handed_out_ = true;
  return {order_.data(), order_.size()};
}

}  // namespace cdl
