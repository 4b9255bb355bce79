// The options of the primal CD family's line search (solver_cd.cpp,
// solver_cd_l1.cpp, solver_cd_partitioned.cpp): Chang, Hsieh & Lin's
// Algorithm 2.
#ifndef CDL_SOLVERS_SOLVER_CD_H_
#define CDL_SOLVERS_SOLVER_CD_H_

#include "solvers/solver_options.h"

namespace cdl {

// --sigma, --beta.
struct LineSearchOptions {
  double sigma = 0.01;  // sufficient decrease, equation (12)
  double beta = 0.5;    // line search shrink factor, Algorithm 2
};
const OptionGroup* line_search_options();

}  // namespace cdl

#endif  // CDL_SOLVERS_SOLVER_CD_H_
