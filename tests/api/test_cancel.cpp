// TrainOptions::on_iteration and cancel: every solver reports each outer
// iteration, and a cancel asked for there stops training with Cancelled,
// leaving nothing behind that changes the next run.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <mutex>
#include <string>
#include <vector>

#include "cdlinear.h"
#include "solvers/liblinear_numbers.h"
#include "solvers/solver_table.h"
#include "test_util.h"

namespace cdl {
namespace {

// Every LIBLINEAR number and every solver by name (with its default loss).
std::vector<std::string> every_solver() {
  std::vector<std::string> out;
  for (const LiblinearNumber& n : liblinear_numbers()) out.push_back(std::to_string(n.number));
  for (const SolverInfo& row : solver_table()) out.push_back(row.name);
  return out;
}

TEST(Cancel, EverySolverStopsAtItsFirstIteration) {
  const cdlinear::Data data = cdlinear::Data::read(test::data_path("heart_scale"));
  std::size_t solvers = 0;
  for (const std::string& solver : every_solver()) {
    SCOPED_TRACE("solver " + solver);
    cdlinear::TrainOptions options;
    options.solver = solver;
    const std::string reference = cdlinear::train(data, options).to_string();
    ++solvers;
    // The callback asks to stop.
    int calls = 0;
    options.on_iteration = [&](const cdlinear::IterationProgress& p) {
      ++calls;
      EXPECT_EQ(p.iteration, 1);
      EXPECT_EQ(p.problem, 0u);
      return false;
    };
    EXPECT_THROW(cdlinear::train(data, options), cdlinear::Cancelled);
    EXPECT_EQ(calls, 1);
    // The flag, set from the callback, is read after it.
    std::atomic<bool> cancel{false};
    calls = 0;
    options.cancel = &cancel;
    options.on_iteration = [&](const cdlinear::IterationProgress&) {
      ++calls;
      cancel = true;
      return true;
    };
    EXPECT_THROW(cdlinear::train(data, options), cdlinear::Cancelled);
    EXPECT_EQ(calls, 1);
    // Nothing of the cancelled runs is left to change the next one.
    cancel = false;
    options.on_iteration = nullptr;
    EXPECT_EQ(cdlinear::train(data, options).to_string(), reference);
  }
  EXPECT_EQ(solvers, every_solver().size());
}

TEST(Cancel, ProgressIsEveryIterationOfEveryClassOnThreads) {
  const cdlinear::Data data = cdlinear::Data::read(test::data_path("dna.scale"));
  cdlinear::TrainOptions options;
  options.solver = "dcd";
  options.threads = 3;
  std::mutex mutex;
  std::vector<std::vector<cdlinear::IterationProgress>> heard(3);
  options.on_iteration = [&](const cdlinear::IterationProgress& p) {
    const std::lock_guard<std::mutex> lock(mutex);
    EXPECT_LT(p.problem, 3u);
    if (p.problem < 3) heard[p.problem].push_back(p);
    return true;
  };
  const cdlinear::Model model = cdlinear::train(data, options);
  ASSERT_EQ(model.iterations().size(), 3u);
  for (std::size_t k = 0; k < 3; ++k) {
    SCOPED_TRACE(k);
    ASSERT_EQ(heard[k].size(), static_cast<std::size_t>(model.iterations()[k]));
    for (std::size_t i = 0; i < heard[k].size(); ++i) {
      EXPECT_EQ(heard[k][i].iteration, static_cast<std::int64_t>(i + 1));
      EXPECT_FALSE(std::isnan(heard[k][i].objective));
    }
  }
  // A flag set on the third iteration of any class stops them all.
  std::atomic<bool> cancel{false};
  options.cancel = &cancel;
  options.on_iteration = [&](const cdlinear::IterationProgress& p) {
    if (p.iteration == 3) cancel = true;
    return true;
  };
  EXPECT_THROW(cdlinear::train(data, options), cdlinear::Cancelled);
}

TEST(Cancel, SearchStopsBetweenValuesOfC) {
  const cdlinear::Data data = cdlinear::Data::read(test::data_path("heart_scale"));
  std::atomic<bool> cancel{true};
  cdlinear::TrainOptions options;
  options.cancel = &cancel;
  EXPECT_THROW(cdlinear::search_C(data, 3, options), cdlinear::Cancelled);
  options.loss = "sq";
  EXPECT_THROW(cdlinear::search_C(data, 3, options), cdlinear::Cancelled);
}

}  // namespace
}  // namespace cdl
