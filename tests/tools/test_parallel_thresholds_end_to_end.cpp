// cdtrain past the sizes where its parallel code switches on, on a file the
// test generates: 12,000 rows (more than the 4,096-row chunks in which
// cdper's line search sums the loss, solver_cd_partitioned.cpp's kRowChunk)
// and 1,080,000 nonzeros (at least kCdPartitionedNonzeros and dual CD's
// kPartitionedNonzeros, from which the default is 2 partitions). For the
// default solver and -s 1, 2, 3, 5, 6 and 11, -m 1, 2 and 3 write the same
// model file byte for byte, and the header says where the run is
// partitioned by default. Five outer iterations each (--max-iter 5) run the
// merges and the chunked sums many times, and the bits need no convergence:
// the runs stay short for make asan. The name leaves it out of
// PARALLEL_FILTER (make tsan-parallel), whose time on CI was not measured
// with it; make tsan runs it with the whole suite.
#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <vector>

#include "solvers/params.h"
#include "test_util.h"

namespace cdl {
namespace {

constexpr std::size_t kRows = 12000;
constexpr std::size_t kFeatures = 2000;
constexpr std::size_t kPerRow = 90;

struct Case {
  std::string options;
  bool partitioned;  // the default --partitions is 2 at this size
};

TEST(ParallelThresholds, OneModelFileForMOneTwoAndThree) {
  static_assert(kRows * kPerRow >= static_cast<std::size_t>(kCdPartitionedNonzeros));
  static_assert(kRows > 4096);
  test::ScratchDir dir;
  const std::string data =
      dir.write("generated.svm", test::sparse_libsvm_text(kRows, kFeatures, kPerRow));
  const std::vector<Case> cases = {
      {"", true},     {"-s 1", true}, {"-s 2", false},  {"-s 3", true},
      {"-s 5", true}, {"-s 6", true}, {"-s 11", false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.options.empty() ? "default" : c.options);
    std::string first;
    for (const std::string threads : {"1", "2", "3"}) {
      const std::string model = dir.file("m" + threads + ".model");
      const auto run = test::run_tool(
          "cdtrain", c.options + " --max-iter 5 -m " + threads + " " + data + " " + model);
      ASSERT_EQ(run.status, 0) << run.err;
      EXPECT_EQ(run.err.find(", 2 partitions (default)") != std::string::npos, c.partitioned)
          << run.err;
      if (threads == "1") {
        first = test::read_file(model);
        ASSERT_FALSE(first.empty());
      } else {
        EXPECT_EQ(test::read_file(model), first) << "-m " << threads;
      }
    }
  }
}

}  // namespace
}  // namespace cdl
