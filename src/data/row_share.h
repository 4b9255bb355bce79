// A process's share of the rows of a run spread over several processes
// (mpi/cdtrain_mpi.cpp), in one of two layouts:
// - blocks, for the whole-vector solvers: the whole data's l rows are cut
//   into B fixed blocks of consecutive rows, the blocks of X'u of the
//   whole-vector objective (objective/transpose_blocks.h), and each rank
//   holds a run of consecutive blocks, the ranks in block order (global row
//   first_row() + j is this rank's row j);
// - parts, for the partitioned dual CD (solver_dcd_partitioned.cpp): the
//   rows that count (weight > 0), numbered in file order, are cut into P
//   parts by the run's seed (dcd_part_order(), solver.h), and each rank
//   holds the rows of a run of consecutive parts (first_part_of_rank()), in
//   file order;
// - columns, for the partitioned primal CD (solver_cd_partitioned.cpp):
//   the features are cut into P blocks by the run's seed
//   (cd_feature_blocks(), solver.h), and each rank holds every row but only
//   the columns of a run of consecutive blocks (first_part_of_rank()).
// A Problem with a RowShare holds this rank's rows alone, as rows 0, 1, ...
// of its CSR (in the columns layout, every row, with the other ranks'
// columns empty); the solver adds the blocks' or the parts' vectors and
// sums in the order of a single process, so the model is the same bits for
// any number of ranks and equal to a single process's.
#ifndef CDL_ROW_SHARE_H_
#define CDL_ROW_SHARE_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "util/collective.h"

namespace cdl {

struct RowShare {
  Collective* collective = nullptr;
  // 0 = b_0 <= b_1 <= ... <= b_B = l: the global rows of the B blocks.
  std::vector<std::size_t> block_bounds;
  // This rank's blocks [first_block, end_block) (empty if it holds none).
  std::size_t first_block = 0;
  std::size_t end_block = 0;
  std::size_t first_row() const { return block_bounds[first_block]; }
  std::size_t num_rows() const { return block_bounds[end_block] - block_bounds[first_block]; }
  std::size_t total_rows() const { return block_bounds.back(); }

  // The parts layout (block_bounds empty): `parts` = P > 0, this rank's
  // parts [first_part, end_part), and counted[j], the number of this rank's
  // row j among the whole data's total_counted rows that count.
  std::size_t parts = 0;
  std::size_t first_part = 0;
  std::size_t end_part = 0;
  std::vector<std::uint64_t> counted;
  std::uint64_t total_counted = 0;

  // The columns layout: the P = `parts` blocks of features, each in index
  // order, of which this rank holds [first_part, end_part).
  std::vector<std::vector<std::uint32_t>> feature_blocks;
  // Whether this rank holds every row (the columns layout).
  bool every_row() const { return !feature_blocks.empty(); }
};

// The first item of run k when `items` items are cut into `runs` runs of
// consecutive items whose sizes differ by at most one: floor(items k / runs).
// (A rank's first block or part, a part's first row.)
inline std::size_t first_of_run(std::size_t items, std::size_t k, std::size_t runs) {
  return items * k / runs;
}

// The first of rank r's parts of `parts` over `ranks` ranks: ceil(parts r /
// ranks), so that rank 0 always holds part 0 (and with one part, every row:
// the serial solver runs there and rank 0 writes its model).
inline std::size_t first_part_of_rank(std::size_t parts, std::size_t r, std::size_t ranks) {
  return (parts * r + ranks - 1) / ranks;
}

}  // namespace cdl

#endif  // CDL_ROW_SHARE_H_
