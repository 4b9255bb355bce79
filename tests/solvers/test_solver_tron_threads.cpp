// TRON on threads (-m): the weights are the same bits for 1, 2, 3 and 4
// threads, for L2-SVM and logistic regression on real data, and f is the
// objective of those weights by the independent evaluation; the
// whole-vector objective's products are the same bits on any team.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "data/problem.h"
#include "objective/evaluate.h"
#include "objective/vector_objective.h"
#include "solver_test_util.h"
#include "solvers/params.h"
#include "solvers/solver_table.h"
#include "train/train.h"

namespace cdl {
namespace {

using test::problem_of;
using test::RecordingReporter;

SolveResult solve_tron_on(const std::string& name, LossKind loss, unsigned threads) {
  Params params;
  params.solver = SolverKind::kTron;
  params.loss = loss;
  params.eps = 0.001;  // more CG steps, on more iterations, than -e's default
  params.threads = threads;
  params = resolve_defaults(params);
  validate(params);
  RecordingReporter reporter;
  return train_binary(problem_of(name), params, 1, reporter);
}

class TronThreads : public ::testing::TestWithParam<std::tuple<std::string, LossKind>> {};

TEST_P(TronThreads, SameWeightsForAnyThreadCount) {
  const auto& [name, loss] = GetParam();
  // Large enough that the products run on the team (more than 65,536
  // nonzeros: rcv1_small has 77,739, in 2 blocks of rows and 13 of columns).
  ASSERT_GT(test::load(name).rows.nnz(), 1u << 16);
  const SolveResult one = solve_tron_on(name, loss, 1);
  ASSERT_EQ(one.status, Status::kConverged);
  ASSERT_GT(one.inner_iterations, 5);
  for (unsigned threads : {2u, 3u, 4u}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    const SolveResult many = solve_tron_on(name, loss, threads);
    EXPECT_EQ(many.w, one.w);
    EXPECT_EQ(many.objective, one.objective);
    EXPECT_EQ(many.grad_norm, one.grad_norm);
    EXPECT_EQ(many.iterations, one.iterations);
    EXPECT_EQ(many.inner_iterations, one.inner_iterations);
    // f is the objective of the returned w, by the evaluation from the CSC.
    const double f = evaluate(problem_of(name), loss, many.w).objective;
    EXPECT_NEAR(many.objective, f, 1e-12 * std::fabs(f));
  }
}

// --partitions 21 (more blocks than a process keeps vectors for: it adds
// them 7 at a time): the same bits for 1 to 4 threads, and f is the
// objective of the weights.
TEST(TronThreads, ManyPartitionsSameWeightsForAnyThreadCount) {
  const auto solve = [](unsigned threads) {
    Params params;
    params.solver = SolverKind::kTron;
    params.loss = LossKind::kLogistic;
    params.own<PartitionOptions>().count = 21;
    params.threads = threads;
    params = resolve_defaults(params);
    validate(params);
    RecordingReporter reporter;
    return train_binary(problem_of("a9a"), params, 1, reporter);
  };
  const SolveResult one = solve(1);
  ASSERT_EQ(one.status, Status::kConverged);
  for (unsigned threads : {2u, 3u, 4u}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    EXPECT_EQ(solve(threads).w, one.w);
  }
  const double f = evaluate(problem_of("a9a"), LossKind::kLogistic, one.w).objective;
  EXPECT_NEAR(one.objective, f, 1e-12 * std::fabs(f));
}

INSTANTIATE_TEST_SUITE_P(RealData, TronThreads,
                         ::testing::Combine(::testing::Values("rcv1_small", "a9a"),
                                            ::testing::Values(LossKind::kL2Svm,
                                                              LossKind::kLogistic)),
                         [](const auto& test_info) {
                           return std::get<0>(test_info.param) +
                                  (std::get<1>(test_info.param) == LossKind::kL2Svm ? "_l2svm"
                                                                                    : "_lr");
                         });

// The bits of each element (operator== takes -0 for 0; a model file does not).
std::vector<std::uint64_t> bits(const std::vector<double>& v) {
  std::vector<std::uint64_t> out(v.size());
  std::memcpy(out.data(), v.data(), v.size() * sizeof(double));
  return out;
}

// f, grad f and Hs at a random w, from an objective alone (the serial scatter
// of the rows) and on teams of 2 and 3 threads (by columns): the same bits,
// also where s has zeros of both signs and (for L2-SVM) many rows are inactive.
TEST(TronThreadsObjective, ProductsAreTheSameBitsOnAnyTeam) {
  const Problem problem = problem_of("rcv1_small");
  std::mt19937_64 random(7);
  std::normal_distribution<double> normal(0.0, 0.3);
  std::vector<double> w(problem.num_features());
  std::vector<double> s(problem.num_features());
  for (double& wi : w) wi = normal(random);
  for (std::size_t i = 0; i < s.size(); ++i) {
    s[i] = i % 3 == 0 ? -0.0 : i % 3 == 1 ? 0.0 : normal(random);
  }
  for (LossKind loss : {LossKind::kL2Svm, LossKind::kLogistic}) {
    auto alone = make_vector_objective(loss, problem, Regularizer::l2_only(), 1);
    const double f = alone->evaluate(w);
    std::vector<double> g, hs;
    alone->gradient(g);
    alone->hess_vec(s, hs);
    for (unsigned threads : {2u, 3u}) {
      SCOPED_TRACE(std::to_string(threads) + " threads");
      auto team = make_vector_objective(loss, problem, Regularizer::l2_only(), threads);
      EXPECT_EQ(bits({team->evaluate(w)}), bits({f}));
      std::vector<double> team_g, team_hs;
      team->gradient(team_g);
      EXPECT_EQ(bits(team_g), bits(g));
      team->hess_vec(s, team_hs);
      EXPECT_EQ(bits(team_hs), bits(hs));
      EXPECT_EQ(team->gradient_norm_at_zero(), alone->gradient_norm_at_zero());
    }
  }
}

TEST(TronThreadsObjective, TheRowSaysItSolvesOnThreads) {
  EXPECT_TRUE(solver_info(SolverKind::kTron).solve_on_threads);
}

}  // namespace
}  // namespace cdl
