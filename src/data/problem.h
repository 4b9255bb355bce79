// A training problem: a read-only view of the features plus targets y_j as
// doubles, and the penalty C_j of each instance. For classification (a binary
// problem) y_j is -1 or +1 and C_j is the penalty of its class (LIBLINEAR's
// -wi weights scale C per class); for regression y_j is the real target and
// every C_j is cost_pos. Instance weights (-W), if given, multiply each C_j.
//
// Multi-class data is trained one-vs-rest, so several Problems share one
// CscMatrix and differ only in y. Solvers never write into a Problem.
#ifndef CDL_PROBLEM_H_
#define CDL_PROBLEM_H_

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "data/sparse_matrix.h"
#include "data/task.h"

namespace cdl {

struct RowShare;

// The columns of a Problem: a CscMatrix, or none (nullptr).
struct ColumnsOf {
  ColumnsOf(const CscMatrix& columns) : matrix(&columns) {}  // NOLINT: implicit by design
  ColumnsOf(std::nullptr_t) : matrix(nullptr) {}             // NOLINT
  const CscMatrix* matrix;
};

// A Problem holds its matrix as columns, as rows or both (at least one):
// the solvers whose row says needs_rows are given rows only when nothing
// they run needs columns (train.h), and read only `rows` then.
struct Problem {
  ColumnsOf columns;      // l x n, column-major; may be null if rows is not
  const CsrMatrix* rows;  // the same matrix row-major; may be null if columns is not
  std::vector<double> y;  // l targets: labels -1 or +1, or real values for regression
  double cost_pos;        // C_j of the instances with y_j > 0, > 0
  double cost_neg;        // C_j of the others, > 0 (for regression, cost_pos)
  Task task = Task::kClassification;
  // Rows j with (*held_out)[j] != 0 are left out: their C_j is 0, so they
  // add nothing to f or its derivatives. Cross-validation's folds share one
  // matrix this way instead of copying it. Null: every row counts.
  const std::vector<std::uint8_t>* held_out = nullptr;
  // Instance weights s_j >= 0 (-W; LIBLINEAR's weights extension): C_j is
  // the class's C times s_j, and a row of weight 0 is left out as a held-out
  // row is. Null: every s_j is 1. The objectives whose hot loops pick C_j
  // from the class table read s_j beside it (with_instance_weights()).
  const std::vector<double>* weights = nullptr;
  // Null: this process holds every row. Else the rows are spread over the
  // ranks of a distributed run (row_share.h), this Problem holds this
  // rank's, and the whole-vector objective and train() agree with the
  // others through it.
  const RowShare* share = nullptr;

  bool has_columns() const { return columns.matrix != nullptr; }
  // The columns; a Problem without them is a bug here (checked by assert).
  const CscMatrix& x() const {
    assert(has_columns());
    return *columns.matrix;
  }
  std::size_t num_rows() const { return has_columns() ? x().num_rows : rows->num_rows; }
  std::size_t num_features() const { return has_columns() ? x().num_cols : rows->num_cols; }
  std::size_t nnz() const { return has_columns() ? x().nnz() : rows->nnz(); }
  bool counts(std::size_t j) const {
    return (held_out == nullptr || (*held_out)[j] == 0) &&
           (weights == nullptr || (*weights)[j] > 0);
  }
  // Whether some row may not count (held out or of weight 0): solvers that
  // number the rows that count then keep a map to the rows.
  bool may_drop_rows() const { return held_out != nullptr || weights != nullptr; }
  double weight(std::size_t j) const { return weights == nullptr ? 1.0 : (*weights)[j]; }
  // 0 for a negative row, 1 for a positive one, 2 for a row held out: the
  // index into a table {C_-, C_+, 0} (or y_j C_j, y_j z), so that the
  // objectives' hot loops pick C_j without branching on the label.
  std::uint8_t cost_class(std::size_t j) const { return counts(j) ? (y[j] > 0 ? 1 : 0) : 2; }
  double cost(std::size_t j) const {
    if (!counts(j)) return 0.0;
    const double class_cost = y[j] > 0 ? cost_pos : cost_neg;
    return weights == nullptr ? class_cost : class_cost * (*weights)[j];
  }
};

// The rows of `problem`: its own, or a copy of its columns made into `own`
// (which must outlive the reference), for the solvers that walk rows.
inline const CsrMatrix& rows_of(const Problem& problem, std::optional<CsrMatrix>& own) {
  if (problem.rows != nullptr) return *problem.rows;
  return own.emplace(to_csr(problem.x()));
}

// Calls body(weight_of), where weight_of(j) is row j's instance weight s_j:
// a lambda that reads problem.weights, or, without weights, one that returns
// the constant 1, so that a loop which multiplies its class table's C by
// weight_of(j) compiles to the loop without the product (x * 1.0 is x).
template <class Body>
auto with_instance_weights(const Problem& problem, Body body) {
  if (problem.weights == nullptr) return body([](std::size_t) { return 1.0; });
  const double* weights = problem.weights->data();
  return body([weights](std::size_t j) { return weights[j]; });
}

// A training matrix as columns, rows or both (at least one not null), as
// train() and cross_validate() take it.
struct DataMatrix {
  const CscMatrix* columns = nullptr;
  const CsrMatrix* rows = nullptr;
  // One instance weight a row (-W), or null; every problem made from this
  // matrix, and every fold, takes them.
  const std::vector<double>* weights = nullptr;
  // The rows spread over ranks (Problem::share), or null.
  const RowShare* share = nullptr;

  std::size_t num_rows() const { return columns != nullptr ? columns->num_rows : rows->num_rows; }
  std::size_t num_cols() const { return columns != nullptr ? columns->num_cols : rows->num_cols; }
  std::size_t nnz() const { return columns != nullptr ? columns->nnz() : rows->nnz(); }
  double checked_cost() const {
    return columns != nullptr ? columns->checked_cost : rows->checked_cost;
  }
};

// A regression problem: real targets, C_j = C for every instance.
Problem regression_problem(const CscMatrix& x, std::vector<double> targets, double C,
                           const CsrMatrix* rows = nullptr);
// The same on `x` (columns, or null) and `rows` (or null), one not null.
Problem regression_problem(const CscMatrix* x, std::vector<double> targets, double C,
                           const CsrMatrix* rows);

// Class labels in order of first appearance, as LIBLINEAR orders them, except
// that for data labelled exactly {-1, +1} the class +1 comes first, so that it
// is the positive class of the binary model.
struct ClassMap {
  std::vector<int> labels;            // class number -> label
  std::vector<std::size_t> class_of;  // instance -> class number
};

// `labels` must hold integers (the reader checks that for training data).
ClassMap map_classes(const std::vector<double>& labels);

// The binary problem "class `positive` against the rest", with C_j = c_pos
// for instances of that class and c_neg for the others. `rows`, if given, is
// `x` in row order.
Problem one_vs_rest(const CscMatrix& x, const ClassMap& classes, std::size_t positive, double c_pos,
                    double c_neg, const CsrMatrix* rows = nullptr,
                    const std::vector<std::uint8_t>* held_out = nullptr);
// The same on `x` (columns, or null) and `rows` (or null), one not null.
Problem one_vs_rest(const CscMatrix* x, const ClassMap& classes, std::size_t positive, double c_pos,
                    double c_neg, const CsrMatrix* rows, const std::vector<std::uint8_t>* held_out);

}  // namespace cdl

#endif  // CDL_PROBLEM_H_
