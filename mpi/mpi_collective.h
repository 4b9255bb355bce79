// Collective (util/collective.h) over MPI_COMM_WORLD, for cdtrain-mpi.
// Built by `make mpi` alone; the library and the other tools never see MPI.
#ifndef CDL_MPI_COLLECTIVE_H_
#define CDL_MPI_COLLECTIVE_H_

#include <cstdint>
#include <vector>

#include "util/collective.h"

namespace cdl {

class MpiCollective final : public Collective {
 public:
  MpiCollective();  // after MPI_Init
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  std::vector<double> gather_all(const std::vector<double>& mine) override;
  std::vector<std::uint64_t> gather_all(const std::vector<std::uint64_t>& mine) override;
  // Each rank adds the vectors' elements of its own range of the n (n / K
  // of them) in block order, from the slices every rank sends it (one
  // all-to-all; the first rank that holds vectors sends their sum, the
  // others each of theirs), and the ranges are then gathered on every
  // rank: with one vector a rank, a reduce-scatter and an all-gather of n
  // elements, as an allreduce moves, but in a fixed order.
  void add_in_order(const std::vector<const std::vector<double>*>& mine, std::size_t n,
                    std::vector<double>& out) override;
  // The bytes this rank has sent since it began (for the progress of a run
  // and the docs' figures).
  std::uint64_t bytes_sent() const { return bytes_sent_; }
  // Counts `bytes` sent by an exchange of the caller's own (the rows' move).
  void count_sent(std::uint64_t bytes) { bytes_sent_ += bytes; }

 private:
  int rank_ = 0;
  int size_ = 1;
  std::uint64_t bytes_sent_ = 0;
  // add_in_order()'s buffers, kept from call to call: a solver adds
  // vectors of the same n every round, and fresh pages each time cost
  // more than the adds.
  std::vector<double> folded_;
  std::vector<double> send_;
  std::vector<double> received_;
  std::vector<double> sum_;
};

// The first of rank r's share of `total` items over `ranks` ranks:
// floor(total r / ranks), without overflow.
inline std::uint64_t share_start(std::uint64_t total, int r, int ranks) {
  const auto k = static_cast<std::uint64_t>(ranks);
  const auto at = static_cast<std::uint64_t>(r);
  return total / k * at + total % k * at / k;
}

// MPI counts and offsets are ints: throws Error if `count` elements are
// more than an int holds, naming `what`.
int mpi_count(std::uint64_t count, const char* what);

}  // namespace cdl

#endif  // CDL_MPI_COLLECTIVE_H_
