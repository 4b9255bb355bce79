// The order in which the CD family visits coordinates in one outer iteration.
//
// Use: start_epoch(), then next() until it returns kNone. Randomized orders own
// a std::mt19937_64 seeded at construction, and draw from it with our own
// Fisher-Yates shuffle and bounded draw (not std::shuffle or the std::
// distributions, whose results differ between standard libraries), so that a
// seed gives the same model everywhere.
#ifndef CDL_COORDINATE_ORDER_H_
#define CDL_COORDINATE_ORDER_H_

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace cdl {

// A uniform integer in [0, n), n > 0, by rejection (no modulo bias).
std::size_t uniform_index(std::mt19937_64& rng, std::size_t n);

// A distinct, well-mixed seed for stream `stream` of `seed` (splitmix64), so
// that each binary problem or fold has its own random numbers and results do
// not depend on the order, or the threads, they run in.
std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t stream);

// Shuffles `items` uniformly (Fisher-Yates).
void shuffle(std::vector<std::size_t>& items, std::mt19937_64& rng);

class CoordinateOrder {
 public:
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  virtual ~CoordinateOrder() = default;
  virtual void start_epoch() = 0;
  virtual std::size_t next() = 0;
  // Whether every epoch visits every coordinate (false for draws with
  // replacement, which leave some coordinates out of an epoch).
  virtual bool visits_all() const { return true; }
};

// 0, 1, ..., n-1 in every epoch: CD, Algorithm 1.
class CyclicOrder final : public CoordinateOrder {
 public:
  explicit CyclicOrder(std::size_t n) : n_(n) {}
  void start_epoch() override { pos_ = 0; }
  std::size_t next() override { return pos_ < n_ ? pos_++ : kNone; }

 private:
  std::size_t n_;
  std::size_t pos_ = 0;
};

// A random permutation: a fresh one every epoch (CDPER, Section 3.2), or one
// drawn once before training (CDPERONE, Section 6.1).
class PermutationOrder final : public CoordinateOrder {
 public:
  PermutationOrder(std::size_t n, std::uint64_t seed, bool reshuffle_every_epoch);
  void start_epoch() override;
  std::size_t next() override { return pos_ < order_.size() ? order_[pos_++] : kNone; }

 private:
  std::mt19937_64 rng_;
  std::vector<std::size_t> order_;
  bool reshuffle_;
  std::size_t pos_ = 0;
};

// n independent uniform draws with replacement per epoch: online CD,
// Algorithm 3, with an epoch of n steps.
class RandomOrder final : public CoordinateOrder {
 public:
  RandomOrder(std::size_t n, std::uint64_t seed) : rng_(seed), n_(n) {}
  void start_epoch() override { drawn_ = 0; }
  std::size_t next() override { return drawn_++ < n_ ? uniform_index(rng_, n_) : kNone; }
  bool visits_all() const override { return false; }

 private:
  std::mt19937_64 rng_;
  std::size_t n_;
  std::size_t drawn_ = 0;
};

}  // namespace cdl

#endif  // CDL_COORDINATE_ORDER_H_
