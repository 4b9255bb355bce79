#include "params.h"

#include <cmath>

#include "error.h"

namespace cdl {

const std::vector<SolverInfo>& solver_table() {
  static const std::vector<SolverInfo> table = {
      {0, "cdper", SolverKind::kCdPer, "CD with a new random feature order every iteration", true},
      {1, "cd", SolverKind::kCd, "coordinate descent in cyclic order (Algorithms 1-2)", true},
      {2, "cdperone", SolverKind::kCdPerOne, "CD with one random feature order", true},
      {3, "online", SolverKind::kOnlineCd, "online CD, uniformly random features (Alg. 3)", true},
      {4, "cmls", SolverKind::kCmls, "CMLS (Zhang & Oles 2001)", false},
      {5, "cmlsper", SolverKind::kCmlsPer, "CMLS with a new random order every iteration", false},
      {6, "tron", SolverKind::kTron, "trust region Newton method", false},
      {7, "pegasos", SolverKind::kPegasos, "Pegasos stochastic subgradient (L1-SVM)", false},
  };
  return table;
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
  if (!params.eps) params.eps = kDefaultCdEps;
  if (!params.max_iter) params.max_iter = kDefaultMaxIter;
  return params;
}

void validate(const Params& params) {
  const SolverInfo& solver = solver_info(params.solver);
  if (!solver.implemented) {
    throw ConfigError(std::string("solver ") + std::to_string(solver.number) + " (" + solver.name +
                      ") is not implemented yet");
  }
  if (params.loss != LossKind::kL2Svm) {
    throw ConfigError(std::string("loss ") + loss_info(params.loss).name +
                      " is not implemented yet; valid: l2svm");
  }
  if (!(params.C > 0) || !std::isfinite(params.C)) throw ConfigError("C must be positive");
  if (params.eps && !(*params.eps > 0)) throw ConfigError("eps must be positive");
  if (params.max_iter && *params.max_iter <= 0) throw ConfigError("max-iter must be positive");
  if (!(params.sigma > 0 && params.sigma < 0.5)) {
    throw ConfigError("sigma must be in (0, 0.5)");
  }
  if (!(params.beta > 0 && params.beta < 1)) throw ConfigError("beta must be in (0, 1)");
  if (params.cv_folds == 1 || params.cv_folds < 0) {
    throw ConfigError("cross validation needs at least 2 folds");
  }
}

}  // namespace cdl
