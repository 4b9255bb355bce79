#include "select/permutation_order.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <system_error>

#include "select/random.h"
#include "util/error.h"

namespace cdl {

PermutationOrder::PermutationOrder(std::size_t n, std::uint64_t seed, bool reshuffle_every_epoch,
                                   bool shuffle_ahead)
    : rng_(seed), reshuffle_(reshuffle_every_epoch) {
  if (n > std::numeric_limits<std::uint32_t>::max()) {
    throw ConfigError("too many coordinates for a permutation (" + std::to_string(n) + ")");
  }
  order_.resize(n);
  std::iota(order_.begin(), order_.end(), std::uint32_t{0});
  if (!reshuffle_) {
    shuffle(order_, rng_);
  } else if (shuffle_ahead && n >= kBackgroundFrom) {
    next_.resize(n);
    shuffle_next_in_background();  // the first epoch's, during the solver's setup
  }
}

PermutationOrder::~PermutationOrder() {
  if (shuffler_.joinable()) shuffler_.join();
}

void PermutationOrder::shuffle_next_in_background() {
  std::copy(order_.begin(), order_.end(), next_.begin());
  try {
    shuffler_ = std::thread([this] { shuffle(next_, rng_); });
  } catch (const std::system_error&) {
    // No thread: rng_ is untouched, and the next epoch shuffles in place.
  }
}

void PermutationOrder::on_start_epoch() {
  pos_ = 0;
  if (!reshuffle_) return;
  if (!shuffler_.joinable()) {
    shuffle(order_, rng_);
    return;
  }
  shuffler_.join();
  order_.swap(next_);
  shuffle_next_in_background();
}

CoordinateBatch PermutationOrder::next_batch() {
  const std::size_t count = std::min(kChunk, order_.size() - pos_);
  std::copy_n(order_.begin() + static_cast<std::ptrdiff_t>(pos_), count, chunk_.begin());
  pos_ += count;
  return {chunk_.data(), count};
}

}  // namespace cdl
