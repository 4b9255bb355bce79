#include <gtest/gtest.h>

#include <charconv>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <system_error>
#include <vector>

#include "data/libsvm_line.h"

namespace cdl::detail {
namespace {

// The token with the padding the fast path may read past a line's end.
std::string padded(const std::string& token) {
  return token + "\n" + std::string(kLinePadding, '7');
}

// Reads "index:value" with the fast path; returns false if it declines.
bool fast(const std::string& token, std::uint64_t& index, double& value) {
  const std::string text = padded(token);
  const char* last = text.data() + token.size();
  Decimal decimal{};
  const char* end = scan_pair_fast(text.data(), last, index, decimal);
  if (end == nullptr) return false;
  EXPECT_EQ(end, last) << token;
  value = decimal_value(decimal);
  return true;
}

double from_chars_value(const std::string& text) {
  const char* first = text.data() + (text[0] == '+' ? 1 : 0);
  double value = 0;
  const auto [ptr, ec] = std::from_chars(first, text.data() + text.size(), value);
  EXPECT_EQ(ec, std::errc()) << text;
  EXPECT_EQ(ptr, text.data() + text.size()) << text;
  return value;
}

TEST(LibsvmLine, LeadingDigitsCountsUpToEight) {
  EXPECT_EQ(leading_digits(load8("12345678")), 8);
  EXPECT_EQ(leading_digits(load8("1234:678")), 4);
  EXPECT_EQ(leading_digits(load8(":2345678")), 0);
  EXPECT_EQ(leading_digits(load8("9/:09ABC")), 1);  // '/' and ':' border the digits
  EXPECT_EQ(leading_digits(load8("12\xFA\xFF"
                                 "5678")),
            2);
}

TEST(LibsvmLine, DigitsValueOfEachLength) {
  EXPECT_EQ(digits_value(load8("12345678"), 8), 12345678u);
  EXPECT_EQ(digits_value(load8("1234:678"), 4), 1234u);
  EXPECT_EQ(digits_value(load8("0000001x"), 7), 1u);
  EXPECT_EQ(digits_value(load8("9xxxxxxx"), 1), 9u);
}

// Every token the fast path takes gives exactly from_chars' double, and the
// ones it declines are the ones outside its form.
TEST(LibsvmLine, FastPathMatchesFromChars) {
  std::mt19937_64 random(7);
  const auto digits = [&](int count) {
    std::string out;
    for (int k = 0; k < count; ++k) out += static_cast<char>('0' + random() % 10);
    return out;
  };
  std::size_t taken = 0;
  for (int trial = 0; trial < 200000; ++trial) {
    const int whole = static_cast<int>(random() % 9);
    const int fraction = static_cast<int>(random() % 18);
    const bool point = random() % 4 != 0;
    const bool negative = random() % 3 == 0;
    std::string value = (negative ? "-" : "") + digits(whole) + (point ? "." : "") +
                        (point ? digits(fraction) : "");
    const std::string index = std::to_string(1 + random() % 9999999);
    std::uint64_t parsed_index = 0;
    double parsed = 0;
    const bool ok = fast(index + ":" + value, parsed_index, parsed);
    const int significant = whole + (point ? fraction : 0);
    const bool form = whole <= 7 && (!point || fraction <= 15) && significant > 0;
    if (!form) {
      EXPECT_FALSE(ok) << value;
      continue;
    }
    // Inside the form, the only refusal is a mantissa of 2^53 or more.
    if (!ok) {
      EXPECT_GE(significant, 16) << value;
      continue;
    }
    ++taken;
    EXPECT_EQ(parsed_index, std::stoull(index));
    const double expected = from_chars_value(value);
    EXPECT_EQ(std::memcmp(&parsed, &expected, sizeof parsed), 0) << value;  // same bits, -0 too
  }
  EXPECT_GT(taken, 100000u);
}

TEST(LibsvmLine, FastPathDeclinesOtherForms) {
  std::uint64_t index = 0;
  double value = 0;
  for (const char* token : {"1:1e-3", "1:+0.5", "1:0.5x", "1:", "1:-", "1:.", "0x1:1", ":1", "1 :1",
                            "12345678:1", "1:0.5:2", "1:nan", "1:0.5\r"}) {
    EXPECT_FALSE(fast(token, index, value)) << token;
  }
  EXPECT_TRUE(fast("7:5.", index, value));
  EXPECT_EQ(value, 5.0);
  EXPECT_TRUE(fast("7:-.25", index, value));
  EXPECT_EQ(value, -0.25);
  EXPECT_TRUE(fast("1234567:0.00988976", index, value));
  EXPECT_EQ(index, 1234567u);
  EXPECT_EQ(value, 0.00988976);
}

// A token followed by a blank or a comment ends there.
TEST(LibsvmLine, FastPathStopsAtBlanksAndComments) {
  for (const std::string rest : {" 2:1", "\t2:1", "#c"}) {
    const std::string text = padded("3:0.5" + rest);
    std::uint64_t index = 0;
    Decimal decimal{};
    const char* end = scan_pair_fast(text.data(), text.data() + 5 + rest.size(), index, decimal);
    ASSERT_NE(end, nullptr) << rest;
    EXPECT_EQ(end, text.data() + 5);
    EXPECT_EQ(decimal_value(decimal), 0.5);
  }
}

}  // namespace
}  // namespace cdl::detail
