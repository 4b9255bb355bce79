// Regression training (-l sq, -l svr2): one problem with the real targets as
// they are, no classes, and its cross validation (-v). The one-class SVM
// (-l oneclass) trains here too: one problem of all rows, no classes, its
// targets ignored.
#ifndef CDL_TRAIN_REGRESSION_H_
#define CDL_TRAIN_REGRESSION_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "data/problem.h"
#include "data/sparse_matrix.h"
#include "model/model.h"
#include "solvers/params.h"
#include "solvers/report.h"

namespace cdl {

// Trains a regression model on `x` (whose last column is the bias feature
// when params.bias >= 0) and the targets, with C_j = C for every row (0 for
// rows `held_out` marks; times s_j if instance `weights` are given), from w0
// if given. The model has no labels and the
// solver_type of model_solver_type() (L2R_L2LOSS_SVR, L2R_SQUARED_LOSS,
// L1R_SQUARED_LOSS, L1R_L2LOSS_SVR; ONECLASS_SVM, with the solver's rho).
LinearModel train_regression(const CscMatrix& x, const std::vector<double>& targets,
                             const Params& params, Reporter& reporter,
                             const std::vector<double>* w0 = nullptr,
                             const std::vector<std::uint8_t>* held_out = nullptr,
                             const std::vector<double>* weights = nullptr);

// The same on columns, rows or both (`x.weights` unused: pass `weights`):
// on rows alone (cdtrain reads no columns then) if trains_on_rows(params).
LinearModel train_regression(const DataMatrix& x, const std::vector<double>& targets,
                             const Params& params, Reporter& reporter,
                             const std::vector<double>* w0 = nullptr,
                             const std::vector<std::uint8_t>* held_out = nullptr,
                             const std::vector<double>* weights = nullptr);

// The start for a regression run from a model: its weights, features beyond
// either side dropped or zero, the bias weight kept if both have one. Throws
// Error if the model is a classifier's.
std::vector<double> initial_regression_weights(const LinearModel& model, std::size_t num_cols,
                                               double bias);

struct RegressionValidation {
  double mean_squared_error = 0;
  double squared_correlation = 0;
  // Each row's value as predicted by the model trained without its fold,
  // every row in file order (on ranks too).
  std::vector<double> predicted;
  // The weights trained without each fold, when asked for.
  std::vector<std::vector<double>> fold_weights;
};

// params.cv_folds-fold cross validation of a regression: each row predicted
// by the model trained without its fold, scored as LIBLINEAR's -v does
// (RegressionScore). Folds as cross_validate()'s, on params.threads threads,
// with output in fold order; the result does not depend on the threads.
// The folds train with the `instance_weights` (-W), if given; the scores
// are not weighted. With `warm`, fold f starts from (*warm)[f]; with
// `keep_weights` the folds' weights are returned; `fold_lines` as
// cross_validate()'s.
RegressionValidation cross_validate_regression(
    const CscMatrix& x, const std::vector<double>& targets, const Params& params,
    Reporter& reporter, const std::vector<double>* instance_weights = nullptr,
    const std::vector<std::vector<double>>* warm = nullptr, bool keep_weights = false,
    bool fold_lines = true);

// The fold of each of l rows for a regression's `folds`-fold cross
// validation: equal slices of a shuffle by params.seed.
std::vector<std::size_t> regression_fold_assignment(std::size_t l, std::size_t folds,
                                                    const Params& params);
// out's mean squared error and squared correlation of every row's
// `predicted` value against its target, summed in row order.
void score_rows(const std::vector<double>& predicted, const std::vector<double>& targets,
                RegressionValidation& out);
// A regression fold's line after its number: its mean squared error and
// `held` rows.
std::string regression_fold_text(const RegressionScore& score, std::size_t held);

// -C for a regression, as LIBLINEAR 2.50 searches for -s 11: for each p of
// the grid p_i = i max_j |y_j| / kRegressionSearchPSteps, from i = steps - 1
// (or from the grid point at or below -p when it is given) down to 0,
// cross validation at C = start, 2 start, 4 start, ... up to
// kMaxRegressionSearchC, each fold warm-started from its weights at the
// previous C, stopping once no fold's model has moved (fold_models_moved)
// at kRegressionSearchUnchangedStop consecutive values of C, the first
// counting as unchanged. The squared loss has no p: one pass over C. The
// start is `start_C` when given, else regression_search_start_C() at each
// p. `on_step(C, p, mse)` is called after each C (p = -1 without p). The
// best is the first (C, p) with the lowest CV mean squared error. The folds
// train with the `instance_weights`, if given.
constexpr double kMaxRegressionSearchC = 1048576;  // 2^20
// The largest C at which the search trains (the doublings' rounding).
constexpr double kLargestRegressionSearchC = kMaxRegressionSearchC * (1 + 1e-12);
constexpr int kRegressionSearchPSteps = 20;
constexpr int kRegressionSearchUnchangedStop = 5;

struct RegressionSearch {
  double best_C = 0;
  double best_p = -1;  // -1: a loss without p
  double best_mean_squared_error = 0;
  bool best_at_max_C = false;  // the best C is the largest the search tries
};

// LIBLINEAR's first C for the L2-loss SVR at p: the power of two at or below
// 0.01 sum_j max(|y_j| - p, 0)^2 / (8 (sum_j |y_j|)^2 max_j ||x_j||^2),
// or kMaxRegressionSearchC when every |y_j| <= p.
double regression_search_start_C(const CscMatrix& x, const std::vector<double>& targets, double p);
// The same from the targets and max_j ||x_j||^2.
double regression_search_start_C(const std::vector<double>& targets, double largest_norm2,
                                 double p);

RegressionSearch search_regression(const CscMatrix& x, const std::vector<double>& targets,
                                   const Params& params, std::optional<double> start_C,
                                   Reporter& reporter,
                                   const std::function<void(double, double, double)>& on_step,
                                   const std::vector<double>* instance_weights = nullptr);

// One step of the search: cross validation with `step`'s C and p, each fold
// from (*warm)[f] if warm is given, the folds' weights kept, its output to
// `log`.
using RegressionStep = std::function<RegressionValidation(
    const Params& step, Reporter& log, const std::vector<std::vector<double>>* warm)>;
// The same search over any cross validation `cv` of the data whose targets
// (every row's, in order) and max_j ||x_j||^2 are given.
RegressionSearch search_regression(const std::vector<double>& targets, double largest_norm2,
                                   const Params& params, std::optional<double> start_C,
                                   Reporter& reporter, const RegressionStep& cv,
                                   const std::function<void(double, double, double)>& on_step);

}  // namespace cdl

#endif  // CDL_TRAIN_REGRESSION_H_
