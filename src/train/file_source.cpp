#include "train/file_source.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "data/cache.h"
#include "data/input_file.h"
#include "data/instance_weights.h"
#include "data/libsvm_reader.h"
#include "data/problem.h"
#include "model/model.h"
#include "objective/loss.h"
#include "solvers/solver.h"
#include "solvers/solver_table.h"
#include "train/cross_validation.h"
#include "train/run_checks.h"
#include "train/trace.h"
#include "train/train.h"
#include "train/train_regression.h"
#include "util/atomic_file.h"
#include "util/error.h"

namespace cdl {

namespace {

// The training file as it was read: as columns, or, for a run that trains
// on rows alone (trains_on_rows), as rows only, so that no CSC stands
// beside the CSR.
struct TrainingData {
  LabeledCsc columns;
  std::optional<LabeledRows> rows;
  std::vector<double> weights;  // -W's, one a row, or empty

  const std::vector<double>& labels() const { return rows ? rows->labels : columns.labels; }
  const LineMap& lines() const { return rows ? rows->lines : columns.lines; }
  double largest_magnitude() const {
    return rows ? rows->largest_magnitude : columns.largest_magnitude;
  }
  const std::vector<double>* instance_weights() const {
    return weights.empty() ? nullptr : &weights;
  }
  DataMatrix matrix() const {
    return rows ? DataMatrix{nullptr, &rows->features, instance_weights()}
                : DataMatrix{&columns.features, nullptr, instance_weights()};
  }
  void set_checked_cost(double cost) {
    (rows ? rows->features.checked_cost : columns.features.checked_cost) = cost;
  }
  DataShape shape() const {
    const DataMatrix m = matrix();
    return {m.num_rows(), m.num_cols(), static_cast<std::uint64_t>(m.nnz())};
  }
  // Columns to rows, for a solver that reads rows alone, and back: the
  // other form is freed before training.
  void to_rows() {
    rows = LabeledRows{std::move(columns.labels), to_csr(columns.features),
                       std::move(columns.lines), columns.largest_magnitude};
    columns = LabeledCsc{};
  }
  void to_columns() {
    columns = LabeledCsc{std::move(rows->labels), to_csc(rows->features), std::move(rows->lines),
                         rows->largest_magnitude};
    rows.reset();
  }
};

// The -t test set in the training data's columns: features the training data
// lacks are dropped, and the bias column is appended.
CscMatrix test_columns(const CsrMatrix& rows, const LabeledCsc& data, double bias) {
  CscMatrix x = to_csc(rows, data.features.num_cols - (bias >= 0 ? 1 : 0));
  if (bias >= 0) append_constant_column(x, bias);
  return x;
}

// Writes the model and the trace, if any. Both files are written out before
// either is renamed into place, and the renames happen with the signals held
// back, so that a full disk or an interrupt leaves neither file. (Only a
// failed rename of the model, after the trace's, would leave the trace alone.)
void save(const std::string& model_path, const LinearModel& model,
          std::optional<TraceReporter>& trace, unsigned threads) {
  AtomicFileWriter model_file(model_path);
  write_model(
      model, [&model_file](const std::string& chunk) { model_file.write(chunk); }, threads);
  model_file.finish();
  if (trace) trace->finish();
  const DeferredSignals deferred;
  if (trace) trace->commit();
  model_file.commit();
}

// The fixed blocks (--partitions) of one problem on all rows, for a solver
// that takes them (a fold or a class with fewer rows than blocks has fewer);
// 0 for the others.
std::size_t partitions_of(const Params& params, const TrainingData& data) {
  const SolverInfo& solver = solver_info(params.solver);
  if (solver.partitions == nullptr) return 0;
  const DataMatrix matrix = data.matrix();
  return solver.partitions(params, matrix.nnz(), matrix.num_rows(), matrix.num_cols());
}

// The header's description of the run, with the blocks when they were
// given or are more than one.
std::string header_run(const Params& params, std::size_t parts) {
  std::string run = describe_run(params);
  const bool given = params.own<PartitionOptions>().count.has_value();
  if (parts > 1 || (parts == 1 && given)) {
    run += ", " + std::to_string(parts) + (parts == 1 ? " partition" : " partitions") +
           (given ? "" : " (default)") + (params.own<DualOptions>().fixed_parts ? ", fixed" : "");
  }
  return run;
}

// Usage errors of a regression or one-class run: the options that need
// classes, and for the one-class SVM those it does not have yet.
void check_regression_options(const RunRequest& request, const Params& params) {
  const std::string loss = loss_info(params.loss.value()).name;
  const bool one_class = is_one_class(params.loss.value());
  const std::string what = one_class ? " is the one-class SVM" : " is a regression";
  if (one_class && request.find_C) {
    throw ConfigError("-C searches C; -l " + loss + what + ", with no C");
  }
  if (!params.class_weights.empty()) {
    throw ConfigError("-wi weighs classes; -l " + loss + what + ", with none");
  }
  if (params.stratified) {
    throw ConfigError("--stratified keeps class shares; -l " + loss + what + ", with none");
  }
  if (!request.test_path.empty()) {
    throw ConfigError("-t adds a test accuracy column; -l " + loss + what + ", with no accuracy");
  }
  if (one_class && params.cv_folds > 0) {
    throw ConfigError("-v: cross validation of the one-class SVM (-l " + loss +
                      ") is not supported; train a model and score it with cdpredict");
  }
}

// The cache of --cache or --cache-file, or "".
std::string cache_path(const RunRequest& request) {
  if (!request.cache_file.empty()) return request.cache_file;
  return request.cache ? default_cache_path(request.training_path) : "";
}

// Refuses, before reading anything, outputs that would replace an input
// (the model may replace the -i model, which is read first: training on from
// a model and keeping the result), a trace that is the model, and outputs
// that cannot be created.
void check_output_paths(const RunRequest& request, const Params& params) {
  const std::vector<std::string> inputs{request.training_path, request.test_path,
                                        request.weights_path};
  for (const std::string& input : inputs) {
    if (input.empty() || input == kStandardInput) continue;
    if (params.cv_folds == 0) check_not_input(request.model_path, "model_file", input);
    if (!request.trace_path.empty()) check_not_input(request.trace_path, "--trace", input);
  }
  if (!request.trace_path.empty()) {
    if (!request.initial_model.empty()) {
      check_not_input(request.trace_path, "--trace", request.initial_model);
    }
    if (params.cv_folds == 0 && same_file(request.trace_path, request.model_path)) {
      throw ConfigError("--trace and model_file are both '" + request.model_path + "'");
    }
  }
  const std::string cache = cache_path(request);
  if (!cache.empty()) {
    if (request.training_path == kStandardInput ||
        !std::filesystem::is_regular_file(request.training_path)) {
      throw ConfigError("--cache needs a training file to check the cache against; '" +
                        request.training_path + "' is not one");
    }
    check_not_input(cache, "--cache-file", request.training_path);
    for (const std::string& output : {request.model_path, request.trace_path}) {
      if (!output.empty() && same_file(cache, output)) {
        throw ConfigError("--cache-file is also an output, '" + output + "'");
      }
    }
  }
  if (params.cv_folds == 0) check_writable_path(request.model_path);
  if (!request.trace_path.empty()) check_writable_path(request.trace_path);
}

// Warnings about -wi weights of absent labels and about one-class data.
void warn_about_labels(const RunRequest& request, const Params& params, const ClassMap& classes,
                       Reporter& reporter) {
  for (const auto& [label, weight] : params.class_weights) {
    if (std::find(classes.labels.begin(), classes.labels.end(), label) == classes.labels.end()) {
      reporter.warning("-w" + std::to_string(label) + ": no instance of " +
                       input_name(request.training_path) + " has label " + std::to_string(label) +
                       "; the weight is unused");
    }
  }
  if (classes.labels.size() == 1) {
    const std::string label = std::to_string(classes.labels[0]);
    reporter.warning(input_name(request.training_path) + ": every instance has label " + label +
                     "; as LIBLINEAR does, the model will predict " + label + " for everything");
  }
}

// The bytes of a regular file that looks_wide() reads.
constexpr std::size_t kShapeSampleBytes = std::size_t{1} << 20;

// A guess, from the first kShapeSampleBytes of a regular file, whether the
// data has more features than instances: the largest index of the sample's
// lines against the lines that the file's size suggests. Only the form the
// file is read in (rows for dcd, columns for cdper) follows the guess, to
// spare a transposition; the solver follows the shape read, and a wrong
// guess costs the transposition, never a different model. False for
// standard input and pipes.
bool looks_wide(const std::string& path) {
  std::error_code error;
  if (path == kStandardInput || !std::filesystem::is_regular_file(path, error)) return false;
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  std::ifstream in(path, std::ios::binary);
  if (error || size == 0 || !in) return false;
  std::string line;
  std::size_t bytes = 0;
  std::size_t lines = 0;
  unsigned long long largest = 0;
  while (bytes < kShapeSampleBytes && std::getline(in, line)) {
    bytes += line.size() + 1;
    ++lines;
    const std::size_t colon = line.rfind(':');
    const std::size_t space = colon == std::string::npos ? colon : line.find_last_of(" \t", colon);
    if (space != std::string::npos) {
      largest = std::max(largest, std::strtoull(line.c_str() + space + 1, nullptr, 10));
    }
  }
  const double instances =
      static_cast<double>(lines) * static_cast<double>(size) / static_cast<double>(bytes);
  return lines > 0 && static_cast<double>(largest) > instances;
}

// Reads the training data; a model file given as the data (swapped
// arguments) gets the hint cdpredict gives for the opposite mistake.
// A run that trains on rows alone (and writes no trace, whose evaluations
// read columns) reads rows; with --cache, the cache's columns are loaded and
// train() transposes them (a CSR beside the CSC: the cache saves the parse,
// not the memory).
TrainingData read_training_data(const RunRequest& request, const Params& params,
                                const ReadOptions& options, const std::string& cache,
                                CacheUse& cache_use, const std::string& tool) {
  // When the data's shape chooses between dcd (rows) and cdper (columns),
  // the form of looks_wide()'s guess is read.
  // A regression reads rows only to train once (-v and -C read columns).
  const bool plain_regression = is_regression(params.loss.value()) && !request.find_C &&
                                params.cv_folds == 0 && trains_on_rows(params);
  const bool by_rows =
      cache.empty() && request.trace_path.empty() &&
      (plain_regression ||
       (has_classes(params.loss.value()) &&
        (trains_on_rows(params) || (shape_chooses(request) && looks_wide(request.training_path)))));
  try {
    TrainingData data;
    if (by_rows) {
      data.rows = read_libsvm_rows(request.training_path, options);
    } else {
      data.columns = cache.empty()
                         ? read_libsvm_csc(request.training_path, options)
                         : read_with_cache(request.training_path, options, cache, cache_use);
    }
    if (!request.weights_path.empty()) {  // never cached: read at each run
      data.weights = read_instance_weights(request.weights_path, data.labels().size());
    }
    return data;
  } catch (const ParseError& e) {
    if (e.line() == 1 && e.reason().find("'solver_type'") != std::string::npos) {
      throw ParseError(e.path(), e.line(),
                       e.reason() + "; this looks like a model file, not training data (usage: " +
                           tool + " [options] training_file [model_file])");
    }
    throw;
  }
}

class FileSource : public RunSource {
 public:
  explicit FileSource(std::string tool) : tool_(std::move(tool)) {}

  const std::string& tool() const override { return tool_; }

  void check_request(const RunRequest& request, const Params& params) override {
    // A regression or the one-class SVM: one problem, no classes.
    if (!has_classes(params.loss.value())) check_regression_options(request, params);
    // The trace evaluates f of a margin or regression loss, one problem at a
    // time: the one-class SVM and a model over all classes have neither.
    if (!request.trace_path.empty() &&
        (is_one_class(params.loss.value()) || solver_info(params.solver).solve_all_classes)) {
      throw ConfigError(std::string("--trace: solver ") + solver_info(params.solver).name +
                        " has no trace; its progress lines give each iteration's objective");
    }
    check_output_paths(request, params);
  }

  DataShape read(const RunRequest& request, const Params& params) override {
    ReadOptions options;
    options.integer_labels = has_classes(params.loss.value());
    options.bias = params.bias;
    options.threads = params.threads;  // -m's, or 0: the reader's own default
    options.pipe_command = tool_ + " [options] - " + request.model_path;
    cache_ = cache_path(request);
    data_ = read_training_data(request, params, options, cache_, cache_use_, tool_);
    return data_.shape();
  }

  void lay_out(const RunRequest& request, Params& params, bool chosen) override {
    if (!chosen) return;
    if (data_.rows && !trains_on_rows(params)) {
      data_.to_columns();
    } else if (!data_.rows && cache_.empty() && request.trace_path.empty() &&
               trains_on_rows(params)) {
      data_.to_rows();
    }
  }

  void check_data(const RunRequest& request, const Params& params, Reporter& reporter) override {
    if (!cache_use_.warning.empty()) reporter.warning(cache_use_.warning);
    const bool classify = has_classes(params.loss.value());
    if (classify) classes_ = map_classes(data_.labels());
    // Values too large to train on, named by their line in the file, at
    // the largest C the run trains at, recorded in the matrix.
    data_.set_checked_cost(check_values(data_.matrix(), classes_, params, request.find_C,
                                        data_.largest_magnitude(), [&](const InstanceError& e) {
                                          throw ParseError(input_name(request.training_path),
                                                           data_.lines().line_of(e.row()),
                                                           e.reason());
                                        }));
    parts_ = partitions_of(params, data_);
    if (!classify) return;
    warn_about_labels(request, params, classes_, reporter);
    const SolverInfo& solver = solver_info(params.solver);
    if (params.threads > 1 && params.cv_folds == 0 && classes_.labels.size() <= 2 &&
        (!solver.solve_on_threads || (parts_ == 1 && solver.threads_run_partitions))) {
      const std::string why = parts_ == 1 ? " runs on one thread with one partition (--partitions)"
                                          : " runs on one thread";
      reporter.warning("-m " + std::to_string(params.threads) +
                       ": a problem of two classes without -v or -C is one solve, which solver " +
                       solver.name + why + "; -m has nothing to run at once");
    }
  }

  std::string describe(const Params& params) override { return ", " + header_run(params, parts_); }

  CSearch search_C(const Params& params, const std::optional<double>& start, Reporter& reporter,
                   const std::function<void(double, double)>& on_step) override {
    return cdl::search_C(data_.matrix(), classes_, params,
                         start ? *start : search_start_C(data_.matrix(), params.loss.value()),
                         reporter, on_step);
  }

  RegressionSearch search_regression(
      const Params& params, const std::optional<double>& start, Reporter& reporter,
      const std::function<void(double, double, double)>& on_step) override {
    return cdl::search_regression(data_.columns.features, data_.columns.labels, params, start,
                                  reporter, on_step, data_.instance_weights());
  }

  double cross_validate(const Params& params, Reporter& reporter) override {
    return cdl::cross_validate(data_.matrix(), classes_, params, reporter, nullptr, true, false)
        .accuracy;
  }

  RegressionValidation cross_validate_regression(const Params& params,
                                                 Reporter& reporter) override {
    return cdl::cross_validate_regression(data_.columns.features, data_.columns.labels, params,
                                          reporter, data_.instance_weights());
  }

  std::string share_for_training(const Params& /*params*/) override { return ""; }

  void train_and_save(const RunRequest& request, const Params& params,
                      Reporter& reporter) override {
    if (has_classes(params.loss.value())) {
      train_classifier(request, params, reporter);
    } else {
      train_regression_model(request, params, reporter);
    }
  }

 private:
  void train_classifier(const RunRequest& request, const Params& params, Reporter& reporter) {
    std::optional<InitialWeights> initial;
    if (!request.initial_model.empty()) {
      const LinearModel start = load_model(request.initial_model);
      if (start.task() == Task::kRegression) {
        throw Error("-i: " + request.initial_model + " is a regression model (" +
                    start.solver_type + "), and this run trains a classifier");
      }
      initial = initial_class_weights(start, classes_, data_.matrix().num_cols(), params.bias,
                                      "-i " + request.initial_model, "-B");
    }
    std::optional<LabeledCsr> test_data;
    std::optional<CscMatrix> test_x;
    std::optional<TestSet> test;
    std::optional<TraceReporter> trace;
    if (!request.trace_path.empty()) {
      if (!request.test_path.empty()) {
        test_data = read_libsvm_csr(request.test_path);
        test_x = test_columns(test_data->features, data_.columns, params.bias);
        test.emplace(TestSet{*test_x, test_data->labels});
      }
      const SolverInfo& row = solver_info(params.solver);
      trace.emplace(reporter, request.trace_path, test ? &*test : nullptr,
                    classes_.labels.size() > 2, regularizer_of(params, data_.matrix().num_cols()),
                    row.dual_trace, row.traces_intercept_gap(params.loss.value()));
    }
    Reporter& active = trace ? static_cast<Reporter&>(*trace) : reporter;
    const LinearModel model =
        train(data_.matrix(), classes_, params, active, initial ? &*initial : nullptr);
    if (trace && test && classes_.labels.size() > 2) {
      const std::vector<int> predicted = model.predict(*test_x);
      std::size_t correct = 0;
      for (std::size_t r = 0; r < predicted.size(); ++r) {
        correct += predicted[r] == static_cast<int>(test_data->labels[r]);
      }
      trace->model_accuracy(predicted.empty() ? 0.0
                                              : static_cast<double>(correct) /
                                                    static_cast<double>(predicted.size()));
    }
    save(request.model_path, model, trace, thread_count(params));
  }

  // A regression (-l sq, -l svr2): the targets as they are, one problem; or
  // a one-class model (-l oneclass), whose targets are ignored.
  void train_regression_model(const RunRequest& request, const Params& params, Reporter& reporter) {
    std::optional<std::vector<double>> initial;
    if (!request.initial_model.empty()) {
      initial = initial_regression_weights(load_model(request.initial_model),
                                           data_.matrix().num_cols(), params.bias);
    }
    std::optional<TraceReporter> trace;
    if (!request.trace_path.empty()) {
      trace.emplace(reporter, request.trace_path, nullptr, false,
                    regularizer_of(params, data_.matrix().num_cols()), false, false,
                    params.svr_epsilon.value_or(kDefaultSvrEpsilon),
                    params.loss == LossKind::kSquared &&
                        params.regularizer == RegularizerKind::kL1 &&
                        request.initial_model.empty());
    }
    Reporter& active = trace ? static_cast<Reporter&>(*trace) : reporter;
    const LinearModel model =
        train_regression(data_.matrix(), data_.labels(), params, active,
                         initial ? &*initial : nullptr, nullptr, data_.instance_weights());
    save(request.model_path, model, trace, thread_count(params));
  }

  std::string tool_;
  std::string cache_;  // --cache's or --cache-file's file, or ""
  CacheUse cache_use_;
  TrainingData data_;
  ClassMap classes_;       // none for a regression or the one-class SVM
  std::size_t parts_ = 0;  // partitions_of() the run
};

}  // namespace

std::unique_ptr<RunSource> file_source(const std::string& tool) {
  return std::make_unique<FileSource>(tool);
}

}  // namespace cdl
