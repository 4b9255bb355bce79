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
// cache). Each bucket's streams are freed as soon as it is done, so the
// memory moves from the streams (about 10 bytes per nonzero) to the matrix
// (12) and the peak is about the matrix alone.
#include <algorithm>
#include <array>
#include <cassert>
#include <cstdio>
#include <cstring>
#include <deque>
#include <exception>
#include <limits>
#include <mutex>
#include <new>
#include <utility>

#include "data/entry_stream.h"
#include "data/input_file.h"
#include "data/libsvm_line.h"
#include "data/libsvm_reader.h"
#include "util/error.h"
#include "util/parallel.h"

namespace cdl {
namespace {

using detail::EntryReader;
using detail::EntryStream;
using detail::kBucketColumns;
using detail::kBucketShift;
using detail::kNoBlock;
using detail::StreamPages;

constexpr std::uint64_t kMaxBlockBytes = std::uint64_t{4} << 20;
constexpr std::size_t kReadBytes = std::size_t{64} << 10;  // the least asked of one read(2)
constexpr unsigned kMaxDefaultThreads = 4;

// What parsing one block found besides its pairs.
struct BlockInfo {
  std::vector<double> labels;
  LineMap lines;  // rows and lines counted from the block's start
  std::int64_t line_count = 0;
};

// One parsing thread's share.
struct Worker {
  std::vector<EntryStream> streams;  // one per bucket
  std::vector<StreamPages> pages;    // the streams' pages
  std::uint64_t num_cols = 0;        // the largest index seen
  std::uint64_t rows = 0;
};

// Hands out the input in blocks of whole lines, in order, to the threads
// that ask; keeps the first error (in file order) of any thread.
class BlockReader {
 public:
  BlockReader(InputStream& in, const ReadOptions& options, std::size_t block_bytes)
      : in_(in), options_(options), block_bytes_(std::max<std::size_t>(block_bytes, 1)) {}

  // Fills text[0, size) with the next block and sets `index`; returns its
  // info, or nullptr at the end, after an error in an earlier block, or on a
  // read error (kept as that block's error).
  BlockInfo* next(Buffer<char>& text, std::size_t& size, std::uint64_t& index) {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (next_ >= stop_) return nullptr;
    try {
      std::size_t n = carry_.size();
      if (text.size() < n + kReadBytes + detail::kLinePadding) {
        text.resize(n + kReadBytes + detail::kLinePadding);
      }
      if (n > 0) std::memcpy(text.data(), carry_.data(), n);
      std::size_t cut = 0;
      std::size_t searched = 0;  // no newline in [block_bytes - 1, searched)
      for (;;) {
        const std::size_t from = std::max(searched, block_bytes_ - 1);
        if (from < n) {
          const void* newline = std::memchr(text.data() + from, '\n', n - from);
          if (newline != nullptr) {
            cut = static_cast<std::size_t>(static_cast<const char*>(newline) - text.data()) + 1;
            break;
          }
          searched = n;
        }
        if (eof_) {
          cut = n;
          break;
        }
        const std::size_t want = std::max(kReadBytes, block_bytes_ > n ? block_bytes_ - n : 0);
        if (text.size() < n + want + detail::kLinePadding) {
          text.resize(std::max(n + want + detail::kLinePadding, 2 * text.size()));
        }
        const std::size_t got = in_.read(text.data() + n, want);
        if (next_ == 0 && n == 0)
          detail::check_not_compressed(in_.name(), options_, text.data(), got);
        n += got;
        eof_ = got == 0;
      }
      if (cut == 0) return nullptr;
      carry_.assign(text.data() + cut, text.data() + n);
      // The line parser's padding; at the end of the input, a last line
      // without a newline ends at a NUL.
      if (cut == n) std::memset(text.data() + n, 0, detail::kLinePadding);
      size = cut;
      index = next_++;
      return &blocks_.emplace_back();
    } catch (...) {
      record(next_, std::current_exception());
      return nullptr;
    }
  }

  // Keeps `error` as block `index`'s if no earlier block has one, and hands
  // out no block after it.
  void fail(std::uint64_t index, std::exception_ptr error) {
    const std::lock_guard<std::mutex> lock(mutex_);
    record(index, error);
  }

  // After all threads are done: the blocks, and the first error.
  std::deque<BlockInfo>& blocks() { return blocks_; }
  std::uint64_t error_block() const { return stop_; }
  std::exception_ptr error() const { return error_; }

 private:
  void record(std::uint64_t index, std::exception_ptr error) {
    if (index < stop_) {
      stop_ = index;
      error_ = error;
    }
  }

  std::mutex mutex_;
  InputStream& in_;
  const ReadOptions& options_;
  const std::size_t block_bytes_;
  Buffer<char> carry_;  // read beyond the last block's end
  bool eof_ = false;
  std::uint64_t next_ = 0;
  std::uint64_t stop_ = kNoBlock;
  std::exception_ptr error_;
  std::deque<BlockInfo> blocks_;  // references stay valid as it grows
};

// "2.0 MiB", "64.0 GiB".
std::string format_bytes(double bytes) {
  constexpr double kGiB = 1073741824.0;
  char text[32];
  if (bytes < kGiB) {
    std::snprintf(text, sizeof text, "%.1f MiB", bytes / 1048576.0);
  } else {
    std::snprintf(text, sizeof text, "%.1f GiB", bytes / kGiB);
  }
  return text;
}

// The limits of the column arrays, checked before a feature index makes
// them grow.
struct ColumnLimit {
  std::uint64_t bytes_per_column;
  std::uint64_t memory;
  bool given;  // by ReadOptions rather than available_memory()

  std::uint64_t max_columns() const { return memory / bytes_per_column; }
  ParseError too_large(const detail::LineContext& context, std::uint64_t index,
                       const std::string& than) const {
    return ParseError(
        context.name, context.line,
        "feature index " + std::to_string(index) + " is too large: reading " +
            std::to_string(index) + " columns needs " +
            format_bytes(static_cast<double>(index) * static_cast<double>(bytes_per_column)) +
            ", more than " + than);
  }
  void check(const detail::LineContext& context, std::uint64_t index) const {
    if (index > max_columns()) {
      throw too_large(context, index,
                      "the " + format_bytes(static_cast<double>(memory)) +
                          (given ? " allowed" : " of memory here"));
    }
  }
};

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
      worker_.streams.resize(std::max(buckets, 2 * worker_.streams.size()));
      worker_.pages.resize(worker_.streams.size());
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
  const char* p = text;
  const char* const end = text + size;
  while (p != end) {
    const char* newline =
        static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
    const char* last = newline != nullptr ? newline : end;
    ++context.line;
    double label = 0;
    pairs.last = 0;
    if (detail::parse_libsvm_line(context, p, last, label, pairs)) {
      if (++worker.rows > kMaxDimension) throw Error(name + ": more than 2^31-1 instances");
      worker.num_cols = std::max(worker.num_cols, pairs.last);
      info.labels.push_back(label);
      info.lines.add(sink.row, context.line);
      ++sink.row;
    }
    p = newline != nullptr ? newline + 1 : end;
  }
  info.line_count = context.line;
}

// Rethrows the reader's first error; a ParseError gets its line counted
// from the start of the input.
[[noreturn]] void rethrow_first_error(BlockReader& reader) {
  std::int64_t lines_before = 0;
  const std::deque<BlockInfo>& blocks = reader.blocks();
  for (std::uint64_t k = 0; k < reader.error_block() && k < blocks.size(); ++k) {
    lines_before += blocks[k].line_count;
  }
  try {
    std::rethrow_exception(reader.error());
  } catch (const ParseError& e) {
    throw ParseError(e.path(), e.line() + lines_before, e.reason());
  }
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
  for (Worker& worker : workers) {
    if (bucket < worker.pages.size()) worker.pages[bucket] = StreamPages();
  }
  return largest;
}

}  // namespace

LabeledCsc read_libsvm_csc(const std::string& path, const ReadOptions& options) {
  InputStream in(path);
  const std::string& name = in.name();
  const unsigned threads =
      options.threads > 0 ? options.threads : std::min(hardware_threads(), kMaxDefaultThreads);
  std::size_t num_workers = threads;
  if (in.regular()) {
    const std::uint64_t per_thread = std::max<std::uint64_t>(options.min_bytes_per_thread, 1);
    num_workers =
        static_cast<std::size_t>(std::clamp<std::uint64_t>(in.size() / per_thread, 1, threads));
  }
  const auto block_bytes = static_cast<std::size_t>(
      std::clamp<std::uint64_t>(options.min_bytes_per_thread, 1, kMaxBlockBytes));
  const ColumnLimit limit{
      16 * num_workers + 16,
      options.column_memory_limit > 0 ? options.column_memory_limit : available_memory(),
      options.column_memory_limit > 0};

  // Phase 1: parse every block once.
  BlockReader reader(in, options, block_bytes);
  std::vector<Worker> workers(num_workers);
  const std::vector<std::exception_ptr> worker_errors =
      run_tasks(num_workers, static_cast<unsigned>(num_workers), [&](std::size_t w) {
        Buffer<char> text;
        std::size_t size = 0;
        std::uint64_t index = 0;
        while (BlockInfo* info = reader.next(text, size, index)) {
          try {
            parse_block(text.data(), size, index, name, options, limit, workers[w], *info);
          } catch (...) {
            reader.fail(index, std::current_exception());
            return;
          }
        }
      });
  if (reader.error()) rethrow_first_error(reader);
  for (const std::exception_ptr& error : worker_errors) {
    if (error) std::rethrow_exception(error);
  }

  // The shape, the labels and the lines.
  LabeledCsc out;
  CscMatrix& m = out.features;
  std::deque<BlockInfo>& blocks = reader.blocks();
  std::vector<std::uint64_t> first_row(blocks.size() + 1, 0);
  for (std::size_t k = 0; k < blocks.size(); ++k) {
    first_row[k + 1] = first_row[k] + blocks[k].labels.size();
  }
  m.num_rows = static_cast<std::size_t>(first_row.back());
  if (m.num_rows == 0) detail::throw_no_instances(name);
  if (m.num_rows > kMaxDimension) throw Error(name + ": more than 2^31-1 instances");
  for (Worker& worker : workers) {
    m.num_cols = std::max(m.num_cols, static_cast<std::size_t>(worker.num_cols));
    for (std::size_t b = 0; b < worker.streams.size(); ++b)
      worker.streams[b].finish(worker.pages[b]);
  }
  const std::size_t num_buckets = (m.num_cols + kBucketColumns - 1) / kBucketColumns;
  const auto threads_of_phase_2 = static_cast<unsigned>(num_workers);
  std::uint64_t nnz = 0;
  auto allocate = [&] {
    out.labels.reserve(m.num_rows);
    std::int64_t lines_before = 0;
    for (std::size_t k = 0; k < blocks.size(); ++k) {
      BlockInfo& block = blocks[k];
      out.labels.insert(out.labels.end(), block.labels.begin(), block.labels.end());
      for (std::size_t i = 0; i < block.lines.rows.size(); ++i) {
        out.lines.add(static_cast<std::int64_t>(first_row[k]) + block.lines.rows[i],
                      lines_before + block.lines.lines[i]);
      }
      lines_before += block.line_count;
      block = BlockInfo();
    }
    m.col_ptr.assign(m.num_cols + 1, 0);
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
    const double bytes = 12.0 * static_cast<double>(nnz) + 8.0 * static_cast<double>(m.num_rows) +
                         8.0 * static_cast<double>(m.num_cols);
    throw Error(name + ": out of memory: " + std::to_string(m.num_rows) + " instances, " +
                std::to_string(m.num_cols) + " features and " + std::to_string(nnz) +
                " nonzeros need about " + format_bytes(bytes));
  }

  // Phase 2: each bucket's part of the matrix, on as many threads.
  std::vector<std::uint64_t> largest(num_buckets, 0);
  run_tasks_or_throw(num_buckets, threads_of_phase_2, [&](std::size_t bucket) {
    largest[bucket] = scatter_bucket(bucket, workers, first_row, m);
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
