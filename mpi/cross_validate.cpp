#include "cross_validate.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "objective/evaluate.h"
#include "train/cross_validation.h"
#include "train/folds.h"
#include "train/train.h"
#include "train/train_regression.h"

namespace cdl {

namespace {

// The rows this rank read, in the whole data's order, for the fold loop.
FoldRows fold_rows_of(const DistributedRows& data, MpiCollective& collective) {
  return FoldRows{static_cast<std::size_t>(data.first_row), data.rows.num_rows,
                  static_cast<std::size_t>(data.total_rows), &collective};
}

// A fold's rows under `run`: a copy of the rows read whose `held_out` rows
// have weight 0 (cdtrain holds them out, with the same effect), laid out by
// `share`.
DistributedRows fold_rows(const DistributedRows& data, const std::vector<std::uint8_t>& held_out,
                          const Params& run, const ShareRows& share, MpiCollective& collective) {
  DistributedRows fold = data;  // the rows as read, not yet laid out
  fold.weights = data.weights.empty() ? std::vector<double>(data.rows.num_rows, 1.0) : data.weights;
  for (std::size_t j = 0; j < data.rows.num_rows; ++j) {
    if (held_out[j]) fold.weights[j] = 0;
  }
  count_rows(fold, collective);
  share(fold, run);
  return fold;
}

// The largest ||x_j||^2 of every rank's rows.
double largest_row_norm2_ranks(const DistributedRows& data, MpiCollective& collective) {
  const DataMatrix mine{nullptr, &data.rows};
  double largest = 0;
  for (double norm2 : collective.gather_all(
           std::vector<double>{data.rows.num_rows > 0 ? largest_row_norm2(mine) : 0.0})) {
    largest = std::max(largest, norm2);
  }
  return largest;
}

}  // namespace

CrossValidation cross_validate_ranks(const DistributedRows& data, const Params& params,
                                     const ShareRows& share, Reporter& reporter,
                                     MpiCollective& collective,
                                     const std::vector<LinearModel>* warm, bool fold_lines,
                                     bool keep_models) {
  return cross_validate_folds(
      data.classes, fold_rows_of(data, collective), data.rows.num_cols, params, reporter,
      [&](const Params& run, const std::vector<std::uint8_t>& held_out, const InitialWeights* start,
          Reporter& log) {
        const DistributedRows fold = fold_rows(data, held_out, run, share, collective);
        LinearModel model = train(training_matrix(fold, true), fold.classes, run, log, start);
        if (fold.share.parts == 1) {
          // The serial dual CD or CD ran on rank 0 alone: its weights to every rank.
          model.w = collective.gather_all(collective.rank() == 0 ? model.w : std::vector<double>());
        }
        return model;
      },
      [&](const LinearModel& model) { return model.predict(data.rows); }, warm, fold_lines,
      keep_models);
}

RegressionValidation cross_validate_regression_ranks(const DistributedRows& data,
                                                     const Params& params, const ShareRows& share,
                                                     Reporter& reporter, MpiCollective& collective,
                                                     const std::vector<std::vector<double>>* warm,
                                                     bool keep_weights, bool fold_lines) {
  return cross_validate_regression_folds(
      data.labels, fold_rows_of(data, collective), params, reporter,
      [&](const Params& run, const std::vector<std::uint8_t>& held_out,
          const std::vector<double>* start, Reporter& log) {
        const DistributedRows fold = fold_rows(data, held_out, run, share, collective);
        return train_regression(training_matrix(fold, false), fold.labels, run, log, start, nullptr,
                                &fold.weights);
      },
      [&](const LinearModel& model) { return decision_values(data.rows, model.w); }, warm,
      keep_weights, fold_lines);
}

RegressionSearch search_regression_ranks(
    const DistributedRows& data, const Params& params, const std::optional<double>& start,
    const ShareRows& share, Reporter& reporter, MpiCollective& collective,
    const std::function<void(double, double, double)>& on_step) {
  return search_regression(
      collective.gather_all(data.labels), largest_row_norm2_ranks(data, collective), params, start,
      reporter,
      [&](const Params& step, Reporter& log, const std::vector<std::vector<double>>* warm) {
        return cross_validate_regression_ranks(data, step, share, log, collective, warm, true,
                                               params.verbose);
      },
      on_step);
}

CSearch search_C_ranks(const DistributedRows& data, const Params& params,
                       const std::optional<double>& start, const ShareRows& share,
                       Reporter& reporter, MpiCollective& collective,
                       const std::function<void(double, double)>& on_step) {
  const double first =
      start ? *start
            : search_start_C(static_cast<double>(data.total_rows),
                             largest_row_norm2_ranks(data, collective), params.loss.value());
  return search_C(
      params, first, reporter,
      [&](const Params& step, Reporter& log, const std::vector<LinearModel>* warm) {
        return cross_validate_ranks(data, step, share, log, collective, warm, params.verbose);
      },
      on_step);
}

}  // namespace cdl
