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
#include "solvers/report.h"
#include "train/cross_validation.h"
#include "train/train_regression.h"

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

// The start of each stdout summary line ("Cross Validation ...", "Best C =
// ..."): the solver and problem that ran, as the stderr header names them.
// The value stays the line's last word, so that LIBSVM's grid.py (which
// takes the first stdout line containing "Cross" and reads its last word,
// minus the '%') and tools/grid.sh still read it.
// The header (stderr) says why the data's shape chose the solver; this line
// names the solver alone.
std::string summary_prefix(const Params& params);

// -C's output: a "log2c=... rate=..." line per C on stdout, as LIBLINEAR's,
// and at the end why the search stopped early (if it did), a warning if the
// best C is the largest it tries, and "... Best C = c  CV accuracy = a%",
// named by the run's solver and problem; `tool` names the program.
void print_search_step(double C, double accuracy);
void print_search_result(const std::string& tool, const Params& params, const CSearch& best,
                         Reporter& reporter);

// -v's output on stdout: "... Cross Validation Accuracy = a%", as
// LIBLINEAR's.
void print_validation(const Params& params, double accuracy);

// The last stderr line of cdtrain and cdtrain-mpi: "total time T: reading
// R, WHAT W", WHAT "searching C" for -C, "cross validation" for -v, else
// `training` (what the tool calls its training); then "; " and `more` if
// it is not empty.
std::string total_time_line(const TrainCommand& command, const Params& params, double total,
                            double reading, double work, const std::string& training,
                            const std::string& more = "");

// A regression's -v output on stdout, as LIBLINEAR's: "... Cross Validation
// Mean squared error = m" and "... Squared correlation coefficient = r".
void print_regression_validation(const Params& params, const RegressionValidation& cv);
// A regression's -C output: a "log2c=... [p=...] Mean squared error=..."
// line per (C, p) on stdout, as LIBLINEAR 2.50's (`with_p` for the SVR),
// and at the end a warning if the best C is the largest the search tries
// and "... Best C = c [Best p = p]  CV MSE = m".
void print_regression_step(double C, double p, double mse, bool with_p);
void print_regression_search_result(const Params& params, const RegressionSearch& best,
                                    Reporter& reporter);

}  // namespace cdl

#endif  // CDL_TOOLS_CLI_H_
