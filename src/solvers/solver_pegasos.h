// Pegasos's own option (solver_pegasos.cpp) and its number of updates.
#ifndef CDL_SOLVERS_SOLVER_PEGASOS_H_
#define CDL_SOLVERS_SOLVER_PEGASOS_H_

#include <cstddef>
#include <cstdint>

#include "solvers/solver_options.h"

namespace cdl {

// -k.
struct PegasosOptions {
  std::int64_t batch = 1;  // K, Pegasos's subsample size
};
const OptionGroup* pegasos_options();

// Pegasos's number of updates for l training instances: --max-iter, or
// kDefaultPegasosPasses passes of ceil(l / K) updates.
std::int64_t pegasos_updates(const Params& params, std::size_t num_rows);

}  // namespace cdl

#endif  // CDL_SOLVERS_SOLVER_PEGASOS_H_
