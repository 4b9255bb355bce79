// --select perm: a fresh random permutation every epoch (CDPER, Section 3.2
// of Chang, Hsieh & Lin 2008); --select perm-once: one permutation drawn
// before training and kept (CDPERONE, Section 6.1). An epoch is one batch, so
// the solver can look ahead along it. Ignores the feedback.
#ifndef CDL_SELECT_PERMUTATION_ORDER_H_
#define CDL_SELECT_PERMUTATION_ORDER_H_

#include <random>
#include <vector>

#include "select/selection_rule.h"

namespace cdl {

class PermutationOrder final : public SelectionRule {
 public:
  PermutationOrder(std::size_t n, std::uint64_t seed, bool reshuffle_every_epoch);
  CoordinateBatch next_batch() override;

 private:
  void on_start_epoch() override;

  std::mt19937_64 rng_;
  std::vector<std::size_t> order_;
  bool reshuffle_;
  bool handed_out_ = false;
};

}  // namespace cdl

#endif  // CDL_SELECT_PERMUTATION_ORDER_H_
