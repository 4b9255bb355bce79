// The solver table: one row per -s choice (solver_table.h says what a row
// holds). Adding a solver adds one row here.
#include "solvers/solver_table.h"

#include <cctype>

#include "select/selection_rule.h"
#include "solvers/solver.h"
#include "util/error.h"

namespace cdl {
namespace {

using L = LossKind;
using R = RegularizerKind;

constexpr double kCdEps = 0.001;

// The CD algorithm (solver_cd.cpp) with one selection rule.
SolverInfo cd_row(const char* name, const char* description, const char* rule) {
  return {name,
          description,
          solve_cd,
          rule,
          {L::kL2Svm, L::kLogistic, L::kSquared, L::kSvrL2},
          {R::kL2, R::kL1},
          kCdEps,
          EpsScale::kNone,
          kDefaultMaxIter,
          false,
          true,
          false,
          liblinear_solver_type};
}

SolverInfo cmls_row(const char* name, const char* description, const char* rule) {
  return {name,
          description,
          solve_cmls,
          rule,
          {L::kL2Svm},
          {R::kL2},
          kCdEps,
          EpsScale::kNone,
          kDefaultMaxIter,
          false,
          true,
          false,
          liblinear_solver_type};
}

// A solver of the L1-SVM with an unregularized intercept; its default eps
// is on the relative duality gap.
SolverInfo intercept_row(const char* name, const char* description,
                         SolveResult (*solve)(const SolverInput&)) {
  return {name,
          description,
          solve,
          "perm",
          {L::kL1Svm},
          {R::kL2},
          0.001,
          EpsScale::kNone,
          kDefaultMaxIter,
          true,
          false,
          false,
          liblinear_solver_type,
          true};
}

const char* dual_solver_type(LossKind loss) {
  switch (loss) {
    case LossKind::kL2Svm:
      return "L2R_L2LOSS_SVC_DUAL";
    case LossKind::kL1Svm:
      return "L2R_L1LOSS_SVC_DUAL";
    default:
      break;
  }
  throw Error(std::string("no LIBLINEAR dual model type for loss ") + loss_info(loss).name);
}

// Dual coordinate descent (solver_dcd.cpp). eps 0.1 is LIBLINEAR's default
// for its dual solvers; the README shows that it gives a converged model's
// test accuracy.
SolverInfo dcd_row() {
  SolverInfo row{"dcd",
                 "dual coordinate descent (Hsieh et al. 2008), shrinking",
                 solve_dcd,
                 "perm",
                 {L::kL2Svm, L::kL1Svm},
                 {R::kL2},
                 0.1,
                 EpsScale::kNone,
                 kDefaultMaxIter,
                 true,
                 false,
                 false,
                 dual_solver_type};
  row.dual = true;
  return row;
}

std::vector<SolverInfo> with_kinds(std::vector<SolverInfo> rows) {
  for (SolverInfo& row : rows) row.kind = SolverKind(row.name);
  return rows;
}

}  // namespace

const std::vector<SolverInfo>& solver_table() {
  static const std::vector<SolverInfo> table = with_kinds({
      cd_row("cdper", "CD with a new random feature order every iteration", "perm"),
      cd_row("cd", "coordinate descent in cyclic order (Algorithms 1-2)", "cyclic"),
      cd_row("cdperone", "CD with one random feature order", "perm-once"),
      cd_row("online", "online CD, uniformly random features (Alg. 3)", "uniform"),
      cmls_row("cmls", "CMLS (Zhang & Oles 2001), Algorithm 6", "cyclic"),
      cmls_row("cmlsper", "CMLS with a new random order every iteration", "perm"),
      {"tron",
       "trust region Newton method (Lin, Weng & Keerthi)",
       solve_tron,
       nullptr,
       {L::kL2Svm, L::kLogistic},
       {R::kL2},
       0.01,
       EpsScale::kMinorityShare,
       kDefaultMaxIter,
       true,
       true,
       false,
       liblinear_solver_type},
      {"pegasos",
       "Pegasos stochastic subgradient, Algorithm 4",
       solve_pegasos,
       nullptr,
       {L::kL1Svm},
       {R::kL2},
       0.0,
       EpsScale::kNone,
       0,
       true,
       false,
       true,
       liblinear_solver_type},
      dcd_row(),
      intercept_row("pdcd",
                    "primal-dual CD with an unregularized intercept (Fercoq & Bianchi, Alg. 2)",
                    solve_pdcd),
      intercept_row("rcd-pair", "random pair CD with an unregularized intercept (Necoara)",
                    solve_rcd_pair),
  });
  return table;
}

const char* liblinear_solver_type(LossKind loss) {
  switch (loss) {
    case LossKind::kL2Svm:
      return "L2R_L2LOSS_SVC";
    case LossKind::kL1Svm:
      return "L2R_L1LOSS_SVC_DUAL";
    case LossKind::kLogistic:
      return "L2R_LR";
    case LossKind::kSvrL2:
      return "L2R_L2LOSS_SVR";
    case LossKind::kSquared:
      return "L2R_SQUARED_LOSS";
  }
  throw Error(std::string("no LIBLINEAR model type for loss ") + loss_info(loss).name);
}

const char* model_solver_type(const SolverInfo& row, LossKind loss, RegularizerKind regularizer) {
  if (regularizer == RegularizerKind::kL2) return row.solver_type(loss);
  if (regularizer == RegularizerKind::kL1) {
    switch (loss) {
      case LossKind::kL2Svm:
        return "L1R_L2LOSS_SVC";
      case LossKind::kLogistic:
        return "L1R_LR";
      case LossKind::kSquared:
        return "L1R_SQUARED_LOSS";
      case LossKind::kSvrL2:
        return "L1R_L2LOSS_SVR";
      case LossKind::kL1Svm:
        break;
    }
  }
  throw Error(std::string("no model type for loss ") + loss_info(loss).name + " with the " +
              regularizer_info(regularizer).name + " regularizer");
}

std::string stopping_norm_name(const SolverInfo& row) {
  SolveResult (*const tron)(const SolverInput&) = solve_tron;
  SolveResult (*const pegasos)(const SolverInput&) = solve_pegasos;
  if (row.solve == tron) return "|grad f|";
  if (row.solve == pegasos) return "";
  if (row.dual) return "PG spread";
  return "|D'|";
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
