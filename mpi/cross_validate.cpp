#include "cross_validate.h"

#include <algorithm>
#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "objective/evaluate.h"
#include "train/cross_validation.h"
#include "train/train.h"
#include "train/train_regression.h"

namespace cdl {

namespace {

// Fold f's rows under `run`: a copy of the rows read whose fold-f
// rows have weight 0, laid out by `share`.
DistributedRows fold_rows(const DistributedRows& data, const std::vector<std::size_t>& fold_of,
                          std::size_t f, const Params& run, const ShareRows& share,
                          MpiCollective& collective) {
  const auto first = static_cast<std::size_t>(data.first_row);
  const std::size_t own = data.rows.num_rows;
  DistributedRows fold = data;  // the rows as read, not yet laid out
  fold.weights = data.weights.empty() ? std::vector<double>(own, 1.0) : data.weights;
  for (std::size_t j = 0; j < own; ++j) {
    if (fold_of[first + j] == f) fold.weights[j] = 0;
  }
  count_rows(fold, collective);
  share(fold, run);
  return fold;
}

// A fold's log: its header with -V, else quiet.
Reporter fold_log(Reporter& reporter, const Params& params, std::size_t f, std::size_t folds) {
  Reporter log(reporter.stream(), params.verbose ? reporter.level() : Reporter::Level::kQuiet);
  if (params.verbose) log.info(fold_header(f, folds, params.C));
  return log;
}

// Fold f's line, `text` after its number, with the time since `start`.
void print_fold_line(Reporter& reporter, bool fold_lines, std::size_t f, std::size_t folds,
                     const std::string& text, std::chrono::steady_clock::time_point start) {
  if (!fold_lines || reporter.level() == Reporter::Level::kQuiet) return;
  const double ms =
      1000 * std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  reporter.stream() << fold_line(f, folds, text, ms) << '\n' << std::flush;
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
                                     const std::vector<LinearModel>* warm, bool fold_lines) {
  // The whole data's classes, row by row, for the folds' draw.
  ClassMap whole;
  whole.labels = data.classes.labels;
  const std::vector<std::uint64_t> class_of = collective.gather_all(
      std::vector<std::uint64_t>(data.classes.class_of.begin(), data.classes.class_of.end()));
  whole.class_of.assign(class_of.begin(), class_of.end());
  const std::size_t l = whole.class_of.size();
  const std::size_t folds = fold_count(params, l, reporter);
  const std::vector<std::size_t> fold_of = fold_assignment(whole, folds, params);
  const auto first = static_cast<std::size_t>(data.first_row);
  const std::size_t own = data.rows.num_rows;

  const bool lead = warm == nullptr && starts_from_lead_fold(params, folds);
  CrossValidation out;
  out.models.resize(folds);
  std::uint64_t correct = 0;
  for (std::size_t f = 0; f < folds; ++f) {
    const auto start = std::chrono::steady_clock::now();
    const Params run = fold_params(params, f);
    DistributedRows fold = fold_rows(data, fold_of, f, run, share, collective);
    Reporter log = fold_log(reporter, params, f, folds);
    const LinearModel* from = warm != nullptr ? &(*warm)[f]
                              : lead && f > 0 ? &out.models[0]
                                              : nullptr;
    InitialWeights start_w;
    if (from != nullptr) {
      start_w = initial_weights(*from, data.classes, data.rows.num_cols, params.bias);
    }
    LinearModel model = train(training_matrix(fold, true), fold.classes, run, log,
                              from != nullptr ? &start_w : nullptr);
    if (fold.share.parts == 1) {
      // The serial dual CD or CD ran on rank 0 alone: its weights to every rank.
      model.w = collective.gather_all(collective.rank() == 0 ? model.w : std::vector<double>());
    }
    fold = DistributedRows();
    const std::vector<int> predicted = model.predict(data.rows);
    std::uint64_t held = 0;
    std::uint64_t right = 0;
    for (std::size_t j = 0; j < own; ++j) {
      if (fold_of[first + j] != f) continue;
      ++held;
      right += predicted[j] == data.classes.labels[data.classes.class_of[j]];
    }
    const std::vector<std::uint64_t> counts =
        collective.gather_all(std::vector<std::uint64_t>{held, right});
    held = right = 0;
    for (std::size_t r = 0; r < counts.size(); r += 2) {
      held += counts[r];
      right += counts[r + 1];
    }
    correct += right;
    print_fold_line(reporter, fold_lines, f, folds,
                    accuracy_text(static_cast<std::size_t>(right), static_cast<std::size_t>(held)),
                    start);
    out.models[f] = std::move(model);
  }
  out.accuracy = static_cast<double>(correct) / static_cast<double>(l);
  return out;
}

RegressionValidation cross_validate_regression_ranks(const DistributedRows& data,
                                                     const Params& params, const ShareRows& share,
                                                     Reporter& reporter, MpiCollective& collective,
                                                     const std::vector<std::vector<double>>* warm,
                                                     bool keep_weights, bool fold_lines) {
  const auto l = static_cast<std::size_t>(data.total_rows);
  const std::size_t folds = fold_count(params, l, reporter);
  const std::vector<std::size_t> fold_of = regression_fold_assignment(l, folds, params);
  const auto first = static_cast<std::size_t>(data.first_row);
  const std::size_t own = data.rows.num_rows;
  const bool lead = warm == nullptr && starts_from_lead_fold(params, folds);
  std::vector<double> lead_w;
  // Every row's prediction by the model trained without its fold, and its
  // target, in file order on every rank.
  std::vector<double> predicted(l, 0.0);
  std::vector<double> targets(l, 0.0);
  RegressionValidation out;
  if (keep_weights) out.fold_weights.resize(folds);
  for (std::size_t f = 0; f < folds; ++f) {
    const auto start = std::chrono::steady_clock::now();
    const Params run = fold_params(params, f);
    DistributedRows fold = fold_rows(data, fold_of, f, run, share, collective);
    Reporter log = fold_log(reporter, params, f, folds);
    const std::vector<double>* from = warm != nullptr ? &(*warm)[f]
                                      : lead && f > 0 ? &lead_w
                                                      : nullptr;
    LinearModel model = train_regression(training_matrix(fold, false), fold.labels, run, log, from,
                                         nullptr, &fold.weights);
    fold = DistributedRows();
    // The held-out rows' (value, target) pairs of every rank, in file order.
    const std::vector<double> values = decision_values(data.rows, model.w);
    std::vector<double> mine;
    for (std::size_t j = 0; j < own; ++j) {
      if (fold_of[first + j] != f) continue;
      mine.push_back(values[j]);
      mine.push_back(data.labels[j]);
    }
    const std::vector<double> pairs = collective.gather_all(mine);
    RegressionScore fold_score;
    std::size_t k = 0;
    for (std::size_t r = 0; r < l; ++r) {
      if (fold_of[r] != f) continue;
      predicted[r] = pairs[k];
      targets[r] = pairs[k + 1];
      fold_score.add(pairs[k], pairs[k + 1]);
      k += 2;
    }
    if (lead && f == 0) lead_w = model.w;
    if (keep_weights) out.fold_weights[f] = std::move(model.w);
    print_fold_line(reporter, fold_lines, f, folds, regression_fold_text(fold_score, k / 2), start);
  }
  score_rows(predicted, targets, out);
  return out;
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
  double first = 0;
  if (start) {
    first = *start;
  } else {
    first = search_start_C(static_cast<double>(data.total_rows),
                           largest_row_norm2_ranks(data, collective), params.loss.value());
  }
  return search_C(
      params, first, reporter,
      [&](const Params& step, Reporter& log, const std::vector<LinearModel>* warm) {
        return cross_validate_ranks(data, step, share, log, collective, warm, params.verbose);
      },
      on_step);
}

}  // namespace cdl
