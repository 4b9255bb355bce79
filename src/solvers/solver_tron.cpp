// Trust region Newton method (TRON) for L2-regularized L2-SVM, logistic
// regression and L2-loss support vector regression.
//
// Problem: min_w f(w) = 1/2 w'w + sum_j C_j loss(y_j w'x_j), loss the squared
//   hinge (Chang, Hsieh & Lin 2008, equation (3); generalized Hessian of
//   Mangasarian 2002) or the logistic loss (its (4)); or, for the L2-loss
//   SVR (LIBLINEAR's -s 11; Ho & Lin 2012, "Large-scale linear support
//   vector regression", JMLR 13, equation (5), a number not checked against
//   that paper's text), f(w) = 1/2 w'w + sum_j C_j max(0, |w'x_j - t_j| -
//   p)^2, whose generalized Hessian I + 2 C X_A' X_A has A the rows outside
//   the tube, |w'x_j - t_j| > p.
//
// Algorithm: Lin, Weng & Keerthi (2008), "Trust region Newton method for
//   large-scale logistic regression", JMLR 9, as summarized in Chang, Hsieh &
//   Lin (2008), Section 4.2, Algorithm 5. Each outer iteration k
//   - approximately solves the sub-problem (25), min q_k(s) = g's + 1/2 s'Hs
//     subject to ||s|| <= Delta_k, by conjugate gradient that stops when
//     ||grad q_k(s)|| <= 0.1 ||g|| or at the trust region boundary (Steihaug),
//     or after min(n + 10, 1000) steps (a guard against rounding on badly
//     scaled data);
//   - takes the step if rho_k = (f(w + s) - f(w)) / q_k(s) > eta0, and sets
//     Delta_{k+1} by (26) with eta0 = 1e-4, eta1 = 0.25, eta2 = 0.75,
//     sigma1 = 0.25, sigma2 = 0.5, sigma3 = 4. Within each interval of (26)
//     the new radius is alpha ||s||, alpha minimizing the quadratic that
//     interpolates f(w), g's and f(w + s) along s, clipped to the interval
//     (the rule of Lin & More 1999).
//   The first radius is ||grad f(w0)||, shrunk to ||s|| after the first step.
//
// Stopping rule: ||grad f(w)|| <= eps ||grad f(0)||, or max_iter outer
//   iterations, or (status PrecisionLimit) when both the actual and the
//   predicted reduction are below 1e-12 |f| in 5 iterations in a row, where rho
//   is rounding noise (one such iteration also happens on badly scaled data,
//   when CG has only cancelled the steep coordinates). train() passes eps = -e
//   (0.01 by default) times max(min(#pos, #neg), 1) / l, LIBLINEAR's scaling for its primal
//   solvers; for the SVR, -e itself (0.0001 by default), as LIBLINEAR's -s 11.
//
// Cost: one outer iteration is one evaluation of f and grad f, O(#nz), plus
//   one Hessian-vector product per CG step (paper, equation 27; the Hessian
//   is never formed): X s and X'(D X s) over the rows with D_jj != 0 (for
//   L2-SVM the active ones), O(#nz of those rows), in B fixed blocks of rows
//   (B <= 8, from the data, never the threads), plus O(B n) to add the
//   blocks' sums; and O(n) for CG's vector operations. TRON reads the rows
//   alone (problem.rows; no CSC is needed).
//
// Threads: the products, which multi-core LIBLINEAR also runs on threads,
//   run on thread_count(params) threads (-m): X v over fixed blocks
//   of the rows of the CSR (problem.rows), X'u over the B fixed blocks of
//   rows, each into an n-vector of its own, then summed in block order over
//   ranges of features, on a team of threads kept for the solve
//   (vector_objective.h; data of fewer than 65,536 nonzeros stay on this
//   thread, where waking the team would cost more than a pass).
//   The model does not depend on the number of threads, to the bit: every
//   margin is one dot product computed whole by one thread, every block of
//   X'u is scattered by one thread in row order and the blocks are added in
//   block order, B being fixed by the data, and every scalar reduction (f,
//   the norms, CG's dot products) is added on this thread in index order. So -m 1, 2 or 3 write the
//   same model. One-vs-rest and cross-validation give their classes and folds the threads instead
//   (train.cpp, cross_validation.cpp): each of those solves runs on one.
#include <algorithm>
#include <cmath>

#include "objective/vector_math.h"
#include "solvers/progress.h"
#include "solvers/solver.h"
#include "util/populate.h"

namespace cdl {
namespace {

constexpr double kEta0 = 1e-4;
constexpr double kEta1 = 0.25;
constexpr double kEta2 = 0.75;
constexpr double kSigma1 = 0.25;
constexpr double kSigma2 = 0.5;
constexpr double kSigma3 = 4.0;
constexpr double kCgTolerance = 0.1;  // relative to ||g||
constexpr std::size_t kMaxCgSteps = 1000;
constexpr double kPrecision = 1e-12;  // relative reductions below this are noise
constexpr int kPrecisionStrikes = 5;  // ... in this many iterations in a row

// CG's vectors, kept for the whole solve: n-vectors allocated at every
// outer iteration would be fresh pages for the system to fault in each
// time (8 MB each at n = 10^6). The first call sizes them in memory mapped
// before it is written (resize_for_writing(), util/populate.h).
struct CgResult {
  std::vector<double> step;      // s
  std::vector<double> residual;  // -grad q(s) = -g - H s
  std::vector<double> direction;
  std::vector<double> hd;  // H direction
  int iterations = 0;
  bool hit_boundary = false;
};

// Steihaug's conjugate gradient for min g's + 1/2 s'Hs, ||s|| <= radius,
// into `out`.
void trust_region_cg(const VectorObjective& objective, const std::vector<double>& g, double radius,
                     CgResult& out) {
  const std::size_t n = g.size();
  out.iterations = 0;
  out.hit_boundary = false;
  for (std::vector<double>* v : {&out.step, &out.residual, &out.direction, &out.hd}) {
    resize_for_writing(*v, n);
  }
  std::fill(out.step.begin(), out.step.end(), 0.0);
  for (std::size_t i = 0; i < n; ++i) out.residual[i] = -g[i];
  std::vector<double>& direction = out.direction;
  std::copy(out.residual.begin(), out.residual.end(), direction.begin());
  std::vector<double>& hd = out.hd;
  double rr = dot(out.residual, out.residual);
  const double tolerance = kCgTolerance * std::sqrt(rr);
  // In exact arithmetic CG ends within n steps; rounding on a badly
  // conditioned Hessian (features on scales 1 and 1e70) can keep the residual
  // above the tolerance forever, so the steps are capped and a direction
  // without positive curvature ends the loop. Every step taken still lowers
  // the model, so the step so far is a descent step. On real data CG takes
  // tens of steps; the cap of 1000 bounds the time of the pathological case.
  const std::size_t max_steps = std::min<std::size_t>(n + 10, kMaxCgSteps);
  while (std::sqrt(rr) > tolerance && static_cast<std::size_t>(out.iterations) < max_steps) {
    objective.hess_vec(direction, hd);
    const double curvature = dot(direction, hd);
    if (!(curvature > 0)) break;
    ++out.iterations;
    const double alpha = rr / curvature;
    axpy(alpha, direction, out.step);
    if (norm2(out.step) > radius) {
      // Back up and go to the boundary: ||s + tau d|| = radius, tau >= 0.
      axpy(-alpha, direction, out.step);
      const double sd = dot(out.step, direction);
      const double dd = dot(direction, direction);
      const double ss = dot(out.step, out.step);
      const double gap = radius * radius - ss;
      const double root = std::sqrt(sd * sd + dd * gap);
      const double tau = sd >= 0 ? gap / (sd + root) : (root - sd) / dd;
      axpy(tau, direction, out.step);
      axpy(-tau, hd, out.residual);
      out.hit_boundary = true;
      break;
    }
    axpy(-alpha, hd, out.residual);
    const double rr_next = dot(out.residual, out.residual);
    const double beta = rr_next / rr;
    for (std::size_t i = 0; i < n; ++i) direction[i] = out.residual[i] + beta * direction[i];
    rr = rr_next;
  }
}

// The new radius by (26) and Lin & More's interpolation.
double next_radius(double radius, double rho, double alpha, double step_norm) {
  const double candidate = alpha * step_norm;
  if (rho < kEta0) return std::min(std::max(alpha, kSigma1) * step_norm, kSigma2 * radius);
  if (rho < kEta1) return std::max(kSigma1 * radius, std::min(candidate, kSigma2 * radius));
  if (rho < kEta2) return std::max(kSigma1 * radius, std::min(candidate, kSigma3 * radius));
  return std::max(radius, std::min(candidate, kSigma3 * radius));
}

}  // namespace

SolveResult solve_tron(VectorObjective& objective, std::vector<double> w, const Params& params,
                       Reporter& reporter) {
  const double eps = params.eps.value();
  const std::int64_t max_iter = params.max_iter.value();
  Progress progress(reporter);  // from here: every evaluation counts

  SolveResult result;
  double f = objective.evaluate(w);
  std::vector<double> g;  // sized by gradient(), in memory mapped first
  objective.gradient(g);
  double gnorm = norm2(g);
  const double stop_norm = eps * objective.gradient_norm_at_zero();
  double radius = gnorm;
  std::vector<double> trial = populated_vector(w.size(), 0.0);
  result.status = gnorm <= stop_norm ? Status::kConverged : Status::kMaxIter;
  int tiny_steps = 0;  // consecutive iterations with noise-sized reductions
  CgResult cg;
  while (result.status == Status::kMaxIter && result.iterations < max_iter) {
    trust_region_cg(objective, g, radius, cg);
    result.inner_iterations += cg.iterations;
    if (!(norm2(cg.step) > 0)) {
      // CG took no step (no positive curvature at its first direction):
      // nothing can be gained at this precision.
      result.status = Status::kPrecisionLimit;
      break;
    }
    for (std::size_t i = 0; i < w.size(); ++i) trial[i] = w[i] + cg.step[i];
    const double gs = dot(g, cg.step);
    // q(s) = g's + 1/2 s'Hs = 1/2 (g's - s'r), with r = -g - Hs.
    const double predicted = -0.5 * (gs - dot(cg.step, cg.residual));
    const double f_trial = objective.evaluate(trial);
    const double actual = f - f_trial;
    const double step_norm = norm2(cg.step);
    if (result.iterations == 0) radius = std::min(radius, step_norm);
    const double curvature = f_trial - f - gs;
    const double alpha = curvature <= 0 ? kSigma3 : std::max(kSigma1, -0.5 * (gs / curvature));
    const double rho = predicted > 0 ? actual / predicted : -1.0;
    radius = next_radius(radius, rho, alpha, step_norm);
    ++result.iterations;
    if (actual > kEta0 * predicted) {
      w.swap(trial);
      f = f_trial;
      objective.gradient(g);
      gnorm = norm2(g);
    } else {
      objective.evaluate(w);  // restore the cache to the current w
    }
    progress.report(result.iterations, f, gnorm, &w);
    if (gnorm <= stop_norm) {
      result.status = Status::kConverged;
    } else if (std::fabs(actual) <= kPrecision * std::fabs(f) &&
               std::fabs(predicted) <= kPrecision * std::fabs(f)) {
      // Both reductions are rounding noise: w is as good as double gets,
      // unless CG only cancelled the gradient of a few steep coordinates
      // (badly scaled data), after which the next steps are large again.
      if (++tiny_steps == kPrecisionStrikes) result.status = Status::kPrecisionLimit;
    } else {
      tiny_steps = 0;
    }
  }
  result.seconds = progress.seconds();
  result.w = std::move(w);
  result.objective = f;
  result.grad_norm = gnorm;
  return result;
}

SolveResult solve_tron(const SolverInput& input) {
  return solve_tron(*make_vector_objective(input), starting_w(input), input.params, input.reporter);
}

}  // namespace cdl
