// Regression training (-l sq, -l svr2): one problem with the real targets as
// they are, no classes, and its cross validation (-v). The one-class SVM
// (-l oneclass) trains here too: one problem of all rows, no classes, its
// targets ignored.
#ifndef CDL_TRAIN_REGRESSION_H_
#define CDL_TRAIN_REGRESSION_H_

#include <cstdint>
#include <vector>

#include "data/sparse_matrix.h"
#include "model/model.h"
#include "solvers/params.h"
#include "solvers/report.h"

namespace cdl {

// Trains a regression model on `x` (whose last column is the bias feature
// when params.bias >= 0) and the targets, with C_j = C for every row (0 for
// rows `held_out` marks), from w0 if given. The model has no labels and the
// solver_type of model_solver_type() (L2R_L2LOSS_SVR, L2R_SQUARED_LOSS,
// L1R_SQUARED_LOSS, L1R_L2LOSS_SVR; ONECLASS_SVM, with the solver's rho).
LinearModel train_regression(const CscMatrix& x, const std::vector<double>& targets,
                             const Params& params, Reporter& reporter,
                             const std::vector<double>* w0 = nullptr,
                             const std::vector<std::uint8_t>* held_out = nullptr);

// The start for a regression run from a model: its weights, features beyond
// either side dropped or zero, the bias weight kept if both have one. Throws
// Error if the model is a classifier's.
std::vector<double> initial_regression_weights(const LinearModel& model, std::size_t num_cols,
                                               double bias);

struct RegressionValidation {
  double mean_squared_error = 0;
  double squared_correlation = 0;
};

// params.cv_folds-fold cross validation of a regression: each row predicted
// by the model trained without its fold, scored as LIBLINEAR's -v does
// (RegressionScore). Folds as cross_validate()'s, on params.threads threads,
// with output in fold order; the result does not depend on the threads.
RegressionValidation cross_validate_regression(const CscMatrix& x,
                                               const std::vector<double>& targets,
                                               const Params& params, Reporter& reporter);

}  // namespace cdl

#endif  // CDL_TRAIN_REGRESSION_H_
