// The regularized objective f(w) = r(w) + sum_j C_j loss(y_j w'x_j)
// (paper, equation 1, where r(w) = 1/2 w'w) seen one coordinate at a time,
// for the CD family. r is a smooth Regularizer (regularizer.h).
//
// The object owns w and the margins m_j = y_j w'x_j of the current w; keeping
// the margins up to date is equation (17) (b_j = 1 - m_j for L2-SVM), so that
// every per-coordinate operation reads only column i of the CSC:
//   coord_derivs(i)        D'_i(0) and D''_i(0)                O(nnz of column i)
//   apply(i, z)            w_i += z and the margins it moves     O(nnz of column i)
//   apply_with_delta(i, z) apply(i, z), returning D_i(z) - D_i(0) of
//                          equation (18); undo() reverts it exactly
//   bound(i)               H_i, an upper bound of D''_i(z) for all z, (14)
// Evaluating D_i(z) and moving the margins in one pass, with an exact undo for
// the rare rejected step, makes a line-search step cost one pass over the
// column instead of two. value() is O(l + n); gradient() and reset() are
// O(nnz).
//
// The Problem must outlive the objective.
#ifndef CDL_OBJECTIVE_H_
#define CDL_OBJECTIVE_H_

#include <cstddef>
#include <memory>
#include <vector>

#include "data/problem.h"
#include "objective/loss.h"
#include "objective/regularizer.h"

namespace cdl {

struct CoordDerivs {
  double d1;  // D'_i(0), equation (9)
  double d2;  // D''_i(0), the generalized second derivative (10), >= l2 of r
};

// D'_i(0), D''_i(0) and bound(i) = H_i together, for the Newton CD loop.
struct BoundedDerivs {
  double d1;
  double d2;
  double bound;
};

class CoordinateObjective {
 public:
  virtual ~CoordinateObjective() = default;

  virtual std::size_t num_features() const = 0;
  virtual const std::vector<double>& w() const = 0;
  // Hands w over to a solver's result at the end of a solve, so that w is
  // not held twice; after it, only reset() may be called. Objectives that
  // do not give it up return a copy.
  virtual std::vector<double> release_w() { return w(); }

  // Sets w (size n) and recomputes every margin.
  virtual void reset(const std::vector<double>& w) = 0;

  virtual CoordDerivs coord_derivs(std::size_t i) const = 0;
  virtual void apply(std::size_t i, double z) = 0;
  virtual double apply_with_delta(std::size_t i, double z) = 0;
  // Reverts the last apply_with_delta() bit for bit. Only valid directly
  // after it.
  virtual void undo() = 0;
  virtual double bound(std::size_t i) const = 0;
  // coord_derivs(i) and bound(i) at once: an objective that computes H_i
  // from the column instead of keeping an n-vector of them does it in the
  // same pass.
  virtual BoundedDerivs bounded_derivs(std::size_t i) const {
    const CoordDerivs derivs = coord_derivs(i);
    return {derivs.d1, derivs.d2, bound(i)};
  }

  virtual double value() const = 0;
  // The full gradient at the current w.
  virtual std::vector<double> gradient() const = 0;
  // ||grad f(0)||, the scale of the relative stopping rule.
  virtual double gradient_norm_at_zero() const = 0;
};

std::unique_ptr<CoordinateObjective> make_coordinate_objective(
    LossKind loss, const Problem& problem, const Regularizer& regularizer = Regularizer::l2_only());

}  // namespace cdl

#endif  // CDL_OBJECTIVE_H_
