// Instance weights (-W): an integer weight s_j trains the problem in which
// row j appears s_j times (0: not at all), for every row of the solver table
// and each of its losses and regularizers (Crammer and Singer's cs and the
// one-class SVM by their own objectives); and a weight of 0 trains the same
// model, bit for bit, as the copy without the row.
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <ostream>
#include <string>

#include "objective/evaluate.h"
#include "objective/intercept_gap.h"
#include "solver_test_util.h"
#include "train/train.h"
#include "train/train_regression.h"

namespace cdl {
namespace {

// Rows of `x` (row-major) in the order of `order`, repeats allowed.
CscMatrix repeated_rows(const CsrMatrix& x, const std::vector<std::size_t>& order) {
  return to_csc(test::pick_rows(x, order));
}

// The integer weights 0, 3, 2, 1, ... ((j * 7) % 4) of the data's rows, and
// the copy with row j repeated that many times: its rows, targets, classes.
struct RepeatedRows {
  std::vector<double> weights;
  CscMatrix x;
  std::vector<double> targets;
  ClassMap classes;
};

RepeatedRows repeated_by_weights(const test::Data& data) {
  RepeatedRows out;
  out.classes.labels = data.classes.labels;
  std::vector<std::size_t> order;
  for (std::size_t j = 0; j < data.rows.num_rows; ++j) {
    out.weights.push_back(static_cast<double>((j * 7) % 4));
    for (std::size_t k = 0; k < (j * 7) % 4; ++k) order.push_back(j);
  }
  out.x = repeated_rows(data.rows, order);
  for (std::size_t j : order) {
    out.targets.push_back(data.file.labels[j]);
    out.classes.class_of.push_back(data.classes.class_of[j]);
  }
  return out;
}

struct Case {
  std::string solver;
  LossKind loss;
  RegularizerKind regularizer;
  std::string select;           // --select, or "" for the row's rule
  std::int64_t partitions = 0;  // --partitions, or 0 for the default
};

std::vector<Case> all_cases() {
  std::vector<Case> out;
  for (const SolverInfo& row : solver_table()) {
    // cs (one model over all classes) and the one-class SVM have their own
    // objectives: AllClassesAndOneClass below.
    if (row.solve_all_classes != nullptr) continue;
    for (LossKind loss : row.losses) {
      if (is_one_class(loss)) continue;
      for (RegularizerKind regularizer : row.regularizers) {
        out.push_back({row.name, loss, regularizer, "", 0});
      }
    }
  }
  // Dual CD's loops besides the serial one (the rules that read the dual
  // state, the partitioned rounds), primal CD's partitioned solve, and the
  // Lasso's rules.
  for (LossKind loss : {LossKind::kL1Svm, LossKind::kL2Svm}) {
    out.push_back({"dcd", loss, RegularizerKind::kL2, "ada-gap", 0});
    out.push_back({"dcd", loss, RegularizerKind::kL2, "importance", 0});
    out.push_back({"dcd", loss, RegularizerKind::kL2, "", 4});
  }
  out.push_back({"cdper", LossKind::kLogistic, RegularizerKind::kL2, "", 4});
  out.push_back({"cdper", LossKind::kL2Svm, RegularizerKind::kL1, "", 4});
  out.push_back({"cd", LossKind::kSquared, RegularizerKind::kL1, "ada-gap", 0});
  return out;
}

std::string case_name(const testing::TestParamInfo<Case>& info) {
  std::string name = info.param.solver + "_" + loss_info(info.param.loss).name + "_" +
                     regularizer_info(info.param.regularizer).name + info.param.select +
                     (info.param.partitions > 0 ? "_parts" : "");
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

void PrintTo(const Case& c, std::ostream* out) {
  *out << c.solver << " -l " << loss_info(c.loss).name << " -r "
       << regularizer_info(c.regularizer).name << (c.select.empty() ? "" : " --select ")
       << c.select;
  if (c.partitions > 0) *out << " --partitions " << c.partitions;
}

class IntegerWeights : public testing::TestWithParam<Case> {};

// f of `model` on `problem` (targets and C_j as the problem has them): the
// intercept rows' P(w, w0), else evaluate()'s f.
double objective_of(const LinearModel& model, const Problem& problem, const Params& params) {
  if (solver_info(params.solver).intercept) return intercept_primal(problem, model.w);
  return evaluate(problem, params.loss.value(), model.w, Regularizer::of(params.regularizer),
                  params.svr_epsilon.value_or(kDefaultSvrEpsilon))
      .objective;
}

TEST_P(IntegerWeights, SameOptimumAsRepeatedRows) {
  const Case& c = GetParam();
  const test::Data& data = test::load("heart_scale");
  const CscMatrix& x = data.file.features;
  const std::size_t l = x.num_rows;
  const RepeatedRows copy = repeated_by_weights(data);
  const std::vector<double>& weights = copy.weights;
  const CscMatrix& repeated = copy.x;
  const std::vector<double>& targets = copy.targets;
  const ClassMap& classes = copy.classes;
  const SolverInfo& row = *find_solver(c.solver);
  Params params;
  params.solver = row.kind;
  params.loss = c.loss;
  params.regularizer = c.regularizer;
  params.C = 0.25;
  params.threads = 1;
  if (!c.select.empty()) params.own<SelectOptions>().rule = c.select;
  if (c.partitions > 0) {
    params.own<PartitionOptions>().count = c.partitions;
    params.threads = 2;
  }
  const bool pegasos = row.default_max_iter == 0 && !row.dual;
  const bool lasso = c.loss == LossKind::kSquared && c.regularizer == RegularizerKind::kL1;
  params.eps = lasso ? 1e-9 : 1e-7;
  params.max_iter = 100000;
  if (pegasos) params.max_iter = 400 * static_cast<std::int64_t>(l);
  params = resolve_defaults(params);

  test::RecordingReporter a;
  test::RecordingReporter b;
  LinearModel weighted;
  LinearModel copied;
  Problem weighted_problem{x, nullptr, data.file.labels, params.C, params.C, Task::kRegression};
  Problem copied_problem{repeated, nullptr, targets, params.C, params.C, Task::kRegression};
  if (is_regression(c.loss)) {
    weighted = train_regression(x, data.file.labels, params, a, nullptr, nullptr, &weights);
    copied = train_regression(repeated, targets, params, b);
  } else {
    weighted = train(DataMatrix{&x, nullptr, &weights}, data.classes, params, a);
    copied = train(repeated, classes, params, b);
    weighted_problem = one_vs_rest(x, data.classes, 0, params.C, params.C);
    copied_problem = one_vs_rest(repeated, classes, 0, params.C, params.C);
  }
  weighted_problem.weights = &weights;
  const double f_weighted = objective_of(weighted, weighted_problem, params);
  const double f_copied = objective_of(copied, copied_problem, params);
  // The weighted f is the copy's f, at any w.
  EXPECT_NEAR(objective_of(copied, weighted_problem, params), f_copied, 1e-9 * f_copied);
  // Pegasos stops after its updates, not at a tolerance.
  const double tolerance = pegasos ? 2e-2 : 1e-3;
  EXPECT_NEAR(f_weighted, f_copied, tolerance * f_copied);
  // No model goes below the optimum, and a solver with a stopping rule ends
  // just above it (at eps 1e-7, the copy's f is within about 1e-8 of the
  // weighted f on every row): so the weighted model is not better than the
  // copy's by more than 1e-5 of f, far less than the tolerance above. A
  // weighted objective that drops rows or scales them wrongly lands below.
  const double below = pegasos ? tolerance : 1e-5;
  EXPECT_GE(f_weighted, f_copied - below * f_copied);
}

INSTANTIATE_TEST_SUITE_P(EveryRow, IntegerWeights, testing::ValuesIn(all_cases()), case_name);

// Crammer and Singer's primal (solver_cs.cpp's header) of a model on x, with
// row j's C = C s_j (s_j = 1 without weights).
double cs_primal(const LinearModel& model, const CscMatrix& x, const ClassMap& classes, double C,
                 const std::vector<double>* weights) {
  const std::size_t k = model.nr_w();
  double value = 0;
  for (double v : model.w) value += 0.5 * v * v;
  const CsrMatrix rows = to_csr(x);
  std::vector<double> scores;
  for (std::size_t j = 0; j < rows.num_rows; ++j) {
    scores.assign(k, 0.0);
    for (auto t = rows.row_ptr[j]; t < rows.row_ptr[j + 1]; ++t) {
      const auto s = static_cast<std::size_t>(t);
      for (std::size_t m = 0; m < k; ++m) {
        scores[m] += model.w[rows.col_idx[s] * k + m] * rows.values[s];
      }
    }
    const auto y = static_cast<std::size_t>(classes.class_of[j]);
    double largest = scores[y];
    for (std::size_t m = 0; m < k; ++m) {
      if (m != y) largest = std::max(largest, scores[m] + 1.0);
    }
    value += C * (weights != nullptr ? (*weights)[j] : 1.0) * (largest - scores[y]);
  }
  return value;
}

double half_squared_norm(const std::vector<double>& w) {
  double out = 0;
  for (double v : w) out += 0.5 * v * v;
  return out;
}

// cs: s_j multiplies row j's C (the bound of alpha_j^{y_j}); the one-class
// SVM: s_j bounds alpha_j and nu l becomes nu sum_j s_j. Both against the
// repeated rows: cs by its primal, the one-class SVM by its dual optimum
// 1/2 ||w||^2 (its primal has no C to weigh), and rho.
TEST(IntegerWeightsAllClassesAndOneClass, SameOptimumAsRepeatedRows) {
  for (const char* name : {"heart_scale", "dna.scale"}) {
    SCOPED_TRACE(name);
    const test::Data& data = test::load(name);
    const CscMatrix& x = data.file.features;
    const RepeatedRows copy = repeated_by_weights(data);
    const std::vector<double>& weights = copy.weights;
    const CscMatrix& repeated = copy.x;
    const std::vector<double>& targets = copy.targets;
    const ClassMap& classes = copy.classes;
    Params cs;
    cs.solver = find_solver("cs")->kind;
    cs.loss = LossKind::kMultiHinge;
    cs.C = 0.25;
    cs.eps = 1e-5;
    cs = resolve_defaults(cs);
    test::RecordingReporter a;
    test::RecordingReporter b;
    const LinearModel weighted = train(DataMatrix{&x, nullptr, &weights}, data.classes, cs, a);
    const LinearModel copied = train(repeated, classes, cs, b);
    const double f_copied = cs_primal(copied, repeated, classes, cs.C, nullptr);
    // The weighted primal is the copy's, at any w.
    EXPECT_NEAR(cs_primal(copied, x, data.classes, cs.C, &weights), f_copied, 1e-9 * f_copied);
    EXPECT_NEAR(cs_primal(weighted, x, data.classes, cs.C, &weights), f_copied, 1e-3 * f_copied);

    Params one_class;
    one_class.solver = find_solver("oneclass")->kind;
    one_class.loss = LossKind::kOneClass;
    one_class.nu = 0.3;
    one_class.eps = 1e-7;
    one_class = resolve_defaults(one_class);
    const LinearModel weighted_one =
        train_regression(x, data.file.labels, one_class, a, nullptr, nullptr, &weights);
    const LinearModel copied_one = train_regression(repeated, targets, one_class, b);
    const double d_copied = half_squared_norm(copied_one.w);
    EXPECT_NEAR(half_squared_norm(weighted_one.w), d_copied, 1e-3 * d_copied);
    EXPECT_NEAR(weighted_one.rho, copied_one.rho, 1e-3 * std::fabs(copied_one.rho));
  }
}

// Weights of 0 and 1: the model of the copy without the rows of weight 0, bit
// for bit (C_j times 1 is C_j; the rows of weight 0 count nowhere).
TEST(InstanceWeights, WeightZeroIsTheCopyWithoutTheRow) {
  for (const char* name : {"heart_scale", "dna.scale"}) {
    const test::Data& data = test::load(name);
    const CscMatrix& x = data.file.features;
    const std::size_t l = x.num_rows;
    std::vector<double> weights(l);
    std::vector<std::size_t> kept;
    for (std::size_t r = 0; r < l; ++r) {
      weights[r] = r % 5 == 2 || r % 7 == 0 ? 0.0 : 1.0;
      if (weights[r] > 0) kept.push_back(r);
    }
    const CscMatrix copy = select_rows(x, kept);
    ClassMap copy_classes{data.classes.labels, {}};
    std::vector<double> copy_targets;
    for (std::size_t r : kept) {
      copy_classes.class_of.push_back(data.classes.class_of[r]);
      copy_targets.push_back(data.file.labels[r]);
    }
    for (const SolverInfo& solver : solver_table()) {
      for (LossKind loss : solver.losses) {
        SCOPED_TRACE(std::string(name) + " " + solver.name + " " + loss_info(loss).name);
        Params params = test::params_for(solver, loss);
        if (!has_classes(loss)) {
          if (std::string(name) != "heart_scale") continue;
          test::RecordingReporter a;
          test::RecordingReporter b;
          EXPECT_EQ(train_regression(x, data.file.labels, params, a, nullptr, nullptr, &weights).w,
                    train_regression(copy, copy_targets, params, b).w);
          continue;
        }
        params.class_weights = {{data.classes.labels[0], 2.0}};
        test::RecordingReporter a;
        test::RecordingReporter b;
        EXPECT_EQ(train(DataMatrix{&x, nullptr, &weights}, data.classes, params, a).w,
                  train(copy, copy_classes, params, b).w);
        EXPECT_EQ(a.iterations.size(), b.iterations.size());
      }
    }
  }
}

}  // namespace
}  // namespace cdl
