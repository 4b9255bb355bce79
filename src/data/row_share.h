// A process's share of the rows of a run spread over several processes
// (mpi/cdtrain_mpi.cpp): the whole data's l rows are cut into B fixed blocks
// of consecutive rows, the blocks of X'u of the whole-vector objective
// (objective/transpose_blocks.h), and each rank holds a run of consecutive
// blocks, the ranks in block order. A Problem with a RowShare holds this
// rank's rows alone, as rows 0, 1, ... of its CSR (global row first_row() +
// j); the objective adds the blocks' vectors and sums in the block order of
// a single process, so the model is the same bits for any number of ranks
// and equal to a single process's.
#ifndef CDL_ROW_SHARE_H_
#define CDL_ROW_SHARE_H_

#include <cstddef>
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
};

}  // namespace cdl

#endif  // CDL_ROW_SHARE_H_
