// read_libsvm_rows: the one-pass row reader (see libsvm_reader.h).
//
// Phase 1 (parse): threads take blocks of whole lines in turn, as the column
// reader's do, and append each block's pairs, in file order, to the block's
// own pages (12 bytes a pair: the column and the value), with the number of
// pairs of each of its rows.
//
// Phase 2 (copy): the row lengths give row_ptr; each block's rows occupy one
// contiguous part of the CSR, so the blocks are copied independently (on
// threads), each block's pages freed as soon as it is copied. Each block maps
// its part of the matrix just before it copies it, so the memory moves from
// the blocks to the matrix and the peak is about the matrix alone, 12 bytes
// per nonzero, plus the blocks being copied.
#include <algorithm>
#include <cassert>
#include <cstring>
#include <memory>
#include <new>
#include <utility>

#include "data/block_reader.h"
#include "data/entry_stream.h"
#include "data/libsvm_reader.h"
#include "util/error.h"
#include "util/parallel.h"
#include "util/populate.h"

namespace cdl {
namespace {

// A block's pairs in runs of pages from mmap (so that freeing them returns
// them to the system): each run holds kPairs columns, then kPairs values.
class PairPages {
 public:
  static constexpr std::size_t kPairs = std::size_t{1} << 14;
  static constexpr std::size_t kRunBytes = kPairs * (sizeof(Index) + sizeof(double));

  void put(Index column, double value) {
    if (used_ == kPairs || runs_.empty()) {
      runs_.push_back(arena_->take());
      populate_for_writing(runs_.back(), kRunBytes);
      used_ = 0;
    }
    char* run = runs_.back();
    std::memcpy(run + used_ * sizeof(Index), &column, sizeof column);
    std::memcpy(run + kPairs * sizeof(Index) + used_ * sizeof(double), &value, sizeof value);
    ++used_;
  }

  // Copies pairs [first, first + count) to columns and values.
  void copy(std::size_t first, std::size_t count, Index* columns, double* values) const {
    while (count > 0) {
      const std::size_t run = first / kPairs;
      const std::size_t at = first % kPairs;
      const std::size_t n = std::min(count, kPairs - at);
      const char* data = runs_[run];
      std::memcpy(columns, data + at * sizeof(Index), n * sizeof(Index));
      std::memcpy(values, data + kPairs * sizeof(Index) + at * sizeof(double), n * sizeof(double));
      columns += n;
      values += n;
      first += n;
      count -= n;
    }
  }

 private:
  std::unique_ptr<detail::RunArena> arena_ = std::make_unique<detail::RunArena>(kRunBytes);
  std::vector<char*> runs_;
  std::size_t used_ = 0;  // pairs in the last run
};

// What parsing one block found.
struct RowBlock : detail::BlockInfo {
  PairPages pairs;
  std::vector<std::uint32_t> lengths;  // pairs of each row
  std::uint64_t largest = 0;           // magnitude_bits() of the largest |value|
};

// One parsing thread's counts.
struct RowWorker {
  std::uint64_t num_cols = 0;  // the largest index seen
  std::uint64_t rows = 0;
  std::uint64_t capacity = 0;  // the columns checked against the limit, as the column reader grows
};

// Receives one block's pairs from the line parser.
class RowSink {
 public:
  RowSink(RowWorker& worker, RowBlock& block, const detail::ColumnLimit& limit,
          const detail::LineContext& context)
      : worker_(worker), block_(block), limit_(limit), context_(context) {}
  void decimal(std::uint64_t feature, const detail::Decimal& value) {
    this->value(feature, detail::decimal_value(value));
  }
  void value(std::uint64_t feature, double value) {
    // The column reader's check, at the same indices, for the same errors.
    if (feature > worker_.capacity) grow(feature);
    block_.pairs.put(static_cast<Index>(feature - 1), value);
    block_.largest = std::max(block_.largest, magnitude_bits(value));
    last = feature;
    ++length;
  }

  std::uint64_t last = 0;    // the instance's last index
  std::uint32_t length = 0;  // the instance's pairs

 private:
  void grow(std::uint64_t feature) {
    limit_.check(context_, feature);
    const std::uint64_t buckets = (feature - 1) / detail::kBucketColumns + 1;
    worker_.capacity =
        std::max(buckets, 2 * (worker_.capacity / detail::kBucketColumns)) * detail::kBucketColumns;
  }

  RowWorker& worker_;
  RowBlock& block_;
  const detail::ColumnLimit& limit_;
  const detail::LineContext& context_;
};

void parse_row_block(const char* text, std::size_t size, std::uint64_t index,
                     const std::string& name, const ReadOptions& options,
                     const detail::ColumnLimit& limit, RowWorker& worker, RowBlock& block) {
  detail::LineContext context{name, options, 0, index == 0};
  RowSink sink(worker, block, limit, context);
  detail::parse_lines(context, text, size, sink, [&](double label) {
    if (++worker.rows > kMaxDimension) throw DataError(name + ": more than 2^31-1 instances");
    worker.num_cols = std::max(worker.num_cols, sink.last);
    block.lines.add(static_cast<std::int64_t>(block.labels.size()), context.line);
    block.labels.push_back(label);
    block.lengths.push_back(sink.length);
    sink.last = 0;
    sink.length = 0;
  });
  block.line_count = context.line;
}

}  // namespace

LabeledRows read_libsvm_rows(const std::string& path, const ReadOptions& options) {
  InputStream in(path);
  const std::string& name = in.name();
  const bool ranged = options.read_range;
  if (ranged) in.limit_to_lines(options.range_begin, options.range_end);
  const detail::ReadPlan plan(in, options);

  // Phase 1: parse every block once.
  detail::BlockReader<RowBlock> reader(in, options, plan.block_bytes);
  std::vector<RowWorker> workers(plan.num_workers);
  detail::parse_blocks(
      reader, plan.num_workers,
      [&](std::size_t w, const char* text, std::size_t size, std::uint64_t index, RowBlock& block) {
        parse_row_block(text, size, index, name, options, plan.limit, workers[w], block);
      });

  // The shape, the labels, the lines and row_ptr.
  LabeledRows out;
  CsrMatrix& m = out.features;
  std::deque<RowBlock>& blocks = reader.blocks();
  const std::vector<std::uint64_t> first_row = detail::first_rows(blocks, name, ranged);
  for (const RowBlock& block : blocks) out.line_count += block.line_count;
  m.num_rows = static_cast<std::size_t>(first_row.back());
  for (const RowWorker& worker : workers) {
    m.num_cols = std::max(m.num_cols, static_cast<std::size_t>(worker.num_cols));
  }
  const bool bias = options.bias >= 0;
  const auto bias_column = static_cast<Index>(m.num_cols);
  if (bias) ++m.num_cols;
  std::uint64_t nnz = 0;
  try {
    detail::gather_labels(blocks, first_row, out.labels, out.lines);
    m.row_ptr = populated_vector<std::int64_t>(m.num_rows + 1, 0);
    std::size_t row = 0;
    for (const RowBlock& block : blocks) {
      for (const std::uint32_t length : block.lengths) {
        m.row_ptr[row + 1] = m.row_ptr[row] + length + (bias ? 1 : 0);
        ++row;
      }
    }
    nnz = static_cast<std::uint64_t>(m.row_ptr.back());
    m.col_idx.resize(nnz);
    m.values.resize(nnz);
  } catch (const std::bad_alloc&) {
    detail::throw_out_of_memory(name, m.num_rows, m.num_cols, nnz);
  }

  // Phase 2: each block's rows, on as many threads.
  run_tasks_or_throw(blocks.size(), static_cast<unsigned>(plan.num_workers), [&](std::size_t k) {
    RowBlock& block = blocks[k];
    std::size_t row = static_cast<std::size_t>(first_row[k]);
    std::size_t pair = 0;
    // The block's part of the matrix, mapped as its pairs are about to move
    // there (and be freed): all of the matrix at once would sit beside all
    // the pairs.
    const auto begin = static_cast<std::size_t>(m.row_ptr[row]);
    const auto end = static_cast<std::size_t>(m.row_ptr[row + block.lengths.size()]);
    populate_for_writing(m.col_idx.data() + begin, (end - begin) * sizeof(Index));
    populate_for_writing(m.values.data() + begin, (end - begin) * sizeof(double));
    for (const std::uint32_t length : block.lengths) {
      const auto at = static_cast<std::size_t>(m.row_ptr[row]);
      block.pairs.copy(pair, length, m.col_idx.data() + at, m.values.data() + at);
      pair += length;
      if (bias) {
        m.col_idx[at + length] = bias_column;
        m.values[at + length] = options.bias;
      }
      ++row;
    }
    block.pairs = PairPages();
    block.lengths = std::vector<std::uint32_t>();
  });
  std::uint64_t bits = bias ? magnitude_bits(options.bias) : 0;
  for (const RowBlock& block : blocks) bits = std::max(bits, block.largest);
  out.largest_magnitude = magnitude_of_bits(bits);
  return out;
}

}  // namespace cdl
