// Selection rules inside the solvers: the feedback a rule hears after each
// coordinate step, checked against finite differences of f; the -s choices as
// {algorithm, rule} pairs, where --select rebuilds each of today's solvers
// bit for bit; an active set that a rule restores before the solver stops;
// and --select on the command line.
#include <gtest/gtest.h>

#include <cmath>

#include "objective/evaluate.h"
#include "objective/objective.h"
#include "solver_test_util.h"
#include "solvers/solver.h"
#include "test_util.h"
#include "train/train.h"

namespace cdl {
namespace {

using test::RecordingReporter;

// Cyclic order, one coordinate per batch, recording the feedback it hears.
class RecordingRule final : public SelectionRule {
 public:
  explicit RecordingRule(std::size_t n) : n_(n) {}
  CoordinateBatch next_batch() override {
    if (pos_ == n_) return {};
    current_ = pos_++;
    return {&current_, 1};
  }
  bool wants_feedback() const override { return true; }
  void feedback(const StepFeedback& step) override { heard.push_back(step); }
  std::vector<StepFeedback> heard;

 private:
  void on_start_epoch() override { pos_ = 0; }
  std::size_t n_;
  std::size_t pos_ = 0;
  std::size_t current_ = 0;
};

Params cd_params(double eps, std::int64_t max_iter) {
  Params params;
  params.solver = SolverKind::kCd;
  params.eps = eps;
  params.max_iter = max_iter;
  return resolve_defaults(params);
}

TEST(SelectionFeedback, RuleHearsEachStepsDerivativesAndStep) {
  // Logistic loss: f is smooth, so D'' is checked by finite differences too.
  const Problem problem = test::problem_of("heart_scale");
  const std::size_t n = problem.num_features();
  auto objective = make_coordinate_objective(LossKind::kLogistic, problem);
  RecordingRule rule(n);
  RecordingReporter reporter;
  const SolveResult result = solve_cd(*objective, rule, cd_params(1e-12, 2), reporter);
  ASSERT_EQ(rule.heard.size(), 2 * n);  // two epochs, every coordinate once each

  const auto f = [&](const std::vector<double>& w) {
    return evaluate(problem, LossKind::kLogistic, w).objective;
  };
  std::vector<double> w(n, 0.0);  // rebuilt from the steps alone
  for (std::size_t k = 0; k < rule.heard.size(); ++k) {
    const StepFeedback& step = rule.heard[k];
    ASSERT_EQ(step.coordinate, k % n);
    SCOPED_TRACE("step " + std::to_string(k));
    const double h = 1e-4;
    std::vector<double> up = w;
    std::vector<double> down = w;
    up[step.coordinate] += h;
    down[step.coordinate] -= h;
    const double f0 = f(w);
    EXPECT_NEAR(step.d1, (f(up) - f(down)) / (2 * h), 1e-5 * (1 + std::fabs(step.d1)));
    EXPECT_NEAR(step.d2, (f(up) - 2 * f0 + f(down)) / (h * h), 1e-3 * step.d2);
    // The step is the line search's: it decreases f by at least sigma z^2.
    std::vector<double> next = w;
    next[step.coordinate] += step.step;
    EXPECT_LE(f(next) - f0, -0.01 * step.step * step.step + 1e-9 * std::fabs(f0));
    w = next;
  }
  EXPECT_EQ(w, result.w);  // the steps heard are exactly the steps taken
}

SolveResult train_with(const char* data, SolverKind solver, const char* select, LossKind loss) {
  const Problem problem = test::problem_of(data);
  Params params;
  params.solver = solver;
  params.loss = loss;
  params.eps = 1e-4;
  if (select != nullptr) params.own<SelectOptions>().rule = select;
  validate(params);
  RecordingReporter reporter;
  return train_binary(problem, resolve_defaults(params), 5, reporter);
}

TEST(SelectionFeedback, SolversAreAlgorithmAndRulePairs) {
  struct Pair {
    SolverKind solver;
    SolverKind algorithm;
    const char* rule;
  } pairs[] = {
      {SolverKind::kCd, SolverKind::kCdPer, "cyclic"},
      {SolverKind::kCdPer, SolverKind::kCd, "perm"},
      {SolverKind::kCdPerOne, SolverKind::kOnlineCd, "perm-once"},
      {SolverKind::kOnlineCd, SolverKind::kCd, "uniform"},
      {SolverKind::kCmlsPer, SolverKind::kCmls, "perm"},
      {SolverKind::kCmls, SolverKind::kCmlsPer, "cyclic"},
  };
  for (const char* data : {"heart_scale", "svmlight_example1.train"}) {
    for (const Pair& pair : pairs) {
      const std::string name(pair.solver.name());
      SCOPED_TRACE(std::string(data) + " " + name + " = " + std::string(pair.algorithm.name()) +
                   " --select " + pair.rule);
      EXPECT_EQ(solver_info(pair.solver).rule, std::string(pair.rule));
      for (LossKind loss : solver_info(pair.solver).losses) {
        const SolveResult plain = train_with(data, pair.solver, nullptr, loss);
        const SolveResult rebuilt = train_with(data, pair.algorithm, pair.rule, loss);
        EXPECT_EQ(plain.w, rebuilt.w);
        EXPECT_EQ(plain.iterations, rebuilt.iterations);
      }
    }
  }
}

// Cyclic, but leaves the upper half of the coordinates out until the solver
// asks for them back, as shrinking would.
class HalfActiveRule final : public SelectionRule {
 public:
  explicit HalfActiveRule(std::size_t n) : n_(n), active_(n / 2) {}
  CoordinateBatch next_batch() override {
    if (pos_ == active_) return {};
    current_ = pos_++;
    return {&current_, 1};
  }
  bool restore_active_set() override {
    ++restores;
    if (active_ == n_) return false;
    active_ = n_;
    return true;
  }
  std::size_t inactive_count() const override { return n_ - active_; }
  int restores = 0;
  std::size_t active() const { return active_; }

 private:
  void on_start_epoch() override { pos_ = 0; }
  std::size_t n_;
  std::size_t active_;
  std::size_t pos_ = 0;
  std::size_t current_ = 0;
};

TEST(SelectionFeedback, SolverRestoresAnActiveSetBeforeItStops) {
  const Problem problem = test::problem_of("heart_scale");
  const std::size_t n = problem.num_features();
  RecordingReporter reporter;
  auto shrunk_objective = make_coordinate_objective(LossKind::kL2Svm, problem);
  HalfActiveRule shrinking(n);
  const SolveResult shrunk =
      solve_cd(*shrunk_objective, shrinking, cd_params(1e-3, 1000), reporter);
  EXPECT_EQ(shrunk.status, Status::kConverged);
  EXPECT_EQ(shrinking.active(), n);
  EXPECT_EQ(shrinking.restores, 2);  // restored once, then confirmed over all
  // The optimum is that of the plain solver, not of the half problem.
  const SolveResult plain = train_with("heart_scale", SolverKind::kCd, nullptr, LossKind::kL2Svm);
  EXPECT_NEAR(shrunk.objective, plain.objective, 1e-3 * plain.objective);
  const Evaluation at_end = evaluate(problem, LossKind::kL2Svm, shrunk.w);
  const Evaluation at_zero = evaluate(problem, LossKind::kL2Svm, std::vector<double>(n, 0.0));
  EXPECT_LT(at_end.gradient_norm, 0.01 * at_zero.gradient_norm);
}

TEST(SelectFlag, ChoosesTheRuleOfTheCdAlgorithms) {
  test::ScratchDir dir;
  const std::string data = test::data_path("heart_scale");
  const auto run = [&](const std::string& flags, const std::string& model) {
    return test::run_tool("cdtrain", "-q " + flags + " " + data + " " + dir.file(model));
  };
  ASSERT_EQ(run("-s cd", "cd.model").status, 0);
  ASSERT_EQ(run("-s cdper --select cyclic", "select.model").status, 0);
  EXPECT_EQ(test::read_file(dir.file("cd.model")), test::read_file(dir.file("select.model")));
  ASSERT_EQ(run("-s online --seed 3", "online.model").status, 0);
  ASSERT_EQ(run("-s cd --select uniform --seed 3", "uniform.model").status, 0);
  EXPECT_EQ(test::read_file(dir.file("online.model")), test::read_file(dir.file("uniform.model")));

  const auto unknown = run("--select greedy", "bad.model");
  EXPECT_EQ(unknown.status, 2);
  EXPECT_NE(unknown.err.find("--select"), std::string::npos) << unknown.err;
  EXPECT_NE(unknown.err.find("cyclic, perm, perm-once, uniform, importance"), std::string::npos)
      << unknown.err;
  // A rule of the SVM dual is refused by a primal solver, with its rules.
  const auto dual_rule = run("-s cd --select ada-gap", "bad.model");
  EXPECT_EQ(dual_rule.status, 2);
  EXPECT_NE(dual_rule.err.find("rule ada-gap does not apply to solver cd; its rules are cyclic, "
                               "perm, perm-once, uniform or importance"),
            std::string::npos)
      << dual_rule.err;
  ASSERT_EQ(run("-s cd --select importance --seed 2", "importance.model").status, 0);
  const auto tron = run("-s tron --select perm", "bad.model");
  EXPECT_EQ(tron.status, 2);
  EXPECT_NE(tron.err.find("--select picks the coordinates of a CD algorithm; solver tron does not "
                          "use it (use -s cdper, "),
            std::string::npos)
      << tron.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("bad.model")));

  const auto help = test::run_tool("cdtrain", "-h");
  EXPECT_NE(help.out.find("--select rule"), std::string::npos);
  EXPECT_NE(help.out.find("[--select perm]"), std::string::npos);
}

}  // namespace
}  // namespace cdl
