// Reader for LIBSVM / svmlight text data: one instance per line,
//
//   label index:value index:value ...   # optional comment
//
// with 1-based, strictly increasing indices. Accepted: label-only lines,
// CRLF line ends, leading and trailing spaces and tabs, a missing final
// newline, and '#' comments to the end of a line (a line holding only a
// comment is skipped). Everything else is rejected with a ParseError
// "path:line: reason (column c)": a missing or bad label, a bad or partial
// number, NaN or Inf, an index <= 0 or above 2^31-1, indices that do not
// strictly increase, an empty line, and (as an Error "path: reason") a file
// with no instances.
//
// Numbers are converted with std::from_chars (no iostreams, no strtod) from a
// large read buffer, so reading is bound by memory bandwidth, not by the C
// library. Lines of any length are handled: the buffer grows to hold them.
#ifndef CDL_LIBSVM_READER_H_
#define CDL_LIBSVM_READER_H_

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "data/sparse_matrix.h"

namespace cdl {

// One parsed instance. Indices are 0-based.
struct ParsedRow {
  double label = 0;
  std::int64_t line = 0;
  std::vector<Index> indices;
  std::vector<double> values;
};

struct LabeledCsr;
struct LabeledCsc;

struct ReadOptions {
  // Reject labels that are not integers (classification labels; LIBLINEAR
  // would silently truncate 1.5 to 1).
  bool integer_labels = false;
  // read_libsvm_csc only: if >= 0, append a constant feature of this value to
  // every instance (LIBLINEAR's -B), reserved up front so that no buffer is
  // reallocated.
  double bias = -1;
  // read_libsvm_csc only: threads that parse parts of the file at once; 0
  // means one per core, at most 4. Each thread gets at least min_bytes_per_thread bytes.
  // The result does not depend on either.
  unsigned threads = 0;
  std::uint64_t min_bytes_per_thread = std::uint64_t{8} << 20;
  // read_libsvm_csc only: the most bytes its per-column arrays may take (16
  // per column and thread, plus 16 per column). A feature index that would
  // need more is a ParseError on its line, before anything that size is
  // allocated. 0 means available_memory().
  std::uint64_t column_memory_limit = 0;
};

// Iterates over the instances of one file.
class LibsvmParser {
 public:
  static constexpr std::uint64_t kToEnd = static_cast<std::uint64_t>(-1);

  LibsvmParser(const std::string& path, const ReadOptions& options);
  // Parses only the bytes [begin, end) of the file, which must start at a
  // line; line numbers count from there, and a range without instances is
  // not an error.
  LibsvmParser(const std::string& path, const ReadOptions& options, std::uint64_t begin,
               std::uint64_t end);

  // Parses the next instance into `row`; returns false at end of file.
  // Throws ParseError on malformed input, Error if the file holds no
  // instance at all, and IoError on read failure.
  bool next(ParsedRow& row);

  const std::string& path() const { return path_; }
  std::int64_t lines_read() const { return line_; }

 private:
  // The readers below pass each instance's pairs straight to a sink,
  // sink(index_1_based, value), instead of through a ParsedRow. With kValues
  // false the values are skipped unchecked (a counting pass).
  friend LabeledCsr read_libsvm_csr(const std::string& path, const ReadOptions& options);
  friend LabeledCsc read_libsvm_csc(const std::string& path, const ReadOptions& options);
  template <bool kValues, class Sink>
  bool next_instance(double& label, Sink& sink);
  template <bool kValues, class Sink>
  bool parse_line(const char* first, const char* last, double& label, Sink& sink);
  void parse_pair_general(const char* line_start, const char* p, const char* token_end,
                          const char* last, std::uint64_t& index, double& value) const;
  [[noreturn]] void fail(const char* line_start, const char* at, const std::string& reason) const;
  void check_byte_order_mark(const char* first, const char* last) const;
  void refill();

  std::string path_;
  ReadOptions options_;
  std::ifstream in_;
  std::vector<char> buffer_;
  std::size_t begin_ = 0;    // first unparsed byte in buffer_
  std::size_t end_ = 0;      // one past the last valid byte in buffer_
  std::uint64_t remaining_;  // bytes of the range not yet read
  bool whole_file_;
  bool at_file_start_;  // the range starts at the file's first byte
  bool eof_ = false;
  std::int64_t line_ = 0;
  std::int64_t rows_ = 0;
};

struct LabeledCsr {
  std::vector<double> labels;
  CsrMatrix features;  // num_cols = the largest index in the file
};

struct LabeledCsc {
  std::vector<double> labels;
  CscMatrix features;  // num_cols = the largest index (+1 with a bias column)
};

// The memory this process may use, as far as can be told: the least of the
// physical memory, the cgroup limit (a container's) and RLIMIT_AS.
std::uint64_t available_memory();

// The line of the file on which instance `row` (0-based, counting
// instances, not comment lines) stands; for messages about an instance
// found after reading. Throws Error if the file has fewer instances.
std::int64_t line_of_instance(const std::string& path, std::size_t row);

// Reads a whole file row-wise, in one pass.
LabeledCsr read_libsvm_csr(const std::string& path, const ReadOptions& options = {});

// Reads a whole file straight into column storage, in two passes over the
// file (count, then fill), so that no row-wise copy is ever held: peak memory
// is the CSC itself, 12 bytes per nonzero plus O(rows + threads * cols).
// Large files are cut at line starts into one range per thread;
// each column lists the ranges' rows in file order, so the matrix and the line
// numbers of errors are the same for any number of threads.
LabeledCsc read_libsvm_csc(const std::string& path, const ReadOptions& options = {});

}  // namespace cdl

#endif  // CDL_LIBSVM_READER_H_
