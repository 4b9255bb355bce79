// cdtrain -s 1 and -s 3 (dual CD) with --partitions on one binary problem:
// -m 1, 2 and 3 write the same model file byte for byte; --partitions 1 is
// the serial solver's model; the header names the parts; bad values (for
// dcd and cdper) are usage errors that leave no model file.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "test_util.h"

namespace cdl {
namespace {

TEST(PartitionsEndToEnd, SameModelBytesForAnyThreadCount) {
  test::ScratchDir dir;
  // Two classes, 77,739 nonzeros: the parts run on the threads.
  const std::string data = test::data_path("rcv1_small");
  for (const std::string solver : {"1", "3"}) {
    SCOPED_TRACE("-s " + solver);
    std::string first;
    for (const std::string threads : {"1", "2", "3"}) {
      const std::string model = dir.file("s" + solver + "m" + threads + ".model");
      const auto run = test::run_tool(
          "cdtrain", "-s " + solver + " --partitions 4 -m " + threads + " " + data + " " + model);
      ASSERT_EQ(run.status, 0) << run.err;
      EXPECT_EQ(run.err.find("warning"), std::string::npos) << run.err;
      EXPECT_NE(run.err.find(", 4 partitions\n"), std::string::npos) << run.err;
      if (threads == "1") {
        first = test::read_file(model);
        ASSERT_FALSE(first.empty());
      } else {
        EXPECT_EQ(test::read_file(model), first);
      }
    }
  }
}

// rcv1_small is below the default's threshold: one partition, the serial
// solver (the header says nothing of parts), whose model --partitions 1 also
// writes.
TEST(PartitionsEndToEnd, OnePartitionIsTheDefaultOnSmallData) {
  test::ScratchDir dir;
  const std::string data = test::data_path("rcv1_small");
  const auto plain = test::run_tool("cdtrain", "-s 1 " + data + " " + dir.file("a.model"));
  ASSERT_EQ(plain.status, 0) << plain.err;
  EXPECT_EQ(plain.err.find("partition"), std::string::npos) << plain.err;
  const auto one =
      test::run_tool("cdtrain", "-s 1 --partitions 1 " + data + " " + dir.file("b.model"));
  ASSERT_EQ(one.status, 0) << one.err;
  EXPECT_NE(one.err.find("), 1 partition\n"), std::string::npos) << one.err;
  EXPECT_EQ(test::read_file(dir.file("a.model")), test::read_file(dir.file("b.model")));
  // -m on one partition has nothing to run at once.
  const auto threads = test::run_tool("cdtrain", "-s 1 -m 2 " + data + " " + dir.file("c.model"));
  ASSERT_EQ(threads.status, 0) << threads.err;
  EXPECT_NE(threads.err.find("warning: -m 2"), std::string::npos) << threads.err;
}

TEST(PartitionsEndToEnd, BadValuesAreUsageErrors) {
  test::ScratchDir dir;
  const std::string data = test::data_path("heart_scale");
  const std::string model = dir.file("m.model");
  const std::string range = "--partitions: expected an integer from 1 to 4096, got ";
  const std::string other = "--partitions splits one solve into fixed blocks; solver ";
  // Both solvers that take --partitions (cdper, the default, and dcd)
  // parse it alike; the others refuse it.
  const struct {
    std::string args;
    std::string message;
  } cases[] = {
      {"-s 1 --partitions 0", range + "'0'"},
      {"-s 1 --partitions 4097", range + "'4097'"},
      {"-s 1 --partitions 2x", range + "'2x'"},
      {"-s 1 --partitions -2", range + "'-2'"},
      {"-s 1 --partitions ''", range + "''"},
      {"--partitions 0", range + "'0'"},
      {"--partitions -2", range + "'-2'"},
      {"--partitions 1.5", range + "'1.5'"},
      {"--partitions two", range + "'two'"},
      {"--partitions 99999999999999999999", range + "'99999999999999999999'"},
      {"--partitions 2000000", range + "'2000000'"},
      {"--partitions ''", range + "''"},
      {"-s 7 --partitions 2", other + "dcd-lr does not use it"},
      {"-s 12 --partitions 2", other + "dcd-svr does not use it"},
      {"-s cd --partitions 2", other + "cd does not use it"},
      {"-s pegasos --partitions 2", other + "pegasos does not use it"},
      {"-s 1 --select cyclic --partitions 2",
       "--partitions 2: each block runs rule perm; rule cyclic runs on one block only"},
      {"--select cyclic --partitions 2",
       "--partitions 2: each block runs rule perm; rule cyclic runs on one block only"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.args);
    const auto run = test::run_tool("cdtrain", c.args + " " + data + " " + model);
    EXPECT_EQ(run.status, 2);
    EXPECT_NE(run.err.find(c.message), std::string::npos) << run.err;
    EXPECT_FALSE(std::filesystem::exists(model));
  }
}

// Cross-validation folds (held-out rows) and -wi on parts: -v runs, and
// run to -e 1e-6 its accuracy is the serial solver's exactly. Each fold's
// primal is strongly convex, so both reach the same w to about 1e-6, and
// no held-out row of heart_scale lies that close to the boundary (at the
// default eps the two differ by one row, 0.37 points). The partitioned
// run's line is the same with -m 1, 2 and 3.
TEST(PartitionsEndToEnd, CrossValidationAndClassWeights) {
  const std::string data = test::data_path("heart_scale");
  const std::string options = "-s 3 -v 5 -w1 2 -e 1e-6 ";
  const auto serial = test::run_tool("cdtrain", options + "--partitions 1 " + data);
  ASSERT_EQ(serial.status, 0) << serial.err;
  const std::size_t at = serial.out.find("Cross Validation Accuracy = ");
  ASSERT_NE(at, std::string::npos) << serial.out;
  const std::string line = serial.out.substr(at);
  for (const std::string threads : {"1", "2", "3"}) {
    const auto parts =
        test::run_tool("cdtrain", options + "--partitions 3 -m " + threads + " " + data);
    ASSERT_EQ(parts.status, 0) << parts.err;
    EXPECT_NE(parts.out.find(line), std::string::npos) << parts.out << " / " << line;
  }
}

}  // namespace
}  // namespace cdl
