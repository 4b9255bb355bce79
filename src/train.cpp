#include "train.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <random>

#include "coordinate_order.h"
#include "error.h"
#include "objective.h"

namespace cdl {
namespace {

// A distinct, well-mixed seed for each binary sub-problem or fold, so that
// results do not depend on the order they are trained in.
std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t stream) {
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ULL * (stream + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

std::unique_ptr<CoordinateOrder> make_order(SolverKind kind, std::size_t n, std::uint64_t seed) {
  switch (kind) {
    case SolverKind::kCd:
    case SolverKind::kCmls:
      return std::make_unique<CyclicOrder>(n);
    case SolverKind::kCdPer:
    case SolverKind::kCmlsPer:
      return std::make_unique<PermutationOrder>(n, seed, true);
    case SolverKind::kCdPerOne:
      return std::make_unique<PermutationOrder>(n, seed, false);
    case SolverKind::kOnlineCd:
      return std::make_unique<RandomOrder>(n, seed);
    case SolverKind::kTron:
    case SolverKind::kPegasos:
      break;
  }
  throw ConfigError("not a coordinate-descent solver");
}

// max(min(#positive, #negative), 1) / l.
double minority_share(const Problem& problem) {
  std::size_t positive = 0;
  for (double y : problem.y) positive += y > 0;
  const std::size_t smaller = std::min(positive, problem.y.size() - positive);
  return static_cast<double>(std::max<std::size_t>(smaller, 1)) /
         static_cast<double>(problem.y.size());
}

}  // namespace

SolveResult train_binary(const Problem& problem, const Params& params, std::uint64_t seed,
                         Reporter& reporter) {
  const SolverInfo& info = solver_info(params.solver);
  const LossKind loss = params.loss.value();
  SolveResult result;
  switch (params.solver) {
    case SolverKind::kCd:
    case SolverKind::kCdPer:
    case SolverKind::kCdPerOne:
    case SolverKind::kOnlineCd: {
      auto objective = make_coordinate_objective(loss, problem);
      auto order = make_order(params.solver, problem.num_features(), seed);
      result = solve_cd(*objective, *order, params, reporter);
      break;
    }
    case SolverKind::kCmls:
    case SolverKind::kCmlsPer: {
      auto order = make_order(params.solver, problem.num_features(), seed);
      result = solve_cmls(problem, *order, params, reporter);
      break;
    }
    case SolverKind::kTron: {
      // As LIBLINEAR does for its primal solvers, eps is scaled by the share
      // of the smaller class, so that -e means what it means there and an
      // unbalanced problem is not stopped early.
      Params scaled = params;
      scaled.eps = *params.eps * minority_share(problem);
      auto objective = make_vector_objective(loss, problem);
      result = solve_tron(*objective, std::vector<double>(problem.num_features(), 0.0), scaled,
                          reporter);
      break;
    }
    case SolverKind::kPegasos:
      result = solve_pegasos(problem, params, seed, reporter);
      break;
  }
  reporter.summary(info.name, result);
  return result;
}

bool needs_rows(SolverKind solver) {
  return solver == SolverKind::kTron || solver == SolverKind::kPegasos;
}

LinearModel train(const CscMatrix& x, const ClassMap& classes, const Params& params,
                  Reporter& reporter) {
  const std::size_t nr_class = classes.labels.size();
  if (nr_class < 2) {
    throw Error("the training data has only one class (label " +
                std::to_string(classes.labels.empty() ? 0 : classes.labels[0]) +
                "); a classifier needs at least two");
  }
  LinearModel model;
  model.solver_type = liblinear_solver_type(params.loss.value());
  model.labels = classes.labels;
  model.bias = params.bias;
  model.num_features = x.num_cols - (params.bias >= 0 ? 1 : 0);
  const std::size_t nr_w = model.nr_w();
  model.w.assign(x.num_cols * nr_w, 0.0);
  std::optional<CsrMatrix> rows;
  if (needs_rows(params.solver)) rows = to_csr(x);
  for (std::size_t k = 0; k < nr_w; ++k) {
    if (nr_w > 1) reporter.info("class " + std::to_string(classes.labels[k]) + " vs rest");
    const Problem problem = one_vs_rest(x, classes, k, params.C, params.C, rows ? &*rows : nullptr);
    const SolveResult result = train_binary(problem, params, derive_seed(params.seed, k), reporter);
    for (std::size_t i = 0; i < x.num_cols; ++i) model.w[i * nr_w + k] = result.w[i];
  }
  return model;
}

double cross_validate(const CscMatrix& x, const ClassMap& classes, const Params& params,
                      Reporter& reporter) {
  const std::size_t l = x.num_rows;
  auto folds = static_cast<std::size_t>(params.cv_folds);
  if (folds > l) {
    reporter.warning(std::to_string(folds) + " folds of " + std::to_string(l) +
                     " instances: using " + std::to_string(l) + " (leave-one-out)");
    folds = l;
  }
  std::vector<std::size_t> order(l);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::mt19937_64 rng(derive_seed(params.seed, 0x5eed));
  shuffle(order, rng);
  std::size_t correct = 0;
  for (std::size_t f = 0; f < folds; ++f) {
    const std::size_t begin = f * l / folds;
    const std::size_t end = (f + 1) * l / folds;
    std::vector<std::size_t> test(order.begin() + static_cast<std::ptrdiff_t>(begin),
                                  order.begin() + static_cast<std::ptrdiff_t>(end));
    std::sort(test.begin(), test.end());
    std::vector<std::size_t> training;
    training.reserve(l - test.size());
    std::size_t t = 0;
    for (std::size_t r = 0; r < l; ++r) {
      if (t < test.size() && test[t] == r) {
        ++t;
      } else {
        training.push_back(r);
      }
    }
    ClassMap fold_classes{classes.labels, {}};
    for (std::size_t r : training) fold_classes.class_of.push_back(classes.class_of[r]);
    Params fold_params = params;
    fold_params.seed = derive_seed(params.seed, f + 1);
    const LinearModel model = train(select_rows(x, training), fold_classes, fold_params, reporter);
    const std::vector<int> predicted = model.predict(select_rows(x, test));
    for (std::size_t k = 0; k < test.size(); ++k) {
      correct += predicted[k] == classes.labels[classes.class_of[test[k]]];
    }
  }
  return static_cast<double>(correct) / static_cast<double>(l);
}

}  // namespace cdl
