// cs, Crammer and Singer's multi-class SVM (LIBLINEAR's -s 4): the primal
// of the CS problem, computed here from a model's weights, at our model
// against LIBLINEAR 2.50's optimum (tests/fixtures/README.md has the
// commands), the duality gap, test accuracy, and the same model for the
// same seed. The sub-problem's solver is private to solver_cs.cpp; the gap
// closing at a tight eps (MatchesLiblinear250Optimum) is what shows that it
// solves the sub-problems.
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

Params cs_params(double eps) {
  Params params;
  params.solver = SolverKind("cs");
  params.loss = LossKind::kMultiHinge;
  params.eps = eps;
  return resolve_defaults(params);
}

// The primal of solver_cs.cpp's header at the model's weights (nr_w per
// feature, in the model's label order), with C_i = C:
// 1/2 sum_m ||w_m||^2 + C sum_i (max_m (w_m'x_i + [m != y_i]) - w_{y_i}'x_i).
double primal(const LinearModel& model, const test::Data& data, double C) {
  const std::size_t k = model.nr_w();
  double value = 0;
  for (double v : model.w) value += 0.5 * v * v;
  std::vector<double> scores;
  const CsrMatrix& x = data.rows;
  for (std::size_t i = 0; i < x.num_rows; ++i) {
    scores.assign(k, 0.0);
    for (auto t = x.row_ptr[i]; t < x.row_ptr[i + 1]; ++t) {
      const auto s = static_cast<std::size_t>(t);
      if (x.col_idx[s] >= model.num_features) continue;
      for (std::size_t m = 0; m < k; ++m) scores[m] += model.w[x.col_idx[s] * k + m] * x.values[s];
    }
    const int label = data.classes.labels[data.classes.class_of[i]];
    const auto y = static_cast<std::size_t>(
        std::find(model.labels.begin(), model.labels.end(), label) - model.labels.begin());
    double largest = scores[y];
    for (std::size_t m = 0; m < k; ++m) {
      if (m != y) largest = std::max(largest, scores[m] + 1.0);
    }
    value += C * (largest - scores[y]);
  }
  return value;
}

LinearModel train_cs(const test::Data& data, double eps, test::RecordingReporter& reporter) {
  return train(data.file.features, data.classes, cs_params(eps), reporter, nullptr, nullptr,
               &data.rows);
}

double accuracy(const LinearModel& model, const std::string& test_set) {
  const LabeledCsc test = read_libsvm_csc(test::data_path(test_set));
  const std::vector<int> predicted = model.predict(test.features);
  std::size_t correct = 0;
  for (std::size_t r = 0; r < predicted.size(); ++r) {
    correct += predicted[r] == static_cast<int>(test.labels[r]);
  }
  return 100.0 * static_cast<double>(correct) / static_cast<double>(predicted.size());
}

struct Case {
  const char* data;
  const char* fixture;
  double printed_dual;  // LIBLINEAR 2.50's "Objective value = ...", its D
};

const Case kCases[] = {
    {"dna.scale", "dna_s4_opt.liblinear250.model", -50.669598},
    // Two classes: one model of two weight vectors all the same.
    {"heart_scale", "heart_scale_s4_opt.liblinear250.model", -95.713661},
};

// At the default eps (0.1) the dual D is within 1% of LIBLINEAR 2.50's
// optimum (the primal need not be: 7% above it on dna.scale); at eps 0.01
// the primal at our model is within 1% of the primal at LIBLINEAR's
// optimum, and at a tight eps within 1e-5 of it and equal to -D (the
// duality gap closes).
TEST(CrammerSinger, MatchesLiblinear250Optimum) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.data);
    const test::Data& data = test::load(c.data);
    const LinearModel theirs = load_model(test::fixture_path(c.fixture));
    ASSERT_EQ(theirs.solver_type, "MCSVM_CS");
    const double p_theirs = primal(theirs, data, 1.0);
    EXPECT_NEAR(p_theirs, -c.printed_dual, 1e-4 * p_theirs);

    test::RecordingReporter loose_log;
    const LinearModel loose = train_cs(data, 0.1, loose_log);
    EXPECT_EQ(loose.solver_type, "MCSVM_CS");
    EXPECT_EQ(loose.nr_w(), data.classes.labels.size());
    ASSERT_FALSE(loose_log.iterations.empty());
    EXPECT_NEAR(-loose_log.iterations.back().objective, p_theirs, 0.01 * p_theirs);

    test::RecordingReporter closer_log;
    EXPECT_NEAR(primal(train_cs(data, 0.01, closer_log), data, 1.0), p_theirs, 0.01 * p_theirs);

    test::RecordingReporter tight_log;
    const LinearModel tight = train_cs(data, 1e-6, tight_log);
    const double p = primal(tight, data, 1.0);
    EXPECT_NEAR(p, p_theirs, 1e-5 * p_theirs);
    ASSERT_FALSE(tight_log.iterations.empty());
    EXPECT_NEAR(p, -tight_log.iterations.back().objective, 1e-6 * p);
    EXPECT_LT(tight_log.iterations.back().grad_norm, 1e-6);
  }
}

// Test accuracy on dna.scale.t within half a point of LIBLINEAR 2.50's
// model's (92.6644%: `predict data/dna.scale.t MODEL OUT` on the fixture).
TEST(CrammerSinger, TestAccuracyAsLiblinear250s) {
  const test::Data& data = test::load("dna.scale");
  test::RecordingReporter log;
  const LinearModel ours = train_cs(data, 0.1, log);
  const LinearModel theirs = load_model(test::fixture_path("dna_s4_opt.liblinear250.model"));
  EXPECT_NEAR(accuracy(theirs, "dna.scale.t"), 92.6644, 1e-4);
  EXPECT_NEAR(accuracy(ours, "dna.scale.t"), accuracy(theirs, "dna.scale.t"), 0.5);
}

// The same seed gives the same model, and rows held out take no part.
TEST(CrammerSinger, SameSeedSameModelAndHeldOutRowsLeftOut) {
  const test::Data& data = test::load("dna.scale");
  test::RecordingReporter a, b;
  EXPECT_EQ(train_cs(data, 0.1, a).w, train_cs(data, 0.1, b).w);
  // Holding out every row gives w = 0.
  const std::vector<std::uint8_t> all(data.rows.num_rows, 1);
  test::RecordingReporter c;
  const LinearModel none =
      train(data.file.features, data.classes, cs_params(0.1), c, nullptr, &all, &data.rows);
  for (double v : none.w) EXPECT_EQ(v, 0.0);
}

}  // namespace
}  // namespace cdl
