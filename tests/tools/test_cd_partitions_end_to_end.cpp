// cdtrain --partitions (partitioned CD on cdper): -m 1, 2 and 3 write the
// same model bytes for the default L2-SVM, -s 5, -s 6 and the L2-loss SVR;
// --partitions 1 is the serial solver's model; the header names the
// partitions. Bad values: test_partitions_end_to_end.cpp.
#include <gtest/gtest.h>

#include <string>

#include "test_util.h"

namespace cdl {
namespace {

TEST(CdPartitionsEndToEnd, SameModelBytesForAnyThreadCount) {
  test::ScratchDir dir;
  const std::string data = test::data_path("rcv1_small");
  for (const std::string solver : {"", "-s 5 ", "-s 6 ", "-s cdper -l svr2 "}) {
    SCOPED_TRACE("[" + solver + "]");
    std::string first;
    for (const std::string threads : {"1", "2", "3"}) {
      const std::string model = dir.file("m" + threads + ".model");
      const auto run = test::run_tool(
          "cdtrain", solver + "--partitions 3 -m " + threads + " " + data + " " + model);
      ASSERT_EQ(run.status, 0) << run.err;
      EXPECT_EQ(run.err.find("warning"), std::string::npos) << run.err;
      EXPECT_NE((run.out + run.err).find("3 partitions"), std::string::npos) << run.out;
      if (threads == "1") {
        first = test::read_file(model);
        ASSERT_FALSE(first.empty());
      } else {
        EXPECT_EQ(test::read_file(model), first);
      }
    }
  }
}

TEST(CdPartitionsEndToEnd, OnePartitionIsTheSerialSolver) {
  test::ScratchDir dir;
  const std::string data = test::data_path("a9a");
  const auto serial = test::run_tool("cdtrain", "-q " + data + " " + dir.file("serial.model"));
  ASSERT_EQ(serial.status, 0) << serial.err;
  const auto one =
      test::run_tool("cdtrain", "-q --partitions 1 -m 2 " + data + " " + dir.file("one.model"));
  ASSERT_EQ(one.status, 0) << one.err;
  EXPECT_EQ(test::read_file(dir.file("one.model")), test::read_file(dir.file("serial.model")));
}

TEST(CdPartitionsEndToEnd, CrossValidationWithBiasAndWeightsIsTheSameOnAnyThreads) {
  const std::string data = test::data_path("heart_scale");
  const std::string args = "-v 4 -B 1 -w1 2 --partitions 2 ";
  const auto one = test::run_tool("cdtrain", args + "-m 1 " + data);
  const auto two = test::run_tool("cdtrain", args + "-m 2 " + data);
  ASSERT_EQ(one.status, 0) << one.err;
  ASSERT_EQ(two.status, 0) << two.err;
  EXPECT_NE(one.out.find("Cross Validation Accuracy"), std::string::npos) << one.out;
  const auto accuracy_line = [](const std::string& out) {
    const std::size_t at = out.find("Cross Validation");
    return out.substr(at, out.find('\n', at) - at);
  };
  EXPECT_EQ(accuracy_line(one.out), accuracy_line(two.out));
}

}  // namespace
}  // namespace cdl
