// The CD family (CD, CDPER, CDPERONE, online CD) on real data: objective
// monotonicity, agreement of the four variants and with LIBLINEAR's optimum,
// determinism, and the statistics the paper reports.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <tuple>

#include "libsvm_reader.h"
#include "objective.h"
#include "problem.h"
#include "solver.h"
#include "test_util.h"
#include "train.h"

namespace cdl {
namespace {

struct Data {
  LabeledCsc file;
  ClassMap classes;
};

const Data& load(const std::string& name) {
  static std::map<std::string, Data> cache;
  auto it = cache.find(name);
  if (it == cache.end()) {
    ReadOptions options;
    options.integer_labels = true;
    LabeledCsc file = read_libsvm_csc(test::data_path(name), options);
    ClassMap classes = map_classes(file.labels);
    it = cache.emplace(name, Data{std::move(file), std::move(classes)}).first;
  }
  return it->second;
}

// Records f after every outer iteration.
class RecordingReporter : public Reporter {
 public:
  RecordingReporter() : Reporter(sink_, Level::kQuiet) {}
  void iteration(const IterationInfo& info) override { objectives.push_back(info.objective); }
  std::vector<double> objectives;

 private:
  std::ostringstream sink_;
};

SolveResult solve(const std::string& name, SolverKind solver, std::uint64_t seed, double eps,
                  std::int64_t max_iter, RecordingReporter& reporter) {
  const Data& data = load(name);
  const Problem problem = one_vs_rest(data.file.features, data.classes, 0, 1.0, 1.0);
  Params params;
  params.solver = solver;
  params.eps = eps;
  params.max_iter = max_iter;
  return train_binary(problem, resolve_defaults(params), seed, reporter);
}

const SolverKind kCdFamily[] = {SolverKind::kCd, SolverKind::kCdPer, SolverKind::kCdPerOne,
                                SolverKind::kOnlineCd};

std::string solver_param_name(SolverKind kind) { return solver_info(kind).name; }

class Monotone : public ::testing::TestWithParam<std::tuple<SolverKind, std::uint64_t>> {};

TEST_P(Monotone, ObjectiveNeverIncreasesBetweenOuterIterations) {
  const auto [solver, seed] = GetParam();
  for (const char* name : {"heart_scale", "rcv1_small"}) {
    RecordingReporter reporter;
    solve(name, solver, seed, 1e-6, 60, reporter);
    ASSERT_GE(reporter.objectives.size(), 2u) << name;
    for (std::size_t k = 1; k < reporter.objectives.size(); ++k) {
      EXPECT_LE(reporter.objectives[k], reporter.objectives[k - 1]) << name << " iteration " << k;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(CdFamily, Monotone,
                         ::testing::Combine(::testing::ValuesIn(kCdFamily),
                                            ::testing::Values(1u, 2u, 3u)),
                         [](const auto& test_info) {
                           return solver_param_name(std::get<0>(test_info.param)) + "_seed" +
                                  std::to_string(std::get<1>(test_info.param));
                         });

// f* from liblinear-train -s 2 -e 0.0001 (TRON, LIBLINEAR 2.3.0), C = 1,
// recomputed from its saved model at full precision.
struct Optimum {
  const char* name;
  double f;
};
const Optimum kLiblinearOptima[] = {
    {"heart_scale", 121.134724522},
    {"rcv1_small", 194.888768867},
    {"svmlight_example1.train", 175.033181011},
};

class SameOptimum : public ::testing::TestWithParam<Optimum> {};

TEST_P(SameOptimum, AllFourVariantsReachLiblinearsOptimum) {
  const Optimum optimum = GetParam();
  std::vector<double> values;
  for (SolverKind solver : kCdFamily) {
    RecordingReporter reporter;
    const SolveResult result = solve(optimum.name, solver, 1, 1e-7, 5000, reporter);
    EXPECT_EQ(result.status, Status::kConverged) << solver_param_name(solver);
    values.push_back(result.objective);
  }
  for (std::size_t k = 0; k < values.size(); ++k) {
    EXPECT_NEAR(values[k], values[0], 1e-6 * values[0]) << solver_param_name(kCdFamily[k]);
    EXPECT_NEAR(values[k], optimum.f, 1e-6 * optimum.f) << solver_param_name(kCdFamily[k]);
  }
}

INSTANTIATE_TEST_SUITE_P(DataSets, SameOptimum, ::testing::ValuesIn(kLiblinearOptima),
                         [](const auto& test_info) {
                           std::string name = test_info.param.name;
                           for (char& c : name) {
                             if (c == '.') c = '_';
                           }
                           return name;
                         });

TEST(SolveCd, SameSeedGivesTheSameModel) {
  for (SolverKind solver : {SolverKind::kCdPer, SolverKind::kOnlineCd}) {
    RecordingReporter a;
    RecordingReporter b;
    EXPECT_EQ(solve("rcv1_small", solver, 42, 1e-3, 100, a).w,
              solve("rcv1_small", solver, 42, 1e-3, 100, b).w);
  }
}

TEST(SolveCd, DifferentSeedsGiveDifferentPaths) {
  RecordingReporter a;
  RecordingReporter b;
  solve("rcv1_small", SolverKind::kCdPer, 1, 1e-3, 100, a);
  solve("rcv1_small", SolverKind::kCdPer, 2, 1e-3, 100, b);
  EXPECT_NE(a.objectives.front(), b.objectives.front());
}

TEST(SolveCd, FullNewtonStepIsTakenAlmostAlwaysOnDocuments) {
  // The paper reports 99.997% on rcv1.
  RecordingReporter reporter;
  const SolveResult result = solve("rcv1_small", SolverKind::kCdPer, 1, 1e-3, 100, reporter);
  ASSERT_GT(result.inner_iterations, 0);
  EXPECT_GT(static_cast<double>(result.full_newton_steps),
            0.999 * static_cast<double>(result.inner_iterations));
  // The shortcut (15) spares almost every evaluation of D_i.
  EXPECT_LT(static_cast<double>(result.function_evaluations),
            0.01 * static_cast<double>(result.inner_iterations));
}

TEST(SolveCd, LineSearchWithBetaCloseToOneStillConverges) {
  // Theorem 1 bounds the backtracking by lambda_bar; with beta = 0.99 and a
  // large C it takes many steps, but must still end in a converged model.
  const Data& data = load("a9a");
  const Problem problem = one_vs_rest(data.file.features, data.classes, 0, 1000.0, 1000.0);
  RecordingReporter reporter;
  Params params;
  params.beta = 0.99;
  const SolveResult slow = train_binary(problem, resolve_defaults(params), 1, reporter);
  params.beta = 0.5;
  const SolveResult fast = train_binary(problem, resolve_defaults(params), 1, reporter);
  EXPECT_EQ(slow.status, Status::kConverged);
  EXPECT_NEAR(slow.objective, fast.objective, 1e-4 * fast.objective);  // both stop at eps 1e-3
}

TEST(SolveCd, StopsAtTheIterationLimitWithThatStatus) {
  RecordingReporter reporter;
  const SolveResult result = solve("heart_scale", SolverKind::kCd, 1, 1e-12, 3, reporter);
  EXPECT_EQ(result.status, Status::kMaxIter);
  EXPECT_EQ(result.iterations, 3);
  EXPECT_EQ(reporter.objectives.size(), 3u);
}

TEST(SolveCd, WarmStartAtTheOptimumStopsAtOnce) {
  const Data& data = load("heart_scale");
  const Problem problem = one_vs_rest(data.file.features, data.classes, 0, 1.0, 1.0);
  Params params;
  params.solver = SolverKind::kCdPer;
  params = resolve_defaults(params);
  RecordingReporter reporter;
  auto objective = make_coordinate_objective(LossKind::kL2Svm, problem);
  PermutationOrder order(problem.num_features(), 1, true);
  params.eps = 1e-9;
  const SolveResult tight = solve_cd(*objective, order, params, reporter);
  params.eps = 1e-3;
  objective->reset(tight.w);
  const SolveResult warm = solve_cd(*objective, order, params, reporter);
  EXPECT_EQ(warm.iterations, 0);
  EXPECT_EQ(warm.status, Status::kConverged);
  EXPECT_EQ(warm.w, tight.w);
}

TEST(SolveCd, StoppingRuleIsRelativeToTheGradientAtZero) {
  // With eps = 1e-3 the reported norm must be at most 1e-3 ||grad f(0)||.
  const Data& data = load("svmlight_example1.train");
  const Problem problem = one_vs_rest(data.file.features, data.classes, 0, 1.0, 1.0);
  auto objective = make_coordinate_objective(LossKind::kL2Svm, problem);
  const double g0 = objective->gradient_norm_at_zero();
  RecordingReporter reporter;
  const SolveResult result =
      solve("svmlight_example1.train", SolverKind::kCdPer, 1, 1e-3, 1000, reporter);
  EXPECT_EQ(result.status, Status::kConverged);
  EXPECT_LE(result.grad_norm, 1e-3 * g0);
}

}  // namespace
}  // namespace cdl
