// docs/library-example.cpp, built by make against the public header and the
// library alone (make test sets CDL_LIBRARY_EXAMPLE to the program): its
// output, and the model it saves, which is cdtrain's.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "test_util.h"

namespace cdl {
namespace {

std::string example_path() {
  const char* path = std::getenv("CDL_LIBRARY_EXAMPLE");
  if (path != nullptr) return path;
  return (std::filesystem::path(test::absolute_data_path("")).parent_path().parent_path() /
          "build" / "library-example")
      .string();
}

TEST(LibraryExample, TrainsSavesLoadsPredictsAndCatchesTheMalformedFile) {
  test::ScratchDir dir;
  ASSERT_TRUE(std::filesystem::exists(example_path()))
      << example_path() << " is not built (make test builds it)";
  const auto r = test::run_script(dir, "mkdir run && '" + example_path() +
                                           "' \"$DATA/heart_scale\" run && \"$CDTRAIN\" -q "
                                           "\"$DATA/heart_scale\" tool.model && \"$CDPREDICT\" "
                                           "\"$DATA/heart_scale\" tool.model tool.out");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(r.err, "");
  // The model it saved (cdper, the default) is cdtrain's, and its accuracy
  // cdpredict's.
  EXPECT_EQ(test::read_file(dir.file("run/heart_scale.model")),
            test::read_file(dir.file("tool.model")));
  const std::size_t at = r.out.rfind("Accuracy = ");
  ASSERT_NE(at, std::string::npos) << r.out;
  char accuracy[32];
  std::snprintf(accuracy, sizeof accuracy, "%.4f", std::stod(r.out.substr(at + 11)));
  EXPECT_NE(r.out.find("270 instances, 13 features\n"), std::string::npos) << r.out;
  EXPECT_NE(
      r.out.find("default (L2R_L2LOSS_SVC): training accuracy " + std::string(accuracy) + "%\n"),
      std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("-s 2 (L2R_L2LOSS_SVC): training accuracy "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("loaded: same text yes; instance 1: label 1, decision value "),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("caught: line 2: feature index 2 not greater than previous index 3"),
            std::string::npos)
      << r.out;
}

TEST(LibraryExample, UsageAndErrorsExitAsTheToolsDo) {
  test::ScratchDir dir;
  const auto usage = test::run_script(dir, "'" + example_path() + "'");
  EXPECT_EQ(usage.status, 2);
  const auto missing = test::run_script(dir, "'" + example_path() + "' absent.svm .");
  EXPECT_EQ(missing.status, 1);
  EXPECT_EQ(missing.err.rfind("error: ", 0), 0u) << missing.err;
  EXPECT_NE(missing.err.find("absent.svm"), std::string::npos) << missing.err;
}

}  // namespace
}  // namespace cdl
