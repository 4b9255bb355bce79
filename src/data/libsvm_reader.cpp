#include "data/libsvm_reader.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <functional>
#include <limits>
#include <system_error>

#include "data/input_file.h"
#include "data/parse_number.h"
#include "data/quote.h"
#include "util/error.h"
#include "util/parallel.h"

namespace cdl {
namespace {

constexpr std::size_t kInitialBuffer = std::size_t{1} << 20;
constexpr std::size_t kMinBuffer = 4096;

bool is_blank(char c) { return c == ' ' || c == '\t'; }

// Characters that end a token: the blanks and the start of a comment.
constexpr struct TokenEnds {
  bool table[256] = {};
  constexpr TokenEnds() {
    table[static_cast<unsigned char>(' ')] = true;
    table[static_cast<unsigned char>('\t')] = true;
    table[static_cast<unsigned char>('#')] = true;
  }
  constexpr bool operator[](unsigned char c) const { return table[c]; }
} kEndsToken;

std::string quoted(const char* first, const char* last) {
  return cdl::quoted(std::string_view(first, static_cast<std::size_t>(last - first)));
}

[[noreturn]] void throw_no_instances(const std::string& path) {
  throw Error(path + ": no instances (the file is empty or holds only comments)");
}

// Why [first, last) is not a finite double, for the error message.
std::string bad_number_reason(const char* first, const char* last) {
  if (first == last) return "is empty";
  const char* digits = (*first == '+' || *first == '-') ? first + 1 : first;
  double value = 0;
  auto [ptr, ec] = std::from_chars(digits, last, value, std::chars_format::general);
  const bool parsed = ec == std::errc() || ec == std::errc::result_out_of_range;
  if (parsed && ptr != last) return "has trailing characters";
  if (ec == std::errc::result_out_of_range) return "is out of the range of a double";
  if (ec == std::errc() && !std::isfinite(value)) return "is not a finite number";
  return "is not a number";
}

}  // namespace

LibsvmParser::LibsvmParser(const std::string& path, const ReadOptions& options)
    : LibsvmParser(path, options, 0, kToEnd) {}

LibsvmParser::LibsvmParser(const std::string& path, const ReadOptions& options, std::uint64_t begin,
                           std::uint64_t end)
    : path_(path),
      options_(options),
      remaining_(end - begin),
      whole_file_(begin == 0 && end == kToEnd),
      at_file_start_(begin == 0) {
  in_ = open_input_file(path);
  std::error_code ec;
  if (begin > 0 && !in_.seekg(static_cast<std::streamoff>(begin))) {
    throw IoError(path + ": cannot seek");
  }
  // A small file gets a small buffer (it grows for long lines anyway).
  const std::uint64_t size = std::filesystem::file_size(path, ec);
  const std::uint64_t to_read =
      ec || size < begin ? remaining_ : std::min(remaining_, size - begin);
  buffer_.resize(static_cast<std::size_t>(
      std::clamp<std::uint64_t>(std::max(to_read, to_read + 1), kMinBuffer, kInitialBuffer)));
}

void LibsvmParser::refill() {
  if (begin_ > 0) {
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (end_ == buffer_.size()) buffer_.resize(buffer_.size() * 2);  // a very long line
  const std::uint64_t want = std::min<std::uint64_t>(buffer_.size() - end_, remaining_);
  in_.read(buffer_.data() + end_, static_cast<std::streamsize>(want));
  const auto got = static_cast<std::size_t>(in_.gcount());
  if (in_.bad()) throw IoError(path_ + ": read error");
  end_ += got;
  remaining_ -= got;
  if (got == 0) eof_ = true;
}

template <bool kValues, class Sink>
bool LibsvmParser::next_instance(double& label, Sink& sink) {
  for (;;) {
    const char* data = buffer_.data();
    const void* newline = std::memchr(data + begin_, '\n', end_ - begin_);
    const char* first = data + begin_;
    const char* last = nullptr;
    if (newline != nullptr) {
      last = static_cast<const char*>(newline);
      begin_ = static_cast<std::size_t>(last - data) + 1;
    } else if (eof_) {
      if (begin_ == end_) {
        if (rows_ == 0 && whole_file_) throw_no_instances(path_);
        return false;
      }
      last = data + end_;  // final line without a newline
      begin_ = end_;
    } else {
      refill();
      continue;
    }
    ++line_;
    if (parse_line<kValues>(first, last, label, sink)) {
      ++rows_;
      return true;
    }
  }
}

bool LibsvmParser::next(ParsedRow& row) {
  row.indices.clear();
  row.values.clear();
  auto append = [&row](std::uint64_t index, double value) {
    row.indices.push_back(static_cast<Index>(index - 1));
    row.values.push_back(value);
  };
  if (!next_instance<true>(row.label, append)) return false;
  row.line = line_;
  return true;
}

// Files saved by some Windows editors start with a byte order mark, which is
// worth naming rather than quoting as a bad label.
void LibsvmParser::check_byte_order_mark(const char* first, const char* last) const {
  const auto starts_with = [&](const char* mark, std::size_t size) {
    return static_cast<std::size_t>(last - first) >= size && std::memcmp(first, mark, size) == 0;
  };
  if (starts_with("\xEF\xBB\xBF", 3)) {
    fail(first, first,
         "the file starts with a UTF-8 byte order mark (EF BB BF); save it without one");
  }
  if (starts_with("\xFF\xFE", 2) || starts_with("\xFE\xFF", 2)) {
    fail(first, first,
         "the file is UTF-16 text (it starts with a byte order mark); save it as "
         "ASCII or UTF-8");
  }
}

void LibsvmParser::fail(const char* line_start, const char* at, const std::string& reason) const {
  throw ParseError(path_, line_, reason + " (column " + std::to_string(at - line_start + 1) + ")");
}

// Parses one "index:value" token at [p, token_end) with the general (slow)
// conversions, throwing the precise error if it is malformed. Used when the
// fast path in parse_line meets anything unusual.
void LibsvmParser::parse_pair_general(const char* line_start, const char* p, const char* token_end,
                                      const char* last, std::uint64_t& index, double& value) const {
  const char* colon =
      static_cast<const char*>(std::memchr(p, ':', static_cast<std::size_t>(token_end - p)));
  if (colon == nullptr) {
    std::string reason = "expected index:value, got " + quoted(p, token_end);
    if (token_end != last && token_end + 1 != last && token_end[1] == ':') {
      reason += " (no spaces are allowed around ':')";
    }
    fail(line_start, p, reason);
  }
  if (colon == p)
    fail(line_start, p, "missing feature index before ':' in " + quoted(p, token_end));
  auto [ptr, ec] = std::from_chars(p, colon, index, 10);
  if (ec != std::errc() || ptr != colon) {
    if (*p == '-') {
      fail(line_start, p, "negative feature index " + quoted(p, colon) + ": indices are 1-based");
    }
    if (ec == std::errc::result_out_of_range) {
      fail(line_start, p, "feature index " + quoted(p, colon) + " exceeds 2147483647");
    }
    fail(line_start, p, "feature index " + quoted(p, colon) + " is not an integer");
  }
  if (index == 0) fail(line_start, p, "feature index 0: indices are 1-based");
  if (index > kMaxDimension) {
    fail(line_start, p, "feature index " + quoted(p, colon) + " exceeds 2147483647");
  }
  if (!parse_double(colon + 1, token_end, value)) {
    if (colon + 1 == token_end) {
      // "3: 0.5": the next token is a value, not a comment or another pair.
      bool space_then_value = token_end != last && is_blank(*token_end);
      if (space_then_value) {
        const char* next = token_end;
        while (next != last && is_blank(*next)) ++next;
        const char* next_end = next;
        while (next_end != last && !is_blank(*next_end)) ++next_end;
        space_then_value =
            next != last && *next != '#' &&
            std::memchr(next, ':', static_cast<std::size_t>(next_end - next)) == nullptr;
      }
      fail(line_start, colon + 1,
           "missing value after " + quoted(p, token_end) +
               (space_then_value ? " (no spaces are allowed around ':')" : ""));
    }
    fail(line_start, colon + 1,
         "value " + quoted(colon + 1, token_end) + " of feature " + std::to_string(index) + " " +
             bad_number_reason(colon + 1, token_end));
  }
}

// Parses one line (without its '\n'). Returns false for a comment-only line.
// With kValues false the values are skipped unchecked (the first pass of
// read_libsvm_csc, which needs only the indices); everything else is checked.
template <bool kValues, class Sink>
bool LibsvmParser::parse_line(const char* first, const char* last, double& label, Sink& sink) {
  const char* const line_start = first;
  if (last != first && last[-1] == '\r') --last;  // CRLF
  const auto token_char = [last](const char* q) {
    return q != last && !kEndsToken[static_cast<unsigned char>(*q)];
  };
  const char* p = first;
  while (p != last && is_blank(*p)) ++p;
  if (p == last) fail(line_start, line_start, "empty line");
  if (*p == '#') return false;

  // The label.
  const char* token_end = p;
  while (token_char(token_end)) ++token_end;
  if (std::memchr(p, ':', static_cast<std::size_t>(token_end - p)) != nullptr) {
    fail(line_start, p, "missing label: line starts with feature " + quoted(p, token_end));
  }
  if (!parse_double(p, token_end, label)) {
    if (at_file_start_ && line_ == 1) check_byte_order_mark(line_start, last);
    fail(line_start, p, "label " + quoted(p, token_end) + " " + bad_number_reason(p, token_end));
  }
  if (options_.integer_labels) {
    if (label != std::floor(label) || std::fabs(label) > 2147483647.0) {
      fail(line_start, p, "label " + quoted(p, token_end) + " is not an integer class label");
    }
  }
  // The index:value pairs. The fast path takes plain digits, ':' and a simple
  // decimal; anything else goes through parse_pair_general.
  constexpr int kMaxFastIndexDigits = 10;
  std::uint64_t previous = 0;
  p = token_end;
  for (;;) {
    while (p != last && is_blank(*p)) ++p;
    if (p == last || *p == '#') break;
    std::uint64_t index = 0;
    double value = 0;
    const char* q = p;
    while (q != last && *q >= '0' && *q <= '9' && q - p < kMaxFastIndexDigits) {
      index = index * 10 + static_cast<std::uint64_t>(*q - '0');
      ++q;
    }
    const char* end = nullptr;
    if (q != p && q != last && *q == ':' && index != 0 && index <= kMaxDimension) {
      if (kValues) {
        end = detail::scan_simple_decimal(q + 1, last, value);
        if (end != nullptr && token_char(end)) end = nullptr;
      } else {
        end = q + 1;
        while (token_char(end)) ++end;
        if (end == q + 1) end = nullptr;
      }
    }
    if (end == nullptr) {
      end = p;
      while (token_char(end)) ++end;
      parse_pair_general(line_start, p, end, last, index, value);
    }
    if (index <= previous) {
      fail(line_start, p,
           index == previous ? "duplicate feature index " + std::to_string(index)
                             : "feature index " + std::to_string(index) +
                                   " not greater than previous index " + std::to_string(previous));
    }
    previous = index;
    sink(index, value);
    p = end;
  }
  return true;
}

std::uint64_t available_memory() {
  std::uint64_t limit = std::numeric_limits<std::uint64_t>::max();
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page_size > 0) {
    limit = static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size);
  }
  // A container's limit: cgroup v2, then v1 ("max" or a huge value: none).
  for (const char* file :
       {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
    std::ifstream in(file);
    std::string text;
    std::uint64_t value = 0;
    if (in >> text && parse_integer(text, value) && value > 0) limit = std::min(limit, value);
  }
  struct rlimit address_space {};
  if (getrlimit(RLIMIT_AS, &address_space) == 0 && address_space.rlim_cur != RLIM_INFINITY) {
    limit = std::min<std::uint64_t>(limit, address_space.rlim_cur);
  }
  return limit;
}

std::int64_t line_of_instance(const std::string& path, std::size_t row) {
  LibsvmParser parser(path, ReadOptions{});
  ParsedRow parsed;
  for (std::size_t r = 0; parser.next(parsed); ++r) {
    if (r == row) return parsed.line;
  }
  throw Error(path + ": has no instance " + std::to_string(row + 1));
}

LabeledCsr read_libsvm_csr(const std::string& path, const ReadOptions& options) {
  LibsvmParser parser(path, options);
  LabeledCsr out;
  CsrMatrix& m = out.features;
  auto append = [&m](std::uint64_t index, double value) {
    m.col_idx.push_back(static_cast<Index>(index - 1));
    m.values.push_back(value);
    m.num_cols = std::max<std::size_t>(m.num_cols, index);
  };
  double label = 0;
  while (parser.next_instance<true>(label, append)) {
    if (m.num_rows == kMaxDimension) {
      throw ParseError(path, parser.lines_read(), "more than 2^31-1 instances");
    }
    out.labels.push_back(label);
    m.row_ptr.push_back(static_cast<std::int64_t>(m.values.size()));
    ++m.num_rows;
  }
  return out;
}

namespace {

// Splits the file into up to `parts` byte ranges of at least `min_bytes`
// that each start at a line.
std::vector<std::uint64_t> line_aligned_splits(const std::string& path, std::size_t parts,
                                               std::uint64_t min_bytes) {
  std::error_code ec;
  const std::uint64_t size = std::filesystem::file_size(path, ec);
  std::vector<std::uint64_t> splits{0};
  if (ec) return {0, LibsvmParser::kToEnd};
  parts = static_cast<std::size_t>(std::max<std::uint64_t>(
      1, std::min<std::uint64_t>(parts, size / std::max<std::uint64_t>(min_bytes, 1))));
  std::ifstream in(path, std::ios::binary);
  for (std::size_t k = 1; k < parts; ++k) {
    std::uint64_t pos = size * k / parts;
    if (pos <= splits.back()) continue;
    in.seekg(static_cast<std::streamoff>(pos - 1));
    char c = 0;
    while (in.get(c) && c != '\n') ++pos;  // pos becomes the start of the next line
    if (!in) break;
    if (pos < size && pos > splits.back()) splits.push_back(pos);
  }
  splits.push_back(LibsvmParser::kToEnd);
  return splits;
}

// One byte range's share of read_libsvm_csc.
struct Chunk {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  std::vector<double> labels;
  std::vector<std::int64_t> slots;  // pass 1: nonzeros per column; pass 2: next free slot
  std::vector<std::int64_t> ends;   // pass 2: one past the chunk's last slot per column
  std::int64_t lines = 0;
};

// Runs body(chunk) for every chunk, one thread each, and rethrows the first
// error in file order with its line number counted from the start of the file.
template <class Body>
void for_each_chunk(const std::string& path, std::vector<Chunk>& chunks, Body body) {
  const std::vector<std::exception_ptr> errors = run_tasks(
      chunks.size(), static_cast<unsigned>(chunks.size()), [&](std::size_t k) { body(chunks[k]); });
  std::int64_t lines_before = 0;
  for (std::size_t k = 0; k < chunks.size(); ++k) {
    if (errors[k]) {
      try {
        std::rethrow_exception(errors[k]);
      } catch (const ParseError& e) {
        throw ParseError(path, e.line() + lines_before, e.reason());
      }
    }
    lines_before += chunks[k].lines;
  }
}

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

[[noreturn]] void file_changed(const std::string& path) {
  throw IoError(path + ": the file changed while it was being read");
}

// The first pass skips the values, so a bad value before the line it stopped
// at has not been seen yet. A full check from the top of the file finds the
// first error in file order; it runs only on this error path.
[[noreturn]] void report_first_error(const std::string& path, const ReadOptions& options) {
  try {
    LibsvmParser parser(path, options);
    ParsedRow row;
    while (parser.next(row)) {
    }
  } catch (const ParseError&) {
    throw;
  } catch (...) {
  }
  throw;  // the pass-1 error being handled
}

}  // namespace

LabeledCsc read_libsvm_csc(const std::string& path, const ReadOptions& options) {
  // Each thread holds two counters per column, so the default stays small.
  constexpr unsigned kMaxDefaultThreads = 4;
  const unsigned threads =
      options.threads > 0 ? options.threads : std::min(hardware_threads(), kMaxDefaultThreads);
  const std::vector<std::uint64_t> splits =
      line_aligned_splits(path, threads, options.min_bytes_per_thread);
  std::vector<Chunk> chunks(splits.size() - 1);
  for (std::size_t k = 0; k < chunks.size(); ++k) {
    chunks[k].begin = splits[k];
    chunks[k].end = splits[k + 1];
  }

  // The column arrays: slots and ends per chunk, col_ptr and next.
  const std::uint64_t bytes_per_column = 16 * chunks.size() + 16;
  const std::uint64_t memory_limit =
      options.column_memory_limit > 0 ? options.column_memory_limit : available_memory();
  const std::uint64_t max_columns = memory_limit / bytes_per_column;

  // Pass 1: labels, the number of nonzeros of each column, and every check
  // except the values'.
  try {
    for_each_chunk(path, chunks, [&](Chunk& chunk) {
      LibsvmParser parser(path, options, chunk.begin, chunk.end);
      auto count = [&](std::uint64_t index, double) {
        if (index > chunk.slots.size()) {
          const auto too_large = [&](const std::string& than) {
            return ParseError(path, parser.lines_read(),
                              "feature index " + std::to_string(index) + " is too large: reading " +
                                  std::to_string(index) + " columns needs " +
                                  format_bytes(static_cast<double>(index) *
                                               static_cast<double>(bytes_per_column)) +
                                  ", more than " + than);
          };
          if (index > max_columns) {
            throw too_large("the " + format_bytes(static_cast<double>(memory_limit)) +
                            (options.column_memory_limit > 0 ? " allowed" : " of memory here"));
          }
          try {
            chunk.slots.resize(index, 0);
          } catch (const std::bad_alloc&) {
            throw too_large("the memory available");
          }
        }
        ++chunk.slots[index - 1];
      };
      double label = 0;
      while (parser.next_instance<false>(label, count)) chunk.labels.push_back(label);
      chunk.lines = parser.lines_read();
    });
  } catch (const ParseError&) {
    report_first_error(path, options);
  }

  LabeledCsc out;
  CscMatrix& m = out.features;
  for (const Chunk& chunk : chunks) {
    m.num_rows += chunk.labels.size();
    m.num_cols = std::max(m.num_cols, chunk.slots.size());
  }
  if (m.num_rows == 0) throw_no_instances(path);
  if (m.num_rows > kMaxDimension) {
    throw Error(path + ": more than 2^31-1 instances");
  }
  std::uint64_t nnz = 0;
  for (const Chunk& chunk : chunks) {
    for (std::int64_t count : chunk.slots) nnz += static_cast<std::uint64_t>(count);
  }
  // Pass 2 allocates the matrix and scatters the values; running out of
  // memory there names the sizes that were too big.
  auto fill = [&] {
    out.labels.reserve(m.num_rows);
    m.col_ptr.assign(m.num_cols + 1, 0);
    for (Chunk& chunk : chunks) {
      out.labels.insert(out.labels.end(), chunk.labels.begin(), chunk.labels.end());
      chunk.slots.resize(m.num_cols, 0);
      for (std::size_t c = 0; c < m.num_cols; ++c) m.col_ptr[c + 1] += chunk.slots[c];
    }
    for (std::size_t c = 0; c < m.num_cols; ++c) m.col_ptr[c + 1] += m.col_ptr[c];
    // Chunk k's entries of column c follow those of chunks 0..k-1, so every
    // column lists its rows in increasing order.
    std::vector<std::int64_t> next(m.col_ptr.begin(), m.col_ptr.end() - 1);
    for (Chunk& chunk : chunks) {
      chunk.ends.resize(m.num_cols);
      for (std::size_t c = 0; c < m.num_cols; ++c) {
        const std::int64_t count = chunk.slots[c];
        chunk.slots[c] = next[c];
        next[c] += count;
        chunk.ends[c] = next[c];
      }
    }
    const std::size_t capacity = nnz + (options.bias >= 0 ? m.num_rows : 0);
    m.row_idx.reserve(capacity);
    m.values.reserve(capacity);
    m.row_idx.resize(nnz);
    m.values.resize(nnz);

    // Pass 2: the values, scattered into place.
    std::vector<std::size_t> first_row(chunks.size(), 0);
    for (std::size_t k = 1; k < chunks.size(); ++k) {
      first_row[k] = first_row[k - 1] + chunks[k - 1].labels.size();
    }
    for_each_chunk(path, chunks, [&](Chunk& chunk) {
      const std::size_t k = static_cast<std::size_t>(&chunk - chunks.data());
      LibsvmParser parser(path, options, chunk.begin, chunk.end);
      std::size_t r = first_row[k];
      const std::size_t stop = r + chunk.labels.size();
      // Every write is checked against the counts of pass 1, and every slot
      // must be filled, so a file changed between the passes is an error and
      // never an out-of-bounds write or an unwritten entry.
      auto scatter = [&](std::uint64_t index, double value) {
        if (index > m.num_cols || r == stop) file_changed(path);
        if (chunk.slots[index - 1] == chunk.ends[index - 1]) file_changed(path);
        const auto slot = static_cast<std::size_t>(chunk.slots[index - 1]++);
        m.row_idx[slot] = static_cast<Index>(r);
        m.values[slot] = value;
      };
      double label = 0;
      while (parser.next_instance<true>(label, scatter)) {
        if (r == stop || label != out.labels[r]) file_changed(path);
        ++r;
      }
      if (r != stop || chunk.slots != chunk.ends) file_changed(path);
    });
    if (options.bias >= 0) append_constant_column(m, options.bias);
  };
  try {
    fill();
  } catch (const std::bad_alloc&) {
    const double bytes = 12.0 * static_cast<double>(nnz) + 8.0 * static_cast<double>(m.num_rows) +
                         static_cast<double>(bytes_per_column) * static_cast<double>(m.num_cols);
    throw Error(path + ": out of memory: " + std::to_string(m.num_rows) + " instances, " +
                std::to_string(m.num_cols) + " features and " + std::to_string(nnz) +
                " nonzeros need about " + format_bytes(bytes));
  }
  return out;
}

}  // namespace cdl
