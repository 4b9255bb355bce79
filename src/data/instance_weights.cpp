#include "data/instance_weights.h"

#include <cstdint>

#include "data/input_file.h"
#include "data/parse_number.h"
#include "data/quote.h"
#include "util/error.h"

namespace cdl {
namespace {

std::string_view trimmed(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  const auto first = line.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = line.find_last_not_of(" \t");
  return line.substr(first, last - first + 1);
}

}  // namespace

std::vector<double> parse_instance_weights(std::string_view text, const std::string& name,
                                           std::size_t rows) {
  std::vector<double> weights;
  weights.reserve(rows);
  std::int64_t line = 0;
  bool any_positive = false;
  while (!text.empty()) {
    ++line;
    const auto end = text.find('\n');
    const std::string_view token = trimmed(text.substr(0, end));
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    if (weights.size() == rows) {
      throw ParseError(name, line,
                       "more weights than the " + std::to_string(rows) +
                           " instances of the training data (one weight a line)");
    }
    double value = 0;
    if (token.empty()) {
      throw ParseError(name, line,
                       "expected an instance weight (a number >= 0), got an empty line");
    }
    if (!parse_double(token, value)) {
      throw ParseError(name, line,
                       "expected an instance weight (a finite number >= 0), got " + quoted(token));
    }
    if (value < 0) {
      throw ParseError(name, line, "instance weight " + printable(token) + " is negative");
    }
    any_positive = any_positive || value > 0;
    weights.push_back(value);
  }
  if (weights.size() < rows) {
    throw ParseError(name, line + 1,
                     "the file ends after " + std::to_string(weights.size()) +
                         " weights; the training data has " + std::to_string(rows) +
                         " instances (one weight a line)");
  }
  if (!any_positive && rows > 0) {
    throw ParseError(name, line, "every instance weight is 0: there is nothing to train on");
  }
  return weights;
}

std::vector<double> read_instance_weights(const std::string& path, std::size_t rows) {
  InputStream in(path);
  std::string text;
  char buffer[1 << 16];
  for (std::size_t got = in.read(buffer, sizeof buffer); got > 0;
       got = in.read(buffer, sizeof buffer)) {
    text.append(buffer, got);
  }
  return parse_instance_weights(text, in.name(), rows);
}

}  // namespace cdl
