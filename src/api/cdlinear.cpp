// The library interface of cdlinear.h over the core library: the calls
// cdtrain and cdpredict make, with the core's errors turned into the
// interface's (same messages), so that a program sees only cdlinear.h.
#include "cdlinear.h"

#include <algorithm>
#include <cmath>
#include <ostream>

#include "api/internal.h"
#include "api/run_reporter.h"
#include "data/input_file.h"
#include "data/libsvm_reader.h"
#include "data/parse_number.h"
#include "data/problem.h"
#include "data/sparse_matrix.h"
#include "model/model.h"
#include "objective/loss.h"
#include "objective/regularizer.h"
#include "solvers/liblinear_numbers.h"
#include "solvers/params.h"
#include "solvers/pdcd.h"
#include "solvers/report.h"
#include "solvers/solver.h"
#include "solvers/solver_cd.h"
#include "solvers/solver_pegasos.h"
#include "solvers/solver_table.h"
#include "train/cross_validation.h"
#include "train/run_checks.h"
#include "train/train.h"
#include "train/train_regression.h"
#include "util/error.h"
#include "util/parallel.h"

namespace cdlinear {

namespace {

// Refuses a thread count above cdl::kMaxThreads (train's -m, prediction's
// threads) as cdtrain does.
void check_threads(unsigned threads) {
  if (threads > cdl::kMaxThreads) {
    throw ConfigError("threads: expected 0 (one per core) to " + std::to_string(cdl::kMaxThreads) +
                      ", got " + std::to_string(threads));
  }
}

// TrainOptions::solver: a LIBLINEAR number, or a solver's name; empty: the
// default, which the data's shape chooses (cdl::choose_solver_by_shape).
void set_solver(const std::string& solver, cdl::Params& params) {
  if (solver.empty()) return;
  params.choice.given = true;
  int number = 0;
  if (cdl::parse_integer(solver, number)) {
    params.choice.liblinear_number = number;
    return;
  }
  const cdl::SolverInfo* info = cdl::find_solver(solver);
  if (info == nullptr) {
    std::string names;
    for (const auto& row : cdl::solver_table()) {
      names += (names.empty() ? "" : ", ") + std::string(row.name);
    }
    throw cdl::ConfigError("solver: expected a LIBLINEAR number (" + cdl::liblinear_number_list() +
                           ") or one of " + names + ", got '" + solver + "'");
  }
  params.solver = info->kind;
}

// The solvers' own option groups (solver_options.h) that `options` sets.
void set_solver_options(const TrainOptions& options, cdl::Params& params) {
  if (!options.select.empty()) params.own<cdl::SelectOptions>().rule = options.select;
  params.own<cdl::PartitionOptions>().count = options.partitions;
  params.own<cdl::GapTolOptions>().gap_tol = options.gap_tol;
  cdl::DualOptions& dual = params.own<cdl::DualOptions>();
  dual.fixed_parts = options.fixed_parts;
  dual.shrink = options.shrink;
  dual.exact_gaps = options.exact_gaps;
  cdl::LineSearchOptions& search = params.own<cdl::LineSearchOptions>();
  search.sigma = options.sigma.value_or(search.sigma);
  search.beta = options.beta.value_or(search.beta);
  cdl::PdcdOptions& steps = params.own<cdl::PdcdOptions>();
  steps.sigma = options.pd_sigma;
  steps.tau_factor = options.tau_factor.value_or(steps.tau_factor);
  cdl::PegasosOptions& pegasos = params.own<cdl::PegasosOptions>();
  pegasos.batch = options.pegasos_batch.value_or(pegasos.batch);
}

// The Params that cdtrain's flags of the same values give, resolved and
// validated, with the solver chosen by `shape` when the options leave it to
// the data.
cdl::Params params_of(const TrainOptions& options, const cdl::DataShape& shape, int cv_folds) {
  cdl::Params params;
  params.cv_folds = cv_folds;
  set_solver(options.solver, params);
  if (!options.loss.empty()) {
    const cdl::LossInfo* loss = cdl::find_loss(options.loss);
    if (loss == nullptr) throw cdl::ConfigError("loss: unknown loss '" + options.loss + "'");
    params.loss = loss->kind;
  }
  if (!options.regularizer.empty()) {
    const cdl::RegularizerInfo* regularizer = cdl::find_regularizer(options.regularizer);
    if (regularizer == nullptr || regularizer->kind == cdl::RegularizerKind::kElasticNet) {
      throw cdl::ConfigError("regularizer: expected l2 or l1, got '" + options.regularizer + "'");
    }
    params.regularizer = regularizer->kind;
  }
  cdl::apply_liblinear_number(params, !options.regularizer.empty(),
                              {"solver", "loss", "regularizer"});
  if (!std::isfinite(options.bias)) throw cdl::ConfigError("bias: expected a number");
  for (const auto& [label, weight] : options.class_weights) {
    if (!(weight > 0) || !std::isfinite(weight)) {
      throw cdl::ConfigError("class weight of label " + std::to_string(label) +
                             ": expected a positive number, got " + show(weight));
    }
  }
  params.C = options.C;
  params.eps = options.eps;
  params.bias = options.bias;
  params.class_weights = options.class_weights;
  params.threads = options.threads;
  params.seed = options.seed;
  params.max_iter = options.max_iter;
  params.svr_epsilon = options.svr_epsilon;
  params.nu = options.nu;
  params.free_bias = options.free_bias;
  set_solver_options(options, params);
  params.stratified = options.stratified;
  check_threads(options.threads);
  // A start from a model keeps the solver asked for, as cdtrain -i does.
  params = cdl::resolve_defaults(
      options.initial_model != nullptr ? params : cdl::choose_solver_by_shape(params, shape));
  cdl::validate(params);
  if (options.initial_model != nullptr) {
    const cdl::SolverInfo& row = cdl::solver_info(params.solver);
    if (cv_folds > 0) throw cdl::ConfigError("initial_model: not with cross validation");
    if (row.dual) {
      throw cdl::ConfigError(std::string("initial_model: ") + row.name +
                             " solves the dual, where a start from a model's w is not defined");
    }
  }
  if (!cdl::has_classes(params.loss.value()) && !params.class_weights.empty()) {
    throw cdl::ConfigError(
        "class weights weigh classes; loss " + std::string(cdl::loss_info(*params.loss).name) +
        (cdl::is_one_class(*params.loss) ? " is the one-class SVM" : " is a regression") +
        ", with none");
  }
  return params;
}

// Classification labels must be integers; the reader checks that for
// cdtrain, and this for data read once for any use.
void check_integer_labels(const Data::Impl& data) {
  const std::vector<double>& labels = data.csc.labels;
  for (std::size_t row = 0; row < labels.size(); ++row) {
    if (labels[row] != std::floor(labels[row]) || std::fabs(labels[row]) > 2147483647.0) {
      throw_at_row(data, row, "label " + show(labels[row]) + " is not an integer class label");
    }
  }
}

// TrainOptions::instance_weights, checked as cdtrain checks -W's file, or
// the Data's own, or null when neither has any.
const std::vector<double>* instance_weights_of(const Data::Impl& data,
                                               const TrainOptions& options) {
  if (!data.weights.empty() && !options.instance_weights.empty()) {
    throw cdl::ConfigError("instance_weights: " + data.name +
                           " has instance weights of its own; give one set");
  }
  const std::vector<double>& weights =
      data.weights.empty() ? options.instance_weights : data.weights;
  if (weights.empty()) return nullptr;
  if (weights.size() != data.csc.labels.size()) {
    throw cdl::ConfigError("instance_weights: " + std::to_string(weights.size()) +
                           " weights for the " + std::to_string(data.csc.labels.size()) +
                           " instances of " + data.name);
  }
  bool any_positive = false;
  for (std::size_t j = 0; j < weights.size(); ++j) {
    if (!(weights[j] >= 0) || !std::isfinite(weights[j])) {
      throw cdl::ConfigError("instance_weights: weight " + std::to_string(j + 1) +
                             ": expected a finite number >= 0, got " + show(weights[j]));
    }
    any_positive = any_positive || weights[j] > 0;
  }
  if (!any_positive) throw cdl::ConfigError("instance_weights: every weight is 0");
  return &weights;
}

}  // namespace

PreparedRun prepare_run(const Data::Impl& data, const TrainOptions& options, int cv_folds,
                        bool search, cdl::Reporter& reporter) {
  const cdl::CscMatrix& read = data.csc.features;
  PreparedRun run;
  run.data = &data;
  run.params =
      params_of(options,
                {read.num_rows, read.num_cols + (options.bias >= 0 ? 1 : 0),
                 static_cast<std::uint64_t>(read.nnz()) + (options.bias >= 0 ? read.num_rows : 0)},
                cv_folds);
  const cdl::Params& params = run.params;
  run.weights = instance_weights_of(data, options);
  // The training matrix: with the bias column, as the reader appends it.
  if (params.bias >= 0) {
    run.with_bias = data.csc.features;
    cdl::append_constant_column(run.with_bias, params.bias);
  }
  if (run.has_classes()) {
    check_integer_labels(data);
    run.classes = cdl::map_classes(data.csc.labels);
  }
  // Checked here to name the row, as cdtrain names it; training checks
  // again (a pass over the values) unless x is the copy with the bias
  // column, which records the check.
  double largest = data.csc.largest_magnitude;
  if (params.bias >= 0 && largest < params.bias) largest = params.bias;  // NaN stays NaN
  const double checked = cdl::check_values(
      cdl::DataMatrix{&run.x(), nullptr, run.weights}, run.classes, params, search, largest,
      [&data](const cdl::InstanceError& e) { throw_at_row(data, e.row(), e.reason()); });
  if (params.bias >= 0) run.with_bias.checked_cost = checked;
  for (const auto& [label, weight] : params.class_weights) {
    const std::vector<int>& labels = run.classes.labels;
    if (std::find(labels.begin(), labels.end(), label) == labels.end()) {
      reporter.warning("class weight of label " + std::to_string(label) + ": no instance of " +
                       data.name + " has that label; the weight is unused");
    }
  }
  return run;
}

namespace {

// The matrix a run trains on: the columns, and the rows when the data hold
// them already (Data::from_csr's) and no bias column is appended, so that a
// solver that reads rows does not transpose the columns back.
cdl::DataMatrix matrix_of(const Data::Impl& data, const PreparedRun& run) {
  const cdl::CsrMatrix* rows = run.params.bias < 0 ? data.rows_if_made() : nullptr;
  return cdl::DataMatrix{&run.x(), rows, run.weights};
}

cdl::LinearModel train_model(const Data::Impl& data, const TrainOptions& options,
                             RunReporter& reporter) {
  const PreparedRun run = prepare_run(data, options, 0, false, reporter);
  const cdl::LinearModel* start =
      options.initial_model != nullptr ? &Access::of(*options.initial_model) : nullptr;
  if (!run.has_classes()) {  // a regression or the one-class SVM
    std::vector<double> w0;
    if (start != nullptr) {
      w0 = cdl::initial_regression_weights(*start, run.x().num_cols, run.params.bias);
    }
    return cdl::train_regression(matrix_of(data, run), data.csc.labels, run.params, reporter,
                                 start != nullptr ? &w0 : nullptr, nullptr, run.weights);
  }
  // The start must fit the data, as cdtrain -i's must.
  cdl::InitialWeights initial;
  if (start != nullptr) {
    initial = cdl::initial_class_weights(*start, run.classes, run.x().num_cols, run.params.bias,
                                         "initial_model", "bias");
  }
  return cdl::train(matrix_of(data, run), run.classes, run.params, reporter,
                    start != nullptr ? &initial : nullptr);
}

// The 0-based indices of an instance, for LinearModel::decision_values.
void indices_of(const Instance& x, std::vector<cdl::Index>& indices, std::vector<double>& values) {
  indices.clear();
  values.clear();
  for (const Feature& feature : x) {
    if (feature.index < 1) {
      throw cdl::ConfigError("feature index " + std::to_string(feature.index) +
                             ": indices start at 1");
    }
    indices.push_back(static_cast<cdl::Index>(feature.index - 1));
    values.push_back(feature.value);
  }
}

// The prediction of a model for its decision values: the label, or the value.
double prediction(const cdl::LinearModel& model, const std::vector<double>& decision) {
  if (model.task() == cdl::Task::kRegression) return decision[0];
  return model.label_for(decision);
}

// Calls each(row, decision, scratch) with the decision values of every row
// of `rows`, on `threads` threads (0: one per core), in blocks of rows;
// `scratch` is the block's to use. O(nnz + rows * nr_w).
template <class Each>
void for_each_decision(const cdl::LinearModel& model, const cdl::CsrMatrix& rows, unsigned threads,
                       Each each) {
  check_threads(threads);
  constexpr std::size_t kBlock = 1024;
  const std::size_t blocks = (rows.num_rows + kBlock - 1) / kBlock;
  cdl::run_tasks_or_throw(
      blocks, threads == 0 ? cdl::hardware_threads() : threads, [&](std::size_t block) {
        std::vector<double> decision;
        std::vector<double> scratch;
        const std::size_t stop = std::min(rows.num_rows, (block + 1) * kBlock);
        for (std::size_t row = block * kBlock; row < stop; ++row) {
          const auto begin = static_cast<std::size_t>(rows.row_ptr[row]);
          const auto count = static_cast<std::size_t>(rows.row_ptr[row + 1]) - begin;
          model.decision_values(rows.col_idx.data() + begin, rows.values.data() + begin, count,
                                decision);
          each(row, decision, scratch);
        }
      });
}

void require_probabilities(const cdl::LinearModel& model) {
  if (!model.has_probabilities()) {
    throw ConfigError("probabilities need a logistic regression model (loss lr); this one is " +
                      model.solver_type);
  }
}

}  // namespace

void throw_at_row(const Data::Impl& data, std::size_t row, const std::string& reason) {
  if (data.from_file) throw cdl::ParseError(data.name, data.csc.lines.line_of(row), reason);
  throw ArrayError("array row " + std::to_string(row) + ": " + reason);
}

Data Data::read(const std::string& path) {
  return translating_errors([&] {
    auto impl = std::make_shared<Impl>();
    impl->name = cdl::input_name(path);
    cdl::ReadOptions options;
    impl->csc = cdl::read_libsvm_csc(path, options);
    return Access::make_data(std::move(impl));
  });
}

std::size_t Data::size() const { return impl_->csc.features.num_rows; }
std::size_t Data::num_features() const { return impl_->csc.features.num_cols; }
const std::vector<double>& Data::labels() const { return impl_->csc.labels; }
const std::string& Data::name() const { return impl_->name; }
const std::vector<double>& Data::instance_weights() const { return impl_->weights; }

Instance Data::instance(std::size_t row) const {
  const cdl::CsrMatrix& rows = impl_->rows();
  if (row >= rows.num_rows) {
    throw Error("instance " + std::to_string(row) + " (0-based) is beyond the " +
                std::to_string(rows.num_rows) + " instances of " + impl_->name);
  }
  Instance out;
  const auto begin = static_cast<std::size_t>(rows.row_ptr[row]);
  const auto end = static_cast<std::size_t>(rows.row_ptr[row + 1]);
  for (std::size_t k = begin; k < end; ++k) {
    out.push_back({static_cast<int>(rows.col_idx[k]) + 1, rows.values[k]});
  }
  return out;
}

Model Model::load(const std::string& path) {
  return translating_errors([&] { return Access::make_model(cdl::load_model(path)); });
}

void Model::save(const std::string& path) const {
  translating_errors([&] { cdl::save_model(impl_->model, path); });
}

std::string Model::to_string() const {
  return translating_errors([&] { return cdl::format_model(impl_->model); });
}

bool Model::is_regression() const { return impl_->model.task() == cdl::Task::kRegression; }
const std::string& Model::solver_type() const { return impl_->model.solver_type; }
const std::vector<int>& Model::labels() const { return impl_->model.labels; }
std::size_t Model::num_features() const { return impl_->model.num_features; }
double Model::bias() const { return impl_->model.bias; }
std::size_t Model::nr_class() const { return impl_->model.nr_class(); }
std::size_t Model::nr_w() const { return impl_->model.nr_w(); }
const std::vector<double>& Model::weights() const { return impl_->model.w; }
double Model::rho() const { return impl_->model.rho; }
const std::vector<std::int64_t>& Model::iterations() const { return impl_->iterations; }
const std::vector<double>& Model::objectives() const { return impl_->objectives; }

std::vector<double> Model::weights_of(std::size_t k) const {
  const cdl::LinearModel& model = impl_->model;
  const std::size_t nr_w = model.nr_w();
  if (k >= nr_w) {
    throw ConfigError("weights_of(" + std::to_string(k) + "): the model has " +
                      std::to_string(nr_w) + " decision values");
  }
  std::vector<double> out(model.weight_rows());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = model.w[i * nr_w + k];
  return out;
}

std::vector<double> Model::decision_values(const Instance& x) const {
  return translating_errors([&] {
    std::vector<cdl::Index> indices;
    std::vector<double> values;
    indices_of(x, indices, values);
    std::vector<double> decision;
    impl_->model.decision_values(indices.data(), values.data(), indices.size(), decision);
    return decision;
  });
}

double Model::predict(const Instance& x) const {
  return prediction(impl_->model, decision_values(x));
}

bool Model::has_probabilities() const { return impl_->model.has_probabilities(); }

std::vector<double> Model::probabilities(const Instance& x) const {
  require_probabilities(impl_->model);
  std::vector<double> out;
  impl_->model.probabilities(decision_values(x), out);
  return out;
}

std::vector<double> Model::predict(const Data& data, unsigned threads) const {
  const cdl::LinearModel& model = impl_->model;
  std::vector<double> out(data.size());
  for_each_decision(model, Access::of(data).rows(), threads,
                    [&](std::size_t row, const std::vector<double>& decision,
                        std::vector<double>&) { out[row] = prediction(model, decision); });
  return out;
}

std::vector<double> Model::decision_values(const Data& data, unsigned threads) const {
  const std::size_t nr_w = impl_->model.nr_w();
  std::vector<double> out(data.size() * nr_w);
  for_each_decision(
      impl_->model, Access::of(data).rows(), threads,
      [&](std::size_t row, const std::vector<double>& decision, std::vector<double>&) {
        std::copy(decision.begin(), decision.end(), out.begin() + row * nr_w);
      });
  return out;
}

std::vector<double> Model::probabilities(const Data& data, unsigned threads) const {
  const cdl::LinearModel& model = impl_->model;
  require_probabilities(model);
  const std::size_t nr_class = model.nr_class();
  std::vector<double> out(data.size() * nr_class);
  for_each_decision(
      model, Access::of(data).rows(), threads,
      [&](std::size_t row, const std::vector<double>& decision, std::vector<double>& scratch) {
        model.probabilities(decision, scratch);
        std::copy(scratch.begin(), scratch.end(), out.begin() + row * nr_class);
      });
  return out;
}

Model train(const Data& data, const TrainOptions& options) {
  return translating_errors([&] {
    RunReporter reporter(options);
    cdl::LinearModel model = train_model(Access::of(data), options, reporter);
    return Access::make_model(std::move(model), reporter.iterations(), reporter.objectives());
  });
}

double accuracy(const std::vector<double>& predicted, const std::vector<double>& labels) {
  if (predicted.size() != labels.size()) {
    throw ConfigError("accuracy: " + std::to_string(predicted.size()) + " predictions for " +
                      std::to_string(labels.size()) + " labels");
  }
  if (predicted.empty()) return 0;
  std::size_t correct = 0;
  for (std::size_t k = 0; k < labels.size(); ++k) correct += predicted[k] == labels[k];
  return static_cast<double>(correct) / static_cast<double>(labels.size());
}

}  // namespace cdlinear
