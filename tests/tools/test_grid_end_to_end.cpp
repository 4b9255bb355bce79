// tools/grid.sh: the warning when the best C is at an end of the grid, and
// the training command it prints, which must work from any directory.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "test_util.h"

namespace cdl {
namespace {

namespace fs = std::filesystem;

// tools/grid.sh of this repository (data/ is in its root).
std::string grid_script() {
  return (fs::path(test::absolute_data_path("")).parent_path().parent_path() / "tools" / "grid.sh")
      .string();
}

// Runs grid.sh in a scratch directory on a data set (of data/, or of
// `from`) given relative to it, with the cdtrain of this build.
test::CommandResult run_grid(const test::ScratchDir& dir, const std::string& data,
                             const std::string& from = "$DATA/") {
  return test::run_script(dir, "mkdir -p here && cp \"" + from + data +
                                   "\" here/ && CDTRAIN=\"$CDTRAIN\" bash '" + grid_script() +
                                   "' -v 3 here/" + data);
}

TEST(GridScript, WarnsWhenTheBestCIsTheSmallestOfTheGrid) {
  // Two classes that feature 1 separates by a wide margin: every C and loss
  // scores 100%, and on ties the smallest C, 2^-5, wins. (heart_scale does
  // the same with real data: its best is logistic regression at 2^-5.)
  test::ScratchDir dir;
  std::string data;
  for (int i = 1; i <= 10; ++i) {
    data += "+1 1:" + std::to_string(i) + " 2:0.5\n-1 1:-" + std::to_string(i) + " 2:0.5\n";
  }
  dir.write("separable", data);
  const auto r = run_grid(dir, "separable", dir.file(""));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("Best: C = 0.03125, loss l2svm, CV accuracy 100%"), std::string::npos)
      << r.out;
  EXPECT_NE(r.err.find("grid.sh: warning: the best C, 0.03125 = 2^-5, is the smallest C of the "
                       "grid; a smaller C may do better"),
            std::string::npos)
      << r.err;
  // The printed command, run from another directory, trains the model there.
  const auto line = r.out.find("Train it: ");
  ASSERT_NE(line, std::string::npos);
  const std::string command = r.out.substr(line + 10, r.out.find('\n', line) - line - 10);
  EXPECT_EQ(command.find(' '), command.find(" -s "));  // the paths are absolute: no "./"
  EXPECT_EQ(command.front(), '/');
  const auto train = test::run_script(dir, "mkdir -p elsewhere && cd elsewhere && " + command +
                                               " > /dev/null 2>&1 && test -s separable.model");
  EXPECT_EQ(train.status, 0) << command << "\n" << train.out << train.err;
}

TEST(GridScript, NoWarningWhenTheBestCIsInside) {
  // On unscaled svmguide1 the best C is 2 (log2 C = 1): inside the grid.
  test::ScratchDir dir;
  const auto r = run_grid(dir, "svmguide1");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("Best: C = "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("Best: C = 0.03125,"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("Best: C = 32,"), std::string::npos) << r.out;
  EXPECT_EQ(r.err.find("warning"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace cdl
