#include "train/train_regression.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <string>

#include "data/problem.h"
#include "data/row_share.h"
#include "objective/evaluate.h"
#include "select/random.h"
#include "train/cross_validation.h"
#include "train/folds.h"
#include "train/train.h"
#include "util/error.h"

namespace cdl {

LinearModel train_regression(const CscMatrix& x, const std::vector<double>& targets,
                             const Params& params, Reporter& reporter,
                             const std::vector<double>* w0,
                             const std::vector<std::uint8_t>* held_out,
                             const std::vector<double>* weights) {
  return train_regression(DataMatrix{&x, nullptr}, targets, params, reporter, w0, held_out,
                          weights);
}

LinearModel train_regression(const DataMatrix& x, const std::vector<double>& targets,
                             const Params& params, Reporter& reporter,
                             const std::vector<double>* w0,
                             const std::vector<std::uint8_t>* held_out,
                             const std::vector<double>* weights) {
  // A rank of a distributed run may hold no rows; the run has some.
  if ((x.share != nullptr ? x.share->total_rows() : x.num_rows()) == 0) {
    throw Error("no training instances");
  }
  if (largest_cost(ClassMap{}, params, weights) > x.checked_cost()) {
    check_magnitudes(DataMatrix{x.columns, x.rows, weights}, ClassMap{}, params);
  }
  const SolverInfo& row = solver_info(params.solver);
  if (x.columns == nullptr && !trains_on_rows(params)) {
    throw Error("this regression solver needs the columns");
  }
  std::optional<CsrMatrix> rows;
  if (row.needs_rows && x.rows == nullptr) rows = to_csr(*x.columns);
  Problem problem = regression_problem(x.columns, targets, params.C, rows ? &*rows : x.rows);
  problem.held_out = held_out;
  problem.weights = weights;
  problem.share = x.share;
  if (is_one_class(params.loss.value())) problem.task = Task::kOneClass;
  reporter.begin_problem(problem, params.loss.value(), 0);
  const SolveResult result =
      train_binary(problem, params, derive_seed(params.seed, 0), reporter, w0);
  LinearModel model;
  model.solver_type = model_type(row, params);
  model.bias = params.bias;
  model.num_features = x.num_cols() - (params.bias >= 0 ? 1 : 0);
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
                                               const Params& params, Reporter& reporter,
                                               const std::vector<double>* instance_weights,
                                               const std::vector<std::vector<double>>* warm,
                                               bool keep_weights, bool fold_lines) {
  const std::size_t l = x.num_rows;
  return cross_validate_regression_folds(
      targets, FoldRows{0, l, l, nullptr}, params, reporter,
      [&](const Params& run, const std::vector<std::uint8_t>& held_out,
          const std::vector<double>* start, Reporter& log) {
        return train_regression(x, targets, run, log, start, &held_out, instance_weights);
      },
      [&](const LinearModel& model) { return decision_values(x, model.w); }, warm, keep_weights,
      fold_lines);
}

void score_rows(const std::vector<double>& predicted, const std::vector<double>& targets,
                RegressionValidation& out) {
  RegressionScore score;
  for (std::size_t r = 0; r < predicted.size(); ++r) score.add(predicted[r], targets[r]);
  out.mean_squared_error = score.mean_squared_error();
  out.squared_correlation = score.squared_correlation();
}

std::vector<std::size_t> regression_fold_assignment(std::size_t l, std::size_t folds,
                                                    const Params& params) {
  // One class: the folds are equal slices of the shuffle, as for classes.
  ClassMap single;
  single.labels = {0};
  single.class_of.assign(l, 0);
  return assign_folds(single, folds, false, derive_seed(params.seed, 0x5eed));
}

std::string regression_fold_text(const RegressionScore& score, std::size_t held) {
  char line[96];
  std::snprintf(line, sizeof line, "mean squared error %.6g (%zu instances)",
                score.mean_squared_error(), held);
  return line;
}

double regression_search_start_C(const CscMatrix& x, const std::vector<double>& targets, double p) {
  return regression_search_start_C(targets, largest_row_norm2(DataMatrix{&x, nullptr}), p);
}

double regression_search_start_C(const std::vector<double>& targets, double largest_norm2,
                                 double p) {
  constexpr double kDelta = 0.1;
  double sum_y = 0, loss = 0;
  for (double y : targets) {
    sum_y += std::fabs(y);
    const double excess = std::max(std::fabs(y) - p, 0.0);
    loss += excess * excess;
  }
  if (!(loss > 0)) return kMaxRegressionSearchC;
  const double min_C = kDelta * kDelta * loss / (8 * sum_y * sum_y * largest_norm2);
  return std::pow(2.0, std::floor(std::log2(min_C)));
}

namespace {

// The search over C at one p (params.svr_epsilon), into `best`.
void search_C_at(const RegressionStep& cv_at, const Params& params, double start,
                 const std::function<void(double, double, double)>& on_step, SearchLog& log,
                 RegressionSearch& best) {
  const double p = params.svr_epsilon.value_or(-1);
  std::vector<std::vector<double>> warm;
  int unchanged = 0;  // consecutive values of C at which no fold's model moved
  for (double C = std::min(start, kMaxRegressionSearchC); C <= kLargestRegressionSearchC; C *= 2) {
    Params step = params;
    step.C = C;
    RegressionValidation cv = cv_at(step, log.step(), warm.empty() ? nullptr : &warm);
    log.end_step();
    on_step(C, p, cv.mean_squared_error);
    if (best.best_C == 0 || cv.mean_squared_error < best.best_mean_squared_error) {
      best.best_C = C;
      best.best_p = p;
      best.best_mean_squared_error = cv.mean_squared_error;
      best.best_at_max_C = C >= kMaxRegressionSearchC * (1 - 1e-12);
    }
    std::vector<const std::vector<double>*> before, after;
    for (const std::vector<double>& w : warm) before.push_back(&w);
    for (const std::vector<double>& w : cv.fold_weights) after.push_back(&w);
    // Models that are all zero do not count, as in search_C(): with an L1
    // regularizer w = 0 below a threshold C.
    bool all_zero = true;
    for (const std::vector<double>& w : cv.fold_weights) {
      for (double v : w) all_zero = all_zero && v == 0;
    }
    const bool moved = !warm.empty() && fold_models_moved(before, after);
    unchanged = moved || all_zero ? 0 : unchanged + 1;
    warm = std::move(cv.fold_weights);
    if (unchanged == kRegressionSearchUnchangedStop) break;
  }
}

}  // namespace

RegressionSearch search_regression(const CscMatrix& x, const std::vector<double>& targets,
                                   const Params& params, std::optional<double> start_C,
                                   Reporter& reporter,
                                   const std::function<void(double, double, double)>& on_step,
                                   const std::vector<double>* instance_weights) {
  if (x.num_rows == 0) throw Error("no training instances");
  return search_regression(
      targets, largest_row_norm2(DataMatrix{&x, nullptr}), params, start_C, reporter,
      [&](const Params& step, Reporter& log, const std::vector<std::vector<double>>* warm) {
        return cross_validate_regression(x, targets, step, log, instance_weights, warm, true,
                                         params.verbose);
      },
      on_step);
}

RegressionSearch search_regression(const std::vector<double>& targets, double largest_norm2,
                                   const Params& params, std::optional<double> start_C,
                                   Reporter& reporter, const RegressionStep& cv,
                                   const std::function<void(double, double, double)>& on_step) {
  RegressionSearch best;
  SearchLog log(reporter, params.verbose);
  if (!is_svr(params.loss.value())) {
    Params run = params;
    run.svr_epsilon.reset();
    search_C_at(cv, run, start_C.value_or(regression_search_start_C(targets, largest_norm2, 0)),
                on_step, log, best);
    log.finish();
    return best;
  }
  double max_p = 0;
  for (double y : targets) max_p = std::max(max_p, std::fabs(y));
  const double step_p = max_p / kRegressionSearchPSteps;
  int first = step_p > 0 ? kRegressionSearchPSteps - 1 : 0;
  if (params.svr_epsilon && step_p > 0) {
    first = std::min(static_cast<int>(*params.svr_epsilon / step_p), first);
  }
  for (int i = first; i >= 0; --i) {
    Params run = params;
    const double p = i * max_p / kRegressionSearchPSteps;  // as LIBLINEAR rounds it
    run.svr_epsilon = p;
    search_C_at(cv, run, start_C.value_or(regression_search_start_C(targets, largest_norm2, p)),
                on_step, log, best);
  }
  log.finish();
  return best;
}

}  // namespace cdl
