// read_libsvm_csc: the one-pass column reader (see libsvm_reader.h).
//
// Phase 1 (parse): threads take blocks of whole lines from a BlockReader in
// turn and parse them once. Each pair (row, column, value) goes to the
// thread's EntryStream for the column's range of 1024 columns (a "bucket"),
// and the thread counts the nonzeros of each column.
//
// Phase 2 (scatter): the counts give col_ptr. A bucket's columns occupy one
// contiguous part of the CSC, so the buckets are filled independently (on
// threads): each merges its streams in block order, which is file order, and
// writes every entry at its column's cursor (1024 cursors: the writes stay in
// cache). Each bucket maps its part of the matrix just before it fills it,
// and the streams of each group of 8 buckets are freed as soon as the group
// is done, so the memory moves from the streams (about 10 bytes per nonzero)
// to the matrix (12) and the peak is about the matrix alone.
#include <algorithm>
#include <array>
#include <atomic>
#include <cassert>
#include <cstdio>
#include <cstring>
#include <deque>
#include <exception>
#include <limits>
#include <memory>
#include <mutex>
#include <new>
#include <utility>

#include "data/block_reader.h"
#include "data/entry_stream.h"
#include "data/input_file.h"
#include "data/libsvm_line.h"
#include "data/libsvm_reader.h"
#include "util/error.h"
#include "util/parallel.h"
#include "util/populate.h"

namespace cdl {
namespace {

using detail::BlockInfo;
using detail::ColumnLimit;
using detail::EntryReader;
using detail::EntryStream;
using detail::kBucketColumns;
using detail::kBucketShift;
using detail::kGroupBuckets;
using detail::kNoBlock;
using detail::StreamPages;

// One parsing thread's share.
struct Worker {
  std::vector<EntryStream> streams;  // one per bucket
  std::vector<StreamPages> pages;    // the streams' pages
  // The streams' runs, an arena per group of kGroupBuckets buckets.
  std::vector<std::unique_ptr<detail::RunArena>> arenas;
  std::uint64_t num_cols = 0;  // the largest index seen
  std::uint64_t rows = 0;
};

using BlockReader = detail::BlockReader<BlockInfo>;

// Receives one block's pairs from the line parser: each goes to the
// worker's stream of its bucket.
class BlockSink {
 public:
  BlockSink(Worker& worker, const ColumnLimit& limit, const detail::LineContext& context,
            std::uint64_t block)
      : worker_(worker), limit_(limit), context_(context), block_(block) {
    refresh();
  }
  void decimal(std::uint64_t feature, const detail::Decimal& value) {
    if (feature > capacity_) grow(feature);
    const auto column = static_cast<std::size_t>(feature - 1);
    const std::size_t bucket = column >> kBucketShift;
    streams_[bucket].put_decimal(block_, row, static_cast<std::uint32_t>(column & kColumnMask),
                                 value, pages_[bucket]);
  }
  void value(std::uint64_t feature, double value) {
    if (feature > capacity_) grow(feature);
    const auto column = static_cast<std::size_t>(feature - 1);
    const std::size_t bucket = column >> kBucketShift;
    streams_[bucket].put_double(block_, row, static_cast<std::uint32_t>(column & kColumnMask),
                                value, pages_[bucket]);
  }

  std::uint32_t row = 0;  // the block's instance being parsed

 private:
  static constexpr std::size_t kColumnMask = kBucketColumns - 1;

  // Makes room for the buckets up to `feature`'s, after the memory check.
  void grow(std::uint64_t feature) {
    limit_.check(context_, feature);
    try {
      const std::size_t buckets = (feature - 1) / kBucketColumns + 1;
      const std::size_t had = worker_.streams.size();
      worker_.streams.resize(std::max(buckets, 2 * had));
      worker_.pages.resize(worker_.streams.size());
      worker_.arenas.resize((worker_.streams.size() - 1) / kGroupBuckets + 1);
      for (std::size_t b = had; b < worker_.pages.size(); ++b) {
        auto& arena = worker_.arenas[b / kGroupBuckets];
        if (!arena) arena = std::make_unique<detail::RunArena>(detail::kChunkBytes);
        worker_.pages[b].arena = arena.get();
      }
    } catch (const std::bad_alloc&) {
      throw limit_.too_large(context_, feature, "the memory available");
    }
    refresh();
  }
  void refresh() {
    capacity_ = worker_.streams.size() * kBucketColumns;
    streams_ = worker_.streams.data();
    pages_ = worker_.pages.data();
  }

  Worker& worker_;
  const ColumnLimit& limit_;
  const detail::LineContext& context_;
  const std::uint64_t block_;
  std::uint64_t capacity_ = 0;
  EntryStream* streams_ = nullptr;
  StreamPages* pages_ = nullptr;
};

// Parses one block into the worker's streams and the block's info.
void parse_block(const char* text, std::size_t size, std::uint64_t index, const std::string& name,
                 const ReadOptions& options, const ColumnLimit& limit, Worker& worker,
                 BlockInfo& info) {
  detail::LineContext context{name, options, 0, index == 0};
  BlockSink sink(worker, limit, context, index);
  struct Tracker {  // the largest index, from each instance's last pair
    BlockSink& sink;
    std::uint64_t last = 0;
    void decimal(std::uint64_t feature, const detail::Decimal& value) {
      sink.decimal(feature, value);
      last = feature;
    }
    void value(std::uint64_t feature, double value) {
      sink.value(feature, value);
      last = feature;
    }
  } pairs{sink};
  detail::parse_lines(context, text, size, pairs, [&](double label) {
    if (++worker.rows > kMaxDimension) throw DataError(name + ": more than 2^31-1 instances");
    worker.num_cols = std::max(worker.num_cols, pairs.last);
    pairs.last = 0;
    info.labels.push_back(label);
    info.lines.add(sink.row, context.line);
    ++sink.row;
  });
  info.line_count = context.line;
}

// Calls read(reader) for each segment of bucket `bucket`'s streams, in block
// order (file order), each segment's reader positioned at its start.
template <class Read>
void for_each_segment(std::size_t bucket, const std::vector<Worker>& workers, Read read) {
  std::vector<EntryReader> readers;
  readers.reserve(workers.size());
  for (const Worker& worker : workers) {
    if (bucket < worker.pages.size()) readers.emplace_back(worker.pages[bucket]);
  }
  for (;;) {
    EntryReader* next = nullptr;
    for (EntryReader& reader : readers) {
      if (reader.block() != kNoBlock && (next == nullptr || reader.block() < next->block())) {
        next = &reader;
      }
    }
    if (next == nullptr) return;
    read(*next);
  }
}

// The bucket's columns, from its first.
std::size_t bucket_columns(std::size_t bucket, std::size_t num_cols) {
  return std::min(kBucketColumns, num_cols - bucket * kBucketColumns);
}

// Counts the nonzeros of bucket `bucket`'s columns into col_ptr[c + 1].
void count_bucket(std::size_t bucket, const std::vector<Worker>& workers, CscMatrix& m) {
  std::array<std::int64_t, kBucketColumns> count{};
  auto add = [&](std::uint32_t column, std::uint32_t, double) { ++count[column]; };
  for_each_segment(bucket, workers, [&](EntryReader& reader) { reader.read_segment<false>(add); });
  const std::size_t first = bucket * kBucketColumns;
  for (std::size_t c = 0; c < bucket_columns(bucket, m.num_cols); ++c) {
    m.col_ptr[first + c + 1] = count[c];
  }
}

// Fills bucket `bucket`'s part of the matrix from the workers' streams, in
// block order, and frees the streams; returns the magnitude_bits() of its
// largest |value|.
std::uint64_t scatter_bucket(std::size_t bucket, std::vector<Worker>& workers,
                             const std::vector<std::uint64_t>& first_row, CscMatrix& m) {
  const std::size_t first = bucket * kBucketColumns;
  const std::size_t columns = bucket_columns(bucket, m.num_cols);
  std::array<std::int64_t, kBucketColumns> cursor{};
  for (std::size_t c = 0; c < columns; ++c) cursor[c] = m.col_ptr[first + c];
  Index* const row_idx = m.row_idx.data();
  double* const values = m.values.data();
  // The bucket's part of the matrix, mapped as its streams are about to move
  // there (and be freed): all of the matrix at once would sit beside all the
  // streams.
  const auto begin = static_cast<std::size_t>(m.col_ptr[first]);
  const auto end = static_cast<std::size_t>(m.col_ptr[first + columns]);
  populate_for_writing(row_idx + begin, (end - begin) * sizeof(Index));
  populate_for_writing(values + begin, (end - begin) * sizeof(double));
  std::uint64_t largest = 0;
  for_each_segment(bucket, workers, [&](EntryReader& reader) {
    const std::uint64_t base = first_row[reader.block()];
    auto write = [&](std::uint32_t column, std::uint32_t row, double value) {
      const auto slot = static_cast<std::size_t>(cursor[column]++);
      row_idx[slot] = static_cast<Index>(base + row);
      values[slot] = value;
      largest = std::max(largest, magnitude_bits(value));
    };
    reader.read_segment<true>(write);
  });
  for (std::size_t c = 0; c < columns; ++c) assert(cursor[c] == m.col_ptr[first + c + 1]);
  return largest;
}

}  // namespace

LabeledCsc read_libsvm_csc(const std::string& path, const ReadOptions& options) {
  InputStream in(path);
  const std::string& name = in.name();
  const detail::ReadPlan plan(in, options);
  const std::size_t num_workers = plan.num_workers;
  const ColumnLimit& limit = plan.limit;

  // Phase 1: parse every block once.
  BlockReader reader(in, options, plan.block_bytes);
  std::vector<Worker> workers(num_workers);
  detail::parse_blocks(
      reader, num_workers,
      [&](std::size_t w, const char* text, std::size_t size, std::uint64_t index, BlockInfo& info) {
        parse_block(text, size, index, name, options, limit, workers[w], info);
      });

  // The shape, the labels and the lines.
  LabeledCsc out;
  CscMatrix& m = out.features;
  std::deque<BlockInfo>& blocks = reader.blocks();
  const std::vector<std::uint64_t> first_row = detail::first_rows(blocks, name);
  m.num_rows = static_cast<std::size_t>(first_row.back());
  for (Worker& worker : workers) {
    m.num_cols = std::max(m.num_cols, static_cast<std::size_t>(worker.num_cols));
    for (std::size_t b = 0; b < worker.streams.size(); ++b)
      worker.streams[b].finish(worker.pages[b]);
  }
  const std::size_t num_buckets = (m.num_cols + kBucketColumns - 1) / kBucketColumns;
  const auto threads_of_phase_2 = static_cast<unsigned>(num_workers);
  std::uint64_t nnz = 0;
  auto allocate = [&] {
    detail::gather_labels(blocks, first_row, out.labels, out.lines);
    m.col_ptr = populated_vector<std::int64_t>(m.num_cols + 1, 0);
    run_tasks_or_throw(num_buckets, threads_of_phase_2,
                       [&](std::size_t bucket) { count_bucket(bucket, workers, m); });
    for (std::size_t c = 0; c < m.num_cols; ++c) m.col_ptr[c + 1] += m.col_ptr[c];
    nnz = static_cast<std::uint64_t>(m.col_ptr.back());
    const std::size_t capacity = nnz + (options.bias >= 0 ? m.num_rows : 0);
    m.row_idx.reserve(capacity);
    m.values.reserve(capacity);
    m.row_idx.resize(nnz);
    m.values.resize(nnz);
  };
  try {
    allocate();
  } catch (const std::bad_alloc&) {
    detail::throw_out_of_memory(name, m.num_rows, m.num_cols, nnz);
  }

  // Phase 2: each bucket's part of the matrix, on as many threads.
  // A group's streams are freed when its last bucket is in the matrix.
  std::vector<std::uint64_t> largest(num_buckets, 0);
  const std::size_t num_groups = (num_buckets + kGroupBuckets - 1) / kGroupBuckets;
  std::vector<std::atomic<std::size_t>> unfinished(num_groups);
  for (std::size_t g = 0; g < num_groups; ++g) {
    unfinished[g] = std::min(kGroupBuckets, num_buckets - g * kGroupBuckets);
  }
  run_tasks_or_throw(num_buckets, threads_of_phase_2, [&](std::size_t bucket) {
    largest[bucket] = scatter_bucket(bucket, workers, first_row, m);
    const std::size_t group = bucket / kGroupBuckets;
    if (--unfinished[group] > 0) return;
    for (Worker& worker : workers) {
      for (std::size_t b = group * kGroupBuckets;
           b < std::min(worker.pages.size(), (group + 1) * kGroupBuckets); ++b) {
        worker.pages[b] = StreamPages();
      }
      if (group < worker.arenas.size()) worker.arenas[group].reset();
    }
  });
  std::uint64_t bits = 0;
  for (const std::uint64_t b : largest) bits = std::max(bits, b);
  if (options.bias >= 0) {
    append_constant_column(m, options.bias);
    bits = std::max(bits, magnitude_bits(options.bias));
  }
  out.largest_magnitude = magnitude_of_bits(bits);
  return out;
}

}  // namespace cdl
