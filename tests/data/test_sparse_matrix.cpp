#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "data/sparse_matrix.h"
#include "test_util.h"

namespace cdl {
namespace {

// 3 x 4:
//   [1 0 2 0]
//   [0 0 3 4]
//   [5 0 0 6]
CsrMatrix example() { return test::csr_from_dense(3, 4, {1, 0, 2, 0, 0, 0, 3, 4, 5, 0, 0, 6}); }

TEST(SparseMatrix, ToCscTransposesStorage) {
  const CscMatrix csc = to_csc(example());
  EXPECT_EQ(csc.num_rows, 3u);
  EXPECT_EQ(csc.num_cols, 4u);
  EXPECT_EQ(csc.col_ptr, (std::vector<std::int64_t>{0, 2, 2, 4, 6}));
  EXPECT_EQ(csc.row_idx, (Buffer<Index>{0, 2, 0, 1, 1, 2}));
  EXPECT_EQ(csc.values, (Buffer<double>{1, 5, 2, 3, 4, 6}));
}

TEST(SparseMatrix, ToCscOfEmptyRowsAndColumns) {
  const CscMatrix csc = to_csc(test::csr_from_dense(2, 3, {0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(csc.col_ptr, (std::vector<std::int64_t>{0, 0, 0, 0}));
  EXPECT_EQ(csc.nnz(), 0u);
}

TEST(SparseMatrix, SelectRowsRenumbers) {
  const CscMatrix sub = select_rows(to_csc(example()), {0, 2});
  // [1 0 2 0]
  // [5 0 0 6]
  const CscMatrix expected = to_csc(test::csr_from_dense(2, 4, {1, 0, 2, 0, 5, 0, 0, 6}));
  EXPECT_EQ(sub.num_rows, 2u);
  EXPECT_EQ(sub.col_ptr, expected.col_ptr);
  EXPECT_EQ(sub.row_idx, expected.row_idx);
  EXPECT_EQ(sub.values, expected.values);
}

TEST(SparseMatrix, AppendConstantColumn) {
  CscMatrix csc = to_csc(example());
  append_constant_column(csc, 0.5);
  EXPECT_EQ(csc.num_cols, 5u);
  EXPECT_EQ(csc.col_ptr.back(), 9);
  EXPECT_EQ(std::vector<Index>(csc.row_idx.end() - 3, csc.row_idx.end()),
            (std::vector<Index>{0, 1, 2}));
  EXPECT_EQ(csc.values.back(), 0.5);
}

TEST(SparseMatrix, ABorrowingBufferUsesTheCallersArrayAndNeverFreesOrWritesIt) {
  const std::vector<double> callers{1.5, -2, 3};
  {
    Buffer<double> borrowed = buffer_borrowing(callers.data(), callers.size());
    EXPECT_EQ(borrowed.data(), callers.data());
    EXPECT_TRUE(is_borrowed(borrowed));
    const Buffer<double> copy = borrowed;  // memory of its own
    EXPECT_NE(copy.data(), callers.data());
    EXPECT_FALSE(is_borrowed(copy));
    EXPECT_EQ(std::vector<double>(copy.begin(), copy.end()), callers);
    Buffer<double> moved = std::move(borrowed);
    EXPECT_EQ(moved.data(), callers.data());
    moved.push_back(4);  // grows into memory of its own; the caller's is left
    EXPECT_NE(moved.data(), callers.data());
    EXPECT_FALSE(is_borrowed_memory(callers.data()));
    moved[0] = 9;
  }
  EXPECT_EQ(callers, (std::vector<double>{1.5, -2, 3}));
  EXPECT_TRUE(buffer_borrowing(callers.data(), 0).empty());
}

}  // namespace

}  // namespace cdl
