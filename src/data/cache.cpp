#include "data/cache.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <string_view>
#include <vector>

#include "util/atomic_file.h"
#include "util/error.h"
#include "util/file_pages.h"
#include "util/parallel.h"

namespace cdl {
namespace {

constexpr char kMagic[8] = {'C', 'D', 'L', 'C', 'A', 'C', 'H', 'E'};
constexpr std::uint32_t kVersion = 2;  // 2: the row numbers and values 64 KiB-aligned
constexpr std::uint32_t kByteOrder = 0x01020304;
constexpr std::size_t kHeadBytes = std::size_t{1} << 20;  // of the text, checksummed
constexpr std::size_t kChunkBytes = std::size_t{16} << 20;
// The least of the values worth mapping rather than reading.
constexpr std::size_t kMapBytes = std::size_t{1} << 20;

struct Header {
  char magic[8];
  std::uint32_t version;
  std::uint32_t byte_order;
  std::uint64_t text_size;
  std::int64_t text_mtime_ns;
  std::uint64_t text_head_hash;
  std::uint64_t bias_bits;
  std::uint64_t integer_labels;
  std::uint64_t num_rows;
  std::uint64_t num_cols;
  std::uint64_t nnz;
  std::uint64_t line_entries;
  std::uint64_t payload_hash;
  std::uint64_t reserved[3];
  std::uint64_t header_hash;  // of the bytes before it
};
static_assert(sizeof(Header) == 128, "the header is 128 bytes");

// A 64-bit checksum of a byte stream fed in pieces of any size: four
// independent multiply-rotate lanes over 8-byte words (several GB/s), mixed
// with the length at the end. Not cryptographic: it catches corruption.
class Checksum {
 public:
  void update(const void* data, std::size_t size) {
    const auto* p = static_cast<const unsigned char*>(data);
    length_ += size;
    while (size > 0 && pending_size_ > 0) {
      pending_[pending_size_++] = *p++;
      --size;
      if (pending_size_ == 8) {
        word(load(pending_));
        pending_size_ = 0;
      }
    }
    for (; size >= 8; size -= 8, p += 8) word(load(p));
    if (size > 0) {  // fewer than 8 bytes, and nothing pending
      std::memcpy(pending_, p, size);
      pending_size_ = size;
    }
  }
  std::uint64_t value() const {
    std::uint64_t tail = 0;
    std::memcpy(&tail, pending_, pending_size_);
    std::uint64_t h = length_ * 0x9E3779B97F4A7C15ull ^ tail;
    for (std::uint64_t lane : lanes_) h = mix(h ^ lane);
    return h;
  }

 private:
  static std::uint64_t load(const unsigned char* p) {
    std::uint64_t w = 0;
    std::memcpy(&w, p, sizeof w);
    return w;
  }
  static std::uint64_t rotl(std::uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
  static std::uint64_t mix(std::uint64_t h) {
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDull;
    h ^= h >> 33;
    h *= 0xC4CEB9FE1A85EC53ull;
    return h ^ (h >> 33);
  }
  void word(std::uint64_t w) {
    std::uint64_t& lane = lanes_[words_++ & 3];
    lane = rotl(lane ^ (w * 0x9E3779B97F4A7C15ull), 31) * 0xC2B2AE3D27D4EB4Full;
  }

  std::uint64_t lanes_[4] = {1, 2, 3, 4};
  std::uint64_t words_ = 0;
  std::uint64_t length_ = 0;
  unsigned char pending_[8] = {};
  std::size_t pending_size_ = 0;
};

// What identifies the text a cache was made from.
struct TextIdentity {
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;
  std::uint64_t head_hash = 0;
};

TextIdentity identify(const std::string& data_path) {
  struct stat info {};
  errno = 0;
  if (::stat(data_path.c_str(), &info) != 0) {
    throw IoError(data_path + ": cannot open" + system_reason());
  }
  TextIdentity id;
  id.size = static_cast<std::uint64_t>(info.st_size);
  id.mtime_ns = static_cast<std::int64_t>(info.st_mtim.tv_sec) * 1000000000 + info.st_mtim.tv_nsec;
  std::ifstream in(data_path, std::ios::binary);
  std::string head(static_cast<std::size_t>(std::min<std::uint64_t>(id.size, kHeadBytes)), '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  if (!in) throw IoError(data_path + ": read error");
  Checksum checksum;
  checksum.update(head.data(), head.size());
  id.head_hash = checksum.value();
  return id;
}

std::uint64_t bits_of(double x) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}

// The payload: every array in file order, as (pointer, bytes).
constexpr std::size_t kArrays = 6;
template <class Data, class Visit>
void for_each_array(Data& data, Visit visit) {
  auto& m = data.features;
  visit(data.labels.data(), data.labels.size() * sizeof(double));
  visit(m.col_ptr.data(), m.col_ptr.size() * sizeof(std::int64_t));
  visit(m.row_idx.data(), m.row_idx.size() * sizeof(Index));
  visit(m.values.data(), m.values.size() * sizeof(double));
  visit(data.lines.rows.data(), data.lines.rows.size() * sizeof(std::int64_t));
  visit(data.lines.lines.data(), data.lines.lines.size() * sizeof(std::int64_t));
}

// The arrays' sizes in bytes that a header's counts imply.
std::array<std::uint64_t, kArrays> array_bytes(const Header& header) {
  return {8 * header.num_rows, 8 * (header.num_cols + 1), 4 * header.nnz,
          8 * header.nnz,      8 * header.line_entries,   8 * header.line_entries};
}

// Where each array starts in the file: packed after the header, except the
// bulk (the row numbers and the values, which load_cache may map), each at
// the next multiple of kMappableAlignment, after zeros.
struct Layout {
  std::array<std::uint64_t, kArrays> offsets{};  // in for_each_array's order
  std::array<std::uint64_t, kArrays> bytes{};    // the arrays' sizes
  std::uint64_t end = 0;                         // the file's size

  // The zero bytes between array k and what comes before it.
  std::uint64_t gap_before(std::size_t k) const {
    return offsets[k] - (k == 0 ? sizeof(Header) : offsets[k - 1] + bytes[k - 1]);
  }
};

Layout layout_of(const Header& header) {
  constexpr bool kAligned[kArrays] = {false, false, true, true, false, false};
  Layout layout;
  layout.bytes = array_bytes(header);
  std::uint64_t offset = sizeof(Header);
  for (std::size_t k = 0; k < kArrays; ++k) {
    if (kAligned[k])
      offset = (offset + kMappableAlignment - 1) / kMappableAlignment * kMappableAlignment;
    layout.offsets[k] = offset;
    offset += layout.bytes[k];
  }
  layout.end = offset;
  return layout;
}

// The payload in pieces of at most kChunkBytes, each with its offset in the
// file; the payload checksum is the checksum of the pieces' checksums, so
// that the pieces can be read and checked on threads.
struct Piece {
  char* data;
  std::size_t bytes;
  std::uint64_t offset;  // in the file
  const void* array;     // the array it is part of
};

template <class Data>
std::vector<Piece> pieces_of(Data& data, const Layout& layout) {
  std::vector<Piece> pieces;
  std::size_t k = 0;
  for_each_array(data, [&](const void* p, std::size_t bytes) {
    const std::uint64_t offset = layout.offsets[k++];
    for (std::size_t done = 0; done < bytes; done += kChunkBytes) {
      const std::size_t size = std::min(kChunkBytes, bytes - done);
      pieces.push_back(
          {const_cast<char*>(static_cast<const char*>(p)) + done, size, offset + done, p});
    }
  });
  return pieces;
}

std::uint64_t combine(const std::vector<std::uint64_t>& piece_sums) {
  Checksum checksum;
  checksum.update(piece_sums.data(), piece_sums.size() * sizeof(std::uint64_t));
  return checksum.value();
}

std::uint64_t piece_sum(const Piece& piece) {
  Checksum checksum;
  checksum.update(piece.data, piece.bytes);
  return checksum.value();
}

// piece_sum() of a piece of an array of T (whole elements), handing each
// 64 KiB of it to visit(elements, count) just after the checksum has read it,
// while it is in the cache: the loader's checks make no second pass over the
// matrix.
template <class T, class Visit>
std::uint64_t piece_sum_visiting(const Piece& piece, Visit visit) {
  constexpr std::size_t kBlockBytes = std::size_t{64} << 10;
  static_assert(kBlockBytes % sizeof(T) == 0, "blocks of whole elements");
  Checksum checksum;
  for (std::size_t done = 0; done < piece.bytes; done += kBlockBytes) {
    const std::size_t bytes = std::min(kBlockBytes, piece.bytes - done);
    checksum.update(piece.data + done, bytes);
    visit(reinterpret_cast<const T*>(piece.data + done), bytes / sizeof(T));
  }
  return checksum.value();
}

// A file descriptor for pread, closed on destruction.
class ReadFd {
 public:
  explicit ReadFd(const std::string& path) : fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {}
  ~ReadFd() {
    if (fd_ >= 0) ::close(fd_);
  }
  ReadFd(const ReadFd&) = delete;
  ReadFd& operator=(const ReadFd&) = delete;
  bool ok() const { return fd_ >= 0; }
  int get() const { return fd_; }
  // Reads up to `bytes` at `offset`, fewer only at the end of the file or
  // on an error; returns how many.
  std::size_t read_up_to(void* out, std::size_t bytes, std::uint64_t offset) const {
    auto* at = static_cast<char*>(out);
    std::size_t done = 0;
    while (done < bytes) {
      const ssize_t got = ::pread(fd_, at + done, bytes - done, static_cast<off_t>(offset + done));
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) break;
      done += static_cast<std::size_t>(got);
    }
    return done;
  }
  // Reads exactly `bytes` at `offset`; false on a short read or an error.
  bool read_at(char* out, std::size_t bytes, std::uint64_t offset) const {
    return read_up_to(out, bytes, offset) == bytes;
  }

 private:
  int fd_;
};

std::uint64_t header_hash(const Header& header) {
  Checksum checksum;
  checksum.update(&header, offsetof(Header, header_hash));
  return checksum.value();
}

[[noreturn]] void corrupt(const std::string& cache_path, const std::string& reason) {
  throw DataError(cache_path + ": corrupt cache: " + reason +
                  "; delete it to rebuild it from the text");
}

// write_cache() for a text identified by `id`.
void write_cache_of(const std::string& cache_path, const TextIdentity& id,
                    const ReadOptions& options, const LabeledCsc& data) {
  Header header{};
  std::memcpy(header.magic, kMagic, sizeof kMagic);
  header.version = kVersion;
  header.byte_order = kByteOrder;
  header.text_size = id.size;
  header.text_mtime_ns = id.mtime_ns;
  header.text_head_hash = id.head_hash;
  header.bias_bits = bits_of(options.bias);
  header.integer_labels = options.integer_labels;
  header.num_rows = data.features.num_rows;
  header.num_cols = data.features.num_cols;
  header.nnz = data.features.nnz();
  header.line_entries = data.lines.rows.size();
  const Layout layout = layout_of(header);
  const std::vector<Piece> pieces = pieces_of(data, layout);
  std::vector<std::uint64_t> sums(pieces.size());
  run_tasks_or_throw(pieces.size(), std::min(hardware_threads(), 4u),
                     [&](std::size_t k) { sums[k] = piece_sum(pieces[k]); });
  header.payload_hash = combine(sums);
  header.header_hash = header_hash(header);

  AtomicFileWriter out(cache_path);
  out.write(std::string_view(reinterpret_cast<const char*>(&header), sizeof header));
  std::size_t k = 0;
  for_each_array(data, [&](const void* p, std::size_t bytes) {
    static const std::string zeros(kMappableAlignment, '\0');
    out.write(std::string_view(zeros.data(), layout.gap_before(k++)));
    const char* bytes_at = static_cast<const char*>(p);
    for (std::size_t done = 0; done < bytes; done += kChunkBytes) {
      out.write(std::string_view(bytes_at + done, std::min(kChunkBytes, bytes - done)));
    }
  });
  out.commit();
}

// Whether there is a cache file to load; anything there but a regular file
// is an error.
bool cache_file_exists(const std::string& cache_path) {
  struct stat info {};
  if (::stat(cache_path.c_str(), &info) != 0) return false;
  if (!S_ISREG(info.st_mode)) throw IoError(cache_path + ": not a regular file");
  return true;
}

// The size of the file `fd` opened, which need not be the one stat() saw.
std::uint64_t opened_size(const ReadFd& fd, const std::string& cache_path) {
  struct stat info {};
  if (!fd.ok() || ::fstat(fd.get(), &info) != 0) {
    throw IoError(cache_path + ": cannot open for reading" + system_reason());
  }
  return static_cast<std::uint64_t>(info.st_size);
}

// The header of a cdlinear cache, checked against its checksum.
Header read_header(const ReadFd& fd, const std::string& cache_path, std::uint64_t file_size) {
  Header header{};
  const std::size_t got = fd.read_up_to(&header, sizeof header, 0);
  if (std::memcmp(header.magic, kMagic, std::min(got, sizeof kMagic)) != 0) {
    throw DataError(cache_path + ": not a cdlinear cache; refusing to use or replace it");
  }
  if (got < sizeof header) {
    corrupt(cache_path, "truncated (" + std::to_string(file_size) + " bytes, less than a header)");
  }
  if (header.header_hash != header_hash(header)) corrupt(cache_path, "header checksum mismatch");
  return header;
}

// Whether a cache is of this format and machine, and of the text `id` with
// these options; if not, it is stale.
bool is_current(const Header& header, const TextIdentity& id, const ReadOptions& options) {
  return header.version == kVersion && header.byte_order == kByteOrder &&
         header.text_size == id.size && header.text_mtime_ns == id.mtime_ns &&
         header.text_head_hash == id.head_hash && header.bias_bits == bits_of(options.bias) &&
         header.integer_labels == static_cast<std::uint64_t>(options.integer_labels);
}

// The layout of the header's counts, which must be possible (none may
// overflow) and fill the file exactly.
Layout checked_layout(const Header& header, std::uint64_t file_size,
                      const std::string& cache_path) {
  const bool sane = header.num_rows >= 1 && header.num_rows <= kMaxDimension &&
                    header.num_cols <= kMaxDimension + 1 &&
                    header.nnz <= (std::uint64_t{1} << 48) &&
                    header.line_entries <= header.num_rows;
  if (!sane) corrupt(cache_path, "impossible sizes in the header");
  const Layout layout = layout_of(header);
  const std::uint64_t expected = layout.end;
  if (file_size < expected) {
    corrupt(cache_path, "truncated (" + std::to_string(file_size) + " of " +
                            std::to_string(expected) + " bytes)");
  }
  if (file_size > expected) {
    corrupt(cache_path,
            std::to_string(file_size) + " bytes where the header says " + std::to_string(expected));
  }
  return layout;
}

// A cache's data with every array sized as its header says, to be read into,
// and whether the values are already there, mapped.
struct UnreadData {
  LabeledCsc data;
  bool values_mapped = false;
};

// The values, two thirds of the bulk, are mapped where they can be (the
// page cache's own pages, no copy: see util/file_pages.h), else read like
// the rest. The row numbers are always read: the solvers index arrays with
// them, so they must stay as checked here, and a mapped page that the run
// has not written shows the file as it is now, even if it was rewritten in
// place. A value rewritten under the run is a wrong number, never a wild
// index. A read lease would not make mapped row numbers safe: it is broken
// without the run noticing when its SIGIO goes unhandled, and the pages then
// change under the run.
UnreadData sized_data(const Header& header, const ReadFd& fd, const Layout& layout) {
  UnreadData unread;
  LabeledCsc& data = unread.data;
  CscMatrix& m = data.features;
  m.num_rows = static_cast<std::size_t>(header.num_rows);
  m.num_cols = static_cast<std::size_t>(header.num_cols);
  data.labels.resize(m.num_rows);
  m.col_ptr.resize(m.num_cols + 1);
  const auto nnz = static_cast<std::size_t>(header.nnz);
  const std::size_t value_bytes = nnz * sizeof(double);
  void* const value_pages =
      value_bytes >= kMapBytes ? map_file_pages(fd.get(), layout.offsets[3], value_bytes) : nullptr;
  unread.values_mapped = value_pages != nullptr;
  if (unread.values_mapped) {
    m.values = buffer_on_pages<double>(value_pages, nnz);
  } else {
    m.values.resize(nnz);
  }
  m.row_idx.resize(nnz);
  const auto entries = static_cast<std::size_t>(header.line_entries);
  data.lines.rows.resize(entries);
  data.lines.lines.resize(entries);
  return unread;
}

// What reading the payload found: whether it was all there, its checksum,
// and the largest row index and |value| (for the checks that follow).
struct PayloadScan {
  bool short_read = false;
  std::uint64_t checksum = 0;
  Index largest_row = 0;
  std::uint64_t largest_value = 0;  // magnitude_bits()
};

// piece_sum() of a piece just read; for a piece of the row numbers or of the
// values, also its largest entry (the values' as magnitude_bits()), found
// while the checksum reads it.
std::uint64_t scan_piece(const Piece& piece, const void* row_idx, const void* values,
                         Index& largest_row, std::uint64_t& largest_value) {
  if (piece.array == row_idx) {
    Index largest = 0;
    const std::uint64_t sum =
        piece_sum_visiting<Index>(piece, [&](const Index* rows, std::size_t count) {
          for (std::size_t i = 0; i < count; ++i) largest = std::max(largest, rows[i]);
        });
    largest_row = largest;
    return sum;
  }
  if (piece.array == values) {
    std::uint64_t largest = 0;
    const std::uint64_t sum =
        piece_sum_visiting<double>(piece, [&](const double* v, std::size_t count) {
          for (std::size_t i = 0; i < count; ++i) largest = std::max(largest, magnitude_bits(v[i]));
        });
    largest_value = largest;
    return sum;
  }
  return piece_sum(piece);
}

// Reads the payload into `unread` (but mapped values, which are there
// already) and scans it: the pieces are read, checksummed and (row indices)
// checked on threads.
PayloadScan read_payload(const ReadFd& fd, const Layout& layout, UnreadData& unread) {
  const std::vector<Piece> pieces = pieces_of(unread.data, layout);
  std::vector<std::uint64_t> sums(pieces.size());
  std::vector<Index> largest_row(pieces.size(), 0);
  std::vector<std::uint64_t> largest_value(pieces.size(), 0);  // magnitude_bits()
  std::vector<char> short_read(pieces.size(), 0);
  const void* const row_idx = unread.data.features.row_idx.data();
  const void* const values = unread.data.features.values.data();
  const bool values_mapped = unread.values_mapped;
  run_tasks_or_throw(pieces.size(), std::min(hardware_threads(), 4u), [&](std::size_t k) {
    const Piece& piece = pieces[k];
    const bool mapped = piece.array == values && values_mapped;
    if (!mapped && !fd.read_at(piece.data, piece.bytes, piece.offset)) {
      short_read[k] = 1;
      return;
    }
    sums[k] = scan_piece(piece, row_idx, values, largest_row[k], largest_value[k]);
  });
  PayloadScan scan;
  scan.short_read =
      std::any_of(short_read.begin(), short_read.end(), [](char c) { return c != 0; });
  scan.checksum = combine(sums);
  scan.largest_row = *std::max_element(largest_row.begin(), largest_row.end());
  scan.largest_value = *std::max_element(largest_value.begin(), largest_value.end());
  return scan;
}

// The zeros before an aligned array (under 64 KiB each) are read too: any
// byte that is not as written is a fault worth knowing about.
void check_gaps(const ReadFd& fd, const Layout& layout, const std::string& cache_path) {
  for (std::size_t k = 0; k < kArrays; ++k) {
    std::vector<char> gap(static_cast<std::size_t>(layout.gap_before(k)));
    if (!fd.read_at(gap.data(), gap.size(), layout.offsets[k] - gap.size()))
      corrupt(cache_path, "truncated while reading");
    if (std::any_of(gap.begin(), gap.end(), [](char c) { return c != 0; })) {
      corrupt(cache_path, "nonzero bytes between its arrays");
    }
  }
}

// The matrix must be one the solvers can walk: column offsets from 0 to nnz
// that never decrease, and row numbers below num_rows.
void check_matrix(const CscMatrix& m, Index largest_row, const std::string& cache_path) {
  const std::size_t nnz = m.row_idx.size();
  bool ok = m.col_ptr[0] == 0 && m.col_ptr[m.num_cols] == static_cast<std::int64_t>(nnz);
  for (std::size_t c = 0; ok && c < m.num_cols; ++c) ok = m.col_ptr[c] <= m.col_ptr[c + 1];
  if (!ok || (nnz > 0 && largest_row >= m.num_rows)) corrupt(cache_path, "inconsistent matrix");
}

// Labels as the reader left them: finite, and integers where the options
// ask for them (the classes are mapped from them without another check).
void check_labels(const std::vector<double>& labels, const ReadOptions& options,
                  const std::string& cache_path) {
  for (double label : labels) {
    if (!std::isfinite(label)) corrupt(cache_path, "a label is not finite");
    if (options.integer_labels && label != std::floor(label)) {
      corrupt(cache_path, "a label is not an integer");
    }
  }
}

// The line map as LineMap::add builds it: rows increasing from 0 and below
// num_rows, lines from 1 up, each entry's line more than its rows' distance
// past the previous one's, so that messages name real lines. (The line
// difference is taken only when positive: it cannot overflow.)
void check_lines(const LineMap& map, std::size_t num_rows, const std::string& cache_path) {
  const auto rows = static_cast<std::int64_t>(num_rows);
  for (std::size_t k = 0; k < map.rows.size(); ++k) {
    const bool ok = k == 0 ? map.rows[0] == 0 && map.lines[0] >= 1
                           : map.rows[k] > map.rows[k - 1] && map.rows[k] < rows &&
                                 map.lines[k] > map.lines[k - 1] &&
                                 map.lines[k] - map.lines[k - 1] > map.rows[k] - map.rows[k - 1];
    if (!ok) corrupt(cache_path, "inconsistent line map");
  }
}

}  // namespace

std::string default_cache_path(const std::string& data_path) { return data_path + ".cdcache"; }

void write_cache(const std::string& cache_path, const std::string& data_path,
                 const ReadOptions& options, const LabeledCsc& data) {
  write_cache_of(cache_path, identify(data_path), options, data);
}

std::optional<LabeledCsc> load_cache(const std::string& cache_path, const std::string& data_path,
                                     const ReadOptions& options) {
  if (!cache_file_exists(cache_path)) return std::nullopt;  // no cache yet
  errno = 0;
  const ReadFd fd(cache_path);
  const std::uint64_t file_size = opened_size(fd, cache_path);  // of the file opened
  const Header header = read_header(fd, cache_path, file_size);
  // Another format or machine, another text or other options: stale.
  if (!is_current(header, identify(data_path), options)) return std::nullopt;
  const Layout layout = checked_layout(header, file_size, cache_path);
  UnreadData unread = sized_data(header, fd, layout);
  const PayloadScan scan = read_payload(fd, layout, unread);
  if (scan.short_read) corrupt(cache_path, "truncated while reading");
  check_gaps(fd, layout, cache_path);
  if (scan.checksum != header.payload_hash) corrupt(cache_path, "payload checksum mismatch");
  check_matrix(unread.data.features, scan.largest_row, cache_path);
  check_labels(unread.data.labels, options, cache_path);
  check_lines(unread.data.lines, unread.data.features.num_rows, cache_path);
  unread.data.largest_magnitude = magnitude_of_bits(scan.largest_value);
  return std::move(unread.data);
}

LabeledCsc read_with_cache(const std::string& data_path, const ReadOptions& options,
                           const std::string& cache_path, CacheUse& use) {
  if (std::optional<LabeledCsc> cached = load_cache(cache_path, data_path, options)) {
    use.loaded = true;
    return std::move(*cached);
  }
  // The cache records the text as it was before parsing: a text changed
  // while being parsed no longer matches, and its cache is rebuilt.
  const TextIdentity id = identify(data_path);
  LabeledCsc data = read_libsvm_csc(data_path, options);
  try {
    write_cache_of(cache_path, id, options, data);
    use.written = true;
  } catch (const Error& e) {
    use.warning = std::string("cache not written: ") + e.what();
  }
  return data;
}

}  // namespace cdl
