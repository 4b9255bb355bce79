#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "data/input_file.h"
#include "data/libsvm_reader.h"
#include "data/sparse_matrix.h"
#include "test_util.h"
#include "util/error.h"

namespace cdl {
namespace {

using test::error_message;

// Reads `path` expecting a ParseError and returns it; records a failure and
// returns nothing if the read succeeds. Other exceptions propagate.
std::optional<ParseError> parse_error(const std::string& path, const ReadOptions& options = {}) {
  try {
    read_libsvm_csr(path, options);
  } catch (const ParseError& e) {
    return e;
  }
  ADD_FAILURE() << "no ParseError for " << path;
  return std::nullopt;
}

void expect_same_matrix(const CscMatrix& actual, const CscMatrix& expected) {
  EXPECT_EQ(actual.num_rows, expected.num_rows);
  EXPECT_EQ(actual.num_cols, expected.num_cols);
  EXPECT_EQ(actual.col_ptr, expected.col_ptr);
  EXPECT_EQ(actual.row_idx, expected.row_idx);
  EXPECT_EQ(actual.values, expected.values);
}

void expect_same_rows(const CsrMatrix& actual, const CsrMatrix& expected) {
  EXPECT_EQ(actual.num_rows, expected.num_rows);
  EXPECT_EQ(actual.num_cols, expected.num_cols);
  EXPECT_EQ(actual.row_ptr, expected.row_ptr);
  EXPECT_EQ(actual.col_idx, expected.col_idx);
  EXPECT_EQ(actual.values, expected.values);
}

// read_libsvm_rows gives to_csr() of read_libsvm_csc's matrix, with its
// labels, lines and largest magnitude, or the same error.
void expect_rows_read_as_columns(const std::string& path, const ReadOptions& options = {}) {
  std::optional<LabeledCsc> csc;
  const std::string csc_error = error_message([&] { csc = read_libsvm_csc(path, options); });
  std::optional<LabeledRows> rows;
  const std::string rows_error = error_message([&] { rows = read_libsvm_rows(path, options); });
  EXPECT_EQ(rows_error, csc_error);
  ASSERT_EQ(rows.has_value(), csc.has_value());
  if (!csc) return;
  EXPECT_EQ(rows->labels, csc->labels);
  EXPECT_EQ(rows->lines.rows, csc->lines.rows);
  EXPECT_EQ(rows->lines.lines, csc->lines.lines);
  EXPECT_EQ(magnitude_bits(rows->largest_magnitude), magnitude_bits(csc->largest_magnitude));
  expect_same_rows(rows->features, to_csr(csc->features));
}

// The same with and without a bias, on 1, 2 and 5 threads cutting even a
// small file.
void expect_rows_read_as_columns_for_any_options(const std::string& path) {
  for (const double bias : {-1.0, 0.0, 1.5}) {
    for (const unsigned threads : {1u, 2u, 5u}) {
      SCOPED_TRACE("bias " + std::to_string(bias) + ", threads " + std::to_string(threads));
      ReadOptions options;
      options.bias = bias;
      options.threads = threads;
      options.min_bytes_per_thread = 1;
      expect_rows_read_as_columns(path, options);
    }
  }
}

// ---------------------------------------------------------------------------
// Accepted forms: the parsed CSR must match exactly, and read_libsvm_csc must
// give its transpose.

struct AcceptCase {
  const char* name;
  std::string content;
  std::vector<double> labels;
  std::vector<std::int64_t> row_ptr;
  Buffer<Index> col_idx;
  Buffer<double> values;
  std::size_t num_cols;
};

void PrintTo(const AcceptCase& c, std::ostream* os) { *os << c.name; }

class Accepts : public ::testing::TestWithParam<AcceptCase> {};

TEST_P(Accepts, ParsesExactly) {
  const AcceptCase& c = GetParam();
  test::ScratchDir dir;
  const std::string path = dir.write("data.txt", c.content);
  const LabeledCsr csr = read_libsvm_csr(path);
  EXPECT_EQ(csr.labels, c.labels);
  EXPECT_EQ(csr.features.num_rows, c.labels.size());
  EXPECT_EQ(csr.features.num_cols, c.num_cols);
  EXPECT_EQ(csr.features.row_ptr, c.row_ptr);
  EXPECT_EQ(csr.features.col_idx, c.col_idx);
  EXPECT_EQ(csr.features.values, c.values);

  const LabeledCsc csc = read_libsvm_csc(path);
  EXPECT_EQ(csc.labels, c.labels);
  expect_same_matrix(csc.features, to_csc(csr.features));
  expect_rows_read_as_columns_for_any_options(path);
}

INSTANTIATE_TEST_SUITE_P(
    LibsvmReader, Accepts,
    ::testing::Values(
        AcceptCase{
            "Plain", "+1 1:0.5 3:2\n-1 2:1\n", {1, -1}, {0, 2, 3}, {0, 2, 1}, {0.5, 2, 1}, 3},
        AcceptCase{
            "LabelOnlyInMiddle", "1 1:1\n2\n3 2:4\n", {1, 2, 3}, {0, 1, 1, 2}, {0, 1}, {1, 4}, 2},
        AcceptCase{"LabelOnlyWithTrailingSpace", "1 \n2 1:1\n", {1, 2}, {0, 0, 1}, {0}, {1}, 1},
        AcceptCase{"LabelOnlyLastLine", "1 1:1\n2\n", {1, 2}, {0, 1, 1}, {0}, {1}, 1},
        AcceptCase{"LabelOnlyLastLineWithoutNewline", "1 1:1\n2", {1, 2}, {0, 1, 1}, {0}, {1}, 1},
        AcceptCase{"OnlyLabelOnlyLines", "1\n-1\n", {1, -1}, {0, 0, 0}, {}, {}, 0},
        AcceptCase{"CrLf", "1 1:0.5\r\n-1 2:1\r\n", {1, -1}, {0, 1, 2}, {0, 1}, {0.5, 1}, 2},
        AcceptCase{"CrLfLabelOnly", "1\r\n-1 2:1\r\n", {1, -1}, {0, 0, 1}, {1}, {1}, 2},
        AcceptCase{
            "CrLfLabelOnlyWithTrailingSpace", "1 \r\n-1 2:1\r\n", {1, -1}, {0, 0, 1}, {1}, {1}, 2},
        AcceptCase{"CrLfTrailingSpaceAfterPairs", "1 1:1 \t\r\n", {1}, {0, 1}, {0}, {1}, 1},
        AcceptCase{
            "CrLfWithoutFinalNewline", "1 1:1\r\n2 1:2", {1, 2}, {0, 1, 2}, {0, 0}, {1, 2}, 1},
        AcceptCase{
            "CrWithoutFinalNewline", "1 1:1\r\n2 1:2\r", {1, 2}, {0, 1, 2}, {0, 0}, {1, 2}, 1},
        AcceptCase{
            "TrailingSpacesAndTabs", "1 1:1 \t \n2 2:2\t\n", {1, 2}, {0, 1, 2}, {0, 1}, {1, 2}, 2},
        AcceptCase{"LeadingSpacesAndTabs",
                   "  1 1:1\n\t2 2:2\n \t 3\n",
                   {1, 2, 3},
                   {0, 1, 2, 2},
                   {0, 1},
                   {1, 2},
                   2},
        AcceptCase{"TabSeparators", "1\t1:1\t2:2\n", {1}, {0, 2}, {0, 1}, {1, 2}, 2},
        AcceptCase{
            "SeveralSpacesBetweenPairs", "1   1:1  \t  2:2\n", {1}, {0, 2}, {0, 1}, {1, 2}, 2},
        AcceptCase{"MissingFinalNewline", "1 1:1\n2 2:2", {1, 2}, {0, 1, 2}, {0, 1}, {1, 2}, 2},
        AcceptCase{"CommentAtEndOfLine",
                   "1 1:1 # note\n2 2:2#tight\n",
                   {1, 2},
                   {0, 1, 2},
                   {0, 1},
                   {1, 2},
                   2},
        AcceptCase{"CommentContainingColon", "1 1:1 # a:b 3:4\n", {1}, {0, 1}, {0}, {1}, 1},
        AcceptCase{"CommentRightAfterLabel", "1# a:b\n2 1:3\n", {1, 2}, {0, 0, 1}, {0}, {3}, 1},
        AcceptCase{"CommentWithCrLf", "1 1:1 # c\r\n", {1}, {0, 1}, {0}, {1}, 1},
        AcceptCase{"CommentOnlyLinesSkipped",
                   "# header\n1 1:1\n  # indented\n#\n2 2:2\n# end",
                   {1, 2},
                   {0, 1, 2},
                   {0, 1},
                   {1, 2},
                   2},
        AcceptCase{"CommentOnlyLineWithCrLf", "# c:d\r\n1 1:1\r\n", {1}, {0, 1}, {0}, {1}, 1},
        AcceptCase{
            "Labels", "+1\n-1\n1\n2.0\n-0.5\n", {1, -1, 1, 2, -0.5}, {0, 0, 0, 0, 0, 0}, {}, {}, 0},
        AcceptCase{"ValueForms",
                   "1 1:1e-3 2:.5 3:-0.25 4:+0.3 5:1E+2 6:5. 7:-1e-2\n",
                   {1},
                   {0, 7},
                   {0, 1, 2, 3, 4, 5, 6},
                   {1e-3, 0.5, -0.25, 0.3, 100, 5, -0.01},
                   7},
        AcceptCase{"ExplicitZeroValueIsKept", "1 1:0 2:1\n", {1}, {0, 2}, {0, 1}, {0, 1}, 2},
        AcceptCase{"IndexWithLeadingZeros", "1 01:1 002:2\n", {1}, {0, 2}, {0, 1}, {1, 2}, 2},
        AcceptCase{
            "GapsInIndices", "1 3:1 10:2\n2 5:3\n", {1, 2}, {0, 2, 3}, {2, 9, 4}, {1, 2, 3}, 10},
        AcceptCase{"NumColsIsLargestIndexOfAnyRow",
                   "1 2:1\n2 7:1\n3 1:1\n",
                   {1, 2, 3},
                   {0, 1, 2, 3},
                   {1, 6, 0},
                   {1, 1, 1},
                   7}),
    [](const ::testing::TestParamInfo<AcceptCase>& param_info) {
      return std::string(param_info.param.name);
    });

TEST(LibsvmReader, LargestIndexIsAccepted) {
  // Only the row reader: the column reader would allocate 2^31 column offsets.
  test::ScratchDir dir;
  const LabeledCsr csr = read_libsvm_csr(dir.write("data.txt", "1 5:1 2147483647:2\n"));
  EXPECT_EQ(csr.features.num_cols, 2147483647u);
  EXPECT_EQ(csr.features.col_idx, (Buffer<Index>{4, 2147483646u}));
  EXPECT_EQ(csr.features.values, (Buffer<double>{1, 2}));
}

// The byte ranges of a distributed run's ranks: for any number of equal
// ranges, each line is read by exactly one range (the one its first byte is
// in), the ranges' rows and line counts add up to the whole file's, a range
// with no line start is empty, and a bad line's number counts from its
// range's first line.
TEST(LibsvmReader, ByteRangesReadEachLineOnce) {
  test::ScratchDir dir;
  const std::string text =
      "# a comment\n1 1:0.5 3:2\r\n-1 2:1\n\n# another\n1 4:7 10:1.25\n-1\n1 1:1";
  // An empty line is an error; without it, the file without the blank line.
  std::string good = text;
  good.erase(good.find("\n\n"), 1);
  const std::string path = dir.write("data.txt", good);
  const LabeledRows whole = read_libsvm_rows(path);
  ASSERT_EQ(whole.labels.size(), 5u);
  for (const std::uint64_t ranges :
       {std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{3}, std::uint64_t{5}, std::uint64_t{8},
        std::uint64_t{13}, std::uint64_t{good.size()}, std::uint64_t{good.size() + 2}}) {
    SCOPED_TRACE(std::to_string(ranges) + " ranges");
    std::vector<double> labels;
    std::vector<Index> indices;
    std::int64_t lines = 0;
    for (std::uint64_t r = 0; r < ranges; ++r) {
      ReadOptions options;
      options.read_range = true;
      options.range_begin = good.size() * r / ranges;
      options.range_end = good.size() * (r + 1) / ranges;
      const LabeledRows part = read_libsvm_rows(path, options);
      labels.insert(labels.end(), part.labels.begin(), part.labels.end());
      indices.insert(indices.end(), part.features.col_idx.begin(), part.features.col_idx.end());
      lines += part.line_count;
    }
    EXPECT_EQ(labels, whole.labels);
    EXPECT_EQ(indices,
              std::vector<Index>(whole.features.col_idx.begin(), whole.features.col_idx.end()));
    EXPECT_EQ(lines, 7);
  }
  // The blank line (line 4 of the file) in the second half: line 2 of it.
  const std::string bad = dir.write("bad.txt", text);
  ReadOptions second;
  second.read_range = true;
  second.range_begin = text.find("-1 2:1");
  second.range_end = text.size();
  try {
    read_libsvm_rows(bad, second);
    FAIL() << "the empty line was read";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.line(), 2);
  }
}

TEST(LibsvmReader, NonIntegerLabelAcceptedByDefault) {
  test::ScratchDir dir;
  const LabeledCsr csr = read_libsvm_csr(dir.write("data.txt", "1.5 1:1\n-0.25\n"));
  EXPECT_EQ(csr.labels, (std::vector<double>{1.5, -0.25}));
}

TEST(LibsvmReader, IntegerLabelsAcceptsIntegralForms) {
  test::ScratchDir dir;
  ReadOptions options;
  options.integer_labels = true;
  const LabeledCsr csr =
      read_libsvm_csr(dir.write("data.txt", "+1 1:1\n-1\n1\n2.0\n1e1\n-2147483647\n"), options);
  EXPECT_EQ(csr.labels, (std::vector<double>{1, -1, 1, 2, 10, -2147483647}));
}

// ---------------------------------------------------------------------------
// Rejected forms: a ParseError "path:line: reason (column c)" from both
// readers.

struct RejectCase {
  const char* name;
  std::string content;
  std::int64_t line;
  std::string reason;
  bool integer_labels = false;
};

void PrintTo(const RejectCase& c, std::ostream* os) { *os << c.name; }

class Rejects : public ::testing::TestWithParam<RejectCase> {};

TEST_P(Rejects, WithExactMessage) {
  const RejectCase& c = GetParam();
  test::ScratchDir dir;
  const std::string path = dir.write("data.txt", c.content);
  ReadOptions options;
  options.integer_labels = c.integer_labels;
  EXPECT_THROW(read_libsvm_csr(path, options), ParseError);
  EXPECT_THROW(read_libsvm_csc(path, options), ParseError);
  const auto error = parse_error(path, options);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(std::string(error->what()), path + ":" + std::to_string(c.line) + ": " + c.reason);
  EXPECT_EQ(error->path(), path);
  EXPECT_EQ(error->line(), c.line);
  EXPECT_EQ(error->reason(), c.reason);
  EXPECT_EQ(error_message([&] { read_libsvm_csc(path, options); }), error->what());
  EXPECT_EQ(error_message([&] { read_libsvm_rows(path, options); }), error->what());
  for (const unsigned threads : {1u, 3u}) {
    options.threads = threads;
    options.min_bytes_per_thread = 1;
    expect_rows_read_as_columns(path, options);
  }
}

std::string with_nul(const std::string& before, const std::string& after) {
  return before + std::string(1, '\0') + after;
}

INSTANTIATE_TEST_SUITE_P(
    LibsvmReader, Rejects,
    ::testing::Values(
        // Empty lines.
        RejectCase{"EmptyLineInMiddle", "1 1:1\n\n2 2:1\n", 2, "empty line (column 1)"},
        RejectCase{"EmptyFirstLine", "\n1 1:1\n", 1, "empty line (column 1)"},
        RejectCase{"TrailingEmptyLine", "1 1:1\n\n", 2, "empty line (column 1)"},
        RejectCase{"WhitespaceOnlyLine", "1 1:1\n \t \n2 2:1\n", 2, "empty line (column 1)"},
        RejectCase{"EmptyCrLfLine", "1 1:1\r\n\r\n2 1:1\r\n", 2, "empty line (column 1)"},
        // Labels.
        RejectCase{"MissingLabel", "1:0.5 2:1\n", 1,
                   "missing label: line starts with feature '1:0.5' (column 1)"},
        RejectCase{"MissingLabelAfterLeadingSpace", "1 1:1\n  3:1\n", 2,
                   "missing label: line starts with feature '3:1' (column 3)"},
        RejectCase{"LabelNotANumber", "abc 1:1\n", 1, "label 'abc' is not a number (column 1)"},
        RejectCase{"Utf8ByteOrderMark",
                   "\xEF\xBB\xBF"
                   "1 1:1\n",
                   1,
                   "the file starts with a UTF-8 byte order mark (EF BB BF); save it without one "
                   "(column 1)"},
        RejectCase{"Utf16Text",
                   with_nul("\xFF\xFE"
                            "1",
                            " \x00"
                            "1"),
                   1,
                   "the file is UTF-16 text (it starts with a byte order mark); save it as ASCII "
                   "or UTF-8 (column 1)"},
        RejectCase{"ByteOrderMarkOnlyCountsAtTheStart",
                   "1 1:1\n\xEF\xBB\xBF"
                   "1 1:1\n",
                   2, "label '\\xEF\\xBB\\xBF1' is not a number (column 1)"},
        RejectCase{"LabelWithTrailingCharacters", "1x 1:1\n", 1,
                   "label '1x' has trailing characters (column 1)"},
        RejectCase{"LabelNan", "nan 1:1\n", 1, "label 'nan' is not a finite number (column 1)"},
        RejectCase{"LabelInf", "inf 1:1\n", 1, "label 'inf' is not a finite number (column 1)"},
        RejectCase{"LabelMinusInf", "-inf\n", 1, "label '-inf' is not a finite number (column 1)"},
        RejectCase{"LabelOutOfRange", "1e999 1:1\n", 1,
                   "label '1e999' is out of the range of a double (column 1)"},
        RejectCase{"LabelTwoSigns", "+-1 1:1\n", 1, "label '+-1' is not a number (column 1)"},
        RejectCase{"LabelInvalidUtf8", "\xFF 1:1\n", 1, "label '\\xFF' is not a number (column 1)"},
        RejectCase{"LongLabelShortened", std::string(50, 'a') + " 1:1\n", 1,
                   "label '" + std::string(40, 'a') + "...' is not a number (column 1)"},
        RejectCase{"NonIntegerLabelWhenIntegerLabels", "1 1:1\n1.5 1:1\n", 2,
                   "label '1.5' is not an integer class label (column 1)", true},
        RejectCase{"HugeLabelWhenIntegerLabels", "3e9 1:1\n", 1,
                   "label '3e9' is not an integer class label (column 1)", true},
        // Indices.
        RejectCase{"IndexZero", "1 0:1\n", 1, "feature index 0: indices are 1-based (column 3)"},
        RejectCase{"NegativeIndex", "1 -1:1\n", 1,
                   "negative feature index '-1': indices are 1-based (column 3)"},
        RejectCase{"IndexJustAboveMaximum", "1 2147483648:1\n", 1,
                   "feature index '2147483648' exceeds 2147483647 (column 3)"},
        RejectCase{"IndexAbove64Bits", "1 99999999999999999999:1\n", 1,
                   "feature index '99999999999999999999' exceeds 2147483647 (column 3)"},
        RejectCase{"IndexNotAnInteger", "1 a:1\n", 1,
                   "feature index 'a' is not an integer (column 3)"},
        RejectCase{"FractionalIndex", "1 1.5:1\n", 1,
                   "feature index '1.5' is not an integer (column 3)"},
        RejectCase{"IndexInvalidUtf8", "1 \xE2\x82\xAC:1\n", 1,
                   "feature index '\\xE2\\x82\\xAC' is not an integer (column 3)"},
        RejectCase{"DecreasingIndices", "1 2:1 1:1\n", 1,
                   "feature index 1 not greater than previous index 2 (column 7)"},
        RejectCase{"DuplicateIndex", "1 2:1 2:3\n", 1, "duplicate feature index 2 (column 7)"},
        // Pair syntax.
        RejectCase{"MissingValue", "1 3:\n", 1, "missing value after '3:' (column 5)"},
        RejectCase{"MissingIndex", "1 :3\n", 1,
                   "missing feature index before ':' in ':3' (column 3)"},
        RejectCase{"NoColon", "1 3\n", 1, "expected index:value, got '3' (column 3)"},
        RejectCase{"SpaceBeforeColon", "1 1 :0.5\n", 1,
                   "expected index:value, got '1' (no spaces are allowed around ':') (column 3)"},
        RejectCase{"SpaceAfterColon", "1 1: 0.5\n", 1,
                   "missing value after '1:' (no spaces are allowed around ':') (column 5)"},
        RejectCase{"ColonBeforeComment", "1 1: # note\n", 1, "missing value after '1:' (column 5)"},
        RejectCase{"ColonBeforeAPair", "1 1: 2:1\n", 1, "missing value after '1:' (column 5)"},
        RejectCase{"TwoColons", "1 1:2:3\n", 1,
                   "value '2:3' of feature 1 has trailing characters (column 5)"},
        // Values.
        RejectCase{"ValueTrailingGarbage", "1 1:0.5x\n", 1,
                   "value '0.5x' of feature 1 has trailing characters (column 5)"},
        RejectCase{"ValueNan", "1 1:nan\n", 1,
                   "value 'nan' of feature 1 is not a finite number (column 5)"},
        RejectCase{"ValueInf", "1 1:inf\n", 1,
                   "value 'inf' of feature 1 is not a finite number (column 5)"},
        RejectCase{"ValueMinusInf", "1 1:-inf\n", 1,
                   "value '-inf' of feature 1 is not a finite number (column 5)"},
        RejectCase{"ValueOutOfRange", "1 1:1e999\n", 1,
                   "value '1e999' of feature 1 is out of the range of a double (column 5)"},
        RejectCase{"ValueSignOnly", "1 1:-\n", 1,
                   "value '-' of feature 1 is not a number (column 5)"},
        RejectCase{"ValueWithNul", with_nul("1 1:0", "5\n"), 1,
                   "value '0\\x005' of feature 1 has trailing characters (column 5)"},
        RejectCase{"ValueInvalidUtf8", "1 1:\xC3\xA9\n", 1,
                   "value '\\xC3\\xA9' of feature 1 is not a number (column 5)"},
        RejectCase{"HexFloatValue", "1 1:0x1p-1\n", 1,
                   "value '0x1p-1' of feature 1 has trailing characters (column 5)"},
        RejectCase{"CarriageReturnNotShown", "1 1:x\r\n", 1,
                   "value 'x' of feature 1 is not a number (column 5)"},
        // Line and column numbers.
        RejectCase{"ColumnCountsLeadingBlanksAndTabs", "  1\t2:1\t3:x\n", 1,
                   "value 'x' of feature 3 is not a number (column 11)"},
        RejectCase{"LineCountsCommentOnlyLines", "# header\n1 1:1\n# c\n  # d\n1 0:1\n", 5,
                   "feature index 0: indices are 1-based (column 3)"},
        RejectCase{"LineCountsLabelOnlyAndCrLfLines", "1\r\n2 1:1\r\n3\r\n4 -2:1\r\n", 4,
                   "negative feature index '-2': indices are 1-based (column 3)"},
        RejectCase{"ErrorOnLastLineWithoutNewline", "1 1:1\n2 1:x", 2,
                   "value 'x' of feature 1 is not a number (column 5)"}),
    [](const ::testing::TestParamInfo<RejectCase>& param_info) {
      return std::string(param_info.param.name);
    });

TEST(LibsvmReader, EmptyFileHasNoInstances) {
  test::ScratchDir dir;
  const std::string path = dir.write("empty.txt", "");
  EXPECT_THROW(read_libsvm_csr(path), Error);
  EXPECT_THROW(read_libsvm_csc(path), Error);
  const std::string expected = path + ": no instances (the file is empty or holds only comments)";
  EXPECT_EQ(error_message([&] { read_libsvm_csr(path); }), expected);
  EXPECT_EQ(error_message([&] { read_libsvm_csc(path); }), expected);
}

TEST(LibsvmReader, CommentsOnlyFileHasNoInstances) {
  test::ScratchDir dir;
  const std::string path = dir.write("comments.txt", "# a\n  # b:c\r\n#");
  EXPECT_EQ(error_message([&] { read_libsvm_csr(path); }),
            path + ": no instances (the file is empty or holds only comments)");
  // A plain Error: there is no line to point at.
  try {
    read_libsvm_csr(path);
  } catch (const ParseError&) {
    ADD_FAILURE() << "expected a plain Error, got a ParseError";
  } catch (const Error&) {
  }
}

TEST(LibsvmReader, MissingFileIsIoError) {
  test::ScratchDir dir;
  const std::string path = dir.file("missing.txt");
  EXPECT_THROW(read_libsvm_csr(path), IoError);
  EXPECT_THROW(read_libsvm_csc(path), IoError);
  EXPECT_THROW(LibsvmParser(path, {}), IoError);
  EXPECT_EQ(error_message([&] { read_libsvm_csr(path); }), path + ": cannot open: no such file");
}

TEST(LibsvmReader, DirectoryIsIoError) {
  test::ScratchDir dir;
  const std::string path = dir.file("subdir");
  std::filesystem::create_directory(path);
  EXPECT_THROW(read_libsvm_csr(path), IoError);
  EXPECT_THROW(read_libsvm_csc(path), IoError);
  EXPECT_EQ(error_message([&] { read_libsvm_csr(path); }), path + ": is a directory");
}

// A FIFO is read as a stream, front to back, as from a pipe: the same
// matrix as from the file, with any number of threads.
TEST(LibsvmReader, FifoIsReadLikeTheFile) {
  test::ScratchDir dir;
  const std::string text = test::read_file(test::data_path("svmlight_example1.test"));
  const std::string path = dir.write("data.txt", text);
  const std::string fifo = dir.file("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << "cannot create a FIFO";
  const auto feed = [&] {
    return std::thread([&] { std::ofstream(fifo, std::ios::binary) << text; });
  };
  const LabeledCsr rows = read_libsvm_csr(path);
  std::thread writer = feed();
  const LabeledCsr piped_rows = read_libsvm_csr(fifo);
  writer.join();
  EXPECT_EQ(piped_rows.labels, rows.labels);
  EXPECT_EQ(piped_rows.features.row_ptr, rows.features.row_ptr);
  EXPECT_EQ(piped_rows.features.col_idx, rows.features.col_idx);
  EXPECT_EQ(piped_rows.features.values, rows.features.values);
  for (unsigned threads : {1u, 2u, 3u}) {
    ReadOptions options;
    options.threads = threads;
    options.min_bytes_per_thread = 4096;  // many blocks
    writer = feed();
    const LabeledCsc piped = read_libsvm_csc(fifo, options);
    writer.join();
    EXPECT_EQ(piped.labels, rows.labels);
    expect_same_matrix(piped.features, to_csc(rows.features));
  }
}

// Opening a pipe asks for a 1 MiB pipe buffer (64 KiB by default), so that
// the writer runs ahead in larger steps and both sides wake up less often;
// it is a hint, granted up to the system's limit for unprivileged users.
TEST(LibsvmReader, PipeBufferIsEnlarged) {
  int ends[2];
  ASSERT_EQ(::pipe(ends), 0);
  const int before = ::fcntl(ends[0], F_GETPIPE_SZ);
  {
    const InputStream in("/dev/fd/" + std::to_string(ends[0]));
    EXPECT_FALSE(in.regular());
  }
  const int after = ::fcntl(ends[0], F_GETPIPE_SZ);
  long limit = 0;
  std::ifstream("/proc/sys/fs/pipe-max-size") >> limit;
  // Above the limit, the request fails and the buffer stays as it was.
  const long expected = ::geteuid() == 0 || limit >= (1L << 20) ? 1L << 20 : before;
  EXPECT_GE(after, expected) << "before " << before << ", limit " << limit;
  ::close(ends[0]);
  ::close(ends[1]);
}

// Devices are refused: reading /dev/zero would never end.
TEST(LibsvmReader, DeviceIsIoError) {
  EXPECT_THROW(read_libsvm_csr("/dev/zero"), IoError);
  EXPECT_EQ(error_message([&] { read_libsvm_csc("/dev/zero"); }),
            "/dev/zero: not a regular file or pipe");
}

// ---------------------------------------------------------------------------
// LibsvmParser: rows, physical line numbers and reuse of the row.

TEST(LibsvmReader, ParserCountsPhysicalLines) {
  test::ScratchDir dir;
  const std::string path = dir.write("data.txt", "# a\n1 1:1 3:2\n# b\n  # c\r\n-1\n# d");
  LibsvmParser parser(path, {});
  EXPECT_EQ(parser.path(), path);
  EXPECT_EQ(parser.lines_read(), 0);
  ParsedRow row;
  ASSERT_TRUE(parser.next(row));
  EXPECT_EQ(row.line, 2);
  EXPECT_EQ(parser.lines_read(), 2);
  EXPECT_EQ(row.label, 1);
  EXPECT_EQ(row.indices, (std::vector<Index>{0, 2}));
  EXPECT_EQ(row.values, (std::vector<double>{1, 2}));
  ASSERT_TRUE(parser.next(row));
  EXPECT_EQ(row.line, 5);
  EXPECT_EQ(parser.lines_read(), 5);
  EXPECT_EQ(row.label, -1);
  EXPECT_TRUE(row.indices.empty());  // the row is reused: the old pairs are cleared
  EXPECT_TRUE(row.values.empty());
  EXPECT_FALSE(parser.next(row));
  EXPECT_EQ(parser.lines_read(), 6);
  EXPECT_FALSE(parser.next(row));
}

TEST(LibsvmReader, ParserLinesReadWithFinalNewline) {
  test::ScratchDir dir;
  LibsvmParser parser(dir.write("data.txt", "1 1:1\n2 2:1\n# end\n"), {});
  ParsedRow row;
  while (parser.next(row)) {
  }
  EXPECT_EQ(parser.lines_read(), 3);
}

// ---------------------------------------------------------------------------
// Lines longer than the read buffer and lines across buffer boundaries.

TEST(LibsvmReader, VeryLongLine) {
  constexpr Index kPairs = 200000;
  std::string text = "-1 5:0.5\n1";
  for (Index j = 1; j <= kPairs; ++j) text += " " + std::to_string(j) + ":" + std::to_string(j);
  text += "\n2 7:0.25\n";
  ASSERT_GT(text.size(), std::size_t{2} << 20);  // more than twice the initial buffer
  test::ScratchDir dir;
  const std::string path = dir.write("long.txt", text);
  const LabeledCsr csr = read_libsvm_csr(path);
  const CsrMatrix& m = csr.features;
  EXPECT_EQ(csr.labels, (std::vector<double>{-1, 1, 2}));
  EXPECT_EQ(m.num_cols, kPairs);
  EXPECT_EQ(m.row_ptr, (std::vector<std::int64_t>{0, 1, 1 + kPairs, 2 + kPairs}));
  ASSERT_EQ(m.nnz(), kPairs + std::size_t{2});
  bool all_match = true;
  for (Index j = 0; j < kPairs; ++j) {
    all_match = all_match && m.col_idx[j + 1] == j && m.values[j + 1] == j + 1.0;
  }
  EXPECT_TRUE(all_match);
  EXPECT_EQ(m.col_idx.back(), 6u);
  EXPECT_EQ(m.values.back(), 0.25);
  expect_same_matrix(read_libsvm_csc(path).features, to_csc(m));
}

// A file of 16-byte lines "+1 1:0.dddd 2:d\n" totalling exactly 3 MiB (plus
// `shift` leading spaces on the first line), so that with shift 0 every buffer
// of 1 MiB ends exactly on a newline and other shifts split lines across reads.
struct BoundaryCase {
  std::size_t shift;
  bool final_newline;
};

void PrintTo(const BoundaryCase& c, std::ostream* os) {
  *os << "shift " << c.shift << (c.final_newline ? " with" : " without") << " final newline";
}

class BufferBoundary : public ::testing::TestWithParam<BoundaryCase> {};

constexpr std::size_t kBoundaryLines = (std::size_t{3} << 20) / 16;

std::string boundary_line(std::size_t i) {
  std::string digits = std::to_string(i % 10000);
  digits.insert(0, 4 - digits.size(), '0');
  return std::string(i % 2 == 0 ? "+1" : "-1") + " 1:0." + digits + " 2:" + std::to_string(i % 10) +
         "\n";
}

TEST_P(BufferBoundary, NoLineLost) {
  const BoundaryCase& c = GetParam();
  std::string text(c.shift, ' ');
  for (std::size_t i = 0; i < kBoundaryLines; ++i) text += boundary_line(i);
  ASSERT_EQ(text.size(), (std::size_t{3} << 20) + c.shift);
  if (!c.final_newline) text.back() = ' ';
  test::ScratchDir dir;
  const std::string path = dir.write("big.txt", text);

  const LabeledCsr csr = read_libsvm_csr(path);
  const CsrMatrix& m = csr.features;
  ASSERT_EQ(m.num_rows, kBoundaryLines);
  ASSERT_EQ(m.nnz(), 2 * kBoundaryLines);
  EXPECT_EQ(m.num_cols, 2u);
  double label_sum = 0;
  double first_sum = 0;
  double second_sum = 0;
  double expected_first_sum = 0;
  double expected_second_sum = 0;
  std::size_t mismatches = 0;
  for (std::size_t i = 0; i < kBoundaryLines; ++i) {
    label_sum += csr.labels[i];
    first_sum += m.values[2 * i];
    second_sum += m.values[2 * i + 1];
    const double first = static_cast<double>(i % 10000) / 10000.0;
    const double second = static_cast<double>(i % 10);
    expected_first_sum += first;
    expected_second_sum += second;
    const bool ok = csr.labels[i] == (i % 2 == 0 ? 1.0 : -1.0) &&
                    m.row_ptr[i + 1] == static_cast<std::int64_t>(2 * i + 2) &&
                    m.col_idx[2 * i] == 0 && m.col_idx[2 * i + 1] == 1 &&
                    m.values[2 * i] == first && m.values[2 * i + 1] == second;
    if (!ok && mismatches++ == 0) ADD_FAILURE() << "first mismatch at row " << i;
  }
  EXPECT_EQ(mismatches, 0u);
  EXPECT_EQ(label_sum, 0);
  EXPECT_EQ(first_sum, expected_first_sum);
  EXPECT_EQ(second_sum, expected_second_sum);

  LibsvmParser parser(path, {});
  ParsedRow row;
  std::size_t rows = 0;
  while (parser.next(row)) ++rows;
  EXPECT_EQ(rows, kBoundaryLines);
  EXPECT_EQ(parser.lines_read(), static_cast<std::int64_t>(kBoundaryLines));

  expect_same_matrix(read_libsvm_csc(path).features, to_csc(m));
}

INSTANTIATE_TEST_SUITE_P(LibsvmReader, BufferBoundary,
                         ::testing::Values(BoundaryCase{0, true}, BoundaryCase{0, false},
                                           BoundaryCase{1, true}, BoundaryCase{1, false},
                                           BoundaryCase{8, true}, BoundaryCase{15, false}),
                         [](const ::testing::TestParamInfo<BoundaryCase>& param_info) {
                           return "Shift" + std::to_string(param_info.param.shift) +
                                  (param_info.param.final_newline ? "WithNewline"
                                                                  : "WithoutNewline");
                         });

TEST(LibsvmReader, LineNumberOfErrorAfterSeveralBuffers) {
  std::string text;
  for (std::size_t i = 0; i < kBoundaryLines; ++i) text += boundary_line(i);
  text += "1 1:0.5 2:x\n";
  test::ScratchDir dir;
  const std::string path = dir.write("big.txt", text);
  const auto error = parse_error(path);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->line(), static_cast<std::int64_t>(kBoundaryLines + 1));
  EXPECT_EQ(std::string(error->what()), path + ":" + std::to_string(kBoundaryLines + 1) +
                                            ": value 'x' of feature 2 is not a number (column 11)");
}

// ---------------------------------------------------------------------------
// The bias column of read_libsvm_csc.

TEST(LibsvmReader, BiasAppendsConstantLastColumn) {
  test::ScratchDir dir;
  const std::string path = dir.write("data.txt", "1 1:1 3:2\n-1\n2 2:5\n");
  ReadOptions options;
  options.bias = 0.5;
  const LabeledCsc csc = read_libsvm_csc(path, options);
  EXPECT_EQ(csc.labels, (std::vector<double>{1, -1, 2}));
  EXPECT_EQ(csc.features.num_rows, 3u);
  EXPECT_EQ(csc.features.num_cols, 4u);
  EXPECT_EQ(csc.features.col_ptr, (std::vector<std::int64_t>{0, 1, 2, 3, 6}));
  EXPECT_EQ(csc.features.row_idx, (Buffer<Index>{0, 2, 0, 0, 1, 2}));
  EXPECT_EQ(csc.features.values, (Buffer<double>{1, 5, 2, 0.5, 0.5, 0.5}));
}

TEST(LibsvmReader, BiasZeroStillAppendsColumn) {
  test::ScratchDir dir;
  ReadOptions options;
  options.bias = 0;
  const LabeledCsc csc = read_libsvm_csc(dir.write("data.txt", "1 2:1\n-1 1:3\n"), options);
  EXPECT_EQ(csc.features.num_cols, 3u);
  EXPECT_EQ(csc.features.col_ptr, (std::vector<std::int64_t>{0, 1, 2, 4}));
  EXPECT_EQ(csc.features.row_idx, (Buffer<Index>{1, 0, 0, 1}));
  EXPECT_EQ(csc.features.values, (Buffer<double>{3, 1, 0, 0}));
}

TEST(LibsvmReader, BiasWithOnlyLabelOnlyRows) {
  test::ScratchDir dir;
  ReadOptions options;
  options.bias = 1;
  const LabeledCsc csc = read_libsvm_csc(dir.write("data.txt", "1\n-1\n"), options);
  EXPECT_EQ(csc.features.num_cols, 1u);
  EXPECT_EQ(csc.features.col_ptr, (std::vector<std::int64_t>{0, 2}));
  EXPECT_EQ(csc.features.row_idx, (Buffer<Index>{0, 1}));
  EXPECT_EQ(csc.features.values, (Buffer<double>{1, 1}));
}

TEST(LibsvmReader, NegativeBiasAddsNoColumn) {
  test::ScratchDir dir;
  const std::string path = dir.write("data.txt", "1 1:1 3:2\n-1\n");
  const LabeledCsc csc = read_libsvm_csc(path);  // default bias -1
  EXPECT_EQ(csc.features.num_cols, 3u);
  EXPECT_EQ(csc.features.nnz(), 2u);
}

TEST(LibsvmReader, RowReaderIgnoresBias) {
  test::ScratchDir dir;
  ReadOptions options;
  options.bias = 1;
  const LabeledCsr csr = read_libsvm_csr(dir.write("data.txt", "1 1:1 3:2\n-1\n"), options);
  EXPECT_EQ(csr.features.num_cols, 3u);
  EXPECT_EQ(csr.features.nnz(), 2u);
}

TEST(LibsvmReader, BiasOnHeartScale) {
  ReadOptions options;
  options.bias = 1;
  const LabeledCsc csc = read_libsvm_csc(test::data_path("heart_scale"), options);
  const CscMatrix& m = csc.features;
  ASSERT_EQ(m.num_cols, 14u);
  EXPECT_EQ(m.nnz(), 3378u + 270u);
  EXPECT_EQ(m.col_ptr[14] - m.col_ptr[13], 270);
  const auto begin = static_cast<std::size_t>(m.col_ptr[13]);
  bool all_match = true;
  for (std::size_t r = 0; r < 270; ++r) {
    all_match = all_match && m.row_idx[begin + r] == r && m.values[begin + r] == 1.0;
  }
  EXPECT_TRUE(all_match);
}

// ---------------------------------------------------------------------------
// The data sets of data/: row and column readers agree, and the known counts.

class DataSet : public ::testing::TestWithParam<const char*> {};

TEST_P(DataSet, CsrAndCscAgree) {
  const std::string path = test::data_path(GetParam());
  const LabeledCsr csr = read_libsvm_csr(path);
  const LabeledCsc csc = read_libsvm_csc(path);
  EXPECT_EQ(csc.labels, csr.labels);
  expect_same_matrix(csc.features, to_csc(csr.features));
}

TEST_P(DataSet, RowReaderGivesTheColumnReadersRows) {
  expect_rows_read_as_columns_for_any_options(test::data_path(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(LibsvmReader, DataSet,
                         ::testing::Values("heart_scale", "rcv1_small", "svmlight_example1.test"),
                         [](const ::testing::TestParamInfo<const char*>& param_info) {
                           std::string name = param_info.param;
                           for (char& ch : name) {
                             if (ch == '.') ch = '_';
                           }
                           return name;
                         });

// The largest |value| that the reader finds on the way (for
// check_magnitudes()) is the matrix's, bias column included, on any number
// of threads; without a nonzero it is 0.
double largest_in(const CscMatrix& m) {
  double largest = 0;
  for (const double v : m.values) largest = std::max(largest, std::fabs(v));
  return largest;
}

TEST_P(DataSet, LargestMagnitudeIsTheMatrixs) {
  const std::string path = test::data_path(GetParam());
  for (const unsigned threads : {1u, 3u}) {
    ReadOptions options;
    options.threads = threads;
    options.min_bytes_per_thread = 1;
    const LabeledCsc csc = read_libsvm_csc(path, options);
    EXPECT_GT(csc.largest_magnitude, 0);
    EXPECT_EQ(csc.largest_magnitude, largest_in(csc.features));
  }
}

TEST(LibsvmReader, LargestMagnitudeCountsSignsAndTheBias) {
  test::ScratchDir dir;
  const std::string path = dir.write("data.txt", "1 1:0.5 3:-7.25\n-1\n2 2:3e2\n1 5:-300.5\n");
  EXPECT_EQ(read_libsvm_csc(path).largest_magnitude, 300.5);
  ReadOptions options;
  options.bias = 1000;
  EXPECT_EQ(read_libsvm_csc(path, options).largest_magnitude, 1000);
  EXPECT_EQ(read_libsvm_csc(dir.write("labels.txt", "1\n-1\n")).largest_magnitude, 0);
}

TEST(LibsvmReader, HeartScaleCounts) {
  const LabeledCsr csr = read_libsvm_csr(test::data_path("heart_scale"));
  EXPECT_EQ(csr.features.num_rows, 270u);
  EXPECT_EQ(csr.labels.size(), 270u);
  EXPECT_EQ(csr.features.num_cols, 13u);
  EXPECT_EQ(csr.features.nnz(), 3378u);
}

TEST(LibsvmReader, HeartScaleFirstRow) {
  // "+1 1:0.708333 2:1 3:1 4:-0.320755 5:-0.105023 6:-1 7:1 8:-0.419847 9:-1
  //  10:-0.225806 12:1 13:-1 " (with a trailing space)
  const LabeledCsr csr = read_libsvm_csr(test::data_path("heart_scale"));
  EXPECT_EQ(csr.labels[0], 1);
  EXPECT_EQ(csr.features.row_ptr[1], 12);
  EXPECT_EQ(std::vector<Index>(csr.features.col_idx.begin(), csr.features.col_idx.begin() + 12),
            (std::vector<Index>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12}));
  EXPECT_EQ(std::vector<double>(csr.features.values.begin(), csr.features.values.begin() + 12),
            (std::vector<double>{0.708333, 1, 1, -0.320755, -0.105023, -1, 1, -0.419847, -1,
                                 -0.225806, 1, -1}));
}

TEST(LibsvmReader, Rcv1SmallCounts) {
  const LabeledCsr csr = read_libsvm_csr(test::data_path("rcv1_small"));
  EXPECT_EQ(csr.features.num_rows, 1000u);
  EXPECT_EQ(csr.features.num_cols, 47117u);
  EXPECT_EQ(csr.features.nnz(), 77739u);
}

TEST(LibsvmReader, W8aCounts) {
  const std::string path = test::data_path("w8a");
  const LabeledCsr csr = read_libsvm_csr(path);
  EXPECT_EQ(csr.features.num_rows, 49749u);
  EXPECT_EQ(csr.features.num_cols, 300u);
  EXPECT_EQ(csr.features.nnz(), 579586u);
  std::size_t label_only = 0;
  for (std::size_t r = 0; r < csr.features.num_rows; ++r) {
    label_only += csr.features.row_ptr[r + 1] == csr.features.row_ptr[r];
  }
  EXPECT_EQ(label_only, 4203u);  // from data/README.md
  const LabeledCsc csc = read_libsvm_csc(path);
  EXPECT_EQ(csc.features.num_rows, 49749u);
  EXPECT_EQ(csc.features.num_cols, 300u);
  EXPECT_EQ(csc.features.nnz(), 579586u);
}

TEST(LibsvmReader, SvmlightExampleTestHasTwoLabelOnlyRows) {
  const LabeledCsr csr = read_libsvm_csr(test::data_path("svmlight_example1.test"));
  EXPECT_EQ(csr.features.num_rows, 600u);
  std::size_t label_only = 0;
  for (std::size_t r = 0; r < csr.features.num_rows; ++r) {
    label_only += csr.features.row_ptr[r + 1] == csr.features.row_ptr[r];
  }
  EXPECT_EQ(label_only, 2u);
}

// ---------------------------------------------------------------------------
// Reading with several threads: the file is cut into line-aligned ranges, and
// the matrix and error line numbers must not depend on how.

LabeledCsc read_with_threads(const std::string& path, unsigned threads) {
  ReadOptions options;
  options.threads = threads;
  options.min_bytes_per_thread = 1;  // cut even small files
  return read_libsvm_csc(path, options);
}

void expect_same_csc(const LabeledCsc& a, const LabeledCsc& b) {
  EXPECT_EQ(a.labels, b.labels);
  EXPECT_EQ(a.features.num_rows, b.features.num_rows);
  EXPECT_EQ(a.features.num_cols, b.features.num_cols);
  EXPECT_EQ(a.features.col_ptr, b.features.col_ptr);
  EXPECT_EQ(a.features.row_idx, b.features.row_idx);
  EXPECT_EQ(a.features.values, b.features.values);
}

TEST(LibsvmReaderThreads, AnyThreadCountGivesTheSameMatrix) {
  const LabeledCsc one = read_with_threads(test::data_path("svmlight_example1.test"), 1);
  for (unsigned threads : {2u, 3u, 7u, 64u}) {
    expect_same_csc(one, read_with_threads(test::data_path("svmlight_example1.test"), threads));
  }
}

// The column reader's streams share page runs by groups of buckets and are
// freed a group at a time; its matrix must be the row reader's, transposed,
// on any thread count. The first 40 columns (one bucket) take a stream of
// several MiB, past the runs of one mapping; columns up to 200,000 spread
// over about 200 buckets, 25 groups.
TEST(LibsvmReaderThreads, LongStreamsAndManyBucketGroupsGiveTheRowReadersMatrix) {
  test::ScratchDir dir;
  std::string text;
  for (std::uint32_t j = 0; j < 60000; ++j) {
    text += j % 3 == 0 ? "+1" : "-1";
    for (std::uint32_t k = 0; k < 8; ++k) {
      text += " " + std::to_string(1 + (j + 5 * k) % 40) + ":" + std::to_string(j % 97 + k) + "." +
              std::to_string(j % 13);
    }
    text += " " + std::to_string(100 + (j * 7919u) % 199000) + ":" + (j % 2 ? "1e-3" : "-2.5");
    text += "\n";
  }
  // The pairs of a line must come in increasing index order: sort them.
  std::string sorted;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    std::istringstream line(text.substr(start, end - start));
    std::string label, pair;
    line >> label;
    std::vector<std::pair<std::uint32_t, std::string>> pairs;
    while (line >> pair) {
      const auto colon = pair.find(':');
      const auto index = static_cast<std::uint32_t>(std::stoul(pair.substr(0, colon)));
      if (pairs.empty() || pairs.back().first != index) pairs.emplace_back(index, pair);
    }
    std::sort(pairs.begin(), pairs.end());
    pairs.erase(std::unique(pairs.begin(), pairs.end(),
                            [](const auto& a, const auto& b) { return a.first == b.first; }),
                pairs.end());
    sorted += label;
    for (const auto& p : pairs) sorted += " " + p.second;
    sorted += "\n";
    start = end + 1;
  }
  const std::string path = dir.write("long.svm", sorted);
  const LabeledCsr rows = read_libsvm_csr(path);
  const CscMatrix expected = to_csc(rows.features, rows.features.num_cols);
  for (unsigned threads : {1u, 2u, 3u}) {
    const LabeledCsc columns = read_with_threads(path, threads);
    EXPECT_EQ(columns.labels, rows.labels);
    EXPECT_EQ(columns.features.num_cols, expected.num_cols);
    EXPECT_EQ(columns.features.col_ptr, expected.col_ptr);
    EXPECT_TRUE(std::equal(columns.features.row_idx.begin(), columns.features.row_idx.end(),
                           expected.row_idx.begin(), expected.row_idx.end()));
    EXPECT_TRUE(std::equal(columns.features.values.begin(), columns.features.values.end(),
                           expected.values.begin(), expected.values.end()));
  }
}

TEST(LibsvmReaderThreads, RangesCutAtCommentsLabelOnlyLinesAndCrlf) {
  test::ScratchDir dir;
  std::string text;
  for (int k = 0; k < 50; ++k) {
    text += "# comment " + std::to_string(k) + "\n";
    text += "1 2:0.5 7:1\r\n";
    text += "-1\n";
    text += "2 1:3 # trailing\n";
  }
  text += "1 9:1";  // no final newline
  const std::string path = dir.write("mixed.txt", text);
  const LabeledCsc one = read_with_threads(path, 1);
  EXPECT_EQ(one.features.num_rows, 151u);
  for (unsigned threads = 2; threads <= 40; ++threads) {
    SCOPED_TRACE(threads);
    expect_same_csc(one, read_with_threads(path, threads));
  }
  expect_rows_read_as_columns_for_any_options(path);
}

// Reading `path` with each thread count fails at `line` with `reason`.
void expect_error_for_any_thread_count(const std::string& path, std::int64_t line,
                                       const std::string& reason) {
  for (unsigned threads : {1u, 2u, 5u, 33u}) {
    SCOPED_TRACE(threads);
    try {
      read_with_threads(path, threads);
      FAIL() << "no error";
    } catch (const ParseError& e) {
      EXPECT_EQ(e.line(), line);
      EXPECT_EQ(e.reason(), reason);
    }
  }
  expect_rows_read_as_columns_for_any_options(path);
}

TEST(LibsvmReaderThreads, TheFirstErrorInTheFileIsReportedWithItsLine) {
  test::ScratchDir dir;
  std::string text;
  for (int k = 0; k < 300; ++k) text += (k % 7 == 0 ? "# note\n" : "1 1:1 2:2\n");
  const std::string bad_value = "1 3:0.5x\n";  // line 301
  std::string middle;
  for (int k = 0; k < 100; ++k) middle += "-1 4:1\n";
  const std::string bad_order = "1 2:1 1:1\n";  // line 402
  // The first pass skips values and stops at line 402; the error reported
  // must still be the first one in the file.
  expect_error_for_any_thread_count(dir.write("both.txt", text + bad_value + middle + bad_order),
                                    301,
                                    "value '0.5x' of feature 3 has trailing characters (column 5)");
  expect_error_for_any_thread_count(dir.write("value.txt", text + bad_value + middle), 301,
                                    "value '0.5x' of feature 3 has trailing characters (column 5)");
  expect_error_for_any_thread_count(dir.write("order.txt", text + "1 3:0.5\n" + middle + bad_order),
                                    402,
                                    "feature index 1 not greater than previous index 2 (column 7)");
}

// An index whose column arrays would exceed the memory limit is refused on
// its line before anything that size is allocated; the limit counts 16 bytes
// per column and thread plus 16 per column.
TEST(LibsvmReaderMemory, AnIndexTooLargeForTheColumnArraysNamesItsLine) {
  test::ScratchDir dir;
  const std::string path = dir.write("wide.txt", "1 1:1\n-1 2:1\n1 3:1 70000:2\n");
  ReadOptions options;
  options.threads = 1;
  options.column_memory_limit = 2 << 20;  // 65536 columns of 32 bytes
  EXPECT_THROW(read_libsvm_csc(path, options), ParseError);
  EXPECT_EQ(error_message([&] { read_libsvm_csc(path, options); }),
            path +
                ":3: feature index 70000 is too large: reading 70000 columns needs 2.1 MiB, "
                "more than the 2.0 MiB allowed");
  options.column_memory_limit = 3 << 20;
  EXPECT_EQ(read_libsvm_csc(path, options).features.num_cols, 70000u);
  // 2^31-1 columns on one thread need 64 GiB.
  const std::string huge = dir.write("huge.txt", "1 2147483647:1\n");
  options.column_memory_limit = std::uint64_t{32} << 30;
  EXPECT_EQ(error_message([&] { read_libsvm_csc(huge, options); }),
            huge +
                ":1: feature index 2147483647 is too large: reading 2147483647 columns needs "
                "64.0 GiB, more than the 32.0 GiB allowed");
  // The rows of training refuse the same indices, with the same message;
  // the plain row reader holds no per-column arrays and reads it.
  options.column_memory_limit = 2 << 20;
  expect_rows_read_as_columns(path, options);
  options.column_memory_limit = 3 << 20;
  expect_rows_read_as_columns(path, options);
  options.column_memory_limit = std::uint64_t{32} << 30;
  expect_rows_read_as_columns(huge, options);
  EXPECT_EQ(read_libsvm_csr(huge).features.num_cols, 2147483647u);
}

// Without a limit the reader uses available_memory(): no more than the
// physical memory, and within any RLIMIT_AS.
TEST(LibsvmReaderMemory, AvailableMemoryIsAtMostThePhysicalMemory) {
  const std::uint64_t available = available_memory();
  EXPECT_GT(available, 0u);
  const auto physical = static_cast<std::uint64_t>(sysconf(_SC_PHYS_PAGES)) *
                        static_cast<std::uint64_t>(sysconf(_SC_PAGE_SIZE));
  EXPECT_LE(available, physical);
}

}  // namespace
}  // namespace cdl
