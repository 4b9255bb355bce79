// The grammar of one line of LIBSVM text (see libsvm_reader.h), shared by the
// row parser and the one-pass column reader. Internal to src/data.
//
// parse_libsvm_line() is a template over the sink that receives each
// instance's pairs, so that the column reader's per-pair work is inlined into
// the scanning loop. The common form "index:decimal" takes a fast path of
// plain digit loops; anything unusual is re-scanned by the general code,
// which finds the precise error.
#ifndef CDL_LIBSVM_LINE_H_
#define CDL_LIBSVM_LINE_H_

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "data/libsvm_reader.h"
#include "data/parse_number.h"
#include "data/quote.h"
#include "data/sparse_matrix.h"

namespace cdl {
namespace detail {

// Where the parser stands, for messages: the input's name, the options, the
// physical line being parsed (1-based, counted by the caller) and whether the
// text starts at the first byte of the input (for the byte-order-mark hint).
struct LineContext {
  const std::string& name;
  const ReadOptions& options;
  std::int64_t line;
  bool at_input_start;
};

// Throws ParseError "name:line: reason (column c)", c being at's column.
[[noreturn]] void fail_at(const LineContext& context, const char* line_start, const char* at,
                          const std::string& reason);

// The error for a label [p, token_end) that is not a valid number.
[[noreturn]] void fail_label(const LineContext& context, const char* line_start, const char* last,
                             const char* p, const char* token_end);

// Parses one "index:value" token at [p, token_end) with the general (slow)
// conversions, throwing the precise error if it is malformed.
void parse_pair_general(const LineContext& context, const char* line_start, const char* p,
                        const char* token_end, const char* last, std::uint64_t& index,
                        double& value);

// The error for pair `index` that does not come after `previous`.
[[noreturn]] void fail_order(const LineContext& context, const char* line_start, const char* p,
                             std::uint64_t index, std::uint64_t previous);

// Throws Error "name: no instances (...)".
[[noreturn]] void throw_no_instances(const std::string& name);

// At the start of an input: throws Error naming the format and the pipe to
// use if [data, data + size) starts with a compression format's magic bytes.
void check_not_compressed(const std::string& name, const ReadOptions& options, const char* data,
                          std::size_t size);

inline bool is_blank(char c) { return c == ' ' || c == '\t'; }

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

// Bytes that must be readable after a line's end (the fast path loads eight
// bytes at a time and may look past the end of the line).
constexpr std::size_t kLinePadding = 16;

// The eight bytes at p, the first in the lowest byte.
inline std::uint64_t load8(const char* p) {
  std::uint64_t word = 0;
  std::memcpy(&word, p, sizeof word);
  return word;
}

// The number of leading bytes of `word` (in memory order) that are ASCII
// digits, 0 to 8. A carry out of a byte >= 0xFA can only disturb the bytes
// after it, which come after a non-digit and so do not count.
inline int leading_digits(std::uint64_t word) {
  constexpr std::uint64_t kHigh = 0xF0F0F0F0F0F0F0F0;
  const std::uint64_t high = word & kHigh;
  const std::uint64_t low = ((word + 0x0606060606060606) & kHigh) >> 4;
  const std::uint64_t mismatch = (high | low) ^ 0x3333333333333333;
  return mismatch == 0 ? 8 : __builtin_ctzll(mismatch) >> 3;
}

// The value of the first `count` (1 to 8) bytes of `word`, all digits.
inline std::uint64_t digits_value(std::uint64_t word, int count) {
  word = (word - 0x3030303030303030) << (8 * (8 - count));  // leading zeros
  word = word * 10 + (word >> 8);
  word = (((word & 0x000000FF000000FF) * (100 + (std::uint64_t{1000000} << 32))) +
          (((word >> 16) & 0x000000FF000000FF) * (1 + (std::uint64_t{10000} << 32)))) >>
         32;
  return word;
}

// A value the fast path read as [-]digits[.digits]: mantissa (all the
// digits, less than 2^53) / 10^fraction_digits.
struct Decimal {
  std::uint64_t mantissa;
  unsigned fraction_digits;  // 0 to 15
  bool negative;
};

// The double nearest a Decimal: both operands are exact doubles, so one
// division rounds correctly, the same as scan_simple_decimal and from_chars.
inline double decimal_value(const Decimal& d) {
  static constexpr double kPow10[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                      1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
  const double magnitude = static_cast<double>(d.mantissa) / kPow10[d.fraction_digits];
  return d.negative ? -magnitude : magnitude;
}

// The fast path for one "index:value" token at p, where the index has 1 to
// 7 digits and the value is [-]digits[.digits] with at most 7 digits before
// the point, at most 15 after it and a mantissa below 2^53. On success sets
// `index` and `value` and returns the end of the token, which is followed by
// a blank, '#' or `last`; otherwise returns nullptr (the general path then
// reads the token). Needs kLinePadding readable bytes after `last`, and
// *last not a digit.
inline const char* scan_pair_fast(const char* p, const char* last, std::uint64_t& index,
                                  Decimal& value) {
  static constexpr std::uint64_t kPow10[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000};
  std::uint64_t word = load8(p);
  const int index_digits = leading_digits(word);
  if (index_digits == 0 || index_digits == 8 || p[index_digits] != ':') return nullptr;
  index = digits_value(word, index_digits);
  p += index_digits + 1;
  value.negative = *p == '-';
  p += value.negative;
  word = load8(p);
  const int whole_digits = leading_digits(word);
  if (whole_digits == 8) return nullptr;
  std::uint64_t mantissa = whole_digits > 0 ? digits_value(word, whole_digits) : 0;
  p += whole_digits;
  int fraction_digits = 0;
  if (*p == '.') {
    ++p;
    word = load8(p);
    int digits = leading_digits(word);
    if (digits == 8) {  // a second word: up to 15 digits in all
      mantissa = mantissa * 100000000 + digits_value(word, 8);
      p += 8;
      fraction_digits = 8;
      word = load8(p);
      digits = leading_digits(word);
      if (digits == 8) return nullptr;
    }
    if (digits > 0) mantissa = mantissa * kPow10[digits] + digits_value(word, digits);
    p += digits;
    fraction_digits += digits;
  }
  if (whole_digits + fraction_digits == 0 || mantissa >= (std::uint64_t{1} << 53)) return nullptr;
  if (p != last && !kEndsToken[static_cast<unsigned char>(*p)]) return nullptr;  // e.g. "1e-3"
  value.mantissa = mantissa;
  value.fraction_digits = static_cast<unsigned>(fraction_digits);
  return p;
}

// Adapts a callable f(index, double) to parse_libsvm_line's sink.
template <class F>
struct DoubleSink {
  F& f;
  void value(std::uint64_t index, double x) { f(index, x); }
  void decimal(std::uint64_t index, const Decimal& d) { f(index, decimal_value(d)); }
};

// Parses one line [first, last) (without its '\n') into `label` and calls,
// for each pair in order, sink.decimal(index_1_based, decimal) if the fast
// path read it, else sink.value(index_1_based, value). Returns false for a
// comment-only line. Throws ParseError on anything malformed. The caller
// guarantees kLinePadding readable bytes after `last` and that *last is '\n',
// '\r' or '\0' (the fast path stops there).
template <class Sink>
bool parse_libsvm_line(const LineContext& context, const char* first, const char* last,
                       double& label, Sink& sink) {
  const char* const line_start = first;
  if (last != first && last[-1] == '\r') --last;  // CRLF
  const auto token_char = [last](const char* q) {
    return q != last && !kEndsToken[static_cast<unsigned char>(*q)];
  };
  const char* p = first;
  while (p != last && is_blank(*p)) ++p;
  if (p == last) fail_at(context, line_start, line_start, "empty line");
  if (*p == '#') return false;

  // The label: a simple decimal, or the general conversion.
  const char* token_end = detail::scan_simple_decimal(p, last, label);
  if (token_end == nullptr || token_char(token_end)) {
    token_end = p;
    while (token_char(token_end)) ++token_end;
    if (std::memchr(p, ':', static_cast<std::size_t>(token_end - p)) != nullptr ||
        !parse_double(p, token_end, label)) {
      fail_label(context, line_start, last, p, token_end);
    }
  }
  if (context.options.integer_labels) {
    if (label != std::floor(label) || std::fabs(label) > 2147483647.0) {
      fail_at(context, line_start, p,
              "label " + quoted(std::string_view(p, static_cast<std::size_t>(token_end - p))) +
                  " is not an integer class label");
    }
  }
  // The index:value pairs: the fast path above, then the general one of
  // parse_pair_general, which also finds the precise error.
  std::uint64_t previous = 0;
  p = token_end;
  for (;;) {
    while (p != last && is_blank(*p)) ++p;
    if (p == last || *p == '#') break;
    std::uint64_t index = 0;
    Decimal decimal;
    const char* end = scan_pair_fast(p, last, index, decimal);
    if (end != nullptr && index != 0) {
      if (index <= previous) fail_order(context, line_start, p, index, previous);
      sink.decimal(index, decimal);
    } else {
      double value = 0;
      end = p;
      while (token_char(end)) ++end;
      parse_pair_general(context, line_start, p, end, last, index, value);
      if (index <= previous) fail_order(context, line_start, p, index, previous);
      sink.value(index, value);
    }
    previous = index;
    p = end;
  }
  return true;
}

}  // namespace detail
}  // namespace cdl

#endif  // CDL_LIBSVM_LINE_H_
