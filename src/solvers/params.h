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

struct Params : RunOptions {
  SolverChoice choice;
  // --select: the coordinate selection rule; default: the solver's own.
  std::optional<std::string> select;
  double sigma = 0.01;             // sufficient decrease, equation (12)
  double beta = 0.5;               // line search shrink factor, Algorithm 2
  std::int64_t pegasos_batch = 1;  // K, Pegasos's subsample size
  // pdcd (solver_pdcd.cpp): the dual step sigma of the intercept's dual
  // variables (Algorithm 2 with M = I, in cdtrain's scaling); default per
  // data set, see default_pd_sigma(). tau_factor: each primal step is this
  // share of Assumption 1(e)'s bound.
  std::optional<double> pd_sigma;
  double tau_factor = 0.95;
  // Dual solvers: --shrink/--no-shrink (default on); set only when given,
  // so that validate() can refuse it for the others.
  std::optional<bool> shrink;
  // Dual CD with a rule that reads the margins: re-weigh every row a step
  // changes after each step (the papers' form), even where that costs more
  // than kStaleGapsRatio uniform epochs an epoch (solver_dcd_adaptive.cpp).
  bool exact_gaps = false;
  // Dual solvers: --gap-tol, also stop once the duality gap is <= this;
  // pdcd and rcd-pair: stop once their post-processed gap is <= this,
  // in place of -e's relative gap.
  std::optional<double> gap_tol;
  // --partitions: the fixed blocks of one parallel solve (cdper: of the
  // features; dcd: of the rows); the model depends on them, never on -m.
  // Default per solver and data: SolverInfo::partitions.
  std::optional<std::int64_t> partitions;
  // --fixed-parts: dcd's parts keep the rows of the run's first cut in
  // every epoch (the cut cdtrain-mpi's ranks hold), in place of a new cut
  // of the rows every epoch.
  bool fixed_parts = false;
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

// Pegasos's number of updates for l training instances.
std::int64_t pegasos_updates(const Params& params, std::size_t num_rows);

// A solver's own option (SolverInfo::options) as the user writes it: the
// flag, its option:: constant, and whether `params` sets it (given, or away
// from its default).
struct SolverOptionFlag {
  const char* flag;    // "--beta"
  const char* option;  // option::kLineSearch
  bool (*is_set)(const Params& params);
};
// Every flag of a solver's own option.
const std::vector<SolverOptionFlag>& solver_option_flags();

// The solvers' own options (SolverInfo::options) that `params` sets, given
// or away from their defaults: each as its option:: constant and the flag
// that sets it (--beta for option::kLineSearch, say).
std::vector<std::pair<const char*, const char*>> solver_options_set(const Params& params);
// Throws ConfigError unless `solver` takes `flag` (an option:: constant),
// naming the solvers that do; `given` is the flag as the user wrote it
// (--beta for option::kLineSearch, say).
void check_solver_option(const SolverInfo& solver, const char* flag, const std::string& given);
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
