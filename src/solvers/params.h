// Training parameters, filled by the command line and checked by validate().
//
// The number-to-solver table lives here, in one place: the CLI parses -s with
// it and -h prints it.
#ifndef CDL_PARAMS_H_
#define CDL_PARAMS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "objective/loss.h"

namespace cdl {

enum class SolverKind { kCdPer, kCd, kCdPerOne, kOnlineCd, kCmls, kCmlsPer, kTron, kPegasos };

struct SolverInfo {
  int number;        // the -s number
  const char* name;  // the -s name
  SolverKind kind;
  const char* description;       // one line for -h
  std::vector<LossKind> losses;  // the losses it trains; the first is its default
  double default_eps;            // its stopping tolerance (unused by Pegasos)
};

const std::vector<SolverInfo>& solver_table();
const SolverInfo& solver_info(SolverKind kind);
// Looks up "0".."7" or a name such as "cdper"; nullptr if unknown.
const SolverInfo* find_solver(const std::string& number_or_name);

struct LossInfo {
  const char* name;
  LossKind kind;
  const char* description;
};

const std::vector<LossInfo>& loss_table();
const LossInfo& loss_info(LossKind kind);
const LossInfo* find_loss(const std::string& name);

// The valid solver-loss pairs, for messages: "-s 0-3: l2svm lr; -s 4-5: l2svm; ...".
std::string valid_pairs();

// Default outer iterations of every solver but Pegasos (see README).
constexpr std::int64_t kDefaultMaxIter = 1000;
// Pegasos's default number of updates is this many passes over the data:
// kDefaultPegasosPasses * ceil(l / K).
constexpr std::int64_t kDefaultPegasosPasses = 500;

struct Params {
  SolverKind solver = SolverKind::kCdPer;
  std::optional<LossKind> loss;  // default: the solver's first loss
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
};

// Fills the optional fields with the solver's defaults (all but Pegasos's
// max_iter, which depends on the data).
Params resolve_defaults(Params params);

// The C of class `label`: C times its -wi weight.
double class_cost(const Params& params, int label);

// Pegasos's number of updates for l training instances.
std::int64_t pegasos_updates(const Params& params, std::size_t num_rows);

// Throws ConfigError for values or combinations that cannot be trained.
void validate(const Params& params);

}  // namespace cdl

#endif  // CDL_PARAMS_H_
