// The one driver of cdtrain and cdtrain-mpi: given a RunRequest, it
// resolves and validates the options, reads the data, lets the data's shape
// choose the solver, and runs the training, the cross validation (-v) or
// the search for C (-C, and C and p for a regression), with the header that
// names the run, the results and the "total time" line. What differs
// between the tools is behind RunSource, which the front end supplies: how
// the data are read and laid out (a file on one process, or every rank's
// part of it), how a fold's sums are taken (util/collective.h), who prints
// and writes (rank 0), and the tool's name in messages.
#ifndef CDL_TRAIN_DRIVER_H_
#define CDL_TRAIN_DRIVER_H_

#include <functional>
#include <optional>
#include <ostream>
#include <string>

#include "model/model.h"
#include "solvers/params.h"
#include "solvers/report.h"
#include "train/cross_validation.h"
#include "train/run_request.h"
#include "train/train_regression.h"

namespace cdl {

// The data of a run and the work on them, as one front end does it. The
// driver calls, in this order: check_request, read, lay_out, check_data,
// describe, then one of search_C, search_regression, cross_validate,
// cross_validate_regression, or share_for_training and train_and_save, and
// last traffic. Each throws cdl::Error (ConfigError for a usage error).
class RunSource {
 public:
  virtual ~RunSource() = default;

  // The tool's name in messages: "cdtrain".
  virtual const std::string& tool() const = 0;
  // Whether this process prints the progress and the results (and writes
  // the model): rank 0 of a distributed run.
  virtual bool prints() const { return true; }
  // What the summary line calls the training ("training").
  virtual std::string training_name() const { return "training"; }

  // The usage errors of `request` under its resolved `params`, and the
  // outputs that cannot be written, before anything is read.
  virtual void check_request(const RunRequest& request, const Params& params) = 0;
  // Reads the training data; returns its shape, which may choose the solver.
  virtual DataShape read(const RunRequest& request, const Params& params) = 0;
  // Lays the data read out for the run's solver (`chosen`: the data's shape
  // chose it); may set what the layout fixes in `params`.
  virtual void lay_out(const RunRequest& request, Params& params, bool chosen) = 0;
  // Checks the values for the run and warns through `reporter` about what
  // the data make of the options.
  virtual void check_data(const RunRequest& request, const Params& params, Reporter& reporter) = 0;
  // The header's run after "TOOL: training" and the like: ", " and the
  // solver and problem, and where it runs.
  virtual std::string describe(const Params& params) = 0;

  // -C: cross validation at each C from `start` (the whole data's first C
  // if not given), on_step after each; the best.
  virtual CSearch search_C(const Params& params, const std::optional<double>& start,
                           Reporter& reporter,
                           const std::function<void(double C, double accuracy)>& on_step) = 0;
  // -C of a regression: over C (and p for the SVR).
  virtual RegressionSearch search_regression(
      const Params& params, const std::optional<double>& start, Reporter& reporter,
      const std::function<void(double C, double p, double mse)>& on_step) = 0;
  // -v.
  virtual double cross_validate(const Params& params, Reporter& reporter) = 0;
  virtual RegressionValidation cross_validate_regression(const Params& params,
                                                         Reporter& reporter) = 0;
  // Training once: lays the rows out for it and returns what the header
  // adds (" in 2 blocks of rows"), or "".
  virtual std::string share_for_training(const Params& params) = 0;
  // Trains the model (a classifier, or a regression or one-class model)
  // and writes it to request.model_path, with the trace if asked.
  virtual void train_and_save(const RunRequest& request, const Params& params,
                              Reporter& reporter) = 0;
  // What the summary line adds at its end, or "".
  virtual std::string traffic(const Params& /*params*/) { return ""; }
};

// Whether the data's shape chooses the solver (solver_by_shape()); a run
// from -i's model keeps cdper or tron, which take a start.
bool shape_chooses(const RunRequest& request);

// Runs `request` with the data and work of `source`; the progress,
// warnings and summary go to `progress` if source.prints(), the results to
// stdout. Throws what the source throws.
void run_request(const RunRequest& request, RunSource& source, std::ostream& progress);

}  // namespace cdl

#endif  // CDL_TRAIN_DRIVER_H_
