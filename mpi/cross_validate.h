// Cross validation (-v) and the search for C (-C) on the ranks of
// cdtrain-mpi: cdtrain's folds, fold lines, accuracy or mean squared error
// (train/cross_validation.h, train/train_regression.h), each fold trained on
// the ranks like a run of its own.
#ifndef CDL_MPI_CROSS_VALIDATE_H_
#define CDL_MPI_CROSS_VALIDATE_H_

#include <functional>
#include <optional>
#include <vector>

#include "distribute.h"
#include "mpi_collective.h"
#include "solvers/params.h"
#include "solvers/report.h"
#include "train/cross_validation.h"
#include "train/train_regression.h"

namespace cdl {

// Lays a copy of the rows read out over the ranks for the run's solver
// (share_blocks() or share_parts()), by the rows that count in it, for a
// run under `params` (whose seed cuts the dual CD's parts).
using ShareRows = std::function<void(DistributedRows& rows, const Params& params)>;

// params.cv_folds-fold cross validation of a classification run, by
// cdtrain's fold loop (train/folds.h) on the ranks: fold f trains on a copy
// of the rows read whose fold-f rows have weight 0 (cdtrain holds them out,
// with the same effect), laid out by `share` as a run's rows are, one fold
// after another on every rank. Each rank predicts its own rows read, and
// the counts are added. Returns the accuracy over the whole data and, with
// `keep_models`, every fold's model, on every rank; `warm` and `fold_lines`
// as cross_validate()'s (rank 0's reporter prints). A collective call.
CrossValidation cross_validate_ranks(const DistributedRows& data, const Params& params,
                                     const ShareRows& share, Reporter& reporter,
                                     MpiCollective& collective,
                                     const std::vector<LinearModel>* warm = nullptr,
                                     bool fold_lines = true, bool keep_models = true);

// -C: search_C() with each C's cross validation by cross_validate_ranks(),
// from the whole data's first C (search_start_C()) unless `start` is given.
CSearch search_C_ranks(const DistributedRows& data, const Params& params,
                       const std::optional<double>& start, const ShareRows& share,
                       Reporter& reporter, MpiCollective& collective,
                       const std::function<void(double, double)>& on_step);

// -v of a regression, by the same fold loop as cdtrain's
// cross_validate_regression(), each fold trained on the ranks as above;
// every held-out row's prediction and target are gathered in file order, so
// that the fold lines, the mean squared error and the squared correlation
// are cdtrain's. `warm`, `keep_weights` and `fold_lines` as there. A collective
// call.
RegressionValidation cross_validate_regression_ranks(
    const DistributedRows& data, const Params& params, const ShareRows& share, Reporter& reporter,
    MpiCollective& collective, const std::vector<std::vector<double>>* warm = nullptr,
    bool keep_weights = false, bool fold_lines = true);

// -C of a regression: search_regression() over C (and p for the SVR) with
// each step's cross validation by cross_validate_regression_ranks(), from
// the whole data's targets and largest ||x_j||^2 unless `start` is given.
RegressionSearch search_regression_ranks(
    const DistributedRows& data, const Params& params, const std::optional<double>& start,
    const ShareRows& share, Reporter& reporter, MpiCollective& collective,
    const std::function<void(double, double, double)>& on_step);

}  // namespace cdl

#endif  // CDL_MPI_CROSS_VALIDATE_H_
