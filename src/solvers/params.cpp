#include "solvers/params.h"

#include <algorithm>
#include <cmath>

#include "select/selection_rule.h"
#include "solvers/liblinear_numbers.h"
#include "util/error.h"
#include "util/parallel.h"

namespace cdl {
namespace {

// "cdper, cd, ...": the solvers that take --select.
std::string rule_solvers() {
  std::string out;
  for (const SolverInfo& info : solver_table()) {
    if (info.rule != nullptr) out += (out.empty() ? "" : ", ") + std::string(info.name);
  }
  return out;
}

// "dcd, ...": the solvers of a dual.
std::string dual_solvers() {
  std::string out;
  for (const SolverInfo& info : solver_table()) {
    if (info.dual) out += (out.empty() ? "" : ", ") + std::string(info.name);
  }
  return out;
}

// The rules that primal CD takes on the Lasso besides the primal ones.
std::string lasso_rule_choices() {
  std::string out;
  for (const RuleInfo& rule : rule_table()) {
    if (rule.make_lasso != nullptr && !rule.applies_to(kPrimalCoordinates)) {
      out += (out.empty() ? "" : ", ") + std::string(rule.name);
    }
  }
  return out;
}

}  // namespace

bool is_lasso(const Params& params) {
  const SolverInfo& solver = solver_info(params.solver);
  return !solver.dual && !solver.intercept && params.regularizer == RegularizerKind::kL1 &&
         params.loss.value_or(solver.losses.front()) == LossKind::kSquared;
}

unsigned solver_coordinates(const SolverInfo& solver) {
  // Dual CD picks instances; every other solver that picks coordinates picks
  // features.
  return solver.dual ? kDualCoordinates : kPrimalCoordinates;
}

const std::vector<LossInfo>& loss_table() {
  static const std::vector<LossInfo> table = {
      {"l2svm", LossKind::kL2Svm, "squared hinge max(0, 1 - y w'x)^2, equation (3)"},
      {"l1svm", LossKind::kL1Svm, "hinge max(0, 1 - y w'x), equation (2)"},
      {"lr", LossKind::kLogistic, "logistic log(1 + exp(-y w'x)), equation (4)"},
      {"sq", LossKind::kSquared, "regression: squared error (y - w'x)^2 (no 1/2)"},
      {"svr2", LossKind::kSvrL2,
       "regression: L2-loss SVR max(0, |y - w'x| - p)^2, LIBLINEAR's -s 11 loss"},
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

std::string describe_run(const Params& params) {
  const SolverInfo& solver = solver_info(params.solver);
  std::string out = std::string("solver ") + solver.name;
  if (params.loss) out += std::string(", loss ") + loss_info(*params.loss).name;
  out += std::string(", regularizer ") + regularizer_info(params.regularizer).name;
  if (params.liblinear_number) {
    const LiblinearNumber* entry = find_liblinear_number(*params.liblinear_number);
    if (entry != nullptr) {
      out += " (LIBLINEAR's -s " + std::to_string(entry->number) + ": " + entry->problem + ")";
    }
  }
  return out;
}

Params resolve_defaults(Params params) {
  const SolverInfo& solver = solver_info(params.solver);
  if (!params.loss) params.loss = solver.losses.front();
  if (!params.eps) {
    params.eps = params.regularizer == RegularizerKind::kL2 ? solver.default_eps : kL1CdEps;
  }
  if (!params.max_iter && solver.default_max_iter > 0) params.max_iter = solver.default_max_iter;
  return params;
}

unsigned thread_count(const Params& params) {
  return params.threads > 0 ? params.threads : hardware_threads();
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
  if (params.eps && !(*params.eps > 0) && solver.default_eps > 0) {
    throw ConfigError("eps must be positive");
  }
  const auto& regularizers = solver.regularizers;
  if (std::find(regularizers.begin(), regularizers.end(), params.regularizer) ==
      regularizers.end()) {
    throw ConfigError(std::string("solver ") + solver.name + " does not train the " +
                      regularizer_info(params.regularizer).name + " regularizer");
  }
  if (params.select) {
    if (solver.rule == nullptr) {
      throw ConfigError(std::string("--select: solver ") + solver.name +
                        " does not pick coordinates; --select works with " + rule_solvers());
    }
    const RuleInfo* rule = find_rule(*params.select);
    if (rule == nullptr) {
      throw ConfigError("--select: unknown rule '" + *params.select + "'; use " + rule_choices());
    }
    const unsigned kind = solver_coordinates(solver);
    const bool lasso = is_lasso(params);
    if (!rule->applies_to(kind) && !(lasso && rule->make_lasso != nullptr)) {
      std::string message = "--select: rule " + *params.select + " does not apply to solver " +
                            solver.name + "; its rules are " + rule_choices(kind) +
                            (lasso ? ", " + lasso_rule_choices() : std::string());
      if (kind == kPrimalCoordinates && rule->make_lasso != nullptr) {
        message += "; on primal CD, rule " + *params.select +
                   " is defined for the Lasso only (-r l1 -l sq): it weighs features by the "
                   "Lasso's coordinate gaps, dual residuals or exact steps, and this run is -r " +
                   std::string(regularizer_info(params.regularizer).name) + " -l " +
                   loss_info(params.loss.value_or(solver.losses.front())).name;
      }
      throw ConfigError(message);
    }
    if (rule->dual_needs != DualNeeds::kNone && params.shrink.value_or(false)) {
      throw ConfigError("--shrink: rule " + *params.select +
                        " runs dual CD without shrinking (it draws by the dual state); drop "
                        "--shrink");
    }
  }
  if (params.svr_epsilon && !(params.loss && *params.loss == LossKind::kSvrL2)) {
    throw ConfigError("-p is the SVR tube width: it needs -l svr2");
  }
  if (params.svr_epsilon && !(*params.svr_epsilon >= 0 && std::isfinite(*params.svr_epsilon))) {
    throw ConfigError("-p must be a number >= 0");
  }
  if (params.max_iter && *params.max_iter <= 0) throw ConfigError("max-iter must be positive");
  if (solver.intercept) {
    // The solver fits w0 itself, unregularized, and the model file has one
    // bias slot, which w0 takes; a regularized bias feature on top would be
    // a second, redundant intercept that the file cannot hold.
    if (params.bias >= 0) {
      throw ConfigError(std::string("-B: solver ") + solver.name +
                        " fits its own unregularized intercept (written as bias 1); drop -B");
    }
    // The rules that only order the coordinates (rows here); the adaptive
    // rules read feedback and columns meant for the primal CD.
    if (params.select && *params.select != "uniform" && *params.select != "perm" &&
        *params.select != "cyclic" && *params.select != "perm-once") {
      throw ConfigError("--select: solver " + std::string(solver.name) +
                        " takes uniform, perm, perm-once or cyclic");
    }
  }
  if (params.pd_sigma && !(*params.pd_sigma > 0 && std::isfinite(*params.pd_sigma))) {
    throw ConfigError("--pd-sigma must be positive");
  }
  if (!(params.tau_factor > 0 && params.tau_factor < 1)) {
    throw ConfigError("--tau-factor must be in (0, 1)");
  }
  if (params.solver != SolverKind("pdcd") &&
      (params.pd_sigma || params.tau_factor != Params{}.tau_factor)) {
    throw ConfigError(std::string("--pd-sigma and --tau-factor are pdcd's; solver ") + solver.name +
                      " has no use for them");
  }
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
  if (params.shrink && !solver.dual) {
    throw ConfigError(std::string(*params.shrink ? "--shrink" : "--no-shrink") +
                      ": shrinking drops bounded dual variables, and solver " + solver.name +
                      " has no dual variables; use it with " + dual_solvers());
  }
  if (params.gap_tol && !solver.dual && !solver.intercept) {
    throw ConfigError(std::string("--gap-tol: solver ") + solver.name +
                      " has no dual, so no duality gap; use it with " + dual_solvers() +
                      ", pdcd or rcd-pair");
  }
  if (params.gap_tol && !(*params.gap_tol > 0)) throw ConfigError("--gap-tol must be positive");
  if (params.cv_folds == 1 || params.cv_folds < 0) {
    throw ConfigError("cross validation needs at least 2 folds");
  }
}

}  // namespace cdl
