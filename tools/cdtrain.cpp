// cdtrain: trains a linear classifier from a LIBSVM-format file and writes a
// LIBLINEAR-format model; or runs cross validation (-v) or the search for C
// (-C) and prints the accuracies.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>

#include "cli.h"
#include "data/cache.h"
#include "data/input_file.h"
#include "data/instance_weights.h"
#include "data/libsvm_reader.h"
#include "data/problem.h"
#include "model/model.h"
#include "solvers/report.h"
#include "tool_main.h"
#include "train/cross_validation.h"
#include "train/trace.h"
#include "train/train.h"
#include "train/train_regression.h"
#include "util/atomic_file.h"

namespace {

// The training file as it was read: as columns, or, for a run that trains
// on rows alone (cdl::trains_on_rows), as rows only, so that no CSC stands
// beside the CSR.
struct TrainingData {
  cdl::LabeledCsc columns;
  std::optional<cdl::LabeledRows> rows;
  std::vector<double> weights;  // -W's, one a row, or empty

  const std::vector<double>& labels() const { return rows ? rows->labels : columns.labels; }
  const cdl::LineMap& lines() const { return rows ? rows->lines : columns.lines; }
  double largest_magnitude() const {
    return rows ? rows->largest_magnitude : columns.largest_magnitude;
  }
  const std::vector<double>* instance_weights() const {
    return weights.empty() ? nullptr : &weights;
  }
  cdl::DataMatrix matrix() const {
    return rows ? cdl::DataMatrix{nullptr, &rows->features, instance_weights()}
                : cdl::DataMatrix{&columns.features, nullptr, instance_weights()};
  }
  void set_checked_cost(double cost) {
    (rows ? rows->features.checked_cost : columns.features.checked_cost) = cost;
  }
  cdl::DataShape shape() const {
    const cdl::DataMatrix m = matrix();
    return {m.num_rows(), m.num_cols(), static_cast<std::uint64_t>(m.nnz())};
  }
  // Columns to rows, for a solver that reads rows alone, and back: the
  // other form is freed before training.
  void to_rows() {
    rows = cdl::LabeledRows{std::move(columns.labels), cdl::to_csr(columns.features),
                            std::move(columns.lines), columns.largest_magnitude};
    columns = cdl::LabeledCsc{};
  }
  void to_columns() {
    columns = cdl::LabeledCsc{std::move(rows->labels), cdl::to_csc(rows->features),
                              std::move(rows->lines), rows->largest_magnitude};
    rows.reset();
  }
};

// -C: one "log2c=... rate=..." line per C, as LIBLINEAR, then the best,
// named by the solver and problem, and a warning when the best is the largest
// C (the search stopped there).
void search(const cdl::TrainCommand& command, const cdl::Params& params, const TrainingData& data,
            const cdl::ClassMap& classes, cdl::Reporter& reporter) {
  const double start =
      command.cost_given ? params.C : cdl::search_start_C(data.matrix(), params.loss.value());
  const cdl::CSearch best =
      cdl::search_C(data.matrix(), classes, params, start, reporter, cdl::print_search_step);
  cdl::print_search_result("cdtrain", params, best, reporter);
}

// -C for a regression: one "log2c=... p=... Mean squared error=..." line per
// (C, p), as LIBLINEAR 2.50, then the best, named by the solver and problem.
void search_C_and_p(const cdl::TrainCommand& command, const cdl::Params& params,
                    const TrainingData& training, cdl::Reporter& reporter) {
  const cdl::LabeledCsc& data = training.columns;
  const bool with_p = cdl::is_svr(params.loss.value());
  const std::optional<double> start =
      command.cost_given ? std::optional<double>(params.C) : std::nullopt;
  const cdl::RegressionSearch best = cdl::search_regression(
      data.features, data.labels, params, start, reporter,
      [&](double C, double p, double mse) { cdl::print_regression_step(C, p, mse, with_p); },
      training.instance_weights());
  cdl::print_regression_search_result(params, best, reporter);
}

// The -t test set in the training data's columns: features the training data
// lacks are dropped, and the bias column is appended.
cdl::CscMatrix test_columns(const cdl::CsrMatrix& rows, const cdl::LabeledCsc& data, double bias) {
  cdl::CscMatrix x = cdl::to_csc(rows, data.features.num_cols - (bias >= 0 ? 1 : 0));
  if (bias >= 0) cdl::append_constant_column(x, bias);
  return x;
}

std::string label_list(const std::vector<int>& labels) {
  std::string out;
  for (int label : labels) out += (out.empty() ? "" : " ") + std::to_string(label);
  return out;
}

// Writes the model and the trace, if any. Both files are written out before
// either is renamed into place, and the renames happen with the signals held
// back, so that a full disk or an interrupt leaves neither file. (Only a
// failed rename of the model, after the trace's, would leave the trace alone.)
void save(const std::string& model_path, const cdl::LinearModel& model,
          std::optional<cdl::TraceReporter>& trace, unsigned threads) {
  cdl::AtomicFileWriter model_file(model_path);
  cdl::write_model(
      model, [&model_file](const std::string& chunk) { model_file.write(chunk); }, threads);
  model_file.finish();
  if (trace) trace->finish();
  const cdl::DeferredSignals deferred;
  if (trace) trace->commit();
  model_file.commit();
}

// -i's model must be of this problem: the same labels (so the same class
// count) and the same bias setting; otherwise its weights mean something else.
void check_initial_model(const std::string& path, const cdl::LinearModel& model,
                         const cdl::ClassMap& classes, const cdl::Params& params) {
  std::vector<int> theirs = model.labels;
  std::vector<int> ours = classes.labels;
  std::sort(theirs.begin(), theirs.end());
  std::sort(ours.begin(), ours.end());
  if (model.task() == cdl::Task::kRegression) {
    throw cdl::ConfigError("-i " + path + ": a regression model (" + model.solver_type +
                           ") cannot start a classifier");
  }
  if (theirs.size() != ours.size()) {
    throw cdl::ConfigError("-i " + path + ": the model has " + std::to_string(theirs.size()) +
                           " classes (" + label_list(theirs) + "), the training data " +
                           std::to_string(ours.size()) + " (" + label_list(ours) + ")");
  }
  if (theirs != ours) {
    throw cdl::ConfigError("-i " + path + ": the model's labels are " + label_list(theirs) +
                           ", the training data's " + label_list(ours));
  }
  if ((model.bias >= 0) != (params.bias >= 0) || (model.bias >= 0 && model.bias != params.bias)) {
    char buffer[96];
    std::snprintf(buffer, sizeof buffer, ": the model has bias %g, this run -B %g", model.bias,
                  params.bias);
    throw cdl::ConfigError("-i " + path + buffer + "; train with the model's -B");
  }
}

void train_and_save(const cdl::TrainCommand& command, const cdl::Params& params,
                    const TrainingData& data, const cdl::ClassMap& classes,
                    cdl::Reporter& reporter) {
  std::optional<cdl::InitialWeights> initial;
  if (!command.initial_model.empty()) {
    const cdl::LinearModel start = cdl::load_model(command.initial_model);
    if (start.task() == cdl::Task::kRegression) {
      throw cdl::Error("-i: " + command.initial_model + " is a regression model (" +
                       start.solver_type + "), and this run trains a classifier");
    }
    check_initial_model(command.initial_model, start, classes, params);
    initial = cdl::initial_weights(start, classes, data.matrix().num_cols(), params.bias);
  }
  std::optional<cdl::LabeledCsr> test_data;
  std::optional<cdl::CscMatrix> test_x;
  std::optional<cdl::TestSet> test;
  std::optional<cdl::TraceReporter> trace;
  if (!command.trace_path.empty()) {
    if (!command.test_path.empty()) {
      test_data = cdl::read_libsvm_csr(command.test_path);
      test_x = test_columns(test_data->features, data.columns, params.bias);
      test.emplace(cdl::TestSet{*test_x, test_data->labels});
    }
    const cdl::SolverInfo& row = cdl::solver_info(params.solver);
    trace.emplace(reporter, command.trace_path, test ? &*test : nullptr, classes.labels.size() > 2,
                  cdl::regularizer_of(params, data.matrix().num_cols()), row.dual_trace,
                  row.traces_intercept_gap(params.loss.value()));
  }
  cdl::Reporter& active = trace ? static_cast<cdl::Reporter&>(*trace) : reporter;
  const cdl::LinearModel model =
      cdl::train(data.matrix(), classes, params, active, initial ? &*initial : nullptr);
  if (trace && test && classes.labels.size() > 2) {
    const std::vector<int> predicted = model.predict(*test_x);
    std::size_t correct = 0;
    for (std::size_t r = 0; r < predicted.size(); ++r) {
      correct += predicted[r] == static_cast<int>(test_data->labels[r]);
    }
    trace->model_accuracy(predicted.empty() ? 0.0
                                            : static_cast<double>(correct) /
                                                  static_cast<double>(predicted.size()));
  }
  save(command.model_path, model, trace, cdl::thread_count(params));
}

// Values too large to train on, named by their line in the file:
// check_magnitudes() on the whole file, with -C at the largest C the search
// may reach. Records that C in the matrix, so that training, its folds and
// the search do not check again.
void check_values(const cdl::TrainCommand& command, const cdl::Params& params, TrainingData& data,
                  const cdl::ClassMap& classes) {
  cdl::Params at = params;
  if (command.find_C) {
    const bool regression = cdl::is_regression(params.loss.value());
    at.C = std::max(params.C, regression ? cdl::kLargestRegressionSearchC : cdl::kLargestSearchC);
  }
  try {
    cdl::check_magnitudes(data.matrix(), classes, at, data.largest_magnitude());
  } catch (const cdl::InstanceError& e) {
    throw cdl::ParseError(cdl::input_name(command.training_path), data.lines().line_of(e.row()),
                          e.reason());
  }
  data.set_checked_cost(cdl::largest_cost(classes, at, data.instance_weights()));
}

// The fixed blocks (--partitions) of one problem on all rows, for a solver
// that takes them (a fold or a class with fewer rows than blocks has fewer);
// 0 for the others.
std::size_t partitions_of(const cdl::Params& params, const TrainingData& data) {
  const cdl::SolverInfo& solver = cdl::solver_info(params.solver);
  if (solver.partitions == nullptr) return 0;
  const cdl::DataMatrix matrix = data.matrix();
  return solver.partitions(params, matrix.nnz(), matrix.num_rows(), matrix.num_cols());
}

// The header's description of the run, with the blocks when they were
// given or are more than one.
std::string describe_run(const cdl::Params& params, std::size_t parts) {
  std::string run = cdl::describe_run(params);
  if (parts > 1 || (parts == 1 && params.partitions)) {
    run += ", " + std::to_string(parts) + (parts == 1 ? " partition" : " partitions") +
           (params.partitions ? "" : " (default)") + (params.fixed_parts ? ", fixed" : "");
  }
  return run;
}

// A regression run (-l sq, -l svr2): the targets as they are, one problem;
// or a one-class run (-l oneclass), whose targets are ignored.
void run_regression(const cdl::TrainCommand& command, const cdl::Params& params,
                    TrainingData& training, cdl::Reporter& reporter) {
  check_values(command, params, training, cdl::ClassMap{});
  cdl::LabeledCsc& data = training.columns;
  const std::string run = describe_run(params, partitions_of(params, training));
  if (command.find_C) {
    reporter.info("cdtrain: searching C" +
                  std::string(cdl::is_svr(params.loss.value()) ? " and p" : "") + " by " +
                  std::to_string(params.cv_folds) + "-fold cross validation, " + run);
    search_C_and_p(command, params, training, reporter);
    return;
  }
  if (params.cv_folds > 0) {
    reporter.info("cdtrain: " + std::to_string(params.cv_folds) + "-fold cross validation, " + run);
    const cdl::RegressionValidation cv = cdl::cross_validate_regression(
        data.features, data.labels, params, reporter, training.instance_weights());
    cdl::print_regression_validation(params, cv);
    return;
  }
  reporter.info("cdtrain: training, " + run);
  std::optional<std::vector<double>> initial;
  if (!command.initial_model.empty()) {
    initial = cdl::initial_regression_weights(cdl::load_model(command.initial_model),
                                              training.matrix().num_cols(), params.bias);
  }
  std::optional<cdl::TraceReporter> trace;
  if (!command.trace_path.empty()) {
    trace.emplace(reporter, command.trace_path, nullptr, false,
                  cdl::regularizer_of(params, training.matrix().num_cols()), false, false,
                  params.svr_epsilon.value_or(cdl::kDefaultSvrEpsilon),
                  params.loss == cdl::LossKind::kSquared &&
                      params.regularizer == cdl::RegularizerKind::kL1 &&
                      command.initial_model.empty());
  }
  cdl::Reporter& active = trace ? static_cast<cdl::Reporter&>(*trace) : reporter;
  const cdl::LinearModel model =
      cdl::train_regression(training.matrix(), training.labels(), params, active,
                            initial ? &*initial : nullptr, nullptr, training.instance_weights());
  save(command.model_path, model, trace, cdl::thread_count(params));
}

// Usage errors of a regression or one-class run: the options that need
// classes, and for the one-class SVM those it does not have yet.
void check_regression_options(const cdl::TrainCommand& command, const cdl::Params& params) {
  const std::string loss = cdl::loss_info(params.loss.value()).name;
  const bool one_class = cdl::is_one_class(params.loss.value());
  const std::string what = one_class ? " is the one-class SVM" : " is a regression";
  if (one_class && command.find_C) {
    throw cdl::ConfigError("-C searches C; -l " + loss + what + ", with no C");
  }
  if (!params.class_weights.empty()) {
    throw cdl::ConfigError("-wi weighs classes; -l " + loss + what + ", with none");
  }
  if (params.stratified) {
    throw cdl::ConfigError("--stratified keeps class shares; -l " + loss + what + ", with none");
  }
  if (!command.test_path.empty()) {
    throw cdl::ConfigError("-t adds a test accuracy column; -l " + loss + what +
                           ", with no accuracy");
  }
  if (one_class && params.cv_folds > 0) {
    throw cdl::ConfigError("-v: cross validation of the one-class SVM (-l " + loss +
                           ") is not supported; train a model and score it with cdpredict");
  }
}

// The cache of --cache or --cache-file, or "".
std::string cache_path(const cdl::TrainCommand& command) {
  if (!command.cache_file.empty()) return command.cache_file;
  return command.cache ? cdl::default_cache_path(command.training_path) : "";
}

// Refuses, before reading anything, outputs that would replace an input
// (the model may replace the -i model, which is read first: training on from
// a model and keeping the result), a trace that is the model, and outputs
// that cannot be created.
void check_output_paths(const cdl::TrainCommand& command, const cdl::Params& params) {
  const std::vector<std::string> inputs{command.training_path, command.test_path,
                                        command.weights_path};
  for (const std::string& input : inputs) {
    if (input.empty() || input == cdl::kStandardInput) continue;
    if (params.cv_folds == 0) cdl::check_not_input(command.model_path, "model_file", input);
    if (!command.trace_path.empty()) cdl::check_not_input(command.trace_path, "--trace", input);
  }
  if (!command.trace_path.empty()) {
    if (!command.initial_model.empty()) {
      cdl::check_not_input(command.trace_path, "--trace", command.initial_model);
    }
    if (params.cv_folds == 0 && cdl::same_file(command.trace_path, command.model_path)) {
      throw cdl::ConfigError("--trace and model_file are both '" + command.model_path + "'");
    }
  }
  const std::string cache = cache_path(command);
  if (!cache.empty()) {
    if (command.training_path == cdl::kStandardInput ||
        !std::filesystem::is_regular_file(command.training_path)) {
      throw cdl::ConfigError("--cache needs a training file to check the cache against; '" +
                             command.training_path + "' is not one");
    }
    cdl::check_not_input(cache, "--cache-file", command.training_path);
    for (const std::string& output : {command.model_path, command.trace_path}) {
      if (!output.empty() && cdl::same_file(cache, output)) {
        throw cdl::ConfigError("--cache-file is also an output, '" + output + "'");
      }
    }
  }
  if (params.cv_folds == 0) cdl::check_writable_path(command.model_path);
  if (!command.trace_path.empty()) cdl::check_writable_path(command.trace_path);
}

// Warnings about -wi weights of absent labels and about one-class data.
void warn_about_labels(const cdl::TrainCommand& command, const cdl::Params& params,
                       const cdl::ClassMap& classes, cdl::Reporter& reporter) {
  for (const auto& [label, weight] : params.class_weights) {
    if (std::find(classes.labels.begin(), classes.labels.end(), label) == classes.labels.end()) {
      reporter.warning("-w" + std::to_string(label) + ": no instance of " +
                       cdl::input_name(command.training_path) + " has label " +
                       std::to_string(label) + "; the weight is unused");
    }
  }
  if (classes.labels.size() == 1) {
    const std::string label = std::to_string(classes.labels[0]);
    reporter.warning(cdl::input_name(command.training_path) + ": every instance has label " +
                     label + "; as LIBLINEAR does, the model will predict " + label +
                     " for everything");
  }
}

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Whether the data's shape chooses the solver (cdl::solver_by_shape); a run
// from -i's model keeps cdper or tron, which take a start.
bool shape_chooses(const cdl::TrainCommand& command) {
  return command.initial_model.empty() && cdl::solver_by_shape(command.params);
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
  if (path == cdl::kStandardInput || !std::filesystem::is_regular_file(path, error)) return false;
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
TrainingData read_training_data(const cdl::TrainCommand& command, const cdl::Params& params,
                                const cdl::ReadOptions& options, const std::string& cache,
                                cdl::CacheUse& cache_use) {
  // When the data's shape chooses between dcd (rows) and cdper (columns),
  // the form of looks_wide()'s guess is read.
  // A regression reads rows only to train once (-v and -C read columns).
  const bool plain_regression = cdl::is_regression(params.loss.value()) && !command.find_C &&
                                params.cv_folds == 0 && cdl::trains_on_rows(params);
  const bool by_rows =
      cache.empty() && command.trace_path.empty() &&
      (plain_regression || (cdl::has_classes(params.loss.value()) &&
                            (cdl::trains_on_rows(params) ||
                             (shape_chooses(command) && looks_wide(command.training_path)))));
  try {
    TrainingData data;
    if (by_rows) {
      data.rows = cdl::read_libsvm_rows(command.training_path, options);
    } else {
      data.columns = cache.empty()
                         ? cdl::read_libsvm_csc(command.training_path, options)
                         : cdl::read_with_cache(command.training_path, options, cache, cache_use);
    }
    if (!command.weights_path.empty()) {  // never cached: read at each run
      data.weights = cdl::read_instance_weights(command.weights_path, data.labels().size());
    }
    return data;
  } catch (const cdl::ParseError& e) {
    if (e.line() == 1 && e.reason().find("'solver_type'") != std::string::npos) {
      throw cdl::ParseError(e.path(), e.line(),
                            e.reason() +
                                "; this looks like a model file, not training data (usage: "
                                "cdtrain [options] training_file [model_file])");
    }
    throw;
  }
}

// A classification run: training, -v or -C, with the header that names the
// solver and problem.
void run_classification(const cdl::TrainCommand& command, const cdl::Params& params,
                        TrainingData& data, cdl::Reporter& reporter) {
  const cdl::ClassMap classes = cdl::map_classes(data.labels());
  check_values(command, params, data, classes);
  warn_about_labels(command, params, classes, reporter);
  const cdl::SolverInfo& solver = cdl::solver_info(params.solver);
  const std::size_t parts = partitions_of(params, data);
  const std::string run = describe_run(params, parts);
  if (params.threads > 1 && params.cv_folds == 0 && classes.labels.size() <= 2 &&
      (!solver.solve_on_threads || (parts == 1 && solver.threads_run_partitions))) {
    const std::string why = parts == 1 ? " runs on one thread with one partition (--partitions)"
                                       : " runs on one thread";
    reporter.warning("-m " + std::to_string(params.threads) +
                     ": a problem of two classes without -v or -C is one solve, which solver " +
                     solver.name + why + "; -m has nothing to run at once");
  }
  if (command.find_C) {
    reporter.info("cdtrain: searching C by " + std::to_string(params.cv_folds) +
                  "-fold cross validation, " + run);
    search(command, params, data, classes, reporter);
  } else if (params.cv_folds > 0) {
    reporter.info("cdtrain: " + std::to_string(params.cv_folds) + "-fold cross validation, " + run);
    cdl::print_validation(
        params, cdl::cross_validate(data.matrix(), classes, params, reporter, nullptr, true, false)
                    .accuracy);
  } else {
    reporter.info("cdtrain: training, " + run);
    train_and_save(command, params, data, classes, reporter);
  }
}

}  // namespace

int main(int argc, char** argv) {
  return cdl::run_tool("cdtrain", cdl::train_usage(), [&] {
    const cdl::TrainCommand command =
        cdl::parse_train_args(std::vector<std::string>(argv + 1, argv + argc));
    if (command.help) {
      std::cout << cdl::train_help();
      return 0;
    }
    if (command.version) {
      std::cout << cdl::version_text("cdtrain");
      return 0;
    }
    cdl::Params params = cdl::resolve_defaults(command.params);
    cdl::validate(params);
    // A regression or the one-class SVM: one problem, no classes.
    const bool regression = !cdl::has_classes(params.loss.value());
    if (regression) check_regression_options(command, params);
    // The trace evaluates f of a margin or regression loss, one problem at a
    // time: the one-class SVM and a model over all classes have neither.
    if (!command.trace_path.empty() && (cdl::is_one_class(params.loss.value()) ||
                                        cdl::solver_info(params.solver).solve_all_classes)) {
      throw cdl::ConfigError(std::string("--trace: solver ") +
                             cdl::solver_info(params.solver).name +
                             " has no trace; its progress lines give the dual D(alpha) of each "
                             "iteration");
    }
    check_output_paths(command, params);

    cdl::ReadOptions options;
    options.integer_labels = !regression;
    options.bias = params.bias;
    options.threads = params.threads;  // -m's, or 0: the reader's own default
    options.pipe_command = "cdtrain [options] - " + command.model_path;
    cdl::CacheUse cache_use;
    const std::string cache = cache_path(command);
    const Clock::time_point start = Clock::now();
    TrainingData data = read_training_data(command, params, options, cache, cache_use);
    const double reading_seconds = seconds_since(start);
    if (shape_chooses(command)) {
      params = cdl::resolve_defaults(cdl::choose_solver_by_shape(command.params, data.shape()));
      cdl::validate(params);
      if (data.rows && !cdl::trains_on_rows(params)) {
        data.to_columns();
      } else if (!data.rows && cache.empty() && command.trace_path.empty() &&
                 cdl::trains_on_rows(params)) {
        data.to_rows();
      }
    }
    cdl::Reporter reporter(
        std::cerr, params.quiet ? cdl::Reporter::Level::kQuiet : cdl::Reporter::Level::kNormal);
    if (!cache_use.warning.empty()) reporter.warning(cache_use.warning);
    const Clock::time_point training_start = Clock::now();
    if (regression) {
      run_regression(command, params, data, reporter);
    } else {
      run_classification(command, params, data, reporter);
    }
    std::fflush(stdout);
    reporter.info(cdl::total_time_line(command, params, seconds_since(start), reading_seconds,
                                       seconds_since(training_start), "training"));
    return 0;
  });
}
