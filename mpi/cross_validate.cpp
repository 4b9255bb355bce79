#include "cross_validate.h"

#include <algorithm>
#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "select/random.h"
#include "train/cross_validation.h"
#include "train/train.h"

namespace cdl {

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
    DistributedRows fold = data;  // the rows as read, not yet laid out
    fold.weights = data.weights.empty() ? std::vector<double>(own, 1.0) : data.weights;
    for (std::size_t j = 0; j < own; ++j) {
      if (fold_of[first + j] == f) fold.weights[j] = 0;
    }
    count_rows(fold, collective);
    Params fold_params = params;
    fold_params.seed = derive_seed(params.seed, f + 1);
    share(fold, fold_params);
    Reporter log(reporter.stream(), params.verbose ? reporter.level() : Reporter::Level::kQuiet);
    if (params.verbose) log.info(fold_header(f, folds, params.C));
    const LinearModel* from = warm != nullptr ? &(*warm)[f]
                              : lead && f > 0 ? &out.models[0]
                                              : nullptr;
    InitialWeights start_w;
    if (from != nullptr) {
      start_w = initial_weights(*from, data.classes, data.rows.num_cols, params.bias);
    }
    LinearModel model = train(DataMatrix{nullptr, &fold.rows, &fold.weights, &fold.share},
                              fold.classes, fold_params, log, from != nullptr ? &start_w : nullptr);
    if (fold.share.parts == 1) {
      // The serial dual CD ran on rank 0 alone: its weights to every rank.
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
    if (fold_lines && reporter.level() != Reporter::Level::kQuiet) {
      const double ms =
          1000 * std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      reporter.stream() << fold_line(f, folds,
                                     accuracy_text(static_cast<std::size_t>(right),
                                                   static_cast<std::size_t>(held)),
                                     ms)
                        << '\n'
                        << std::flush;
    }
    out.models[f] = std::move(model);
  }
  out.accuracy = static_cast<double>(correct) / static_cast<double>(l);
  return out;
}

CSearch search_C_ranks(const DistributedRows& data, const Params& params,
                       const std::optional<double>& start, const ShareRows& share,
                       Reporter& reporter, MpiCollective& collective,
                       const std::function<void(double, double)>& on_step) {
  double first = 0;
  if (start) {
    first = *start;
  } else {
    // The largest ||x_j||^2 of every rank's rows.
    const DataMatrix mine{nullptr, &data.rows};
    double largest = 0;
    for (double norm2 : collective.gather_all(
             std::vector<double>{data.rows.num_rows > 0 ? largest_row_norm2(mine) : 0.0})) {
      largest = std::max(largest, norm2);
    }
    first = search_start_C(static_cast<double>(data.total_rows), largest, params.loss.value());
  }
  return search_C(
      params, first, reporter,
      [&](const Params& step, Reporter& log, const std::vector<LinearModel>* warm) {
        return cross_validate_ranks(data, step, share, log, collective, warm, params.verbose);
      },
      on_step);
}

}  // namespace cdl
