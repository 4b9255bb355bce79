// The one place that knows every solver: trains a model (one-vs-rest for more
// than two classes) and runs cross validation.
#ifndef CDL_TRAIN_H_
#define CDL_TRAIN_H_

#include <cstdint>
#include <vector>

#include "model.h"
#include "params.h"
#include "problem.h"
#include "report.h"
#include "solver.h"

namespace cdl {

// Trains one binary problem with the solver and loss in `params` (already
// resolved and validated). `seed` drives the solver's randomness.
SolveResult train_binary(const Problem& problem, const Params& params, std::uint64_t seed,
                         Reporter& reporter);

// Trains a model on `x`, whose last column is the bias feature when
// params.bias >= 0. Two classes give one binary problem with labels[0]
// positive; more give one problem per class, "class k against the rest".
LinearModel train(const CscMatrix& x, const ClassMap& classes, const Params& params,
                  Reporter& reporter);

// params.cv_folds-fold cross validation; returns the accuracy in [0, 1].
// Folds come from a shuffle seeded by params.seed.
double cross_validate(const CscMatrix& x, const ClassMap& classes, const Params& params,
                      Reporter& reporter);

}  // namespace cdl

#endif  // CDL_TRAIN_H_
