// --select uniform: n independent uniform draws with replacement per epoch
// (online CD, Algorithm 3 of Chang, Hsieh & Lin 2008, with an epoch of n
// steps). Ignores the feedback.
#ifndef CDL_SELECT_RANDOM_ORDER_H_
#define CDL_SELECT_RANDOM_ORDER_H_

#include <array>
#include <random>

#include "select/selection_rule.h"

namespace cdl {

class RandomOrder final : public SelectionRule {
 public:
  RandomOrder(std::size_t n, std::uint64_t seed) : rng_(seed), n_(n) {}
  CoordinateBatch next_batch() override;
  bool visits_all() const override { return false; }

 private:
  void on_start_epoch() override { drawn_ = 0; }

  std::mt19937_64 rng_;
  std::size_t n_;
  std::size_t drawn_ = 0;
  std::array<std::size_t, 1024> chunk_{};  // draws are made a chunk at a time
};

}  // namespace cdl

#endif  // CDL_SELECT_RANDOM_ORDER_H_
