// Files the user may not read and directories the user may not write. The
// tools run as an unprivileged user: as themselves when the tests do, and
// through setpriv as nobody (uid 65534) when the tests run as root, who may
// read and write anything.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "test_util.h"

namespace cdl::test {
namespace {

namespace fs = std::filesystem;

// Runs a built tool unprivileged with `args`, capturing stderr. The tool is
// copied into `dir` first: the build directory may be one nobody can enter.
CommandResult run_unprivileged(const ScratchDir& dir, const std::string& tool,
                               const std::string& args) {
  const std::string prefix =
      geteuid() == 0 ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : "";
  const std::string copy = dir.file(tool);
  fs::copy_file(tool_path(tool), copy, fs::copy_options::overwrite_existing);
  const std::string err = dir.file("stderr");
  const std::string command = prefix + copy + " " + args + " 2>" + err;
  const int raw = std::system(command.c_str());
  return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, "", read_file(err)};
}

const char kData[] = "1 1:1 2:0.5\n-1 1:-1\n1 2:2\n-1 1:-0.5 2:-1\n";

// A scratch directory the unprivileged user can enter and write (for stderr).
void open_up(const ScratchDir& dir) { fs::permissions(dir.file(""), fs::perms::all); }

TEST(Permissions, UnreadableTrainingFile) {
  ScratchDir dir;
  open_up(dir);
  const std::string data = dir.write("d.svm", kData);
  fs::permissions(data, fs::perms::none);
  const std::string model = dir.file("d.model");
  const CommandResult result = run_unprivileged(dir, "cdtrain", "-q " + data + " " + model);
  EXPECT_EQ(result.status, 1);
  EXPECT_EQ(result.err,
            "cdtrain: error: " + data + ": cannot open for reading: Permission denied\n");
  EXPECT_FALSE(fs::exists(model));
}

TEST(Permissions, UnreadableModelFile) {
  ScratchDir dir;
  open_up(dir);
  const std::string data = dir.write("d.svm", kData);
  const std::string locked = dir.file("locked.model");
  fs::copy_file(fixture_path("heart_scale.liblinear.model"), locked);
  fs::permissions(locked, fs::perms::none);
  const std::string out = dir.file("out");
  const CommandResult result = run_unprivileged(dir, "cdpredict", data + " " + locked + " " + out);
  EXPECT_EQ(result.status, 1);
  EXPECT_EQ(result.err,
            "cdpredict: error: " + locked + ": cannot open for reading: Permission denied\n");
  EXPECT_FALSE(fs::exists(out));
}

TEST(Permissions, UnwritableOutputDirectoryFailsBeforeTraining) {
  ScratchDir dir;
  open_up(dir);
  const std::string data = dir.write("d.svm", kData);
  fs::create_directory(dir.file("ro"));
  fs::permissions(dir.file("ro"), fs::perms::owner_read | fs::perms::owner_exec |
                                      fs::perms::group_read | fs::perms::group_exec |
                                      fs::perms::others_read | fs::perms::others_exec);
  const std::string model = dir.file("ro/d.model");
  CommandResult result = run_unprivileged(dir, "cdtrain", "-q " + data + " " + model);
  EXPECT_EQ(result.status, 1);
  EXPECT_EQ(result.err, "cdtrain: error: " + model + ": cannot write: directory " + dir.file("ro") +
                            " is not writable: Permission denied\n");
  const std::string out = dir.file("ro/out");
  result = run_unprivileged(dir, "cdpredict",
                            data + " " + fixture_path("heart_scale.liblinear.model") + " " + out);
  EXPECT_EQ(result.status, 1);
  EXPECT_EQ(result.err, "cdpredict: error: " + out + ": cannot write: directory " + dir.file("ro") +
                            " is not writable: Permission denied\n");
  EXPECT_TRUE(fs::is_empty(dir.file("ro")));
}

}  // namespace
}  // namespace cdl::test
