// Training parameters, filled by the command line and checked by validate()
// against the solver's row (solver_table.h).
#ifndef CDL_PARAMS_H_
#define CDL_PARAMS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "objective/loss.h"
#include "objective/regularizer.h"
#include "solvers/solver_table.h"

namespace cdl {

struct LossInfo {
  const char* name;
  LossKind kind;
  const char* description;
};

const std::vector<LossInfo>& loss_table();
const LossInfo& loss_info(LossKind kind);
const LossInfo* find_loss(const std::string& name);

// Default outer iterations of every solver but Pegasos (see README); the
// table's rows use it.
constexpr std::int64_t kDefaultMaxIter = 1000;
// Pegasos's default number of updates is this many passes over the data:
// kDefaultPegasosPasses * ceil(l / K).
constexpr std::int64_t kDefaultPegasosPasses = 500;

struct Params {
  SolverKind solver = SolverKind::kCdPer;
  // -s N, LIBLINEAR's number N (liblinear_numbers.h), which chose solver,
  // loss and regularizer and fixes the model's solver_type; unset for -s NAME.
  std::optional<int> liblinear_number;
  std::optional<LossKind> loss;  // default: the solver's first loss
  RegularizerKind regularizer = RegularizerKind::kL2;
  // --select: the coordinate selection rule; default: the solver's own.
  std::optional<std::string> select;
  double C = 1.0;
  std::optional<double> eps;  // stopping tolerance; default per solver
  // Outer iterations; for Pegasos, updates. Default per solver, and for
  // Pegasos per data size (see resolve_pegasos_updates).
  std::optional<std::int64_t> max_iter;
  double bias = -1;     // < 0: no bias feature
  double sigma = 0.01;  // sufficient decrease, equation (12)
  double beta = 0.5;    // line search shrink factor, Algorithm 2
  std::uint64_t seed = 1;
  std::int64_t pegasos_batch = 1;       // K, Pegasos's subsample size
  std::map<int, double> class_weights;  // -wi: class i's C is C * weight (default 1)
  bool stratified = false;              // -v folds keep the class proportions
  unsigned threads = 0;                 // -n: folds trained at once; 0: one per core
  int cv_folds = 0;                     // 0: no cross validation
  bool quiet = false;
  bool verbose = false;  // -V: per-iteration lines under -v and -C, with fold headers
};

// Fills the optional fields with the solver's defaults (all but a max_iter
// that the solver sets from the data, as Pegasos's).
Params resolve_defaults(Params params);

// The C of class `label`: C times its -wi weight.
double class_cost(const Params& params, int label);

// Pegasos's number of updates for l training instances.
std::int64_t pegasos_updates(const Params& params, std::size_t num_rows);

// "solver cdper, loss l2svm, regularizer l2", followed by LIBLINEAR's
// problem when a number chose them: what progress headers print.
std::string describe_run(const Params& params);

// Throws ConfigError for values or combinations that cannot be trained.
void validate(const Params& params);

}  // namespace cdl

#endif  // CDL_PARAMS_H_
