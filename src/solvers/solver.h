// The solver entry points. Each takes Params already passed through
// resolve_defaults() and validate(): eps and max_iter are read with value().
#ifndef CDL_SOLVER_H_
#define CDL_SOLVER_H_

#include <cstdint>
#include <vector>

#include "objective/objective.h"
#include "objective/vector_objective.h"
#include "select/coordinate_order.h"
#include "solvers/params.h"
#include "solvers/report.h"
#include "solvers/solve_result.h"

namespace cdl {

// Coordinate descent with Newton steps and line search (solver_cd.cpp). Starts
// from the objective's current w.
SolveResult solve_cd(CoordinateObjective& objective, CoordinateOrder& order, const Params& params,
                     Reporter& reporter);

// Trust region Newton method (solver_tron.cpp), from w.
SolveResult solve_tron(VectorObjective& objective, std::vector<double> w, const Params& params,
                       Reporter& reporter);

// CMLS, Zhang & Oles (2001), for L2-SVM (solver_cmls.cpp), from w.
SolveResult solve_cmls(const Problem& problem, std::vector<double> w, CoordinateOrder& order,
                       const Params& params, Reporter& reporter);

// Pegasos for L1-SVM (solver_pegasos.cpp), from w = 0, drawing instances
// with `seed`.
SolveResult solve_pegasos(const Problem& problem, const Params& params, std::uint64_t seed,
                          Reporter& reporter);

}  // namespace cdl

#endif  // CDL_SOLVER_H_
