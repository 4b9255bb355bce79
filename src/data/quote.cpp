#include "data/quote.h"

namespace cdl {
namespace {

constexpr std::size_t kMaxShown = 40;

}  // namespace

std::string printable(std::string_view text) {
  std::string out;
  std::size_t k = 0;
  for (; k < text.size() && out.size() < kMaxShown; ++k) {
    const auto c = static_cast<unsigned char>(text[k]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      constexpr char kHex[] = "0123456789ABCDEF";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  if (k != text.size()) out += "...";
  return out;
}

std::string quoted(std::string_view text) { return "'" + printable(text) + "'"; }

}  // namespace cdl
