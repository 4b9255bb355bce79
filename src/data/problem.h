// A binary training problem: a read-only view of the features plus labels
// y_j in {-1, +1} and the penalty of each class (LIBLINEAR's -wi weights
// scale C per class).
//
// Multi-class data is trained one-vs-rest, so several Problems share one
// CscMatrix and differ only in y. Solvers never write into a Problem.
#ifndef CDL_PROBLEM_H_
#define CDL_PROBLEM_H_

#include <cstddef>
#include <vector>

#include "data/sparse_matrix.h"

namespace cdl {

struct Problem {
  const CscMatrix& x;     // l x n, column-major
  const CsrMatrix* rows;  // the same matrix row-major, for TRON and Pegasos; may be null
  std::vector<double> y;  // l labels, each -1 or +1
  double cost_pos;        // C_j of the instances with y_j = +1, > 0
  double cost_neg;        // C_j of the instances with y_j = -1, > 0

  std::size_t num_rows() const { return x.num_rows; }
  std::size_t num_features() const { return x.num_cols; }
  double cost(std::size_t j) const { return y[j] > 0 ? cost_pos : cost_neg; }
};

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
                    double c_neg, const CsrMatrix* rows = nullptr);

}  // namespace cdl

#endif  // CDL_PROBLEM_H_
