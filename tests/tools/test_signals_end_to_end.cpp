// SIGINT and SIGTERM during training: cdtrain dies of the signal, says so,
// and leaves neither the model nor the --trace file nor any temporary file,
// and an existing model is untouched.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "test_util.h"

namespace cdl::test {
namespace {

// The names of the files in `dir`.
std::vector<std::string> files_in(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    names.push_back(entry.path().filename().string());
  }
  return names;
}

bool has_temporary_file(const std::string& dir) {
  for (const std::string& name : files_in(dir)) {
    if (name.find(".tmp") != std::string::npos) return true;
  }
  return false;
}

// Starts cdtrain in `dir` on a long Pegasos run that writes a trace, waits
// until its temporary trace file exists (so the signal surely arrives during
// training), sends `signal_number` and returns the wait status. The child
// starts with the signals at their defaults (a test run in the background
// inherits SIGINT ignored), except `ignored`, if given.
int interrupt_training(const ScratchDir& dir, int signal_number, int ignored = 0, int then = 0) {
  const std::string tool = tool_path("cdtrain");
  const std::string data = absolute_data_path("a9a");
  const std::string err = dir.file("stderr");
  const std::string work = dir.file("work");
  const pid_t pid = fork();
  if (pid == 0) {
    if (chdir(work.c_str()) != 0) _exit(126);
    const int fd = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || dup2(fd, 2) < 0) _exit(126);
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) signal(sig, sig == ignored ? SIG_IGN : SIG_DFL);
    execl(tool.c_str(), tool.c_str(), "-s", "pegasos", "--max-iter", "2000000000", "--trace",
          "trace.tsv", data.c_str(), "a9a.model", static_cast<char*>(nullptr));
    _exit(127);
  }
  EXPECT_GT(pid, 0);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  int status = 0;
  while (!has_temporary_file(work) && std::chrono::steady_clock::now() < deadline) {
    if (waitpid(pid, &status, WNOHANG) == pid) return status;  // ended early: the test fails
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_TRUE(has_temporary_file(work)) << "cdtrain never opened its trace file";
  kill(pid, signal_number);
  if (then != 0) {
    // The first signal is ignored: the tool must still be running.
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    EXPECT_EQ(waitpid(pid, &status, WNOHANG), 0) << "the ignored signal ended the tool";
    kill(pid, then);
  }
  waitpid(pid, &status, 0);
  return status;
}

class Interrupt : public ::testing::TestWithParam<int> {};

TEST_P(Interrupt, RemovesTemporaryFilesAndKeepsTheOldModel) {
  ScratchDir dir;
  std::filesystem::create_directory(dir.file("work"));
  const std::string old_model = "an older model\n";
  dir.write("work/a9a.model", old_model);

  const int status = interrupt_training(dir, GetParam());
  ASSERT_TRUE(WIFSIGNALED(status)) << "status " << status;
  EXPECT_EQ(WTERMSIG(status), GetParam());
  EXPECT_EQ(files_in(dir.file("work")), std::vector<std::string>{"a9a.model"});
  EXPECT_EQ(read_file(dir.file("work/a9a.model")), old_model);
  // The header that names what ran, the progress lines of the iterations
  // that ended before the signal came (none or a few, by the timing), then
  // the interruption.
  std::istringstream lines(read_file(dir.file("stderr")));
  std::string line;
  ASSERT_TRUE(std::getline(lines, line));
  EXPECT_EQ(line, "cdtrain: training, solver pegasos, loss l1svm, regularizer l2");
  while (std::getline(lines, line) && line.rfind("iter ", 0) == 0) {
  }
  EXPECT_EQ(line, "cdtrain: interrupted; no output file was written");
  EXPECT_FALSE(std::getline(lines, line)) << line;
}

// A tool started with SIGHUP ignored (nohup) keeps it ignored.
TEST(Interrupt, AnInheritedIgnoredSignalStaysIgnored) {
  ScratchDir dir;
  std::filesystem::create_directory(dir.file("work"));
  const int status = interrupt_training(dir, SIGHUP, SIGHUP, SIGTERM);
  ASSERT_TRUE(WIFSIGNALED(status)) << "status " << status;
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
  EXPECT_TRUE(files_in(dir.file("work")).empty());
}

// Beyond the file size limit a write fails like one to a full disk: no
// SIGXFSZ death, no temporary file.
TEST(FileSizeLimit, AWriteBeyondItIsAnError) {
  ScratchDir dir;
  const std::string model = dir.file("a9a.model");
  const std::string err = dir.file("stderr");
  const std::string command = "(ulimit -f 1; " + tool_path("cdtrain") + " -q " +
                              absolute_data_path("a9a") + " " + model + ") 2>" + err;
  const int raw = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(raw));
  EXPECT_EQ(WEXITSTATUS(raw), 1);
  EXPECT_EQ(read_file(err), "cdtrain: error: " + model + ": write failed: File too large\n");
  EXPECT_EQ(files_in(dir.file("")), std::vector<std::string>{"stderr"});
}

INSTANTIATE_TEST_SUITE_P(Signals, Interrupt, ::testing::Values(SIGINT, SIGTERM),
                         [](const auto& param_info) {
                           return std::string(param_info.param == SIGINT ? "SIGINT" : "SIGTERM");
                         });

}  // namespace
}  // namespace cdl::test
