// What every solver returns.
#ifndef CDL_SOLVE_RESULT_H_
#define CDL_SOLVE_RESULT_H_

#include <cstdint>
#include <vector>

namespace cdl {

enum class Status {
  kConverged,         // the stopping rule was met
  kMaxIter,           // the iteration limit came first
  kLineSearchFailed,  // CD's line search found no step (NaN or overflow)
  kPrecisionLimit,    // TRON: f cannot decrease further in double precision
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
  // Dual solvers (dcd): the dual point (one per instance; empty for the
  // others) and the nonzeros touched by coordinate steps.
  std::vector<double> alpha;
  std::int64_t nnz_ops = 0;
  // The one-class SVM's offset (its decision is w'x - rho); 0 for the others.
  double rho = 0;
};

}  // namespace cdl

#endif  // CDL_SOLVE_RESULT_H_
