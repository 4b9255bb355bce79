// cdtrain -s 0 and -s 2 (TRON) on one binary problem with -m 1 and -m 2: the
// same model file byte for byte, and no warning that -m has nothing to do.
#include <gtest/gtest.h>

#include <string>

#include "test_util.h"

namespace cdl {
namespace {

TEST(TronThreadsEndToEnd, SameModelBytesForOneAndTwoThreads) {
  test::ScratchDir dir;
  const std::string data = test::data_path("rcv1_small");  // two classes
  for (const std::string solver : {"0", "2"}) {
    SCOPED_TRACE("-s " + solver);
    std::string first;
    for (const std::string threads : {"1", "2"}) {
      const std::string model = dir.file("s" + solver + "m" + threads + ".model");
      const auto run =
          test::run_tool("cdtrain", "-s " + solver + " -m " + threads + " " + data + " " + model);
      ASSERT_EQ(run.status, 0) << run.err;
      EXPECT_EQ(run.err.find("warning"), std::string::npos) << run.err;
      if (threads == "1") {
        first = test::read_file(model);
        ASSERT_FALSE(first.empty());
      } else {
        EXPECT_EQ(test::read_file(model), first);
      }
    }
  }
}

}  // namespace
}  // namespace cdl
