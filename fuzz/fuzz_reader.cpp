// libFuzzer target: the LIBSVM reader.
//
// Reads each input four ways: row-wise (read_libsvm_csr), column-wise on one
// thread, column-wise cut into ranges of a few bytes on three threads with a
// bias column, and into rows by the one-pass row reader (read_libsvm_rows,
// cdtrain's for the row solvers and the library's CsrFile) cut the same way.
// Every way must either throw the same cdl::Error message or build the same
// matrix: the column readers' result equals the row reader's transposed,
// and the one-pass rows equal its rows, bit for bit. The one-pass readers
// may also refuse an index whose columns exceed their (small) memory limit,
// which depends on the number of threads and has no counterpart in the row
// reader.
//
// Each input is also read as an instance-weight file (-W) for as many
// instances as it has lines and for one more: each way it must give one
// finite weight >= 0 (some > 0) per instance or a "fuzz:LINE: reason" error,
// and the count one too many must be an error.
#include <cmath>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "data/instance_weights.h"
#include "data/libsvm_reader.h"
#include "fuzz_util.h"
#include "util/error.h"

namespace {

template <class Read>
std::string read_or_error(Read read) {
  try {
    read();
    return {};
  } catch (const cdl::Error& e) {
    if (e.what()[0] == '\0') cdl::fuzz::fail("empty error message");
    return e.what();
  }
}

bool too_big(const std::string& error) {
  return error.find(" is too large: reading ") != std::string::npos;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void check_same_rows(const cdl::CsrMatrix& expected, const cdl::CsrMatrix& actual) {
  if (expected.num_rows != actual.num_rows || expected.num_cols != actual.num_cols ||
      expected.row_ptr != actual.row_ptr || expected.nnz() != actual.nnz()) {
    cdl::fuzz::fail("one-pass rows: shape differs");
  }
  for (std::size_t k = 0; k < expected.nnz(); ++k) {
    if (expected.col_idx[k] != actual.col_idx[k] ||
        !same_bits(expected.values[k], actual.values[k])) {
      cdl::fuzz::fail("one-pass rows: entry differs");
    }
  }
}

void check_same(const cdl::CscMatrix& expected, const cdl::CscMatrix& actual, const char* what) {
  if (expected.num_rows != actual.num_rows || expected.num_cols != actual.num_cols ||
      expected.col_ptr != actual.col_ptr || expected.nnz() != actual.nnz()) {
    cdl::fuzz::fail(std::string(what) + ": shape differs");
  }
  for (std::size_t k = 0; k < expected.nnz(); ++k) {
    if (expected.row_idx[k] != actual.row_idx[k] ||
        !same_bits(expected.values[k], actual.values[k])) {
      cdl::fuzz::fail(std::string(what) + ": entry differs");
    }
  }
}

// parse_instance_weights() on the input for `rows` instances: whether it
// gave weights (checked) rather than an error (checked for its form).
bool weights_parse(std::string_view text, std::size_t rows) {
  std::vector<double> weights;
  try {
    weights = cdl::parse_instance_weights(text, "fuzz", rows);
  } catch (const cdl::ParseError& e) {
    if (e.path() != "fuzz" || e.line() < 1 || e.reason().empty()) {
      cdl::fuzz::fail(std::string("malformed weight-file error: ") + e.what());
    }
    return false;
  }
  if (weights.size() != rows) cdl::fuzz::fail("weight count differs from the instances");
  bool any_positive = rows == 0;
  for (double weight : weights) {
    if (!std::isfinite(weight) || !(weight >= 0)) cdl::fuzz::fail("weight not a number >= 0");
    any_positive = any_positive || weight > 0;
  }
  if (!any_positive) cdl::fuzz::fail("every weight 0 accepted");
  return true;
}

void check_weight_file(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::size_t lines = 0;
  for (std::size_t at = 0; at < text.size(); ++lines) {
    const std::size_t end = text.find('\n', at);
    at = end == std::string_view::npos ? text.size() : end + 1;
  }
  weights_parse(text, lines);
  if (weights_parse(text, lines + 1)) cdl::fuzz::fail("a missing weight accepted");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  check_weight_file(data, size);
  const cdl::fuzz::ScratchFile scratch(data, size);
  const std::string& path = scratch.path();
  cdl::LabeledCsr rows;
  cdl::LabeledCsc one;
  cdl::LabeledCsc many;
  cdl::ReadOptions single;
  single.threads = 1;
  single.column_memory_limit = cdl::fuzz::kColumnMemoryLimit;
  cdl::ReadOptions split = single;
  split.threads = 3;
  split.min_bytes_per_thread = 1;
  split.bias = 1;
  const std::string csr_error = read_or_error([&] { rows = cdl::read_libsvm_csr(path); });
  const std::string one_error = read_or_error([&] { one = cdl::read_libsvm_csc(path, single); });
  const std::string many_error = read_or_error([&] { many = cdl::read_libsvm_csc(path, split); });
  cdl::ReadOptions split_rows = split;
  split_rows.bias = -1;
  cdl::LabeledRows streamed;
  const std::string streamed_error =
      read_or_error([&] { streamed = cdl::read_libsvm_rows(path, split_rows); });
  const bool one_too_big = too_big(one_error);
  const bool many_too_big = too_big(many_error);
  const bool streamed_too_big = too_big(streamed_error);
  if (!streamed_too_big && csr_error != streamed_error) {
    cdl::fuzz::fail("csr says '" + csr_error + "', one-pass rows say '" + streamed_error + "'");
  }
  if (csr_error.empty() && !streamed_too_big) {
    if (rows.labels != streamed.labels) cdl::fuzz::fail("labels differ, one-pass rows");
    check_same_rows(rows.features, streamed.features);
  }
  if (!one_too_big && csr_error != one_error) {
    cdl::fuzz::fail("csr says '" + csr_error + "', csc says '" + one_error + "'");
  }
  if (!many_too_big && csr_error != many_error) {
    cdl::fuzz::fail("csr says '" + csr_error + "', three threads say '" + many_error + "'");
  }
  if (!csr_error.empty() || one_too_big) return 0;

  if (rows.labels != one.labels) cdl::fuzz::fail("labels differ");
  const cdl::CscMatrix transposed = cdl::to_csc(rows.features);
  check_same(transposed, one.features, "csc, one thread");
  if (many_too_big) return 0;
  if (rows.labels != many.labels) cdl::fuzz::fail("labels differ, three threads");
  cdl::CscMatrix with_bias = transposed;
  cdl::append_constant_column(with_bias, 1.0);
  check_same(with_bias, many.features, "csc, three threads");
  return 0;
}
