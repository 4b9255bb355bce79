#include "train/cross_validation.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <mutex>
#include <numeric>
#include <optional>
#include <random>
#include <sstream>
#include <utility>

#include "select/random.h"
#include "train/train.h"
#include "util/parallel.h"

namespace cdl {

std::vector<std::size_t> assign_folds(const ClassMap& classes, std::size_t folds, bool stratified,
                                      std::uint64_t seed) {
  const std::size_t l = classes.class_of.size();
  std::vector<std::size_t> order(l);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::mt19937_64 rng(seed);
  shuffle(order, rng);
  std::vector<std::size_t> fold_of(l);
  if (!stratified) {
    for (std::size_t p = 0; p < l; ++p) fold_of[order[p]] = p * folds / l;
    return fold_of;
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return classes.class_of[a] < classes.class_of[b];
  });
  for (std::size_t p = 0; p < l; ++p) fold_of[order[p]] = p % folds;
  return fold_of;
}

std::vector<std::size_t> fold_assignment(const ClassMap& classes, std::size_t folds,
                                         const Params& params) {
  return assign_folds(classes, folds, params.stratified, derive_seed(params.seed, 0x5eed));
}

std::size_t fold_count(const Params& params, std::size_t rows, Reporter& reporter) {
  const auto folds = static_cast<std::size_t>(params.cv_folds);
  if (folds <= rows) return folds;
  reporter.warning(std::to_string(folds) + " folds of " + std::to_string(rows) +
                   " instances: using " + std::to_string(rows) + " (leave-one-out)");
  return rows;
}

void run_folds(const std::vector<std::size_t>& fold_of, std::size_t folds, const Params& params,
               Reporter& reporter, bool fold_lines, const FoldTask& task, bool lead_fold) {
  const std::size_t l = fold_of.size();
  const std::size_t lead = lead_fold && folds > 0 ? 1 : 0;
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
      std::vector<std::uint8_t> held_out(l);
      for (std::size_t r = 0; r < l; ++r) held_out[r] = fold_of[r] == f;
      Params fold_params = cdl::fold_params(params, f);
      // The folds are the parallel work, except the lead fold, which runs alone.
      if (f >= lead) fold_params.threads = 1;
      Reporter log(logs[f], fold_level);
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
  const unsigned threads = thread_count(params);
  if (lead > 0) run_fold(0);  // its error, if any, is thrown before the others start
  const std::vector<std::exception_ptr> errors =
      run_tasks(folds - lead, threads, [&](std::size_t k) { run_fold(lead + k); });
  for (const std::exception_ptr& error : errors) {
    if (error) std::rethrow_exception(error);
  }
}

Params fold_params(const Params& params, std::size_t f) {
  Params out = params;
  out.seed = derive_seed(params.seed, f + 1);
  return out;
}

std::string fold_header(std::size_t f, std::size_t folds, double C) {
  char line[96];
  std::snprintf(line, sizeof line, "fold %zu/%zu, C = %g", f + 1, folds, C);
  return line;
}

std::string fold_line(std::size_t f, std::size_t folds, const std::string& result, double ms) {
  char time[64];
  std::snprintf(time, sizeof time, ", %.1f ms", ms);
  return "fold " + std::to_string(f + 1) + "/" + std::to_string(folds) + ": " + result + time;
}

std::string accuracy_text(std::size_t right, std::size_t held) {
  char line[96];
  std::snprintf(line, sizeof line, "accuracy %.4g%% (%zu/%zu)",
                held > 0 ? 100.0 * static_cast<double>(right) / static_cast<double>(held) : 0.0,
                right, held);
  return line;
}

bool starts_from_lead_fold(const Params& params, std::size_t folds) {
  return solver_info(params.solver).warm_start && folds > 1;
}

CrossValidation cross_validate(const CscMatrix& x, const ClassMap& classes, const Params& params,
                               Reporter& reporter, const std::vector<LinearModel>* warm,
                               bool fold_lines, bool keep_models) {
  return cross_validate(DataMatrix{&x, nullptr}, classes, params, reporter, warm, fold_lines,
                        keep_models);
}

CrossValidation cross_validate(const DataMatrix& data, const ClassMap& classes,
                               const Params& params, Reporter& reporter,
                               const std::vector<LinearModel>* warm, bool fold_lines,
                               bool keep_models) {
  const std::size_t l = data.num_rows();
  const std::size_t folds = fold_count(params, l, reporter);
  const std::vector<std::size_t> fold_of = fold_assignment(classes, folds, params);

  CrossValidation out;
  if (keep_models) out.models.resize(folds);
  // Without `warm`, a solver that can start from given weights trains fold
  // 0 first, from 0 and alone, and then every other fold from its model:
  // the training sets of two folds share three of their four fifths (-v 5),
  // so fold 0's model is a close start (on the wide text file 5 CDPER outer
  // iterations instead of 16), and every fold still stops by its own test.
  // The start of each fold is fixed, so the result does not depend on the
  // thread count.
  const bool lead = warm == nullptr && starts_from_lead_fold(params, folds);
  LinearModel lead_model;
  std::vector<int> predicted(l);
  // The folds share one matrix (the rows alone for a run that trains on
  // them, else the columns and, if the solver needs them, the rows): a
  // fold's training problem holds its test rows out with C_j = 0, which
  // gives the same model as training on a copy without them, at no copy's
  // memory.
  std::optional<CsrMatrix> own_rows;
  std::optional<CscMatrix> own_columns;
  DataMatrix shared = data;
  if (trains_on_rows(params)) {
    if (shared.rows == nullptr) shared.rows = &own_rows.emplace(to_csr(*data.columns));
    shared.columns = nullptr;
  } else {
    if (shared.columns == nullptr) {
      own_columns.emplace(to_csc(*data.rows));
      own_columns->checked_cost = data.rows->checked_cost;
      shared.columns = &*own_columns;
    }
    if (solver_info(params.solver).needs_rows && shared.rows == nullptr) {
      shared.rows = &own_rows.emplace(to_csr(*data.columns));
    }
  }
  run_folds(
      fold_of, folds, params, reporter, fold_lines,
      [&](std::size_t f, const std::vector<std::uint8_t>& held_out, const Params& fold_params,
          Reporter& log) {
        const LinearModel* start = warm != nullptr ? &(*warm)[f]
                                   : lead && f > 0 ? &lead_model
                                                   : nullptr;
        InitialWeights start_w;
        if (start != nullptr) {
          start_w = initial_weights(*start, classes, shared.num_cols(), params.bias);
        }
        LinearModel model =
            train(shared, classes, fold_params, log, start ? &start_w : nullptr, &held_out);
        const std::vector<int> fold_predicted = shared.columns != nullptr
                                                    ? model.predict(*shared.columns)
                                                    : model.predict(*shared.rows);
        if (lead && f == 0) {
          lead_model = std::move(model);  // kept whole until every fold is done
        } else if (keep_models) {
          out.models[f] = std::move(model);
        }
        std::size_t held = 0;
        std::size_t right = 0;
        for (std::size_t r = 0; r < l; ++r) {
          if (!held_out[r]) continue;
          predicted[r] = fold_predicted[r];
          ++held;
          right += fold_predicted[r] == classes.labels[classes.class_of[r]];
        }
        return accuracy_text(right, held);
      },
      lead);
  if (lead && keep_models) out.models[0] = std::move(lead_model);
  std::size_t correct = 0;
  for (std::size_t r = 0; r < l; ++r) {
    correct += predicted[r] == classes.labels[classes.class_of[r]];
  }
  out.accuracy = static_cast<double>(correct) / static_cast<double>(l);
  return out;
}

Reporter& SearchLog::step() {
  text_.str("");
  step_.emplace(text_, out_.level());
  return *step_;
}

void SearchLog::end_step() {
  std::istringstream lines(text_.str());
  for (std::string line; std::getline(lines, line);) {
    if (verbose_ || seen_.insert(line).second) {
      out_.stream() << line << '\n';
    } else {
      ++repeated_;
    }
  }
  out_.stream() << std::flush;
}

void SearchLog::finish() {
  if (repeated_ == 0) return;
  out_.info("cdtrain: " + std::to_string(repeated_) +
            " lines of the folds repeated an earlier C's and are not shown (-V shows them)");
}

double search_start_C(const CscMatrix& x, LossKind loss) {
  return search_start_C(DataMatrix{&x, nullptr}, loss);
}

double search_start_C(const DataMatrix& data, LossKind loss) {
  return search_start_C(static_cast<double>(data.num_rows()), largest_row_norm2(data), loss);
}

double search_start_C(double rows, double largest_norm2, LossKind loss) {
  double min_C = 1.0 / (rows * largest_norm2);
  if (loss != LossKind::kLogistic) min_C /= 2;
  return std::pow(2.0, std::floor(std::log2(min_C)));
}

double largest_row_norm2(const DataMatrix& data) {
  // ||x_j||^2 of each row, its terms in increasing column order either way.
  std::vector<double> row_norm2(data.num_rows(), 0.0);
  if (data.columns != nullptr) {
    const CscMatrix& x = *data.columns;
    for (std::size_t t = 0; t < x.nnz(); ++t) row_norm2[x.row_idx[t]] += x.values[t] * x.values[t];
  } else {
    for (std::size_t j = 0; j < row_norm2.size(); ++j) {
      double sum = 0;
      for (auto k = data.rows->row_ptr[j]; k < data.rows->row_ptr[j + 1]; ++k) {
        const double v = data.rows->values[static_cast<std::size_t>(k)];
        sum += v * v;
      }
      row_norm2[j] = sum;
    }
  }
  return std::max(*std::max_element(row_norm2.begin(), row_norm2.end()), 1e-300);
}

bool fold_models_moved(const std::vector<const std::vector<double>*>& before,
                       const std::vector<const std::vector<double>*>& after) {
  for (std::size_t f = 0; f < before.size() && f < after.size(); ++f) {
    const std::vector<double>& a = *before[f];
    const std::vector<double>& b = *after[f];
    if (a.size() != b.size()) return true;
    double squares = 0;
    for (std::size_t k = 0; k < a.size(); ++k) squares += (b[k] - a[k]) * (b[k] - a[k]);
    if (std::sqrt(squares) > 1e-15) return true;
  }
  return false;
}

CSearch search_C(const CscMatrix& x, const ClassMap& classes, const Params& params, double start,
                 Reporter& reporter, const std::function<void(double, double)>& on_step) {
  return search_C(DataMatrix{&x, nullptr}, classes, params, start, reporter, on_step);
}

CSearch search_C(const DataMatrix& data, const ClassMap& classes, const Params& params,
                 double start, Reporter& reporter,
                 const std::function<void(double, double)>& on_step) {
  return search_C(
      params, start, reporter,
      [&](const Params& step, Reporter& log, const std::vector<LinearModel>* warm) {
        return cross_validate(data, classes, step, log, warm, params.verbose);
      },
      on_step);
}

CSearch search_C(const Params& params, double start, Reporter& reporter,
                 const SearchStep& cross_validation,
                 const std::function<void(double, double)>& on_step) {
  CSearch best;
  SearchLog log(reporter, params.verbose);
  std::vector<LinearModel> warm;
  int unchanged = 0;  // consecutive values of C at which no fold's model moved
  // As LIBLINEAR: a start above the largest C searches that C alone.
  for (double C = std::min(start, kMaxSearchC); C <= kLargestSearchC; C *= 2) {
    Params step = params;
    step.C = C;
    const bool can_warm = !warm.empty() && solver_info(params.solver).warm_start;
    CrossValidation cv = cross_validation(step, log.step(), can_warm ? &warm : nullptr);
    log.end_step();
    on_step(C, cv.accuracy);
    if (cv.accuracy > best.best_accuracy) {
      best.best_C = C;
      best.best_accuracy = cv.accuracy;
    }
    best.last_C = C;
    std::vector<const std::vector<double>*> before, after;
    for (const LinearModel& model : warm) before.push_back(&model.w);
    for (const LinearModel& model : cv.models) after.push_back(&model.w);
    const bool moved = fold_models_moved(before, after);
    // Models that are all zero do not count: with an L1 regularizer w = 0
    // below a threshold C, and the solves start to move once C passes it.
    bool all_zero = true;
    for (std::size_t f = 0; f < cv.models.size() && all_zero; ++f) {
      for (double v : cv.models[f].w) all_zero = all_zero && v == 0;
    }
    unchanged = moved || all_zero ? 0 : unchanged + 1;
    warm = std::move(cv.models);
    if (unchanged == kSearchUnchangedStop && C < kMaxSearchC * (1 - 1e-12)) {
      best.stopped_unchanged = true;
      break;
    }
  }
  log.finish();
  return best;
}

}  // namespace cdl
