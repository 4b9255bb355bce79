// f(w) and ||grad f(w)|| of a binary problem at a given w, computed from
// scratch; independent of the solvers' incremental state, for traces and
// tests.
#ifndef CDL_EVALUATE_H_
#define CDL_EVALUATE_H_

#include <vector>

#include "data/problem.h"
#include "objective/loss.h"

namespace cdl {

struct Evaluation {
  double objective;  // f(w) = 1/2 w'w + sum_j C_j loss(y_j w'x_j)
  // ||grad f(w)||; for l1svm the norm of the subgradient that takes
  // loss'(m) = -1 for m < 1 and 0 otherwise, the one Pegasos steps along.
  double gradient_norm;
};

// O(#nz + l + n), from the CSC.
Evaluation evaluate(const Problem& problem, LossKind loss, const std::vector<double>& w);

// The share of instances whose label sign(w'x) (> 0 is +1) equals y. O(#nz).
double accuracy(const CscMatrix& x, const std::vector<double>& y, const std::vector<double>& w);

}  // namespace cdl

#endif  // CDL_EVALUATE_H_
