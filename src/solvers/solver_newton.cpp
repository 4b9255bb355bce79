// Line-search Newton method with preconditioned conjugate gradient for
// L2-regularized L2-SVM, logistic regression and L2-loss support vector
// regression: LIBLINEAR's primal solver since version 2.40.
//
// Problem: min_w f(w) = 1/2 w'w + sum_j C_j loss(y_j w'x_j), the squared
//   hinge (generalized Hessian of Mangasarian 2002) or the logistic loss; or
//   for the L2-loss SVR, 1/2 w'w + sum_j C_j max(0, |w'x_j - t_j| - p)^2, as
//   for TRON (solver_tron.cpp, whose whole-vector objective this one uses).
//
// Algorithm: truncated Newton with a backtracking line search (Galli & Lin,
//   "A study on truncated Newton methods for linear classification", IEEE
//   TNNLS, 2022), its inner solver the preconditioned CG of Hsia, Chiang &
//   Lin, "Preconditioned conjugate gradient methods in truncated Newton
//   frameworks for large-scale linear classification", ACML 2018, with its
//   mixed diagonal preconditioner M = (1 - a) I + a diag(H), a = 0.01. (The
//   papers are not in this repository's reading set; the constants below are
//   those LIBLINEAR 2.40 and later use.) Each outer iteration k
//   - builds M from the Hessian's diagonal at w_k, O(#nz of active rows);
//   - runs PCG on H s = -g from s = 0 and stops at the first step i where
//     the quadratic model Q_i = g's_i + 1/2 s_i'H s_i gains little:
//     i (Q_i - Q_{i-1}) >= tol Q_i, tol = min(0.5, sqrt(||g||_{M^-1}))
//     (Nash & Sofer's rule, 1990, as Galli & Lin use it), or when
//     a direction has no positive curvature, Q stops decreasing, or after
//     min(max(n, 5), 1000) steps;
//   - takes w_{k+1} = w_k + alpha s, alpha the first of 1, 1/2, 1/4, ... (at
//     most 20 trials) with the sufficient decrease
//     f(w + alpha s) - f(w) <= 0.01 alpha g's. X s is computed once, so each
//     trial costs O(l): f at x_j'w + alpha x_j's and r from w'w, w's, s's.
//
// Stopping rule: ||grad f(w)|| <= eps ||grad f(0)||, or max_iter outer
//   iterations, or (status PrecisionLimit) when the line search finds no
//   decrease, or f drops by at most 1e-12 |f| in an iteration. eps is
//   TRON's: -e (0.01 by default) times max(min(#pos, #neg), 1) / l; for the
//   SVR -e itself (0.0001 by default), as LIBLINEAR.
//
// Cost: one outer iteration is one gradient, O(#nz + B n), one pass for the
//   diagonal and one for X s, O(#nz), one Hessian-vector product per CG step
//   (O(#nz of active rows + B n), as TRON's, vector_objective.h), O(n) per CG
//   step for PCG's vector operations, and O(l) per line-search trial. The
//   rows alone are read (problem.rows).
//
// Threads: every product runs on the objective's team (-m), its results the
//   same bits for any number of threads (vector_objective.h); the dot
//   products and vector updates of PCG run on this thread in index order.
//   So -m 1, 2 or 3 write the same model.
#include <algorithm>
#include <cmath>

#include "objective/vector_math.h"
#include "solvers/progress.h"
#include "solvers/solver.h"
#include "util/populate.h"

namespace cdl {
namespace {

constexpr double kPreconditionerMix = 0.01;  // a of M = (1 - a) I + a diag(H)
constexpr double kCgTolerance = 0.5;         // the largest tol of the Q rule
constexpr std::size_t kMaxCgSteps = 1000;
constexpr double kSufficientDecrease = 0.01;  // eta of the Armijo rule
constexpr int kMaxLineSearchTrials = 20;
constexpr double kPrecision = 1e-12;  // a relative decrease of f below this ends the solve

// CG's vectors, kept for the whole solve (solver_tron.cpp's CgResult says
// why).
struct PcgResult {
  std::vector<double> step;  // s
  std::vector<double> residual, z, direction, hd;
  int iterations = 0;
};

// Preconditioned CG for H s = -g with the diagonal preconditioner `m`,
// stopped by the quadratic model's relative decrease, into `out`.
void preconditioned_cg(const VectorObjective& objective, const std::vector<double>& g,
                       const std::vector<double>& m, PcgResult& out) {
  const std::size_t n = g.size();
  out.iterations = 0;
  resize_for_writing(out.step, n);
  std::fill(out.step.begin(), out.step.end(), 0.0);
  std::vector<double>& residual = out.residual;
  std::vector<double>& z = out.z;
  std::vector<double>& direction = out.direction;
  std::vector<double>& hd = out.hd;
  for (std::vector<double>* v : {&residual, &z, &direction, &hd}) resize_for_writing(*v, n);
  double zr = 0;
  for (std::size_t i = 0; i < n; ++i) {
    residual[i] = -g[i];
    z[i] = residual[i] / m[i];
    direction[i] = z[i];
    zr += z[i] * residual[i];
  }
  const double tolerance = std::min(kCgTolerance, std::sqrt(std::sqrt(zr)));
  const std::size_t max_steps = std::min(std::max<std::size_t>(n, 5), kMaxCgSteps);
  double q = 0;  // Q at s = 0
  while (static_cast<std::size_t>(out.iterations) < max_steps) {
    objective.hess_vec(direction, hd);
    const double curvature = dot(direction, hd);
    if (!(curvature > 1e-16)) break;
    ++out.iterations;
    const double alpha = zr / curvature;
    // One pass: s += alpha d, r -= alpha Hd, g's, s'r, z = M^-1 r and z'r
    // (each sum in index order, as separate loops would add it).
    double gs = 0, sr = 0, zr_next = 0;
    for (std::size_t i = 0; i < n; ++i) {
      out.step[i] += alpha * direction[i];
      residual[i] += -alpha * hd[i];
      gs += g[i] * out.step[i];
      sr += out.step[i] * residual[i];
      z[i] = residual[i] / m[i];
      zr_next += z[i] * residual[i];
    }
    // With r = -g - Hs: Q = g's + 1/2 s'Hs = 1/2 (g's - s'r).
    const double q_next = 0.5 * (gs - sr);
    const double decrease = q_next - q;
    if (!(q_next <= 0 && decrease <= 0)) break;  // rounding: Q no longer falls
    if (out.iterations * decrease >= tolerance * q_next) break;
    q = q_next;
    const double beta = zr_next / zr;
    for (std::size_t i = 0; i < n; ++i) direction[i] = z[i] + beta * direction[i];
    zr = zr_next;
  }
}

}  // namespace

SolveResult solve_newton(VectorObjective& objective, std::vector<double> w, const Params& params,
                         Reporter& reporter) {
  const double eps = params.eps.value();
  const std::int64_t max_iter = params.max_iter.value();
  Progress progress(reporter);

  SolveResult result;
  double f = objective.evaluate(w);
  std::vector<double> g;
  objective.gradient(g);
  double gnorm = norm2(g);
  const double stop_norm = eps * objective.gradient_norm_at_zero();
  std::vector<double> m;
  result.status = gnorm <= stop_norm ? Status::kConverged : Status::kMaxIter;
  PcgResult cg;
  while (result.status == Status::kMaxIter && result.iterations < max_iter) {
    objective.hess_diag(m);
    for (double& mi : m) mi = (1 - kPreconditionerMix) + kPreconditionerMix * mi;
    preconditioned_cg(objective, g, m, cg);
    result.inner_iterations += cg.iterations;
    const double gs = dot(g, cg.step);
    if (!(gs < 0)) {
      // No descent direction at this precision.
      result.status = Status::kPrecisionLimit;
      break;
    }
    objective.begin_line(cg.step);
    double alpha = 1;
    int trial = 0;
    for (; trial < kMaxLineSearchTrials; ++trial, alpha *= 0.5) {
      if (objective.line_value(alpha) - f <= kSufficientDecrease * alpha * gs) break;
    }
    ++result.iterations;
    if (trial == kMaxLineSearchTrials) {
      result.status = Status::kPrecisionLimit;
      break;
    }
    const double f_before = f;
    f = objective.take_line_step(alpha, cg.step);
    axpy(alpha, cg.step, w);
    objective.gradient(g);
    gnorm = norm2(g);
    progress.report(result.iterations, f, gnorm, &w);
    if (gnorm <= stop_norm) {
      result.status = Status::kConverged;
    } else if (std::fabs(f_before - f) <= kPrecision * std::fabs(f)) {
      result.status = Status::kPrecisionLimit;
    }
  }
  result.seconds = progress.seconds();
  result.w = std::move(w);
  result.objective = f;
  result.grad_norm = gnorm;
  return result;
}

SolveResult solve_newton(const SolverInput& input) {
  return solve_newton(*make_vector_objective(input), starting_w(input), input.params,
                      input.reporter);
}

}  // namespace cdl
