// Pegasos: primal estimated sub-gradient solver for L1-SVM.
//
// Problem: min_w f(w) = 1/2 w'w + sum_j C_j max(0, 1 - y_j w'x_j) (paper,
//   equation 2), solved in Pegasos's scaled form (21)
//   g(w) = lambda/2 w'w + 1/l sum_j (C_j/C) max(0, 1 - y_j w'x_j) = f(w)/(C l)
//   with lambda = 1/(C l) (22), C the largest C_j (the larger of the two class
//   penalties, times the largest instance weight with -W).
//
// Algorithm: Shalev-Shwartz, Singer & Srebro (2007), as given in Chang, Hsieh
//   & Lin (2008), Section 4.1, Algorithm 4: at update k = 1, 2, ... draw K
//   instances uniformly with replacement (A_k), take the sub-gradient step
//   w <- (1 - eta_k lambda) w + eta_k/K sum_{j in A_k, y_j w'x_j < 1} (C_j/C)
//   y_j x_j with eta_k = 1/(lambda k) (23), and project onto the ball
//   ||w|| <= 1/sqrt(lambda) (24).
//   w is stored as a * v with ||v||^2 kept up to date, so the shrinking and
//   the projection cost O(1) and an update costs O(nonzeros of the K rows).
//
// Stopping rule: Pegasos has none (Section 5.3); it makes max_iter updates,
//   by default kDefaultPegasosPasses passes over the data, ceil(l/K) updates
//   each. One outer iteration, for reporting, is one such pass.
//
// Cost: O(nonzeros of the K sampled rows) per update, O(#nz) per reported
//   outer iteration for f(w).
#include "solvers/solver_pegasos.h"

#include <cmath>
#include <random>
#include <utility>

#include "objective/evaluate.h"
#include "select/random.h"
#include "solvers/progress.h"
#include "solvers/solver.h"
#include "util/error.h"

namespace cdl {
namespace {

// Below this, a is folded into v so that v does not overflow.
constexpr double kMinScale = 1e-9;

}  // namespace

SolveResult solve_pegasos(const Problem& problem, const Params& params, std::uint64_t seed,
                          Reporter& reporter) {
  const CsrMatrix& rows = *problem.rows;
  // The rows it draws from: all, or those that count (not held out, weight
  // not 0), in order.
  const bool some_dropped = problem.may_drop_rows();
  std::vector<std::size_t> drawn_from;
  for (std::size_t j = 0; some_dropped && j < problem.num_rows(); ++j) {
    if (problem.counts(j)) drawn_from.push_back(j);
  }
  const std::size_t l = some_dropped ? drawn_from.size() : problem.num_rows();
  const std::size_t n = problem.num_features();
  const auto batch = static_cast<std::size_t>(params.own<PegasosOptions>().batch);
  const std::int64_t updates = pegasos_updates(params, l);
  const std::int64_t per_pass = static_cast<std::int64_t>((l + batch - 1) / batch);
  // The largest C_j, so that every C_j/C <= 1 and the ball (24) holds w*.
  double c_ref = std::max(problem.cost_pos, problem.cost_neg);
  if (problem.weights != nullptr) {
    c_ref = 0;
    for (std::size_t j = 0; j < problem.num_rows(); ++j) c_ref = std::max(c_ref, problem.cost(j));
  }
  const double lambda = 1.0 / (c_ref * static_cast<double>(l));
  const double max_norm2 = 1.0 / lambda;  // the ball ||w||^2 <= 1/lambda

  std::vector<double> row_norm2(problem.num_rows());
  for (std::size_t j = 0; j < row_norm2.size(); ++j) row_norm2[j] = row_squared_norm(rows, j);

  std::vector<double> v(n, 0.0);
  double scale = 1.0;  // w = scale * v
  double v_norm2 = 0;  // ||v||^2
  const Regularizer regularizer = Regularizer::of(params.regularizer);
  std::vector<double> w;  // scale * v, made for reports and at the end
  const auto make_w = [&] {
    w.resize(n);
    for (std::size_t i = 0; i < n; ++i) w[i] = scale * v[i];
  };
  const auto objective = [&] {
    return objective_value(problem, LossKind::kL1Svm, regularizer, w, margins(problem, w));
  };

  std::mt19937_64 rng(seed);
  std::vector<std::pair<std::size_t, double>> violating;  // (j, v'x_j)
  SolveResult result;
  Progress progress(reporter);
  for (std::int64_t k = 1; k <= updates; ++k) {
    const double eta = 1.0 / (lambda * static_cast<double>(k));
    violating.clear();
    for (std::size_t draw = 0; draw < batch; ++draw) {
      const std::size_t draw_index = uniform_index(rng, l);
      const std::size_t j = some_dropped ? drawn_from[draw_index] : draw_index;
      const double dot = row_dot(rows, j, v);
      if (problem.y[j] * scale * dot < 1.0) violating.emplace_back(j, dot);
    }
    // 1 - eta lambda = 1 - 1/k, written so that the first update gives 0.
    const double shrink = 1.0 - 1.0 / static_cast<double>(k);
    bool v_changed = false;  // then the stored v'x_j are stale
    if (shrink == 0) {
      std::fill(v.begin(), v.end(), 0.0);
      scale = 1.0;
      v_norm2 = 0;
      v_changed = true;
    } else {
      scale *= shrink;
    }
    for (const auto& [j, stored_dot] : violating) {
      const double coef =
          eta / static_cast<double>(batch) * problem.cost(j) / c_ref * problem.y[j] / scale;
      const double dot = v_changed ? row_dot(rows, j, v) : stored_dot;
      v_norm2 += 2.0 * coef * dot + coef * coef * row_norm2[j];
      v_changed = true;
      add_row(rows, j, coef, v);
    }
    const double w_norm2 = scale * scale * v_norm2;
    if (w_norm2 > max_norm2) scale *= std::sqrt(max_norm2 / w_norm2);
    if (scale < kMinScale) {
      for (double& e : v) e *= scale;
      v_norm2 *= scale * scale;
      scale = 1.0;
    }
    ++result.inner_iterations;
    if (k % per_pass == 0 || k == updates) {
      ++result.iterations;
      progress.pause();
      make_w();
      result.objective = objective();
      progress.report(result.iterations, result.objective, 0.0, progress.wants_w() ? &w : nullptr);
    }
  }
  result.seconds = progress.seconds();
  make_w();
  result.w = w;
  result.objective = objective();
  result.status = Status::kFinished;
  return result;
}

SolveResult solve_pegasos(const SolverInput& input) {
  return solve_pegasos(input.problem, input.params, input.seed, input.reporter);
}

std::int64_t pegasos_updates(const Params& params, std::size_t num_rows) {
  if (params.max_iter) return *params.max_iter;
  const auto batch = static_cast<std::size_t>(params.own<PegasosOptions>().batch);
  return kDefaultPegasosPasses * static_cast<std::int64_t>((num_rows + batch - 1) / batch);
}

const OptionGroup* pegasos_options() {
  static const OptionGroup group{
      "-k",
      "sets Pegasos's instances per update",
      {{"-k", "K", "pegasos: instances per update (default 1)",
        [](Params& params, const std::string& flag, const std::string& value) {
          params.own<PegasosOptions>().batch = integer_at_least<std::int64_t>(flag, value, 1);
        },
        [](const Params& params) {
          return params.own<PegasosOptions>().batch != PegasosOptions{}.batch;
        },
        "--tau-factor"}},
      [](const Params& params) {
        if (params.own<PegasosOptions>().batch < 1) throw ConfigError("-k must be at least 1");
      }};
  return &group;
}

}  // namespace cdl
