// What every solver returns, and the solver entry points.
#ifndef CDL_SOLVER_H_
#define CDL_SOLVER_H_

#include <cstdint>
#include <vector>

#include "coordinate_order.h"
#include "objective.h"
#include "params.h"
#include "report.h"
#include "vector_objective.h"

namespace cdl {

enum class Status {
  kConverged,         // the stopping rule was met
  kMaxIter,           // the iteration limit came first
  kLineSearchFailed,  // CD's line search found no step (NaN or overflow)
  kStalled,           // TRON's trust region shrank to nothing
  kFinished,          // Pegasos made its budgeted number of updates
};

const char* status_name(Status status);

struct SolveResult {
  std::vector<double> w;
  std::int64_t iterations = 0;  // outer iterations
  double objective = 0;         // f(w) at the end
  double grad_norm = 0;         // the norm the stopping rule tested last
  double seconds = 0;           // training time, excluding reporting
  Status status = Status::kConverged;
  // Coordinate-descent statistics (zero for other solvers).
  std::int64_t inner_iterations = 0;
  std::int64_t full_newton_steps = 0;     // lambda = 1 accepted
  std::int64_t function_evaluations = 0;  // times D_i(lambda d) was computed
};

// Coordinate descent with Newton steps and line search (solver_cd.cpp). Starts
// from the objective's current w.
SolveResult solve_cd(CoordinateObjective& objective, CoordinateOrder& order, const Params& params,
                     Reporter& reporter);

// Trust region Newton method (solver_tron.cpp), from w.
SolveResult solve_tron(VectorObjective& objective, std::vector<double> w, const Params& params,
                       Reporter& reporter);

// CMLS, Zhang & Oles (2001), for L2-SVM (solver_cmls.cpp), from w = 0.
SolveResult solve_cmls(const Problem& problem, CoordinateOrder& order, const Params& params,
                       Reporter& reporter);

// Pegasos for L1-SVM (solver_pegasos.cpp), from w = 0, drawing instances
// with `seed`.
SolveResult solve_pegasos(const Problem& problem, const Params& params, std::uint64_t seed,
                          Reporter& reporter);

}  // namespace cdl

#endif  // CDL_SOLVER_H_
