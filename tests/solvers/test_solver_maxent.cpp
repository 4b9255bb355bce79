// dcd-maxent, multinomial logistic regression by dual CD: the primal, its
// gradient and the dual computed here from the data and the model (not by
// the solver's code), against scikit-learn's optimum
// (tests/fixtures/dna_softmax_sklearn.py made the fixture), -W and -wi as
// their C_i say, two classes against binary logistic regression, softmax
// probabilities and a save/load round trip.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "model/model.h"
#include "solver_test_util.h"
#include "solvers/solver.h"
#include "train/train.h"

namespace cdl {
namespace {

Params maxent_params(double eps, double C = 1.0) {
  Params params;
  params.solver = SolverKind("dcd-maxent");
  params.loss = LossKind::kSoftmax;
  params.eps = eps;
  params.C = C;
  return resolve_defaults(params);
}

// Row i's class as an index into the model's labels.
std::size_t class_slot(const LinearModel& model, const test::Data& data, std::size_t i) {
  const int label = data.classes.labels[data.classes.class_of[i]];
  return static_cast<std::size_t>(std::find(model.labels.begin(), model.labels.end(), label) -
                                  model.labels.begin());
}

// The softmax of row i's scores W'x_i (in the model's label order).
std::vector<double> row_probabilities(const LinearModel& model, const CsrMatrix& x, std::size_t i) {
  const std::size_t k = model.nr_w();
  std::vector<double> p(k, 0.0);
  for (auto t = x.row_ptr[i]; t < x.row_ptr[i + 1]; ++t) {
    const auto s = static_cast<std::size_t>(t);
    if (x.col_idx[s] >= model.num_features) continue;
    for (std::size_t m = 0; m < k; ++m) p[m] += model.w[x.col_idx[s] * k + m] * x.values[s];
  }
  const double largest = *std::max_element(p.begin(), p.end());
  double sum = 0;
  for (double& v : p) sum += v = std::exp(v - largest);
  for (double& v : p) v /= sum;
  return p;
}

struct PrimalAndGradient {
  double f;
  double gradient_norm;
};

// f(W) = 1/2 ||W||^2 + sum_i C_i (-log p_i(y_i)) and the norm of its
// gradient W + sum_i C_i (p_i - e_{y_i}) x_i', with C_i = C cost[i] (cost
// null: all 1).
PrimalAndGradient primal(const LinearModel& model, const test::Data& data, double C,
                         const std::vector<double>* cost = nullptr) {
  const std::size_t k = model.nr_w();
  std::vector<double> g = model.w;
  double f = 0;
  for (double v : model.w) f += 0.5 * v * v;
  const CsrMatrix& x = data.rows;
  for (std::size_t i = 0; i < x.num_rows; ++i) {
    const double c = C * (cost != nullptr ? (*cost)[i] : 1.0);
    std::vector<double> p = row_probabilities(model, x, i);
    const std::size_t y = class_slot(model, data, i);
    f -= c * std::log(p[y]);
    p[y] -= 1.0;
    for (auto t = x.row_ptr[i]; t < x.row_ptr[i + 1]; ++t) {
      const auto s = static_cast<std::size_t>(t);
      for (std::size_t m = 0; m < k; ++m) g[x.col_idx[s] * k + m] += c * p[m] * x.values[s];
    }
  }
  double norm = 0;
  for (double v : g) norm += v * v;
  return {f, std::sqrt(norm)};
}

// ||W_a - W_b||, b's classes taken in a's label order. f is 1-strongly
// convex (its 1/2 ||W||^2), so ||W - W*|| <= ||grad f(W)||: two models are
// within the sum of their gradients' norms.
double distance(const LinearModel& a, const LinearModel& b) {
  const std::size_t k = a.nr_w();
  double sum = 0;
  for (std::size_t m = 0; m < k; ++m) {
    const auto slot = static_cast<std::size_t>(
        std::find(b.labels.begin(), b.labels.end(), a.labels[m]) - b.labels.begin());
    for (std::size_t j = 0; j < a.num_features; ++j) {
      const double d = a.w[j * k + m] - b.w[j * k + slot];
      sum += d * d;
    }
  }
  return std::sqrt(sum);
}

// Keeps the last iteration's report and a copy of its dual point.
class LastReport : public Reporter {
 public:
  LastReport() : Reporter(sink_, Level::kQuiet) {}
  void iteration(const IterationInfo& info) override {
    last = info;
    alpha = info.alpha != nullptr ? *info.alpha : std::vector<double>{};
    ++count;
  }
  bool observes_iterations() const override { return true; }
  IterationInfo last{};
  std::vector<double> alpha;
  int count = 0;

 private:
  std::ostringstream sink_;
};

LinearModel train_maxent(const test::Data& data, const Params& params, Reporter& reporter,
                         const std::vector<double>* weights = nullptr) {
  return train(DataMatrix{&data.file.features, &data.rows, weights}, data.classes, params,
               reporter);
}

// At a tight eps the gradient of the primal at the returned W is near zero
// relative to its value at W = 0, and the reported primal, dual and gap are
// f(W), -D(alpha) and their difference, D computed here from alpha, whose W
// is the model's.
TEST(Maxent, GradientVanishesAndGapIsPrimalMinusDual) {
  for (const char* name : {"dna.scale", "heart_scale"}) {
    SCOPED_TRACE(name);
    const test::Data& data = test::load(name);
    const double C = 0.5;
    LastReport log;
    const LinearModel model = train_maxent(data, maxent_params(1e-9, C), log);
    ASSERT_EQ(model.solver_type, "L2R_MAXENT_DUAL");
    const std::size_t k = data.classes.labels.size();
    ASSERT_EQ(model.nr_w(), k);  // also for two classes
    LinearModel zero = model;
    std::fill(zero.w.begin(), zero.w.end(), 0.0);
    const PrimalAndGradient at_zero = primal(zero, data, C);
    const PrimalAndGradient at_w = primal(model, data, C);
    EXPECT_LT(at_w.gradient_norm, 1e-4 * at_zero.gradient_norm);
    EXPECT_LT(at_w.f, at_zero.f);

    // The dual point, row i's M values in label order: W = w(alpha), and
    // -D(alpha) = -1/2 ||W||^2 - sum alpha log(alpha / C_i).
    ASSERT_EQ(log.alpha.size(), data.rows.num_rows * k);
    std::vector<double> w(model.w.size(), 0.0);
    double entropy = 0;
    const CsrMatrix& x = data.rows;
    for (std::size_t i = 0; i < x.num_rows; ++i) {
      const std::size_t y = data.classes.class_of[i];
      double sum = 0;
      for (std::size_t m = 0; m < k; ++m) {
        const double a = log.alpha[i * k + m];
        EXPECT_GT(a, 0.0);
        sum += a;
        entropy += a * std::log(a / C);
        for (auto t = x.row_ptr[i]; t < x.row_ptr[i + 1]; ++t) {
          const auto s = static_cast<std::size_t>(t);
          w[x.col_idx[s] * k + m] += ((m == y ? C : 0.0) - a) * x.values[s];
        }
      }
      EXPECT_NEAR(sum, C, 1e-12);
    }
    double half_norm = 0;
    for (std::size_t j = 0; j < w.size(); ++j) {
      EXPECT_NEAR(w[j], model.w[j], 1e-9 * (1 + std::fabs(w[j])));
      half_norm += 0.5 * model.w[j] * model.w[j];
    }
    const double dual = -half_norm - entropy;
    EXPECT_NEAR(log.last.primal, at_w.f, 1e-10 * at_w.f);
    EXPECT_NEAR(log.last.objective, at_w.f, 1e-10 * at_w.f);
    EXPECT_NEAR(log.last.dual, dual, 1e-10 * at_w.f);
    EXPECT_NEAR(log.last.gap, at_w.f - dual, 1e-10 * at_w.f);
    EXPECT_GE(at_w.f - dual, -1e-12 * at_w.f);  // weak duality
    EXPECT_LE(log.last.gap, 1e-9 * at_w.f);     // the stopping rule
  }
}

// scikit-learn 1.2.1's LogisticRegression(multi_class='multinomial',
// solver='lbfgs', tol=1e-10, C=1, fit_intercept=False) on dna.scale printed
// objective 168.43072273844209. Ours at eps 1e-8 is within 1e-6 of it, and
// at the default eps (1e-4) within 1e-4 of it, which the gap guarantees;
// their probabilities on dna.scale.t agree.
TEST(Maxent, MatchesScikitLearnOptimum) {
  const test::Data& data = test::load("dna.scale");
  const LinearModel theirs = load_model(test::fixture_path("dna_softmax.sklearn.model"));
  const PrimalAndGradient at_theirs = primal(theirs, data, 1.0);
  const double f_theirs = at_theirs.f;
  EXPECT_NEAR(f_theirs, 168.43072273844209, 1e-12 * f_theirs);

  LastReport tight_log;
  const LinearModel ours = train_maxent(data, maxent_params(1e-8), tight_log);
  const PrimalAndGradient at_ours = primal(ours, data, 1.0);
  EXPECT_NEAR(at_ours.f, f_theirs, 1e-6 * f_theirs);
  EXPECT_LE(distance(ours, theirs), at_ours.gradient_norm + at_theirs.gradient_norm);

  LastReport default_log;
  const LinearModel loose = train_maxent(data, maxent_params(1e-4), default_log);
  EXPECT_NEAR(primal(loose, data, 1.0).f, f_theirs, 1e-4 * f_theirs);
  EXPECT_LT(default_log.count, tight_log.count);

  const test::Data& test_set = test::load("dna.scale.t");
  double largest = 0;
  std::vector<double> mine, other, decision;
  for (std::size_t i = 0; i < test_set.rows.num_rows; ++i) {
    const CsrMatrix& x = test_set.rows;
    const auto begin = static_cast<std::size_t>(x.row_ptr[i]);
    const auto count = static_cast<std::size_t>(x.row_ptr[i + 1]) - begin;
    ours.decision_values(&x.col_idx[begin], &x.values[begin], count, decision);
    ours.probabilities(decision, mine);
    theirs.decision_values(&x.col_idx[begin], &x.values[begin], count, decision);
    theirs.probabilities(decision, other);
    for (std::size_t m = 0; m < mine.size(); ++m) {
      const auto slot = static_cast<std::size_t>(
          std::find(theirs.labels.begin(), theirs.labels.end(), ours.labels[m]) -
          theirs.labels.begin());
      largest = std::max(largest, std::fabs(mine[m] - other[slot]));
    }
  }
  // Both optima are inexact (scikit-learn's f is 3e-9 above ours): their
  // W differ by about 1e-4.
  EXPECT_LT(largest, 1e-3);
}

// -b 1: the softmax of the decision values, rows summing to one, for two
// classes too; and the model survives save and load with the same
// predictions.
TEST(Maxent, SoftmaxProbabilitiesAndRoundTrip) {
  test::ScratchDir dir;
  for (const char* name : {"dna.scale", "heart_scale"}) {
    SCOPED_TRACE(name);
    const test::Data& data = test::load(name);
    LastReport log;
    const LinearModel model = train_maxent(data, maxent_params(1e-4), log);
    ASSERT_TRUE(model.has_probabilities());
    const std::string path = dir.file(std::string(name) + ".model");
    save_model(model, path);
    const LinearModel loaded = load_model(path);
    EXPECT_EQ(loaded.solver_type, "L2R_MAXENT_DUAL");
    EXPECT_EQ(loaded.w, model.w);
    EXPECT_EQ(loaded.labels, model.labels);
    EXPECT_EQ(loaded.nr_w(), model.nr_w());
    EXPECT_EQ(loaded.predict(data.rows), model.predict(data.rows));
    std::vector<double> decision, p;
    const CsrMatrix& x = data.rows;
    for (std::size_t i = 0; i < x.num_rows; ++i) {
      const auto begin = static_cast<std::size_t>(x.row_ptr[i]);
      const auto count = static_cast<std::size_t>(x.row_ptr[i + 1]) - begin;
      loaded.decision_values(&x.col_idx[begin], &x.values[begin], count, decision);
      loaded.probabilities(decision, p);
      const std::vector<double> expected = row_probabilities(model, x, i);
      ASSERT_EQ(p.size(), expected.size());
      double sum = 0;
      for (std::size_t m = 0; m < p.size(); ++m) {
        EXPECT_NEAR(p[m], expected[m], 1e-12);
        sum += p[m];
      }
      EXPECT_NEAR(sum, 1.0, 1e-12);
    }
  }
}

// Two classes: with 1/2 (||w_1||^2 + ||w_2||^2), the optimum has w_2 = -w_1
// and v = w_1 - w_2 is binary logistic regression's optimum at C' = 2 C.
TEST(Maxent, TwoClassesAreBinaryLogisticRegressionAtTwiceC) {
  const test::Data& data = test::load("heart_scale");
  LastReport log;
  const LinearModel model = train_maxent(data, maxent_params(1e-10), log);
  Params lr;
  lr.solver = SolverKind::kTron;
  lr.loss = LossKind::kLogistic;
  lr.C = 2.0;
  lr.eps = 1e-10;
  lr = resolve_defaults(lr);
  test::RecordingReporter lr_log;
  const LinearModel binary = train(data.file.features, data.classes, lr, lr_log);
  ASSERT_EQ(binary.labels, model.labels);
  ASSERT_EQ(binary.nr_w(), 1u);
  // ||W - W*|| <= ||grad f(W)||, so ||v - v*|| <= sqrt(2) ||grad f(W)||,
  // and the sum w_1 + w_2 (0 at the optimum) within the same.
  const double bound = std::sqrt(2.0) * primal(model, data, 1.0).gradient_norm + 1e-8;
  double sum = 0, difference = 0;
  for (std::size_t j = 0; j < binary.w.size(); ++j) {
    const double plus = model.w[2 * j] + model.w[2 * j + 1];
    const double minus = model.w[2 * j] - model.w[2 * j + 1] - binary.w[j];
    sum += plus * plus;
    difference += minus * minus;
  }
  EXPECT_LT(bound, 1e-3);
  EXPECT_LE(std::sqrt(sum), bound);
  EXPECT_LE(std::sqrt(difference), bound);
}

// -W: a row of weight 2 is the row twice (the same optimum); -wi: a class
// weight is every row of the class weighted so, bit for bit (the same C_i).
TEST(Maxent, WeightsActAsTheirCosts) {
  const test::Data& data = test::load("dna.scale");
  std::vector<double> weights(data.rows.num_rows, 1.0);
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < data.rows.num_rows; ++i) order.push_back(i);
  for (std::size_t i = 0; i < data.rows.num_rows; i += 3) {
    weights[i] = 2.0;
    order.push_back(i);
  }
  test::Data copy;
  copy.rows = test::pick_rows(data.rows, order);
  copy.file.features = to_csc(copy.rows);
  for (std::size_t i : order) copy.file.labels.push_back(data.file.labels[i]);
  copy.classes = map_classes(copy.file.labels);
  ASSERT_EQ(copy.classes.labels, data.classes.labels);

  const Params params = maxent_params(1e-9, 0.5);
  LastReport a, b;
  const LinearModel weighted = train_maxent(data, params, a, &weights);
  const LinearModel repeated = train_maxent(copy, params, b);
  const PrimalAndGradient at_repeated = primal(repeated, copy, 0.5);
  const PrimalAndGradient at_weighted = primal(weighted, data, 0.5, &weights);
  // The weighted primal is the copy's, at any W.
  EXPECT_NEAR(primal(repeated, data, 0.5, &weights).f, at_repeated.f, 1e-12 * at_repeated.f);
  EXPECT_NEAR(at_weighted.f, at_repeated.f, 1e-8 * at_repeated.f);
  EXPECT_LE(distance(weighted, repeated), at_weighted.gradient_norm + at_repeated.gradient_norm);

  // -wi 3 for the first class is -W 3 on its rows.
  Params by_class = maxent_params(1e-4, 0.5);
  const int label = data.classes.labels[0];
  by_class.class_weights[label] = 3.0;
  std::vector<double> class_rows(data.rows.num_rows, 1.0);
  for (std::size_t i = 0; i < class_rows.size(); ++i) {
    if (data.classes.class_of[i] == 0) class_rows[i] = 3.0;
  }
  LastReport c, d;
  const LinearModel by_wi = train_maxent(data, by_class, c);
  const LinearModel by_w = train_maxent(data, maxent_params(1e-4, 0.5), d, &class_rows);
  EXPECT_EQ(by_wi.w, by_w.w);
  EXPECT_NE(by_wi.w, train_maxent(data, maxent_params(1e-4, 0.5), d).w);
}

// Rows held out (cross-validation's) take no part: holding out every row
// gives W = 0; the same seed gives the same model.
TEST(Maxent, HeldOutRowsLeftOutAndSameSeedSameModel) {
  const test::Data& data = test::load("dna.scale");
  LastReport a, b, c;
  const Params params = maxent_params(1e-3);
  EXPECT_EQ(train_maxent(data, params, a).w, train_maxent(data, params, b).w);
  const std::vector<std::uint8_t> all(data.rows.num_rows, 1);
  const LinearModel none =
      train(data.file.features, data.classes, params, c, nullptr, &all, &data.rows);
  for (double v : none.w) EXPECT_EQ(v, 0.0);
}

}  // namespace
}  // namespace cdl
