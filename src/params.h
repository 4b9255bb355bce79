// Training parameters, filled by the command line and checked by validate().
//
// The number-to-solver table lives here, in one place: the CLI parses -s with
// it and -h prints it.
#ifndef CDL_PARAMS_H_
#define CDL_PARAMS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loss.h"

namespace cdl {

enum class SolverKind { kCdPer, kCd, kCdPerOne, kOnlineCd, kCmls, kCmlsPer, kTron, kPegasos };

struct SolverInfo {
  int number;        // the -s number
  const char* name;  // the -s name
  SolverKind kind;
  const char* description;  // one line for -h
  bool implemented;
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

// Defaults of the CD family (see resolve_defaults and README "Stopping").
constexpr double kDefaultCdEps = 0.001;
constexpr std::int64_t kDefaultMaxIter = 1000;

struct Params {
  SolverKind solver = SolverKind::kCdPer;
  LossKind loss = LossKind::kL2Svm;
  double C = 1.0;
  std::optional<double> eps;             // stopping tolerance; default per solver
  std::optional<std::int64_t> max_iter;  // outer iterations; default per solver
  double bias = -1;                      // < 0: no bias feature
  double sigma = 0.01;                   // sufficient decrease, equation (12)
  double beta = 0.5;                     // line search shrink factor, Algorithm 2
  std::uint64_t seed = 1;
  int cv_folds = 0;  // 0: no cross validation
  bool quiet = false;
};

// Fills the optional fields with the solver's defaults.
Params resolve_defaults(Params params);

// Throws ConfigError for values or combinations that cannot be trained.
void validate(const Params& params);

}  // namespace cdl

#endif  // CDL_PARAMS_H_
