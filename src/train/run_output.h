// The output formats that cdtrain and cdtrain-mpi share, LIBLINEAR's where
// it has one: the results of -v and -C on stdout, and the last stderr line.
// The driver (driver.h) prints them on the process that prints.
#ifndef CDL_TRAIN_RUN_OUTPUT_H_
#define CDL_TRAIN_RUN_OUTPUT_H_

#include <string>

#include "solvers/params.h"
#include "solvers/report.h"
#include "train/cross_validation.h"
#include "train/run_request.h"
#include "train/train_regression.h"

namespace cdl {

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
std::string total_time_line(const RunRequest& request, const Params& params, double total,
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

#endif  // CDL_TRAIN_RUN_OUTPUT_H_
