// --select cyclic: 0, 1, ..., n-1 in every epoch (CD, Algorithm 1 of Chang,
// Hsieh & Lin 2008). Ignores the feedback.
#ifndef CDL_SELECT_CYCLIC_ORDER_H_
#define CDL_SELECT_CYCLIC_ORDER_H_

#include <array>

#include "select/selection_rule.h"

namespace cdl {

class CyclicOrder final : public SelectionRule {
 public:
  explicit CyclicOrder(std::size_t n) : n_(n) {}
  CoordinateBatch next_batch() override;

 private:
  void on_start_epoch() override { pos_ = 0; }

  std::size_t n_;
  std::size_t pos_ = 0;
  // The epoch goes out in chunks of this many, so the order costs no O(n)
  // array of indices.
  std::array<std::size_t, 1024> chunk_{};
};

}  // namespace cdl

#endif  // CDL_SELECT_CYCLIC_ORDER_H_
