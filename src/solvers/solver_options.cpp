#include "solvers/solver_options.h"

#include <cstdio>

#include "util/error.h"

namespace cdl {

void bad_value(const std::string& flag, const std::string& expected, const std::string& value) {
  throw ConfigError(flag + ": expected " + expected + ", got '" + value + "'");
}

double positive_number(const std::string& flag, const std::string& value) {
  double x = 0;
  if (!parse_double(value, x) || !(x > 0)) bad_value(flag, "a positive number", value);
  return x;
}

double number_in(const std::string& flag, const std::string& value, double low, double high) {
  double x = 0;
  if (!parse_double(value, x) || !(x > low && x < high)) {
    bad_value(flag, "a number in (" + show_number(low) + ", " + show_number(high) + ")", value);
  }
  return x;
}

std::string show_number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", value);
  return buffer;
}

}  // namespace cdl
