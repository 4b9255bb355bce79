#include "solvers/params.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "select/selection_rule.h"
#include "solvers/liblinear_numbers.h"
#include "solvers/primal_rule.h"
#include "solvers/solver.h"
#include "util/error.h"
#include "util/parallel.h"

namespace cdl {
namespace {

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

// "a, b or c".
std::string listed(const std::vector<const char*>& names) {
  std::string out;
  for (std::size_t k = 0; k < names.size(); ++k) {
    if (k > 0) out += k + 1 == names.size() ? " or " : ", ";
    out += names[k];
  }
  return out;
}

// The rows that take -R with a regularizer's losses, for validate_free_bias's
// message: "cdper -l l2svm/lr, cd -l l2svm/lr".
std::string free_bias_rows(std::vector<LossKind> SolverInfo::*losses) {
  std::string serving;
  for (const SolverInfo& row : solver_table()) {
    if ((row.*losses).empty()) continue;
    std::string row_losses;
    for (LossKind l : row.*losses) {
      row_losses += (row_losses.empty() ? "" : "/") + std::string(loss_info(l).name);
    }
    serving += (serving.empty() ? "" : ", ") + std::string(row.name) + " -l " + row_losses;
  }
  return serving;
}

// -R: a bias to leave unregularized, and a row, loss and regularizer that
// serve it.
void validate_free_bias(const Params& params, const SolverInfo& solver) {
  const LossKind loss = params.loss.value_or(solver.losses.front());
  const auto& losses = params.regularizer == RegularizerKind::kL2   ? solver.free_bias_losses
                       : params.regularizer == RegularizerKind::kL1 ? solver.free_bias_l1_losses
                                                                    : std::vector<LossKind>{};
  const bool served = std::find(losses.begin(), losses.end(), loss) != losses.end();
  if (served && params.bias > 0) {
    const auto& parts = params.own<PartitionOptions>().count;
    if (parts && *parts > 1 && solver.partitions_regularize_bias) {
      throw ConfigError("-R: the partitioned CD (--partitions " + std::to_string(*parts) +
                        ") regularizes the bias; use --partitions 1 or -s tron");
    }
    return;
  }
  if (served || solver.intercept) {
    throw ConfigError(
        "-R leaves the bias weight unregularized; it needs a bias feature, -B with a value > 0 "
        "(LIBLINEAR asks -B 1)" +
        std::string(solver.intercept ? "; solver " + std::string(solver.name) +
                                           " fits an unregularized intercept already: drop -R"
                                     : ""));
  }
  std::string message = std::string("-R: solver ") + solver.name + " with -l " +
                        loss_info(loss).name + " -r " + regularizer_info(params.regularizer).name +
                        " does not leave the bias unregularized; -R is served with -r l2 by " +
                        free_bias_rows(&SolverInfo::free_bias_losses) + ", and with -r l1 by " +
                        free_bias_rows(&SolverInfo::free_bias_l1_losses) +
                        " (LIBLINEAR's -s 0 and -s 11 run tron, -s 2 newton, -s 5 and 6 cdper)";
  if (loss == LossKind::kL1Svm) {
    message +=
        "; for the L1-loss SVM with an unregularized intercept use -s pdcd or rcd-pair, "
        "which fit it without -B";
  }
  throw ConfigError(message);
}

// The losses, regularizers and numbers of the row.
void validate_problem(const Params& params, const SolverInfo& solver) {
  if (params.loss) {
    const auto& losses = solver.losses;
    if (std::find(losses.begin(), losses.end(), *params.loss) == losses.end()) {
      throw ConfigError(std::string("solver ") + solver.name + " does not train loss " +
                        loss_info(*params.loss).name + "; valid pairs: " + valid_pairs());
    }
  }
  const auto& regularizers = solver.regularizers;
  if (std::find(regularizers.begin(), regularizers.end(), params.regularizer) ==
      regularizers.end()) {
    throw ConfigError(std::string("solver ") + solver.name + " does not train the " +
                      regularizer_info(params.regularizer).name + " regularizer");
  }
  if (params.svr_epsilon && !(params.loss && is_svr(*params.loss))) {
    throw ConfigError("-p is the SVR tube width: it needs -l svr2 or svr1");
  }
  if (params.free_bias) validate_free_bias(params, solver);
  if (params.nu && !(params.loss && is_one_class(*params.loss))) {
    throw ConfigError(
        "-n is LIBLINEAR's nu of the one-class SVM (-s 21); the number of threads is -m");
  }
  if (params.loss && is_one_class(*params.loss) && params.bias >= 0) {
    throw ConfigError("-B: the one-class SVM has no bias feature (its offset is rho); drop -B");
  }
  if (solver.intercept && params.bias >= 0) {
    // The solver fits w0 itself, unregularized, and the model file has one
    // bias slot, which w0 takes; a regularized bias feature on top would be
    // a second, redundant intercept that the file cannot hold.
    throw ConfigError(std::string("-B: solver ") + solver.name +
                      " fits its own unregularized intercept (written as bias 1); drop -B");
  }
}

// --select: a rule that exists and serves the row's coordinates.
void validate_rule(const std::string& name, const Params& params, const SolverInfo& solver) {
  const RuleInfo* rule = find_rule(name);
  if (rule == nullptr) {
    throw ConfigError("--select: unknown rule '" + name + "'; use " + rule_choices());
  }
  const unsigned kind = solver.coordinates;
  const bool lasso = is_lasso(params);
  if (!rule->applies_to(kind) && !(lasso && rule->make_lasso != nullptr)) {
    std::string message = "--select: rule " + name + " does not apply to solver " + solver.name +
                          "; its rules are " + rule_choices(kind) +
                          (lasso ? ", " + lasso_rule_choices() : std::string());
    if (kind == kPrimalCoordinates && rule->make_lasso != nullptr) {
      message += "; on primal CD, rule " + name +
                 " is defined for the Lasso only (-r l1 -l sq): it weighs features by the "
                 "Lasso's coordinate gaps, dual residuals or exact steps, and this run is -r " +
                 std::string(regularizer_info(params.regularizer).name) + " -l " +
                 loss_info(params.loss.value_or(solver.losses.front())).name;
    }
    throw ConfigError(message);
  }
  const auto& only = solver.only_rules;
  if (!only.empty() && std::find_if(only.begin(), only.end(),
                                    [&](const char* own) { return name == own; }) == only.end()) {
    throw ConfigError("--select: solver " + std::string(solver.name) + " takes " + listed(only));
  }
  if (rule->dual_needs != DualNeeds::kNone && params.own<DualOptions>().shrink.value_or(false)) {
    throw ConfigError("--shrink: rule " + name +
                      " runs dual CD without shrinking (it draws by the dual state); drop "
                      "--shrink");
  }
}

// The numbers that must be finite and in range.
void validate_numbers(const Params& params, const SolverInfo& solver) {
  if (!(params.C > 0) || !std::isfinite(params.C)) throw ConfigError("C must be positive");
  if (params.eps && !(*params.eps > 0) && solver.default_eps > 0) {
    throw ConfigError("eps must be positive");
  }
  if (params.svr_epsilon && !(*params.svr_epsilon >= 0 && std::isfinite(*params.svr_epsilon))) {
    throw ConfigError("-p must be a number >= 0");
  }
  if (params.nu && !(*params.nu > 0 && *params.nu <= 1)) {
    char given[32];
    std::snprintf(given, sizeof given, "%g", *params.nu);
    throw ConfigError(std::string("-n: expected a number in (0, 1], got ") + given);
  }
  if (params.max_iter && *params.max_iter <= 0) throw ConfigError("max-iter must be positive");
  for (const auto& [label, weight] : params.class_weights) {
    if (!(weight > 0) || !std::isfinite(weight * params.C)) {
      throw ConfigError("-w" + std::to_string(label) + ": the weight must be positive");
    }
  }
  if (params.cv_folds == 1 || params.cv_folds < 0) {
    throw ConfigError("cross validation needs at least 2 folds");
  }
}

}  // namespace

bool is_lasso(const Params& params) {
  const SolverInfo& solver = solver_info(params.solver);
  return solver.coordinates == kPrimalCoordinates && params.regularizer == RegularizerKind::kL1 &&
         params.loss.value_or(solver.losses.front()) == LossKind::kSquared;
}

const std::vector<SolverOptionFlag>& solver_option_flags() {
  static const std::vector<SolverOptionFlag> flags = [] {
    std::vector<SolverOptionFlag> out;
    for (const OptionGroup* group : solver_option_groups()) {
      for (const OptionFlag& flag : group->flags) out.push_back({&flag, group});
    }
    return out;
  }();
  return flags;
}

std::vector<SolverOptionFlag> solver_options_set(const Params& params) {
  std::vector<SolverOptionFlag> out;
  for (const SolverOptionFlag& entry : solver_option_flags()) {
    if (entry.flag->is_set(params)) out.push_back(entry);
  }
  return out;
}

void check_solver_option(const SolverInfo& solver, const OptionGroup& group,
                         const std::string& given) {
  if (solver.takes_option(group)) return;
  throw ConfigError(given + " " + group.purpose + "; solver " + solver.name +
                    " does not use it (use -s " + solvers_taking(group) + ")");
}

std::string describe_run(const Params& params) {
  const SolverInfo& solver = solver_info(params.solver);
  std::string out = std::string("solver ") + solver.name;
  if (!params.choice.reason.empty()) out += " (" + params.choice.reason + ")";
  if (params.loss) out += std::string(", loss ") + loss_info(*params.loss).name;
  out += std::string(", regularizer ") + regularizer_info(params.regularizer).name;
  if (params.choice.liblinear_number) {
    const LiblinearNumber* entry = find_liblinear_number(*params.choice.liblinear_number);
    if (entry != nullptr) {
      out += " (LIBLINEAR's -s " + std::to_string(entry->number) + ": " + entry->problem + ")";
    }
  }
  return out;
}

// The default L2-SVM solver that the shape chooses on data with more
// features than instances (SolverInfo::wide_data_default): dual CD, whose
// steps cost a row each (docs/solvers.md, "The default solver" and "-s 2
// and -s 11 on wide data").
SolverKind wide_data_solver() {
  for (const SolverInfo& row : solver_table()) {
    if (row.wide_data_default) return row.kind;
  }
  throw Error("no row is the default solver on wide data");
}

bool solver_by_shape(const Params& given) {
  if (primal_on_wide_data(given) != nullptr) {
    return !given.free_bias && given.cv_folds == 0 && solver_options_set(given).empty();
  }
  return !given.choice.given && !given.choice.liblinear_number &&
         given.solver == SolverKind::kCdPer &&
         given.loss.value_or(LossKind::kL2Svm) == LossKind::kL2Svm &&
         given.regularizer == RegularizerKind::kL2 && solver_options_set(given).empty();
}

Params choose_solver_by_shape(const Params& given, const DataShape& shape) {
  if (!solver_by_shape(given)) return given;
  Params params = given;
  const std::string features = std::to_string(shape.features) + " features";
  const std::string instances = std::to_string(shape.instances) + " instances";
  const std::string nonzeros = std::to_string(shape.nonzeros) + " nonzeros";
  const bool wide = shape.features > shape.instances && shape.nonzeros >= kShapeNonzeros;
  const std::string narrow_reason = shape.features > shape.instances
                                        ? nonzeros + " < " + std::to_string(kShapeNonzeros)
                                        : features + " <= " + instances;
  if (const SolverInfo* dual = primal_on_wide_data(given)) {
    if (wide) {
      // The primal number's problem and stopping rule, solved through the dual.
      const SolverInfo& primal_row = solver_info(params.solver);
      const LossKind loss = params.loss.value();
      if (!params.eps) params.eps = default_l2_eps(primal_row, loss);
      params.solver = dual->kind;
      const std::string number = "-s " + std::to_string(*params.choice.liblinear_number);
      params.choice.reason = "for " + features + " > " + instances + ", " + nonzeros +
                             ": dual CD to " + number + "'s rule on the primal gradient; -s " +
                             primal_row.name + " -l " + loss_info(loss).name + " for " +
                             primal_row.name;
    } else {
      params.choice.reason = "for " + narrow_reason;
    }
    return params;
  }
  if (wide) {
    params.solver = wide_data_solver();
    params.choice.reason = "default for " + features + " > " + instances + ", " + nonzeros +
                           "; -s cdper for the paper's CD";
  } else {
    params.solver = SolverKind::kCdPer;
    params.choice.reason = "default for " + narrow_reason;
  }
  return params;
}

double default_l2_eps(const SolverInfo& solver, LossKind loss) {
  double row_eps = solver.default_eps;
  for (const auto& [row_loss, eps] : solver.loss_eps) {
    if (row_loss == loss) row_eps = eps;
  }
  return row_eps;
}

Params resolve_defaults(Params params) {
  const SolverInfo& solver = solver_info(params.solver);
  if (!params.loss) params.loss = solver.losses.front();
  if (!params.eps) {
    params.eps = params.regularizer == RegularizerKind::kL2 ? default_l2_eps(solver, *params.loss)
                 : is_lasso(params)                         ? kLassoGapEps
                                                            : kL1CdEps;
  }
  if (!params.max_iter && solver.default_max_iter > 0) params.max_iter = solver.default_max_iter;
  return params;
}

unsigned thread_count(const Params& params) {
  return params.threads > 0 ? params.threads : hardware_threads();
}

std::int64_t cd_partitions(const Params& params, std::size_t nonzeros) {
  if (!solver_info(params.solver).takes_option(*partition_options())) return 1;
  const auto& parts = params.own<PartitionOptions>().count;
  if (parts) return *parts;
  // -R: the partitioned CD regularizes the bias, so the serial solver runs.
  if (params.free_bias) return 1;
  const auto& rule = params.own<SelectOptions>().rule;
  const bool own_rule = !rule || *rule == "perm";
  const bool large = nonzeros >= static_cast<std::size_t>(kCdPartitionedNonzeros);
  return own_rule && large ? kDefaultCdPartitions : 1;
}

std::string cd_partitions_default_text() {
  return "1 below " + std::to_string(kCdPartitionedNonzeros) + " nonzeros, else " +
         std::to_string(kDefaultCdPartitions);
}

Regularizer regularizer_of(const Params& params, std::size_t num_features) {
  Regularizer regularizer = Regularizer::of(params.regularizer);
  if (params.free_bias && num_features > 0) regularizer.unregularized = num_features - 1;
  return regularizer;
}

double class_cost(const Params& params, int label) {
  const auto it = params.class_weights.find(label);
  return params.C * (it == params.class_weights.end() ? 1.0 : it->second);
}

void validate(const Params& params) {
  const SolverInfo& solver = solver_info(params.solver);
  validate_problem(params, solver);
  validate_numbers(params, solver);
  for (const OptionGroup* group : solver_option_groups()) {
    if (group->check != nullptr) group->check(params);
  }
  for (const SolverOptionFlag& entry : solver_options_set(params)) {
    check_solver_option(solver, *entry.group, entry.flag->flag);
  }
  const auto& rule = params.own<SelectOptions>().rule;
  if (rule) validate_rule(*rule, params, solver);
  const auto& parts = params.own<PartitionOptions>().count;
  if (parts && *parts > 1 && rule && *rule != "perm") {
    throw ConfigError("--partitions " + std::to_string(*parts) +
                      ": each block runs rule perm; rule " + *rule +
                      " runs on one block only (use --partitions 1, or drop --select)");
  }
}

}  // namespace cdl
