#include "solvers/params.h"

#include <algorithm>
#include <cmath>

#include "util/error.h"

namespace cdl {

const std::vector<SolverInfo>& solver_table() {
  using L = LossKind;
  static const std::vector<SolverInfo> table = {
      {0,
       "cdper",
       SolverKind::kCdPer,
       "CD with a new random feature order every iteration",
       {L::kL2Svm, L::kLogistic},
       0.001},
      {1,
       "cd",
       SolverKind::kCd,
       "coordinate descent in cyclic order (Algorithms 1-2)",
       {L::kL2Svm, L::kLogistic},
       0.001},
      {2,
       "cdperone",
       SolverKind::kCdPerOne,
       "CD with one random feature order",
       {L::kL2Svm, L::kLogistic},
       0.001},
      {3,
       "online",
       SolverKind::kOnlineCd,
       "online CD, uniformly random features (Alg. 3)",
       {L::kL2Svm, L::kLogistic},
       0.001},
      {4, "cmls", SolverKind::kCmls, "CMLS (Zhang & Oles 2001), Algorithm 6", {L::kL2Svm}, 0.001},
      {5,
       "cmlsper",
       SolverKind::kCmlsPer,
       "CMLS with a new random order every iteration",
       {L::kL2Svm},
       0.001},
      {6,
       "tron",
       SolverKind::kTron,
       "trust region Newton method (Lin, Weng & Keerthi)",
       {L::kL2Svm, L::kLogistic},
       0.01},
      {7,
       "pegasos",
       SolverKind::kPegasos,
       "Pegasos stochastic subgradient, Algorithm 4",
       {L::kL1Svm},
       0.0},
  };
  return table;
}

std::string valid_pairs() {
  std::string out;
  std::size_t k = 0;
  const auto& table = solver_table();
  while (k < table.size()) {
    std::size_t end = k + 1;
    while (end < table.size() && table[end].losses == table[k].losses) ++end;
    if (!out.empty()) out += "; ";
    out += "-s " + std::to_string(table[k].number);
    if (end - k > 1) out += "-" + std::to_string(table[end - 1].number);
    out += ":";
    for (LossKind loss : table[k].losses) out += std::string(" ") + loss_info(loss).name;
    k = end;
  }
  return out;
}

const SolverInfo& solver_info(SolverKind kind) {
  for (const auto& info : solver_table()) {
    if (info.kind == kind) return info;
  }
  throw Error("unknown solver kind");
}

const SolverInfo* find_solver(const std::string& number_or_name) {
  for (const auto& info : solver_table()) {
    if (number_or_name == info.name || number_or_name == std::to_string(info.number)) {
      return &info;
    }
  }
  return nullptr;
}

const std::vector<LossInfo>& loss_table() {
  static const std::vector<LossInfo> table = {
      {"l2svm", LossKind::kL2Svm, "squared hinge max(0, 1 - y w'x)^2, equation (3)"},
      {"l1svm", LossKind::kL1Svm, "hinge max(0, 1 - y w'x), equation (2)"},
      {"lr", LossKind::kLogistic, "logistic log(1 + exp(-y w'x)), equation (4)"},
  };
  return table;
}

const LossInfo& loss_info(LossKind kind) {
  for (const auto& info : loss_table()) {
    if (info.kind == kind) return info;
  }
  throw Error("unknown loss kind");
}

const LossInfo* find_loss(const std::string& name) {
  for (const auto& info : loss_table()) {
    if (name == info.name) return &info;
  }
  return nullptr;
}

Params resolve_defaults(Params params) {
  const SolverInfo& solver = solver_info(params.solver);
  if (!params.loss) params.loss = solver.losses.front();
  if (!params.eps) params.eps = solver.default_eps;
  if (!params.max_iter && params.solver != SolverKind::kPegasos) {
    params.max_iter = kDefaultMaxIter;
  }
  return params;
}

double class_cost(const Params& params, int label) {
  const auto it = params.class_weights.find(label);
  return params.C * (it == params.class_weights.end() ? 1.0 : it->second);
}

std::int64_t pegasos_updates(const Params& params, std::size_t num_rows) {
  if (params.max_iter) return *params.max_iter;
  const auto batch = static_cast<std::size_t>(params.pegasos_batch);
  return kDefaultPegasosPasses * static_cast<std::int64_t>((num_rows + batch - 1) / batch);
}

void validate(const Params& params) {
  const SolverInfo& solver = solver_info(params.solver);
  if (params.loss) {
    const auto& losses = solver.losses;
    if (std::find(losses.begin(), losses.end(), *params.loss) == losses.end()) {
      throw ConfigError(std::string("solver ") + solver.name + " does not train loss " +
                        loss_info(*params.loss).name + "; valid pairs: " + valid_pairs());
    }
  }
  if (!(params.C > 0) || !std::isfinite(params.C)) throw ConfigError("C must be positive");
  if (params.eps && !(*params.eps > 0) && params.solver != SolverKind::kPegasos) {
    throw ConfigError("eps must be positive");
  }
  if (params.max_iter && *params.max_iter <= 0) throw ConfigError("max-iter must be positive");
  if (!(params.sigma > 0 && params.sigma < 0.5)) {
    throw ConfigError("sigma must be in (0, 0.5)");
  }
  if (!(params.beta > 0 && params.beta < 1)) throw ConfigError("beta must be in (0, 1)");
  if (params.pegasos_batch < 1) throw ConfigError("-k must be at least 1");
  for (const auto& [label, weight] : params.class_weights) {
    if (!(weight > 0) || !std::isfinite(weight * params.C)) {
      throw ConfigError("-w" + std::to_string(label) + ": the weight must be positive");
    }
  }
  if (params.cv_folds == 1 || params.cv_folds < 0) {
    throw ConfigError("cross validation needs at least 2 folds");
  }
}

}  // namespace cdl
