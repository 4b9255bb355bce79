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
#include <sys/mman.h>

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

#include "data/input_file.h"
#include "data/libsvm_line.h"
#include "data/libsvm_reader.h"
#include "util/error.h"
#include "util/parallel.h"

namespace cdl {
namespace {

constexpr unsigned kBucketShift = 10;
constexpr std::size_t kBucketColumns = std::size_t{1} << kBucketShift;
constexpr std::uint64_t kMaxBlockBytes = std::uint64_t{4} << 20;
constexpr std::size_t kReadBytes = std::size_t{64} << 10;  // the least asked of one read(2)
constexpr std::size_t kChunkBytes = std::size_t{256} << 10;
constexpr unsigned kMaxDefaultThreads = 4;
constexpr std::uint64_t kNoBlock = std::numeric_limits<std::uint64_t>::max();

// Anonymous memory straight from mmap, so that freeing it returns it to the
// system whatever malloc's thresholds are: the streams' memory must leave the
// process while the matrix fills. Pages are touched (and counted) only when
// written.
class Pages {
 public:
  explicit Pages(std::size_t size) : size_(size) {
    void* data = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (data == MAP_FAILED) throw std::bad_alloc();
    data_ = static_cast<char*>(data);
  }
  ~Pages() {
    if (data_ != nullptr) ::munmap(data_, size_);
  }
  Pages(Pages&& other) noexcept : data_(std::exchange(other.data_, nullptr)), size_(other.size_) {}
  Pages& operator=(Pages&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    return *this;
  }
  Pages(const Pages&) = delete;
  Pages& operator=(const Pages&) = delete;
  char* data() const { return data_; }
  std::size_t size() const { return size_; }

 private:
  char* data_ = nullptr;
  std::size_t size_ = 0;
};

// The pages of one EntryStream, apart from its hot tail (EntryStream), so
// that the tails of all buckets stay in a few cache lines.
struct StreamPages {
  std::vector<Pages> pages;
  std::vector<std::size_t> starts;  // the first byte used in each page run
  std::vector<std::size_t> used;    // one past the last
};

// The entries one thread found in one bucket, in the order found. Each entry
// is a 16-bit word, the column within the bucket (10 bits) and the row's
// distance from the previous entry's row (6 bits), then the value. A distance
// of kEscape or more is written as kEscape and a varint. A word with kMarker
// starts the entries of a new block: a varint block number follows, and rows
// count from the block's first row again.
//
// A value is a byte h and its payload. A decimal as the fast path read it
// has h = bytes << 5 | negative << 4 | fraction digits, then the mantissa in
// `bytes` (1 to 7) little-endian bytes; it is divided by its power of ten
// only in the scatter, where the divisions do not hold up the parsing.
// Anything else has h = kRawValue (0 bytes) and the double's 8 bytes. So "0.0323668"
// takes 6 bytes with its word, and "1" 4, where the matrix takes 12.
class EntryStream {
 public:
  static constexpr std::uint32_t kEscape = 62;
  static constexpr std::uint32_t kMarker = 63;
  static constexpr unsigned char kRawValue = 0;
  // A marker, a word with an escaped distance and a raw value, and 8 bytes
  // that a reader may load past the last entry.
  static constexpr std::size_t kMaxBytes = 2 + 10 + 2 + 5 + 1 + 8 + 8;

  void put_decimal(std::uint64_t block, std::uint32_t row, std::uint32_t column,
                   const detail::Decimal& value, StreamPages& pages) {
    // Through a local pointer: stores through char* could alias pos_, and
    // the compiler would reload it after every byte.
    char* p = put_head(block, row, column, pages);
    const unsigned bytes = (71 - static_cast<unsigned>(__builtin_clzll(value.mantissa | 1))) / 8;
    *p++ = static_cast<char>(bytes << 5 | static_cast<unsigned>(value.negative) << 4 |
                             value.fraction_digits);
    std::memcpy(p, &value.mantissa, sizeof value.mantissa);
    pos_ = p + bytes;
  }
  void put_double(std::uint64_t block, std::uint32_t row, std::uint32_t column, double value,
                  StreamPages& pages) {
    char* p = put_head(block, row, column, pages);
    *p++ = static_cast<char>(kRawValue);
    std::memcpy(p, &value, sizeof value);
    pos_ = p + sizeof value;
  }

  // Records the bytes used in the last page run; no put after it.
  void finish(StreamPages& pages) {
    if (!pages.pages.empty()) {
      pages.used.push_back(static_cast<std::size_t>(pos_ - pages.pages.back().data()));
    }
    pos_ = end_ = nullptr;
  }

 private:
  // Writes the entry's word (and a marker before it if a block starts);
  // returns where its value goes.
  char* put_head(std::uint64_t block, std::uint32_t row, std::uint32_t column, StreamPages& pages) {
    if (static_cast<std::size_t>(end_ - pos_) < kMaxBytes) grow(pages);
    char* p = pos_;
    std::uint32_t last_row = last_row_;
    if (block != block_) {
      p = put_word(p, kMarker << kBucketShift);
      p = put_varint(p, block);
      block_ = block;
      last_row = 0;
    }
    const std::uint32_t distance = row - last_row;
    last_row_ = row;
    if (distance < kEscape) return put_word(p, column | distance << kBucketShift);
    p = put_word(p, column | kEscape << kBucketShift);
    return put_varint(p, distance);
  }
  static char* put_word(char* p, std::uint32_t word) {
    const auto bits = static_cast<std::uint16_t>(word);
    std::memcpy(p, &bits, sizeof bits);
    return p + sizeof bits;
  }
  static char* put_varint(char* p, std::uint64_t x) {
    while (x >= 0x80) {
      *p++ = static_cast<char>(x | 0x80);
      x >>= 7;
    }
    *p++ = static_cast<char>(x);
    return p;
  }
  void grow(StreamPages& pages) {
    if (!pages.pages.empty()) {
      pages.used.push_back(static_cast<std::size_t>(pos_ - pages.pages.back().data()));
    }
    pages.pages.emplace_back(kChunkBytes);
    // Page runs start page-aligned; if every stream's tail sat at the same
    // offset in its run, the tails of all buckets would fall into one cache
    // set and evict each other on every entry. A start staggered by a
    // different number of cache lines (up to 64 KiB) for every run spreads
    // them over the sets.
    const auto line = static_cast<std::size_t>(
        (reinterpret_cast<std::uintptr_t>(this) / sizeof(EntryStream) + pages.pages.size()) *
        0x9E3779B1u % 1024);
    pos_ = pages.pages.back().data() + 64 * line;
    end_ = pages.pages.back().data() + kChunkBytes;
    pages.starts.push_back(64 * line);
  }

  char* pos_ = nullptr;
  char* end_ = nullptr;
  std::uint64_t block_ = kNoBlock;
  std::uint32_t last_row_ = 0;
};

// Reads a finished EntryStream back, one segment (one block's entries) at a
// time.
class EntryReader {
 public:
  explicit EntryReader(const StreamPages& pages) : pages_(pages) {
    if (!pages.pages.empty()) {
      pos_ = pages.pages[0].data() + pages.starts[0];
      end_ = pages.pages[0].data() + pages.used[0];
    }
    next_segment();
  }
  // The block of the segment at hand, or kNoBlock at the end.
  std::uint64_t block() const { return block_; }

  // Calls write(column, local_row, value) for each entry of the segment at
  // hand, then moves to the next segment. With kValues false, the value
  // passed is 0 (counting needs none).
  template <bool kValues, class Write>
  void read_segment(Write& write) {
    std::uint32_t row = 0;
    for (;;) {
      if (pos_ == end_ && !next_page()) {
        block_ = kNoBlock;
        return;
      }
      const std::uint32_t word = read_word();
      const std::uint32_t distance = word >> kBucketShift;
      if (distance == EntryStream::kMarker) {
        block_ = read_varint();
        return;
      }
      row +=
          distance == EntryStream::kEscape ? static_cast<std::uint32_t>(read_varint()) : distance;
      const auto head = static_cast<unsigned char>(*pos_++);
      double value = 0;
      if (head == EntryStream::kRawValue) {
        if (kValues) std::memcpy(&value, pos_, sizeof value);
        pos_ += sizeof value;
      } else {
        const unsigned bytes = head >> 5;
        if (kValues) {
          std::uint64_t mantissa = 0;
          std::memcpy(&mantissa, pos_, sizeof mantissa);
          mantissa &= ~std::uint64_t{0} >> (64 - 8 * bytes);
          value = detail::decimal_value({mantissa, head & 15u, (head & 16u) != 0});
        }
        pos_ += bytes;
      }
      write(word & (kBucketColumns - 1), row, value);
    }
  }

 private:
  bool next_page() {
    if (++page_ >= pages_.pages.size()) return false;
    pos_ = pages_.pages[page_].data() + pages_.starts[page_];
    end_ = pages_.pages[page_].data() + pages_.used[page_];
    return pos_ != end_;
  }
  void next_segment() {
    if (pos_ == end_ && !next_page()) return;
    const std::uint32_t word = read_word();
    assert(word >> kBucketShift == EntryStream::kMarker);
    static_cast<void>(word);
    block_ = read_varint();
  }
  std::uint32_t read_word() {
    std::uint16_t bits = 0;
    std::memcpy(&bits, pos_, sizeof bits);
    pos_ += sizeof bits;
    return bits;
  }
  std::uint64_t read_varint() {
    std::uint64_t x = 0;
    for (int shift = 0;; shift += 7) {
      const auto byte = static_cast<unsigned char>(*pos_++);
      x |= static_cast<std::uint64_t>(byte & 0x7F) << shift;
      if (byte < 0x80) return x;
    }
  }

  const StreamPages& pages_;
  std::size_t page_ = 0;
  const char* pos_ = nullptr;
  const char* end_ = nullptr;
  std::uint64_t block_ = kNoBlock;
};

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
// block order, and frees the streams.
void scatter_bucket(std::size_t bucket, std::vector<Worker>& workers,
                    const std::vector<std::uint64_t>& first_row, CscMatrix& m) {
  const std::size_t first = bucket * kBucketColumns;
  const std::size_t columns = bucket_columns(bucket, m.num_cols);
  std::array<std::int64_t, kBucketColumns> cursor{};
  for (std::size_t c = 0; c < columns; ++c) cursor[c] = m.col_ptr[first + c];
  Index* const row_idx = m.row_idx.data();
  double* const values = m.values.data();
  for_each_segment(bucket, workers, [&](EntryReader& reader) {
    const std::uint64_t base = first_row[reader.block()];
    auto write = [&](std::uint32_t column, std::uint32_t row, double value) {
      const auto slot = static_cast<std::size_t>(cursor[column]++);
      row_idx[slot] = static_cast<Index>(base + row);
      values[slot] = value;
    };
    reader.read_segment<true>(write);
  });
  for (std::size_t c = 0; c < columns; ++c) assert(cursor[c] == m.col_ptr[first + c + 1]);
  for (Worker& worker : workers) {
    if (bucket < worker.pages.size()) worker.pages[bucket] = StreamPages();
  }
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
    advise_huge_pages(m.row_idx.data(), capacity * sizeof(Index));
    advise_huge_pages(m.values.data(), capacity * sizeof(double));
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
  run_tasks_or_throw(num_buckets, threads_of_phase_2,
                     [&](std::size_t bucket) { scatter_bucket(bucket, workers, first_row, m); });
  if (options.bias >= 0) append_constant_column(m, options.bias);
  return out;
}

}  // namespace cdl
