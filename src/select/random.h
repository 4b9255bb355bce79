// Random numbers that give the same results with every standard library: a
// std::mt19937_64 drawn from with our own bounded draw and Fisher-Yates
// shuffle (not std::shuffle or the std:: distributions, whose results differ
// between implementations), so that a seed gives the same model everywhere.
#ifndef CDL_SELECT_RANDOM_H_
#define CDL_SELECT_RANDOM_H_

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace cdl {

// A uniform integer in [0, n), n > 0, by rejection (no modulo bias).
std::size_t uniform_index(std::mt19937_64& rng, std::size_t n);

// A uniform double in [0, 1): the top 53 bits of one draw times 2^-53, so
// every value is exact and 1 is never returned.
double uniform_real(std::mt19937_64& rng);

// A distinct, well-mixed seed for stream `stream` of `seed` (splitmix64), so
// that each binary problem or fold has its own random numbers and results do
// not depend on the order, or the threads, they run in.
std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t stream);

// Shuffles `items` uniformly (Fisher-Yates). The draws depend only on the
// size, so a permutation kept as 4-byte indices is the same as one kept as
// std::size_t.
void shuffle(std::vector<std::size_t>& items, std::mt19937_64& rng);
void shuffle(std::vector<std::uint32_t>& items, std::mt19937_64& rng);

}  // namespace cdl

#endif  // CDL_SELECT_RANDOM_H_
