#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "data/scale_ranges.h"
#include "test_util.h"
#include "util/error.h"

namespace cdl {
namespace {

// One instance of a fixture: label and 0-based pairs.
struct Instance {
  double label;
  std::vector<Index> indices;
  std::vector<double> values;
};

ScaleRanges find_ranges(const std::vector<Instance>& data, double lower, double upper,
                        bool labels = false, double label_lower = 0, double label_upper = 0) {
  RangeFinder finder;
  for (const Instance& x : data) {
    finder.add(x.label, x.indices.data(), x.values.data(), x.indices.size());
  }
  return finder.ranges(lower, upper, labels, label_lower, label_upper);
}

std::string scale_all(const ScaleRanges& ranges, const std::vector<Instance>& data) {
  RowScaler scaler(ranges);
  std::string out;
  for (const Instance& x : data) {
    scaler.append(x.label, x.indices.data(), x.values.data(), x.indices.size(), out);
  }
  return out;
}

std::string parse_error(const std::string& text) {
  return test::error_message([&] { parse_range_file("r", text); });
}

TEST(ScaleValue, MapsTheEndsExactlyAndIsLinearBetween) {
  EXPECT_EQ(scale_value(-2, -2, 4, -1, 1), -1);
  EXPECT_EQ(scale_value(4, -2, 4, -1, 1), 1);
  EXPECT_DOUBLE_EQ(scale_value(0, -2, 4, -1, 1), -1.0 / 3.0);
  EXPECT_DOUBLE_EQ(scale_value(1, -2, 4, 0, 1), 0.5);
  EXPECT_DOUBLE_EQ(scale_value(7, -2, 4, 0, 1), 1.5);  // beyond the range: not clipped
}

TEST(RangeFinder, CountsTheZerosOfInstancesThatLackAFeature) {
  // Feature 0 in every instance (1.5, 3): no zero. Feature 1 in one of
  // three (-2): [−2, 0]. Feature 2 constant 5 in all: left out. Feature 3
  // only zeros (explicit 0 and absent): constant, left out at the end.
  const std::vector<Instance> data = {
      {1, {0, 1, 2, 3}, {1.5, -2, 5, 0}}, {-1, {0, 2}, {3, 5}}, {1, {0, 2}, {2, 5}}};
  const ScaleRanges r = find_ranges(data, 0, 1);
  ASSERT_EQ(r.features.size(), 2u);
  EXPECT_EQ(r.features[0].min, 1.5);
  EXPECT_EQ(r.features[0].max, 3);
  EXPECT_EQ(r.features[1].min, -2);
  EXPECT_EQ(r.features[1].max, 0);
  EXPECT_FALSE(r.scales(2));
  EXPECT_FALSE(r.scales(3));
  EXPECT_FALSE(r.scale_labels);
  EXPECT_EQ(format_range_file(r), "x\n0 1\n1 1.5 3\n2 -2 0\n");
}

TEST(RangeFinder, LabelRangeForTheYSection) {
  const std::vector<Instance> data = {{3, {0}, {1}}, {5, {0}, {2}}, {4, {}, {}}};
  const ScaleRanges r = find_ranges(data, -1, 1, true, 0, 1);
  EXPECT_EQ(format_range_file(r), "y\n0 1\n3 5\nx\n-1 1\n1 0 2\n");
  // Labels 3, 5, 4 onto [0, 1]; feature 0's range [0, 2] onto [-1, 1].
  EXPECT_EQ(scale_all(r, data), "0\n1 1:1\n0.5 1:-1\n");
}

TEST(RowScaler, LowerZeroKeepsNonnegativeFeaturesSparse) {
  const std::vector<Instance> data = {{1, {0, 4}, {2, 8}}, {-1, {1}, {1}}, {1, {4}, {4}}};
  const ScaleRanges r = find_ranges(data, 0, 1);
  EXPECT_EQ(scale_all(r, data), "1 1:1 5:1\n-1 2:1\n1 5:0.5\n");
}

TEST(RowScaler, WritesTheScaledZerosThatAreNotZero) {
  // With [-1, 1] every absent feature becomes -1; a feature with a negative
  // min also turns its zeros nonzero under -l 0.
  const std::vector<Instance> data = {{1, {0, 1}, {2, -1}}, {-1, {1}, {3}}};
  const ScaleRanges r = find_ranges(data, -1, 1);
  EXPECT_EQ(scale_all(r, data), "1 1:1 2:-1\n-1 1:-1 2:1\n");
  const ScaleRanges r0 = find_ranges(data, 0, 1);
  EXPECT_EQ(scale_all(r0, data), "1 1:1\n-1 2:1\n");
  const std::vector<Instance> negative = {{1, {0}, {-4}}, {1, {}, {}}, {1, {0}, {4}}};
  EXPECT_EQ(scale_all(find_ranges(negative, 0, 1), negative), "1\n1 1:0.5\n1 1:1\n");
}

TEST(RowScaler, LeavesOutFeaturesWithoutARangeAndCountsPairs) {
  const ScaleRanges r = parse_range_file("r", "x\n0 1\n2 0 4\n");
  RowScaler scaler(r);
  std::string out;
  const std::vector<Index> indices = {0, 1, 6};
  const std::vector<double> values = {9, 1, 3};
  scaler.append(7, indices.data(), values.data(), indices.size(), out);
  EXPECT_EQ(out, "7 2:0.25\n");
  EXPECT_EQ(scaler.pairs_in(), 3);
  EXPECT_EQ(scaler.pairs_out(), 1);
}

TEST(RangeFile, RoundTripsExactly) {
  ScaleRanges r;
  r.lower = -0.1;
  r.upper = 1.0 / 3.0;
  r.scale_labels = true;
  r.label_lower = -1;
  r.label_upper = 1e-300;
  r.label_min = 0.1;
  r.label_max = 0.7;
  r.features = {{0.1, 0.2}, {0, 0}, {-3e100, 5.5}};
  const std::string text = format_range_file(r);
  EXPECT_EQ(text,
            "y\n-1 1e-300\n0.10000000000000001 0.69999999999999996\nx\n"
            "-0.10000000000000001 0.33333333333333331\n1 0.10000000000000001 "
            "0.20000000000000001\n3 -2.9999999999999999e+100 5.5\n");
  EXPECT_EQ(format_range_file(parse_range_file("r", text)), text);
}

TEST(RangeFile, AcceptsBlanksCrlfAndNoFinalNewline) {
  const ScaleRanges r = parse_range_file("r", "x\r\n\t0  1 \r\n  3\t-1 +2e0\n10 0 0.5");
  EXPECT_EQ(r.lower, 0);
  EXPECT_EQ(r.upper, 1);
  ASSERT_EQ(r.features.size(), 10u);
  EXPECT_TRUE(r.scales(2));
  EXPECT_EQ(r.features[2].min, -1);
  EXPECT_EQ(r.features[2].max, 2);
  EXPECT_FALSE(r.scales(5));
  EXPECT_EQ(r.features[9].max, 0.5);
  // A feature listed with min == max is constant: left out, not an error.
  EXPECT_FALSE(parse_range_file("r", "x\n0 1\n1 2 2\n").scales(0));
}

TEST(RangeFile, ErrorsNameTheLine) {
  EXPECT_EQ(parse_error(""),
            "r:1: unexpected end of file; expected 'x' or 'y' (a range file of cdscale or "
            "svm-scale)");
  EXPECT_EQ(parse_error("1 0 1\n"),
            "r:1: expected 'x' or 'y' (a range file of cdscale or svm-scale), got '1'");
  EXPECT_EQ(parse_error("x\n"), "r:2: unexpected end of file; expected 'lower upper'");
  EXPECT_EQ(parse_error("x\n0\n"), "r:2: expected 'lower upper', got 1 field");
  EXPECT_EQ(parse_error("x\n1 0\n"), "r:2: 'lower upper': '1' is not less than '0'");
  EXPECT_EQ(parse_error("x\n0 1x\n"), "r:2: 'lower upper': '1x' is not a finite number");
  EXPECT_EQ(parse_error("x\n0 1\n\n1 0 1\n"), "r:3: empty line");
  EXPECT_EQ(parse_error("x\n0 1\n1 0\n"), "r:3: expected 'index min max', got 2 fields");
  EXPECT_EQ(parse_error("x\n0 1\n0 0 1\n"),
            "r:3: feature index '0' is not an integer from 1 to 2147483647");
  EXPECT_EQ(parse_error("x\n0 1\n2147483648 0 1\n"),
            "r:3: feature index '2147483648' is not an integer from 1 to 2147483647");
  EXPECT_EQ(parse_error("x\n0 1\n1.5 0 1\n"),
            "r:3: feature index '1.5' is not an integer from 1 to 2147483647");
  EXPECT_EQ(parse_error("x\n0 1\n3 0 1\n2 0 1\n"),
            "r:4: feature index 2 not greater than previous index 3");
  EXPECT_EQ(parse_error("x\n0 1\n3 0 nan\n"), "r:3: feature 3's max: 'nan' is not a finite number");
  EXPECT_EQ(parse_error("x\n0 1\n3 2 1\n"), "r:3: feature 3: min '2' is greater than max '1'");
  EXPECT_EQ(parse_error("y\n0 1\n"), "r:3: unexpected end of file; expected 'label_min label_max'");
  EXPECT_EQ(parse_error("y\n0 1\n2 1\nx\n0 1\n"),
            "r:3: 'label_min label_max': '2' is greater than '1'");
  EXPECT_EQ(parse_error("y\n0 1\n1 2\n1 0 1\n"),
            "r:4: expected 'x' (the feature section), got '1'");
  EXPECT_EQ(parse_error("x\n0 1\nx\n"), "r:3: expected 'index min max', got 1 field");
  EXPECT_EQ(test::error_message([] { parse_range_file("r", "x\n0 1\n4 0 1\n", 3); }),
            "r:3: feature index 4: a range table that large needs more than half the available "
            "memory");
  EXPECT_TRUE(parse_range_file("r", "x\n0 1\n3 0 1\n", 3).scales(2));
}

}  // namespace
}  // namespace cdl
