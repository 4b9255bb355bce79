#include "train/folds.h"

#include <chrono>
#include <exception>
#include <mutex>
#include <sstream>
#include <string>
#include <utility>

#include "train/relay_reporter.h"
#include "util/parallel.h"

namespace cdl {

namespace {

// One fold's work for run_folds(): train with `held_out` rows (of those
// this process holds) left out under `fold_params` (the fold's own seed and
// threads), writing progress to `log`, and return the fold's result for its
// one line, e.g. "accuracy 81.48% (22/27)".
using FoldTask =
    std::function<std::string(std::size_t fold, const std::vector<std::uint8_t>& held_out,
                              const Params& fold_params, Reporter& log)>;

// Runs `task` for the folds 0..folds-1 of `fold_of`. Each fold's output is
// buffered and printed as soon as it and every fold before it are done
// (live, in fold order): its warnings, with params.verbose (-V) a "fold f/F,
// C = c" header and its per-iteration lines first, and with `fold_lines`
// and a reporter that is not quiet "fold f/F: RESULT, T ms". The first fold
// error is rethrown after the earlier folds' output.
//
// On one process the folds run on params.threads threads (0: one per core),
// each with one thread, except that with `lead_fold` fold 0 runs first and
// alone, with params.threads (its classes on threads), and is done (its
// error rethrown) before any other fold starts, so that the others may start
// from its model. On ranks (rows.collective) every fold runs alone, one after
// another on the calling thread, as the ranks' exchanges need.
void run_folds(const std::vector<std::size_t>& fold_of, std::size_t folds, const FoldRows& rows,
               const Params& params, Reporter& reporter, bool fold_lines, const FoldTask& task,
               bool lead_fold) {
  const std::size_t alone = rows.collective != nullptr ? folds : lead_fold && folds > 0 ? 1 : 0;
  std::vector<std::ostringstream> logs(folds);
  // Per-iteration lines only with -V, under a fold header; otherwise a
  // fold's own output is its warnings, and one line per fold follows it.
  const Reporter::Level fold_level = params.verbose ? reporter.level() : Reporter::Level::kQuiet;
  const bool print_lines = fold_lines && reporter.level() != Reporter::Level::kQuiet;
  // Each fold's output goes out as soon as it and every fold before it are
  // done, so that progress is live and in fold order whatever the threads.
  std::vector<char> done(folds, 0);
  std::size_t flushed = 0;
  std::mutex flush_mutex;
  const auto flush_ready = [&] {
    for (; flushed < folds && done[flushed] != 0; ++flushed) {
      reporter.stream() << logs[flushed].str() << std::flush;
    }
  };
  const auto run_fold = [&](std::size_t f) {
    const auto start = std::chrono::steady_clock::now();
    const auto finish = [&](char state) {
      const std::lock_guard<std::mutex> lock(flush_mutex);
      done[f] = state;
      flush_ready();
    };
    std::string result;
    try {  // whatever throws, the fold is marked done, so later folds print
      std::vector<std::uint8_t> held_out(rows.count);
      for (std::size_t j = 0; j < rows.count; ++j) held_out[j] = fold_of[rows.first + j] == f;
      Params fold_params = cdl::fold_params(params, f);
      // The folds are the parallel work, except those that run alone.
      if (f >= alone) fold_params.threads = 1;
      // Its progress to its log; its iterations to the run's reporter too.
      RelayReporter log(logs[f], fold_level, reporter, f);
      if (params.verbose) {
        log.info(fold_header(f, folds, params.C));
      }
      result = task(f, held_out, fold_params, log);
    } catch (...) {
      finish(2);
      throw;
    }
    if (print_lines) {
      const double ms =
          1000 * std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      logs[f] << fold_line(f, folds, result, ms) << '\n';
    }
    finish(1);
  };
  // A fold that runs alone throws its error before the next starts.
  for (std::size_t f = 0; f < alone; ++f) run_fold(f);
  const std::vector<std::exception_ptr> errors =
      run_tasks(folds - alone, thread_count(params), [&](std::size_t k) { run_fold(alone + k); });
  for (const std::exception_ptr& error : errors) {
    if (error) std::rethrow_exception(error);
  }
}

// The loop both cross validations share: fold f trains from (*warm)[f] if
// `warm` is given; else, when starts_from_lead_fold(), fold 0 trains first
// from 0 and alone, and every other fold from its result. `score(f, model,
// held_out)` scores the fold's held-out rows and returns its line's text;
// `kept` gets every fold's start for a later run (`to_start` of its model)
// if `keep`. The training sets of two folds share three of their four
// fifths (-v 5), so fold 0's model is a close start (on the wide text file 5
// CDPER outer iterations instead of 16), and every fold still stops by its
// own test. A fold's start is fixed whatever the threads or ranks, so the
// result does not depend on them.
template <class Start, class Score, class ToStart>
void fold_loop(const std::vector<std::size_t>& fold_of, std::size_t folds, const FoldRows& rows,
               const Params& params, Reporter& reporter, bool fold_lines,
               const std::vector<Start>* warm, const FoldTrainer<Start>& train, Score score,
               ToStart to_start, bool keep, std::vector<Start>& kept) {
  const bool lead = warm == nullptr && starts_from_lead_fold(params, folds);
  if (keep) kept.resize(folds);
  Start lead_start;  // kept whole until every fold is done
  run_folds(
      fold_of, folds, rows, params, reporter, fold_lines,
      [&](std::size_t f, const std::vector<std::uint8_t>& held_out, const Params& fold_params,
          Reporter& log) {
        const Start* start = warm != nullptr ? &(*warm)[f] : lead && f > 0 ? &lead_start : nullptr;
        LinearModel model = train(fold_params, held_out, start, log);
        std::string text = score(f, model, held_out);
        if (lead && f == 0) {
          lead_start = to_start(std::move(model));
        } else if (keep) {
          kept[f] = to_start(std::move(model));
        }
        return text;
      },
      lead);
  if (lead && keep) kept[0] = std::move(lead_start);
}

// Every rank's `mine` in rank order, or `mine` itself on one process.
template <class T>
std::vector<T> gathered(const FoldRows& rows, std::vector<T> mine) {
  return rows.collective != nullptr ? rows.collective->gather_all(mine) : mine;
}

}  // namespace

CrossValidation cross_validate_folds(const ClassMap& classes, const FoldRows& rows,
                                     std::size_t num_cols, const Params& params, Reporter& reporter,
                                     const FoldTrainer<InitialWeights>& train,
                                     const FoldPredictor& predict,
                                     const std::vector<LinearModel>* warm, bool fold_lines,
                                     bool keep_models) {
  // The whole data's classes, row by row, for the folds' draw: gathered
  // from the ranks, or this process's.
  std::size_t l = classes.class_of.size();
  std::size_t folds = 0;
  std::vector<std::size_t> fold_of;
  {
    ClassMap whole;
    if (rows.collective != nullptr) {
      whole.labels = classes.labels;
      const std::vector<std::uint64_t> class_of = rows.collective->gather_all(
          std::vector<std::uint64_t>(classes.class_of.begin(), classes.class_of.end()));
      whole.class_of.assign(class_of.begin(), class_of.end());
      l = whole.class_of.size();
    }
    folds = fold_count(params, l, reporter);
    fold_of = fold_assignment(rows.collective != nullptr ? whole : classes, folds, params);
  }

  std::vector<std::uint64_t> right_of(folds, 0);
  CrossValidation out;
  // Each fold writes its own held-out rows, so the folds on threads write
  // apart.
  out.predicted.assign(rows.count, 0);
  fold_loop<LinearModel>(
      fold_of, folds, rows, params, reporter, fold_lines, warm,
      [&](const Params& run, const std::vector<std::uint8_t>& held_out, const LinearModel* start,
          Reporter& log) {
        InitialWeights start_w;
        if (start != nullptr) start_w = initial_weights(*start, classes, num_cols, params.bias);
        return train(run, held_out, start != nullptr ? &start_w : nullptr, log);
      },
      [&](std::size_t f, const LinearModel& model, const std::vector<std::uint8_t>& held_out) {
        const std::vector<int> predicted = predict(model);
        std::uint64_t held = 0;
        std::uint64_t right = 0;
        for (std::size_t j = 0; j < rows.count; ++j) {
          if (!held_out[j]) continue;
          ++held;
          out.predicted[j] = predicted[j];
          right += predicted[j] == classes.labels[classes.class_of[j]];
        }
        const std::vector<std::uint64_t> counts =
            gathered(rows, std::vector<std::uint64_t>{held, right});
        held = right = 0;
        for (std::size_t r = 0; r < counts.size(); r += 2) {
          held += counts[r];
          right += counts[r + 1];
        }
        right_of[f] = right;
        return accuracy_text(static_cast<std::size_t>(right), static_cast<std::size_t>(held));
      },
      [](LinearModel&& model) { return std::move(model); }, keep_models, out.models);
  std::uint64_t correct = 0;
  for (std::uint64_t right : right_of) correct += right;
  out.accuracy = static_cast<double>(correct) / static_cast<double>(l);
  return out;
}

RegressionValidation cross_validate_regression_folds(
    const std::vector<double>& targets, const FoldRows& rows, const Params& params,
    Reporter& reporter, const FoldTrainer<std::vector<double>>& train, const FoldValues& values,
    const std::vector<std::vector<double>>* warm, bool keep_weights, bool fold_lines) {
  const std::size_t l = rows.total;
  const std::size_t folds = fold_count(params, l, reporter);
  const std::vector<std::size_t> fold_of = regression_fold_assignment(l, folds, params);
  // Every row's prediction by the model trained without its fold, and its
  // target, in file order.
  std::vector<double> predicted(l, 0.0);
  std::vector<double> all_targets(l, 0.0);
  RegressionValidation out;
  fold_loop<std::vector<double>>(
      fold_of, folds, rows, params, reporter, fold_lines, warm, train,
      [&](std::size_t f, const LinearModel& model, const std::vector<std::uint8_t>& held_out) {
        // The held-out rows' (value, target) pairs of every rank, in file order.
        const std::vector<double> fold_values = values(model);
        std::vector<double> mine;
        for (std::size_t j = 0; j < rows.count; ++j) {
          if (!held_out[j]) continue;
          mine.push_back(fold_values[j]);
          mine.push_back(targets[j]);
        }
        const std::vector<double> pairs = gathered(rows, std::move(mine));
        RegressionScore fold_score;
        std::size_t k = 0;
        for (std::size_t r = 0; r < l; ++r) {
          if (fold_of[r] != f) continue;
          predicted[r] = pairs[k];
          all_targets[r] = pairs[k + 1];
          fold_score.add(pairs[k], pairs[k + 1]);
          k += 2;
        }
        return regression_fold_text(fold_score, k / 2);
      },
      [](LinearModel&& model) { return std::move(model.w); }, keep_weights, out.fold_weights);
  score_rows(predicted, all_targets, out);
  out.predicted = std::move(predicted);
  return out;
}

}  // namespace cdl
