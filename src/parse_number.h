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

// Parses [first, last) as a finite double. Returns false on any leftover
// character, overflow, NaN or infinity.
inline bool parse_double(const char* first, const char* last, double& out) {
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
