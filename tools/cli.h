// Command-line parsing for cdtrain and cdpredict, kept apart from main() so
// that it can be tested (and fuzzed) without running a tool.
//
// Each tool's flags live in one table of {flag, argument, help, setter}; the
// -h text is generated from it, with the current defaults. Numbers are parsed
// strictly and messages name the flag and the bad token. Parsing throws
// cdl::ConfigError, which the tools turn into exit status 2.
#ifndef CDL_TOOLS_CLI_H_
#define CDL_TOOLS_CLI_H_

#include <string>
#include <vector>

#include "solvers/params.h"

namespace cdl {

struct TrainCommand {
  Params params;
  std::string training_path;
  std::string model_path;     // defaults to the training file's basename + ".model"
  std::string trace_path;     // --trace: per-iteration trace (trace.h)
  std::string test_path;      // -t: test set for the trace's accuracy column
  std::string initial_model;  // -i: start from this model's w
  std::string weights_path;   // -W: instance weights, one a line (instance_weights.h)
  bool cache = false;         // --cache: keep the parsed data in training_file.cdcache
  std::string cache_file;     // --cache-file: keep it there instead
  bool find_C = false;        // -C: search C by cross validation
  bool cost_given = false;    // -c was given (the start of the -C search)
  bool help = false;
  bool version = false;  // --version
};

struct PredictCommand {
  std::string test_path;
  std::string model_path;
  std::string output_path;
  bool quiet = false;
  bool probability = false;
  bool help = false;
  bool version = false;    // --version
  std::string info_model;  // --info MODEL: describe the model and exit
};

// `args` excludes the program name.
TrainCommand parse_train_args(const std::vector<std::string>& args);
PredictCommand parse_predict_args(const std::vector<std::string>& args);

std::string train_usage();  // the short usage lines
std::string train_help();   // every option with its default
std::string predict_usage();
std::string predict_help();
// "cdtrain (cdlinear) 0.14.0\n", for --version.
std::string version_text(const std::string& tool);

}  // namespace cdl

#endif  // CDL_TOOLS_CLI_H_
