// Runs the built cdtrain and cdpredict (CDL_BIN_DIR) on malformed data files,
// malformed model files, file system faults and bad command lines, and checks
// the whole message on stderr, the exit status and that no output file is
// created or clobbered. docs/errors.md lists the same messages.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "test_util.h"

namespace cdl {
namespace {

namespace fs = std::filesystem;
using namespace std::string_literals;

const char kTrainUsage[] =
    "usage: cdtrain [options] training_file [model_file]\n"
    "Try 'cdtrain -h' for the options.\n";
const char kPredictUsage[] =
    "usage: cdpredict [options] test_file model_file output_file\n"
    "Try 'cdpredict -h' for the options.\n";

// A valid two-feature model for the cdpredict runs.
const char kModel[] =
    "solver_type L2R_L2LOSS_SVC\nnr_class 2\nlabel 1 -1\nnr_feature 2\nbias -1\nw\n0.5\n-0.25\n";
const char kSentinel[] = "sentinel: must survive a failed run\n";

// Runs a shell command line under `timeout`, capturing its output. A run
// that hangs ends with status 124 instead of hanging the suite.
test::CommandResult run_shell(const std::string& command, int seconds) {
  static test::ScratchDir capture;
  const std::string out = capture.file("stdout");
  const std::string err = capture.file("stderr");
  const int raw = std::system(("timeout " + std::to_string(seconds) + " " + command + " >" + out +
                               " 2>" + err + " </dev/null")
                                  .c_str());
  const int status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return {status, test::read_file(out), test::read_file(err)};
}

// Runs a built tool with a shell argument string.
test::CommandResult run(const std::string& tool, const std::string& args, int seconds = 300) {
  return run_shell(test::tool_path(tool) + " " + args, seconds);
}

// Runs a built tool with `dir` as the working directory.
test::CommandResult run_in(const test::ScratchDir& dir, const std::string& tool,
                           const std::string& args) {
  return run_shell(
      "sh -c 'cd " + dir.file("") + " && exec " + test::tool_path(tool) + " " + args + "'", 300);
}

std::set<std::string> entries(const test::ScratchDir& dir) {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir.file(""))) {
    names.insert(entry.path().filename().string());
  }
  return names;
}

// `message` with every "PATH" replaced by `path`.
std::string expand(std::string message, const std::string& path) {
  for (auto pos = message.find("PATH"); pos != std::string::npos;
       pos = message.find("PATH", pos + path.size())) {
    message.replace(pos, 4, path);
  }
  return message;
}

// The header values and weight rows of a model file.
struct ModelText {
  std::vector<std::pair<std::string, std::string>> header;
  std::vector<std::vector<double>> w;

  std::string value(const std::string& key) const {
    for (const auto& [k, v] : header) {
      if (k == key) return v;
    }
    return "<missing>";
  }
};

ModelText read_model(const std::string& path) {
  std::istringstream in(test::read_file(path));
  ModelText model;
  std::string line;
  while (std::getline(in, line) && line != "w") {
    const auto space = line.find(' ');
    model.header.emplace_back(line.substr(0, space),
                              space == std::string::npos ? "" : line.substr(space + 1));
  }
  while (std::getline(in, line)) {
    std::istringstream numbers(line);
    std::vector<double> row;
    for (double x = 0; numbers >> x;) row.push_back(x);
    model.w.push_back(row);
  }
  return model;
}

// ---- data files: one row per class of malformed training or test file ----

// The test name of a table row.
template <class Case>
std::string case_name(const ::testing::TestParamInfo<Case>& row) {
  return row.param.name;
}

struct DataCase {
  std::string name;
  std::string content;
  std::string message;      // stderr after "<tool>: error: "; PATH stands for the file
  bool train_only = false;  // cdtrain's check alone (cdpredict takes any number as label)
};

void PrintTo(const DataCase& c, std::ostream* os) { *os << c.name; }

// 64 bytes 0x80..0xBF: not UTF-8, not text.
std::string high_bytes() {
  std::string bytes;
  for (int c = 0x80; c < 0xC0; ++c) bytes += static_cast<char>(c);
  return bytes;
}

std::vector<DataCase> data_cases() {
  return {
      {"EmptyFile", "", "PATH: no instances (the file is empty or holds only comments)"},
      {"OnlyComments", "# a comment\n   # an indented one\n",
       "PATH: no instances (the file is empty or holds only comments)"},
      {"MissingLabel", "1:0.5 2:1\n",
       "PATH:1: missing label: line starts with feature '1:0.5' (column 1)"},
      {"LabelNotANumber", "+1 1:1\nyes 1:1\n", "PATH:2: label 'yes' is not a number (column 1)"},
      {"LabelNotAnInteger", "1.5 1:1\n",
       "PATH:1: label '1.5' is not an integer class label (column 1)", true},
      {"MissingIndex", "1 :0.5\n", "PATH:1: missing feature index before ':' in ':0.5' (column 3)"},
      {"MissingValue", "1 1:\n", "PATH:1: missing value after '1:' (column 5)"},
      {"MissingColon", "1 3\n", "PATH:1: expected index:value, got '3' (column 3)"},
      {"SpaceBeforeColon", "1 3 :0.5\n",
       "PATH:1: expected index:value, got '3' (no spaces are allowed around ':') (column 3)"},
      // Proposed: the same hint as for a space before the colon. Now the
      // message ends at "after '3:'".
      {"SpaceAfterColon", "1 3: 0.5\n",
       "PATH:1: missing value after '3:' (no spaces are allowed around ':') (column 5)"},
      {"SpacesAroundColon", "1 3 : 0.5\n",
       "PATH:1: expected index:value, got '3' (no spaces are allowed around ':') (column 3)"},
      {"IndexZero", "1 0:0.5\n", "PATH:1: feature index 0: indices are 1-based (column 3)"},
      {"NegativeIndex", "1 -2:0.5\n",
       "PATH:1: negative feature index '-2': indices are 1-based (column 3)"},
      {"IndexTwoToThe31", "1 2147483648:0.5\n",
       "PATH:1: feature index '2147483648' exceeds 2147483647 (column 3)"},
      {"IndexOf30Digits", "1 1:1 123456789012345678901234567890:0.5\n",
       "PATH:1: feature index '123456789012345678901234567890' exceeds 2147483647 (column 7)"},
      {"IndicesDecreasing", "1 1:1 3:1 2:1\n",
       "PATH:1: feature index 2 not greater than previous index 3 (column 11)"},
      {"DuplicateIndex", "1 1:1 1:2\n", "PATH:1: duplicate feature index 1 (column 7)"},
      {"ValueNaN", "1 1:NaN\n",
       "PATH:1: value 'NaN' of feature 1 is not a finite number (column 5)"},
      {"ValueInf", "1 1:Inf\n",
       "PATH:1: value 'Inf' of feature 1 is not a finite number (column 5)"},
      {"ValueMinusInf", "1 1:-inf\n",
       "PATH:1: value '-inf' of feature 1 is not a finite number (column 5)"},
      {"ValueOverflow", "1 1:1e400\n",
       "PATH:1: value '1e400' of feature 1 is out of the range of a double (column 5)"},
      // Below the smallest subnormal double (about 4.9e-324) a value is
      // rejected rather than read as 0; subnormals such as 1e-310 are read.
      {"ValueUnderflow", "1 1:1e-400\n",
       "PATH:1: value '1e-400' of feature 1 is out of the range of a double (column 5)"},
      // Proposed: the token is not a number at all. Now the message says "is
      // out of the range of a double", since the prefix 1e400 overflows.
      {"ValueOverflowWithTrailingCharacters", "1 1:1e400x\n",
       "PATH:1: value '1e400x' of feature 1 has trailing characters (column 5)"},
      {"TrailingCharactersAfterValue", "1 1:0.5x\n",
       "PATH:1: value '0.5x' of feature 1 has trailing characters (column 5)"},
      {"TrailingCharactersAfterLabel", "1x 1:1\n",
       "PATH:1: label '1x' has trailing characters (column 1)"},
      {"EmptyLineInTheMiddle", "1 1:1\n\n-1 2:1\n", "PATH:2: empty line (column 1)"},
      {"LineOfSpaces", "1 1:1\n   \n-1 2:1\n", "PATH:2: empty line (column 1)"},
      {"NulByte", "1 1:1\n-1 2:0.5\0 3:1\n"s,
       "PATH:2: value '0.5\\x00' of feature 2 has trailing characters (column 6)"},
      {"InvalidUtf8Value", "1 1:1\n-1 2:\xFF\xFE\n",
       "PATH:2: value '\\xFF\\xFE' of feature 2 is not a number (column 6)"},
      {"InvalidUtf8Label", "\xC3\x28 1:1\n", "PATH:1: label '\\xC3(' is not a number (column 1)"},
      // At most 40 bytes of a token are quoted, each non-printable one as \xNN.
      {"BinaryBytes", high_bytes() + "\n",
       "PATH:1: label "
       "'\\x80\\x81\\x82\\x83\\x84\\x85\\x86\\x87\\x88\\x89...' is not a number (column 1)"},
      {"EndsAfterColon", "1 1:0.5 2:", "PATH:1: missing value after '2:' (column 11)"},
      {"EndsBeforeColon", "1 1:0.5 2", "PATH:1: expected index:value, got '2' (column 9)"},
  };
}

class MalformedTrainingFile : public ::testing::TestWithParam<DataCase> {};

TEST_P(MalformedTrainingFile, IsRejectedWithoutWritingAModel) {
  const DataCase& c = GetParam();
  test::ScratchDir dir;
  const std::string data = dir.write("data.svm", c.content);
  const std::string model = dir.file("data.model");
  const auto r = run("cdtrain", data + " " + model);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "cdtrain: error: " + expand(c.message, data) + "\n");
  EXPECT_FALSE(fs::exists(model));
  EXPECT_EQ(entries(dir), (std::set<std::string>{"data.svm"}));

  // An existing model is left byte-identical.
  const std::string old_model = dir.write("old.model", kSentinel);
  const auto again = run("cdtrain", data + " " + old_model);
  EXPECT_EQ(again.status, 1);
  EXPECT_EQ(again.err, r.err);
  EXPECT_EQ(test::read_file(old_model), kSentinel);
  EXPECT_EQ(entries(dir), (std::set<std::string>{"data.svm", "old.model"}));
}

INSTANTIATE_TEST_SUITE_P(Malformed, MalformedTrainingFile, ::testing::ValuesIn(data_cases()),
                         case_name<DataCase>);

// cdpredict reads its test file with the same reader and the same messages.
std::vector<DataCase> test_file_cases() {
  std::vector<DataCase> cases;
  for (const DataCase& c : data_cases()) {
    if (!c.train_only) cases.push_back(c);
  }
  return cases;
}

class MalformedTestFile : public ::testing::TestWithParam<DataCase> {};

TEST_P(MalformedTestFile, IsRejectedWithoutWritingOutput) {
  const DataCase& c = GetParam();
  test::ScratchDir dir;
  const std::string data = dir.write("data.svm", c.content);
  const std::string model = dir.write("m.model", kModel);
  const std::string output = dir.file("new.out");
  const auto r = run("cdpredict", data + " " + model + " " + output);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "cdpredict: error: " + expand(c.message, data) + "\n");
  EXPECT_FALSE(fs::exists(output));

  const std::string old_output = dir.write("old.out", kSentinel);
  EXPECT_EQ(run("cdpredict", data + " " + model + " " + old_output).status, 1);
  EXPECT_EQ(test::read_file(old_output), kSentinel);
  EXPECT_EQ(entries(dir), (std::set<std::string>{"data.svm", "m.model", "old.out"}));
}

INSTANTIATE_TEST_SUITE_P(Malformed, MalformedTestFile, ::testing::ValuesIn(test_file_cases()),
                         case_name<DataCase>);

TEST(MalformedData, FirstBytesOfAnExecutable) {
  const std::string binary = test::read_file("/bin/ls").substr(0, 200);
  if (binary.size() < 200) GTEST_SKIP() << "no /bin/ls to take bytes from";
  test::ScratchDir dir;
  const std::string data = dir.write("ls.svm", binary);
  const std::string model = dir.file("ls.model");
  const auto r = run("cdtrain", data + " " + model);
  EXPECT_EQ(r.status, 1);
  const std::string head = "cdtrain: error: " + data + ":1: label '";
  const std::string tail = "' is not a number (column 1)\n";
  EXPECT_EQ(r.err.rfind(head, 0), 0u) << r.err;
  ASSERT_GE(r.err.size(), head.size() + tail.size()) << r.err;
  EXPECT_EQ(r.err.substr(r.err.size() - tail.size()), tail) << r.err;
  // 40 bytes at most, four characters each as \xNN, and "...".
  EXPECT_LE(r.err.size(), head.size() + 4 * 40 + 3 + tail.size()) << r.err;
  EXPECT_FALSE(fs::exists(model));
}

// ---- accepted input ----

TEST(MalformedData, CrlfMissingFinalNewlineAndCommentsAreAccepted) {
  test::ScratchDir dir;
  const std::string plain = dir.write("plain.svm", "1 1:1 2:0.5\n-1 2:-1\n1 1:2\n");
  const std::string crlf = dir.write("crlf.svm", "1 1:1 2:0.5\r\n-1 2:-1\r\n1 1:2\r\n");
  const std::string open_end = dir.write("open.svm", "1 1:1 2:0.5\n-1 2:-1\n1 1:2");
  const std::string crlf_open_end = dir.write("crlf_open.svm", "1 1:1 2:0.5\r\n-1 2:-1\r\n1 1:2");
  const std::string commented =
      dir.write("commented.svm", "1 1:1 2:0.5 # a note\n-1 2:-1#another\n1 1:2\n");
  for (const std::string& data : {plain, crlf, open_end, crlf_open_end, commented}) {
    SCOPED_TRACE(data);
    const auto trained = run("cdtrain", "-q " + data + " " + data + ".model");
    EXPECT_EQ(trained.status, 0) << trained.err;
    EXPECT_EQ(trained.err, "");
    EXPECT_EQ(test::read_file(data + ".model"), test::read_file(plain + ".model"));
    const auto predicted = run("cdpredict", data + " " + plain + ".model " + data + ".out");
    EXPECT_EQ(predicted.status, 0) << predicted.err;
    EXPECT_EQ(predicted.out, "Accuracy = 100% (3/3)\n");
    EXPECT_EQ(test::read_file(data + ".out"), "1\n-1\n1\n");
  }
}

TEST(MalformedData, SubnormalValueIsAccepted) {
  test::ScratchDir dir;
  const std::string data = dir.write("sub.svm", "1 1:1e-310 2:1\n-1 2:-1\n");
  const auto r = run("cdtrain", "-q " + data + " " + dir.file("sub.model"));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
}

TEST(MalformedData, OneClassTrainsWithAWarning) {
  test::ScratchDir dir;
  const std::string data = dir.write("one.svm", "1 1:1\n1 2:1\n");
  const std::string model = dir.file("one.model");
  const auto trained = run("cdtrain", "-q " + data + " " + model);
  ASSERT_EQ(trained.status, 0) << trained.err;
  EXPECT_NE(trained.err.find("every instance has label 1"), std::string::npos) << trained.err;
  EXPECT_EQ(trained.err.find('\n'), trained.err.size() - 1) << "one line: " << trained.err;

  const ModelText m = read_model(model);
  EXPECT_EQ(m.value("nr_class"), "1");
  EXPECT_EQ(m.value("label"), "1");
  EXPECT_EQ(m.value("nr_feature"), "2");
  // The minimum of 0.5|w|^2 + (1 - w1)^2 + (1 - w2)^2 is w = (2/3, 2/3).
  ASSERT_EQ(m.w.size(), 2u);
  for (const auto& row : m.w) {
    ASSERT_EQ(row.size(), 1u);
    EXPECT_NEAR(row[0], 2.0 / 3.0, 1e-6);
  }

  const auto same = run("cdpredict", data + " " + model + " " + dir.file("one.out"));
  EXPECT_EQ(same.status, 0) << same.err;
  EXPECT_EQ(same.out, "Accuracy = 100% (2/2)\n");
  EXPECT_EQ(test::read_file(dir.file("one.out")), "1\n1\n");

  const std::string other = dir.write("other.svm", "1 1:1\n-1 2:5\n3 1:-4 7:2\n-1\n");
  const auto mixed = run("cdpredict", "-q " + other + " " + model + " " + dir.file("other.out"));
  EXPECT_EQ(mixed.status, 0) << mixed.err;
  EXPECT_EQ(test::read_file(dir.file("other.out")), "1\n1\n1\n1\n");
}

TEST(MalformedData, TestFeaturesBeyondTheModelAreIgnored) {
  test::ScratchDir dir;
  const std::string train =
      dir.write("train.svm", "1 1:1 2:0.5\n-1 1:-1 2:0.25\n1 2:2\n-1 1:-0.5\n");
  const std::string model = dir.file("train.model");
  ASSERT_EQ(run("cdtrain", "-q " + train + " " + model).status, 0);
  ASSERT_EQ(read_model(model).value("nr_feature"), "2");
  // The same instances, with and without a feature 5 the model lacks.
  const std::string narrow = dir.write("narrow.svm", "1 1:1 2:0.5\n-1 1:-1\n1 2:2\n-1 1:-0.5\n");
  const std::string wide =
      dir.write("wide.svm", "1 1:1 2:0.5 5:100\n-1 1:-1 5:-3\n1 2:2 5:-7\n-1 1:-0.5 5:2\n");
  const auto a = run("cdpredict", narrow + " " + model + " " + dir.file("narrow.out"));
  const auto b = run("cdpredict", wide + " " + model + " " + dir.file("wide.out"));
  ASSERT_EQ(a.status, 0) << a.err;
  ASSERT_EQ(b.status, 0) << b.err;
  EXPECT_EQ(b.err, "");
  EXPECT_EQ(a.out, b.out);
  EXPECT_EQ(test::read_file(dir.file("narrow.out")), test::read_file(dir.file("wide.out")));
  EXPECT_EQ(test::read_file(dir.file("wide.out")), "1\n-1\n1\n-1\n");
}

// ---- a line of 100 MB ----

constexpr int kLongPairs = 100000;

// "1 1:1 3:0.000...0 ... 99999:0.000...0 100000:<last>": 100,000 pairs whose
// values carry 1000 zeros each, about 100 MB in one line; then "-1 2:1".
// Sets `column` to the column where <last> starts.
std::string long_line_file(const std::string& last, std::size_t& column) {
  const std::string zero = "0." + std::string(1000, '0');
  std::string text = "1 1:1";
  text.reserve(std::size_t{kLongPairs} * (zero.size() + 8) + last.size() + 16);
  for (int k = 3; k < kLongPairs; ++k) text += " " + std::to_string(k) + ":" + zero;
  text += " " + std::to_string(kLongPairs) + ":";
  column = text.size() + 1;
  text += last + "\n-1 2:1\n";
  return text;
}

TEST(MalformedData, LineOf100MegabytesIsReadCorrectly) {
  test::ScratchDir dir;
  std::size_t column = 0;
  const std::string data = dir.write("long.svm", long_line_file("1", column));
  ASSERT_GT(fs::file_size(data), 100'000'000u);
  const std::string model = dir.file("long.model");
  const auto trained = run("cdtrain", "-q -e 1e-8 " + data + " " + model);
  ASSERT_EQ(trained.status, 0) << trained.err;
  EXPECT_EQ(trained.err, "");

  // x1 = e1 + e100000 (label 1), x2 = e2 (label -1): w1 = w100000 minimizes
  // w^2 + (1 - 2w)^2, so 0.4; w2 minimizes w^2/2 + (1 + w)^2, so -2/3;
  // every feature whose values are all zero keeps weight 0.
  const ModelText m = read_model(model);
  EXPECT_EQ(m.value("nr_feature"), std::to_string(kLongPairs));
  ASSERT_EQ(m.w.size(), std::size_t{kLongPairs});
  EXPECT_NEAR(m.w[0].at(0), 0.4, 1e-6);
  EXPECT_NEAR(m.w[1].at(0), -2.0 / 3.0, 1e-6);
  EXPECT_NEAR(m.w[kLongPairs - 1].at(0), 0.4, 1e-6);
  int nonzero = 0;
  for (std::size_t k = 2; k + 1 < m.w.size(); ++k) nonzero += m.w[k].at(0) != 0;
  EXPECT_EQ(nonzero, 0);

  const auto predicted = run("cdpredict", data + " " + model + " " + dir.file("long.out"));
  EXPECT_EQ(predicted.status, 0) << predicted.err;
  EXPECT_EQ(predicted.out, "Accuracy = 100% (2/2)\n");
  EXPECT_EQ(test::read_file(dir.file("long.out")), "1\n-1\n");
}

TEST(MalformedData, LineOf100MegabytesWithAnErrorAtItsEnd) {
  test::ScratchDir dir;
  std::size_t column = 0;
  const std::string data =
      dir.write("long.svm", long_line_file("0.5" + std::string(1000, '0') + "x", column));
  // Only the first 40 characters of the 1004-character token are quoted.
  const std::string reason = ":1: value '0.5" + std::string(37, '0') + "...' of feature " +
                             std::to_string(kLongPairs) + " has trailing characters (column " +
                             std::to_string(column) + ")\n";

  const std::string old_model = dir.write("old.model", kSentinel);
  const auto trained = run("cdtrain", data + " " + old_model);
  EXPECT_EQ(trained.status, 1);
  EXPECT_EQ(trained.err, "cdtrain: error: " + data + reason);
  EXPECT_LT(trained.err.size(), 300u);
  EXPECT_EQ(test::read_file(old_model), kSentinel);

  const std::string model = dir.write("m.model", kModel);
  const auto predicted = run("cdpredict", data + " " + model + " " + dir.file("new.out"));
  EXPECT_EQ(predicted.status, 1);
  EXPECT_EQ(predicted.err, "cdpredict: error: " + data + reason);
  EXPECT_EQ(entries(dir), (std::set<std::string>{"long.svm", "old.model", "m.model"}));
}

// ---- model files ----

struct ModelCase {
  std::string name;
  std::string content;
  std::string message;  // stderr after "cdpredict: error: "; PATH stands for the model
};

void PrintTo(const ModelCase& c, std::ostream* os) { *os << c.name; }

const char kHeader[] =
    "solver_type L2R_L2LOSS_SVC\nnr_class 2\nlabel 1 -1\nnr_feature 2\nbias -1\nw\n";

std::vector<ModelCase> model_cases() {
  return {
      {"Empty", "", "PATH:1: empty model file"},
      {"MissingNrFeature", "solver_type L2R_L2LOSS_SVC\nnr_class 2\nlabel 1 -1\nbias -1\nw\n0.5\n",
       "PATH:5: missing 'nr_feature' before 'w'"},
      {"MissingLabel", "solver_type L2R_L2LOSS_SVC\nnr_class 2\nnr_feature 1\nbias -1\nw\n0.5\n",
       "PATH:5: missing 'label' before 'w'"},
      {"MissingW",
       "solver_type L2R_L2LOSS_SVC\nnr_class 2\nlabel 1 -1\nnr_feature 2\nbias -1\n0.5\n-0.25\n",
       "PATH:6: unknown key '0.5' (expected solver_type, nr_class, label, nr_feature, bias, rho "
       "or w); is the 'w' line missing?"},
      {"DataFileAsModel", "+1 1:0.5\n-1 2:1\n",
       "PATH:1: unknown key '+1' (expected solver_type, nr_class, label, nr_feature, bias, rho or "
       "w); "
       "this looks like a data file, not a model"},
      {"BinaryModel",
       std::string("\x7F"
                   "ELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\n",
                   18),
       "PATH:1: unknown key '\\x7FELF\\x02\\x01\\x01\\x00\\x00\\x00\\x00\\x00\\x00...' (expected "
       "solver_type, nr_class, label, nr_feature, bias, rho or w)"},
      {"EndsInTheHeader", "solver_type L2R_L2LOSS_SVC\nnr_class 2\nlabel 1 -1\n",
       "PATH:3: missing 'w' line before the weights"},
      {"UnknownKey",
       "solver_type L2R_L2LOSS_SVC\nnr_class 2\nlabel 1 -1\nnr_feature 2\ncolor red\nbias "
       "-1\nw\n0.5\n-0.25\n",
       "PATH:5: unknown key 'color' (expected solver_type, nr_class, label, nr_feature, bias, rho "
       "or w)"},
      {"NrClassNotANumber",
       "solver_type L2R_L2LOSS_SVC\nnr_class abc\nlabel 1 -1\nnr_feature 2\nbias "
       "-1\nw\n0.5\n-0.25\n",
       "PATH:2: nr_class: 'abc' is not a valid integer"},
      {"NrClassZero",
       "solver_type L2R_L2LOSS_SVC\nnr_class 0\nlabel 1 -1\nnr_feature 2\nbias -1\nw\n0.5\n-0.25\n",
       "PATH:2: nr_class must be at least 1, got 0"},
      {"NrFeatureNegative",
       "solver_type L2R_L2LOSS_SVC\nnr_class 2\nlabel 1 -1\nnr_feature -1\nbias -1\nw\n0.5\n",
       "PATH:4: nr_feature -1 is out of range"},
      {"NrClassThreeButTwoLabels",
       "solver_type L2R_L2LOSS_SVC\nnr_class 3\nlabel 1 -1\nnr_feature 2\nbias -1\nw\n0.5 1 1\n",
       "PATH:3: 'label' takes 3 values, got 2"},
      {"NrClassTwoButThreeLabels",
       "solver_type L2R_L2LOSS_SVC\nnr_class 2\nlabel 1 -1 2\nnr_feature 2\nbias -1\nw\n0.5\n",
       "PATH:3: 'label' takes 2 values, got 3"},
      {"WeightsTooShort", kHeader + "0.5\n"s, "PATH:8: the weights end after 1 of 2 lines"},
      {"NoWeights", kHeader, "PATH:7: the weights end after 0 of 2 lines"},
      {"WeightsTooLong", kHeader + "0.5\n-0.25\n1\n"s,
       "PATH:9: more weight lines than nr_feature = 2"},
      {"TwoWeightsOnALine", kHeader + "0.5 1\n-0.25\n"s, "PATH:7: expected 1 weight, got 2"},
      {"WeightNotANumber", kHeader + "0.5\nabc\n"s, "PATH:8: weight 'abc' is not a finite number"},
      {"WeightNaN", kHeader + "nan\n-0.25\n"s, "PATH:7: weight 'nan' is not a finite number"},
  };
}

class MalformedModelFile : public ::testing::TestWithParam<ModelCase> {};

TEST_P(MalformedModelFile, IsRejectedWithoutWritingOutput) {
  const ModelCase& c = GetParam();
  test::ScratchDir dir;
  const std::string data = dir.write("data.svm", "1 1:1 2:0.5\n-1 2:-1\n");
  const std::string model = dir.write("bad.model", c.content);
  const std::string output = dir.file("new.out");
  const auto r = run("cdpredict", data + " " + model + " " + output);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "cdpredict: error: " + expand(c.message, model) + "\n");
  EXPECT_FALSE(fs::exists(output));

  const std::string old_output = dir.write("old.out", kSentinel);
  EXPECT_EQ(run("cdpredict", data + " " + model + " " + old_output).status, 1);
  EXPECT_EQ(test::read_file(old_output), kSentinel);
  EXPECT_EQ(entries(dir), (std::set<std::string>{"data.svm", "bad.model", "old.out"}));
}

INSTANTIATE_TEST_SUITE_P(Malformed, MalformedModelFile, ::testing::ValuesIn(model_cases()),
                         case_name<ModelCase>);

TEST(MalformedModel, CrlfModelIsAccepted) {
  test::ScratchDir dir;
  const std::string data = dir.write("data.svm", "1 1:1 2:0.5\n-1 2:1\n");
  std::string crlf;
  for (const char* p = kModel; *p != '\0'; ++p) crlf += *p == '\n' ? "\r\n"s : std::string(1, *p);
  const std::string model = dir.write("crlf.model", crlf);
  const auto r = run("cdpredict", data + " " + model + " " + dir.file("out"));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(test::read_file(dir.file("out")), "1\n-1\n");
}

// ---- files and faults ----

class MalformedFaults : public ::testing::Test {
 protected:
  void SetUp() override { data_ = dir_.write("data.svm", "1 1:1 2:0.5\n-1 2:-1\n"); }

  // Runs cdtrain with `args` and checks status 1, the whole stderr and that
  // the scratch directory holds exactly `after`.
  void expect_train_failure(const std::string& args, const std::string& message,
                            const std::set<std::string>& after, int seconds = 300) {
    const auto r = run("cdtrain", args, seconds);
    EXPECT_EQ(r.status, 1) << (r.status == 124 ? "timed out" : "");
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "cdtrain: error: " + message + "\n");
    EXPECT_EQ(entries(dir_), after);
  }
  void expect_predict_failure(const std::string& args, const std::string& message,
                              const std::set<std::string>& after, int seconds = 300) {
    const auto r = run("cdpredict", args, seconds);
    EXPECT_EQ(r.status, 1) << (r.status == 124 ? "timed out" : "");
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "cdpredict: error: " + message + "\n");
    EXPECT_EQ(entries(dir_), after);
  }
  std::string make_fifo(const std::string& name) {
    const std::string path = dir_.file(name);
    EXPECT_EQ(::mkfifo(path.c_str(), 0600), 0);
    return path;
  }
  std::string write_model() { return dir_.write("m.model", kModel); }

  test::ScratchDir dir_;
  std::string data_;
};

TEST_F(MalformedFaults, MissingInputFiles) {
  const std::string missing = dir_.file("missing.svm");
  expect_train_failure(missing + " " + dir_.file("x.model"),
                       missing + ": cannot open: no such file", {"data.svm"});
  const std::string model = write_model();
  expect_predict_failure(missing + " " + model + " " + dir_.file("x.out"),
                         missing + ": cannot open: no such file", {"data.svm", "m.model"});
  const std::string missing_model = dir_.file("missing.model");
  expect_predict_failure(data_ + " " + missing_model + " " + dir_.file("x.out"),
                         missing_model + ": cannot open: no such file", {"data.svm", "m.model"});
}

TEST_F(MalformedFaults, DirectoryAsInput) {
  const std::string sub = dir_.file("sub");
  fs::create_directory(sub);
  expect_train_failure(sub + " " + dir_.file("x.model"), sub + ": is a directory",
                       {"data.svm", "sub"});
  const std::string model = write_model();
  expect_predict_failure(sub + " " + model + " " + dir_.file("x.out"), sub + ": is a directory",
                         {"data.svm", "m.model", "sub"});
  expect_predict_failure(data_ + " " + sub + " " + dir_.file("x.out"), sub + ": is a directory",
                         {"data.svm", "m.model", "sub"});
}

// A device is refused as a data file (reading /dev/zero would never end);
// pipes and FIFOs are read (test_pipes_end_to_end.cpp).
TEST_F(MalformedFaults, DeviceAsTrainingOrTestFile) {
  expect_train_failure("/dev/zero " + dir_.file("x.model"), "/dev/zero: not a regular file or pipe",
                       {"data.svm"}, 20);
  const std::string model = write_model();
  expect_predict_failure("/dev/zero " + model + " " + dir_.file("x.out"),
                         "/dev/zero: not a regular file or pipe", {"data.svm", "m.model"}, 20);
}

// The model loader refuses a FIFO instead of blocking on it.
TEST_F(MalformedFaults, FifoAsModelFile) {
  const std::string fifo = make_fifo("fifo");
  expect_predict_failure(data_ + " " + fifo + " " + dir_.file("x.out"),
                         fifo + ": not a regular file", {"data.svm", "fifo"}, 10);
  expect_train_failure("-q -i " + fifo + " " + data_ + " " + dir_.file("x.model"),
                       fifo + ": not a regular file", {"data.svm", "fifo"}, 10);
}

TEST_F(MalformedFaults, ModelPathIsADirectory) {
  const std::string sub = dir_.file("sub");
  fs::create_directory(sub);
  expect_train_failure(data_ + " " + sub, sub + ": is a directory", {"data.svm", "sub"});
  EXPECT_TRUE(fs::is_empty(sub));
}

TEST_F(MalformedFaults, ModelPathInAMissingDirectory) {
  const std::string model = dir_.file("no/such/x.model");
  expect_train_failure(
      data_ + " " + model,
      model + ": cannot write: directory " + dir_.file("no/such") + " does not exist",
      {"data.svm"});
}

TEST_F(MalformedFaults, ModelPathUnderARegularFile) {
  const std::string model = data_ + "/x.model";
  expect_train_failure(data_ + " " + model,
                       model + ": cannot write: " + data_ + " is not a directory", {"data.svm"});
  EXPECT_EQ(test::read_file(data_), "1 1:1 2:0.5\n-1 2:-1\n");
}

TEST_F(MalformedFaults, OutputPathsThatCannotBeWritten) {
  const std::string model = write_model();
  const std::string sub = dir_.file("sub");
  fs::create_directory(sub);
  const std::set<std::string> all{"data.svm", "m.model", "sub"};
  expect_predict_failure(data_ + " " + model + " " + sub, sub + ": is a directory", all);
  const std::string missing = dir_.file("no/x.out");
  expect_predict_failure(
      data_ + " " + model + " " + missing,
      missing + ": cannot write: directory " + dir_.file("no") + " does not exist", all);
  const std::string under_file = data_ + "/x.out";
  expect_predict_failure(data_ + " " + model + " " + under_file,
                         under_file + ": cannot write: " + data_ + " is not a directory", all);
}

TEST_F(MalformedFaults, ModelToAFullDevice) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  expect_train_failure("-q " + data_ + " /dev/full",
                       "/dev/full: write failed: No space left on device", {"data.svm"});
}

TEST_F(MalformedFaults, PredictionsToAFullDevice) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  const std::string model = write_model();
  expect_predict_failure(data_ + " " + model + " /dev/full",
                         "/dev/full: write failed: No space left on device",
                         {"data.svm", "m.model"});
}

// Proposed: a trace that cannot be written fails the run before the model is
// written. Now the model is saved first, so a new one is left behind (and an
// existing one replaced) although the tool exits with status 1.
TEST_F(MalformedFaults, TraceToAFullDevice) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  expect_train_failure("-q --trace /dev/full " + data_ + " " + dir_.file("new.model"),
                       "/dev/full: write failed: No space left on device", {"data.svm"});
  const std::string old_model = dir_.write("old.model", kSentinel);
  expect_train_failure("-q --trace /dev/full " + data_ + " " + old_model,
                       "/dev/full: write failed: No space left on device",
                       {"data.svm", "old.model"});
  EXPECT_EQ(test::read_file(old_model), kSentinel);
}

// ---- usage errors ----

struct UsageCase {
  std::string name;
  std::string tool;
  std::string args;     // run in a directory holding data.svm and m.model
  std::string message;  // stderr after "<tool>: error: " and before the usage
};

void PrintTo(const UsageCase& c, std::ostream* os) { *os << c.name; }

class MalformedUsage : public ::testing::TestWithParam<UsageCase> {};

TEST_P(MalformedUsage, ExitsTwoWithUsage) {
  const UsageCase& c = GetParam();
  test::ScratchDir dir;
  dir.write("data.svm", "1 1:1 2:0.5\n-1 2:-1\n");
  dir.write("m.model", kModel);
  const auto r = run_in(dir, c.tool, c.args);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, c.tool + ": error: " + c.message + "\n" +
                       (c.tool == "cdtrain" ? kTrainUsage : kPredictUsage));
  EXPECT_EQ(entries(dir), (std::set<std::string>{"data.svm", "m.model"}));
}

INSTANTIATE_TEST_SUITE_P(
    Malformed, MalformedUsage,
    ::testing::Values(
        UsageCase{"EmptyTrainingFileName", "cdtrain", "\"\"", "training_file: empty file name"},
        UsageCase{"EmptyModelFileName", "cdtrain", "data.svm \"\"", "model_file: empty file name"},
        UsageCase{"UnknownOption", "cdtrain", "--frobnicate data.svm",
                  "unknown option '--frobnicate'"},
        UsageCase{"CostNotANumber", "cdtrain", "-c abc data.svm",
                  "-c: expected a positive number, got 'abc'"},
        UsageCase{"CostZero", "cdtrain", "-c 0 data.svm",
                  "-c: expected a positive number, got '0'"},
        UsageCase{"MissingValue", "cdtrain", "-c", "-c: missing value"},
        UsageCase{"MissingTrainingFile", "cdtrain", "-q", "missing training_file"},
        UsageCase{"PredictEmptyTestFileName", "cdpredict", "\"\" m.model out",
                  "test_file: empty file name"},
        UsageCase{"PredictUnknownOption", "cdpredict", "--frobnicate data.svm m.model out",
                  "unknown option '--frobnicate'"},
        UsageCase{"PredictMissingOutput", "cdpredict", "data.svm m.model",
                  "expected test_file model_file output_file"}),
    case_name<UsageCase>);

}  // namespace
}  // namespace cdl
