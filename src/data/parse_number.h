// Strict conversion of text tokens to numbers, shared by the data reader, the
// model loader and the command line.
//
// "Strict" means the whole token must convert: "0.1x", "", " 1" and "1e999"
// are all rejected, unlike atof/strtod/std::stod. Conversion uses
// std::from_chars, so it is locale-independent and fast. A leading '+' is
// accepted, as strtod accepts it and LIBSVM files often carry "+1" labels.
#ifndef CDL_PARSE_NUMBER_H_
#define CDL_PARSE_NUMBER_H_

#include <charconv>
#include <cmath>
#include <cstdint>
#include <string_view>
#include <system_error>

namespace cdl {

namespace detail {

// Clinger's fast path: a decimal "[-+]digits[.digits][(e|E)[-+]digits]" whose
// significant digits fit in 2^53 and whose power of ten is at most 22 in
// magnitude is m * 10^e or m / 10^-e with both operands exact doubles, so one
// IEEE operation gives the correctly rounded result, the same as from_chars.
// Reads the longest such prefix of [p, last) and returns the pointer after it,
// or nullptr (without an answer) if the prefix is not a simple decimal; the
// caller then falls back to from_chars.
inline const char* scan_simple_decimal(const char* p, const char* last, double& out) {
  static constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                      1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                      1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  constexpr std::uint64_t kMaxExact = std::uint64_t{1} << 53;
  bool negative = false;
  if (p != last && (*p == '-' || *p == '+')) negative = *p++ == '-';
  // Up to 19 digits cannot overflow 64 bits; the 2^53 test comes once, after.
  constexpr int kMaxDigits = 19;
  std::uint64_t mantissa = 0;
  int exponent = 0;
  int digits = 0;
  for (; p != last && static_cast<unsigned>(*p - '0') < 10; ++p, ++digits) {
    mantissa = mantissa * 10 + static_cast<std::uint64_t>(*p - '0');
  }
  if (p != last && *p == '.') {
    const char* fraction = ++p;
    for (; p != last && static_cast<unsigned>(*p - '0') < 10; ++p) {
      mantissa = mantissa * 10 + static_cast<std::uint64_t>(*p - '0');
    }
    exponent = -static_cast<int>(p - fraction);
    digits -= exponent;
  }
  if (digits == 0 || digits > kMaxDigits || mantissa >= kMaxExact) return nullptr;
  if (p != last && (*p == 'e' || *p == 'E')) {
    ++p;
    bool negative_exponent = false;
    if (p != last && (*p == '-' || *p == '+')) negative_exponent = *p++ == '-';
    int value = 0;
    int exponent_digits = 0;
    for (; p != last && *p >= '0' && *p <= '9'; ++p, ++exponent_digits) {
      if (exponent_digits == 4) return nullptr;
      value = value * 10 + (*p - '0');
    }
    if (exponent_digits == 0) return nullptr;
    exponent += negative_exponent ? -value : value;
  }
  const auto m = static_cast<double>(mantissa);
  double value = 0;
  if (mantissa == 0) {
    value = 0;
  } else if (exponent >= 0 && exponent <= 22) {
    value = m * kPow10[exponent];
  } else if (exponent < 0 && exponent >= -22) {
    value = m / kPow10[-exponent];
  } else {
    return nullptr;
  }
  out = negative ? -value : value;
  return p;
}

}  // namespace detail

// Parses [first, last) as a finite double. Returns false on any leftover
// character, overflow, NaN or infinity.
inline bool parse_double(const char* first, const char* last, double& out) {
  if (detail::scan_simple_decimal(first, last, out) == last) return true;
  if (first != last && *first == '+') {
    ++first;
    if (first != last && (*first == '-' || *first == '+')) return false;
  }
  if (first == last) return false;
  auto [ptr, ec] = std::from_chars(first, last, out, std::chars_format::general);
  return ec == std::errc() && ptr == last && std::isfinite(out);
}

inline bool parse_double(std::string_view text, double& out) {
  return parse_double(text.data(), text.data() + text.size(), out);
}

// Parses [first, last) as a decimal integer of type Int, with an optional
// leading '+' (and '-' for signed types). Returns false on leftovers or
// overflow.
template <class Int>
bool parse_integer(const char* first, const char* last, Int& out) {
  if (first != last && *first == '+') {
    ++first;
    if (first != last && (*first == '-' || *first == '+')) return false;
  }
  if (first == last) return false;
  auto [ptr, ec] = std::from_chars(first, last, out, 10);
  return ec == std::errc() && ptr == last;
}

template <class Int>
bool parse_integer(std::string_view text, Int& out) {
  return parse_integer(text.data(), text.data() + text.size(), out);
}

}  // namespace cdl

#endif  // CDL_PARSE_NUMBER_H_
