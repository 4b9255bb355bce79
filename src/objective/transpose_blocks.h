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
#include <vector>

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

// The first rows of blocks 1 .. count - 1 among `rows` consecutive rows
// whose counted nonzeros before the first are `before`: for each block b,
// the first row j that counts(j) with at least transpose_block_target(total,
// b, count) counted nonzeros before it, or `rows` if none of them is.
// counted(j) is row j's counted nonzeros (0 for a row that does not count).
// A process passes all its rows (before = 0); a rank of a distributed run
// its own, after the ranks before it. O(rows).
template <class Counted, class Counts>
std::vector<std::size_t> transpose_block_starts(std::size_t rows, std::uint64_t before,
                                                std::uint64_t total, std::size_t count,
                                                Counted counted, Counts counts) {
  std::vector<std::size_t> starts;
  std::size_t j = 0;
  for (std::size_t b = 1; b < count; ++b) {
    const auto target = static_cast<std::uint64_t>(transpose_block_target(total, b, count));
    while (j < rows && (before < target || !counts(j))) before += counted(j++);
    starts.push_back(j);
  }
  return starts;
}

}  // namespace cdl

#endif  // CDL_TRANSPOSE_BLOCKS_H_
