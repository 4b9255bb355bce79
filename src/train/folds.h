// The one fold loop of cross validation (-v, and each step of -C), for
// classification and regression, on the threads of one process (cdtrain, the
// library) or on the ranks of a distributed run (cdtrain-mpi). The folds'
// draw, the lead fold's warm start, each fold's training and the scoring of
// its held-out rows, and its line are written here once; the caller says how
// a fold trains on the rows it holds and how those rows are predicted.
#ifndef CDL_TRAIN_FOLDS_H_
#define CDL_TRAIN_FOLDS_H_

#include <cstdint>
#include <functional>
#include <vector>

#include "data/problem.h"
#include "model/model.h"
#include "solvers/params.h"
#include "solvers/report.h"
#include "train/cross_validation.h"
#include "train/train.h"
#include "train/train_regression.h"
#include "util/collective.h"

namespace cdl {

// The rows of the whole data that this process holds, and the other
// processes that hold the rest.
struct FoldRows {
  // This process holds rows [first, first + count) of the whole data's
  // `total`, in file order.
  std::size_t first = 0;
  std::size_t count = 0;
  std::size_t total = 0;
  // The ranks of a distributed run, or nullptr: one process holds every
  // row, and the folds run at once on params.threads threads. With it the
  // folds run one after another, each on params.threads, and the held-out
  // rows' counts and predictions are gathered from every rank in rank
  // order (the ranks hold consecutive runs of the rows), so that every rank
  // returns the same result. Every rank must call the loop.
  Collective* collective = nullptr;
};

// Trains one fold's model under `run` (the fold's seed and threads) on the
// rows this process holds, leaving out those `held_out` marks (one flag a
// held row), from `start` if not null, its progress to `log`.
template <class Start>
using FoldTrainer =
    std::function<LinearModel(const Params& run, const std::vector<std::uint8_t>& held_out,
                              const Start* start, Reporter& log)>;

// The classes of the rows this process holds, predicted by a fold's model,
// one a row.
using FoldPredictor = std::function<std::vector<int>(const LinearModel& model)>;
// The decision values of the rows this process holds under a fold's model,
// one a row.
using FoldValues = std::function<std::vector<double>(const LinearModel& model)>;

// Classification cross validation by params.cv_folds folds (fold_count(),
// fold_assignment() of the whole data's classes): `classes` has the labels
// of the whole data and the class of each row this process holds. Fold f starts from
// (*warm)[f] if `warm` is given; else, when starts_from_lead_fold(), fold 0
// trains first and alone from 0 and every other fold starts from its model
// (initial_weights() over `num_cols` columns). Returns the accuracy over the
// whole data and, with `keep_models`, every fold's model. Each fold's
// output (its warnings; with params.verbose a "fold f/F, C = c" header and
// its progress; with `fold_lines` and a reporter that is not quiet its line
// "fold f/F: RESULT, T ms") is printed in fold order as soon as it and every
// fold before it are done.
CrossValidation cross_validate_folds(const ClassMap& classes, const FoldRows& rows,
                                     std::size_t num_cols, const Params& params, Reporter& reporter,
                                     const FoldTrainer<InitialWeights>& train,
                                     const FoldPredictor& predict,
                                     const std::vector<LinearModel>* warm, bool fold_lines,
                                     bool keep_models);

// Regression cross validation by params.cv_folds folds
// (regression_fold_assignment() of rows.total rows): `targets` of the rows
// this process holds. Fold f starts from (*warm)[f] if given, else from the lead fold's
// weights as above. Every row is predicted by the model trained without its
// fold and scored as LIBLINEAR's -v does (score_rows()); with
// `keep_weights` the folds' weights are returned.
RegressionValidation cross_validate_regression_folds(
    const std::vector<double>& targets, const FoldRows& rows, const Params& params,
    Reporter& reporter, const FoldTrainer<std::vector<double>>& train, const FoldValues& values,
    const std::vector<std::vector<double>>* warm, bool keep_weights, bool fold_lines);

}  // namespace cdl

#endif  // CDL_TRAIN_FOLDS_H_
