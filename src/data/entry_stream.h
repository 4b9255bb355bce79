// The compact entry streams of the one-pass column reader (libsvm_csc.cpp):
// each parsing thread appends the pairs of each range of 1024 columns (a
// "bucket") to one EntryStream, and the scatter reads them back with an
// EntryReader. Internal to src/data.
#ifndef CDL_ENTRY_STREAM_H_
#define CDL_ENTRY_STREAM_H_

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <new>
#include <utility>
#include <vector>

#include "data/libsvm_line.h"
#include "data/pages.h"

namespace cdl {
namespace detail {

constexpr unsigned kBucketShift = 10;
constexpr std::size_t kBucketColumns = std::size_t{1} << kBucketShift;
constexpr std::size_t kChunkBytes = std::size_t{256} << 10;  // one run of stream pages
// A stream maps its run's pages this many bytes at a time, ahead of its
// writes: a window in one call instead of a trap per page, and at most a
// window beyond the stream's end mapped and unused.
constexpr std::size_t kWindowBytes = std::size_t{16} << 10;
constexpr std::uint64_t kNoBlock = std::numeric_limits<std::uint64_t>::max();

// Buckets whose streams (of one thread) share their page runs, and are
// freed together once the last of them has moved into the matrix.
constexpr std::size_t kGroupBuckets = 8;

// The pages of one EntryStream, apart from its hot tail (EntryStream), so
// that the tails of all buckets stay in a few cache lines.
struct StreamPages {
  RunArena* arena = nullptr;        // where its runs come from (of kChunkBytes)
  std::vector<char*> runs;          // kChunkBytes each
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
                   const Decimal& value, StreamPages& pages) {
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
    if (!pages.runs.empty()) {
      pages.used.push_back(static_cast<std::size_t>(pos_ - pages.runs.back()));
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
  // Moves end_ one window further into the run, mapping the window's pages
  // in one call (util/populate.h); or, at the run's end, starts a new run.
  void grow(StreamPages& pages) {
    if (!pages.runs.empty()) {
      char* const run_end = pages.runs.back() + kChunkBytes;
      if (static_cast<std::size_t>(run_end - pos_) >= kMaxBytes) {
        char* const window_end =
            end_ + std::min(kWindowBytes, static_cast<std::size_t>(run_end - end_));
        populate_for_writing(end_, static_cast<std::size_t>(window_end - end_));
        end_ = window_end;
        return;
      }
      pages.used.push_back(static_cast<std::size_t>(pos_ - pages.runs.back()));
    }
    pages.runs.push_back(pages.arena->take());
    // Page runs start page-aligned; if every stream's tail sat at the same
    // offset in its run, the tails of all buckets would fall into one cache
    // set and evict each other on every entry. A start staggered by a
    // different number of cache lines (up to 64 KiB) for every run spreads
    // them over the sets.
    const auto line = static_cast<std::size_t>(
        (reinterpret_cast<std::uintptr_t>(this) / sizeof(EntryStream) + pages.runs.size()) *
        0x9E3779B1u % 1024);
    pos_ = pages.runs.back() + 64 * line;
    end_ = pos_ + kWindowBytes;
    populate_for_writing(pos_, kWindowBytes);
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
    if (!pages.runs.empty()) {
      pos_ = pages.runs[0] + pages.starts[0];
      end_ = pages.runs[0] + pages.used[0];
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
          value = decimal_value({mantissa, head & 15u, (head & 16u) != 0});
        }
        pos_ += bytes;
      }
      write(word & (kBucketColumns - 1), row, value);
    }
  }

 private:
  bool next_page() {
    if (++page_ >= pages_.runs.size()) return false;
    pos_ = pages_.runs[page_] + pages_.starts[page_];
    end_ = pages_.runs[page_] + pages_.used[page_];
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

}  // namespace detail
}  // namespace cdl

#endif  // CDL_ENTRY_STREAM_H_
