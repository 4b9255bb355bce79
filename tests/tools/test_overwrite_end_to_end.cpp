// No tool overwrites its own input: a model, trace or prediction path that
// names an input file (directly or through a link) is a usage error, and the
// input stays byte for byte.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "test_util.h"

namespace cdl::test {
namespace {

const char kData[] = "1 1:1 2:0.5\n-1 1:-1\n1 2:2\n-1 1:-0.5 2:-1\n";

TEST(NoOverwrite, ModelPathNamingTheTrainingFile) {
  ScratchDir dir;
  const std::string data = dir.write("d.svm", kData);
  std::filesystem::create_symlink(data, dir.file("link.svm"));
  for (const std::string& model : {data, dir.file("link.svm")}) {
    const CommandResult result = run_tool("cdtrain", "-q " + data + " " + model);
    EXPECT_EQ(result.status, 2);
    EXPECT_EQ(result.err.substr(0, result.err.find('\n')), "cdtrain: error: model_file '" + model +
                                                               "' is the input file '" + data +
                                                               "'; refusing to overwrite it");
    EXPECT_EQ(read_file(data), kData);
  }
}

TEST(NoOverwrite, TracePathNamingAnInputOrTheModel) {
  ScratchDir dir;
  const std::string data = dir.write("d.svm", kData);
  const std::string test = dir.write("t.svm", kData);
  const std::string model = dir.file("d.model");
  CommandResult result =
      run_tool("cdtrain", "-q --trace " + test + " -t " + test + " " + data + " " + model);
  EXPECT_EQ(result.status, 2);
  EXPECT_EQ(result.err.substr(0, result.err.find('\n')), "cdtrain: error: --trace '" + test +
                                                             "' is the input file '" + test +
                                                             "'; refusing to overwrite it");
  result = run_tool("cdtrain", "-q --trace " + model + " " + data + " " + model);
  EXPECT_EQ(result.status, 2);
  EXPECT_EQ(result.err.substr(0, result.err.find('\n')),
            "cdtrain: error: --trace and model_file are both '" + model + "'");
  // The same file by another name.
  const std::string other_name = dir.file(
      "../" + std::filesystem::path(dir.file("")).parent_path().filename().string() + "/d.model");
  result = run_tool("cdtrain", "-q --trace " + other_name + " " + data + " " + model);
  EXPECT_EQ(result.status, 2);
  EXPECT_EQ(result.err.substr(0, result.err.find('\n')),
            "cdtrain: error: --trace and model_file are both '" + model + "'");
  EXPECT_EQ(read_file(test), kData);
  EXPECT_FALSE(std::filesystem::exists(model));
}

TEST(NoOverwrite, ContinuingFromAModelMayReplaceIt) {
  ScratchDir dir;
  const std::string data = dir.write("d.svm", kData);
  const std::string model = dir.file("d.model");
  ASSERT_EQ(run_tool("cdtrain", "-q -e 0.5 " + data + " " + model).status, 0);
  EXPECT_EQ(run_tool("cdtrain", "-q -i " + model + " " + data + " " + model).status, 0);
}

TEST(NoOverwrite, PredictionsNamingTheTestFileOrTheModel) {
  ScratchDir dir;
  const std::string data = dir.write("d.svm", kData);
  const std::string model = dir.file("d.model");
  ASSERT_EQ(run_tool("cdtrain", "-q " + data + " " + model).status, 0);
  const std::string model_text = read_file(model);
  for (const std::string& output : {data, model}) {
    const CommandResult result = run_tool("cdpredict", data + " " + model + " " + output);
    EXPECT_EQ(result.status, 2);
    EXPECT_EQ(result.err.substr(0, result.err.find('\n')),
              "cdpredict: error: output_file '" + output + "' is the input file '" + output +
                  "'; refusing to overwrite it");
  }
  EXPECT_EQ(read_file(data), kData);
  EXPECT_EQ(read_file(model), model_text);
}

}  // namespace
}  // namespace cdl::test
