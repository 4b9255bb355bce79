#include "select/alias_table.h"

#include <cassert>

#include "select/random.h"
#include "util/error.h"

namespace cdl {

AliasTable::AliasTable(const std::vector<double>& weights) {
  const std::size_t n = weights.size();
  assert(n > 0);
  double sum = 0;
  for (double w : weights) sum += w;
  if (!(sum > 0)) throw Error("alias table: weights sum to zero");
  share_.assign(n, 0.0);
  alias_.assign(n, 0);
  std::vector<double> scaled(n);
  std::vector<std::size_t> small;
  std::vector<std::size_t> large;
  for (std::size_t i = 0; i < n; ++i) {
    scaled[i] = weights[i] * static_cast<double>(n) / sum;
    (scaled[i] < 1.0 ? small : large).push_back(i);
  }
  std::size_t some_positive = n;  // an index of positive weight
  for (std::size_t i = 0; i < n && some_positive == n; ++i) {
    if (weights[i] > 0) some_positive = i;
  }
  while (!small.empty() && !large.empty()) {
    const std::size_t s = small.back();
    small.pop_back();
    const std::size_t l = large.back();
    share_[s] = scaled[s];
    alias_[s] = l;
    scaled[l] = (scaled[l] + scaled[s]) - 1.0;
    if (scaled[l] < 1.0) {
      large.pop_back();
      small.push_back(l);
    }
  }
  // What rounding leaves over has (nearly) a full column: it keeps it,
  // except an index of weight 0, which gives its column away.
  for (std::size_t l : large) {
    share_[l] = 1.0;
    alias_[l] = l;
  }
  for (std::size_t s : small) {
    share_[s] = weights[s] > 0 ? 1.0 : 0.0;
    alias_[s] = weights[s] > 0 ? s : some_positive;
  }
}

std::size_t AliasTable::draw(std::mt19937_64& rng) const {
  const std::size_t column = uniform_index(rng, share_.size());
  return uniform_real(rng) < share_[column] ? column : alias_[column];
}

double AliasTable::probability(std::size_t i) const {
  const double n = static_cast<double>(share_.size());
  double p = share_[i] / n;
  for (std::size_t k = 0; k < share_.size(); ++k) {
    if (alias_[k] == i) p += (1.0 - share_[k]) / n;
  }
  return p;
}

}  // namespace cdl
