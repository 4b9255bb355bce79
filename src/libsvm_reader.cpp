#include "libsvm_reader.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <system_error>

#include "error.h"
#include "parse_number.h"

namespace cdl {
namespace {

constexpr std::size_t kInitialBuffer = std::size_t{1} << 20;
constexpr std::size_t kMaxTokenShown = 40;

bool is_blank(char c) { return c == ' ' || c == '\t'; }

// A token as it can be shown in a message: printable ASCII kept, anything
// else (NUL, control bytes, non-ASCII) as \xNN, long tokens shortened.
std::string printable(const char* first, const char* last) {
  std::string out;
  const char* stop = last - first > static_cast<std::ptrdiff_t>(kMaxTokenShown)
                         ? first + kMaxTokenShown
                         : last;
  for (const char* p = first; p != stop; ++p) {
    const auto c = static_cast<unsigned char>(*p);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      constexpr char kHex[] = "0123456789ABCDEF";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  if (stop != last) out += "...";
  return out;
}

std::string quoted(const char* first, const char* last) {
  return "'" + printable(first, last) + "'";
}

// Why [first, last) is not a finite double, for the error message.
std::string bad_number_reason(const char* first, const char* last) {
  if (first == last) return "is empty";
  const char* digits = (*first == '+' || *first == '-') ? first + 1 : first;
  double value = 0;
  auto [ptr, ec] = std::from_chars(digits, last, value, std::chars_format::general);
  if (ec == std::errc::result_out_of_range) return "is out of the range of a double";
  if (ec == std::errc() && ptr == last && !std::isfinite(value)) {
    return "is not a finite number";
  }
  if (ec == std::errc() && ptr != last) return "has trailing characters";
  return "is not a number";
}

}  // namespace

LibsvmParser::LibsvmParser(const std::string& path, const ReadOptions& options)
    : path_(path), options_(options) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) {
    throw IoError(path + ": cannot open: no such file");
  }
  if (std::filesystem::is_directory(status)) throw IoError(path + ": is a directory");
  if (!std::filesystem::is_regular_file(status)) throw IoError(path + ": not a regular file");
  in_.open(path, std::ios::binary);
  if (!in_) throw IoError(path + ": cannot open for reading");
  buffer_.resize(kInitialBuffer);
}

void LibsvmParser::refill() {
  if (begin_ > 0) {
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (end_ == buffer_.size()) buffer_.resize(buffer_.size() * 2);  // a very long line
  in_.read(buffer_.data() + end_, static_cast<std::streamsize>(buffer_.size() - end_));
  const auto got = static_cast<std::size_t>(in_.gcount());
  if (in_.bad()) throw IoError(path_ + ": read error");
  end_ += got;
  if (got == 0) eof_ = true;
}

bool LibsvmParser::next(ParsedRow& row) {
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
        if (rows_ == 0) {
          throw Error(path_ + ": no instances (the file is empty or holds only comments)");
        }
        return false;
      }
      last = data + end_;  // final line without a newline
      begin_ = end_;
    } else {
      refill();
      continue;
    }
    ++line_;
    const bool is_instance =
        parse_values_ ? parse_line<true>(first, last, row) : parse_line<false>(first, last, row);
    if (is_instance) {
      ++rows_;
      return true;
    }
  }
}

void LibsvmParser::fail(const char* line_start, const char* at, const std::string& reason) const {
  throw ParseError(path_, line_,
                   reason + " (column " + std::to_string(at - line_start + 1) + ")");
}

// Parses one "index:value" token at [p, token_end) with the general (slow)
// conversions, throwing the precise error if it is malformed. Used when the
// fast path in parse_line meets anything unusual.
void LibsvmParser::parse_pair_general(const char* line_start, const char* p,
                                      const char* token_end, const char* last,
                                      std::uint64_t& index, double& value) const {
  const char* colon =
      static_cast<const char*>(std::memchr(p, ':', static_cast<std::size_t>(token_end - p)));
  if (colon == nullptr) {
    std::string reason = "expected index:value, got " + quoted(p, token_end);
    if (token_end != last && token_end + 1 != last && token_end[1] == ':') {
      reason += " (no spaces are allowed around ':')";
    }
    fail(line_start, p, reason);
  }
  if (colon == p) fail(line_start, p, "missing feature index before ':' in " + quoted(p, token_end));
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
      fail(line_start, colon + 1, "missing value after " + quoted(p, token_end));
    }
    fail(line_start, colon + 1,
         "value " + quoted(colon + 1, token_end) + " of feature " + std::to_string(index) + " " +
             bad_number_reason(colon + 1, token_end));
  }
}

// Parses one line (without its '\n'). Returns false for a comment-only line.
// With kValues false the values are skipped unchecked (the first pass of
// read_libsvm_csc, which needs only the indices); everything else is checked.
template <bool kValues>
bool LibsvmParser::parse_line(const char* first, const char* last, ParsedRow& row) {
  const char* const line_start = first;
  if (last != first && last[-1] == '\r') --last;  // CRLF
  const auto token_char = [last](const char* q) {
    return q != last && !is_blank(*q) && *q != '#';
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
  if (!parse_double(p, token_end, row.label)) {
    fail(line_start, p, "label " + quoted(p, token_end) + " " + bad_number_reason(p, token_end));
  }
  if (options_.integer_labels) {
    if (row.label != std::floor(row.label) || std::fabs(row.label) > 2147483647.0) {
      fail(line_start, p, "label " + quoted(p, token_end) + " is not an integer class label");
    }
  }
  row.line = line_;
  row.indices.clear();
  row.values.clear();

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
                                   " not greater than previous index " +
                                   std::to_string(previous));
    }
    previous = index;
    row.indices.push_back(static_cast<Index>(index - 1));
    if (kValues) row.values.push_back(value);
    p = end;
  }
  return true;
}

LabeledCsr read_libsvm_csr(const std::string& path, const ReadOptions& options) {
  LibsvmParser parser(path, options);
  LabeledCsr out;
  CsrMatrix& m = out.features;
  ParsedRow row;
  while (parser.next(row)) {
    if (m.num_rows == kMaxDimension) throw ParseError(path, row.line, "more than 2^31-1 instances");
    out.labels.push_back(row.label);
    m.col_idx.insert(m.col_idx.end(), row.indices.begin(), row.indices.end());
    m.values.insert(m.values.end(), row.values.begin(), row.values.end());
    if (!row.indices.empty()) m.num_cols = std::max<std::size_t>(m.num_cols, row.indices.back() + 1);
    m.row_ptr.push_back(static_cast<std::int64_t>(m.values.size()));
    ++m.num_rows;
  }
  return out;
}

LabeledCsc read_libsvm_csc(const std::string& path, const ReadOptions& options) {
  LabeledCsc out;
  CscMatrix& m = out.features;
  ParsedRow row;
  std::vector<std::int64_t> counts;  // counts[c + 1] = nonzeros in column c
  {
    LibsvmParser parser(path, options);
    parser.set_parse_values(false);  // the second pass checks them
    while (parser.next(row)) {
      if (m.num_rows == kMaxDimension) {
        throw ParseError(path, row.line, "more than 2^31-1 instances");
      }
      out.labels.push_back(row.label);
      if (!row.indices.empty() && row.indices.back() + std::size_t{2} > counts.size()) {
        counts.resize(row.indices.back() + std::size_t{2}, 0);
      }
      for (Index c : row.indices) ++counts[c + std::size_t{1}];
      ++m.num_rows;
    }
  }
  m.num_cols = counts.empty() ? 0 : counts.size() - 1;
  counts.resize(m.num_cols + 1, 0);
  for (std::size_t c = 0; c < m.num_cols; ++c) counts[c + 1] += counts[c];
  m.col_ptr = counts;
  const auto nnz = static_cast<std::size_t>(m.col_ptr.back());
  const std::size_t capacity = nnz + (options.bias >= 0 ? m.num_rows : 0);
  m.row_idx.reserve(capacity);
  m.values.reserve(capacity);
  m.row_idx.resize(nnz);
  m.values.resize(nnz);
  counts.pop_back();  // now counts[c] is the next free slot of column c

  LibsvmParser parser(path, options);
  std::size_t r = 0;
  while (parser.next(row)) {
    if (r == m.num_rows || row.label != out.labels[r]) {
      throw IoError(path + ": the file changed while it was being read");
    }
    for (std::size_t k = 0; k < row.indices.size(); ++k) {
      const Index c = row.indices[k];
      if (c >= m.num_cols) throw IoError(path + ": the file changed while it was being read");
      const auto slot = static_cast<std::size_t>(counts[c]++);
      m.row_idx[slot] = static_cast<Index>(r);
      m.values[slot] = row.values[k];
    }
    ++r;
  }
  if (r != m.num_rows) throw IoError(path + ": the file changed while it was being read");
  if (options.bias >= 0) append_constant_column(m, options.bias);
  return out;
}

}  // namespace cdl
