#include "select/sum_tree.h"

#include <cassert>

#include "select/random.h"

namespace cdl {

SumTree::SumTree(std::size_t n) : n_(n), leaves_(1) {
  while (leaves_ < n) leaves_ *= 2;
  node_.assign(2 * leaves_, 0.0);
}

void SumTree::assign(const std::vector<double>& weights) {
  assert(weights.size() == n_);
  for (std::size_t i = 0; i < n_; ++i) {
    assert(weights[i] >= 0);
    node_[leaves_ + i] = weights[i];
  }
  for (std::size_t k = leaves_ - 1; k >= 1; --k) node_[k] = node_[2 * k] + node_[2 * k + 1];
}

void SumTree::set(std::size_t i, double weight) {
  assert(i < n_ && weight >= 0);
  std::size_t k = leaves_ + i;
  node_[k] = weight;
  for (k /= 2; k >= 1; k /= 2) node_[k] = node_[2 * k] + node_[2 * k + 1];
}

std::size_t SumTree::find(double target) const {
  std::size_t k = 1;
  while (k < leaves_) {
    const double left = node_[2 * k];
    const double right = node_[2 * k + 1];
    // Go right past the left sum, unless rounding would send the descent
    // into an empty subtree; an empty left subtree is never entered.
    if ((target >= left && right > 0) || left <= 0) {
      target -= left;
      k = 2 * k + 1;
    } else {
      k = 2 * k;
    }
  }
  return k - leaves_;
}

std::size_t SumTree::draw(std::mt19937_64& rng) const {
  assert(total() > 0);
  return find(uniform_real(rng) * total());
}

}  // namespace cdl
