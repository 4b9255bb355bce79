// Feature scaling as LIBSVM's svm-scale does it, for cdscale: each feature is
// mapped linearly from its range in the training data, [min, max], onto
// [lower, upper], and optionally the labels from [label_min, label_max] onto
// [label_lower, label_upper].
//
// A feature's range counts the zeros of the instances that lack it, so that
// the scaled file means the same as the original: an absent feature is a 0,
// and a 0 whose scaled value is not 0 (lower != 0, or a negative min) is
// written out. A feature whose min equals its max (constant in the data, or
// not in the range file) is left out of the output, as svm-scale leaves it.
//
// The range file is svm-scale's text format, read and written by both tools:
//
//   y                      (optional: the label section)
//   label_lower label_upper
//   label_min label_max
//   x
//   lower upper
//   index min max          (one line per non-constant feature, increasing)
//
// Bounds are written with "%.17g", so a file round-trips exactly and is byte
// for byte the file svm-scale writes for the same data.
#ifndef CDL_SCALE_RANGES_H_
#define CDL_SCALE_RANGES_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "data/sparse_matrix.h"

namespace cdl {

struct FeatureRange {
  double min = 0;
  double max = 0;
};

struct ScaleRanges {
  double lower = -1;
  double upper = 1;
  bool scale_labels = false;
  double label_lower = 0;
  double label_upper = 0;
  double label_min = 0;
  double label_max = 0;
  // features[j] is the range of the 0-based feature j; the vector ends at the
  // last feature that is scaled.
  std::vector<FeatureRange> features;

  // Whether feature j (0-based) is scaled, rather than left out.
  bool scales(std::size_t j) const {
    return j < features.size() && features[j].min < features[j].max;
  }
};

// The value `value` of a range [min, max] (min < max) mapped onto [lower,
// upper]: exactly lower at min and upper at max, linear in between (and
// beyond, for test data outside the training range).
inline double scale_value(double value, double min, double max, double lower, double upper) {
  if (value == min) return lower;
  if (value == max) return upper;
  return lower + (upper - lower) * (value - min) / (max - min);
}

// Finds the ranges of a data set, one instance at a time, in
// kRangeBytesPerFeature bytes per feature up to the largest index.
inline constexpr std::size_t kRangeBytesPerFeature = sizeof(FeatureRange) + sizeof(std::int64_t);

class RangeFinder {
 public:
  // Adds one instance: its label and its `count` pairs (0-based indices,
  // increasing).
  void add(double label, const Index* indices, const double* values, std::size_t count);

  // The ranges found, to be mapped onto [lower, upper] (and the labels onto
  // [label_lower, label_upper] if scale_labels). Precondition: lower < upper.
  ScaleRanges ranges(double lower, double upper, bool scale_labels, double label_lower,
                     double label_upper) const;

  std::int64_t instances() const { return instances_; }

 private:
  std::int64_t instances_ = 0;
  double label_min_ = 0;
  double label_max_ = 0;
  std::vector<FeatureRange> present_;         // range of the values present
  std::vector<std::int64_t> instances_with_;  // instances that have feature j
};

// The range file's text, in svm-scale's format.
std::string format_range_file(const ScaleRanges& ranges);

// Parses a range file's text; `name` names it in errors. Throws ParseError
// "name:line: reason" on anything malformed: a missing or unknown section
// line, a bound that is not a finite number, lower >= upper, min > max, an
// index that is not a positive integer below 2^31 or does not increase, a
// wrong number of fields, an empty line, an index whose range table would
// not fit in half the available memory. Accepts CRLF line ends, blanks
// around the fields and a missing final newline.
// `max_index` bounds the indices (0: as many as half the available memory
// holds).
ScaleRanges parse_range_file(const std::string& name, std::string_view text,
                             std::uint64_t max_index = 0);

// Reads and parses the range file at `path` (a regular file); throws IoError
// if it cannot be read.
ScaleRanges read_range_file(const std::string& path);

// Writes instances scaled by a ScaleRanges as LIBSVM text. A pair is written
// when its scaled value is not 0; so are the scaled zeros of the features an
// instance lacks, when they are not 0. Costs O(pairs + features whose
// scaled zero is not 0) per instance.
class RowScaler {
 public:
  explicit RowScaler(const ScaleRanges& ranges);

  // Appends one instance's line to `out`. Pairs of features the ranges do
  // not scale are left out.
  void append(double label, const Index* indices, const double* values, std::size_t count,
              std::string& out);

  std::int64_t pairs_in() const { return pairs_in_; }
  std::int64_t pairs_out() const { return pairs_out_; }

 private:
  const ScaleRanges& ranges_;
  // The features whose scaled zero is not 0, with that value's text.
  std::vector<Index> zero_fill_;
  std::vector<std::string> zero_fill_text_;
  std::int64_t pairs_in_ = 0;
  std::int64_t pairs_out_ = 0;
};

// Appends the shortest text that reads back as exactly `value`.
void append_shortest(std::string& out, double value);

}  // namespace cdl

#endif  // CDL_SCALE_RANGES_H_
