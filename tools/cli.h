// Command-line parsing for cdtrain and cdpredict, kept apart from main() so
// that it can be tested (and fuzzed) without running a tool. cdtrain's
// arguments become a RunRequest (train/run_request.h) for the driver.
//
// Each tool's flags live in one table of {flag, argument, help, setter}; the
// -h text is generated from it, with the current defaults. Numbers are parsed
// strictly and messages name the flag and the bad token. Parsing throws
// cdl::ConfigError, which the tools turn into exit status 2.
#ifndef CDL_TOOLS_CLI_H_
#define CDL_TOOLS_CLI_H_

#include <string>
#include <vector>

#include "train/run_request.h"

namespace cdl {

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
RunRequest parse_train_args(const std::vector<std::string>& args);
PredictCommand parse_predict_args(const std::vector<std::string>& args);

std::string train_usage();  // the short usage lines
std::string train_help();   // every option with its default
std::string predict_usage();
std::string predict_help();
// "cdtrain (cdlinear) 0.14.0\n", for --version.
std::string version_text(const std::string& tool);

}  // namespace cdl

#endif  // CDL_TOOLS_CLI_H_
