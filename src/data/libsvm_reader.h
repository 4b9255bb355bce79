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
// with no instances or a compressed file (gzip, xz, bzip2 or zstd magic),
// which names the pipe to read it through.
//
// The path "-" is standard input; pipes and FIFOs are read like files, once,
// front to back, and messages name standard input "(standard input)".
//
// Numbers are converted by a fast path for plain decimals and std::from_chars
// otherwise (no iostreams, no strtod), from large read buffers. Lines of any
// length are handled: the buffer grows to hold them.
#ifndef CDL_LIBSVM_READER_H_
#define CDL_LIBSVM_READER_H_

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
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
  // read_libsvm_csc and read_libsvm_rows: if >= 0, append a constant feature of this value to
  // every instance (LIBLINEAR's -B), reserved up front so that no buffer is
  // reallocated.
  double bias = -1;
  // read_libsvm_csc and read_libsvm_rows: threads that parse blocks of the file at once; 0
  // means one per core, at most 4. A regular file gets a second thread only
  // if it has at least min_bytes_per_thread bytes per thread; the blocks that
  // threads take in turn hold whole lines, about min(4 MiB,
  // min_bytes_per_thread) bytes each. The result does not depend on either.
  unsigned threads = 0;
  std::uint64_t min_bytes_per_thread = std::uint64_t{8} << 20;
  // read_libsvm_csc and read_libsvm_rows: the most bytes its per-column arrays may take,
  // counted as 16 per column and thread plus 16 per column (a bound: the
  // one-pass reader holds 4 per column and thread plus 8). A feature index
  // that would need more is a ParseError on its line, before anything that
  // size is allocated. 0 means available_memory().
  std::uint64_t column_memory_limit = 0;
  // read_libsvm_rows on a regular file: with read_range, only the lines
  // that start in its bytes [range_begin, range_end) (InputStream::
  // limit_to_lines()), as a rank of a distributed run reads its share. Lines
  // are then counted from the range's first (a ParseError's line is within
  // the range; LabeledRows::line_count gives the range's lines), and a range
  // with no instance gives no rows instead of an error.
  bool read_range = false;
  std::uint64_t range_begin = 0;
  std::uint64_t range_end = 0;
  // How a tool reads a decompressed pipe, for the message about a compressed
  // file: "cdtrain - m.model" gives "... zcat f.gz | cdtrain - m.model".
  std::string pipe_command;
};

class InputStream;

// Iterates over the instances of one file, a pipe or standard input ("-"),
// reading it once from front to back.
class LibsvmParser {
 public:
  LibsvmParser(const std::string& path, const ReadOptions& options);
  ~LibsvmParser();
  LibsvmParser(const LibsvmParser&) = delete;
  LibsvmParser& operator=(const LibsvmParser&) = delete;

  // Parses the next instance into `row`; returns false at end of file.
  // Throws ParseError on malformed input, Error if the file holds no
  // instance at all or is compressed, and IoError on read failure.
  bool next(ParsedRow& row);

  // The name used in messages: the path, or "(standard input)" for "-".
  const std::string& path() const { return name_; }
  std::int64_t lines_read() const { return line_; }

 private:
  friend LabeledCsr read_libsvm_csr(const std::string& path, const ReadOptions& options);
  template <class Sink>
  bool next_instance(double& label, Sink& sink);
  void refill();

  std::unique_ptr<InputStream> in_;
  std::string name_;
  ReadOptions options_;
  std::vector<char> buffer_;
  std::size_t begin_ = 0;  // first unparsed byte in buffer_
  std::size_t end_ = 0;    // one past the last valid byte in buffer_
  bool eof_ = false;
  std::int64_t line_ = 0;
  std::int64_t rows_ = 0;
};

// Where the instances stand in their file: the line of each row, kept as the
// rows at which the numbering jumps (after comment lines), so that it costs
// nothing for a file without comments. Lets messages about an instance found
// after reading name its line, also for standard input, which cannot be read
// again.
struct LineMap {
  std::vector<std::int64_t> rows;   // increasing; rows[0] = 0 if there is any row
  std::vector<std::int64_t> lines;  // the line of instance rows[k]

  // The line of instance `row` (0-based).
  std::int64_t line_of(std::size_t row) const;
  // Appends the line of the next instance, `row`.
  void add(std::int64_t row, std::int64_t line) {
    if (rows.empty() || line - lines.back() != row - rows.back()) {
      rows.push_back(row);
      lines.push_back(line);
    }
  }
};

struct LabeledCsr {
  std::vector<double> labels;
  CsrMatrix features;  // num_cols = the largest index in the file
};

struct LabeledCsc {
  std::vector<double> labels;
  CscMatrix features;  // num_cols = the largest index (+1 with a bias column)
  LineMap lines;       // the line of each instance in the file
  // The largest |value| of `features`, found while they were read (NaN if
  // one is), so that check_magnitudes() may pass them without another pass;
  // infinity where it is not known.
  double largest_magnitude = std::numeric_limits<double>::infinity();
};

// A file read into row storage by read_libsvm_rows().
struct LabeledRows {
  std::vector<double> labels;
  CsrMatrix features;  // num_cols = the largest index (+1 with a bias column)
  LineMap lines;       // the line of each instance in the file
  // The largest |value| of `features` (NaN if one is), as LabeledCsc's.
  double largest_magnitude = std::numeric_limits<double>::infinity();
  std::int64_t line_count = 0;  // the lines read, comment lines included
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

// Reads a whole file, a pipe or standard input straight into column storage,
// in one pass over the text. Threads parse blocks of whole lines in turn;
// each sends its pairs, compactly encoded (about 10 bytes each), into one
// stream per range of 1024 columns. After the text, the streams of each
// range are merged in block order into that range's contiguous part of the
// CSC and freed, so that memory moves from the streams to the matrix: the
// peak is about the CSC itself, 12 bytes per nonzero, plus O(rows + threads *
// cols). Each column lists its rows in file order, so the matrix and the line
// numbers of errors are the same for any number of threads; the first error
// in the file is the one reported.
LabeledCsc read_libsvm_csc(const std::string& path, const ReadOptions& options = {});

// The same file read into row storage, for the solvers that walk rows: the
// matrix is exactly to_csr() of read_libsvm_csc()'s (the bias, if any, the
// last entry of every row), with the same labels, lines, largest magnitude
// and errors (the column reader's limit on feature indices included), for
// any number of threads. Threads parse blocks of whole lines into pages of
// their own (12 bytes a pair), and the blocks are then copied into their
// rows and freed one by one, so the peak is about the CSR itself, 12 bytes
// per nonzero, plus O(rows).
LabeledRows read_libsvm_rows(const std::string& path, const ReadOptions& options = {});

}  // namespace cdl

#endif  // CDL_LIBSVM_READER_H_
