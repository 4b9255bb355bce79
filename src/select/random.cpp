#include "select/random.h"

#include <cassert>
#include <utility>

namespace cdl {

std::size_t uniform_index(std::mt19937_64& rng, std::size_t n) {
  assert(n > 0);
  const std::uint64_t range = n;
  // 2^64 mod range: rejecting draws below it leaves a multiple of `range`
  // equally likely values. It is below `range`, so a draw of at least
  // `range` (nearly all of them) is kept without computing it: one 64-bit
  // division a draw instead of two, the same draws.
  std::uint64_t draw = rng();
  if (draw < range) {
    const std::uint64_t threshold = (std::uint64_t{0} - range) % range;
    while (draw < threshold) draw = rng();
  }
  return static_cast<std::size_t>(draw % range);
}

double uniform_real(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t stream) {
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ULL * (stream + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

namespace {

template <class T>
void fisher_yates(std::vector<T>& items, std::mt19937_64& rng) {
  for (std::size_t k = items.size(); k > 1; --k) {
    std::swap(items[k - 1], items[uniform_index(rng, k)]);
  }
}

}  // namespace

void shuffle(std::vector<std::size_t>& items, std::mt19937_64& rng) { fisher_yates(items, rng); }
void shuffle(std::vector<std::uint32_t>& items, std::mt19937_64& rng) { fisher_yates(items, rng); }

}  // namespace cdl
