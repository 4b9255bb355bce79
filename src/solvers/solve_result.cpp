#include "solvers/solve_result.h"

namespace cdl {

const char* status_name(Status status) {
  switch (status) {
    case Status::kConverged:
      return "converged";
    case Status::kMaxIter:
      return "iteration limit reached";
    case Status::kLineSearchFailed:
      return "line search failed";
    case Status::kPrecisionLimit:
      return "at the limit of double precision";
    case Status::kFinished:
      return "finished its updates";
  }
  return "unknown";
}

}  // namespace cdl
