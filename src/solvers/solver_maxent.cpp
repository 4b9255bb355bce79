// Multinomial logistic regression (maximum entropy) by dual coordinate
// descent: one model over all classes, whose probabilities are the softmax
// of the decision values.
//
// Problem: with M classes, weights w_1..w_M and C_i the C of row i's class
// (C times its -wi weight) times row i's -W weight s_i (an integer s_i
// trains the problem in which row i appears s_i times; s_i = 0 leaves the
// row out), the primal
//     min_W f(W) = 1/2 sum_m ||w_m||^2
//                  + sum_i C_i (log sum_m exp(w_m'x_i) - w_{y_i}'x_i),
//   and its dual in one vector alpha_i (M values) per row, on row i's
//   simplex scaled by C_i (Yu, Huang & Lin, "Dual coordinate descent methods
//   for logistic regression and maximum entropy models", Machine Learning
//   85, 2011, its section on maximum entropy models; the formulas are
//   written out here in full, derived by Fenchel duality, and no equation
//   number of the paper is checked against its text):
//     min_alpha D(alpha) = 1/2 sum_m ||w_m(alpha)||^2
//                          + sum_i sum_m alpha_i^m log(alpha_i^m / C_i),
//     sum_m alpha_i^m = C_i,  alpha_i^m >= 0,
//     w_m(alpha) = sum_i (C_i [m = y_i] - alpha_i^m) x_i,
//   with min f = -min D, reached at alpha_i^m = C_i softmax(W x_i)_m. A row
//   held out by cross-validation, or of weight 0, is never visited (its
//   alpha_i stays 0 and its terms are left out of f and D).
//
// Algorithm: dual coordinate descent over the rows, the rows in a new
//   random order every outer iteration (--seed, select/random.h), w kept as
//   w(alpha). For row i, with A = ||x_i||^2, z_m = w_m'x_i and a_m the
//   current alpha_i^m, D as a function of alpha_i alone is, up to a
//   constant,
//     sum_m [A/2 alpha_m^2 + B_m alpha_m + alpha_m log alpha_m],
//     B_m = -z_m - A a_m,
//   on the simplex sum_m alpha_m = C_i. Its optimality conditions are
//     A alpha_m + log alpha_m = beta - B_m  for every m,
//   with one multiplier beta for the equality: each alpha_m(beta) is
//   positive, increasing and convex in beta (the inverse of the increasing
//   concave A a + log a), and the sub-problem's solution is the
//   root of S(beta) = sum_m alpha_m(beta) = C_i, which lies between
//   beta_lo = A C_i / M + log(C_i / M) + min_m B_m (where S <= C_i) and
//   beta_hi = A C_i + log C_i + min_m B_m (where S >= C_i). Each
//   alpha_m(beta) is W(A e^(beta - B_m)) / A, W Lambert's function
//   (v = A alpha_m solves v + log v = log A + beta - B_m), found by Newton's
//   method from a lower bound, monotone (e^(beta - B_m) for an empty row,
//   A = 0); and beta by Newton's method on S,
//   kept in [beta_lo, beta_hi]: S being convex, a step from the left of the
//   root lands on its right, and from there the steps decrease
//   monotonically to it. The first guess is beta = log C_i - log sum_m
//   exp(z_m), the root when z has not changed since row i's last visit
//   (after a visit, alpha_i = C_i softmax(z) with the updated z). alpha
//   stays strictly inside the simplex, as the paper keeps it, and the
//   alpha_m log alpha_m terms need no special case at a bound. The root
//   found, alpha_i is scaled to sum to C_i exactly and w_m += (a_m -
//   alpha_m) x_i. The start is alpha_i^m = C_i kStartShare for m != y_i
//   (the rest on y_i), which makes W nearly 0, as LIBLINEAR's dual LR
//   starts near its bound.
//
// Stopping rule: the duality gap, once an outer iteration: with W and
//   alpha after it, gap = f(W) + D(alpha) >= 0 bounds f(W) - min f, and the
//   solver stops when gap <= eps f(W) (default eps 1e-4, so that the
//   objective is within 1e-4 relative of the optimum), or after --max-iter
//   outer iterations (default 1000). The relative gap is used rather than a
//   bound on the dual gradient (LIBLINEAR's rule for its binary dual LR)
//   because it bounds the primal objective's error directly, whatever C and
//   the data's scale. (The paper's own criterion for its maximum entropy
//   experiments is not checked against its text.) The progress lines print
//   f, -D and the gap; the reported norm is gap / f, and the reports carry
//   alpha (IterationInfo::alpha: row i's M values at [i M, i M + M), in the
//   order of classes.labels; 0 for the rows left out).
//
// Cost: a visit is O(nonzeros of row i x M) for z and again for the update
//   of w, and O(M) logs per Newton step of the sub-problem (3.2 steps on
//   beta on dna.scale, 4.2 on WordNet's glosses, each alpha_m's W from its
//   last value in 2.4 steps; independent of the row's nonzeros); the gap
//   is one more pass, O(#nz M + l M + n M). Serial: the model does not
//   depend on -m.
#include <algorithm>
#include <cmath>
#include <optional>
#include <random>

#include "select/random.h"
#include "solvers/progress.h"
#include "solvers/solver.h"

namespace cdl {
namespace {

// alpha_i^m starts at C_i kStartShare for m != y_i.
constexpr double kStartShare = 1e-8;
// The sub-problem's root is taken once |S - C_i| <= kSumTolerance C_i.
constexpr double kSumTolerance = 1e-13;
constexpr int kMaxNewtonSteps = 100;

// Lambert's W of e^L: the v > 0 with v e^v = e^L, i.e. v + log v = L, by
// Newton's method from below. h(v) = v + log v - L is concave and
// increasing, so from a lower bound the steps increase v monotonically to
// the root. The start is `near` (a guess, the root of a nearby L) when
// |h(near)| <= 1, made a lower bound: for h = h(near) > 0, near e^-h has
// h = near (e^-h - 1) <= 0. Either way the start is within a factor e of
// the root r (h(near) = near - r + log(near / r)), and a few steps reach
// it (2.4 on average, the header's Cost). Otherwise the start is a bound
// of W itself: L - log L for L > 1
// (W(x) >= log x - log log x for x >= e, Hoorfar & Hassani 2008), and
// x / (1 + x), x = e^L, otherwise (with w = W(x), x / (1 + x) <= w is
// e^w (1 - w) <= 1, true for w >= 0); from these at most 5 steps for L in
// [-40, 1e8], checked against scipy's lambertw. Each step costs one log,
// h carried from the last. 0 where e^L underflows.
double lambert_w_of_exp(double L, double near) {
  double v, h;
  const double h_near = near > 0 ? near + std::log(near) - L : 0.0;
  if (near > 0 && std::fabs(h_near) <= 1) {
    v = h_near > 0 ? near * std::exp(-h_near) : near;
    h = h_near > 0 ? v - near : h_near;
  } else if (L > 1) {
    const double log_l = std::log(L);
    v = L - log_l;
    h = std::log(v) - log_l;
  } else {
    const double x = std::exp(L);
    v = x / (1.0 + x);
    h = v - std::log1p(x);
  }
  for (int step = 0; step < kMaxNewtonSteps; ++step) {
    const double next = v - h * v / (v + 1.0);
    if (!(next > v)) break;  // the root, to rounding (or v = 0)
    v = next;
    h = v + std::log(v) - L;
  }
  return v;
}

// The alpha > 0 with A alpha + log alpha = t, A >= 0: W(A e^t) / A for
// A > 0 (v = A alpha solves v + log v = log A + t; `near` is an alpha near
// the root), e^t for A = 0.
double solve_alpha(double a, double log_a, double t, double near) {
  return a > 0 ? lambert_w_of_exp(log_a + t, a * near) / a : std::exp(t);
}

// Row i's sub-problem: the new alpha (size M) given B (size M), A, C_i and
// a first guess of the multiplier beta. S(beta) = sum_m alpha_m(beta) is
// convex and increasing, so a Newton step from the left of the root lands
// on its right, and from the right the steps decrease monotonically to it;
// every step is kept in [beta_lo, beta_hi], where the root lies.
void solve_sub_problem(const std::vector<double>& b, double a, double cost, double guess,
                       const double* current, std::vector<double>& alpha) {
  const std::size_t classes = b.size();
  const double least_b = *std::min_element(b.begin(), b.end());
  const double beta_lo = a * cost / static_cast<double>(classes) +
                         std::log(cost / static_cast<double>(classes)) + least_b;
  const double beta_hi = a * cost + std::log(cost) + least_b;
  double beta = std::min(std::max(guess, beta_lo), beta_hi);
  const double log_a = a > 0 ? std::log(a) : 0.0;
  // Each alpha_m's solve starts near the last one: row i's current alpha,
  // then the previous beta's.
  alpha.assign(current, current + classes);
  double sum = 0;
  for (int step = 0; step < kMaxNewtonSteps; ++step) {
    sum = 0;
    double slope = 0;
    for (std::size_t m = 0; m < classes; ++m) {
      alpha[m] = solve_alpha(a, log_a, beta - b[m], alpha[m]);
      sum += alpha[m];
      slope += alpha[m] / (a * alpha[m] + 1.0);  // d alpha_m / d beta
    }
    if (std::fabs(sum - cost) <= kSumTolerance * cost || !(slope > 0)) break;
    const double next = std::min(std::max(beta - (sum - cost) / slope, beta_lo), beta_hi);
    // No progress left: the step stands still, or (right of the root) rises.
    if (next == beta || (sum > cost && next > beta)) break;
    beta = next;
  }
  for (double& value : alpha) value *= cost / sum;
}

// z = W'x_i: the M scores of row i.
void scores(const CsrMatrix& x, std::size_t i, const std::vector<double>& w, std::size_t classes,
            std::vector<double>& z) {
  z.assign(classes, 0.0);
  for (auto t = x.row_ptr[i]; t < x.row_ptr[i + 1]; ++t) {
    const auto k = static_cast<std::size_t>(t);
    const double* w_row = &w[x.col_idx[k] * classes];
    for (std::size_t m = 0; m < classes; ++m) z[m] += w_row[m] * x.values[k];
  }
}

// log sum_m exp(z_m), without overflow.
double log_sum_exp(const std::vector<double>& z) {
  const double largest = *std::max_element(z.begin(), z.end());
  double sum = 0;
  for (double v : z) sum += std::exp(v - largest);
  return largest + std::log(sum);
}

struct Gap {
  double primal;
  double dual;  // -D(alpha), so that gap = primal - dual >= 0
};

// f(W) and -D(alpha) of the header, over the rows that count.
Gap primal_and_dual(const CsrMatrix& x, const std::vector<std::size_t>& rows,
                    const std::vector<double>& row_cost, const ClassMap& classes,
                    const std::vector<double>& w, const std::vector<double>& alpha,
                    std::vector<double>& z) {
  const std::size_t count = classes.labels.size();
  double half_norm = 0;
  for (double v : w) half_norm += 0.5 * v * v;
  double loss = 0, entropy = 0;
  for (const std::size_t i : rows) {
    scores(x, i, w, count, z);
    loss += row_cost[i] * (log_sum_exp(z) - z[classes.class_of[i]]);
    for (std::size_t m = 0; m < count; ++m) {
      const double a = alpha[i * count + m];
      if (a > 0) entropy += a * std::log(a / row_cost[i]);
    }
  }
  return {half_norm + loss, -half_norm - entropy};
}

}  // namespace

std::vector<double> solve_maxent(const MultiClassInput& input) {
  const Params& params = input.params;
  const AllClassesRows taking_part = all_classes_rows(input);
  const CsrMatrix& x = *taking_part.x;
  const std::vector<double>& row_cost = taking_part.cost;
  const std::vector<double>& norm2 = taking_part.norm2;
  const std::vector<std::size_t>& rows = taking_part.rows;
  const std::size_t classes = input.classes.labels.size();
  const std::size_t n = x.num_cols;
  const double eps = params.eps.value();

  std::vector<double> w(n * classes, 0.0);
  std::vector<double> alpha(x.num_rows * classes, 0.0);
  for (const std::size_t i : rows) {
    const double cost = row_cost[i];
    // The start, and w(alpha) for it.
    const std::size_t y = input.classes.class_of[i];
    double* alpha_i = &alpha[i * classes];
    for (std::size_t m = 0; m < classes; ++m) alpha_i[m] = m == y ? 0.0 : cost * kStartShare;
    alpha_i[y] = cost - cost * kStartShare * static_cast<double>(classes - 1);
    for (auto t = x.row_ptr[i]; t < x.row_ptr[i + 1]; ++t) {
      const auto k = static_cast<std::size_t>(t);
      double* w_row = &w[x.col_idx[k] * classes];
      for (std::size_t m = 0; m < classes; ++m) {
        w_row[m] += ((m == y ? cost : 0.0) - alpha_i[m]) * x.values[k];
      }
    }
  }

  std::mt19937_64 rng(input.seed);
  std::vector<std::size_t> order = rows;
  std::vector<double> z, b(classes), next;
  SolveResult result;
  result.status = Status::kMaxIter;
  Progress progress(input.reporter);
  const std::int64_t max_iter = params.max_iter.value();
  std::int64_t iter = 0;
  Gap gap{0, 0};
  while (iter < max_iter) {
    ++iter;
    shuffle(order, rng);
    for (const std::size_t i : order) {
      const double a = norm2[i];
      double* alpha_i = &alpha[i * classes];
      scores(x, i, w, classes, z);
      for (std::size_t m = 0; m < classes; ++m) b[m] = -z[m] - a * alpha_i[m];
      // The root when z has not changed since the last visit, whose alpha_i
      // is C_i softmax(z) (the conditions above with z updated by the step).
      const double guess = std::log(row_cost[i]) - log_sum_exp(z);
      solve_sub_problem(b, a, row_cost[i], guess, alpha_i, next);
      ++result.inner_iterations;
      for (std::size_t m = 0; m < classes; ++m) {
        const double change = alpha_i[m] - next[m];
        alpha_i[m] = next[m];
        next[m] = change;
      }
      for (auto t = x.row_ptr[i]; t < x.row_ptr[i + 1]; ++t) {
        const auto k = static_cast<std::size_t>(t);
        double* w_row = &w[x.col_idx[k] * classes];
        for (std::size_t m = 0; m < classes; ++m) w_row[m] += next[m] * x.values[k];
      }
      result.nnz_ops += 2 * (x.row_ptr[i + 1] - x.row_ptr[i]) * static_cast<std::int64_t>(classes);
    }
    gap = primal_and_dual(x, rows, row_cost, input.classes, w, alpha, z);
    const double relative = gap.primal > 0 ? (gap.primal - gap.dual) / gap.primal : 0.0;
    result.grad_norm = relative;
    progress.pause();
    IterationInfo info{iter, gap.primal, relative, 0, &w};
    info.primal = gap.primal;
    info.dual = gap.dual;
    info.gap = gap.primal - gap.dual;
    info.alpha = &alpha;
    info.nnz_ops = result.nnz_ops;
    progress.report(info);
    if (gap.primal - gap.dual <= eps * gap.primal) {
      result.status = Status::kConverged;
      break;
    }
  }
  result.iterations = iter;
  result.seconds = progress.seconds();
  result.objective = gap.primal;
  input.reporter.summary(solver_info(params.solver).name, result);
  return w;
}

}  // namespace cdl
