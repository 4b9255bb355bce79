// A LIBSVM data file's instances as CSR arrays (0-based columns), parsed in
// the test from the file's text, and the same matrix as CSC arrays,
// transposed in the test: data for the interfaces' array constructors that
// owes nothing to the library's reader or transposition.
#ifndef CDL_TESTS_TEXT_ARRAYS_H_
#define CDL_TESTS_TEXT_ARRAYS_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "test_util.h"

namespace cdl::test {

// RowPtr: the type of the CSR offsets; Index: of the column and row
// numbers. The CSC offsets are 64-bit.
template <class RowPtr, class Index>
struct TextArrays {
  std::size_t rows = 0;
  std::size_t cols = 0;  // the largest index in the file
  std::vector<double> labels;
  std::vector<RowPtr> row_ptr{0};
  std::vector<Index> col_idx;
  std::vector<double> values;
  std::vector<std::int64_t> col_ptr;
  std::vector<Index> row_idx;
  std::vector<double> col_values;
};

template <class RowPtr, class Index>
TextArrays<RowPtr, Index> text_arrays(const std::string& path) {
  TextArrays<RowPtr, Index> a;
  std::istringstream lines(read_file(path));
  for (std::string line; std::getline(lines, line);) {
    std::istringstream tokens(line);
    double label = 0;
    tokens >> label;
    a.labels.push_back(label);
    for (std::string pair; tokens >> pair;) {
      const long long column = std::stoll(pair) - 1;
      a.col_idx.push_back(static_cast<Index>(column));
      a.values.push_back(std::stod(pair.substr(pair.find(':') + 1)));
      a.cols = std::max(a.cols, static_cast<std::size_t>(column) + 1);
    }
    a.row_ptr.push_back(static_cast<RowPtr>(a.col_idx.size()));
  }
  a.rows = a.labels.size();
  // A counting sort by column.
  a.col_ptr.assign(a.cols + 1, 0);
  for (Index column : a.col_idx) ++a.col_ptr[static_cast<std::size_t>(column) + 1];
  for (std::size_t c = 0; c < a.cols; ++c) a.col_ptr[c + 1] += a.col_ptr[c];
  std::vector<std::int64_t> next(a.col_ptr.begin(), a.col_ptr.end() - 1);
  a.row_idx.resize(a.col_idx.size());
  a.col_values.resize(a.col_idx.size());
  for (std::size_t r = 0; r < a.rows; ++r) {
    for (auto k = static_cast<std::size_t>(a.row_ptr[r]);
         k < static_cast<std::size_t>(a.row_ptr[r + 1]); ++k) {
      const auto at = static_cast<std::size_t>(next[static_cast<std::size_t>(a.col_idx[k])]++);
      a.row_idx[at] = static_cast<Index>(r);
      a.col_values[at] = a.values[k];
    }
  }
  return a;
}

}  // namespace cdl::test

#endif  // CDL_TESTS_TEXT_ARRAYS_H_
