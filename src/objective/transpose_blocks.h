// The blocks of rows in which the whole-vector objective adds X'u
// (vector_objective.cpp): their number and where they are cut, a function
// of the rows that count (not held out, weight not 0) alone, never of the
// threads or processes, so that the sums, and the model, are the same bits
// for any -m and any number of ranks, and the same with rows held out
// (u_j = 0 adds nothing) as on a copy without them.
//
// Their number: --partitions P if given; else one block per
// kNonzerosPerFeatureAndBlock n counted nonzeros, at most
// kMaxTransposeBlocks, and one (the serial scatter) below kSerialNonzeros.
// Block b starts at the first counted row j with at least
// transpose_block_target(nnz, b, B) counted nonzeros before it (a row held
// out goes with the block before it); the last ends at l.
#ifndef CDL_TRANSPOSE_BLOCKS_H_
#define CDL_TRANSPOSE_BLOCKS_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>

namespace cdl {

inline constexpr std::size_t kMaxTransposeBlocks = 8;
inline constexpr std::size_t kNonzerosPerFeatureAndBlock = 4;
inline constexpr std::uint64_t kSerialNonzeros = std::uint64_t{1} << 16;

// B for `counted_nonzeros` nonzeros in the counted rows and n columns:
// between 1 and kMaxTransposeBlocks.
inline std::size_t transpose_block_count(std::uint64_t counted_nonzeros, std::size_t num_cols) {
  if (counted_nonzeros < kSerialNonzeros) return 1;
  const std::uint64_t by_size =
      counted_nonzeros / (kNonzerosPerFeatureAndBlock * std::max<std::size_t>(num_cols, 1));
  return static_cast<std::size_t>(std::clamp<std::uint64_t>(by_size, 1, kMaxTransposeBlocks));
}

// B for a run: --partitions P if given (then any number of blocks: a
// process adds them a few at a time), else by the data as above.
inline std::size_t transpose_block_count(const std::optional<std::int64_t>& partitions,
                                         std::uint64_t counted_nonzeros, std::size_t num_cols) {
  if (partitions) return static_cast<std::size_t>(std::max<std::int64_t>(*partitions, 1));
  return transpose_block_count(counted_nonzeros, num_cols);
}

// The counted nonzeros before block b's first row, at least.
inline std::int64_t transpose_block_target(std::uint64_t counted_nonzeros, std::size_t b,
                                           std::size_t count) {
  return static_cast<std::int64_t>(static_cast<double>(counted_nonzeros) * static_cast<double>(b) /
                                   static_cast<double>(count));
}

}  // namespace cdl

#endif  // CDL_TRANSPOSE_BLOCKS_H_
