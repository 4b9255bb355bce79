// The sampling of the gap-per-epoch rules (dual and Lasso): n draws with
// replacement per epoch from p_i = weight_i / sum_k weight_k, the weights
// fixed at the start of the epoch (an alias table: O(n) to build, O(1) a
// draw), or uniform draws when no weight is positive (the state is optimal).
#ifndef CDL_SELECT_EPOCH_DRAWS_H_
#define CDL_SELECT_EPOCH_DRAWS_H_

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "select/alias_table.h"
#include "select/random.h"
#include "select/selection_rule.h"

namespace cdl {

class EpochDraws {
 public:
  explicit EpochDraws(std::uint64_t seed) : rng_(seed) {}

  // A new epoch of n uniform draws.
  void start_uniform(std::size_t n) {
    size_ = n;
    drawn_ = 0;
    uniform_ = true;
  }
  // A new epoch of weights.size() draws from these weights.
  void start(const std::vector<double>& weights) {
    start_uniform(weights.size());
    double sum = 0;
    for (double w : weights) sum += w;
    uniform_ = !(sum > 0);
    if (!uniform_) table_ = AliasTable(weights);
  }
  // The epoch's next draw, or an empty batch once it has had n.
  CoordinateBatch next() {
    if (drawn_ == size_) return {};
    ++drawn_;
    pick_ = uniform_ ? uniform_index(rng_, size_) : table_.draw(rng_);
    return {&pick_, 1};
  }

 private:
  std::mt19937_64 rng_;
  AliasTable table_;
  bool uniform_ = true;
  std::size_t size_ = 0;
  std::size_t drawn_ = 0;
  std::size_t pick_ = 0;
};

}  // namespace cdl

#endif  // CDL_SELECT_EPOCH_DRAWS_H_
