// The checks of a run's data against its options that cdtrain, cdtrain-mpi
// and the library (cdlinear.h) make alike before training: values too large
// to train on, and a start model (-i, TrainOptions::initial_model) that does
// not fit the data. Each throws; the caller names the row or the model.
#ifndef CDL_TRAIN_RUN_CHECKS_H_
#define CDL_TRAIN_RUN_CHECKS_H_

#include <cstddef>
#include <functional>
#include <string>

#include "data/problem.h"
#include "model/model.h"
#include "solvers/params.h"
#include "train/train.h"
#include "util/error.h"

namespace cdl {

// Throws the error that names an instance's row as the data's source names
// it (a file's line, an array's row); the InstanceError itself if null.
using NameRow = std::function<void(const InstanceError& error)>;

// Values too large to train on (check_magnitudes()) on the whole of `x`
// (rows or columns, with its instance weights), at the largest C the run
// trains at: params.C, or with `search` (-C) the largest C the search may
// reach. Returns that C times the largest class and instance weight
// (largest_cost()), for the matrix's checked_cost, so that training, its
// folds and the search do not check again. `largest_magnitude` as
// check_magnitudes()'s.
double check_values(const DataMatrix& x, const ClassMap& classes, const Params& params, bool search,
                    double largest_magnitude, const NameRow& name_row);

// The start of a classifier from `model` (-i's, initial_model's): the same
// labels (so the same class count) and the same bias setting as the run's
// `classes` and `bias`, otherwise its weights mean something else. Returns
// initial_weights() over `num_cols` columns. Throws ConfigError
// "SOURCE: ...", where `source` names the model ("-i path") and
// `bias_option` the run's bias setting ("-B").
InitialWeights initial_class_weights(const LinearModel& model, const ClassMap& classes,
                                     std::size_t num_cols, double bias, const std::string& source,
                                     const std::string& bias_option);

}  // namespace cdl

#endif  // CDL_TRAIN_RUN_CHECKS_H_
