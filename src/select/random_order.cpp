#include "select/random_order.h"

#include <algorithm>

#include "select/random.h"

namespace cdl {

CoordinateBatch RandomOrder::next_batch() {
  const std::size_t count = std::min(chunk_.size(), n_ - drawn_);
  for (std::size_t k = 0; k < count; ++k) chunk_[k] = uniform_index(rng_, n_);
  drawn_ += count;
  return {chunk_.data(), count};
}

}  // namespace cdl
