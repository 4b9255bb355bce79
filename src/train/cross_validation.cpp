#include "train/cross_validation.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <optional>
#include <random>
#include <sstream>
#include <utility>

#include "select/random.h"
#include "train/folds.h"
#include "train/train.h"

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
  const std::size_t l = data.num_rows();
  return cross_validate_folds(
      classes, FoldRows{0, l, l, nullptr}, shared.num_cols(), params, reporter,
      [&](const Params& run, const std::vector<std::uint8_t>& held_out, const InitialWeights* start,
          Reporter& log) { return train(shared, classes, run, log, start, &held_out); },
      [&](const LinearModel& model) {
        return shared.columns != nullptr ? model.predict(*shared.columns)
                                         : model.predict(*shared.rows);
      },
      warm, fold_lines, keep_models);
}

Reporter& SearchLog::step() {
  text_.str("");
  step_.emplace(text_, out_.level(), out_, 0);
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
  const double min_C = loss_info(loss).start_C_scale / (rows * largest_norm2);
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
