// Numerical robustness of the solvers: unscaled data (feature values from
// 1e-3 to 1e6), features without nonzeros, duplicate instances and a single
// instance, extreme C, the bias feature (-B 0, 1, 100), and reproducibility of
// the model text across reader threads and seeds. Each trained model is
// checked for NaN and Inf and compared with TRON or a closed form; f(w) and
// grad f(w) are recomputed here in long double from the matrix, independently
// of the solvers and of evaluate().
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "data/libsvm_reader.h"
#include "data/problem.h"
#include "data/sparse_matrix.h"
#include "model/model.h"
#include "objective/objective.h"
#include "solver_test_util.h"
#include "solvers/params.h"
#include "solvers/report.h"
#include "solvers/solve_result.h"
#include "test_util.h"
#include "train/train.h"

namespace cdl {
namespace {

using Real = long double;

// ---- data ----

// A binary data set that owns its matrix (both layouts) and labels.
struct Set {
  CscMatrix x;
  CsrMatrix rows;
  std::vector<double> y;  // each -1 or +1
};

Set make_set(CscMatrix x, std::vector<double> y) {
  Set s;
  s.rows = to_csr(x);
  s.x = std::move(x);
  s.y = std::move(y);
  return s;
}

Problem problem_of(const Set& s, double cost) { return Problem{s.x, &s.rows, s.y, cost, cost}; }

// heart_scale with its first class positive.
Set heart_scale() {
  const test::Data& data = test::load("heart_scale");
  std::vector<double> y;
  for (std::size_t c : data.classes.class_of) y.push_back(c == 0 ? 1.0 : -1.0);
  return make_set(data.file.features, y);
}

// A uniform double in [0, 1) from the top 53 bits, the same on every library.
double uniform(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1p-53; }

// l instances whose feature i is scale[i] times a uniform value in (-1, 1),
// present with probability 0.7; the label is the sign of a fixed hyperplane
// in the unscaled values plus noise, so that every feature carries signal.
Set synthetic(std::size_t l, const std::vector<double>& scale, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::size_t n = scale.size();
  std::vector<double> direction(n);
  for (double& d : direction) d = 2 * uniform(rng) - 1;
  std::vector<double> dense(l * n, 0.0);
  std::vector<double> y(l);
  for (std::size_t j = 0; j < l; ++j) {
    double score = 0.3 * (2 * uniform(rng) - 1);
    for (std::size_t i = 0; i < n; ++i) {
      if (uniform(rng) >= 0.7) continue;
      const double u = 2 * uniform(rng) - 1;
      dense[j * n + i] = scale[i] * u;
      score += direction[i] * u;
    }
    y[j] = score > 0 ? 1.0 : -1.0;
  }
  return make_set(to_csc(test::csr_from_dense(l, n, dense)), y);
}

// `x` with column i multiplied by factor[i].
CscMatrix scale_columns(CscMatrix x, const std::vector<double>& factor) {
  for (std::size_t i = 0; i < x.num_cols; ++i) {
    for (auto k = x.col_ptr[i]; k < x.col_ptr[i + 1]; ++k) {
      x.values[static_cast<std::size_t>(k)] *= factor[i];
    }
  }
  return x;
}

// `x` with an empty column (no stored entry) at each position of `empty` in
// the result, the columns of `x` filling the others in order.
CscMatrix with_empty_columns(const CscMatrix& x, const std::vector<std::size_t>& empty) {
  CscMatrix out;
  out.num_rows = x.num_rows;
  out.num_cols = x.num_cols + empty.size();
  std::size_t source = 0;
  for (std::size_t i = 0; i < out.num_cols; ++i) {
    if (std::find(empty.begin(), empty.end(), i) == empty.end()) {
      for (auto k = x.col_ptr[source]; k < x.col_ptr[source + 1]; ++k) {
        out.row_idx.push_back(x.row_idx[static_cast<std::size_t>(k)]);
        out.values.push_back(x.values[static_cast<std::size_t>(k)]);
      }
      ++source;
    }
    out.col_ptr.push_back(static_cast<std::int64_t>(out.values.size()));
  }
  return out;
}

// The weights of `w` outside the positions `skip`.
std::vector<double> without(const std::vector<double>& w, const std::vector<std::size_t>& skip) {
  std::vector<double> out;
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (std::find(skip.begin(), skip.end(), i) == skip.end()) out.push_back(w[i]);
  }
  return out;
}

// Each instance of `s` twice in a row: 0, 0, 1, 1, ...
Set doubled_instances(const Set& s) {
  CsrMatrix rows;
  rows.num_rows = 2 * s.rows.num_rows;
  rows.num_cols = s.rows.num_cols;
  std::vector<double> y;
  for (std::size_t j = 0; j < s.rows.num_rows; ++j) {
    for (int copy = 0; copy < 2; ++copy) {
      for (auto k = s.rows.row_ptr[j]; k < s.rows.row_ptr[j + 1]; ++k) {
        rows.col_idx.push_back(s.rows.col_idx[static_cast<std::size_t>(k)]);
        rows.values.push_back(s.rows.values[static_cast<std::size_t>(k)]);
      }
      rows.row_ptr.push_back(static_cast<std::int64_t>(rows.values.size()));
      y.push_back(s.y[j]);
    }
  }
  return make_set(to_csc(rows), y);
}

// ---- f and grad f, recomputed here ----

Real loss_value(LossKind loss, Real m) {
  switch (loss) {
    case LossKind::kL2Svm: {
      const Real b = std::max<Real>(0, 1 - m);
      return b * b;
    }
    case LossKind::kL1Svm:
      return std::max<Real>(0, 1 - m);
    case LossKind::kLogistic:
      return m >= 0 ? std::log1p(std::exp(-m)) : -m + std::log1p(std::exp(m));
    default:  // the other losses, of no margin or vector form here
      break;
  }
  return 0;
}

// d loss / dm; for l1svm the subgradient -1 for m < 1, else 0.
Real loss_slope(LossKind loss, Real m) {
  switch (loss) {
    case LossKind::kL2Svm:
      return -2 * std::max<Real>(0, 1 - m);
    case LossKind::kL1Svm:
      return m < 1 ? -1 : 0;
    case LossKind::kLogistic:
      return m >= 0 ? -std::exp(-m) / (1 + std::exp(-m)) : -1 / (1 + std::exp(m));
    default:  // the other losses, of no margin or vector form here
      break;
  }
  return 0;
}

// y_j w'x_j for every instance, by scattering the columns.
std::vector<Real> margins(const CscMatrix& x, const std::vector<double>& y,
                          const std::vector<double>& w) {
  std::vector<Real> m(x.num_rows, 0);
  for (std::size_t i = 0; i < x.num_cols; ++i) {
    for (auto k = x.col_ptr[i]; k < x.col_ptr[i + 1]; ++k) {
      const auto t = static_cast<std::size_t>(k);
      m[x.row_idx[t]] += static_cast<Real>(w[i]) * x.values[t];
    }
  }
  for (std::size_t j = 0; j < m.size(); ++j) m[j] *= y[j];
  return m;
}

// f(w) = 1/2 w'w + C sum_j loss(y_j w'x_j).
double objective(const Set& s, double cost, LossKind loss, const std::vector<double>& w) {
  Real f = 0;
  for (double wi : w) f += static_cast<Real>(wi) * wi / 2;
  for (Real m : margins(s.x, s.y, w)) f += cost * loss_value(loss, m);
  return static_cast<double>(f);
}

// ||grad f(w)||.
double gradient_norm(const Set& s, double cost, LossKind loss, const std::vector<double>& w) {
  const std::vector<Real> m = margins(s.x, s.y, w);
  double sum = 0;
  for (std::size_t i = 0; i < s.x.num_cols; ++i) {
    Real g = w[i];
    for (auto k = s.x.col_ptr[i]; k < s.x.col_ptr[i + 1]; ++k) {
      const auto t = static_cast<std::size_t>(k);
      const std::size_t j = s.x.row_idx[t];
      g += cost * loss_slope(loss, m[j]) * s.y[j] * s.x.values[t];
    }
    sum += static_cast<double>(g * g);
  }
  return std::sqrt(sum);
}

bool all_finite(const std::vector<double>& w) {
  return std::all_of(w.begin(), w.end(), [](double v) { return std::isfinite(v); });
}

double norm(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x * x;
  return std::sqrt(sum);
}

double distance(const std::vector<double>& a, const std::vector<double>& b) {
  double sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i) sum += (a[i] - b[i]) * (a[i] - b[i]);
  return std::sqrt(sum);
}

// ---- training ----

// Keeps the warnings and prints nothing.
class WarningReporter : public Reporter {
 public:
  WarningReporter() : Reporter(sink_, Level::kQuiet) {}
  void warning(const std::string& message) override { warnings.push_back(message); }
  bool observes_iterations() const override { return true; }
  std::vector<std::string> warnings;

 private:
  std::ostringstream sink_;
};

struct Pair {
  SolverKind solver;
  LossKind loss;
};

// Every coordinate-descent solver with each of its losses.
const Pair kCdPairs[] = {
    {SolverKind::kCd, LossKind::kL2Svm},       {SolverKind::kCd, LossKind::kLogistic},
    {SolverKind::kCdPer, LossKind::kL2Svm},    {SolverKind::kCdPer, LossKind::kLogistic},
    {SolverKind::kCdPerOne, LossKind::kL2Svm}, {SolverKind::kCdPerOne, LossKind::kLogistic},
    {SolverKind::kOnlineCd, LossKind::kL2Svm}, {SolverKind::kOnlineCd, LossKind::kLogistic},
    {SolverKind::kCmls, LossKind::kL2Svm},     {SolverKind::kCmlsPer, LossKind::kL2Svm},
};

std::string describe(SolverKind solver, LossKind loss) {
  return std::string(solver_info(solver).name) + " " + loss_info(loss).name;
}

Params make_params(SolverKind solver, LossKind loss, double cost, std::optional<double> eps,
                   std::optional<std::int64_t> max_iter) {
  Params params;
  params.solver = solver;
  params.loss = loss;
  params.C = cost;
  params.eps = eps;
  params.max_iter = max_iter;
  params = resolve_defaults(params);
  validate(params);
  return params;
}

SolveResult solve(const Set& s, const Params& params, std::uint64_t seed, Reporter& reporter) {
  return train_binary(problem_of(s, params.C), params, seed, reporter);
}

SolveResult solve(const Set& s, SolverKind solver, LossKind loss, double cost,
                  std::optional<double> eps, std::optional<std::int64_t> max_iter,
                  std::uint64_t seed = 1) {
  WarningReporter reporter;
  return solve(s, make_params(solver, loss, cost, eps, max_iter), seed, reporter);
}

// TRON at a tolerance near machine precision: the reference optimum.
SolveResult reference(const Set& s, LossKind loss, double cost) {
  const SolveResult tron = solve(s, SolverKind::kTron, loss, cost, 1e-12, 1000);
  EXPECT_TRUE(tron.status == Status::kConverged || tron.status == Status::kPrecisionLimit)
      << status_name(tron.status);
  EXPECT_TRUE(all_finite(tron.w));
  return tron;
}

// ---- 1. unscaled data ----

// Every CD-family solver at a tight eps and TRON near machine precision
// reach the same minimum of f on `s`: each is within `f_tolerance` (relative)
// of the lowest f any of them reaches, recomputed here. A solver stopping
// early shows up as the one above the others.
void expect_all_reach_one_optimum(const Set& s, double cost, double f_tolerance) {
  for (LossKind loss : {LossKind::kL2Svm, LossKind::kLogistic}) {
    SCOPED_TRACE(loss_info(loss).name);
    struct Run {
      std::string name;
      SolveResult result;
      double f;
    };
    std::vector<Run> runs;
    const SolveResult tron = reference(s, loss, cost);
    runs.push_back({"tron", tron, objective(s, cost, loss, tron.w)});
    // TRON's reported gradient norm is that of its w.
    const double g0 = gradient_norm(s, cost, loss, std::vector<double>(s.x.num_cols, 0.0));
    EXPECT_NEAR(tron.grad_norm, gradient_norm(s, cost, loss, tron.w),
                1e-3 * tron.grad_norm + 1e-12 * g0);
    EXPECT_LE(tron.grad_norm, 1e-6 * g0);
    for (const Pair& pair : kCdPairs) {
      if (pair.loss != loss) continue;
      const SolveResult result = solve(s, pair.solver, loss, cost, 1e-8, 100000);
      EXPECT_EQ(result.status, Status::kConverged)
          << describe(pair.solver, loss) << ": " << status_name(result.status);
      runs.push_back({solver_info(pair.solver).name, result, objective(s, cost, loss, result.w)});
    }
    double best = runs.front().f;
    for (const Run& run : runs) best = std::min(best, run.f);
    for (const Run& run : runs) {
      ASSERT_TRUE(all_finite(run.result.w)) << run.name;
      EXPECT_LE(run.f - best, f_tolerance * best)
          << run.name << " stops at f = " << run.f << " (" << status_name(run.result.status)
          << " after " << run.result.iterations
          << " iterations, ||grad f|| = " << gradient_norm(s, cost, loss, run.result.w)
          << "); the lowest f is " << best;
      // The reported f is that of the returned w.
      EXPECT_NEAR(run.result.objective, run.f, 1e-9 * run.f) << run.name;
    }
  }
}

TEST(RobustUnscaled, SyntheticFeaturesFromMilliToMillion) {
  const Set s = synthetic(150, {1e-3, 1e-2, 0.1, 1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e6, 3e5}, 11);
  expect_all_reach_one_optimum(s, 1.0, 1e-8);
}

TEST(RobustUnscaled, HeartScaleColumnsScaledUpToAMillion) {
  const Set base = heart_scale();
  std::vector<double> factor(base.x.num_cols);
  for (std::size_t i = 0; i < factor.size(); ++i) {
    factor[i] = std::pow(10.0, static_cast<double>(i % 10) - 3.0);
  }
  const Set s = make_set(scale_columns(base.x, factor), base.y);
  expect_all_reach_one_optimum(s, 1.0, 1e-8);
}

TEST(RobustUnscaled, HeartScaleTimesAMillion) {
  const Set base = heart_scale();
  const Set s = make_set(scale_columns(base.x, std::vector<double>(base.x.num_cols, 1e6)), base.y);
  expect_all_reach_one_optimum(s, 1.0, 1e-8);
}

// ---- 2. features without nonzeros ----

// Every solver and loss.
const Pair kAllPairs[] = {
    {SolverKind::kCd, LossKind::kL2Svm},       {SolverKind::kCd, LossKind::kLogistic},
    {SolverKind::kCdPer, LossKind::kL2Svm},    {SolverKind::kCdPer, LossKind::kLogistic},
    {SolverKind::kCdPerOne, LossKind::kL2Svm}, {SolverKind::kCdPerOne, LossKind::kLogistic},
    {SolverKind::kOnlineCd, LossKind::kL2Svm}, {SolverKind::kOnlineCd, LossKind::kLogistic},
    {SolverKind::kCmls, LossKind::kL2Svm},     {SolverKind::kCmlsPer, LossKind::kL2Svm},
    {SolverKind::kTron, LossKind::kL2Svm},     {SolverKind::kTron, LossKind::kLogistic},
    {SolverKind::kPegasos, LossKind::kL1Svm},
};

bool visits_in_fixed_order(SolverKind solver) {
  return solver == SolverKind::kCd || solver == SolverKind::kCmls || solver == SolverKind::kTron ||
         solver == SolverKind::kPegasos;  // Pegasos draws instances, not features
}

// heart_scale with empty columns first, inside, side by side and last, and a
// column of stored zeros after them (what -B 0 builds).
struct Padded {
  Set base = heart_scale();
  std::vector<std::size_t> zero_columns{0, 6, 7, 15, 17, 18};
  Set padded;
  Padded() {
    CscMatrix x = with_empty_columns(base.x, {0, 6, 7, 15, 17});
    append_constant_column(x, 0.0);
    padded = make_set(std::move(x), base.y);
  }
};

TEST(RobustEmptyFeatures, CurvatureBoundIsOneAndTheDerivativesAreZero) {
  const Padded data;
  for (LossKind loss : {LossKind::kL2Svm, LossKind::kLogistic}) {
    const Problem problem = problem_of(data.padded, 1.0);
    auto objective = make_coordinate_objective(loss, problem);
    for (std::size_t i : data.zero_columns) {
      EXPECT_EQ(objective->bound(i), 1.0) << "H_" << i;
      const CoordDerivs derivs = objective->coord_derivs(i);
      EXPECT_EQ(derivs.d1, 0.0) << i;
      EXPECT_EQ(derivs.d2, 1.0) << i;
    }
  }
}

TEST(RobustEmptyFeatures, WeightsAreZeroAndTheRestIsTheModelWithoutThem) {
  const Padded data;
  ASSERT_EQ(data.padded.x.num_cols, data.base.x.num_cols + data.zero_columns.size());
  for (const Pair& pair : kAllPairs) {
    SCOPED_TRACE(describe(pair.solver, pair.loss));
    const bool pegasos = pair.solver == SolverKind::kPegasos;
    const double eps = pair.solver == SolverKind::kTron ? 1e-12 : 1e-9;
    const std::int64_t max_iter = pegasos ? 50000 : 100000;
    const SolveResult with = solve(data.padded, pair.solver, pair.loss, 1.0, eps, max_iter, 5);
    const SolveResult plain = solve(data.base, pair.solver, pair.loss, 1.0, eps, max_iter, 5);
    ASSERT_EQ(with.w.size(), data.padded.x.num_cols);
    ASSERT_TRUE(all_finite(with.w));
    for (std::size_t i : data.zero_columns) EXPECT_EQ(with.w[i], 0.0) << "w_" << i;
    const std::vector<double> rest = without(with.w, data.zero_columns);
    // Same iterates (fixed order), or the same optimum reached by another
    // order: f is strongly convex with modulus 1, so each w is within
    // sqrt(2 (f(w) - f*)) of the optimum, well below this.
    const double tolerance = (visits_in_fixed_order(pair.solver) ? 1e-12 : 1e-5) * norm(plain.w);
    EXPECT_LE(distance(rest, plain.w), tolerance);
    const double f = objective(data.padded, 1.0, pair.loss, with.w);
    EXPECT_NEAR(f, objective(data.base, 1.0, pair.loss, plain.w), 1e-9 * f);
  }
}

// ---- 3. duplicate instances and a single instance ----

TEST(RobustDuplicates, EachInstanceTwiceEqualsTwiceC) {
  const Set base = heart_scale();
  const Set twice = doubled_instances(base);
  ASSERT_EQ(twice.x.num_rows, 2 * base.x.num_rows);
  ASSERT_EQ(twice.x.nnz(), 2 * base.x.nnz());
  const double cost = 0.5;
  for (const Pair& pair : kAllPairs) {
    if (pair.solver == SolverKind::kPegasos) continue;  // its draws differ with l
    SCOPED_TRACE(describe(pair.solver, pair.loss));
    const double eps = pair.solver == SolverKind::kTron ? 1e-12 : 1e-9;
    const SolveResult a = solve(twice, pair.solver, pair.loss, cost, eps, 100000, 3);
    const SolveResult b = solve(base, pair.solver, pair.loss, 2 * cost, eps, 100000, 3);
    ASSERT_TRUE(all_finite(a.w));
    ASSERT_TRUE(all_finite(b.w));
    EXPECT_LE(distance(a.w, b.w), 1e-6 * norm(b.w));
    const double fa = objective(twice, cost, pair.loss, a.w);
    const double fb = objective(base, 2 * cost, pair.loss, b.w);
    EXPECT_NEAR(fa, fb, 1e-10 * fb);
  }
}

// One instance x in 6 features, three of them empty.
struct OneInstance {
  std::vector<double> dense{0, 0.5, 0, -2, 3, 0};
  CscMatrix x = to_csc(test::csr_from_dense(1, 6, dense));
  double norm2 = 0.25 + 4 + 9;  // |x|^2
};

// The minimizer of 1/2 |w|^2 + C loss(w'x) with y = +1 is w = a x (any part
// of w orthogonal to x only adds to |w|^2), where a minimizes
// 1/2 a^2 s + C loss(a s), s = |x|^2:
//   l2svm: a s - 2 C s (1 - a s) = 0 gives a = 2C / (1 + 2 C s) (a s < 1,
//          so the instance is active, as assumed);
//   lr:    a = C / (1 + exp(a s)), the root of a decreasing function of a on
//          (0, C), found by bisection;
//   l1svm: a s - C s = 0 if a s < 1, so a = min(C, 1 / s).
double closed_form(LossKind loss, double cost, double s) {
  switch (loss) {
    case LossKind::kL2Svm:
      return 2 * cost / (1 + 2 * cost * s);
    case LossKind::kL1Svm:
      return std::min(cost, 1 / s);
    case LossKind::kLogistic: {
      Real lo = 0;
      Real hi = cost;
      for (int k = 0; k < 200; ++k) {
        const Real mid = (lo + hi) / 2;
        (mid - cost / (1 + std::exp(mid * s)) > 0 ? hi : lo) = mid;
      }
      return static_cast<double>((lo + hi) / 2);
    }
    default:  // the other losses, of no margin or vector form here
      break;
  }
  return 0;
}

TEST(RobustSingleInstance, TrainsOneClassToTheClosedForm) {
  const OneInstance one;
  for (int label : {7, -1}) {
    const ClassMap classes = map_classes({static_cast<double>(label)});
    ASSERT_EQ(classes.labels, std::vector<int>{label});
    // Larger C makes H = I + 2C x x' ill-conditioned and cyclic CD slow
    // (about 1e5 outer iterations for C = 1e3), which is no robustness issue.
    for (double cost : {1e-3, 1.0, 10.0}) {
      for (const Pair& pair : kAllPairs) {
        if (pair.solver == SolverKind::kPegasos) continue;  // below, with its own tolerance
        SCOPED_TRACE(describe(pair.solver, pair.loss) + " C " + std::to_string(cost) + " label " +
                     std::to_string(label));
        const Params params = make_params(pair.solver, pair.loss, cost, 1e-12, 100000);
        WarningReporter reporter;
        const LinearModel model = train(one.x, classes, params, reporter);
        EXPECT_TRUE(reporter.warnings.empty());
        ASSERT_EQ(model.nr_class(), 1u);
        EXPECT_EQ(model.labels, std::vector<int>{label});
        ASSERT_EQ(model.w.size(), one.dense.size());
        ASSERT_TRUE(all_finite(model.w));
        const double a = closed_form(pair.loss, cost, one.norm2);
        for (std::size_t i = 0; i < one.dense.size(); ++i) {
          EXPECT_NEAR(model.w[i], a * one.dense[i], 1e-7 * std::fabs(a * one.dense[i]) + 1e-300)
              << "w_" << i << ", a = " << a;
        }
        EXPECT_EQ(model.predict(one.x), std::vector<int>{label});
      }
    }
  }
}

// The CD family stops when the stored D'_i(0), one per coordinate, have a
// small norm. On one instance, where every step moves the one margin, that
// must still mean a small gradient at the returned w, whatever the draws.
TEST(RobustSingleInstance, ConvergedMeansASmallTrueGradient) {
  const OneInstance one;
  const Set s = make_set(one.x, {1.0});
  const double eps = 1e-10;
  for (const Pair& pair : kCdPairs) {
    SCOPED_TRACE(describe(pair.solver, pair.loss));
    const double g0 = gradient_norm(s, 1.0, pair.loss, std::vector<double>(6, 0.0));
    int converged = 0;
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      const SolveResult result = solve(s, pair.solver, pair.loss, 1.0, eps, 100000, seed);
      if (result.status != Status::kConverged) continue;
      ++converged;
      const double g = gradient_norm(s, 1.0, pair.loss, result.w);
      EXPECT_LE(g, 1e-6 * g0) << "seed " << seed << ": converged after " << result.iterations
                              << " outer iterations with reported |g| " << result.grad_norm
                              << ", but ||grad f(w)|| = " << g << " and f(w) - f* = "
                              << objective(s, 1.0, pair.loss, result.w) -
                                     objective(s, 1.0, pair.loss, [&] {
                                       std::vector<double> w = one.dense;
                                       const double a = closed_form(pair.loss, 1.0, one.norm2);
                                       for (double& v : w) v *= a;
                                       return w;
                                     }());
    }
    EXPECT_EQ(converged, 20);
  }
}

TEST(RobustSingleInstance, PegasosComesCloseToTheL1SvmClosedForm) {
  const OneInstance one;
  const Set s = make_set(one.x, {1.0});
  for (double cost : {0.01, 1.0}) {  // a = C (inside the margin) and a = 1/s (on it)
    SCOPED_TRACE(cost);
    const SolveResult result = solve(s, SolverKind::kPegasos, LossKind::kL1Svm, cost, {}, 20000);
    ASSERT_TRUE(all_finite(result.w));
    const double a = closed_form(LossKind::kL1Svm, cost, one.norm2);
    std::vector<double> expected(one.dense.size());
    for (std::size_t i = 0; i < expected.size(); ++i) expected[i] = a * one.dense[i];
    const double f_star = objective(s, cost, LossKind::kL1Svm, expected);
    const double f = objective(s, cost, LossKind::kL1Svm, result.w);
    EXPECT_GE(f, f_star * (1 - 1e-12));
    EXPECT_LE(f, f_star * 1.01);
    EXPECT_LE(distance(result.w, expected), 0.05 * norm(expected));
  }
}

// ---- 4. extreme C and the iteration limit ----

// For C -> 0 the optimum w = -C sum_j loss'(m_j) y_j x_j has margins m_j of
// order C, so w is about 2C sum_j y_j x_j (l2svm) or C/2 sum_j y_j x_j (lr).
// For small C the right side is a contraction in w, iterated here to the
// exact optimum.
std::vector<double> small_c_optimum(const Set& s, double cost, LossKind loss, int rounds) {
  std::vector<double> w(s.x.num_cols, 0.0);
  for (int round = 0; round < rounds; ++round) {
    const std::vector<Real> m = margins(s.x, s.y, w);
    std::vector<double> next(w.size());
    for (std::size_t i = 0; i < w.size(); ++i) {
      Real sum = 0;
      for (auto k = s.x.col_ptr[i]; k < s.x.col_ptr[i + 1]; ++k) {
        const auto t = static_cast<std::size_t>(k);
        const std::size_t j = s.x.row_idx[t];
        sum -= cost * loss_slope(loss, m[j]) * s.y[j] * s.x.values[t];
      }
      next[i] = static_cast<double>(sum);
    }
    w = next;
  }
  return w;
}

TEST(RobustExtremeC, TinyCReachesTheSmallCOptimumWithinTheIterationLimit) {
  const Set s = heart_scale();
  const double cost = 1e-6;
  for (const Pair& pair : kAllPairs) {
    if (pair.solver == SolverKind::kPegasos) continue;
    SCOPED_TRACE(describe(pair.solver, pair.loss));
    const std::vector<double> first_order = small_c_optimum(s, cost, pair.loss, 1);
    const std::vector<double> optimum = small_c_optimum(s, cost, pair.loss, 30);
    // The first-order formula is within 1% here, so the check below is not
    // the zero-C limit by accident.
    EXPECT_LE(distance(first_order, optimum), 1e-2 * norm(optimum));
    EXPECT_GT(distance(first_order, optimum), 1e-6 * norm(optimum));
    WarningReporter reporter;
    const SolveResult result =
        solve(s, make_params(pair.solver, pair.loss, cost, 1e-6, {}), 1, reporter);
    EXPECT_EQ(result.status, Status::kConverged) << status_name(result.status);
    EXPECT_LE(result.iterations, kDefaultMaxIter);
    EXPECT_TRUE(reporter.warnings.empty());
    ASSERT_TRUE(all_finite(result.w));
    EXPECT_LE(distance(result.w, optimum), 1e-5 * norm(optimum));
  }
}

TEST(RobustExtremeC, HugeCStopsWithinTheDefaultLimitNearTronsOptimum) {
  const Set s = heart_scale();
  const double cost = 1e6;
  for (LossKind loss : {LossKind::kL2Svm, LossKind::kLogistic}) {
    const SolveResult tron = reference(s, loss, cost);
    const double f_star = objective(s, cost, loss, tron.w);
    for (const Pair& pair : kCdPairs) {
      if (pair.loss != loss) continue;
      SCOPED_TRACE(describe(pair.solver, pair.loss));
      // The defaults: eps 0.001 and max_iter kDefaultMaxIter.
      WarningReporter reporter;
      const SolveResult result =
          solve(s, make_params(pair.solver, loss, cost, {}, {}), 1, reporter);
      EXPECT_LE(result.iterations, kDefaultMaxIter);
      ASSERT_TRUE(all_finite(result.w));
      const double f = objective(s, cost, loss, result.w);
      EXPECT_GE(f, f_star * (1 - 1e-9));
      EXPECT_LE(f, f_star * (1 + 1e-4));
    }
  }
}

TEST(RobustIterationLimit, StoppingAtMaxIterWarnsAndConvergingDoesNot) {
  const Set s = heart_scale();
  for (const Pair& pair : kAllPairs) {
    if (pair.solver == SolverKind::kPegasos) continue;  // no stopping rule: max_iter is its budget
    SCOPED_TRACE(describe(pair.solver, pair.loss));
    WarningReporter limited;
    const SolveResult stopped =
        solve(s, make_params(pair.solver, pair.loss, 1.0, 1e-12, 2), 1, limited);
    EXPECT_EQ(stopped.status, Status::kMaxIter) << status_name(stopped.status);
    EXPECT_EQ(stopped.iterations, 2);
    ASSERT_TRUE(all_finite(stopped.w));
    ASSERT_EQ(limited.warnings.size(), 1u);
    EXPECT_NE(limited.warnings[0].find("iteration limit"), std::string::npos)
        << limited.warnings[0];
    EXPECT_NE(limited.warnings[0].find(solver_info(pair.solver).name), std::string::npos)
        << limited.warnings[0];
    // The same through train(), which the tools use.
    WarningReporter through_train;
    const ClassMap classes = test::load("heart_scale").classes;
    train(s.x, classes, make_params(pair.solver, pair.loss, 1.0, 1e-12, 2), through_train);
    ASSERT_EQ(through_train.warnings.size(), 1u);
    EXPECT_NE(through_train.warnings[0].find("iteration limit"), std::string::npos);

    WarningReporter converged;
    const SolveResult done =
        solve(s, make_params(pair.solver, pair.loss, 1.0, 0.1, {}), 1, converged);
    EXPECT_EQ(done.status, Status::kConverged) << status_name(done.status);
    EXPECT_TRUE(converged.warnings.empty());
  }
}

// ---- 5. the bias feature ----

struct Read {
  LabeledCsc file;
  ClassMap classes;
  Set set;  // the binary problem, first class positive
};

Read read_heart_scale(double bias) {
  ReadOptions options;
  options.integer_labels = true;
  options.bias = bias;
  Read r{read_libsvm_csc(test::data_path("heart_scale"), options), {}, {}};
  r.classes = map_classes(r.file.labels);
  std::vector<double> y;
  for (std::size_t c : r.classes.class_of) y.push_back(c == 0 ? 1.0 : -1.0);
  r.set = make_set(r.file.features, y);
  return r;
}

Params with_bias(Params params, double bias) {
  params.bias = bias;
  validate(params);
  return params;
}

// w'x_j for every row, the bias column included.
std::vector<double> decisions(const CscMatrix& x, const std::vector<double>& w) {
  const std::vector<Real> m = margins(x, std::vector<double>(x.num_rows, 1.0), w);
  return std::vector<double>(m.begin(), m.end());
}

TEST(RobustBias, BiasZeroIsTheModelWithoutBiasAndAZeroBiasWeight) {
  const Read plain = read_heart_scale(-1);
  const Read zero = read_heart_scale(0);
  ASSERT_EQ(zero.file.features.num_cols, plain.file.features.num_cols + 1);
  for (const Pair& pair : kAllPairs) {
    SCOPED_TRACE(describe(pair.solver, pair.loss));
    const double eps = pair.solver == SolverKind::kTron ? 1e-12 : 1e-9;
    const Params params = make_params(pair.solver, pair.loss, 1.0, eps,
                                      pair.solver == SolverKind::kPegasos ? 50000 : 100000);
    WarningReporter reporter;
    const LinearModel a = train(plain.file.features, plain.classes, params, reporter);
    const LinearModel b = train(zero.file.features, zero.classes, with_bias(params, 0), reporter);
    EXPECT_TRUE(reporter.warnings.empty());
    EXPECT_EQ(b.bias, 0.0);
    ASSERT_EQ(b.w.size(), a.w.size() + 1);
    EXPECT_EQ(b.w.back(), 0.0);
    ASSERT_TRUE(all_finite(b.w));
    const std::vector<double> rest(b.w.begin(), b.w.end() - 1);
    const double tolerance = (visits_in_fixed_order(pair.solver) ? 1e-12 : 1e-5) * norm(a.w);
    EXPECT_LE(distance(rest, a.w), tolerance);
    EXPECT_EQ(b.predict(zero.file.features), a.predict(plain.file.features));
  }
}

TEST(RobustBias, CdperAgreesWithTronForBiasOneAndHundred) {
  for (double bias : {1.0, 100.0}) {
    SCOPED_TRACE(bias);
    const Read r = read_heart_scale(bias);
    const std::size_t n = r.file.features.num_cols - 1;
    // The reader's bias column is append_constant_column of the plain data.
    CscMatrix appended = read_heart_scale(-1).file.features;
    append_constant_column(appended, bias);
    EXPECT_EQ(r.file.features.col_ptr, appended.col_ptr);
    EXPECT_TRUE(r.file.features.values == appended.values);
    for (LossKind loss : {LossKind::kL2Svm, LossKind::kLogistic}) {
      SCOPED_TRACE(loss_info(loss).name);
      WarningReporter reporter;
      Params cd_params = make_params(SolverKind::kCdPer, loss, 1.0, 1e-9, 100000);
      cd_params.seed = 3;
      const LinearModel cd =
          train(r.file.features, r.classes, with_bias(cd_params, bias), reporter);
      const LinearModel tron =
          train(r.file.features, r.classes,
                with_bias(make_params(SolverKind::kTron, loss, 1.0, 1e-12, 1000), bias), reporter);
      EXPECT_TRUE(reporter.warnings.empty());
      for (const LinearModel* model : {&cd, &tron}) {
        EXPECT_EQ(model->bias, bias);
        EXPECT_EQ(model->num_features, n);
        ASSERT_EQ(model->w.size(), n + 1);
        ASSERT_TRUE(all_finite(model->w));
        EXPECT_NE(
            format_model(*model).find("\nbias " + std::to_string(static_cast<int>(bias)) + "\n"),
            std::string::npos);
      }
      EXPECT_NE(tron.w[n], 0.0);  // the bias is used
      const double f_cd = objective(r.set, 1.0, loss, cd.w);
      const double f_tron = objective(r.set, 1.0, loss, tron.w);
      EXPECT_NEAR(f_cd, f_tron, 1e-9 * f_tron);
      EXPECT_NEAR(cd.w[n], tron.w[n], 1e-4 * std::fabs(tron.w[n]));
      // Predictions: model.predict against the sign of w'x (bias included)
      // computed here, and the two models against each other wherever the
      // decision is not within rounding of zero.
      const std::vector<double> dec_cd = decisions(r.file.features, cd.w);
      const std::vector<double> dec_tron = decisions(r.file.features, tron.w);
      const std::vector<int> pred_cd = cd.predict(r.file.features);
      const std::vector<int> pred_tron = tron.predict(r.file.features);
      ASSERT_EQ(pred_cd.size(), r.file.features.num_rows);
      std::size_t compared = 0;
      for (std::size_t j = 0; j < pred_cd.size(); ++j) {
        EXPECT_EQ(pred_cd[j], dec_cd[j] > 0 ? r.classes.labels[0] : r.classes.labels[1]) << j;
        EXPECT_EQ(pred_tron[j], dec_tron[j] > 0 ? r.classes.labels[0] : r.classes.labels[1]) << j;
        EXPECT_NEAR(dec_cd[j], dec_tron[j], 1e-4 * (1 + std::fabs(dec_tron[j]))) << j;
        if (std::fabs(dec_tron[j]) > 1e-4) {
          EXPECT_EQ(pred_cd[j], pred_tron[j]) << j;
          ++compared;
        }
      }
      EXPECT_GT(compared, r.file.features.num_rows * 9 / 10);
    }
  }
}

// ---- 6. reproducibility ----

LabeledCsc read_with_threads(const std::string& name, unsigned threads) {
  ReadOptions options;
  options.integer_labels = true;
  options.threads = threads;
  if (threads > 1) options.min_bytes_per_thread = 1;  // really split the file
  return read_libsvm_csc(test::data_path(name), options);
}

std::string train_text(const LabeledCsc& file, Params params) {
  WarningReporter reporter;
  return format_model(train(file.features, map_classes(file.labels), params, reporter));
}

TEST(Reproducible, ModelTextDoesNotDependOnTheReadersThreads) {
  const LabeledCsc one = read_with_threads("rcv1_small", 1);
  Params params = make_params(SolverKind::kCdPer, LossKind::kL2Svm, 1.0, {}, {});
  params.seed = 7;
  const std::string expected = train_text(one, params);
  for (unsigned threads : {2u, 3u, 4u}) {
    SCOPED_TRACE(threads);
    const LabeledCsc split = read_with_threads("rcv1_small", threads);
    EXPECT_EQ(split.labels, one.labels);
    EXPECT_EQ(split.features.num_cols, one.features.num_cols);
    EXPECT_EQ(split.features.col_ptr, one.features.col_ptr);
    EXPECT_TRUE(split.features.row_idx == one.features.row_idx);
    EXPECT_TRUE(split.features.values == one.features.values);
    EXPECT_TRUE(train_text(split, params) == expected);
  }
}

TEST(Reproducible, SameSeedSameModelOtherSeedOtherModel) {
  const LabeledCsc file = read_with_threads("rcv1_small", 1);
  const struct {
    SolverKind solver;
    std::int64_t max_iter;
  } cases[] = {{SolverKind::kCdPer, 3},
               {SolverKind::kCdPerOne, 3},
               {SolverKind::kOnlineCd, 3},
               {SolverKind::kCmlsPer, 3},
               {SolverKind::kPegasos, 3000}};
  for (const auto& c : cases) {
    SCOPED_TRACE(solver_info(c.solver).name);
    Params params =
        make_params(c.solver, solver_info(c.solver).losses.front(), 1.0, 1e-12, c.max_iter);
    params.seed = 7;
    const std::string first = train_text(file, params);
    EXPECT_TRUE(train_text(file, params) == first);
    params.seed = 8;
    EXPECT_FALSE(train_text(file, params) == first);
  }
}

// Found by fuzz_train (fuzz/regressions/train/tron_cg_never_converges): one
// feature of 7.8e74 beside thousands of empty ones made rounding keep TRON's
// CG residual above its tolerance forever. CG is now capped at n + 10 steps
// per outer iteration, and TRON ends.
TEST(RobustTron, ConjugateGradientEndsOnAnIllConditionedHessian) {
  test::ScratchDir dir;
  const std::string value(75, '7');
  ReadOptions options;
  options.integer_labels = true;
  const LabeledCsc data =
      read_libsvm_csc(dir.write("d.svm", "3  3:1\n7 10699:" + value + "\n"), options);
  const ClassMap classes = map_classes(data.labels);
  Params params;
  params.solver = SolverKind::kTron;
  params.max_iter = 2;
  params = resolve_defaults(params);
  const CsrMatrix rows = to_csr(data.features);
  const Problem problem = one_vs_rest(data.features, classes, 0, 1.0, 1.0, &rows);
  std::ostringstream log;
  Reporter reporter(log, Reporter::Level::kQuiet);
  const SolveResult result = train_binary(problem, params, 1, reporter);
  EXPECT_LE(result.iterations, 2);
  EXPECT_LE(result.inner_iterations, 2 * 1000);
  for (double w : result.w) EXPECT_TRUE(std::isfinite(w));
}

}  // namespace
}  // namespace cdl
