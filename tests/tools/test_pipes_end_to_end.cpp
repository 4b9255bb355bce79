// cdtrain and cdpredict read their data from standard input ("-"), pipes,
// FIFOs and process substitution, with the same results and messages as from
// the file; compressed files are refused with the pipe to use.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "test_util.h"

namespace cdl {
namespace {

namespace fs = std::filesystem;

class Pipes : public ::testing::Test {
 protected:
  // Runs a bash script in the scratch directory (test::run_script).
  test::CommandResult bash(const std::string& script) { return test::run_script(dir_, script); }
  std::string file(const std::string& name) { return test::read_file(dir_.file(name)); }
  bool exists(const std::string& name) { return fs::exists(dir_.file(name)); }

  test::ScratchDir dir_;
};

TEST_F(Pipes, EveryFormOfPipeTrainsTheModelOfTheFile) {
  for (const char* data : {"heart_scale", "rcv1_small"}) {
    SCOPED_TRACE(data);
    const std::string d = std::string("\"$DATA/") + data + "\"";
    const auto r = bash(
        "$CDTRAIN -q " + d + " file.model && " + "cat " + d + " | $CDTRAIN -q - dash.model && " +
        "cat " + d + " | $CDTRAIN -q /dev/stdin devstdin.model && " + "$CDTRAIN -q <(cat " + d +
        ") substitution.model && " + "$CDTRAIN -q - redirect.model < " + d + " && " +
        "mkfifo fifo && (cat " + d + " > fifo &) && $CDTRAIN -q fifo fifo.model; " +
        "status=$?; rm -f fifo; exit $status");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    const std::string expected = file("file.model");
    ASSERT_FALSE(expected.empty());
    for (const char* model :
         {"dash.model", "devstdin.model", "substitution.model", "redirect.model", "fifo.model"}) {
      EXPECT_EQ(file(model), expected) << model;
    }
  }
}

TEST_F(Pipes, CrossValidationAndBiasFromAPipe) {
  const auto r = bash(
      "$CDTRAIN -q -B 1 -v 3 \"$DATA/heart_scale\" > file.out && "
      "cat \"$DATA/heart_scale\" | $CDTRAIN -q -B 1 -v 3 - > pipe.out");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(file("file.out"), "");
  EXPECT_EQ(file("pipe.out"), file("file.out"));
}

TEST_F(Pipes, PredictReadsTheTestFileFromAPipe) {
  const auto r = bash(
      "$CDTRAIN -q \"$DATA/heart_scale\" m.model && "
      "$CDPREDICT \"$DATA/heart_scale\" m.model file.out > file.acc && "
      "cat \"$DATA/heart_scale\" | $CDPREDICT - m.model pipe.out > pipe.acc && "
      "$CDPREDICT <(cat \"$DATA/heart_scale\") m.model sub.out > sub.acc");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(file("file.out"), "");
  EXPECT_EQ(file("pipe.out"), file("file.out"));
  EXPECT_EQ(file("sub.out"), file("file.out"));
  EXPECT_EQ(file("pipe.acc"), file("file.acc"));
  EXPECT_EQ(file("sub.acc"), file("file.acc"));
}

TEST_F(Pipes, StandardInputNeedsAModelName) {
  const auto r = bash("cat \"$DATA/heart_scale\" | $CDTRAIN -q -");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "cdtrain: error: training_file '-' is standard input, which has no name to make the "
            "model's from; give a model_file (cdtrain [options] - model_file)\n"
            "usage: cdtrain [options] training_file [model_file]\n"
            "Try 'cdtrain -h' for the options.\n");
  EXPECT_FALSE(exists("-.model"));
  EXPECT_FALSE(exists(".model"));
}

// Malformed data from a pipe: the same message as from the file, with
// "(standard input)" for the name and the line counted from the first byte.
TEST_F(Pipes, MalformedInputNamesTheLine) {
  const auto r = bash("printf '1 1:1\\n# note\\n-1 2:0.5x\\n' | $CDTRAIN -q - m.model");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err,
            "cdtrain: error: (standard input):3: value '0.5x' of feature 2 has trailing "
            "characters (column 6)\n");
  EXPECT_FALSE(exists("m.model"));
  const auto p = bash(
      "$CDTRAIN -q \"$DATA/heart_scale\" m.model && "
      "printf '1 1:1\\n\\n' | $CDPREDICT - m.model out");
  EXPECT_EQ(p.status, 1);
  EXPECT_EQ(p.err, "cdpredict: error: (standard input):2: empty line (column 1)\n");
  EXPECT_FALSE(exists("out"));
}

// An instance found only after reading (a value too large to train on) is
// named by its line, which standard input cannot be read again to find.
TEST_F(Pipes, AnInstanceFoundAfterReadingIsNamedByItsLine) {
  const auto r = bash("printf '1 1:1\\n# c\\n# d\\n-1 1:2e200\\n' | $CDTRAIN -q - m.model");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err,
            "cdtrain: error: (standard input):4: feature 1 (value 2e+200) is too large to train "
            "on: C times the sum of its squares overflows; scale the data\n");
  EXPECT_FALSE(exists("m.model"));
}

TEST_F(Pipes, CompressedFilesAreRefusedWithThePipeToUse) {
  struct Case {
    const char* compress;
    const char* suffix;
    const char* format;
    const char* decompress;
  };
  for (const Case& c : {Case{"gzip -c", "gz", "gzip", "zcat"}, Case{"xz -c", "xz", "xz", "xzcat"},
                        Case{"bzip2 -c", "bz2", "bzip2", "bzcat"}}) {
    SCOPED_TRACE(c.format);
    const std::string name = std::string("d.") + c.suffix;
    const auto made = bash(std::string(c.compress) + " \"$DATA/heart_scale\" > " + name);
    ASSERT_EQ(made.status, 0) << made.err;
    const auto r = bash("$CDTRAIN -q " + name + " m.model");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err, "cdtrain: error: " + name + ": the data are " + c.format +
                         "-compressed; decompress them into a pipe: " + c.decompress + " " + name +
                         " | cdtrain [options] - m.model\n");
    EXPECT_FALSE(exists("m.model"));
    const auto p =
        bash("$CDTRAIN -q \"$DATA/heart_scale\" h.model && $CDPREDICT " + name + " h.model out");
    EXPECT_EQ(p.status, 1);
    EXPECT_EQ(p.err, "cdpredict: error: " + name + ": the data are " + c.format +
                         "-compressed; decompress them into a pipe: " + c.decompress + " " + name +
                         " | cdpredict [options] - h.model out\n");
    EXPECT_FALSE(exists("out"));
    // The suggested pipe works.
    const auto piped = bash(std::string(c.decompress) + " " + name + " | $CDTRAIN -q - m.model");
    EXPECT_EQ(piped.status, 0) << piped.err;
    EXPECT_TRUE(exists("m.model"));
    fs::remove(dir_.file("m.model"));
  }
  const auto r = bash("gzip -c \"$DATA/heart_scale\" | $CDTRAIN -q - m.model");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err,
            "cdtrain: error: (standard input): the data are gzip-compressed; decompress them in "
            "the pipe: ... | zcat | cdtrain [options] - m.model\n");
}

}  // namespace
}  // namespace cdl
