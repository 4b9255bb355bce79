// Training parameters, filled by the command line and checked by validate()
// against the solver's row (solver_table.h).
#ifndef CDL_PARAMS_H_
#define CDL_PARAMS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "objective/loss.h"
#include "objective/regularizer.h"
#include "solvers/solver_options.h"
#include "solvers/solver_table.h"

namespace cdl {

// Default outer iterations of every solver but Pegasos (docs/solvers.md); the
// table's rows use it.
constexpr std::int64_t kDefaultMaxIter = 1000;
// Pegasos's default number of updates is this many passes over the data:
// kDefaultPegasosPasses * ceil(l / K).
constexpr std::int64_t kDefaultPegasosPasses = 500;

// Default eps of the CD rows with an L1 regularizer: LIBLINEAR's -s 5/6
// default, for the same stopping measure (solver_cd_l1.cpp).
constexpr double kL1CdEps = 0.01;
// Default eps of the Lasso (-r l1 -l sq), which stops on its relative
// duality gap instead, f(w) - D(u) <= eps f(w), as scikit-learn's Lasso
// stops on its gap (solver_cd_l1.cpp).
constexpr double kLassoGapEps = 1e-3;
// The most threads -m gives a run.
constexpr unsigned kMaxThreads = 1024;
// Default -p, the SVR tube width, as LIBLINEAR's.
constexpr double kDefaultSvrEpsilon = 0.1;
// Default -n, the one-class SVM's nu, as LIBLINEAR 2.50's.
constexpr double kDefaultNu = 0.5;
// Default --partitions of cdper (solver_cd_partitioned.cpp's header and
// docs/checks.md give the measurements): the serial algorithm below
// kCdPartitionedNonzeros nonzeros, where two threads do not pay for the
// merges (and small data keep the serial solver's model), else
// kDefaultCdPartitions blocks. And the most --partitions may be (each block
// holds a vector as long as the data's other side).
constexpr std::int64_t kDefaultCdPartitions = 2;
constexpr std::int64_t kCdPartitionedNonzeros = 1000000;
constexpr std::int64_t kMaxPartitions = 4096;
// The default L2-SVM solver is dual CD on data with more features than
// instances and at least this many nonzeros (choose_solver_by_shape;
// docs/solvers.md gives the measurements).
constexpr std::uint64_t kShapeNonzeros = 100000;

// Where the run's solver came from: the user's -s, or the data's shape
// (choose_solver_by_shape). Kept apart from the options: it says how the
// solver was named, not how the run trains.
struct SolverChoice {
  // -s was given (by name or number); otherwise the L2-SVM's solver is
  // chosen by the data's shape (choose_solver_by_shape).
  bool given = false;
  // Why the data's shape chose the solver (for the run's header); empty when
  // the solver was given or the shape did not choose it.
  std::string reason;
  // -s N, LIBLINEAR's number N (liblinear_numbers.h), which chose solver,
  // loss and regularizer and fixes the model's solver_type; unset for -s NAME.
  std::optional<int> liblinear_number;
};

// The run's options: what every solver, the drivers and the training layer
// read.
struct RunOptions {
  SolverKind solver = SolverKind::kCdPer;
  std::optional<LossKind> loss;  // default: the solver's first loss
  RegularizerKind regularizer = RegularizerKind::kL2;
  double C = 1.0;
  // -p: epsilon of the svr2 loss; only with -l svr2 (default kDefaultSvrEpsilon).
  std::optional<double> svr_epsilon;
  // -n: nu of the one-class SVM, in (0, 1]; only with -l oneclass (default
  // kDefaultNu): at most a share nu of the instances fall outside, and at
  // least nu are support vectors.
  std::optional<double> nu;
  std::optional<double> eps;  // stopping tolerance; default per solver
  // Outer iterations; for Pegasos, updates. Default per solver, and for
  // Pegasos per data size (see pegasos_updates).
  std::optional<std::int64_t> max_iter;
  double bias = -1;  // < 0: no bias feature
  std::uint64_t seed = 1;
  std::map<int, double> class_weights;  // -wi: class i's C is C * weight (default 1)
  bool stratified = false;              // -v folds keep the class proportions
  unsigned threads = 0;                 // -m: the run's threads; 0: one per core
  int cv_folds = 0;                     // 0: no cross validation
  bool quiet = false;
  bool verbose = false;  // -V: per-iteration lines under -v and -C, with fold headers
  // -R: the bias weight (the last of -B's columns) is not regularized, as
  // LIBLINEAR 2.50's -R; only for the rows with free_bias_losses.
  bool free_bias = false;
};

// A run: its options, where its solver came from, and the values of the
// solvers' own option groups that it sets (solver_options.h), each group's
// struct keyed by its type.
struct Params : RunOptions {
  SolverChoice choice;
  OptionStore groups;
  // A group's values (LineSearchOptions, say): the run's, else the defaults.
  template <class Group>
  const Group& own() const {
    return groups.get<Group>();
  }
  template <class Group>
  Group& own() {
    return groups.edit<Group>();
  }
};

// The data that a default solver is chosen for: l, n (with a bias column)
// and the nonzeros.
struct DataShape {
  std::size_t instances = 0;
  std::size_t features = 0;
  std::uint64_t nonzeros = 0;
};

// Whether the data's shape chooses the solver of these (unresolved) params:
// no -s, the L2-SVM with the L2 regularizer (the default problem), and none
// of a solver's own options; or LIBLINEAR's -s 11 (the L2-loss SVR, primal)
// trained once (no -v or -C), without -R. A caller that starts from a
// model's w (-i) keeps cdper or tron, which take it.
bool solver_by_shape(const Params& given);

// The solver for data of `shape`, when n > l and nnz >= kShapeNonzeros
// (wide data) and otherwise:
// - the default L2-SVM: dcd (dual CD, Hsieh et al. 2008), else cdper (the
//   paper's primal CD);
// - -s 11: dcd-svr (dual CD, Ho & Lin 2012) to -s 11's own stopping rule on
//   the primal gradient (solver_svr_dual.cpp), else tron.
// Returns `given` with that solver and choice.reason set, still unresolved
// (resolve_defaults() then takes the chosen row's eps; -s 11 keeps tron's);
// `given` itself unless solver_by_shape(given).
Params choose_solver_by_shape(const Params& given, const DataShape& shape);

// The solver row's default -e for `loss` (SolverInfo::loss_eps, else
// default_eps), with the L2 regularizer.
double default_l2_eps(const SolverInfo& solver, LossKind loss);

// Fills the optional fields with the solver's defaults (all but a max_iter
// that the solver sets from the data, as Pegasos's).
Params resolve_defaults(Params params);

// The threads that -m gives a run: Params::threads, or one per core for 0.
unsigned thread_count(const Params& params);

// The blocks of features that cdper's solve uses on a matrix of `nonzeros`:
// --partitions, or when the run keeps the row's `perm` rule the default
// (1 below kCdPartitionedNonzeros, else kDefaultCdPartitions); 1 (the serial
// algorithm) for the rows that do not take --partitions.
std::int64_t cd_partitions(const Params& params, std::size_t nonzeros);
// The default of cdper's --partitions in words, for -h.
std::string cd_partitions_default_text();

// The run's regularizer for `num_features` weights (the -B column
// included): params.regularizer's, leaving the last weight out with -R.
Regularizer regularizer_of(const Params& params, std::size_t num_features);

// The C of class `label`: C times its -wi weight.
double class_cost(const Params& params, int label);

// A flag of the solvers' own option groups (solver_option_groups()), with
// its group.
struct SolverOptionFlag {
  const OptionFlag* flag;    // --beta
  const OptionGroup* group;  // line_search_options()
};
// Every flag of the groups, group by group.
const std::vector<SolverOptionFlag>& solver_option_flags();

// The flags of the solvers' own option groups that `params` sets, given or
// away from their defaults: each with its group.
std::vector<SolverOptionFlag> solver_options_set(const Params& params);
// Throws ConfigError unless `solver` takes `group`, naming the solvers that
// do; `given` is the flag as the user wrote it (--beta for
// line_search_options(), say).
void check_solver_option(const SolverInfo& solver, const OptionGroup& group,
                         const std::string& given);
// Whether the run is the Lasso on primal CD (-r l1 -l sq), whose --select
// rules include the Lasso's adaptive and greedy ones (select/lasso_rules.h).
bool is_lasso(const Params& params);
// "solver cdper, loss l2svm, regularizer l2", followed by LIBLINEAR's
// problem when a number chose them: what progress headers print.
std::string describe_run(const Params& params);

// Throws ConfigError for values or combinations that cannot be trained.
void validate(const Params& params);

}  // namespace cdl

#endif  // CDL_PARAMS_H_
