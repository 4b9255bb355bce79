#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <string>
#include <vector>

#include "util/parallel.h"

namespace cdl {
namespace {

TEST(RunTasks, RunsEveryTaskOnceForAnyThreadCount) {
  for (unsigned threads : {0u, 1u, 2u, 7u, 100u}) {
    std::vector<std::atomic<int>> runs(37);
    const auto errors = run_tasks(runs.size(), threads, [&](std::size_t k) { ++runs[k]; });
    ASSERT_EQ(errors.size(), runs.size());
    for (std::size_t k = 0; k < runs.size(); ++k) {
      EXPECT_EQ(runs[k], 1) << "task " << k << ", " << threads << " threads";
      EXPECT_FALSE(errors[k]);
    }
  }
}

TEST(RunTasks, NoTasksIsNoWork) {
  EXPECT_TRUE(run_tasks(0, 4, [](std::size_t) {}).empty());
}

TEST(RunTasks, ErrorsStayWithTheirTaskAndTheOthersStillRun) {
  std::vector<std::atomic<int>> runs(10);
  const auto errors = run_tasks(runs.size(), 3, [&](std::size_t k) {
    ++runs[k];
    if (k % 4 == 1) throw std::runtime_error("task " + std::to_string(k));
  });
  for (std::size_t k = 0; k < runs.size(); ++k) {
    EXPECT_EQ(runs[k], 1);
    EXPECT_EQ(static_cast<bool>(errors[k]), k % 4 == 1) << k;
  }
  try {
    run_tasks_or_throw(runs.size(), 3, [](std::size_t k) {
      if (k >= 5) throw std::runtime_error("task " + std::to_string(k));
    });
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "task 5");  // the first in task order, not in time
  }
}

}  // namespace
}  // namespace cdl
