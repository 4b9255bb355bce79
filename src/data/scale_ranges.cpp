#include "data/scale_ranges.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <limits>

#include "data/input_file.h"
#include "data/libsvm_reader.h"
#include "data/parse_number.h"
#include "data/quote.h"
#include "util/error.h"

namespace cdl {
namespace {

// "%.17g": the range file's precision, the same as svm-scale's, so that the
// bounds read back exactly and both tools write the same bytes.
void append_exact(std::string& out, double value) {
  char buffer[32];
  const int length = std::snprintf(buffer, sizeof buffer, "%.17g", value);
  out.append(buffer, static_cast<std::size_t>(length));
}

// The blank-separated fields of one line.
std::vector<std::string_view> fields_of(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t p = 0;
  while (p < line.size()) {
    while (p < line.size() && (line[p] == ' ' || line[p] == '\t')) ++p;
    const std::size_t start = p;
    while (p < line.size() && line[p] != ' ' && line[p] != '\t') ++p;
    if (p > start) fields.push_back(line.substr(start, p - start));
  }
  return fields;
}

// Walks a range file line by line, with the checks every line shares.
class RangeFileLines {
 public:
  RangeFileLines(const std::string& name, std::string_view text) : name_(name), text_(text) {}

  // The fields of the next line, or false at the end of the text.
  bool next(std::vector<std::string_view>& fields) {
    if (position_ >= text_.size()) return false;
    std::size_t end = text_.find('\n', position_);
    if (end == std::string_view::npos) end = text_.size();
    std::string_view line = text_.substr(position_, end - position_);
    position_ = end + 1;
    ++line_;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    fields = fields_of(line);
    if (fields.empty()) fail("empty line");
    return true;
  }

  // The fields of the next line, which must exist: `expected` says what it
  // should hold.
  std::vector<std::string_view> require(const std::string& expected) {
    std::vector<std::string_view> fields;
    if (!next(fields)) {
      ++line_;
      fail("unexpected end of file; expected " + expected);
    }
    return fields;
  }

  // The two numbers "a b" of a bounds line, a < b (or a <= b if allow_equal).
  void bounds(const std::string& what, bool allow_equal, double& a, double& b) {
    const auto fields = require(what);
    if (fields.size() != 2) fail(count_message(what, fields.size()));
    a = number(fields[0], what);
    b = number(fields[1], what);
    if (allow_equal ? a > b : a >= b) {
      fail(what + ": " + cdl::quoted(fields[0]) +
           (allow_equal ? " is greater than " : " is not less than ") + cdl::quoted(fields[1]));
    }
  }

  double number(std::string_view field, const std::string& what) {
    double value = 0;
    if (!parse_double(field, value)) {
      fail(what + ": " + cdl::quoted(field) + " is not a finite number");
    }
    return value;
  }

  std::string count_message(const std::string& what, std::size_t count) {
    return "expected " + what + ", got " + std::to_string(count) + " field" +
           (count == 1 ? "" : "s");
  }

  [[noreturn]] void fail(const std::string& reason) { throw ParseError(name_, line_, reason); }

 private:
  const std::string& name_;
  std::string_view text_;
  std::size_t position_ = 0;
  std::int64_t line_ = 0;
};

}  // namespace

void RangeFinder::add(double label, const Index* indices, const double* values, std::size_t count) {
  if (instances_ == 0) {
    label_min_ = label_max_ = label;
  } else {
    label_min_ = std::min(label_min_, label);
    label_max_ = std::max(label_max_, label);
  }
  ++instances_;
  if (count > 0 && indices[count - 1] >= present_.size()) {
    const std::size_t size = std::size_t{indices[count - 1]} + 1;
    present_.resize(
        size, {std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()});
    instances_with_.resize(size, 0);
  }
  for (std::size_t k = 0; k < count; ++k) {
    FeatureRange& range = present_[indices[k]];
    range.min = std::min(range.min, values[k]);
    range.max = std::max(range.max, values[k]);
    ++instances_with_[indices[k]];
  }
}

ScaleRanges RangeFinder::ranges(double lower, double upper, bool scale_labels, double label_lower,
                                double label_upper) const {
  ScaleRanges out;
  out.lower = lower;
  out.upper = upper;
  out.scale_labels = scale_labels;
  if (scale_labels) {
    out.label_lower = label_lower;
    out.label_upper = label_upper;
    out.label_min = label_min_;
    out.label_max = label_max_;
  }
  out.features.resize(present_.size());
  for (std::size_t j = 0; j < present_.size(); ++j) {
    FeatureRange range = present_[j];
    if (instances_with_[j] == 0) {
      range = {0, 0};
    } else if (instances_with_[j] < instances_) {  // some instances hold a 0
      range.min = std::min(range.min, 0.0);
      range.max = std::max(range.max, 0.0);
    }
    out.features[j] = range;
  }
  while (!out.features.empty() && !out.scales(out.features.size() - 1)) out.features.pop_back();
  return out;
}

std::string format_range_file(const ScaleRanges& ranges) {
  std::string out;
  const auto line = [&out](double a, double b) {
    append_exact(out, a);
    out += ' ';
    append_exact(out, b);
    out += '\n';
  };
  if (ranges.scale_labels) {
    out += "y\n";
    line(ranges.label_lower, ranges.label_upper);
    line(ranges.label_min, ranges.label_max);
  }
  out += "x\n";
  line(ranges.lower, ranges.upper);
  for (std::size_t j = 0; j < ranges.features.size(); ++j) {
    if (!ranges.scales(j)) continue;
    out += std::to_string(j + 1);
    out += ' ';
    line(ranges.features[j].min, ranges.features[j].max);
  }
  return out;
}

ScaleRanges parse_range_file(const std::string& name, std::string_view text,
                             std::uint64_t max_index) {
  RangeFileLines lines(name, text);
  ScaleRanges out;
  const std::string section = "'x' or 'y' (a range file of cdscale or svm-scale)";
  auto fields = lines.require(section);
  if (fields.size() != 1 || (fields[0] != "x" && fields[0] != "y")) {
    lines.fail("expected " + section + ", got " + cdl::quoted(fields[0]));
  }
  if (fields[0] == "y") {
    out.scale_labels = true;
    lines.bounds("'label_lower label_upper'", false, out.label_lower, out.label_upper);
    lines.bounds("'label_min label_max'", true, out.label_min, out.label_max);
    fields = lines.require("'x'");
    if (fields.size() != 1 || fields[0] != "x") {
      lines.fail("expected 'x' (the feature section), got " + cdl::quoted(fields[0]));
    }
  }
  lines.bounds("'lower upper'", false, out.lower, out.upper);
  const std::string feature_line = "'index min max'";
  const std::uint64_t index_limit =
      max_index > 0 ? max_index : available_memory() / 2 / sizeof(FeatureRange);
  std::uint64_t previous = 0;
  while (lines.next(fields)) {
    if (fields.size() != 3) lines.fail(lines.count_message(feature_line, fields.size()));
    std::uint64_t index = 0;
    if (!parse_integer(fields[0], index) || index == 0 || index > kMaxDimension) {
      lines.fail("feature index " + cdl::quoted(fields[0]) +
                 " is not an integer from 1 to 2147483647");
    }
    if (index <= previous) {
      lines.fail("feature index " + std::to_string(index) + " not greater than previous index " +
                 std::to_string(previous));
    }
    if (index > index_limit) {
      lines.fail("feature index " + std::to_string(index) +
                 ": a range table that large needs more than half the available memory");
    }
    previous = index;
    const double min = lines.number(fields[1], "feature " + std::to_string(index) + "'s min");
    const double max = lines.number(fields[2], "feature " + std::to_string(index) + "'s max");
    if (min > max) {
      lines.fail("feature " + std::to_string(index) + ": min " + cdl::quoted(fields[1]) +
                 " is greater than max " + cdl::quoted(fields[2]));
    }
    out.features.resize(index);
    out.features[index - 1] = {min, max};
  }
  while (!out.features.empty() && !out.scales(out.features.size() - 1)) out.features.pop_back();
  return out;
}

ScaleRanges read_range_file(const std::string& path) {
  std::ifstream in = open_input_file(path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw IoError(path + ": read error");
  return parse_range_file(path, text);
}

void append_shortest(std::string& out, double value) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, result.ptr);
}

RowScaler::RowScaler(const ScaleRanges& ranges) : ranges_(ranges) {
  for (std::size_t j = 0; j < ranges.features.size(); ++j) {
    if (!ranges.scales(j)) continue;
    const FeatureRange& range = ranges.features[j];
    const double zero = scale_value(0, range.min, range.max, ranges.lower, ranges.upper);
    if (zero == 0) continue;
    zero_fill_.push_back(static_cast<Index>(j));
    std::string text = ' ' + std::to_string(j + 1) + ':';
    append_shortest(text, zero);
    zero_fill_text_.push_back(std::move(text));
  }
}

void RowScaler::append(double label, const Index* indices, const double* values, std::size_t count,
                       std::string& out) {
  if (ranges_.scale_labels) {
    label = scale_value(label, ranges_.label_min, ranges_.label_max, ranges_.label_lower,
                        ranges_.label_upper);
  }
  append_shortest(out, label);
  pairs_in_ += static_cast<std::int64_t>(count);
  std::size_t fill = 0;  // the next feature of zero_fill_
  for (std::size_t k = 0; k < count; ++k) {
    const Index j = indices[k];
    for (; fill < zero_fill_.size() && zero_fill_[fill] < j; ++fill) {
      out += zero_fill_text_[fill];
      ++pairs_out_;
    }
    if (fill < zero_fill_.size() && zero_fill_[fill] == j) ++fill;
    if (!ranges_.scales(j)) continue;
    const FeatureRange& range = ranges_.features[j];
    const double scaled =
        scale_value(values[k], range.min, range.max, ranges_.lower, ranges_.upper);
    if (scaled == 0) continue;
    out += ' ';
    out += std::to_string(std::uint64_t{j} + 1);
    out += ':';
    append_shortest(out, scaled);
    ++pairs_out_;
  }
  for (; fill < zero_fill_.size(); ++fill) {
    out += zero_fill_text_[fill];
    ++pairs_out_;
  }
  out += '\n';
}

}  // namespace cdl
