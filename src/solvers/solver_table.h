// The solver registry: one row per -s choice, the one place a solver is
// described. -h, the valid-pairs message, LIBLINEAR's -s numbers, parameter
// defaults and checks, the options a run may give, the progress lines, the
// --trace columns, cross-validation, -C and -i all read the row; train()
// calls the row's entry point.
//
// A -s choice is an {algorithm, selection rule} pair: cdper is the CD
// algorithm with the `perm` rule, online is CD with `uniform`. --select
// replaces the rule of any row that has one.
//
// Adding a solver (docs/architecture.md, "Adding a solver"): its file
// solver_NAME.cpp (opening with the problem, algorithm, paper and equations,
// stopping rule and cost per iteration, and defining its entry point), the
// entry point's declaration in solver.h, its row in solver_table.cpp, and
// its test; options of its own are an option group (solver_options.h) in
// its header, which its row lists. Nothing else names a solver.
#ifndef CDL_SOLVERS_SOLVER_TABLE_H_
#define CDL_SOLVERS_SOLVER_TABLE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "objective/loss.h"
#include "objective/regularizer.h"
#include "select/selection_rule.h"
#include "solvers/solver_options.h"

namespace cdl {

struct MultiClassInput;
struct Params;
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

// A LIBLINEAR problem that a row solves: `-s number` trains it with this
// row, loss and regularizer (liblinear_numbers.h has LIBLINEAR's catalogue).
struct LiblinearProblem {
  int number;
  LossKind loss;
  RegularizerKind regularizer;
};

// How cdtrain-mpi spreads one solve of a row over its ranks
// (mpi/distribute.h); a row of kNone runs on cdtrain alone.
enum class Distribution {
  kNone,
  // Whole-vector solvers (TRON, Newton): each rank holds a block of rows,
  // and the ranks add their sums.
  kRowBlocks,
  // Dual CD's parts (--partitions): each rank holds the rows of its part,
  // kept in every epoch (--fixed-parts). Not for a run stopped by a primal
  // number's rule (primal_rule.h).
  kRowParts,
  // Primal CD's blocks of features, for the classification losses: each
  // rank holds a block of columns.
  kFeatureBlocks,
};

// The class probabilities a model type's decision values give (-b 1).
enum class ProbabilityKind {
  kNone,
  // One-vs-rest logistic models, as LIBLINEAR computes them: each class's
  // sigmoid 1 / (1 + exp(-d_k)), normalized to sum to one for more than two
  // classes; for two classes sigmoid(d_1) and its complement.
  kSigmoid,
  // One model over all classes: exp(d_k) / sum_m exp(d_m).
  kSoftmax,
};

// A model type that a row writes: the model file's solver_type for a loss
// and a regularizer, and the probabilities its decision values give.
// LIBLINEAR's names, and cdlinear's for the regressions LIBLINEAR lacks
// (L2R_SQUARED_LOSS, L1R_SQUARED_LOSS, L1R_L2LOSS_SVR).
struct ModelType {
  LossKind loss;
  RegularizerKind regularizer;
  const char* name;
  ProbabilityKind probabilities = ProbabilityKind::kNone;
};

// One row. Every field has a default, and each row sets the ones that
// differ by name (solver_table.cpp).
struct SolverInfo {
  const char* name = "";         // the -s name
  const char* description = "";  // one line for -h
  // The entry point, for one binary problem (or one regression); see
  // solver.h. train() makes a classification of more classes one problem
  // per class (one-vs-rest)...
  SolveResult (*solve)(const SolverInput& input) = nullptr;
  // ...unless the row solves one problem over all classes (Crammer and
  // Singer's multi-class SVM, say): then it sets this entry point instead,
  // and train() calls it once with every class.
  std::vector<double> (*solve_all_classes)(const MultiClassInput& input) = nullptr;
  // The default --select rule; nullptr for an algorithm that picks no
  // coordinates (then --select is refused).
  const char* rule = nullptr;
  // Which coordinates the rule picks: features (kPrimalCoordinates) or
  // instances (kDualCoordinates); --select takes the rules that serve them.
  unsigned coordinates = kPrimalCoordinates;
  // The only rules --select may name, when not every rule for `coordinates`
  // fits (empty: every one does).
  std::vector<const char*> only_rules;
  std::vector<LossKind> losses;  // the losses it trains; the first is its default
  std::vector<RegularizerKind> regularizers{RegularizerKind::kL2};
  // The LIBLINEAR -s numbers it solves.
  std::vector<LiblinearProblem> liblinear;
  // The solvers' own option groups it takes (solver_options.h): their
  // flags act on its runs; giving another is a usage error that names the
  // rows taking it (check_solver_option() in params.h).
  std::vector<const OptionGroup*> options;

  // Stopping: the default -e (0: no stopping tolerance; the solver runs its
  // budget), how -e is scaled before the solver sees it, and what the rule
  // tests, for -h. With an L1 regularizer the CD rows use kL1CdEps and the
  // minimum-norm subgradient instead (params.h).
  double default_eps = 0.0;
  // The default -e of the losses listed, in place of default_eps.
  std::vector<std::pair<LossKind, double>> loss_eps;
  // Scales -e for the classification losses (a regression has no classes).
  EpsScale eps_scale = EpsScale::kNone;
  const char* stopping = "";
  // What the solver reports as its gradient norm (IterationInfo::grad_norm,
  // the progress lines' column): "|D'|" for the CD family and CMLS, whose
  // stopping vector holds each coordinate's last partial derivative;
  // "|grad f|" for TRON; "PG spread" (max - min projected gradient of an
  // epoch) for dual CD; "" for none (Pegasos).
  const char* norm_name = "|D'|";
  // Default --max-iter (outer iterations); 0: set by the solver from the
  // data (Pegasos's updates).
  std::int64_t default_max_iter = 0;

  bool needs_rows = false;  // needs the CSR copy of the data
  bool warm_start = false;  // can start from -i's weights (and -C's previous C)
  bool randomized = false;  // draws its own random numbers, besides its rule's
  // Runs one problem's solve on -m's threads (thread_count(params)), with a
  // result that does not depend on their number.
  bool solve_on_threads = false;
  // Its threads run its partitions, one at a time each (cdper's blocks,
  // dcd's parts): with one partition, the solve runs on one thread. TRON's
  // partitions only fix the order of its sums; its passes use every thread.
  bool threads_run_partitions = false;
  // The fixed blocks one solve runs in (--partitions), for a row that takes
  // them: from the params and the data's nonzeros, rows and columns; null:
  // one.
  std::size_t (*partitions)(const Params& params, std::size_t nonzeros, std::size_t rows,
                            std::size_t cols) = nullptr;
  // Solves the dual (one variable per instance): its primal f need not
  // decrease from one iteration to the next, and a start from a model's w
  // is not defined (-i is refused with that reason).
  bool dual = false;
  // Its --trace adds the primal, dual, gap and nnz_ops columns, from
  // IterationInfo::alpha by the SVM's duality gap (objective/dual_gap.h).
  bool dual_trace = false;
  // Fits an unregularized intercept w0 besides w (pdcd, rcd-pair): the
  // solver returns n + 1 weights, w0 last, and the model is written with
  // bias 1 and w0 as the bias weight, so that LIBLINEAR's predict uses it.
  // -B is refused for these rows.
  bool intercept = false;
  // The losses for which its --trace adds the columns of the SVM with an
  // unregularized intercept (intercept_gap.h): its own primal, dual and gap
  // for an intercept row, the intercept_gap of a post-processed w for dual CD.
  std::vector<LossKind> intercept_trace_losses;
  // The losses with which it takes -R with -r l2, and with -r l1: the bias
  // weight left out of the regularizer (regularizer_of(),
  // Regularizer::unregularized).
  std::vector<LossKind> free_bias_losses;
  std::vector<LossKind> free_bias_l1_losses;
  // With --partitions > 1 its blocks regularize the bias weight, and -R is
  // refused (cdper's partitioned CD, solver_cd_partitioned.cpp).
  bool partitions_regularize_bias = false;

  // The model types it writes, one for each loss and regularizer it trains
  // (model_solver_type()); the model file's reader asks the table what a
  // type is (find_model_type()).
  std::vector<ModelType> model_types;

  // How cdtrain-mpi runs it.
  Distribution distribution = Distribution::kNone;
  // LIBLINEAR's primal numbers that data with more features than instances
  // send to this row, stopped by the number's own rule on the primal
  // gradient (choose_solver_by_shape() in params.h, primal_rule.h).
  std::vector<int> wide_data_numbers;
  // The default L2-SVM solver on such data (choose_solver_by_shape()).
  bool wide_data_default = false;

  SolverKind kind{""};  // names this row; filled from `name` by solver_table()

  // Whether --seed changes its result.
  bool uses_seed() const;
  bool takes_option(const OptionGroup& group) const;
  bool traces_intercept_gap(LossKind loss) const;
};

const std::vector<SolverInfo>& solver_table();
// Throws Error for a kind with no row.
const SolverInfo& solver_info(SolverKind kind);
// Looks up a name such as "cdper", case-insensitively; nullptr if unknown.
// Numbers are LIBLINEAR's (liblinear_numbers.h), not rows of this table.
const SolverInfo* find_solver(const std::string& name);

// The solver_type of the model a row writes for a loss and regularizer
// (SolverInfo::model_types). Throws Error for a pair with none.
const char* model_solver_type(const SolverInfo& row, LossKind loss, RegularizerKind regularizer);

// What a model file's solver_type is, from the rows that write it: its loss
// and regularizer, its probabilities, and whether its row solves all classes at once (one
// weight vector for each class even with two).
struct ModelTypeInfo {
  LossKind loss;
  RegularizerKind regularizer;
  bool all_classes;
  ProbabilityKind probabilities;
};
// nullptr for a type that no row writes.
const ModelTypeInfo* find_model_type(std::string_view name);

// The valid solver-loss pairs, for messages: "-s cdper/cd/...: l2svm lr; -s cmls/cmlsper: l2svm;
// ...".
std::string valid_pairs();

// "cdper, cd, ...": the rows that take `group`.
std::string solvers_taking(const OptionGroup& group);

// Every option group that a row takes, in the order the rows first name
// them: cdtrain's flags, -h and validate() read them from here.
const std::vector<const OptionGroup*>& solver_option_groups();

}  // namespace cdl

#endif  // CDL_SOLVERS_SOLVER_TABLE_H_
