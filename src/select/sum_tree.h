// A sum-tree: n non-negative weights, a draw of index i with probability
// w_i / sum_j w_j in O(log n), and a change of one weight in O(log n).
//
// Exactness: every internal node is recomputed as the sum of its two
// children on each update (never adjusted by a difference), so a node's value
// is a function of the current leaf weights alone and no floating-point drift
// builds up however many updates are made; no periodic rebuild is needed.
// A weight of exactly 0 is never drawn: the descent never enters a subtree
// whose sum is 0 (a rounding of the target at a boundary goes to the other,
// non-empty child instead).
//
// Layout: a complete binary tree over the next power of two >= n, leaves at
// [size, 2 size), padding leaves 0. Memory O(n).
#ifndef CDL_SELECT_SUM_TREE_H_
#define CDL_SELECT_SUM_TREE_H_

#include <cstddef>
#include <random>
#include <vector>

namespace cdl {

class SumTree {
 public:
  explicit SumTree(std::size_t n = 0);

  std::size_t size() const { return n_; }
  // Sets all n weights (weights.size() == n, each >= 0 and finite). O(n).
  void assign(const std::vector<double>& weights);
  // Sets w_i (>= 0 and finite). O(log n).
  void set(std::size_t i, double weight);
  double weight(std::size_t i) const { return node_[leaves_ + i]; }
  double total() const { return node_[1]; }
  // An index drawn with probability w_i / total(); total() must be > 0.
  std::size_t draw(std::mt19937_64& rng) const;
  // The leaf at which the cumulative weight passes `target` in [0, total()).
  std::size_t find(double target) const;

 private:
  std::size_t n_;
  std::size_t leaves_;  // a power of two >= n (>= 1)
  std::vector<double> node_;
};

}  // namespace cdl

#endif  // CDL_SELECT_SUM_TREE_H_
