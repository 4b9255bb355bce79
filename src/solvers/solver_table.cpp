// The solver table: one row per -s choice (solver_table.h says what a row
// holds). Adding a solver adds one row here, which names every field that
// differs from SolverInfo's defaults.
#include "solvers/solver_table.h"

#include <algorithm>
#include <cctype>

#include "objective/transpose_blocks.h"
#include "select/selection_rule.h"
#include "solvers/liblinear_numbers.h"
#include "solvers/pdcd.h"
#include "solvers/solver.h"
#include "solvers/solver_cd.h"
#include "solvers/solver_pegasos.h"
#include "util/error.h"

namespace cdl {
namespace {

using L = LossKind;
using R = RegularizerKind;
using P = ProbabilityKind;

constexpr double kCdEps = 0.001;

// The model types of the primal solvers: LIBLINEAR's primal ones (the
// hinge loss's only L2R type is its dual one, and so is the L1-loss SVR's),
// and for the regressions LIBLINEAR lacks, cdlinear's L2R_SQUARED_LOSS
// (ridge regression), L1R_SQUARED_LOSS (the Lasso) and L1R_L2LOSS_SVR. A row
// keeps those of its losses and regularizers (with_kinds()).
std::vector<ModelType> primal_model_types() {
  return {
      {L::kL2Svm, R::kL2, "L2R_L2LOSS_SVC"},         {L::kL1Svm, R::kL2, "L2R_L1LOSS_SVC_DUAL"},
      {L::kLogistic, R::kL2, "L2R_LR", P::kSigmoid}, {L::kSvrL2, R::kL2, "L2R_L2LOSS_SVR"},
      {L::kSquared, R::kL2, "L2R_SQUARED_LOSS"},     {L::kSvrL1, R::kL2, "L2R_L1LOSS_SVR_DUAL"},
      {L::kL2Svm, R::kL1, "L1R_L2LOSS_SVC"},         {L::kLogistic, R::kL1, "L1R_LR", P::kSigmoid},
      {L::kSquared, R::kL1, "L1R_SQUARED_LOSS"},     {L::kSvrL2, R::kL1, "L1R_L2LOSS_SVR"}};
}

// LIBLINEAR's model types of the solvers of its duals.
std::vector<ModelType> dual_model_types() {
  return {{L::kL2Svm, R::kL2, "L2R_L2LOSS_SVC_DUAL"},
          {L::kL1Svm, R::kL2, "L2R_L1LOSS_SVC_DUAL"},
          {L::kLogistic, R::kL2, "L2R_LR_DUAL", P::kSigmoid},
          {L::kSvrL2, R::kL2, "L2R_L2LOSS_SVR_DUAL"},
          {L::kSvrL1, R::kL2, "L2R_L1LOSS_SVR_DUAL"},
          {L::kOneClass, R::kL2, "ONECLASS_SVM"},
          {L::kMultiHinge, R::kL2, "MCSVM_CS"}};
}

// The CD algorithm (solver_cd.cpp) with one selection rule.
SolverInfo cd_row(const char* name, const char* description, const char* rule) {
  SolverInfo row;
  row.name = name;
  row.description = description;
  row.solve = solve_cd;
  row.rule = rule;
  row.losses = {L::kL2Svm, L::kLogistic, L::kSquared, L::kSvrL2};
  row.regularizers = {R::kL2, R::kL1};
  row.options = {select_options(), line_search_options()};
  row.free_bias_losses = {L::kL2Svm, L::kLogistic, L::kSvrL2, L::kSquared};
  // LIBLINEAR's -R of -s 5 and -s 6, and the Lasso's free intercept.
  row.free_bias_l1_losses = {L::kL2Svm, L::kLogistic, L::kSquared};
  row.default_eps = kCdEps;
  row.stopping = "||D'|| <= eps ||grad f(0)||, D' the partial derivatives of an epoch";
  row.default_max_iter = kDefaultMaxIter;
  row.warm_start = true;
  row.model_types = primal_model_types();
  return row;
}

// CMLS (solver_cmls.cpp) with one selection rule.
SolverInfo cmls_row(const char* name, const char* description, const char* rule) {
  SolverInfo row;
  row.name = name;
  row.description = description;
  row.solve = solve_cmls;
  row.rule = rule;
  row.losses = {L::kL2Svm};
  row.options = {select_options()};
  row.default_eps = kCdEps;
  row.stopping = "||D'|| <= eps ||grad f(0)|| once the smoothing c_k is 0";
  row.default_max_iter = kDefaultMaxIter;
  row.warm_start = true;
  row.model_types = primal_model_types();
  return row;
}

SolverInfo tron_row() {
  SolverInfo row;
  row.name = "tron";
  row.description = "trust region Newton method (Lin, Weng & Keerthi)";
  row.solve = solve_tron;
  row.losses = {L::kL2Svm, L::kLogistic, L::kSvrL2};
  // LIBLINEAR's -s 0 and -s 11 measured fastest with TRON here, -s 2 with
  // the line-search Newton method, and -s 2 and -s 11 on wide data with
  // dual CD to their rules (choose_solver_by_shape; docs/solvers.md,
  // docs/checks.md).
  row.liblinear = {{0, L::kLogistic, R::kL2}, {11, L::kSvrL2, R::kL2}};
  row.free_bias_losses = {L::kL2Svm, L::kLogistic, L::kSvrL2};
  row.default_eps = 0.01;
  // LIBLINEAR's default for its -s 11, the same stopping rule.
  row.loss_eps = {{L::kSvrL2, 0.0001}};
  row.eps_scale = EpsScale::kMinorityShare;
  row.stopping =
      "||grad f|| <= eps' ||grad f(0)||, eps' = eps * min(#pos, #neg) / l (svr2: eps' = eps, "
      "default 0.0001)";
  row.norm_name = "|grad f|";
  row.default_max_iter = kDefaultMaxIter;
  row.needs_rows = true;
  row.warm_start = true;
  row.solve_on_threads = true;
  // --partitions: the fixed blocks of rows in which X'u is added
  // (objective/transpose_blocks.h), the ranks' share in cdtrain-mpi.
  row.options = {partition_options()};
  row.partitions = [](const Params& params, std::size_t nonzeros, std::size_t, std::size_t cols) {
    return transpose_block_count(params.own<PartitionOptions>().count, nonzeros, cols);
  };
  row.distribution = Distribution::kRowBlocks;
  row.model_types = primal_model_types();
  return row;
}

// The line-search Newton method with preconditioned CG (solver_newton.cpp):
// TRON's problems, stopping rule and defaults.
SolverInfo newton_row() {
  SolverInfo row = tron_row();
  row.name = "newton";
  row.description = "line-search Newton method, preconditioned CG (LIBLINEAR >= 2.40)";
  row.solve = solve_newton;
  row.liblinear = {{2, L::kL2Svm, R::kL2}};
  return row;
}

SolverInfo pegasos_row() {
  SolverInfo row;
  row.name = "pegasos";
  row.description = "Pegasos stochastic subgradient, Algorithm 4";
  row.solve = solve_pegasos;
  row.losses = {L::kL1Svm};
  row.options = {pegasos_options()};
  row.stopping = "none: --max-iter updates, 500 passes over the data by default";
  row.norm_name = "";
  row.needs_rows = true;
  row.randomized = true;
  row.model_types = primal_model_types();
  return row;
}

// Dual coordinate descent (solver_dcd.cpp). eps 0.1 is LIBLINEAR's default
// for its dual solvers; docs/benchmarks.md shows that it gives a converged
// model's test accuracy.
SolverInfo dcd_row() {
  SolverInfo row;
  row.name = "dcd";
  row.description = "dual coordinate descent (Hsieh et al. 2008), shrinking";
  row.solve = solve_dcd;
  row.rule = "perm";
  row.coordinates = kDualCoordinates;
  row.losses = {L::kL2Svm, L::kL1Svm};
  row.liblinear = {{1, L::kL2Svm, R::kL2}, {3, L::kL1Svm, R::kL2}};
  row.options = {select_options(),    shrink_options(),     gap_tol_options(),
                 partition_options(), exact_gaps_options(), fixed_parts_options()};
  row.partitions = [](const Params& params, std::size_t nonzeros, std::size_t rows, std::size_t) {
    return dcd_partitions(params, nonzeros, rows);
  };
  row.default_eps = 0.1;
  row.stopping = "max - min of the projected gradient over an epoch <= eps";
  row.norm_name = "PG spread";
  row.default_max_iter = kDefaultMaxIter;
  row.needs_rows = true;
  row.dual = true;
  row.solve_on_threads = true;
  row.threads_run_partitions = true;
  row.dual_trace = true;
  row.intercept_trace_losses = {L::kL1Svm};
  row.model_types = dual_model_types();
  row.distribution = Distribution::kRowParts;
  row.wide_data_numbers = {kPrimalL2SvmNumber};
  row.wide_data_default = true;
  return row;
}

// A solver of the L1-SVM with an unregularized intercept; its default eps
// is on the relative duality gap. Its rows are the coordinates, visited in
// an order: the rules that weigh coordinates serve the primal CD and dcd.
SolverInfo intercept_row(const char* name, const char* description,
                         SolveResult (*solve)(const SolverInput&)) {
  SolverInfo row;
  row.name = name;
  row.description = description;
  row.solve = solve;
  row.rule = "perm";
  row.coordinates = kDualCoordinates;
  row.only_rules = {"uniform", "perm", "perm-once", "cyclic"};
  row.losses = {L::kL1Svm};
  row.options = {select_options(), gap_tol_options()};
  row.default_eps = 0.001;
  row.stopping = "duality gap P - D <= eps P, and w close and w0 settled";
  // 0: the solvers scale their epoch limit (intercept_epoch.h).
  row.default_max_iter = 0;
  row.needs_rows = true;
  row.intercept = true;
  row.intercept_trace_losses = {L::kL1Svm};
  row.model_types = primal_model_types();
  return row;
}

SolverInfo pdcd_row() {
  SolverInfo row = intercept_row(
      "pdcd", "primal-dual CD with an unregularized intercept (Fercoq & Bianchi, Alg. 2)",
      solve_pdcd);
  row.options.push_back(pd_step_options());
  return row;
}

// A dual CD solver of LIBLINEAR 2.50 that visits the instances in its own
// order (no --select; random unless the row says otherwise): eps 0.1 is
// LIBLINEAR 2.50's default for its dual solvers, and the model type is
// LIBLINEAR's dual one for the loss.
SolverInfo own_order_dual_row(const char* name, const char* description,
                              SolveResult (*solve)(const SolverInput&)) {
  SolverInfo row;
  row.name = name;
  row.description = description;
  row.solve = solve;
  row.default_eps = 0.1;
  row.default_max_iter = kDefaultMaxIter;
  row.needs_rows = true;
  row.randomized = true;
  row.dual = true;
  row.model_types = dual_model_types();
  return row;
}

// Dual CD for support vector regression (solver_svr_dual.cpp), LIBLINEAR's
// -s 12 and -s 13.
SolverInfo svr_dual_row() {
  SolverInfo row = own_order_dual_row(
      "dcd-svr", "dual CD for L1- and L2-loss SVR (Ho & Lin 2012), shrinking", solve_svr_dual);
  row.losses = {L::kSvrL2, L::kSvrL1};
  row.liblinear = {{12, L::kSvrL2, R::kL2}, {13, L::kSvrL1, R::kL2}};
  row.stopping =
      "||PG||_1 <= eps ||PG(beta = 0)||_1, PG the projected gradient of an epoch; for -s 11 (wide "
      "data), -s 11's ||grad f|| <= eps ||grad f(0)||";
  row.norm_name = "|PG|_1";
  row.wide_data_numbers = {kPrimalSvrNumber};
  return row;
}

// Dual CD for logistic regression (solver_lr_dual.cpp), LIBLINEAR's -s 7.
// LIBLINEAR's -s 0 stays with TRON: tron and dcd-lr solve the same problem,
// and -s 0 names TRON's model type.
SolverInfo lr_dual_row() {
  SolverInfo row = own_order_dual_row(
      "dcd-lr", "dual CD for logistic regression (Yu, Huang & Lin 2011)", solve_lr_dual);
  row.losses = {L::kLogistic};
  row.liblinear = {{7, L::kLogistic, R::kL2}};
  row.stopping = "max |dD/dalpha_i| over an epoch <= eps, D the dual";
  row.norm_name = "max|grad D|";
  return row;
}

// The one-class SVM (solver_oneclass.cpp), LIBLINEAR 2.50's -s 21: it
// picks its pairs by their gradients (no random order), and its default eps
// is LIBLINEAR 2.50's for -s 21.
SolverInfo oneclass_row() {
  SolverInfo row = own_order_dual_row(
      "oneclass", "one-class SVM: dual CD on maximal violating pairs, shrinking", solve_oneclass);
  row.randomized = false;
  row.losses = {L::kOneClass};
  row.liblinear = {{21, L::kOneClass, R::kL2}};
  row.default_eps = 0.01;
  row.stopping = "max{-G_i : a_i < 1} - min{-G_i : a_i > 0} <= eps, G = Q a the dual gradient";
  row.norm_name = "violation";
  return row;
}

// Crammer and Singer's multi-class SVM (solver_cs.cpp), LIBLINEAR's -s 4:
// one model over all classes; 100000 iterations are LIBLINEAR's limit for
// -s 4.
SolverInfo cs_row() {
  SolverInfo row = own_order_dual_row(
      "cs", "Crammer & Singer multi-class SVM, sequential dual method (Keerthi et al.)", nullptr);
  row.solve_all_classes = solve_cs;
  row.losses = {L::kMultiHinge};
  row.liblinear = {{4, L::kMultiHinge, R::kL2}};
  row.stopping = "max over rows of max_m g_m - min {g_m : alpha_i^m below its bound} <= eps";
  row.norm_name = "violation";
  row.default_max_iter = 100000;
  return row;
}

// Multinomial logistic regression by dual CD (solver_maxent.cpp): one
// model over all classes, whose model type LIBLINEAR does not know (its
// predict refuses the file rather than compute one-vs-rest probabilities),
// and whose probabilities are the softmax of its decision values.
SolverInfo maxent_row() {
  SolverInfo row = own_order_dual_row(
      "dcd-maxent", "multinomial logistic regression, dual CD (Yu, Huang & Lin 2011)", nullptr);
  row.solve_all_classes = solve_maxent;
  row.losses = {L::kSoftmax};
  row.default_eps = 1e-4;
  row.stopping = "duality gap f(W) + D(alpha) <= eps f(W), once an outer iteration";
  row.norm_name = "gap/f";
  row.model_types = {{L::kSoftmax, R::kL2, "L2R_MAXENT_DUAL", P::kSoftmax}};
  return row;
}

// Names each row's kind, and keeps the model types of its losses and
// regularizers.
std::vector<SolverInfo> with_kinds(std::vector<SolverInfo> rows) {
  for (SolverInfo& row : rows) {
    row.kind = SolverKind(row.name);
    auto& types = row.model_types;
    types.erase(std::remove_if(types.begin(), types.end(),
                               [&](const ModelType& type) {
                                 return std::find(row.losses.begin(), row.losses.end(),
                                                  type.loss) == row.losses.end() ||
                                        std::find(row.regularizers.begin(), row.regularizers.end(),
                                                  type.regularizer) == row.regularizers.end();
                               }),
                types.end());
  }
  return rows;
}

}  // namespace

const std::vector<SolverInfo>& solver_table() {
  static const std::vector<SolverInfo> table = with_kinds({
      [] {
        SolverInfo row =
            cd_row("cdper", "CD with a new random feature order every iteration", "perm");
        // LIBLINEAR's L1 problems, measured (docs/solvers.md).
        row.liblinear = {{5, L::kL2Svm, R::kL1}, {6, L::kLogistic, R::kL1}};
        // --partitions > 1: solver_cd_partitioned.cpp on -m's threads.
        row.options.push_back(partition_options());
        row.partitions = [](const Params& params, std::size_t nonzeros, std::size_t, std::size_t) {
          return static_cast<std::size_t>(cd_partitions(params, nonzeros));
        };
        row.solve_on_threads = true;
        row.threads_run_partitions = true;
        row.distribution = Distribution::kFeatureBlocks;
        row.partitions_regularize_bias = true;
        return row;
      }(),
      cd_row("cd", "coordinate descent in cyclic order (Algorithms 1-2)", "cyclic"),
      cd_row("cdperone", "CD with one random feature order", "perm-once"),
      cd_row("online", "online CD, uniformly random features (Alg. 3)", "uniform"),
      cmls_row("cmls", "CMLS (Zhang & Oles 2001), Algorithm 6", "cyclic"),
      cmls_row("cmlsper", "CMLS with a new random order every iteration", "perm"),
      tron_row(),
      newton_row(),
      pegasos_row(),
      dcd_row(),
      pdcd_row(),
      intercept_row("rcd-pair", "random pair CD with an unregularized intercept (Necoara)",
                    solve_rcd_pair),
      svr_dual_row(),
      lr_dual_row(),
      oneclass_row(),
      cs_row(),
      maxent_row(),
  });
  return table;
}

const char* model_solver_type(const SolverInfo& row, LossKind loss, RegularizerKind regularizer) {
  for (const ModelType& type : row.model_types) {
    if (type.loss == loss && type.regularizer == regularizer) return type.name;
  }
  throw Error(std::string("no model type for loss ") + loss_info(loss).name + " with the " +
              regularizer_info(regularizer).name + " regularizer");
}

const ModelTypeInfo* find_model_type(std::string_view name) {
  static const std::vector<std::pair<std::string_view, ModelTypeInfo>> types = [] {
    std::vector<std::pair<std::string_view, ModelTypeInfo>> out;
    for (const SolverInfo& row : solver_table()) {
      for (const ModelType& type : row.model_types) {
        const bool known = std::any_of(out.begin(), out.end(),
                                       [&](const auto& entry) { return entry.first == type.name; });
        if (!known) {
          out.push_back({type.name,
                         {type.loss, type.regularizer, row.solve_all_classes != nullptr,
                          type.probabilities}});
        }
      }
    }
    return out;
  }();
  for (const auto& [type_name, info] : types) {
    if (type_name == name) return &info;
  }
  return nullptr;
}

bool SolverInfo::takes_option(const OptionGroup& group) const {
  return std::find(options.begin(), options.end(), &group) != options.end();
}

bool SolverInfo::traces_intercept_gap(LossKind loss) const {
  return std::find(intercept_trace_losses.begin(), intercept_trace_losses.end(), loss) !=
         intercept_trace_losses.end();
}

std::string solvers_taking(const OptionGroup& group) {
  std::string out;
  for (const SolverInfo& info : solver_table()) {
    if (info.takes_option(group)) out += (out.empty() ? "" : ", ") + std::string(info.name);
  }
  return out;
}

const std::vector<const OptionGroup*>& solver_option_groups() {
  static const std::vector<const OptionGroup*> groups = [] {
    std::vector<const OptionGroup*> out;
    for (const SolverInfo& row : solver_table()) {
      for (const OptionGroup* group : row.options) {
        if (std::find(out.begin(), out.end(), group) == out.end()) out.push_back(group);
      }
    }
    return out;
  }();
  return groups;
}

bool SolverInfo::uses_seed() const {
  if (randomized) return true;
  const RuleInfo* info = rule == nullptr ? nullptr : find_rule(rule);
  return info != nullptr && info->randomized;
}

const SolverInfo& solver_info(SolverKind kind) {
  for (const auto& info : solver_table()) {
    if (info.name == kind.name()) return info;
  }
  throw Error("unknown solver '" + std::string(kind.name()) + "'");
}

const SolverInfo* find_solver(const std::string& name) {
  std::string lower = name;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const auto& info : solver_table()) {
    if (lower == info.name) return &info;
  }
  return nullptr;
}

std::string valid_pairs() {
  std::string out;
  std::size_t k = 0;
  const auto& table = solver_table();
  while (k < table.size()) {
    std::size_t end = k + 1;
    while (end < table.size() && table[end].losses == table[k].losses) ++end;
    if (!out.empty()) out += "; ";
    out += "-s ";
    for (std::size_t j = k; j < end; ++j) out += std::string(j > k ? "/" : "") + table[j].name;
    out += ":";
    for (LossKind loss : table[k].losses) out += std::string(" ") + loss_info(loss).name;
    k = end;
  }
  return out;
}

}  // namespace cdl
