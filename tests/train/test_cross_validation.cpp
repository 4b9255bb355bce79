// Model selection in process: the folds of assign_folds(), cross_validate()
// against an independent recomputation and across thread counts,
// search_C() against a plain loop of cross validations, search_start_C(),
// warm starts (initial_weights) and the -wi class weights.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "data/problem.h"
#include "data/sparse_matrix.h"
#include "model/model.h"
#include "objective/evaluate.h"
#include "select/coordinate_order.h"
#include "solver_test_util.h"
#include "solvers/params.h"
#include "test_util.h"
#include "train/cross_validation.h"
#include "train/train.h"
#include "train/train_regression.h"
#include "util/error.h"

namespace cdl {
namespace {

using test::load;

Params resolved(SolverKind solver, int folds = 0, double eps = -1) {
  Params params;
  params.solver = solver;
  params.cv_folds = folds;
  if (eps > 0) params.eps = eps;
  params = resolve_defaults(params);
  validate(params);
  return params;
}

// Prints nothing (warnings go to `log`), counts outer iterations and keeps
// the SolveResult of every binary problem.
class CountingReporter : public Reporter {
 public:
  CountingReporter() : Reporter(log, Level::kQuiet) {}
  void iteration(const IterationInfo&) override { ++iterations; }
  bool observes_iterations() const override { return true; }
  void summary(const std::string& name, const SolveResult& result) override {
    Reporter::summary(name, result);
    results.push_back(result);
  }
  std::ostringstream log;
  std::int64_t iterations = 0;
  std::vector<SolveResult> results;
};

// The instances per fold.
std::vector<std::size_t> fold_sizes(const std::vector<std::size_t>& fold_of, std::size_t folds) {
  std::vector<std::size_t> sizes(folds, 0);
  for (std::size_t f : fold_of) {
    EXPECT_LT(f, folds);
    if (f < folds) ++sizes[f];
  }
  return sizes;
}

void expect_partition(const std::vector<std::size_t>& fold_of, std::size_t l, std::size_t folds) {
  ASSERT_EQ(fold_of.size(), l);  // one fold per instance: every instance in exactly one
  const auto sizes = fold_sizes(fold_of, folds);
  const auto [smallest, largest] = std::minmax_element(sizes.begin(), sizes.end());
  EXPECT_LE(*largest - *smallest, 1u) << "folds " << folds;
  EXPECT_GE(*smallest, l / folds);
}

// ---- assign_folds ----

TEST(AssignFolds, PartitionsIntoFoldsOfNearlyEqualSize) {
  const ClassMap& classes = load("heart_scale").classes;  // 270 instances
  for (std::size_t folds : {2u, 5u, 7u, 10u, 269u, 270u}) {
    expect_partition(assign_folds(classes, folds, false, 1), 270, folds);
    expect_partition(assign_folds(classes, folds, true, 1), 270, folds);
  }
  // As many folds as instances: one instance each.
  const auto single = assign_folds(classes, 270, false, 3);
  EXPECT_EQ(std::set<std::size_t>(single.begin(), single.end()).size(), 270u);
}

TEST(AssignFolds, SameSeedSameFoldsDifferentSeedDifferentFolds) {
  const ClassMap& classes = load("heart_scale").classes;
  for (bool stratified : {false, true}) {
    const auto a = assign_folds(classes, 5, stratified, 42);
    EXPECT_EQ(a, assign_folds(classes, 5, stratified, 42));
    EXPECT_NE(a, assign_folds(classes, 5, stratified, 43));
    EXPECT_NE(a, assign_folds(classes, 5, stratified, 1));
  }
}

TEST(AssignFolds, FoldsAreShuffledNotContiguous) {
  const ClassMap& classes = load("heart_scale").classes;
  const auto fold_of = assign_folds(classes, 5, false, 1);
  // The first 54 instances are not all in one fold.
  std::set<std::size_t> first(fold_of.begin(), fold_of.begin() + 54);
  EXPECT_GT(first.size(), 1u);
}

void expect_stratified(const ClassMap& classes, std::size_t folds, std::uint64_t seed) {
  const auto fold_of = assign_folds(classes, folds, true, seed);
  expect_partition(fold_of, classes.class_of.size(), folds);
  const std::size_t nr_class = classes.labels.size();
  std::vector<std::vector<double>> count(nr_class, std::vector<double>(folds, 0.0));
  std::vector<double> total(nr_class, 0.0);
  for (std::size_t r = 0; r < fold_of.size(); ++r) {
    count[classes.class_of[r]][fold_of[r]] += 1;
    total[classes.class_of[r]] += 1;
  }
  for (std::size_t c = 0; c < nr_class; ++c) {
    const double share = total[c] / static_cast<double>(folds);
    for (std::size_t f = 0; f < folds; ++f) {
      EXPECT_LT(std::fabs(count[c][f] - share), 1.0)
          << "class " << classes.labels[c] << " fold " << f << ": " << count[c][f] << " of "
          << total[c] << " in " << folds << " folds";
    }
  }
}

TEST(AssignFolds, StratifiedKeepsEveryClassShareWithinOne) {
  for (std::size_t folds : {2u, 3u, 5u, 7u, 10u}) {
    for (std::uint64_t seed : {1u, 2u}) {
      expect_stratified(load("heart_scale").classes, folds, seed);
      expect_stratified(load("dna.scale").classes, folds, seed);  // 3 classes
    }
  }
  // A very unbalanced toy: 3 of one class among 20.
  ClassMap toy{{1, -1}, {}};
  for (std::size_t r = 0; r < 20; ++r) toy.class_of.push_back(r % 7 == 3 ? 0 : 1);
  expect_stratified(toy, 3, 9);
  expect_stratified(toy, 4, 9);
}

TEST(AssignFolds, UnstratifiedCanUnbalanceAClassThatStratifiedBalances) {
  // Not a requirement of the unstratified folds, but the reason for
  // --stratified: some seed gives a fold with a class share off by more than
  // one instance without it.
  const ClassMap& classes = load("heart_scale").classes;
  bool off = false;
  for (std::uint64_t seed = 1; seed <= 20 && !off; ++seed) {
    const auto fold_of = assign_folds(classes, 5, false, seed);
    std::vector<double> positives(5, 0.0);
    double total = 0;
    for (std::size_t r = 0; r < fold_of.size(); ++r) {
      if (classes.class_of[r] == 0) {
        positives[fold_of[r]] += 1;
        total += 1;
      }
    }
    for (double p : positives) off = off || std::fabs(p - total / 5) >= 1.0;
  }
  EXPECT_TRUE(off);
}

// ---- cross_validate ----

// cross_validate recomputed from scratch: the same folds, each model trained
// by train() on the complement of its fold, each held-out instance predicted
// from its CSR row by decision_values/label_for. The folds and the fold seeds
// mirror cross_validate's seeding (cross_validation.cpp): the folds are
// assign_folds(..., derive_seed(seed, 0x5eed)) and fold f trains with seed
// derive_seed(seed, f + 1). Deterministic solvers (cd, tron) do not depend
// on the latter. With more than one fold and a solver that takes a start,
// every fold after fold 0 starts from fold 0's model; `lead_starts` false
// trains every fold from 0 instead.
CrossValidation recompute(const test::Data& data, const Params& params, bool lead_starts = true) {
  const CscMatrix& x = data.file.features;
  const ClassMap& classes = data.classes;
  const std::size_t l = x.num_rows;
  const auto folds = std::min(static_cast<std::size_t>(params.cv_folds), l);
  const auto fold_of =
      assign_folds(classes, folds, params.stratified, derive_seed(params.seed, 0x5eed));
  CrossValidation out;
  std::size_t correct = 0;
  std::vector<double> decision;
  for (std::size_t f = 0; f < folds; ++f) {
    std::vector<std::size_t> training;
    for (std::size_t r = 0; r < l; ++r) {
      if (fold_of[r] != f) training.push_back(r);
    }
    ClassMap fold_classes{classes.labels, {}};
    for (std::size_t r : training) fold_classes.class_of.push_back(classes.class_of[r]);
    Params fold_params = params;
    fold_params.seed = derive_seed(params.seed, f + 1);
    CountingReporter quiet;
    const bool warm = lead_starts && solver_info(params.solver).warm_start && folds > 1 && f > 0;
    InitialWeights start;
    if (warm) start = initial_weights(out.models[0], classes, x.num_cols, params.bias);
    out.models.push_back(
        train(select_rows(x, training), fold_classes, fold_params, quiet, warm ? &start : nullptr));
    const LinearModel& model = out.models.back();
    for (std::size_t r = 0; r < l; ++r) {
      if (fold_of[r] != f) continue;
      const auto begin = static_cast<std::size_t>(data.rows.row_ptr[r]);
      const auto end = static_cast<std::size_t>(data.rows.row_ptr[r + 1]);
      model.decision_values(data.rows.col_idx.data() + begin, data.rows.values.data() + begin,
                            end - begin, decision);
      correct += model.label_for(decision) == static_cast<int>(data.file.labels[r]);
    }
  }
  out.accuracy = static_cast<double>(correct) / static_cast<double>(l);
  return out;
}

CrossValidation run_cv(const test::Data& data, const Params& params) {
  CountingReporter quiet;
  return cross_validate(data.file.features, data.classes, params, quiet);
}

void expect_same_models(const CrossValidation& a, const CrossValidation& b,
                        const std::string& what) {
  EXPECT_EQ(a.accuracy, b.accuracy) << what;
  ASSERT_EQ(a.models.size(), b.models.size()) << what;
  for (std::size_t f = 0; f < a.models.size(); ++f) {
    EXPECT_EQ(format_model(a.models[f]), format_model(b.models[f])) << what << ", fold " << f;
  }
}

TEST(CrossValidate, SameSeedSameAccuracyAndModels) {
  const test::Data& data = load("heart_scale");
  Params params = resolved(SolverKind::kCdPer, 5);
  params.threads = 2;
  const CrossValidation a = run_cv(data, params);
  expect_same_models(a, run_cv(data, params), "seed 1 twice");
  EXPECT_EQ(a.models.size(), 5u);
  EXPECT_GT(a.accuracy, 0.75);
  EXPECT_LT(a.accuracy, 0.95);
}

TEST(CrossValidate, ResultDoesNotDependOnTheThreadCount) {
  // CDPER on dna.scale takes 0.4 s per cross validation; TRON covers the
  // multi-class case.
  for (const char* name : {"heart_scale", "dna.scale"}) {
    const test::Data& data = load(name);
    for (SolverKind solver : {SolverKind::kCdPer, SolverKind::kTron}) {
      if (solver == SolverKind::kCdPer && std::string(name) == "dna.scale") continue;
      for (bool stratified : {false, true}) {
        Params params = resolved(solver, 5);
        params.stratified = stratified;
        params.threads = 1;
        const CrossValidation one = run_cv(data, params);
        for (unsigned threads : {2u, 3u}) {
          params.threads = threads;
          expect_same_models(one, run_cv(data, params),
                             std::string(name) + " " + solver_info(solver).name + " stratified " +
                                 std::to_string(stratified) + " threads " +
                                 std::to_string(threads));
        }
      }
    }
  }
}

// -v alone frees each fold's model once its fold is predicted: the same
// accuracy, on one thread and on two, with no models returned.
TEST(CrossValidate, WithoutKeptModelsGivesTheSameAccuracy) {
  const test::Data& data = load("dna.scale");
  Params params = resolved(SolverKind::kTron, 5);
  for (unsigned threads : {1u, 2u}) {
    params.threads = threads;
    const CrossValidation kept = run_cv(data, params);
    CountingReporter quiet;
    const CrossValidation freed =
        cross_validate(data.file.features, data.classes, params, quiet, nullptr, true, false);
    EXPECT_EQ(freed.accuracy, kept.accuracy) << threads << " threads";
    EXPECT_TRUE(freed.models.empty());
    EXPECT_EQ(kept.models.size(), 5u);
  }
}

TEST(CrossValidate, EqualsAnIndependentRecomputation) {
  struct Case {
    const char* data;
    SolverKind solver;
    int folds;
    bool stratified;
  };
  for (const Case& c : {Case{"heart_scale", SolverKind::kCd, 5, false},
                        Case{"heart_scale", SolverKind::kCdPer, 3, true},
                        Case{"heart_scale", SolverKind::kTron, 10, false},
                        Case{"dna.scale", SolverKind::kTron, 4, true}}) {
    const test::Data& data = load(c.data);
    Params params = resolved(c.solver, c.folds);
    params.stratified = c.stratified;
    params.threads = 2;
    const std::string what = std::string(c.data) + " " + solver_info(c.solver).name + " " +
                             std::to_string(c.folds) + " folds";
    const CrossValidation cv = run_cv(data, params);
    expect_same_models(cv, recompute(data, params), what);
  }
}

// The folds after the lead folds start from a lead fold's model; they stop
// by their own test, so that with a tight tolerance they end where the same
// folds trained from 0 end (EqualsAnIndependentRecomputation checks that
// they start where the lead scheme says).
TEST(CrossValidate, LaterFoldsStartFromALeadFoldAndEndAtTheirOwnOptimum) {
  const test::Data& data = load("heart_scale");
  Params params = resolved(SolverKind::kCdPer, 5, 1e-8);
  params.threads = 2;
  const CrossValidation cv = run_cv(data, params);
  const CrossValidation cold = recompute(data, params, false);
  ASSERT_EQ(cv.models.size(), 5u);
  for (std::size_t f = 0; f < 5; ++f) {
    const std::vector<double>& w = cv.models[f].w;
    const std::vector<double>& w_cold = cold.models[f].w;
    ASSERT_EQ(w.size(), w_cold.size());
    double diff = 0;
    double norm = 0;
    for (std::size_t i = 0; i < w.size(); ++i) {
      diff += (w[i] - w_cold[i]) * (w[i] - w_cold[i]);
      norm += w_cold[i] * w_cold[i];
    }
    EXPECT_LT(std::sqrt(diff), 1e-5 * std::sqrt(norm)) << "fold " << f;
    if (f == 0) {
      EXPECT_EQ(format_model(cv.models[f]), format_model(cold.models[f])) << "fold " << f;
    }
  }
}

// Regression folds follow the same starts: -v 5 of the squared loss by
// primal CD (heart_scale's labels as real targets), recomputed on copies of
// each fold's training rows, every fold after the first from the first
// fold's weights.
TEST(CrossValidateRegression, EqualsARecomputationWithTheLeadFoldsStarts) {
  const test::Data& data = load("heart_scale");
  const CscMatrix& x = data.file.features;
  const std::vector<double>& targets = data.file.labels;
  const std::size_t l = x.num_rows;
  Params params;
  params.solver = SolverKind::kCd;
  params.loss = LossKind::kSquared;
  params.cv_folds = 5;
  params.C = 0.5;
  params = resolve_defaults(params);
  ClassMap single{{0}, std::vector<std::size_t>(l, 0)};
  const auto fold_of = assign_folds(single, 5, false, derive_seed(params.seed, 0x5eed));
  std::vector<std::vector<double>> fold_w;
  double squared_errors = 0;
  for (std::size_t f = 0; f < 5; ++f) {
    std::vector<std::size_t> training;
    std::vector<double> training_targets;
    for (std::size_t r = 0; r < l; ++r) {
      if (fold_of[r] == f) continue;
      training.push_back(r);
      training_targets.push_back(targets[r]);
    }
    Params fold_params = params;
    fold_params.seed = derive_seed(params.seed, f + 1);
    CountingReporter quiet;
    fold_w.push_back(train_regression(select_rows(x, training), training_targets, fold_params,
                                      quiet, f >= 1 ? &fold_w[0] : nullptr)
                         .w);
    const std::vector<double> values = decision_values(x, fold_w.back());
    for (std::size_t r = 0; r < l; ++r) {
      if (fold_of[r] == f) squared_errors += (values[r] - targets[r]) * (values[r] - targets[r]);
    }
  }
  for (unsigned threads : {1u, 2u}) {
    params.threads = threads;
    CountingReporter quiet;
    const RegressionValidation cv = cross_validate_regression(x, targets, params, quiet);
    EXPECT_NEAR(cv.mean_squared_error, squared_errors / static_cast<double>(l),
                1e-12 * cv.mean_squared_error)
        << threads << " threads";
  }
}

TEST(CrossValidate, MoreFoldsThanInstancesWarnsAndRunsLeaveOneOut) {
  // 12 instances of heart_scale, 6 of each class.
  const test::Data& heart = load("heart_scale");
  std::vector<std::size_t> rows;
  int positives = 0;
  int negatives = 0;
  for (std::size_t r = 0; r < heart.file.labels.size() && rows.size() < 12; ++r) {
    int& count = heart.file.labels[r] > 0 ? positives : negatives;
    if (count < 6) {
      ++count;
      rows.push_back(r);
    }
  }
  const CscMatrix x = select_rows(heart.file.features, rows);
  std::vector<double> labels;
  for (std::size_t r : rows) labels.push_back(heart.file.labels[r]);
  const ClassMap classes = map_classes(labels);

  Params params = resolved(SolverKind::kCd, 20);
  params.threads = 3;
  CountingReporter reporter;
  const CrossValidation cv = cross_validate(x, classes, params, reporter);
  EXPECT_NE(reporter.log.str().find("warning: 20 folds of 12 instances: using 12 (leave-one-out)"),
            std::string::npos)
      << reporter.log.str();
  ASSERT_EQ(cv.models.size(), 12u);

  // Leave-one-out, recomputed: fold f holds out the one instance r with
  // fold_of[r] == f, and every fold after fold 0 starts from fold 0's model;
  // cd is cyclic, so a model does not depend on a seed.
  const std::vector<std::size_t> fold_of =
      assign_folds(classes, 12, false, derive_seed(params.seed, 0x5eed));
  std::size_t correct = 0;
  std::vector<LinearModel> fold_models;
  std::multiset<std::string> expected_models;
  for (std::size_t f = 0; f < 12; ++f) {
    const std::size_t r =
        static_cast<std::size_t>(std::find(fold_of.begin(), fold_of.end(), f) - fold_of.begin());
    std::vector<std::size_t> others;
    for (std::size_t k = 0; k < 12; ++k) {
      if (k != r) others.push_back(k);
    }
    ClassMap fold_classes{classes.labels, {}};
    for (std::size_t k : others) fold_classes.class_of.push_back(classes.class_of[k]);
    InitialWeights start;
    if (f > 0) {
      start = initial_weights(fold_models[0], classes, x.num_cols, params.bias);
    }
    CountingReporter quiet;
    fold_models.push_back(
        train(select_rows(x, others), fold_classes, params, quiet, f > 0 ? &start : nullptr));
    const LinearModel& model = fold_models.back();
    expected_models.insert(format_model(model));
    correct += model.predict(select_rows(x, {r}))[0] == static_cast<int>(labels[r]);
  }
  EXPECT_DOUBLE_EQ(cv.accuracy, static_cast<double>(correct) / 12.0);
  std::multiset<std::string> got_models;
  for (const auto& model : cv.models) got_models.insert(format_model(model));
  EXPECT_EQ(got_models, expected_models);

  // Without the excess there is no warning.
  params.cv_folds = 12;
  CountingReporter exact;
  EXPECT_EQ(cross_validate(x, classes, params, exact).accuracy, cv.accuracy);
  EXPECT_EQ(exact.log.str().find("warning"), std::string::npos) << exact.log.str();
}

// ---- search_start_C and search_C ----

// max_j ||x_j||^2 over the instances (rows).
double largest_row_norm2(const CsrMatrix& rows) {
  double largest = 0;
  for (std::size_t r = 0; r < rows.num_rows; ++r) {
    double sum = 0;
    for (auto t = rows.row_ptr[r]; t < rows.row_ptr[r + 1]; ++t) {
      const double v = rows.values[static_cast<std::size_t>(t)];
      sum += v * v;
    }
    largest = std::max(largest, sum);
  }
  return largest;
}

TEST(SearchStartC, LargestPowerOfTwoAtOrBelowLiblinearsBound) {
  for (const char* name : {"heart_scale", "rcv1_small", "dna.scale", "svmlight_example1.train"}) {
    const test::Data& data = load(name);
    const double l = static_cast<double>(data.rows.num_rows);
    const double bound_lr = 1.0 / (l * largest_row_norm2(data.rows));
    const double bound_svm = bound_lr / 2;
    // The softmax at C is logistic regression at 2C on two classes.
    for (auto [loss, bound] :
         {std::pair{LossKind::kL2Svm, bound_svm}, std::pair{LossKind::kL1Svm, bound_svm},
          std::pair{LossKind::kLogistic, bound_lr}, std::pair{LossKind::kSoftmax, bound_lr / 2}}) {
      const double start = search_start_C(data.file.features, loss);
      int exponent = 0;
      EXPECT_EQ(std::frexp(start, &exponent), 0.5) << name << ": not a power of two: " << start;
      EXPECT_LE(start, bound) << name;
      EXPECT_GT(2 * start, bound) << name;
    }
  }
  // heart_scale: l = 270 and max ||x_j||^2 = 13 at most (13 features in
  // [-1, 1]), so the bound 1 / (2 * 270 * max) is at least 1.4e-4 > 2^-13;
  // the largest row gives a bound in [2^-13, 2^-12).
  const test::Data& heart = load("heart_scale");
  const double bound = 1.0 / (2 * 270 * largest_row_norm2(heart.rows));
  EXPECT_GE(bound, std::ldexp(1.0, -13));
  EXPECT_LT(bound, std::ldexp(1.0, -12));
  EXPECT_EQ(search_start_C(heart.file.features, LossKind::kL2Svm), std::ldexp(1.0, -13));
  EXPECT_EQ(search_start_C(heart.file.features, LossKind::kLogistic), std::ldexp(1.0, -12));
}

TEST(SearchC, FindsTheBestCOfAPlainLoopWithoutWarmStarts) {
  const test::Data& data = load("heart_scale");
  Params params = resolved(SolverKind::kCdPer, 5);
  params.threads = 2;
  const double start = search_start_C(data.file.features, LossKind::kL2Svm);

  std::vector<double> searched_C;
  std::vector<double> searched_accuracy;
  CountingReporter reporter;
  const CSearch best = search_C(data.file.features, data.classes, params, start, reporter,
                                [&](double C, double accuracy) {
                                  searched_C.push_back(C);
                                  searched_accuracy.push_back(accuracy);
                                });

  // The plain loop: C = start, 2 start, ... up to 1024, each from w = 0.
  std::vector<double> plain_C;
  std::vector<double> plain_accuracy;
  double plain_best_C = 0;
  double plain_best = -1;
  for (double C = start; C <= kMaxSearchC; C *= 2) {
    Params step = params;
    step.C = C;
    const double accuracy = run_cv(data, step).accuracy;
    plain_C.push_back(C);
    plain_accuracy.push_back(accuracy);
    if (accuracy > plain_best) {
      plain_best = accuracy;
      plain_best_C = C;
    }
  }
  // The search is the loop's first Cs: all of them, or fewer when it stopped
  // because the models stopped changing.
  ASSERT_FALSE(plain_C.empty());
  EXPECT_EQ(plain_C.back(), kMaxSearchC);
  ASSERT_LE(searched_C.size(), plain_C.size());
  ASSERT_GE(searched_C.size(), 3u);
  EXPECT_EQ(searched_C,
            std::vector<double>(plain_C.begin(),
                                plain_C.begin() + static_cast<std::ptrdiff_t>(searched_C.size())));
  EXPECT_EQ(best.stopped_unchanged, searched_C.size() < plain_C.size());
  EXPECT_EQ(best.last_C, searched_C.back());
  plain_C.resize(searched_C.size());
  plain_accuracy.resize(searched_C.size());
  plain_best = -1;
  for (std::size_t k = 0; k < plain_C.size(); ++k) {
    if (plain_accuracy[k] > plain_best) {
      plain_best = plain_accuracy[k];
      plain_best_C = plain_C[k];
    }
  }
  // The reported best is the first C with the highest reported accuracy.
  const auto top = std::max_element(searched_accuracy.begin(), searched_accuracy.end());
  EXPECT_EQ(best.best_accuracy, *top);
  EXPECT_EQ(best.best_C, searched_C[static_cast<std::size_t>(top - searched_accuracy.begin())]);

  // Warm starts stop each fold at a slightly different point of the
  // eps = 0.001 neighbourhood of the optimum than a start from w = 0, so an
  // instance near a fold model's boundary may flip and an accuracy move by
  // 1/270. The best C is the same on heart_scale, and the best accuracy
  // agrees within half a point (here exactly; at C = 1 one instance of 270
  // differs, 80.74% against 81.11% from w = 0).
  EXPECT_EQ(best.best_C, plain_best_C);
  EXPECT_NEAR(100 * best.best_accuracy, 100 * plain_best, 0.5);
  for (std::size_t k = 0; k < plain_C.size() && k < searched_accuracy.size(); ++k) {
    EXPECT_NEAR(100 * searched_accuracy[k], 100 * plain_accuracy[k], 1.5) << "C " << plain_C[k];
  }
}

// ---- search_regression ----

// heart_scale's labels (+1/-1) as real targets, the L2-loss SVR by primal CD.
Params svr_search_params() {
  Params params;
  params.solver = SolverKind::kCdPer;
  params.loss = LossKind::kSvrL2;
  params.cv_folds = 5;
  params.threads = 2;
  params = resolve_defaults(params);
  validate(params);
  return params;
}

struct RegressionStep {
  double C, p, mse;
};

TEST(SearchRegression, StartCIsLiblinearsBoundForTheSvr) {
  const test::Data& data = load("heart_scale");
  const std::vector<double>& y = data.file.labels;  // |y| = 1
  const double l = static_cast<double>(y.size());
  for (double p : {0.0, 0.3, 0.95}) {
    // 0.01 sum (|y| - p)^2 / (8 (sum |y|)^2 max ||x||^2)
    const double bound = 0.01 * l * (1 - p) * (1 - p) / (8 * l * l * largest_row_norm2(data.rows));
    const double start = regression_search_start_C(data.file.features, y, p);
    int exponent = 0;
    EXPECT_EQ(std::frexp(start, &exponent), 0.5) << p;
    EXPECT_LE(start, bound) << p;
    EXPECT_GT(2 * start, bound) << p;
  }
  EXPECT_EQ(regression_search_start_C(data.file.features, y, 1.0), kMaxRegressionSearchC);
}

TEST(SearchRegression, WalksTheGridOfPAndDoublesCFromEachStart) {
  const test::Data& data = load("heart_scale");
  const CscMatrix& x = data.file.features;
  const std::vector<double>& y = data.file.labels;
  Params params = svr_search_params();
  std::vector<RegressionStep> steps;
  CountingReporter reporter;
  const RegressionSearch best =
      search_regression(x, y, params, std::nullopt, reporter, [&](double C, double p, double mse) {
        steps.push_back({C, p, mse});
      });
  ASSERT_FALSE(steps.empty());
  // p = 19/20, 18/20, ..., 0, each from its own start C, doubling.
  std::vector<double> ps;
  for (std::size_t k = 0; k < steps.size(); ++k) {
    if (k == 0 || steps[k].p != steps[k - 1].p) {
      ps.push_back(steps[k].p);
      EXPECT_EQ(steps[k].C, regression_search_start_C(x, y, steps[k].p)) << steps[k].p;
      // Nothing is warm at a p's first C: a cold cross validation.
      Params at = params;
      at.C = steps[k].C;
      at.svr_epsilon = steps[k].p;
      CountingReporter quiet;
      EXPECT_EQ(steps[k].mse, cross_validate_regression(x, y, at, quiet).mean_squared_error);
    } else {
      EXPECT_EQ(steps[k].C, 2 * steps[k - 1].C);
    }
    EXPECT_LE(steps[k].C, kMaxRegressionSearchC);
  }
  ASSERT_EQ(ps.size(), 20u);
  for (std::size_t i = 0; i < 20; ++i) EXPECT_EQ(ps[i], static_cast<double>(19 - i) / 20);
  // The best is the first step with the lowest error.
  const auto lowest = std::min_element(steps.begin(), steps.end(),
                                       [](const auto& a, const auto& b) { return a.mse < b.mse; });
  EXPECT_EQ(best.best_C, lowest->C);
  EXPECT_EQ(best.best_p, lowest->p);
  EXPECT_EQ(best.best_mean_squared_error, lowest->mse);
  // Warm starts end each fold elsewhere in the eps-neighbourhood of its
  // optimum: the best error is a cold cross validation's within 1%.
  Params at = params;
  at.C = best.best_C;
  at.svr_epsilon = best.best_p;
  at.eps = 1e-6;
  CountingReporter quiet;
  EXPECT_NEAR(best.best_mean_squared_error,
              cross_validate_regression(x, y, at, quiet).mean_squared_error,
              0.01 * best.best_mean_squared_error);
}

TEST(SearchRegression, StartsAtTheGridPointBelowPAndTheSquaredLossHasNoP) {
  const test::Data& data = load("heart_scale");
  const CscMatrix& x = data.file.features;
  const std::vector<double>& y = data.file.labels;
  Params params = svr_search_params();
  params.svr_epsilon = 0.33;  // the grid point at or below: 6/20
  std::set<double> ps;
  CountingReporter reporter;
  search_regression(x, y, params, 0.5, reporter, [&](double C, double p, double) {
    ps.insert(p);
    EXPECT_GE(C, 0.5);
  });
  EXPECT_EQ(ps, (std::set<double>{0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3}));

  params.loss = LossKind::kSquared;
  params.svr_epsilon.reset();
  ps.clear();
  const RegressionSearch best = search_regression(x, y, params, std::nullopt, reporter,
                                                  [&](double, double p, double) { ps.insert(p); });
  EXPECT_EQ(ps, std::set<double>{-1.0});
  EXPECT_EQ(best.best_p, -1.0);
}

TEST(SearchC, TheFirstStepIsAColdCrossValidation) {
  // At the first C nothing is warm yet: its accuracy is cross_validate's.
  const test::Data& data = load("heart_scale");
  Params params = resolved(SolverKind::kTron, 5);
  params.threads = 2;
  std::vector<double> accuracy;
  CountingReporter reporter;
  search_C(data.file.features, data.classes, params, 256, reporter,
           [&](double, double a) { accuracy.push_back(a); });
  ASSERT_EQ(accuracy.size(), 3u);  // 256, 512, 1024
  params.C = 256;
  EXPECT_EQ(accuracy[0], run_cv(data, params).accuracy);
}

TEST(SearchC, StartAboveTheLargestCSearchesOneCOrIsRefused) {
  // LIBLINEAR clamps the start to 1024 and cross-validates there. A search
  // of no C at all, returning best_C = 0 and best_accuracy = -1, is not a
  // result (cdtrain prints it as "Best C = 0  CV accuracy = -100%").
  const test::Data& data = load("heart_scale");
  Params params = resolved(SolverKind::kTron, 5);
  std::vector<double> steps;
  CountingReporter reporter;
  try {
    const CSearch best = search_C(data.file.features, data.classes, params, 2 * kMaxSearchC,
                                  reporter, [&](double C, double) { steps.push_back(C); });
    EXPECT_FALSE(steps.empty());
    EXPECT_GT(best.best_C, 0.0);
    EXPECT_GE(best.best_accuracy, 0.0);
  } catch (const ConfigError&) {
    // Refusing the start is fine too.
  }
}

// ---- warm starts ----

// Trains `data` to a tight optimum, then again from that model with the
// solver's default eps: the start already meets the stopping rule.
void expect_warm_start_stops_at_once(const test::Data& data, SolverKind solver, double tight) {
  const std::string name = solver_info(solver).name;
  const Params tight_params = resolved(solver, 0, tight);
  CountingReporter first;
  Params capped = tight_params;
  capped.max_iter = 20000;
  const LinearModel optimum = train(data.file.features, data.classes, capped, first);
  for (const auto& result : first.results) {
    EXPECT_NE(result.status, Status::kMaxIter) << name;
    EXPECT_GT(result.iterations, 0) << name;
  }

  const InitialWeights start =
      initial_weights(optimum, data.classes, data.file.features.num_cols, -1);
  CountingReporter again;
  const LinearModel warm = train(data.file.features, data.classes, resolved(solver), again, &start);
  EXPECT_EQ(again.iterations, 0) << name;
  ASSERT_EQ(again.results.size(), optimum.nr_w()) << name;
  for (const auto& result : again.results) {
    EXPECT_EQ(result.iterations, 0) << name;
    EXPECT_EQ(result.status, Status::kConverged) << name;
  }
  EXPECT_EQ(warm.w, optimum.w) << name;
  EXPECT_EQ(format_model(warm), format_model(optimum)) << name;
}

TEST(WarmStart, FromTheOptimumStopsAtOnceWithTheSameWeights) {
  expect_warm_start_stops_at_once(load("heart_scale"), SolverKind::kCdPer, 1e-9);
  expect_warm_start_stops_at_once(load("heart_scale"), SolverKind::kCd, 1e-9);
  expect_warm_start_stops_at_once(load("heart_scale"), SolverKind::kTron, 1e-10);
  expect_warm_start_stops_at_once(load("rcv1_small"), SolverKind::kTron, 1e-10);
  expect_warm_start_stops_at_once(load("dna.scale"), SolverKind::kTron, 1e-9);  // 3 problems
}

TEST(WarmStart, CmlsFromTheOptimumEndsNearIt) {
  // CMLS smooths the loss for its first 50 outer iterations (c_k = 1 - k/50)
  // whatever the start, so from the optimum it first moves away (on
  // heart_scale f goes from 121.135 to 123.6) and stops by the CD rule once
  // c_k = 0, after 51 iterations, at the eps = 0.001 accuracy of any start
  // (here 1.5e-6 above f*). The start is still used: one outer iteration
  // from the optimum is much closer to f* than one from w = 0.
  const test::Data& data = load("heart_scale");
  CountingReporter tight;
  const LinearModel optimum =
      train(data.file.features, data.classes, resolved(SolverKind::kTron, 0, 1e-10), tight);
  const InitialWeights start =
      initial_weights(optimum, data.classes, data.file.features.num_cols, -1);
  const Problem problem = test::problem_of("heart_scale");
  const double f_star = evaluate(problem, LossKind::kL2Svm, optimum.w).objective;
  CountingReporter again;
  const LinearModel warm =
      train(data.file.features, data.classes, resolved(SolverKind::kCmls), again, &start);
  EXPECT_NEAR(evaluate(problem, LossKind::kL2Svm, warm.w).objective, f_star, 1e-4 * f_star);

  Params one = resolved(SolverKind::kCmls);
  one.max_iter = 1;
  const double f_warm = evaluate(problem, LossKind::kL2Svm,
                                 train(data.file.features, data.classes, one, again, &start).w)
                            .objective;
  const double f_cold =
      evaluate(problem, LossKind::kL2Svm, train(data.file.features, data.classes, one, again).w)
          .objective;
  EXPECT_LT(f_warm - f_star, 0.5 * (f_cold - f_star)) << f_warm << " " << f_cold;
}

LinearModel toy_model(std::vector<int> labels, std::size_t num_features, double bias,
                      std::vector<double> w) {
  LinearModel model;
  model.solver_type = "L2R_L2LOSS_SVC";
  model.labels = std::move(labels);
  model.num_features = num_features;
  model.bias = bias;
  model.w = std::move(w);
  EXPECT_EQ(model.w.size(), model.weight_rows() * model.nr_w());
  return model;
}

TEST(InitialWeights, BinaryModelScoresItsFirstLabelAndNegatesForTheSecond) {
  const LinearModel model = toy_model({5, 2}, 3, -1, {1, -2, 3});
  // Same label order: the weights as they are.
  EXPECT_EQ(initial_weights(model, ClassMap{{5, 2}, {}}, 3, -1), (InitialWeights{{1, -2, 3}}));
  // The data's positive class is the model's second label: negated.
  EXPECT_EQ(initial_weights(model, ClassMap{{2, 5}, {}}, 3, -1), (InitialWeights{{-1, 2, -3}}));
  // The data's positive class is unknown to the model: zero.
  EXPECT_EQ(initial_weights(model, ClassMap{{7, 5}, {}}, 3, -1), (InitialWeights{{0, 0, 0}}));
}

TEST(InitialWeights, MultiClassTakesEachClassColumnAndZeroFillsMissingClasses) {
  // 3 classes, 2 features: w row-major by feature, one column per class.
  const LinearModel model = toy_model({1, 2, 3}, 2, -1, {10, 20, 30, 11, 21, 31});
  const InitialWeights start = initial_weights(model, ClassMap{{3, 1, 4, 2}, {}}, 2, -1);
  EXPECT_EQ(start, (InitialWeights{{30, 31}, {10, 11}, {0, 0}, {20, 21}}));
  // Binary data from a multi-class model: one problem, its positive class's column.
  EXPECT_EQ(initial_weights(model, ClassMap{{2, 3}, {}}, 2, -1), (InitialWeights{{20, 21}}));
}

TEST(InitialWeights, FeaturesBeyondTheModelAreZeroAndBeyondTheDataDropped) {
  const LinearModel model = toy_model({1, -1}, 2, -1, {4, 5});
  EXPECT_EQ(initial_weights(model, ClassMap{{1, -1}, {}}, 4, -1), (InitialWeights{{4, 5, 0, 0}}));
  EXPECT_EQ(initial_weights(model, ClassMap{{1, -1}, {}}, 1, -1), (InitialWeights{{4}}));
}

TEST(InitialWeights, BiasWeightCarriesOverOnlyIfBothHaveABias) {
  const LinearModel biased = toy_model({1, -1}, 2, 1, {4, 5, 6});
  // Data with 3 features plus a bias column: the bias weight goes to the last column.
  EXPECT_EQ(initial_weights(biased, ClassMap{{1, -1}, {}}, 4, 1), (InitialWeights{{4, 5, 0, 6}}));
  EXPECT_EQ(initial_weights(biased, ClassMap{{-1, 1}, {}}, 3, 1), (InitialWeights{{-4, -5, -6}}));
  // Data without a bias: the model's bias weight is not a feature weight.
  EXPECT_EQ(initial_weights(biased, ClassMap{{1, -1}, {}}, 3, -1), (InitialWeights{{4, 5, 0}}));
  // Model without a bias: the data's bias weight starts at zero.
  const LinearModel plain = toy_model({1, -1}, 2, -1, {4, 5});
  EXPECT_EQ(initial_weights(plain, ClassMap{{1, -1}, {}}, 3, 1), (InitialWeights{{4, 5, 0}}));
}

// ---- class weights (-wi) ----

// f(w) = 1/2 w'w + sum_j C_j max(0, 1 - y_j w'x_j)^2, from the CSR rows,
// with C_j = cost[label of j] (default `C`).
double dense_l2svm_objective(const test::Data& data, const std::vector<double>& w, int positive,
                             const std::map<int, double>& cost, double C) {
  double f = 0;
  for (double v : w) f += 0.5 * v * v;
  for (std::size_t r = 0; r < data.rows.num_rows; ++r) {
    double dot = 0;
    for (auto t = data.rows.row_ptr[r]; t < data.rows.row_ptr[r + 1]; ++t) {
      const auto s = static_cast<std::size_t>(t);
      dot += w[data.rows.col_idx[s]] * data.rows.values[s];
    }
    const int label = static_cast<int>(data.file.labels[r]);
    const double y = label == positive ? 1.0 : -1.0;
    const auto it = cost.find(label);
    const double c = it == cost.end() ? C : it->second;
    const double slack = std::max(0.0, 1 - y * dot);
    f += c * slack * slack;
  }
  return f;
}

TEST(ClassWeights, BinaryModelMinimizesTheWeightedObjective) {
  const test::Data& data = load("heart_scale");
  const CscMatrix& x = data.file.features;
  const double C = 0.5;
  Params plain = resolved(SolverKind::kTron, 0, 1e-10);
  plain.C = C;
  Params weighted = plain;
  weighted.class_weights = {{1, 2.0}};  // -w1 2
  CountingReporter quiet;
  const LinearModel unweighted_model = train(x, data.classes, plain, quiet);
  const LinearModel model = train(x, data.classes, weighted, quiet);
  ASSERT_EQ(model.labels, (std::vector<int>{1, -1}));

  const Problem weighted_problem = one_vs_rest(x, data.classes, 0, 2 * C, C, &data.rows);
  const Problem plain_problem = one_vs_rest(x, data.classes, 0, C, C, &data.rows);
  const Evaluation at_model = evaluate(weighted_problem, LossKind::kL2Svm, model.w);
  const double dense = dense_l2svm_objective(data, model.w, 1, {{1, 2 * C}}, C);
  EXPECT_NEAR(at_model.objective, dense, 1e-12 * dense);
  // The model is the weighted problem's optimum: its gradient vanishes there.
  const double g0 =
      evaluate(weighted_problem, LossKind::kL2Svm, std::vector<double>(x.num_cols, 0.0))
          .gradient_norm;
  EXPECT_LE(at_model.gradient_norm, 1e-8 * g0);
  // ... and not the unweighted one's, which is worse for the weighted objective.
  EXPECT_GT(evaluate(plain_problem, LossKind::kL2Svm, model.w).gradient_norm, 1e-3 * g0);
  const double unweighted_f =
      evaluate(weighted_problem, LossKind::kL2Svm, unweighted_model.w).objective;
  EXPECT_NEAR(unweighted_f, dense_l2svm_objective(data, unweighted_model.w, 1, {{1, 2 * C}}, C),
              1e-12 * unweighted_f);
  EXPECT_GT(unweighted_f, at_model.objective * (1 + 1e-6));
  EXPECT_NE(model.w, unweighted_model.w);
}

TEST(ClassWeights, TrainEqualsTrainBinaryOnTheWeightedProblem) {
  const test::Data& data = load("heart_scale");
  const CscMatrix& x = data.file.features;
  struct Case {
    std::map<int, double> weights;
    double c_pos;  // relative to C
    double c_neg;
  };
  for (SolverKind solver : {SolverKind::kCd, SolverKind::kTron}) {
    for (const Case& c : {Case{{{1, 2.0}}, 2.0, 1.0}, Case{{{-1, 0.5}}, 1.0, 0.5},
                          Case{{{1, 2.0}, {-1, 0.5}}, 2.0, 0.5},
                          Case{{{7, 3.0}}, 1.0, 1.0}}) {  // a label the data lacks: no effect
      Params params = resolved(solver);
      params.C = 1.5;
      params.class_weights = c.weights;
      CountingReporter quiet;
      const LinearModel model = train(x, data.classes, params, quiet);
      const Problem problem =
          one_vs_rest(x, data.classes, 0, c.c_pos * params.C, c.c_neg * params.C, &data.rows);
      const SolveResult direct = train_binary(problem, params, params.seed, quiet);
      EXPECT_EQ(model.w, direct.w)
          << solver_info(solver).name << " c_pos " << c.c_pos << " c_neg " << c.c_neg;
    }
  }
}

TEST(ClassWeights, MultiClassProblemKGetsItsWeightAgainstCForTheRest) {
  const test::Data& data = load("dna.scale");
  const CscMatrix& x = data.file.features;
  Params params = resolved(SolverKind::kTron);
  params.C = 0.25;
  params.class_weights = {{1, 2.0}, {2, 0.5}};  // class 3 keeps weight 1
  CountingReporter quiet;
  const LinearModel model = train(x, data.classes, params, quiet);
  ASSERT_EQ(model.nr_w(), 3u);
  const std::map<int, double> weight = {{1, 2.0}, {2, 0.5}, {3, 1.0}};
  for (std::size_t k = 0; k < 3; ++k) {
    const int label = data.classes.labels[k];
    const Problem problem =
        one_vs_rest(x, data.classes, k, params.C * weight.at(label), params.C, &data.rows);
    const SolveResult direct = train_binary(problem, params, params.seed, quiet);
    std::vector<double> column;
    for (std::size_t i = 0; i < x.num_cols; ++i) column.push_back(model.w[i * 3 + k]);
    EXPECT_EQ(column, direct.w) << "class " << label;
    // And the objective of that problem at the column, by evaluate and densely.
    const double f = evaluate(problem, LossKind::kL2Svm, column).objective;
    EXPECT_NEAR(f,
                dense_l2svm_objective(data, column, label, {{label, params.C * weight.at(label)}},
                                      params.C),
                1e-12 * f)
        << "class " << label;
  }
}

}  // namespace
}  // namespace cdl
