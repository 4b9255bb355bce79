// The solver registry: one row per -s choice, which holds everything the
// rest of the program needs to know about a solver. -h, the valid-pairs
// message, parameter defaults and checks, cross-validation, -C and -i all
// read the row; train() calls the row's entry point.
//
// A -s choice is an {algorithm, selection rule} pair: cdper is the CD
// algorithm with the `perm` rule, online is CD with `uniform`. --select
// replaces the rule of any row that has one.
//
// Adding a solver: write its file (solver_NAME.cpp, opening with the problem,
// algorithm, paper and equations, stopping rule and cost per iteration, and
// defining its entry point), declare the entry point in solver.h and add one
// row to solver_table.cpp.
#ifndef CDL_SOLVERS_SOLVER_TABLE_H_
#define CDL_SOLVERS_SOLVER_TABLE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "objective/loss.h"
#include "objective/regularizer.h"

namespace cdl {

struct SolverInput;
struct SolveResult;

// Names a row of the table. The eight solvers of the paper have constants;
// any row can be named by its -s name.
class SolverKind {
 public:
  constexpr explicit SolverKind(std::string_view name) : name_(name) {}
  constexpr std::string_view name() const { return name_; }
  friend bool operator==(SolverKind a, SolverKind b) { return a.name_ == b.name_; }
  friend bool operator!=(SolverKind a, SolverKind b) { return !(a == b); }

  static const SolverKind kCdPer;
  static const SolverKind kCd;
  static const SolverKind kCdPerOne;
  static const SolverKind kOnlineCd;
  static const SolverKind kCmls;
  static const SolverKind kCmlsPer;
  static const SolverKind kTron;
  static const SolverKind kPegasos;

 private:
  std::string_view name_;
};

inline constexpr SolverKind SolverKind::kCdPer{"cdper"};
inline constexpr SolverKind SolverKind::kCd{"cd"};
inline constexpr SolverKind SolverKind::kCdPerOne{"cdperone"};
inline constexpr SolverKind SolverKind::kOnlineCd{"online"};
inline constexpr SolverKind SolverKind::kCmls{"cmls"};
inline constexpr SolverKind SolverKind::kCmlsPer{"cmlsper"};
inline constexpr SolverKind SolverKind::kTron{"tron"};
inline constexpr SolverKind SolverKind::kPegasos{"pegasos"};

// How a row's eps is scaled before the solver sees it.
enum class EpsScale {
  kNone,
  // times max(min(#positive, #negative), 1) / l, as LIBLINEAR does for its
  // primal solvers, so that -e means what it means there and an unbalanced
  // problem is not stopped early.
  kMinorityShare,
};

struct SolverInfo {
  const char* name;         // the -s name
  const char* description;  // one line for -h
  // The entry point; see solver.h.
  SolveResult (*solve)(const SolverInput& input);
  // The default --select rule; nullptr for an algorithm that picks no
  // coordinates (then --select is refused).
  const char* rule;
  std::vector<LossKind> losses;  // the losses it trains; the first is its default
  std::vector<RegularizerKind> regularizers;
  double default_eps;  // 0: no stopping tolerance; the solver runs its budget
  EpsScale eps_scale;
  // Default --max-iter (outer iterations); 0: set by the solver from the
  // data (Pegasos's updates).
  std::int64_t default_max_iter;
  bool needs_rows;  // needs the CSR copy of the data
  bool warm_start;  // can start from -i's weights (and -C's previous C)
  bool randomized;  // draws its own random numbers, besides its rule's
  // LIBLINEAR's solver_type of the model it writes, for a loss.
  const char* (*solver_type)(LossKind loss);
  // Fits an unregularized intercept w0 besides w (pdcd, rcd-pair): the
  // solver returns n + 1 weights, w0 last, and the model is written with
  // bias 1 and w0 as the bias weight, so that LIBLINEAR's predict uses it.
  // -B is refused for these rows.
  bool intercept = false;

  SolverKind kind{""};  // names this row; filled from `name` by solver_table()
  // Solves the dual (one variable per instance): has a duality gap
  // (--gap-tol) and shrinking (--shrink/--no-shrink).
  bool dual = false;

  // Whether --seed changes its result.
  bool uses_seed() const;
};

const std::vector<SolverInfo>& solver_table();
// Throws Error for a kind with no row.
const SolverInfo& solver_info(SolverKind kind);
// Looks up a name such as "cdper", case-insensitively; nullptr if unknown.
// Numbers are LIBLINEAR's (liblinear_numbers.h), not rows of this table.
const SolverInfo* find_solver(const std::string& name);

// LIBLINEAR's solver_type of a primal L2-regularized model trained with
// `loss`: L2R_L2LOSS_SVC, L2R_L1LOSS_SVC_DUAL (the hinge loss's only L2R
// type) or L2R_LR; for regression L2R_L2LOSS_SVR, or L2R_SQUARED_LOSS for
// ridge regression, which LIBLINEAR lacks (cdpredict reads it).
const char* liblinear_solver_type(LossKind loss);

// The solver_type of the model a row writes for a loss and regularizer: the
// row's own for L2; for L1 LIBLINEAR's L1R_L2LOSS_SVC and L1R_LR, and, for
// the regression models LIBLINEAR lacks, L1R_SQUARED_LOSS (the Lasso) and
// L1R_L2LOSS_SVR (model.h lists them). Throws Error for a pair with none.
const char* model_solver_type(const SolverInfo& row, LossKind loss, RegularizerKind regularizer);

// What the row's solver reports as its gradient norm (Reporter::set_norm_name):
// "|grad f|" for TRON, none ("") for Pegasos, "PG spread" (max - min projected
// gradient of an epoch) for dual CD, "|D'|" for the CD family and CMLS, whose stopping vector holds
// each coordinate's last partial derivative.
std::string stopping_norm_name(const SolverInfo& row);

// The valid solver-loss pairs, for messages: "-s cdper/cd/...: l2svm lr; -s cmls/cmlsper: l2svm;
// ...".
std::string valid_pairs();

}  // namespace cdl

#endif  // CDL_SOLVERS_SOLVER_TABLE_H_
