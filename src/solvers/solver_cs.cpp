// Crammer and Singer's multi-class SVM by the sequential dual method
// (LIBLINEAR's -s 4, MCSVM_CS): one model over all classes.
//
// Problem: with M classes, weights w_1..w_M and C_i the C of row i's class
// (C times its -wi weight) times row i's -W weight s_i (LIBLINEAR's weights
// extension: C_i bounds alpha_i^{y_i}, so an integer s_i trains the problem
// in which row i appears s_i times; s_i = 0 leaves the row out), the primal
// (Crammer & Singer, JMLR 2, 2001)
//     min_w 1/2 sum_m ||w_m||^2 + sum_i C_i xi_i,
//     xi_i = max_m (w_m'x_i + e_i^m) - w_{y_i}'x_i,  e_i^m = [m != y_i],
//   and its dual in one vector alpha_i (M values) per row (Keerthi,
//   Sundararajan, Chang, Hsieh & Lin, "A sequential dual method for large
//   scale multi-class linear SVMs", KDD 2008, Section 2; the formulas are
//   written out in full, and the section numbers here are not checked
//   against the paper's text):
//     min_alpha D(alpha) = 1/2 sum_m ||w_m||^2 + sum_i sum_m e_i^m alpha_i^m,
//     sum_m alpha_i^m = 0,  alpha_i^m <= C_i [m = y_i],
//   with w_m = sum_i alpha_i^m x_i and min P = -min D. A row held out by
//   cross-validation, or of weight 0, is never visited (its alpha_i stays 0).
//
// Algorithm: the sequential dual method: the rows in a new random order
//   every outer iteration (--seed), and for row i the exact minimization of
//   D over alpha_i alone. With A = ||x_i||^2, the gradient
//   g_m = w_m'x_i + e_i^m and B_m = g_m - A alpha_i^m, that sub-problem is
//     min 1/2 A ||a||^2 + B'a,  sum_m a_m = 0,  a_m <= C_i [m = y_i],
//   solved by a_m = min(C_i [m = y_i], (beta - B_m) / A) with beta the root
//   of sum_m a_m = 0 (Crammer & Singer's fixed-point algorithm, as the
//   paper uses it): with D_m = B_m + A C_i [m = y_i] sorted decreasing,
//   beta = (D_1 + ... + D_r - A C_i) / r for the largest r with
//   D_r > beta of the first r - 1. Then w_m += (a_m - alpha_i^m) x_i.
//   Shrinking (the paper's Section 4): a class m of row i at its bound
//   with g_m below the smallest gradient of the classes below theirs
//   leaves row i's active classes, and a row with one active class leaves
//   the active rows, until an iteration's violation is below eps_shrink
//   (max(10 eps, 1) at first); then all come back and eps_shrink halves,
//   down to eps.
//
// Stopping rule: row i's violation is max_m g_m - min {g_m : alpha_i^m below
//   its bound} over its active classes (0 exactly at the sub-problem's
//   optimum); the solver stops when the largest violation of an iteration
//   that started with every row and class active is below eps (default
//   0.1, LIBLINEAR's for -s 4), or after --max-iter iterations (default
//   100000, LIBLINEAR's for its -s 4).
//
// Cost: a visit is O(nonzeros of row i x its active classes) for g and
//   again for the update of w, and O(M log M) for the sub-problem; an outer
//   iteration sums these over the active rows. D(alpha) for the progress
//   lines is O(n M + l M), skipped under -q (unless the reporter observes
//   the iterations).
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <random>

#include "select/random.h"
#include "solvers/progress.h"
#include "solvers/solver.h"

namespace cdl {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
// A row whose violation is below this is left as it is.
constexpr double kTinyViolation = 1e-12;
// A change of alpha below this is not applied to w.
constexpr double kTinyChange = 1e-12;

// The sub-problem's solution a (size k) for row i's active classes, given
// B (size k), the curvature A > 0, the slot of y_i among them (k if it is
// not active) and C_i.
void solve_sub_problem(const std::vector<double>& b, double a_ii, std::size_t y_slot, double cost,
                       std::vector<double>& scratch, std::vector<double>& a) {
  const std::size_t k = b.size();
  scratch.assign(b.begin(), b.end());
  if (y_slot < k) scratch[y_slot] += a_ii * cost;
  std::sort(scratch.begin(), scratch.end(), std::greater<double>());
  double sum = scratch[0] - a_ii * cost;
  std::size_t r = 1;
  while (r < k && sum < static_cast<double>(r) * scratch[r]) sum += scratch[r++];
  const double beta = sum / static_cast<double>(r);
  a.resize(k);
  for (std::size_t m = 0; m < k; ++m) {
    const double bound = m == y_slot ? cost : 0.0;
    a[m] = std::min(bound, (beta - b[m]) / a_ii);
  }
}

}  // namespace

std::vector<double> solve_cs(const MultiClassInput& input) {
  const Params& params = input.params;
  const AllClassesRows taking_part = all_classes_rows(input);
  const CsrMatrix& x = *taking_part.x;
  const std::vector<std::size_t>& all_rows = taking_part.rows;
  const std::vector<double>& row_cost = taking_part.cost;
  const std::vector<double>& norm2 = taking_part.norm2;
  const std::size_t classes = input.classes.labels.size();
  const std::size_t n = x.num_cols;
  const double eps = params.eps.value();

  std::vector<double> w(n * classes, 0.0);
  std::vector<double> alpha(x.num_rows * classes, 0.0);
  // Row i's active classes are active_class[i M .. i M + active_count[i]),
  // and y_slot[i] is the slot of y_i among them (active_count[i] if shrunk).
  std::vector<std::size_t> active_class(x.num_rows * classes);
  std::vector<std::size_t> active_count(x.num_rows, classes), y_slot(x.num_rows);
  const auto restore = [&](std::size_t i) {
    for (std::size_t m = 0; m < classes; ++m) active_class[i * classes + m] = m;
    active_count[i] = classes;
    y_slot[i] = input.classes.class_of[i];
  };
  for (const std::size_t i : all_rows) restore(i);

  std::mt19937_64 rng(input.seed);
  const bool compute_d =
      input.reporter.level() != Reporter::Level::kQuiet || input.reporter.observes_iterations();
  std::vector<std::size_t> active = all_rows;
  std::vector<double> g(classes), b, a, scratch;
  double eps_shrink = std::max(10.0 * eps, 1.0);
  bool from_all = true;
  SolveResult result;
  result.status = Status::kMaxIter;
  Progress progress(input.reporter);
  const std::int64_t max_iter = params.max_iter.value();
  std::int64_t iter = 0;
  while (iter < max_iter) {
    ++iter;
    shuffle(active, rng);
    double largest = -kInfinity;
    std::size_t kept = 0;
    for (std::size_t s = 0; s < active.size(); ++s) {
      const std::size_t i = active[s];
      const double a_ii = norm2[i];
      if (a_ii <= 0) continue;  // an empty row has nothing to move: it leaves
      std::size_t* own = &active_class[i * classes];
      double* alpha_i = &alpha[i * classes];
      const double cost = row_cost[i];
      std::size_t count = active_count[i];
      for (std::size_t m = 0; m < count; ++m) g[m] = m == y_slot[i] ? 0.0 : 1.0;
      for (auto t = x.row_ptr[i]; t < x.row_ptr[i + 1]; ++t) {
        const auto k = static_cast<std::size_t>(t);
        const double* w_row = &w[x.col_idx[k] * classes];
        for (std::size_t m = 0; m < count; ++m) g[m] += w_row[own[m]] * x.values[k];
      }
      double max_g = -kInfinity, min_g = kInfinity;
      for (std::size_t m = 0; m < count; ++m) {
        const double bound = m == y_slot[i] ? cost : 0.0;
        if (alpha_i[own[m]] < bound) min_g = std::min(min_g, g[m]);
        max_g = std::max(max_g, g[m]);
      }
      // Shrinking: classes at their bound below every free gradient.
      for (std::size_t m = 0; m < count;) {
        const double bound = m == y_slot[i] ? cost : 0.0;
        if (!(alpha_i[own[m]] >= bound && g[m] < min_g)) {
          ++m;
          continue;
        }
        --count;
        std::swap(own[m], own[count]);
        std::swap(g[m], g[count]);
        if (y_slot[i] == count) {
          y_slot[i] = m;
        } else if (y_slot[i] == m) {
          y_slot[i] = count;
        }
      }
      active_count[i] = count;
      if (count <= 1) continue;  // the row leaves the active rows
      active[kept++] = i;
      if (max_g - min_g <= kTinyViolation) continue;
      largest = std::max(largest, max_g - min_g);
      b.resize(count);
      for (std::size_t m = 0; m < count; ++m) b[m] = g[m] - a_ii * alpha_i[own[m]];
      solve_sub_problem(b, a_ii, y_slot[i] < count ? y_slot[i] : count, cost, scratch, a);
      ++result.inner_iterations;
      for (std::size_t m = 0; m < count; ++m) {
        const double change = a[m] - alpha_i[own[m]];
        alpha_i[own[m]] = a[m];
        a[m] = std::fabs(change) >= kTinyChange ? change : 0.0;
      }
      for (auto t = x.row_ptr[i]; t < x.row_ptr[i + 1]; ++t) {
        const auto k = static_cast<std::size_t>(t);
        double* w_row = &w[x.col_idx[k] * classes];
        for (std::size_t m = 0; m < count; ++m) w_row[own[m]] += a[m] * x.values[k];
      }
      result.nnz_ops += (x.row_ptr[i + 1] - x.row_ptr[i]) * static_cast<std::int64_t>(count);
    }
    active.resize(kept);
    progress.pause();
    const double violation = std::max(largest, 0.0);
    result.grad_norm = violation;
    double d = std::numeric_limits<double>::quiet_NaN();
    if (compute_d) {
      d = 0;
      for (double v : w) d += 0.5 * v * v;
      for (const std::size_t i : all_rows) {
        for (std::size_t m = 0; m < classes; ++m) {
          if (m != input.classes.class_of[i]) d += alpha[i * classes + m];
        }
      }
    }
    progress.report(iter, d, violation, &w);
    if (violation < eps_shrink) {
      if (violation < eps && from_all) {
        result.status = Status::kConverged;
        break;
      }
      active = all_rows;
      for (const std::size_t i : all_rows) restore(i);
      eps_shrink = std::max(eps_shrink / 2, eps);
      from_all = true;
    } else {
      from_all = false;
    }
  }
  result.iterations = iter;
  result.seconds = progress.seconds();
  double d = 0;
  for (double v : w) d += 0.5 * v * v;
  for (const std::size_t i : all_rows) {
    for (std::size_t m = 0; m < classes; ++m) {
      if (m != input.classes.class_of[i]) d += alpha[i * classes + m];
    }
  }
  result.objective = d;
  input.reporter.summary(solver_info(params.solver).name, result);
  return w;
}

}  // namespace cdl
