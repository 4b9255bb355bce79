// Drives the issue-12 Lasso experiments (experiments/lasso.sh) through
// the library: the Lasso f(w) = ||w||_1 + C sum_j (y_j - w'x_j)^2 by the
// primal L1 CD loop (solve_cd_l1) with each --select rule, several seeds,
// from w = 0, writing one CSV row per epoch (n coordinate steps):
//   data,rule,seed,epoch,objective,grad,gap
// with grad the loop's stored minimum-norm subgradient norm and gap the
// duality gap (21) with the bound B (lasso_duality_gap, the --trace column).
//
// Unlike cdtrain, every rule runs here WITHOUT the loop's shrinking
// (SelectionRule::solver_may_shrink() is false for all), as in the papers'
// CD, so that only the selection differs: with shrinking and an eps that
// never passes, a feature shrunk early is never put back and the static
// rules stall (docs/experiments.md).
//
//   lasso_run DATA C EPOCHS SEEDS RULE[,RULE...]
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "data/libsvm_reader.h"
#include "data/problem.h"
#include "objective/evaluate.h"
#include "objective/regression_objective.h"
#include "select/selection_rule.h"
#include "solvers/params.h"
#include "solvers/report.h"
#include "solvers/solver.h"

namespace {

// The rule, with the solver's shrinking turned off.
class NoShrink final : public cdl::SelectionRule {
 public:
  explicit NoShrink(std::unique_ptr<cdl::SelectionRule> rule) : rule_(std::move(rule)) {}
  cdl::CoordinateBatch next_batch() override { return rule_->next_batch(); }
  bool visits_all() const override { return rule_->visits_all(); }
  bool wants_feedback() const override { return rule_->wants_feedback(); }
  void feedback(const cdl::StepFeedback& step) override { rule_->feedback(step); }
  bool solver_may_shrink() const override { return false; }

 private:
  void on_start_epoch() override { rule_->start_epoch(); }
  std::unique_ptr<cdl::SelectionRule> rule_;
};

struct Row {
  std::int64_t epoch;
  double objective, grad, gap;
};

class Recorder final : public cdl::Reporter {
 public:
  Recorder(std::ostream& sink, const cdl::Problem& problem)
      : Reporter(sink, Level::kQuiet), problem_(problem) {}
  void iteration(const cdl::IterationInfo& info) override {
    rows.push_back({info.iteration, info.objective, info.grad_norm,
                    cdl::lasso_duality_gap(problem_, *info.w)});
  }
  bool wants_w() const override { return true; }
  std::vector<Row> rows;

 private:
  const cdl::Problem& problem_;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 6) {
    std::cerr << "usage: lasso_run DATA C EPOCHS SEEDS RULE[,RULE...]\n";
    return 2;
  }
  const std::string path = argv[1];
  const double C = std::atof(argv[2]);
  const std::int64_t epochs = std::atoll(argv[3]);
  const int seeds = std::atoi(argv[4]);
  std::vector<std::string> rules;
  std::stringstream list(argv[5]);
  for (std::string r; std::getline(list, r, ',');) rules.push_back(r);

  const cdl::LabeledCsc file = cdl::read_libsvm_csc(path, cdl::ReadOptions{});
  const cdl::Problem problem = cdl::regression_problem(file.features, file.labels, C);
  const cdl::Regularizer regularizer = cdl::Regularizer::of(cdl::RegularizerKind::kL1);
  cdl::Params params;
  params.solver = cdl::SolverKind::kCd;
  params.loss = cdl::LossKind::kSquared;
  params.regularizer = cdl::RegularizerKind::kL1;
  params.max_iter = epochs;
  params.eps = 0.0;

  std::printf("data,rule,seed,epoch,objective,grad,gap\n");
  std::ostringstream sink;
  for (const std::string& name : rules) {
    const cdl::RuleInfo* info = cdl::find_rule(name);
    if (info == nullptr) {
      std::cerr << "lasso_run: unknown rule " << name << "\n";
      return 2;
    }
    for (int seed = 1; seed <= (info->randomized ? seeds : 1); ++seed) {
      cdl::RuleContext context{problem.num_features(), static_cast<std::uint64_t>(seed),
                               &problem.x()};
      context.lasso = &problem;
      NoShrink rule(cdl::make_rule(name, context));
      cdl::RegressionObjective<cdl::SquaredLoss> objective(problem, regularizer,
                                                           cdl::SquaredLoss{});
      Recorder recorder(sink, problem);
      cdl::solve_cd_l1(objective, rule, params, regularizer, 0.0, problem.num_rows(), recorder);
      for (const Row& r : recorder.rows) {
        std::printf("%s,%s,%d,%lld,%.17g,%.17g,%.17g\n", path.c_str(), name.c_str(), seed,
                    static_cast<long long>(r.epoch), r.objective, r.grad, r.gap);
      }
    }
    std::cerr << "[lasso_run] " << path << ": " << name << " done\n";
  }
  return 0;
}
