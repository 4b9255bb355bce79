// cdscale: scales the features of a LIBSVM-format file linearly onto [lower,
// upper] and writes the scaled file to standard output, in the manner of
// LIBSVM's svm-scale, whose range files it reads and writes (see
// src/data/scale_ranges.h for the rules and the format).
//
//   cdscale -l 0 -s range train > train.scale
//   cdscale -r range test > test.scale
//
// A regular file is read twice, once for the ranges and once to scale it, so
// that memory stays O(features); standard input and pipes are held in
// memory. With -r the ranges come from the file, and the first pass only
// checks the data, so that a malformed file never leaves half an output.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "data/input_file.h"
#include "data/libsvm_reader.h"
#include "data/parse_number.h"
#include "data/quote.h"
#include "data/scale_ranges.h"
#include "tool_main.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "version.h"

namespace cdl {
namespace {

std::string scale_usage() {
  return "usage: cdscale [options] data_file > scaled_file\n"
         "Try 'cdscale -h' for the options.\n";
}

std::string scale_help() {
  return "Usage: cdscale [options] data_file > scaled_file\n"
         "Scales each feature of a LIBSVM-format file linearly onto [lower, upper] and writes\n"
         "the scaled file to standard output, as LIBSVM's svm-scale does; its range files\n"
         "are read and written by both tools. data_file '-' is standard input.\n"
         "options:\n"
         "-l lower : lower bound of the scaled features (default -1); with -l 0, features\n"
         "           that are never negative keep their zeros absent (sparse data stay sparse)\n"
         "-u upper : upper bound of the scaled features (default 1)\n"
         "-y y_lower y_upper : also scale the labels onto [y_lower, y_upper] (default: labels\n"
         "           are written unchanged)\n"
         "-s save_file : save the ranges found in data_file to save_file\n"
         "-r restore_file : scale with the ranges saved in restore_file (by cdscale -s or\n"
         "           svm-scale -s) instead of data_file's own, e.g. a test file with the\n"
         "           training file's ranges; the bounds (-l, -u, -y) come from the file.\n"
         "           Features the file has no range for are left out, with a warning.\n"
         "--version : print the version and exit\n"
         "-h : print this help and exit\n"
         "Features that are constant in the data are left out, as svm-scale leaves them.\n"
         "Example: cdscale -l 0 -s range train > train.scale; cdscale -r range test > "
         "test.scale\n";
}

struct ScaleCommand {
  bool help = false;
  bool version = false;  // --version
  double lower = -1;
  double upper = 1;
  bool lower_given = false;
  bool upper_given = false;
  bool scale_labels = false;
  double label_lower = 0;
  double label_upper = 0;
  std::string save_path;
  std::string restore_path;
  std::string data_path;
};

double number_argument(const std::string& flag, const std::string& token) {
  double value = 0;
  if (!parse_double(token, value)) {
    throw ConfigError(flag + ": expected a number, got " + cdl::quoted(token));
  }
  return value;
}

ScaleCommand parse_scale_args(const std::vector<std::string>& args) {
  ScaleCommand command;
  std::vector<std::string> positional;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    const auto argument = [&](std::size_t offset) -> const std::string& {
      if (i + offset >= args.size()) {
        throw ConfigError(arg + ": missing argument" + (arg == "-y" ? "s y_lower y_upper" : ""));
      }
      return args[i + offset];
    };
    if (!positional.empty() && arg.size() > 1 && arg[0] == '-') {
      throw ConfigError("argument " + cdl::quoted(arg) +
                        " looks like an option; options go before the file (write ./" + arg +
                        " for a file of that name)");
    }
    if (arg == "-h" || arg == "--help") {
      command.help = true;
      return command;
    } else if (arg == "--version") {
      command.version = true;
      return command;
    } else if (arg == "-l") {
      command.lower = number_argument(arg, argument(1));
      command.lower_given = true;
      ++i;
    } else if (arg == "-u") {
      command.upper = number_argument(arg, argument(1));
      command.upper_given = true;
      ++i;
    } else if (arg == "-y") {
      command.label_lower = number_argument(arg, argument(1));
      command.label_upper = number_argument(arg, argument(2));
      command.scale_labels = true;
      i += 2;
    } else if (arg == "-s") {
      command.save_path = argument(1);
      ++i;
    } else if (arg == "-r") {
      command.restore_path = argument(1);
      ++i;
    } else if (arg.size() > 1 && arg[0] == '-') {
      throw ConfigError("unknown option " + cdl::quoted(arg));
    } else {
      positional.push_back(arg);
    }
  }
  if (positional.size() != 1) {
    throw ConfigError(positional.empty() ? "missing data_file"
                                         : "one data_file expected, got " +
                                               std::to_string(positional.size()) + " files");
  }
  command.data_path = positional[0];
  if (!command.restore_path.empty()) {
    for (const auto& [given, flag] : {std::pair{command.lower_given, "-l"},
                                      {command.upper_given, "-u"},
                                      {command.scale_labels, "-y"}}) {
      if (given) {
        throw ConfigError(
            std::string(flag) + " cannot act with -r: the bounds come from the range file " +
            cdl::quoted(command.restore_path) + " (give them when making it with -s)");
      }
    }
  }
  const auto text = [](double value) {
    std::string out;
    append_shortest(out, value);
    return out;
  };
  if (!(command.lower < command.upper)) {
    throw ConfigError("-l/-u: the lower bound " + text(command.lower) +
                      " is not less than the upper bound " + text(command.upper));
  }
  if (command.scale_labels && !(command.label_lower < command.label_upper)) {
    throw ConfigError("-y: y_lower " + text(command.label_lower) + " is not less than y_upper " +
                      text(command.label_upper));
  }
  return command;
}

// Standard output, written in large blocks with write(2) so that every
// failure (a full disk, a closed descriptor) is seen and reported.
class OutputBlocks {
 public:
  static constexpr std::size_t kBlock = std::size_t{1} << 20;

  std::string& buffer() { return buffer_; }
  void flush_if_full() {
    if (buffer_.size() >= kBlock) flush();
  }
  void flush() {
    const char* p = buffer_.data();
    std::size_t left = buffer_.size();
    while (left > 0) {
      errno = 0;
      const ssize_t written = ::write(STDOUT_FILENO, p, left);
      if (written < 0 && errno == EINTR) continue;
      if (written <= 0) throw IoError("standard output: write error" + system_reason());
      p += written;
      left -= static_cast<std::size_t>(written);
    }
    buffer_.clear();
  }

 private:
  std::string buffer_;
};

// Calls visit(label, indices, values, count, line) for each instance of
// data_file, pass after pass: a regular file is read again each time;
// standard input and pipes, which can be read only once, are held in memory
// after the first pass.
class Instances {
 public:
  explicit Instances(const std::string& path) : path_(path) {
    options_.pipe_command = "cdscale [options] -";
    std::error_code error;
    rereadable_ = path != kStandardInput && std::filesystem::is_regular_file(path, error);
  }

  template <class Visit>
  void for_each(Visit visit) {
    if (rereadable_ || !held_) {
      LibsvmParser parser(path_, options_);
      ParsedRow row;
      while (parser.next(row)) {
        visit(row.label, row.indices.data(), row.values.data(), row.indices.size(), row.line);
        if (!rereadable_) hold(row);
      }
      held_ = !rereadable_;
      return;
    }
    for (std::size_t r = 0; r < labels_.size(); ++r) {
      const auto begin = static_cast<std::size_t>(rows_.row_ptr[r]);
      const auto end = static_cast<std::size_t>(rows_.row_ptr[r + 1]);
      visit(labels_[r], rows_.col_idx.data() + begin, rows_.values.data() + begin, end - begin,
            lines_[r]);
    }
  }

 private:
  void hold(const ParsedRow& row) {
    labels_.push_back(row.label);
    lines_.push_back(row.line);
    for (std::size_t k = 0; k < row.indices.size(); ++k) {
      rows_.col_idx.push_back(row.indices[k]);
      rows_.values.push_back(row.values[k]);
    }
    rows_.row_ptr.push_back(static_cast<std::int64_t>(rows_.values.size()));
  }

  std::string path_;
  ReadOptions options_;
  bool rereadable_ = false;
  bool held_ = false;
  std::vector<double> labels_;
  std::vector<std::int64_t> lines_;
  CsrMatrix rows_;
};

int run(const ScaleCommand& command) {
  const std::string data_name = input_name(command.data_path);
  const bool restore = !command.restore_path.empty();
  if (!command.save_path.empty()) {
    check_writable_path(command.save_path);
    if (command.data_path != kStandardInput) {
      check_not_input(command.save_path, "save_file (-s)", command.data_path);
    }
    if (restore) check_not_input(command.save_path, "save_file (-s)", command.restore_path);
  }

  // The first pass reads the whole file, so that a malformed line stops the
  // run before anything is written: it finds the ranges, or with -r the
  // features that the range file has no range for.
  Instances instances(command.data_path);
  ScaleRanges ranges;
  RangeFinder finder;
  std::unordered_set<Index> unranged;
  std::int64_t first_unranged_line = 0;
  Index first_unranged = 0;
  if (restore) ranges = read_range_file(command.restore_path);
  const std::uint64_t feature_limit = available_memory() / 2 / kRangeBytesPerFeature;
  instances.for_each([&](double label, const Index* indices, const double* values,
                         std::size_t count, std::int64_t line) {
    if (!restore) {
      if (count > 0 && indices[count - 1] >= feature_limit) {
        throw ParseError(data_name, line,
                         "feature index " + std::to_string(std::uint64_t{indices[count - 1]} + 1) +
                             ": finding the ranges of that many features needs more than half "
                             "the available memory");
      }
      finder.add(label, indices, values, count);
      return;
    }
    for (std::size_t k = 0; k < count; ++k) {
      if (ranges.scales(indices[k])) continue;
      if (unranged.empty()) {
        first_unranged_line = line;
        first_unranged = indices[k];
      }
      unranged.insert(indices[k]);
    }
  });
  if (!restore) {
    ranges = finder.ranges(command.lower, command.upper, command.scale_labels, command.label_lower,
                           command.label_upper);
  }
  if (!command.save_path.empty()) {
    AtomicFileWriter save(command.save_path);
    save.write(format_range_file(ranges));
    save.commit();
  }
  if (!unranged.empty()) {
    const std::size_t features = unranged.size();
    std::cerr << "cdscale: warning: " << data_name << ": " << features << " feature"
              << (features == 1 ? " has" : "s have") << " no range in " << command.restore_path
              << " (the first: index " << std::uint64_t{first_unranged} + 1 << " on line "
              << first_unranged_line << "); left out, as svm-scale leaves "
              << (features == 1 ? "it" : "them") << "\n";
  }

  RowScaler scaler(ranges);
  OutputBlocks output;
  instances.for_each([&](double label, const Index* indices, const double* values,
                         std::size_t count, std::int64_t) {
    scaler.append(label, indices, values, count, output.buffer());
    output.flush_if_full();
  });
  output.flush();
  if (scaler.pairs_out() > scaler.pairs_in()) {
    std::cerr << "cdscale: warning: the scaled file has " << scaler.pairs_out()
              << " nonzero values, the input " << scaler.pairs_in()
              << "; for sparse features that are never negative, -l 0 keeps zeros absent\n";
  }
  return 0;
}

}  // namespace
}  // namespace cdl

int main(int argc, char** argv) {
  return cdl::run_tool("cdscale", cdl::scale_usage(), [&] {
    const cdl::ScaleCommand command =
        cdl::parse_scale_args(std::vector<std::string>(argv + 1, argv + argc));
    if (command.help) {
      std::cout << cdl::scale_help();
      return 0;
    }
    if (command.version) {
      std::cout << "cdscale (cdlinear) " << cdl::kVersion << '\n';
      return 0;
    }
    return cdl::run(command);
  });
}
