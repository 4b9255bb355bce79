// What a training run is asked to do, as cdtrain's and cdtrain-mpi's
// command lines say it (tools/cli.h parses them into it): the options, the
// files to read and write, and whether to train, cross-validate (-v,
// Params::cv_folds) or search C (-C). The driver (driver.h) runs it.
#ifndef CDL_TRAIN_RUN_REQUEST_H_
#define CDL_TRAIN_RUN_REQUEST_H_

#include <string>

#include "solvers/params.h"

namespace cdl {

struct RunRequest {
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

}  // namespace cdl

#endif  // CDL_TRAIN_RUN_REQUEST_H_
