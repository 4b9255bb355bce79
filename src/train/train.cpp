#include "train/train.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>

#include "data/row_share.h"
#include "objective/evaluate.h"
#include "objective/objective.h"
#include "select/random.h"
#include "select/selection_rule.h"
#include "solvers/liblinear_numbers.h"
#include "solvers/primal_rule.h"
#include "util/error.h"
#include "util/parallel.h"

namespace cdl {
namespace {

// max(min(#positive, #negative), 1) / l over the rows that count (not held
// out, weight not 0), so that a fold's problem stops where its copy would.
double minority_share(const Problem& problem) {
  std::size_t positive = 0;
  std::size_t counted = 0;
  for (std::size_t j = 0; j < problem.y.size(); ++j) {
    if (!problem.counts(j)) continue;
    ++counted;
    positive += problem.y[j] > 0;
  }
  // The counts of every rank's rows, unless this rank holds every row.
  if (problem.share != nullptr && !problem.share->every_row()) {
    const std::vector<std::uint64_t> all =
        problem.share->collective->gather_all(std::vector<std::uint64_t>{positive, counted});
    positive = counted = 0;
    for (std::size_t k = 0; k < all.size(); k += 2) {
      positive += all[k];
      counted += all[k + 1];
    }
  }
  const std::size_t smaller = std::min(positive, counted - positive);
  return static_cast<double>(std::max<std::size_t>(smaller, 1)) /
         static_cast<double>(std::max<std::size_t>(counted, 1));
}

}  // namespace

SolveResult train_binary(const Problem& problem, const Params& params, std::uint64_t seed,
                         Reporter& reporter, const std::vector<double>* w0) {
  const SolverInfo& row = solver_info(params.solver);
  Params scaled = params;
  // A primal number's rule run by a dual solver scales eps as the primal
  // solver's row does (primal_rule.h).
  if ((row.eps_scale == EpsScale::kMinorityShare || stops_by_primal_rule(params)) &&
      !is_regression(params.loss.value())) {
    scaled.eps = *params.eps * minority_share(problem);
  }
  reporter.set_norm_name(row.norm_name);
  const SolveResult result =
      row.solve({problem, scaled, seed, reporter, row.warm_start ? w0 : nullptr});
  reporter.summary(row.name, result);
  return result;
}

double largest_cost(const ClassMap& classes, const Params& params,
                    const std::vector<double>* weights) {
  double c_max = params.C;
  for (int label : classes.labels) c_max = std::max(c_max, class_cost(params, label));
  if (weights != nullptr && !weights->empty()) {
    c_max *= std::max(1.0, *std::max_element(weights->begin(), weights->end()));
  }
  return c_max;
}

namespace {

// Headroom for the solvers' products of C sum_j x_ji^2 with weights and
// second derivatives (at most 4 for these losses).
double magnitude_limit() { return std::numeric_limits<double>::max() / 1024; }

// check_magnitudes()'s error for feature i, whose running sum reached the
// limit at instance `row`, value v.
[[noreturn]] void throw_too_large(std::size_t i, std::size_t row, double v, std::size_t num_cols,
                                  const Params& params) {
  char value[32];
  std::snprintf(value, sizeof value, "%g", v);
  if (params.bias >= 0 && i + 1 == num_cols) {
    throw ConfigError(std::string("-B ") + value +
                      " is too large to train on: C times the sum of its squares over the "
                      "instances overflows");
  }
  throw InstanceError(row, "feature " + std::to_string(i + 1) + " (value " + value +
                               ") is too large to train on: C times the sum of its squares "
                               "overflows; scale the data");
}

}  // namespace

void check_magnitudes(const CscMatrix& x, const ClassMap& classes, const Params& params,
                      double largest_magnitude, const std::vector<double>* weights) {
  const double c_max = largest_cost(classes, params, weights);
  const double limit = magnitude_limit();
  // With the largest |value| known, no column's sum can exceed C_max times
  // its square times the longest column's length: below half the limit,
  // every column passes the screen below, and nothing is left to read.
  const auto longest = static_cast<double>(longest_column(x));
  if (c_max * (largest_magnitude * largest_magnitude) * longest < limit / 2) return;
  // The exact test, entry by entry in column order, names the first value
  // at which C times the running sum of squares reaches the limit.
  const auto check_column = [&](std::size_t i) {
    double sum = 0;
    for (auto k = x.col_ptr[i]; k < x.col_ptr[i + 1]; ++k) {
      const double v = x.values[static_cast<std::size_t>(k)];
      sum += c_max * v * v;
      if (!(sum < limit)) {
        throw_too_large(i, x.row_idx[static_cast<std::size_t>(k)], v, x.num_cols, params);
      }
    }
  };
  // The screen: the terms are not negative, so the running sum only grows,
  // and a column whose whole sum (in four interleaved parts, with no branch
  // per entry) is below half the limit passes the exact test too; only a
  // column that does not, or whose sum is not a number, takes it.
  const auto screen_column = [&](std::size_t i) {
    const double* v = x.values.data();
    auto k = static_cast<std::size_t>(x.col_ptr[i]);
    const auto stop = static_cast<std::size_t>(x.col_ptr[i + 1]);
    double part[4] = {0, 0, 0, 0};
    for (; k + 4 <= stop; k += 4) {
      for (std::size_t t = 0; t < 4; ++t) part[t] += v[k + t] * v[k + t];
    }
    for (; k < stop; ++k) part[0] += v[k] * v[k];
    const double sum = c_max * ((part[0] + part[1]) + (part[2] + part[3]));
    if (!(sum < limit / 2)) check_column(i);
  };
  // Blocks of columns on threads; the error is the first bad column's, as
  // in one pass.
  run_in_blocks_or_throw(x.num_cols, thread_count(params), screen_column);
}

void check_magnitudes(const CsrMatrix& x, const ClassMap& classes, const Params& params,
                      double largest_magnitude, const std::vector<double>* weights) {
  const double c_max = largest_cost(classes, params, weights);
  const double limit = magnitude_limit();
  const auto longest = static_cast<double>(x.num_rows);  // no column is longer
  if (c_max * (largest_magnitude * largest_magnitude) * longest < limit / 2) return;
  // Every column's running sum, in row order; the first entry at which each
  // column's sum reaches the limit; then the first such column's error, as
  // the column test names it.
  std::vector<double> sum(x.num_cols, 0.0);
  std::vector<std::int64_t> first_bad(x.num_cols, -1);
  for (std::size_t j = 0; j < x.num_rows; ++j) {
    for (auto k = x.row_ptr[j]; k < x.row_ptr[j + 1]; ++k) {
      const auto t = static_cast<std::size_t>(k);
      const std::size_t i = x.col_idx[t];
      const double v = x.values[t];
      sum[i] += c_max * v * v;
      if (!(sum[i] < limit) && first_bad[i] < 0) first_bad[i] = k;
    }
  }
  for (std::size_t i = 0; i < x.num_cols; ++i) {
    if (first_bad[i] < 0) continue;
    const auto t = static_cast<std::size_t>(first_bad[i]);
    const auto after = std::upper_bound(x.row_ptr.begin(), x.row_ptr.end(), first_bad[i]);
    const auto row = static_cast<std::size_t>(after - x.row_ptr.begin()) - 1;
    throw_too_large(i, row, x.values[t], x.num_cols, params);
  }
}

void check_magnitudes(const DataMatrix& x, const ClassMap& classes, const Params& params,
                      double largest_magnitude) {
  if (x.columns != nullptr) {
    check_magnitudes(*x.columns, classes, params, largest_magnitude, x.weights);
  } else {
    check_magnitudes(*x.rows, classes, params, largest_magnitude, x.weights);
  }
}

namespace {

// The model of a classification run without its weights: its solver_type,
// labels, bias and number of features.
LinearModel model_header(std::size_t num_cols, const ClassMap& classes, const Params& params,
                         const SolverInfo& row) {
  LinearModel model;
  model.solver_type = model_type(row, params);
  model.labels = classes.labels;
  model.bias = params.bias;
  model.num_features = num_cols - (params.bias >= 0 ? 1 : 0);
  // A solver with an unregularized intercept returns w0 after w; it is
  // written as LIBLINEAR's bias weight with bias 1 (validate() refuses -B).
  if (row.intercept) model.bias = 1;
  return model;
}

// A safety net: check_magnitudes() keeps every known input from a weight
// that is not a finite number; throws for one, naming it and the class.
void check_finite(const std::vector<double>& w, bool bias_last, int label) {
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (std::isfinite(w[i])) continue;
    const bool bias = bias_last && i + 1 == w.size();
    throw Error("training failed: the weight of " +
                (bias ? std::string("the bias") : "feature " + std::to_string(i + 1)) + " (class " +
                std::to_string(label) + ") is not a finite number; scale the data or lower C");
  }
}

// Runs train_class(k, reporter) for k < problems on `threads` threads, each
// class reporting into a log of its own. The logs go out to `reporter` in
// class order as soon as every class before them is done, so that the
// output is the same as on one thread; it ends with the first failed class,
// whose error is thrown.
template <class TrainClass>
void train_classes_on_threads(std::size_t problems, unsigned threads, Reporter& reporter,
                              const TrainClass& train_class) {
  std::vector<std::ostringstream> logs(problems);
  std::vector<char> done(problems, 0);  // 1: trained, 2: failed
  std::size_t flushed = 0;
  std::mutex flush_mutex;
  bool failed = false;
  const auto flush_ready = [&] {
    for (; !failed && flushed < problems && done[flushed] != 0; ++flushed) {
      reporter.stream() << logs[flushed].str();
      failed = done[flushed] == 2;
    }
  };
  const std::vector<std::exception_ptr> errors = run_tasks(problems, threads, [&](std::size_t k) {
    const std::unique_ptr<Reporter> log = reporter.problem_reporter(k, logs[k]);
    try {
      train_class(k, *log);
    } catch (...) {
      const std::lock_guard<std::mutex> lock(flush_mutex);
      done[k] = 2;
      flush_ready();
      throw;
    }
    const std::lock_guard<std::mutex> lock(flush_mutex);
    done[k] = 1;
    flush_ready();
  });
  for (const std::exception_ptr& error : errors) {
    if (error) std::rethrow_exception(error);
  }
}

// One model over all classes, by the row's solve_all_classes: the weights
// as the model holds them (nr_w per feature), checked as one-vs-rest's are.
std::vector<double> train_all_classes(const SolverInfo& row, const CscMatrix& x,
                                      const CsrMatrix* rows, const ClassMap& classes,
                                      const Params& params, Reporter& reporter,
                                      const std::vector<std::uint8_t>* held_out,
                                      const std::vector<double>* weights, std::size_t nr_w) {
  std::vector<double> class_costs;
  for (int label : classes.labels) class_costs.push_back(class_cost(params, label));
  reporter.set_norm_name(row.norm_name);
  std::vector<double> w = row.solve_all_classes({x, rows, classes, class_costs, held_out, weights,
                                                 params, derive_seed(params.seed, 0), reporter});
  if (w.size() != x.num_cols * nr_w) {
    throw Error(std::string("solver ") + row.name + " returned " + std::to_string(w.size()) +
                " weights for " + std::to_string(x.num_cols) + " features and " +
                std::to_string(nr_w) + " classes");
  }
  for (std::size_t k = 0; k < nr_w; ++k) {
    std::vector<double> column(x.num_cols);
    for (std::size_t i = 0; i < x.num_cols; ++i) column[i] = w[i * nr_w + k];
    check_finite(column, params.bias >= 0, classes.labels[k]);
  }
  return w;
}

// trains_on_rows() for `row`.
bool rows_suffice(const SolverInfo& row, const Params& params) {
  if (!row.needs_rows || row.solve_all_classes != nullptr) return false;
  const char* name = rule_name(params);
  if (name == nullptr) return true;
  const RuleInfo* rule = find_rule(name);
  return rule != nullptr && rule->dual_needs == DualNeeds::kNone;
}

}  // namespace

std::string model_type(const SolverInfo& row, const Params& params) {
  if (params.choice.liblinear_number) {
    const ResolvedNumber number = resolve_liblinear_number(*params.choice.liblinear_number);
    return model_solver_type(solver_info(number.solver), number.loss, number.regularizer);
  }
  return model_solver_type(row, params.loss.value(), params.regularizer);
}

bool trains_on_rows(const Params& params) {
  return rows_suffice(solver_info(params.solver), params);
}

LinearModel train(const CscMatrix& x, const ClassMap& classes, const Params& params,
                  Reporter& reporter, const InitialWeights* initial,
                  const std::vector<std::uint8_t>* held_out, const CsrMatrix* shared_rows) {
  return train_with_row(solver_info(params.solver), DataMatrix{&x, shared_rows}, classes, params,
                        reporter, initial, held_out);
}

LinearModel train(const DataMatrix& data, const ClassMap& classes, const Params& params,
                  Reporter& reporter, const InitialWeights* initial,
                  const std::vector<std::uint8_t>* held_out) {
  return train_with_row(solver_info(params.solver), data, classes, params, reporter, initial,
                        held_out);
}

LinearModel train_with_row(const SolverInfo& row, const CscMatrix& x, const ClassMap& classes,
                           const Params& params, Reporter& reporter, const InitialWeights* initial,
                           const std::vector<std::uint8_t>* held_out,
                           const CsrMatrix* shared_rows) {
  return train_with_row(row, DataMatrix{&x, shared_rows}, classes, params, reporter, initial,
                        held_out);
}

LinearModel train_with_row(const SolverInfo& row, const DataMatrix& data, const ClassMap& classes,
                           const Params& params, Reporter& reporter, const InitialWeights* initial,
                           const std::vector<std::uint8_t>* held_out) {
  const std::size_t nr_class = classes.labels.size();
  if (nr_class == 0) throw Error("no training instances");
  if (!has_classes(params.loss.value())) {
    throw ConfigError(std::string("loss ") + loss_info(params.loss.value()).name +
                      " has no classes: train it with train_regression()");
  }
  if (largest_cost(classes, params, data.weights) > data.checked_cost()) {
    check_magnitudes(data, classes, params);
  }
  const std::size_t num_cols = data.num_cols();
  LinearModel model = model_header(num_cols, classes, params, row);
  // The matrices the solver reads (see train.h).
  const bool rows_only = rows_suffice(row, params) && !reporter.needs_columns();
  std::optional<CsrMatrix> own_rows;
  const CsrMatrix* rows = data.rows;
  if ((row.needs_rows || rows_only) && rows == nullptr)
    rows = &own_rows.emplace(to_csr(*data.columns));
  std::optional<CscMatrix> own_columns;
  const CscMatrix* columns = rows_only ? nullptr : data.columns;
  if (!rows_only && columns == nullptr) columns = &own_columns.emplace(to_csc(*data.rows));
  if (!row.needs_rows) rows = nullptr;
  if (row.solve_all_classes != nullptr) {
    model.w = train_all_classes(row, *columns, rows, classes, params, reporter, held_out,
                                data.weights, model.nr_w());
    return model;
  }
  const std::size_t weights = num_cols + (row.intercept ? 1 : 0);
  const std::size_t nr_w = model.nr_w();
  // One problem's weights are moved in from its result (no second n-vector
  // beside the solver's state); one-vs-rest fills a column per class.
  if (nr_w > 1) model.w.assign(weights * nr_w, 0.0);

  // One-vs-rest problems on threads: each has its own seed and its own
  // column of w, so the model does not depend on the threads. A reporter
  // that observes the iterations sees the classes one after another on
  // this thread. Classes on threads take one each.
  const auto threads = static_cast<unsigned>(std::min<std::size_t>(nr_w, thread_count(params)));
  // With the rows spread over ranks, every rank trains the classes in turn
  // (their exchanges must come in the same order), each on -m's threads.
  const bool on_threads = threads > 1 && !reporter.observes_iterations() && data.share == nullptr;
  Params class_params = params;
  if (on_threads) class_params.threads = 1;

  // Trains class k's problem, reporting to `out`, into column k of w.
  const auto train_class = [&](std::size_t k, Reporter& out) {
    if (nr_w > 1) out.info("class " + std::to_string(classes.labels[k]) + " vs rest");
    const double c_pos = class_cost(params, classes.labels[k]);
    const double c_neg = nr_class == 2 ? class_cost(params, classes.labels[1]) : params.C;
    Problem problem = one_vs_rest(columns, classes, k, c_pos, c_neg, rows, held_out);
    problem.weights = data.weights;
    problem.share = data.share;
    out.begin_problem(problem, params.loss.value(), classes.labels[k]);
    SolveResult result = train_binary(problem, class_params, derive_seed(params.seed, k), out,
                                      initial ? &(*initial)[k] : nullptr);
    result.w.resize(weights, 0.0);
    check_finite(result.w, params.bias >= 0 || row.intercept, classes.labels[k]);
    if (nr_w == 1) {
      model.w = std::move(result.w);
      return;
    }
    for (std::size_t i = 0; i < weights; ++i) model.w[i * nr_w + k] = result.w[i];
  };

  if (on_threads) {
    train_classes_on_threads(nr_w, threads, reporter, train_class);
  } else {
    for (std::size_t k = 0; k < nr_w; ++k) train_class(k, reporter);
  }
  return model;
}

InitialWeights initial_weights(const LinearModel& model, const ClassMap& classes,
                               std::size_t num_cols, double bias) {
  const std::size_t problems = classes.labels.size() == 2 ? 1 : classes.labels.size();
  const std::size_t own = num_cols - (bias >= 0 ? 1 : 0);
  const std::size_t shared = std::min(own, model.num_features);
  const std::size_t k_max = model.nr_w();
  InitialWeights out(problems, std::vector<double>(num_cols, 0.0));
  for (std::size_t k = 0; k < problems; ++k) {
    const auto it = std::find(model.labels.begin(), model.labels.end(), classes.labels[k]);
    if (it == model.labels.end()) continue;
    auto column = static_cast<std::size_t>(it - model.labels.begin());
    double sign = 1.0;
    if (k_max == 1) {  // a binary model scores labels[0]; labels[1] is its negation
      sign = column == 0 ? 1.0 : -1.0;
      column = 0;
    }
    for (std::size_t i = 0; i < shared; ++i) out[k][i] = sign * model.w[i * k_max + column];
    if (bias >= 0 && model.bias >= 0) {
      out[k][own] = sign * model.w[model.num_features * k_max + column];
    }
  }
  return out;
}

}  // namespace cdl
