// The one objective evaluation: f(w), grad f(0), the margins and the
// gradient norm, computed from scratch for a binary problem. The solvers (for
// their reports and stopping scales), the trace, the tests and the
// benchmarks all use these, so that every f printed anywhere is the same
// formula:
//
//   f(w) = r(w) + sum_j C_j loss(y_j w'x_j)      (paper, equation 1, with
//                                                 r = 1/2 w'w for L2)
#ifndef CDL_EVALUATE_H_
#define CDL_EVALUATE_H_

#include <cstdint>
#include <vector>

#include "data/problem.h"
#include "objective/loss.h"
#include "objective/regularizer.h"
#include "util/parallel.h"
#include "util/populate.h"

namespace cdl {

// w'x_j of every row, by scattering the columns of the CSC; columns beyond w
// count 0. O(#nz).
std::vector<double> decision_values(const CscMatrix& x, const std::vector<double>& w);

// The same by the rows' dot products, each in increasing column order: the
// same terms in the same order as the columns' scatter, so the same bits.
// The rows in blocks on up to `threads` threads (each row's sum is one
// thread's, so the bits do not depend on them).
std::vector<double> decision_values(const CsrMatrix& x, const std::vector<double>& w,
                                    unsigned threads = 1);
// The same of the problem's columns if it has them (on one thread), else of
// its rows.
std::vector<double> decision_values(const Problem& problem, const std::vector<double>& w,
                                    unsigned threads = 1);

// out_i += sum_j u_j x_ji for every feature i < out.size(), each sum's terms
// added in increasing j: by columns if the problem has them, else by
// scattering the rows in order, which gives the same bits. O(#nz + n).
void add_transpose_product(const Problem& problem, const std::vector<double>& u,
                           std::vector<double>& out);

// m_j = y_j w'x_j of every row (by columns or rows). O(#nz + l).
std::vector<double> margins(const Problem& problem, const std::vector<double>& w,
                            unsigned threads = 1);

// f(w) given r(w) and w's margins: r(w), then + C_j loss(m_j) for each row
// in order (every solver sums in this order, so that their f agree to the
// last bit). O(l).
// margin_at(j) gives m_j, for callers that keep the margins in their own
// layout.
template <class Loss, class MarginAt>
double objective_value(const Problem& problem, double regularizer_value, std::size_t num_rows,
                       MarginAt margin_at) {
  double f = regularizer_value;
  for (std::size_t j = 0; j < num_rows; ++j) f += problem.cost(j) * Loss::value(margin_at(j));
  return f;
}
template <class Loss>
double objective_value(const Problem& problem, double regularizer_value,
                       const std::vector<double>& margin) {
  return objective_value<Loss>(problem, regularizer_value, margin.size(),
                               [&margin](std::size_t j) { return margin[j]; });
}

// The same for a loss named at run time, computing r(w). O(l + n).
double objective_value(const Problem& problem, LossKind loss, const Regularizer& regularizer,
                       const std::vector<double>& w, const std::vector<double>& margin);

// grad f(0) = loss'(0) sum_j C_j y_j x_j (r has gradient 0 at 0), by
// columns. y_j C_j comes from the table {-C_-, C_+, 0} by the row's
// Problem::cost_class() byte, without a branch on the label per nonzero (the
// same products as y_j C_j x_ji). O(#nz + l); the columns in blocks on up
// to `threads` threads (each component is one column's sum, the same bits).
template <class Loss>
std::vector<double> gradient_at_zero(const Problem& problem, unsigned threads = 1) {
  const double signed_cost[3] = {-problem.cost_neg, problem.cost_pos, 0.0};
  const double d1_at_zero = Loss::d1(0.0);
  // The rows' scatter (the same terms in the same order), or with instance
  // weights y_j C_j s_j through add_transpose_product().
  if (!problem.has_columns() || problem.weights != nullptr) {
    std::vector<double> u(problem.num_rows());
    for (std::size_t j = 0; j < u.size(); ++j) {
      u[j] = signed_cost[problem.cost_class(j)] * problem.weight(j);
    }
    std::vector<double> g(problem.num_features(), 0.0);
    add_transpose_product(problem, u, g);
    for (double& g_i : g) g_i *= d1_at_zero;
    return g;
  }
  const CscMatrix& x = problem.x();
  std::vector<std::uint8_t> cost_class(x.num_rows);
  for (std::size_t j = 0; j < x.num_rows; ++j) cost_class[j] = problem.cost_class(j);
  std::vector<double> g = populated_vector(x.num_cols, 0.0);
  run_in_blocks_or_throw(x.num_cols, threads, [&](std::size_t i) {
    double slope = 0;
    for (auto k = x.col_ptr[i]; k < x.col_ptr[i + 1]; ++k) {
      const auto t = static_cast<std::size_t>(k);
      slope += signed_cost[cost_class[x.row_idx[t]]] * x.values[t];
    }
    g[i] = d1_at_zero * slope;
  });
  return g;
}
std::vector<double> gradient_at_zero(const Problem& problem, LossKind loss);

struct Evaluation {
  double objective;  // f(w)
  // ||grad f(w)|| for smooth r; for l1svm the norm of the subgradient that
  // takes loss'(m) = -1 for m < 1 and 0 otherwise, the one Pegasos steps
  // along; for r with an L1 part, the norm of the minimum-norm subgradient.
  double gradient_norm;
};

// O(#nz + l + n), from the CSC. For a regression loss (problem.y the
// targets), f = r(w) + sum_j C_j loss(w'x_j, y_j), with svr_epsilon the svr2
// loss's tube width.
Evaluation evaluate(const Problem& problem, LossKind loss, const std::vector<double>& w,
                    const Regularizer& regularizer = Regularizer::l2_only(),
                    double svr_epsilon = SvrL2Loss{}.epsilon);

// evaluate()'s f for a regression loss alone (the same bits), its scores on
// up to `threads` threads when the problem has rows only. O(#nz + l + n).
double regression_objective(const Problem& problem, LossKind loss, const std::vector<double>& w,
                            const Regularizer& regularizer, double svr_epsilon, unsigned threads);

// The duality gap of the Lasso, f(w) = ||w||_1 + sum_j C_j (y_j - w'x_j)^2,
// by the adaptive-sampling paper's (21) (Perekrestenko, Cevher & Jaggi 2017)
// with its "Lipschitzing" bound B. Rows scaled by sqrt(C_j) make f the
// paper's (20), ||A w - y'||^2 + lambda ||w||_1, with lambda = 1 (for one C,
// this is C times the gap of f/C, whose lambda is 1/C), so the gap is in f's
// own units:
//   G(w) = sum_i B max(|g_i| - 1, 0) + |w_i| + w_i g_i,
//   g_i = 2 sum_j C_j x_ji (w'x_j - y_j), B = f(0) = sum_j C_j y_j^2,
// and f(w) - f* <= G(w) for every w with ||w||_1 <= B, which holds for the
// iterates of a descent method started at 0 (||w||_1 <= f(w) <= f(0)).
// O(#nz + l + n).
double lasso_duality_gap(const Problem& problem, const std::vector<double>& w);

// H_i of Chang et al. (14) for every feature i, with the regularizer's
// curvature in place of 1: regularizer.curvature(max_d2 sum_j C_j x_ji^2),
// where max_d2 bounds the loss's second derivative. A column whose squares
// overflow is an Error naming the feature. O(nnz).
std::vector<double> curvature_bounds(const Problem& problem, const Regularizer& regularizer,
                                     double max_d2);
// H_i of one feature, as curvature_bounds() computes it (the same bits).
double curvature_bound(const Problem& problem, const Regularizer& regularizer, double max_d2,
                       std::size_t i);
// Returns H_i = `bound` of feature i (0-based) if it is finite, else throws
// curvature_bounds()'s Error naming the feature.
double require_finite_bound(double bound, std::size_t i);

// The number of nonzeros of the longest column of x (a step's undo buffer).
std::size_t longest_column(const CscMatrix& x);

// The share of instances whose label sign(w'x) (> 0 is +1) equals y. O(#nz).
double accuracy(const CscMatrix& x, const std::vector<double>& y, const std::vector<double>& w);

}  // namespace cdl

#endif  // CDL_EVALUATE_H_
