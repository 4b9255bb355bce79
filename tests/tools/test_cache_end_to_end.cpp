// cdtrain --cache and --cache-file: nothing is written without them, the
// cached run trains the same model, a stale cache is rebuilt and a corrupt
// one is an error that names it.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>

#include "test_util.h"

namespace cdl {
namespace {

namespace fs = std::filesystem;

class CacheEndToEnd : public ::testing::Test {
 protected:
  void SetUp() override { dir_.write("data.svm", test::read_file(test::data_path("heart_scale"))); }
  // Runs a bash script in the scratch directory (test::run_script).
  test::CommandResult bash(const std::string& script) { return test::run_script(dir_, script); }
  std::set<std::string> entries() {
    std::set<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir_.file(""))) {
      const std::string name = entry.path().filename().string();
      if (name != "script.sh" && name != "stdout" && name != "stderr") names.insert(name);
    }
    return names;
  }
  std::string file(const std::string& name) { return test::read_file(dir_.file(name)); }

  test::ScratchDir dir_;
};

TEST_F(CacheEndToEnd, NothingIsWrittenWithoutAFlag) {
  const auto r = bash("$CDTRAIN -q data.svm plain.model && $CDTRAIN -q -v 3 data.svm");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(entries(), (std::set<std::string>{"data.svm", "plain.model"}));
}

TEST_F(CacheEndToEnd, CachedRunsTrainTheSameModel) {
  const auto r = bash(
      "$CDTRAIN -q -B 1 data.svm plain.model && "
      "$CDTRAIN -q -B 1 --cache data.svm first.model && "
      "$CDTRAIN -q -B 1 --cache data.svm second.model && "
      "$CDTRAIN -q -B 1 --cache-file elsewhere.bin data.svm third.model && "
      "$CDTRAIN -q -B 1 --cache-file elsewhere.bin data.svm fourth.model");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(entries(),
            (std::set<std::string>{"data.svm", "data.svm.cdcache", "elsewhere.bin", "plain.model",
                                   "first.model", "second.model", "third.model", "fourth.model"}));
  const std::string expected = file("plain.model");
  for (const char* model : {"first.model", "second.model", "third.model", "fourth.model"}) {
    EXPECT_EQ(file(model), expected) << model;
  }
  EXPECT_EQ(file("elsewhere.bin"), file("data.svm.cdcache"));
}

// Another -B or a changed file: the cache is rebuilt, and the model is the
// one the text gives.
TEST_F(CacheEndToEnd, StaleCacheIsRebuilt) {
  const auto r = bash(
      "$CDTRAIN -q --cache data.svm a.model && "
      "$CDTRAIN -q -B 1 --cache data.svm b.model && $CDTRAIN -q -B 1 data.svm b_plain.model && "
      "head -n 100 data.svm > short && cat short > data.svm && "
      "$CDTRAIN -q --cache data.svm c.model && $CDTRAIN -q data.svm c_plain.model");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(file("b.model"), file("b_plain.model"));
  EXPECT_EQ(file("c.model"), file("c_plain.model"));
  EXPECT_NE(file("c.model"), file("a.model"));
}

TEST_F(CacheEndToEnd, CorruptCacheIsAnErrorThatNamesIt) {
  const auto r = bash(
      "$CDTRAIN -q --cache data.svm a.model && rm a.model && "
      "truncate -s 1000 data.svm.cdcache && $CDTRAIN -q --cache data.svm a.model");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("cdtrain: error: data.svm.cdcache: corrupt cache: truncated (1000 of "),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir_.file("a.model")));
  const auto n = bash("echo notes > notes && $CDTRAIN -q --cache-file notes data.svm a.model");
  EXPECT_EQ(n.status, 1);
  EXPECT_EQ(n.err, "cdtrain: error: notes: not a cdlinear cache; refusing to use or replace it\n");
  EXPECT_EQ(file("notes"), "notes\n");
}

TEST_F(CacheEndToEnd, UsageErrors) {
  const auto r = bash("cat data.svm | $CDTRAIN -q --cache - a.model");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err.substr(0, r.err.find('\n')),
            "cdtrain: error: --cache needs a training file to check the cache against; '-' is "
            "not one");
  const auto same = bash("$CDTRAIN -q --cache-file data.svm data.svm a.model");
  EXPECT_EQ(same.status, 2);
  EXPECT_EQ(same.err.substr(0, same.err.find('\n')),
            "cdtrain: error: --cache-file 'data.svm' is the input file 'data.svm'; refusing to "
            "overwrite it");
  const auto model = bash("$CDTRAIN -q --cache-file a.model data.svm a.model");
  EXPECT_EQ(model.status, 2);
  EXPECT_EQ(model.err.substr(0, model.err.find('\n')),
            "cdtrain: error: --cache-file is also an output, 'a.model'");
  EXPECT_EQ(entries(), (std::set<std::string>{"data.svm"}));
}

TEST_F(CacheEndToEnd, AnUnwritableCacheIsAWarning) {
  const auto r = bash("$CDTRAIN -q --cache-file no/such/c data.svm a.model");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.err.find("warning: cache not written: "), std::string::npos) << r.err;
  EXPECT_TRUE(fs::exists(dir_.file("a.model")));
}

}  // namespace
}  // namespace cdl
