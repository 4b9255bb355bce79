#include "select/cyclic_order.h"

#include <algorithm>

namespace cdl {

CoordinateBatch CyclicOrder::next_batch() {
  const std::size_t count = std::min(chunk_.size(), n_ - pos_);
  for (std::size_t k = 0; k < count; ++k) chunk_[k] = pos_ + k;
  pos_ += count;
  return {chunk_.data(), count};
}

}  // namespace cdl
