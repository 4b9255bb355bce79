// --trace: TraceReporter in process (every solver, exact f and gradient norm,
// the class and test_accuracy columns) and cdtrain --trace end to end
// (against the saved model and cdpredict).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "data/libsvm_reader.h"
#include "data/problem.h"
#include "data/sparse_matrix.h"
#include "model/model.h"
#include "objective/evaluate.h"
#include "solver_test_util.h"
#include "solvers/params.h"
#include "test_util.h"
#include "train/trace.h"
#include "train/train.h"

namespace cdl {
namespace {

namespace fs = std::filesystem;
using test::load;

const char kHeader[] = "iteration\tseconds\tobjective\tgrad_f_norm";

struct Row {
  int label = 0;  // the class column, 0 without one
  long long iteration = 0;
  double seconds = 0;
  double objective = 0;
  double gradient_norm = 0;
  double test_accuracy = -1;  // -1 without the column
};

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, separator)) parts.push_back(part);
  return parts;
}

struct Trace {
  std::string header;
  std::vector<Row> rows;
  double model_accuracy = -1;  // the multi-class model's, from the last line; -1 without it
};

// Parses a trace file, checking that every row has the header's columns.
Trace parse_trace(const std::string& text) {
  Trace trace;
  EXPECT_FALSE(text.empty());
  if (text.empty()) return trace;
  EXPECT_EQ(text.back(), '\n');
  const std::vector<std::string> lines = split(text, '\n');
  trace.header = lines[0];
  const bool has_class = trace.header.rfind("class\t", 0) == 0;
  const bool has_test = trace.header.size() >= 13 &&
                        trace.header.compare(trace.header.size() - 13, 13, "test_accuracy") == 0;
  if (has_test && lines.size() > 1 && lines.back().rfind("# multi-class test accuracy\t", 0) == 0) {
    trace.model_accuracy = std::stod(lines.back().substr(28));
  }
  const std::size_t columns = 4 + has_class + has_test;
  for (std::size_t k = 1; k < lines.size(); ++k) {
    if (k + 1 == lines.size() && trace.model_accuracy >= 0) break;
    const std::vector<std::string> fields = split(lines[k], '\t');
    EXPECT_EQ(fields.size(), columns) << "line " << k + 1 << ": " << lines[k];
    if (fields.size() != columns) continue;
    Row row;
    std::size_t c = 0;
    if (has_class) row.label = std::stoi(fields[c++]);
    row.iteration = std::stoll(fields[c++]);
    row.seconds = std::stod(fields[c++]);
    row.objective = std::stod(fields[c++]);
    row.gradient_norm = std::stod(fields[c++]);
    if (has_test) row.test_accuracy = std::stod(fields[c++]);
    trace.rows.push_back(row);
  }
  return trace;
}

// The inner reporter: keeps a copy of every iteration's w with its problem.
class Recorder : public Reporter {
 public:
  struct Step {
    int label;
    std::int64_t iteration;
    double objective;  // the solver's value
    double seconds;
    std::vector<double> w;
  };
  Recorder() : Reporter(sink_, Level::kQuiet) {}
  bool observes_iterations() const override { return true; }
  void begin_problem(const Problem&, LossKind, int positive_label) override {
    label_ = positive_label;
    ++problems;
  }
  void iteration(const IterationInfo& info) override {
    steps.push_back({label_, info.iteration, info.objective, info.seconds,
                     info.w != nullptr ? *info.w : std::vector<double>{}});
  }
  int problems = 0;
  std::vector<Step> steps;

 private:
  std::ostringstream sink_;
  int label_ = 0;
};

struct TracedRun {
  Trace trace;
  Recorder recorder;
  LinearModel model;
};

// Trains `data` with a TraceReporter around a Recorder, into a scratch file.
void traced_train(const test::Data& data, const Params& params, const TestSet* test_set,
                  TracedRun& run) {
  test::ScratchDir dir;
  const std::string path = dir.file("trace.tsv");
  {
    TraceReporter trace(run.recorder, path, test_set, data.classes.labels.size() > 2);
    run.model = train(data.file.features, data.classes, params, trace);
    EXPECT_FALSE(fs::exists(path)) << "written before commit()";
    trace.commit();
  }
  run.trace = parse_trace(test::read_file(path));
}

Params resolved(SolverKind solver, std::optional<LossKind> loss = std::nullopt) {
  Params params;
  params.solver = solver;
  params.loss = loss;
  params = resolve_defaults(params);
  validate(params);
  return params;
}

std::string name_of(SolverKind solver) { return solver_info(solver).name; }

// Row k of the trace is iteration k of the recorder, with f and the gradient
// norm recomputed by evaluate() for that iteration's w.
void expect_rows_match_iterations(const test::Data& data, const Params& params,
                                  const TracedRun& run, const std::string& what) {
  ASSERT_EQ(run.trace.rows.size(), run.recorder.steps.size()) << what;
  const LossKind loss = params.loss.value();
  for (std::size_t k = 0; k < run.trace.rows.size(); ++k) {
    const Row& row = run.trace.rows[k];
    const Recorder::Step& step = run.recorder.steps[k];
    const auto at = what + ", row " + std::to_string(k + 1);
    EXPECT_EQ(row.iteration, step.iteration) << at;
    // Printed with 6 decimals: half a unit of the last place, plus the
    // rounding of the decimal halfway case itself (0.0004255 -> 0.000425).
    EXPECT_NEAR(row.seconds, step.seconds, 5e-7 * (1 + 1e-9)) << at;
    const auto positive = static_cast<std::size_t>(
        std::find(data.classes.labels.begin(), data.classes.labels.end(), step.label) -
        data.classes.labels.begin());
    if (data.classes.labels.size() > 2) {
      EXPECT_EQ(row.label, step.label) << at;
    }
    ASSERT_EQ(step.w.size(), data.file.features.num_cols) << at;
    const double c_pos = class_cost(params, step.label);
    const double c_neg =
        data.classes.labels.size() == 2 ? class_cost(params, data.classes.labels[1]) : params.C;
    const Problem problem =
        one_vs_rest(data.file.features, data.classes, positive, c_pos, c_neg, &data.rows);
    const Evaluation exact = evaluate(problem, loss, step.w);
    EXPECT_NEAR(row.objective, exact.objective, 1e-11 * exact.objective) << at;
    EXPECT_NEAR(row.gradient_norm, exact.gradient_norm, 1e-5 * exact.gradient_norm) << at;
    // The solver's own running value agrees with the recomputation.
    EXPECT_NEAR(step.objective, exact.objective, 1e-9 * exact.objective) << at;
  }
}

void expect_seconds_non_decreasing(const Trace& trace, const std::string& what) {
  for (std::size_t k = 1; k < trace.rows.size(); ++k) {
    if (trace.rows[k].label != trace.rows[k - 1].label) continue;  // a new problem
    EXPECT_GE(trace.rows[k].seconds, trace.rows[k - 1].seconds) << what << ", row " << k + 1;
  }
}

void expect_objective_non_increasing(const Trace& trace, const std::string& what) {
  for (std::size_t k = 1; k < trace.rows.size(); ++k) {
    if (trace.rows[k].label != trace.rows[k - 1].label) continue;
    EXPECT_LE(trace.rows[k].objective, trace.rows[k - 1].objective * (1 + 1e-12))
        << what << ", row " << k + 1;
  }
}

// ---- in process ----

TEST(TraceReporter, BinaryHeaderAndOneExactRowPerOuterIteration) {
  const test::Data& data = load("heart_scale");
  const Params params = resolved(SolverKind::kCdPer);
  TracedRun run;
  traced_train(data, params, nullptr, run);
  EXPECT_EQ(run.trace.header, kHeader);
  EXPECT_EQ(run.recorder.problems, 1);
  ASSERT_GE(run.trace.rows.size(), 2u);
  for (std::size_t k = 0; k < run.trace.rows.size(); ++k) {
    EXPECT_EQ(run.trace.rows[k].iteration, static_cast<long long>(k + 1));
  }
  expect_rows_match_iterations(data, params, run, "cdper");
  expect_seconds_non_decreasing(run.trace, "cdper");
  expect_objective_non_increasing(run.trace, "cdper");
  // The last row is the model's w.
  EXPECT_EQ(run.recorder.steps.back().w, run.model.w);
}

TEST(TraceReporter, EverySolverWritesExactRows) {
  const test::Data& data = load("heart_scale");
  for (const SolverInfo& info : solver_table()) {
    // Their rows hold (w, w0) and the post-processed primal, which need not
    // decrease: test_solver_pdcd.cpp checks them. A regression row's trace is
    // TraceEndToEnd's below and test_svr_dual_end_to_end.cpp's. The one-class
    // SVM and a model over all classes have no trace (cdtrain refuses it).
    if (info.intercept || !has_classes(info.losses.front()) || info.solve_all_classes) continue;
    Params params = resolved(info.kind);
    if (info.kind == SolverKind::kPegasos) params.max_iter = 3 * 270;  // 3 passes, 3 rows
    TracedRun run;
    traced_train(data, params, nullptr, run);
    const std::string what = info.name;
    EXPECT_EQ(run.trace.header, kHeader) << what;
    EXPECT_GE(run.trace.rows.size(), 1u) << what;
    expect_rows_match_iterations(data, params, run, what);
    expect_seconds_non_decreasing(run.trace, what);
    // Sufficient decrease in every CD step and TRON's acceptance rule make f
    // non-increasing; CMLS (smoothed) and Pegasos (stochastic) need not be.
    // Dual CD decreases the dual objective, not f.
    if (info.kind != SolverKind::kCmls && info.kind != SolverKind::kCmlsPer &&
        info.kind != SolverKind::kPegasos && !info.dual) {
      expect_objective_non_increasing(run.trace, what);
    }
    if (info.kind == SolverKind::kPegasos) {
      EXPECT_EQ(run.trace.rows.size(), 3u);
    }
  }
}

TEST(TraceReporter, LogisticRegressionRowsAreExact) {
  const test::Data& data = load("heart_scale");
  for (SolverKind solver : {SolverKind::kCdPer, SolverKind::kTron}) {
    const Params params = resolved(solver, LossKind::kLogistic);
    TracedRun run;
    traced_train(data, params, nullptr, run);
    expect_rows_match_iterations(data, params, run, name_of(solver) + " lr");
    expect_objective_non_increasing(run.trace, name_of(solver) + " lr");
  }
}

TEST(TraceReporter, ClassWeightsEnterTheTracedObjective) {
  const test::Data& data = load("heart_scale");
  Params params = resolved(SolverKind::kTron);
  params.class_weights = {{1, 2.0}, {-1, 0.5}};
  TracedRun run;
  traced_train(data, params, nullptr, run);
  expect_rows_match_iterations(data, params, run, "tron -w1 2 -w-1 0.5");
}

TEST(TraceReporter, MultiClassHasAClassColumnAndRestartsTheIterations) {
  const test::Data& data = load("dna.scale");
  const Params params = resolved(SolverKind::kTron);
  TracedRun run;
  traced_train(data, params, nullptr, run);
  EXPECT_EQ(run.trace.header, std::string("class\t") + kHeader);
  EXPECT_EQ(run.recorder.problems, 3);
  expect_rows_match_iterations(data, params, run, "dna tron");
  expect_seconds_non_decreasing(run.trace, "dna tron");
  expect_objective_non_increasing(run.trace, "dna tron");
  // The problems in class order, each from iteration 1.
  std::vector<int> order;
  for (std::size_t k = 0; k < run.trace.rows.size(); ++k) {
    const Row& row = run.trace.rows[k];
    if (k == 0 || row.label != run.trace.rows[k - 1].label) {
      order.push_back(row.label);
      EXPECT_EQ(row.iteration, 1) << "class " << row.label;
    } else {
      EXPECT_EQ(row.iteration, run.trace.rows[k - 1].iteration + 1);
    }
  }
  EXPECT_EQ(order, data.classes.labels);
}

// A test set as cdtrain builds it: the training data's columns, bias appended.
struct OwnedTestSet {
  CscMatrix x;
  std::vector<double> labels;
};

OwnedTestSet read_test_set(const std::string& name, std::size_t num_cols, double bias) {
  LabeledCsr file = read_libsvm_csr(test::data_path(name));
  OwnedTestSet out{to_csc(file.features, num_cols - (bias >= 0 ? 1 : 0)), std::move(file.labels)};
  if (bias >= 0) append_constant_column(out.x, bias);
  return out;
}

double model_accuracy(const LinearModel& model, const OwnedTestSet& test_set) {
  const std::vector<int> predicted = model.predict(test_set.x);
  std::size_t correct = 0;
  for (std::size_t j = 0; j < predicted.size(); ++j) {
    correct += predicted[j] == static_cast<int>(test_set.labels[j]);
  }
  return 100.0 * static_cast<double>(correct) / static_cast<double>(predicted.size());
}

TEST(TraceReporter, TestAccuracyColumnEndsAtTheModelsAccuracy) {
  const test::Data& data = load("rcv1_small");
  const OwnedTestSet test_set = read_test_set("rcv1_small.t", data.file.features.num_cols, -1);
  const TestSet view{test_set.x, test_set.labels};
  for (SolverKind solver : {SolverKind::kCdPer, SolverKind::kTron}) {
    const Params params = resolved(solver);
    TracedRun run;
    traced_train(data, params, &view, run);
    EXPECT_EQ(run.trace.header, std::string(kHeader) + "\ttest_accuracy");
    ASSERT_FALSE(run.trace.rows.empty());
    // Every row is the accuracy of sign(w'x) for that iteration's w.
    for (std::size_t k = 0; k < run.trace.rows.size(); ++k) {
      std::vector<double> y;
      for (double label : test_set.labels) y.push_back(label == data.classes.labels[0] ? 1 : -1);
      EXPECT_NEAR(run.trace.rows[k].test_accuracy,
                  100 * accuracy(test_set.x, y, run.recorder.steps[k].w), 5e-5)
          << name_of(solver) << ", row " << k + 1;
    }
    EXPECT_NEAR(run.trace.rows.back().test_accuracy, model_accuracy(run.model, test_set), 5e-5)
        << name_of(solver);
  }
}

TEST(TraceReporter, MultiClassTestAccuracyIsEachProblemsBinaryAccuracy) {
  const test::Data& data = load("dna.scale");
  const OwnedTestSet test_set = read_test_set("dna.scale.t", data.file.features.num_cols, -1);
  const TestSet view{test_set.x, test_set.labels};
  TracedRun run;
  traced_train(data, resolved(SolverKind::kTron), &view, run);
  EXPECT_EQ(run.trace.header, std::string("class\t") + kHeader + "\tovr_test_accuracy");
  const std::size_t nr_w = run.model.nr_w();
  ASSERT_EQ(nr_w, 3u);
  for (std::size_t k = 0; k < 3; ++k) {
    const int label = data.classes.labels[k];
    // The last row of class `label` holds model column k.
    const auto last = std::find_if(run.trace.rows.rbegin(), run.trace.rows.rend(),
                                   [&](const Row& row) { return row.label == label; });
    ASSERT_NE(last, run.trace.rows.rend()) << label;
    std::vector<double> column;
    for (std::size_t i = 0; i < data.file.features.num_cols; ++i) {
      column.push_back(run.model.w[i * nr_w + k]);
    }
    std::vector<double> y;
    for (double l : test_set.labels) y.push_back(static_cast<int>(l) == label ? 1 : -1);
    EXPECT_NEAR(last->test_accuracy, 100 * accuracy(test_set.x, y, column), 5e-5) << label;
  }
}

TEST(TraceReporter, WarmStartedTrainingTracesFromTheStart) {
  // From the optimum, CD stops before its first outer iteration: the trace
  // is the header alone.
  const test::Data& data = load("heart_scale");
  Params tight = resolved(SolverKind::kCdPer);
  tight.eps = 1e-9;
  tight.max_iter = 20000;
  Recorder quiet;
  const LinearModel optimum = train(data.file.features, data.classes, tight, quiet);
  const InitialWeights start =
      initial_weights(optimum, data.classes, data.file.features.num_cols, -1);
  test::ScratchDir dir;
  Recorder inner;
  TraceReporter trace(inner, dir.file("t"), nullptr, false);
  train(data.file.features, data.classes, resolved(SolverKind::kCdPer), trace, &start);
  trace.commit();
  EXPECT_EQ(test::read_file(dir.file("t")), std::string(kHeader) + "\n");
}

// ---- cdtrain --trace end to end ----

std::string data(const std::string& name) { return test::absolute_data_path(name); }

// The X of "Accuracy = X% (c/n)\n".
double printed_accuracy(const std::string& out) {
  std::smatch match;
  if (!std::regex_match(out, match, std::regex("Accuracy = ([0-9.]+)% \\([0-9]+/[0-9]+\\)\n"))) {
    ADD_FAILURE() << "not an accuracy line: " << out;
    return -1;
  }
  return std::stod(match[1]);
}

TEST(TraceEndToEnd, OneRowPerProgressLine) {
  test::ScratchDir dir;
  const auto r = test::run_tool(
      "cdtrain", "--trace " + dir.file("t.tsv") + " " + data("heart_scale") + " " + dir.file("m"));
  ASSERT_EQ(r.status, 0) << r.err;
  const Trace trace = parse_trace(test::read_file(dir.file("t.tsv")));
  EXPECT_EQ(trace.header, kHeader);
  std::size_t progress = 0;
  for (const std::string& line : split(r.err, '\n')) progress += line.rfind("iter ", 0) == 0;
  EXPECT_EQ(trace.rows.size(), progress);
  EXPECT_GE(progress, 2u);
  expect_objective_non_increasing(trace, "cdper");
  expect_seconds_non_decreasing(trace, "cdper");
  EXPECT_TRUE(fs::exists(dir.file("m")));
  // Quiet training writes the same trace rows (seconds aside).
  const auto q = test::run_tool("cdtrain", "-q --trace " + dir.file("q.tsv") + " " +
                                               data("heart_scale") + " " + dir.file("m2"));
  ASSERT_EQ(q.status, 0) << q.err;
  EXPECT_EQ(q.err, "");
  const Trace quiet = parse_trace(test::read_file(dir.file("q.tsv")));
  ASSERT_EQ(quiet.rows.size(), trace.rows.size());
  for (std::size_t k = 0; k < trace.rows.size(); ++k) {
    EXPECT_EQ(quiet.rows[k].objective, trace.rows[k].objective);
  }
}

TEST(TraceEndToEnd, TronLastRowMatchesTheSavedModelAndCdpredict) {
  for (const char* bias : {"-1", "1"}) {
    test::ScratchDir dir;
    const std::string model_path = dir.file("m");
    const auto r = test::run_tool("cdtrain", std::string("-q -s tron -B ") + bias + " --trace " +
                                                 dir.file("t.tsv") + " -t " + data("rcv1_small.t") +
                                                 " " + data("rcv1_small") + " " + model_path);
    ASSERT_EQ(r.status, 0) << r.err;
    const Trace trace = parse_trace(test::read_file(dir.file("t.tsv")));
    EXPECT_EQ(trace.header, std::string(kHeader) + "\ttest_accuracy");
    ASSERT_FALSE(trace.rows.empty());
    expect_objective_non_increasing(trace, "tron");
    expect_seconds_non_decreasing(trace, "tron");

    // f of the saved model, recomputed from the file and the data.
    const LinearModel model = load_model(model_path);
    ReadOptions options;
    options.integer_labels = true;
    options.bias = model.bias;
    const LabeledCsc file = read_libsvm_csc(data("rcv1_small"), options);
    const ClassMap classes = map_classes(file.labels);
    ASSERT_EQ(model.w.size(), file.features.num_cols);
    const Problem problem = one_vs_rest(file.features, classes, 0, 1.0, 1.0);
    const Evaluation exact = evaluate(problem, LossKind::kL2Svm, model.w);
    EXPECT_NEAR(trace.rows.back().objective, exact.objective, 1e-9 * exact.objective) << bias;
    EXPECT_NEAR(trace.rows.back().gradient_norm, exact.gradient_norm, 1e-5 * exact.gradient_norm)
        << bias;

    const auto predicted = test::run_tool(
        "cdpredict", data("rcv1_small.t") + " " + model_path + " " + dir.file("out"));
    ASSERT_EQ(predicted.status, 0) << predicted.err;
    // cdpredict prints %g (6 significant digits), the trace %.4f.
    EXPECT_NEAR(trace.rows.back().test_accuracy, printed_accuracy(predicted.out), 5e-4) << bias;
  }
}

// The one-class SVM and the models over all classes (Crammer and Singer's,
// the softmax) have no trace: cdtrain refuses --trace for them, and writes
// nothing.
TEST(TraceEndToEnd, RefusedWithoutOne) {
  for (const char* number : {"21", "4", "dcd-maxent"}) {
    test::ScratchDir dir;
    const auto r =
        test::run_tool("cdtrain", std::string("-s ") + number + " --trace " + dir.file("t.tsv") +
                                      " " + data("heart_scale") + " " + dir.file("m"));
    EXPECT_EQ(r.status, 2) << number;
    EXPECT_NE(r.err.find("has no trace"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir.file("t.tsv")));
    EXPECT_FALSE(std::filesystem::exists(dir.file("m")));
  }
}

TEST(TraceEndToEnd, MultiClassWithTestSet) {
  test::ScratchDir dir;
  const auto r = test::run_tool("cdtrain", "-q -s tron --trace " + dir.file("t.tsv") + " -t " +
                                               data("dna.scale.t") + " " + data("dna.scale") + " " +
                                               dir.file("m"));
  ASSERT_EQ(r.status, 0) << r.err;
  const Trace trace = parse_trace(test::read_file(dir.file("t.tsv")));
  // Each row's accuracy is its one-vs-rest problem's, and the header says so.
  EXPECT_EQ(trace.header, std::string("class\t") + kHeader + "\tovr_test_accuracy");
  // The multi-class model's accuracy ends the file, and equals cdpredict's.
  const auto predicted =
      test::run_tool("cdpredict", data("dna.scale.t") + " " + dir.file("m") + " " + dir.file("p"));
  ASSERT_EQ(predicted.status, 0) << predicted.err;
  EXPECT_NEAR(trace.model_accuracy, printed_accuracy(predicted.out), 5e-4);
  std::vector<int> labels;
  for (const Row& row : trace.rows) {
    if (labels.empty() || labels.back() != row.label) labels.push_back(row.label);
    EXPECT_GT(row.test_accuracy, 50.0);
  }
  EXPECT_EQ(labels, (std::vector<int>{3, 1, 2}));  // dna.scale's order of first appearance
}

TEST(TraceEndToEnd, EverySolverWritesAtLeastOneRow) {
  for (const SolverInfo& info : solver_table()) {
    // More columns: test_dcd/pdcd_end_to_end.cpp. No trace: the one-class
    // SVM, a model over all classes (TraceEndToEnd.RefusedWithoutOne).
    if (info.dual_trace || info.intercept) continue;
    if (is_one_class(info.losses.front()) || info.solve_all_classes) continue;
    test::ScratchDir dir;
    const std::string extra = info.kind == SolverKind::kPegasos ? "-l l1svm --max-iter 540 " : "";
    // A regression has no test accuracy column (-t is refused).
    const bool regression = is_regression(info.losses.front());
    const auto r = test::run_tool("cdtrain", "-q -s " + std::string(info.name) + " " + extra +
                                                 "--trace " + dir.file("t.tsv") +
                                                 (regression ? "" : " -t " + data("heart_scale")) +
                                                 " " + data("heart_scale") + " " + dir.file("m"));
    ASSERT_EQ(r.status, 0) << info.name << ": " << r.err;
    const Trace trace = parse_trace(test::read_file(dir.file("t.tsv")));
    EXPECT_EQ(trace.header, std::string(kHeader) + (regression ? "" : "\ttest_accuracy"))
        << info.name;
    EXPECT_GE(trace.rows.size(), 1u) << info.name;
    if (info.kind == SolverKind::kPegasos) {
      EXPECT_EQ(trace.rows.size(), 2u);
    }
    for (const Row& row : trace.rows) {
      EXPECT_TRUE(std::isfinite(row.objective) && row.objective > 0) << info.name;
      EXPECT_GE(row.test_accuracy, regression ? -1.0 : 0.0) << info.name;
      EXPECT_LE(row.test_accuracy, regression ? -1.0 : 100.0) << info.name;
    }
  }
}

TEST(TraceEndToEnd, UnwritableTraceFailsBeforeTraining) {
  test::ScratchDir dir;
  const auto r = test::run_tool("cdtrain", "-q --trace " + dir.file("missing/t.tsv") + " " +
                                               data("heart_scale") + " " + dir.file("m"));
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("missing/t.tsv"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir.file("m")));
}

}  // namespace
}  // namespace cdl
