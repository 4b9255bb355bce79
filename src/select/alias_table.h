// An alias table (Vose's method): built from n non-negative weights in O(n),
// then each draw of index i, with probability w_i / sum_j w_j, costs O(1):
// one uniform column and one biased coin. For distributions that stay fixed
// for many draws (importance, gap-per-epoch); a weight that changes needs a
// rebuild, so per-step distributions use SumTree instead.
//
// A weight of exactly 0 is never drawn: its column's own share is 0 and its
// alias is an index of positive weight, also when rounding leaves it last.
#ifndef CDL_SELECT_ALIAS_TABLE_H_
#define CDL_SELECT_ALIAS_TABLE_H_

#include <cstddef>
#include <random>
#include <vector>

namespace cdl {

class AliasTable {
 public:
  AliasTable() = default;
  // weights.size() >= 1, each >= 0 and finite, sum > 0. O(n).
  explicit AliasTable(const std::vector<double>& weights);

  std::size_t size() const { return share_.size(); }
  std::size_t draw(std::mt19937_64& rng) const;
  // The exact probability that draw() returns i under the table (what the
  // rounding in the build made of w_i / sum). O(n); for tests.
  double probability(std::size_t i) const;

 private:
  std::vector<double> share_;       // P(keep column k | column k chosen)
  std::vector<std::size_t> alias_;  // the index returned otherwise
};

}  // namespace cdl

#endif  // CDL_SELECT_ALIAS_TABLE_H_
