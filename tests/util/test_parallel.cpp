#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>
#include <thread>
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

TEST(ThreadTeam, RunsEveryTaskOnceInEveryPass) {
  for (unsigned threads : {0u, 1u, 2u, 3u, 8u}) {
    ThreadTeam team(threads);
    EXPECT_GE(team.size(), 1u);
    EXPECT_LE(team.size(), std::max(threads, 1u));
    // Many short passes, as TRON's products: each task once per pass, and
    // run() returns only when the pass is done.
    for (std::size_t count : {0u, 1u, 2u, 5u, 64u, 3u, 1000u}) {
      std::vector<std::atomic<int>> runs(count);
      team.run(count, [&](std::size_t k) { ++runs[k]; });
      for (std::size_t k = 0; k < count; ++k) {
        ASSERT_EQ(runs[k], 1) << "task " << k << " of " << count << ", " << threads << " threads";
      }
    }
  }
}

TEST(ThreadTeam, WritesOfAPassAreSeenAfterIt) {
  ThreadTeam team(3);
  std::vector<double> out(10000);
  for (int pass = 1; pass <= 200; ++pass) {
    team.run(out.size() / 100, [&](std::size_t b) {
      for (std::size_t i = b * 100; i < (b + 1) * 100; ++i) out[i] = pass * static_cast<double>(i);
    });
    double sum = 0;
    for (double v : out) sum += v;
    ASSERT_EQ(sum, pass * 49995000.0) << "pass " << pass;
  }
}

TEST(ThreadTeam, RethrowsTheFirstErrorInTaskOrderAndStaysUsable) {
  ThreadTeam team(3);
  for (int attempt = 0; attempt < 20; ++attempt) {
    try {
      team.run(50, [](std::size_t k) {
        if (k == 7 || k == 30) throw std::runtime_error("task " + std::to_string(k));
      });
      FAIL() << "no exception";
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "task 7");
    }
    std::atomic<int> runs{0};
    team.run(50, [&](std::size_t) { ++runs; });
    EXPECT_EQ(runs, 50);
  }
}

// The helpers check for a pass for a while and then sleep: passes after
// pauses shorter and longer than that must find them either way. Each pass's
// two tasks wait for each other, so a pass passes only if two threads take
// part in it.
TEST(ThreadTeam, AHelperTakesPartAfterShortAndLongPauses) {
  for (unsigned threads : {2u, 8u}) {  // 8: more than most machines, it sleeps at once
    ThreadTeam team(threads);
    if (team.size() < 2) continue;  // the system gave no helper
    for (const int pause_us : {0, 20, 2000, 0, 5000, 50, 1000}) {
      const auto start = std::chrono::steady_clock::now();
      while (std::chrono::steady_clock::now() - start < std::chrono::microseconds(pause_us)) {
      }
      std::atomic<int> started{0};
      std::atomic<int> met{0};
      team.run(2, [&](std::size_t) {
        ++started;
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        while (started.load() < 2 && std::chrono::steady_clock::now() < deadline) {
          std::this_thread::yield();
        }
        if (started.load() == 2) ++met;
      });
      ASSERT_EQ(met, 2) << threads << " threads, after a pause of " << pause_us << " us";
    }
  }
}

// Terms of mixed sign and magnitude, so that the order of the additions
// shows in the bits.
std::vector<double> mixed_terms(std::size_t count) {
  std::vector<double> x(count);
  for (std::size_t j = 0; j < count; ++j) {
    x[j] = std::sin(0.37 * static_cast<double>(j)) * std::exp(static_cast<double>(j % 23) - 11.0);
  }
  return x;
}

TEST(ChunkedSum, AgreesWithOneSerialSumAndIsTheSameBitsOnAnyTeam) {
  const std::vector<double> x = mixed_terms(100003);
  double serial = 0;
  double magnitude = 0;
  for (double v : x) {
    serial += v;
    magnitude += std::fabs(v);
  }
  const auto part = [&](std::size_t first, std::size_t stop) {
    double s = 0;
    for (std::size_t j = first; j < stop; ++j) s += x[j];
    return s;
  };
  for (std::size_t chunk : {1u, 1000u, 16384u, 200000u}) {
    // The chunk sums added in chunk order, by hand.
    double by_chunks = 0;
    for (std::size_t first = 0; first < x.size(); first += chunk) {
      by_chunks += part(first, std::min(x.size(), first + chunk));
    }
    std::vector<double> sums;
    for (unsigned threads : {1u, 2u, 3u}) {
      ThreadTeam team(threads);
      for (int pass = 0; pass < 5; ++pass) {
        const double total = chunked_sum(team, x.size(), chunk, sums, part);
        EXPECT_EQ(total, by_chunks) << "chunk " << chunk << ", " << threads << " threads";
        EXPECT_NEAR(total, serial, 1e-12 * magnitude) << "chunk " << chunk;
      }
    }
  }
  ThreadTeam team(2);
  std::vector<double> sums;
  EXPECT_EQ(chunked_sum(team, 0, 16, sums, part), 0.0);
}

}  // namespace
}  // namespace cdl
