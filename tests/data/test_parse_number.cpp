#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>

#include "data/parse_number.h"

namespace cdl {
namespace {

// The reference: std::from_chars on the text without a leading '+'.
double reference(const std::string& text) {
  const char* first = text.data();
  if (*first == '+') ++first;
  double value = 0;
  std::from_chars(first, text.data() + text.size(), value);
  return value;
}

TEST(ParseDouble, AgreesBitForBitWithFromCharsOnManyDecimals) {
  std::mt19937_64 rng(12345);
  const char* formats[] = {"%.6g", "%.17g", "%.3f", "%.12e", "%.1f", "%.20f", "%.15g"};
  for (int k = 0; k < 200000; ++k) {
    const double magnitude = std::ldexp(static_cast<double>(rng() >> 11), -53);
    const int scale = static_cast<int>(rng() % 40) - 20;
    double x = magnitude * std::pow(10.0, scale) * ((rng() & 1) ? 1 : -1);
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, formats[k % 7], x);
    std::string text = buffer;
    if (k % 5 == 0 && text[0] != '-') text = "+" + text;
    double parsed = 0;
    ASSERT_TRUE(parse_double(text, parsed)) << text;
    const double expected = reference(text);
    ASSERT_EQ(std::memcmp(&parsed, &expected, sizeof parsed), 0) << text;
  }
}

TEST(ParseDouble, AcceptsTheUsualSpellings) {
  const std::pair<const char*, double> cases[] = {
      {"1", 1.0},
      {"-1", -1.0},
      {"+1", 1.0},
      {".5", 0.5},
      {"5.", 5.0},
      {"1e-3", 1e-3},
      {"1E+2", 100.0},
      {"-0.25", -0.25},
      {"0001.5", 1.5},
      {"0", 0.0},
      {"1e22", 1e22},
      {"1e23", 1e23},
      {"123456789012345678901234567890", 1.2345678901234568e29},
      {"4.9e-324", 4.9e-324},
      {"1.7976931348623157e308", 1.7976931348623157e308},
  };
  for (const auto& [text, value] : cases) {
    double parsed = 0;
    EXPECT_TRUE(parse_double(text, parsed)) << text;
    EXPECT_EQ(parsed, value) << text;
  }
  double negative_zero = 1;
  ASSERT_TRUE(parse_double("-0", negative_zero));
  EXPECT_TRUE(std::signbit(negative_zero));
}

TEST(ParseDouble, RejectsAnythingButACompleteFiniteNumber) {
  for (const char* text : {"",    " ",    "+",    "-",        ".",     "e5",     "1e",   "1e+",
                           "1x",  "0.5 ", " 0.5", "1..2",     "+-1",   "-+1",    "++1",  "nan",
                           "NaN", "inf",  "-inf", "infinity", "1e999", "-1e999", "0x10", "1,5"}) {
    double parsed = 0;
    EXPECT_FALSE(parse_double(text, parsed)) << "'" << text << "'";
  }
}

TEST(ParseInteger, StrictDecimal) {
  int value = 0;
  EXPECT_TRUE(parse_integer("42", value));
  EXPECT_EQ(value, 42);
  EXPECT_TRUE(parse_integer("+7", value));
  EXPECT_EQ(value, 7);
  EXPECT_TRUE(parse_integer("-3", value));
  EXPECT_EQ(value, -3);
  for (const char* text : {"", "+", "4x", "1.0", "99999999999", "+-1", " 1"}) {
    EXPECT_FALSE(parse_integer(text, value)) << text;
  }
  unsigned long long big = 0;
  EXPECT_FALSE(parse_integer("-1", big));
}

}  // namespace
}  // namespace cdl
