// libFuzzer target: the LIBSVM reader.
//
// Reads each input three ways: row-wise (read_libsvm_csr), column-wise on one
// thread, and column-wise cut into ranges of a few bytes on three threads
// with a bias column. Every way must either throw the same cdl::Error message
// or build the same matrix: the column readers' result equals the row
// reader's transposed, bit for bit. The column readers may also refuse an
// index whose columns exceed their (small) memory limit, which depends on
// the number of threads and has no counterpart in the row reader.
#include <cstring>
#include <string>

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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
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
  const bool one_too_big = too_big(one_error);
  const bool many_too_big = too_big(many_error);
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
