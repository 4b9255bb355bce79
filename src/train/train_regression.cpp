#include "train/train_regression.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <sstream>
#include <string>

#include "data/problem.h"
#include "objective/evaluate.h"
#include "select/random.h"
#include "train/cross_validation.h"
#include "train/train.h"
#include "util/error.h"
#include "util/parallel.h"

namespace cdl {

LinearModel train_regression(const CscMatrix& x, const std::vector<double>& targets,
                             const Params& params, Reporter& reporter,
                             const std::vector<double>* w0,
                             const std::vector<std::uint8_t>* held_out) {
  if (x.num_rows == 0) throw Error("no training instances");
  if (params.C > x.checked_cost) check_magnitudes(x, ClassMap{}, params);
  const SolverInfo& row = solver_info(params.solver);
  std::optional<CsrMatrix> rows;
  if (row.needs_rows) rows = to_csr(x);
  Problem problem = regression_problem(x, targets, params.C, rows ? &*rows : nullptr);
  problem.held_out = held_out;
  if (is_one_class(params.loss.value())) problem.task = Task::kOneClass;
  reporter.begin_problem(problem, params.loss.value(), 0);
  const SolveResult result =
      train_binary(problem, params, derive_seed(params.seed, 0), reporter, w0);
  LinearModel model;
  model.solver_type = model_solver_type(row, params.loss.value(), params.regularizer);
  model.bias = params.bias;
  model.num_features = x.num_cols - (params.bias >= 0 ? 1 : 0);
  model.w = result.w;
  model.rho = result.rho;
  for (std::size_t i = 0; i < model.w.size(); ++i) {
    if (!std::isfinite(model.w[i])) {
      throw Error("training failed: the weight of feature " + std::to_string(i + 1) +
                  " is not a finite number; scale the data or lower C");
    }
  }
  return model;
}

std::vector<double> initial_regression_weights(const LinearModel& model, std::size_t num_cols,
                                               double bias) {
  if (model.task() != Task::kRegression) {
    throw Error("-i: the model is a classifier's (" + model.solver_type +
                "), and this run trains a regression (-l sq or svr2)");
  }
  std::vector<double> out(num_cols, 0.0);
  const std::size_t own = num_cols - (bias >= 0 ? 1 : 0);
  const std::size_t shared = std::min(own, model.num_features);
  for (std::size_t i = 0; i < shared; ++i) out[i] = model.w[i];
  if (bias >= 0 && model.bias >= 0) out[own] = model.w[model.num_features];
  return out;
}

RegressionValidation cross_validate_regression(const CscMatrix& x,
                                               const std::vector<double>& targets,
                                               const Params& params, Reporter& reporter) {
  const std::size_t l = x.num_rows;
  const std::size_t folds = fold_count(params, l, reporter);
  // One class: the folds are equal slices of the shuffle, as for classes.
  ClassMap single;
  single.labels = {0};
  single.class_of.assign(l, 0);
  const std::vector<std::size_t> fold_of =
      assign_folds(single, folds, false, derive_seed(params.seed, 0x5eed));
  std::vector<double> predicted(l, 0.0);
  // Later folds start from the lead fold's weights, as cross_validate()'s.
  const bool lead = starts_from_lead_fold(params, folds);
  std::vector<double> lead_w;
  run_folds(
      fold_of, folds, params, reporter, true,
      [&](std::size_t f, const std::vector<std::uint8_t>& held_out, const Params& fold_params,
          Reporter& log) {
        LinearModel model = train_regression(x, targets, fold_params, log,
                                             lead && f > 0 ? &lead_w : nullptr, &held_out);
        const std::vector<double> values = decision_values(x, model.w);
        if (lead && f == 0) lead_w = std::move(model.w);
        RegressionScore fold_score;
        std::size_t held = 0;
        for (std::size_t r = 0; r < l; ++r) {
          if (!held_out[r]) continue;
          predicted[r] = values[r];
          fold_score.add(values[r], targets[r]);
          ++held;
        }
        char line[96];
        std::snprintf(line, sizeof line, "mean squared error %.6g (%zu instances)",
                      fold_score.mean_squared_error(), held);
        return std::string(line);
      },
      lead);
  RegressionScore score;
  for (std::size_t r = 0; r < l; ++r) score.add(predicted[r], targets[r]);
  return {score.mean_squared_error(), score.squared_correlation()};
}

}  // namespace cdl
