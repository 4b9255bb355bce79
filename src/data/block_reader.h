// The parts of the parallel LIBSVM readers (libsvm_csc.cpp, libsvm_rows.cpp)
// that do not depend on the matrix they build: the blocks of whole lines that
// threads take in turn, the first error in file order, and the limit on the
// per-column memory. Internal to src/data.
#ifndef CDL_BLOCK_READER_H_
#define CDL_BLOCK_READER_H_

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <exception>
#include <limits>
#include <mutex>
#include <string>
#include <vector>

#include "data/input_file.h"
#include "data/libsvm_line.h"
#include "data/libsvm_reader.h"
#include "data/pages.h"
#include "util/error.h"
#include "util/parallel.h"

namespace cdl {
namespace detail {

inline constexpr std::uint64_t kMaxBlockBytes = std::uint64_t{4} << 20;
inline constexpr std::size_t kReadBytes = std::size_t{64} << 10;  // the least asked of one read(2)
inline constexpr unsigned kMaxDefaultThreads = 4;
// No block: the reader's error block while it has no error.
inline constexpr std::uint64_t kNoBlockRead = std::numeric_limits<std::uint64_t>::max();

// What parsing one block found besides its pairs.
struct BlockInfo {
  std::vector<double> labels;
  LineMap lines;  // rows and lines counted from the block's start
  std::int64_t line_count = 0;
};

// Hands out the input in blocks of whole lines, in order, to the threads
// that ask; keeps the first error (in file order) of any thread. `Block`
// holds what parsing one block finds: at least BlockInfo's members.
template <class Block>
class BlockReader {
 public:
  BlockReader(InputStream& in, const ReadOptions& options, std::size_t block_bytes)
      : in_(in), options_(options), block_bytes_(std::max<std::size_t>(block_bytes, 1)) {}

  // Fills text[0, size) with the next block and sets `index`; returns its
  // info, or nullptr at the end, after an error in an earlier block, or on a
  // read error (kept as that block's error).
  Block* next(TextPages& text, std::size_t& size, std::uint64_t& index) {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (next_ >= stop_) return nullptr;
    try {
      std::size_t n = carry_.size();
      if (text.size() < n + kReadBytes + kLinePadding) {
        text.resize(n + kReadBytes + kLinePadding);
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
        if (text.size() < n + want + kLinePadding) {
          text.resize(std::max(n + want + kLinePadding, 2 * text.size()));
        }
        const std::size_t got = in_.read(text.data() + n, want);
        if (next_ == 0 && n == 0) check_not_compressed(in_.name(), options_, text.data(), got);
        n += got;
        eof_ = got == 0;
      }
      if (cut == 0) return nullptr;
      carry_.assign(text.data() + cut, text.data() + n);
      // The line parser's padding; at the end of the input, a last line
      // without a newline ends at a NUL.
      if (cut == n) std::memset(text.data() + n, 0, kLinePadding);
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
  std::deque<Block>& blocks() { return blocks_; }
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
  std::uint64_t stop_ = kNoBlockRead;
  std::exception_ptr error_;
  std::deque<Block> blocks_;  // references stay valid as it grows
};

// "2.0 MiB", "64.0 GiB".
inline std::string format_bytes(double bytes) {
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
  ParseError too_large(const LineContext& context, std::uint64_t index,
                       const std::string& than) const {
    return ParseError(
        context.name, context.line,
        "feature index " + std::to_string(index) + " is too large: reading " +
            std::to_string(index) + " columns needs " +
            format_bytes(static_cast<double>(index) * static_cast<double>(bytes_per_column)) +
            ", more than " + than);
  }
  void check(const LineContext& context, std::uint64_t index) const {
    if (index > max_columns()) {
      throw too_large(context, index,
                      "the " + format_bytes(static_cast<double>(memory)) +
                          (given ? " allowed" : " of memory here"));
    }
  }
};

// Parses the lines of text[0, size), a block, counting them in
// context.line: each instance's pairs go to `pairs`, and then its label to
// instance(label), with context.line its line.
template <class Pairs, class Instance>
void parse_lines(LineContext& context, const char* text, std::size_t size, Pairs& pairs,
                 Instance instance) {
  const char* p = text;
  const char* const end = text + size;
  while (p != end) {
    const char* newline =
        static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
    const char* last = newline != nullptr ? newline : end;
    ++context.line;
    double label = 0;
    if (parse_libsvm_line(context, p, last, label, pairs)) instance(label);
    p = newline != nullptr ? newline + 1 : end;
  }
}

// Rethrows the reader's first error; a ParseError gets its line counted
// from the start of the input.
template <class Block>
[[noreturn]] void rethrow_first_error(BlockReader<Block>& reader) {
  std::int64_t lines_before = 0;
  const std::deque<Block>& blocks = reader.blocks();
  for (std::uint64_t k = 0; k < reader.error_block() && k < blocks.size(); ++k) {
    lines_before += blocks[k].line_count;
  }
  try {
    std::rethrow_exception(reader.error());
  } catch (const ParseError& e) {
    throw ParseError(e.path(), e.line() + lines_before, e.reason());
  }
}

// The threads, blocks and column limit of a read of `in`: as many threads
// as options.threads (0: one per core, at most kMaxDefaultThreads), fewer for
// a regular file with less than min_bytes_per_thread bytes per thread.
struct ReadPlan {
  ReadPlan(const InputStream& in, const ReadOptions& options) {
    const unsigned threads =
        options.threads > 0 ? options.threads : std::min(hardware_threads(), kMaxDefaultThreads);
    num_workers = threads;
    if (in.regular()) {
      const std::uint64_t per_thread = std::max<std::uint64_t>(options.min_bytes_per_thread, 1);
      num_workers =
          static_cast<std::size_t>(std::clamp<std::uint64_t>(in.size() / per_thread, 1, threads));
    }
    block_bytes = static_cast<std::size_t>(
        std::clamp<std::uint64_t>(options.min_bytes_per_thread, 1, kMaxBlockBytes));
    limit = ColumnLimit{
        16 * num_workers + 16,
        options.column_memory_limit > 0 ? options.column_memory_limit : available_memory(),
        options.column_memory_limit > 0};
  }
  std::size_t num_workers = 1;
  std::size_t block_bytes = 1;
  ColumnLimit limit{1, 1, false};
};

// Phase 1 of a read: `num_workers` threads take the blocks in turn and call
// parse(worker, text, size, block_index, block) on each; then the first error
// in file order, if any, is thrown.
template <class Block, class Parse>
void parse_blocks(BlockReader<Block>& reader, std::size_t num_workers, Parse parse) {
  const std::vector<std::exception_ptr> worker_errors =
      run_tasks(num_workers, static_cast<unsigned>(num_workers), [&](std::size_t w) {
        TextPages text;
        std::size_t size = 0;
        std::uint64_t index = 0;
        while (Block* block = reader.next(text, size, index)) {
          try {
            parse(w, text.data(), size, index, *block);
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
}

// The first instance of each block, and the number of instances last;
// throws for too many, and for none unless `may_be_empty`.
template <class Block>
std::vector<std::uint64_t> first_rows(const std::deque<Block>& blocks, const std::string& name,
                                      bool may_be_empty = false) {
  std::vector<std::uint64_t> first_row(blocks.size() + 1, 0);
  for (std::size_t k = 0; k < blocks.size(); ++k) {
    first_row[k + 1] = first_row[k] + blocks[k].labels.size();
  }
  if (first_row.back() == 0 && !may_be_empty) throw_no_instances(name);
  if (first_row.back() > kMaxDimension) throw DataError(name + ": more than 2^31-1 instances");
  return first_row;
}

// Moves the blocks' labels and lines into `labels` and `lines`, in file
// order.
template <class Block>
void gather_labels(std::deque<Block>& blocks, const std::vector<std::uint64_t>& first_row,
                   std::vector<double>& labels, LineMap& lines) {
  labels.reserve(static_cast<std::size_t>(first_row.back()));
  std::int64_t lines_before = 0;
  for (std::size_t k = 0; k < blocks.size(); ++k) {
    BlockInfo& block = blocks[k];
    labels.insert(labels.end(), block.labels.begin(), block.labels.end());
    for (std::size_t i = 0; i < block.lines.rows.size(); ++i) {
      lines.add(static_cast<std::int64_t>(first_row[k]) + block.lines.rows[i],
                lines_before + block.lines.lines[i]);
    }
    lines_before += block.line_count;
    block.labels = std::vector<double>();
    block.lines = LineMap();
  }
}

// The Error for a matrix that does not fit in memory.
[[noreturn]] inline void throw_out_of_memory(const std::string& name, std::size_t rows,
                                             std::size_t cols, std::uint64_t nnz) {
  const double bytes = 12.0 * static_cast<double>(nnz) + 8.0 * static_cast<double>(rows) +
                       8.0 * static_cast<double>(cols);
  throw Error(name + ": out of memory: " + std::to_string(rows) + " instances, " +
              std::to_string(cols) + " features and " + std::to_string(nnz) +
              " nonzeros need about " + format_bytes(bytes));
}

}  // namespace detail
}  // namespace cdl

#endif  // CDL_BLOCK_READER_H_
