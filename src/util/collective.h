// The exchanges of a run whose rows are spread over several processes (the
// ranks of an MPI job, mpi/): what the whole-vector objective and the
// training loop need to agree, and nothing more. The library itself never
// starts or joins processes; a tool that does passes an implementation of
// this interface through the Problem's RowShare (data/row_share.h).
//
// Every call is collective: each rank makes the same calls in the same
// order, from one thread, and each returns only when every rank has made it.
// The results are the same bits on every rank, and their order is fixed by
// the ranks' order, never by the timing of the exchange.
#ifndef CDL_COLLECTIVE_H_
#define CDL_COLLECTIVE_H_

#include <cstdint>
#include <vector>

namespace cdl {

class Collective {
 public:
  virtual ~Collective() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Every rank's `mine`, concatenated in rank order (a rank may give none).
  virtual std::vector<double> gather_all(const std::vector<double>& mine) = 0;
  virtual std::vector<std::uint64_t> gather_all(const std::vector<std::uint64_t>& mine) = 0;
  // out = v_0 + v_1 + ... + v_{B-1}, element by element and in that order
  // (((v_0,i + v_1,i) + v_2,i) + ...), where the ranks hold, in rank order,
  // consecutive runs of the B vectors of n elements each (`mine`, this
  // rank's run, may be empty). `out` gets n elements on every rank; n is the
  // same on every rank.
  virtual void add_in_order(const std::vector<const std::vector<double>*>& mine, std::size_t n,
                            std::vector<double>& out) = 0;
};

}  // namespace cdl

#endif  // CDL_COLLECTIVE_H_
