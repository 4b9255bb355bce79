// The one place that knows every solver: trains a model (one-vs-rest for more
// than two classes) and runs cross validation.
#ifndef CDL_TRAIN_H_
#define CDL_TRAIN_H_

#include <cstdint>
#include <limits>
#include <vector>

#include "data/problem.h"
#include "model/model.h"
#include "solvers/params.h"
#include "solvers/report.h"
#include "solvers/solver.h"

namespace cdl {

// The starting w of each binary problem of train(), in its order.
using InitialWeights = std::vector<std::vector<double>>;

// Trains one binary problem with the solver and loss in `params` (already
// resolved and validated). `seed` drives the solver's randomness. Starts
// from w0 if given (all solvers but Pegasos, which starts from 0).
SolveResult train_binary(const Problem& problem, const Params& params, std::uint64_t seed,
                         Reporter& reporter, const std::vector<double>* w0 = nullptr);

// Trains a model on `x`, whose last column is the bias feature when
// params.bias >= 0. A row with solve_all_classes trains one problem over all
// classes. Otherwise, one-vs-rest: two classes give one binary problem with labels[0]
// positive, C_j = C w_label for each class; more give one problem per class,
// "class k against the rest", with C w_k for class k and C for the rest, as
// LIBLINEAR weighs them. One class, as in LIBLINEAR, gives one problem in
// which every instance is positive, and a model (nr_class 1) that predicts
// that class for everything. `initial`, if given, holds each problem's start.
//
// `held_out`, if given, leaves the rows it marks out of training (C_j = 0;
// cross-validation's folds), and `rows`, if given, is x in row order for the
// solvers that need it, shared instead of made here.
LinearModel train(const CscMatrix& x, const ClassMap& classes, const Params& params,
                  Reporter& reporter, const InitialWeights* initial = nullptr,
                  const std::vector<std::uint8_t>* held_out = nullptr,
                  const CsrMatrix* rows = nullptr);

// The same on the matrix as columns, rows or both. The solver gets what it
// reads: a run of trains_on_rows() the rows alone (made by to_csr() if only
// columns are given), any other run the columns (made by to_csc() if only
// rows are given: a transpose, 12 bytes a nonzero more for the run) and, if
// its row needs_rows, the rows too. The model is the same bits either way.
// data.weights, if given, multiply each instance's C_j (a solver of one
// model over all classes refuses them).
LinearModel train(const DataMatrix& data, const ClassMap& classes, const Params& params,
                  Reporter& reporter, const InitialWeights* initial = nullptr,
                  const std::vector<std::uint8_t>* held_out = nullptr);

// train() with a given row in place of params.solver's: for tests of rows
// that are not in the table.
LinearModel train_with_row(const SolverInfo& row, const CscMatrix& x, const ClassMap& classes,
                           const Params& params, Reporter& reporter,
                           const InitialWeights* initial = nullptr,
                           const std::vector<std::uint8_t>* held_out = nullptr,
                           const CsrMatrix* rows = nullptr);
LinearModel train_with_row(const SolverInfo& row, const DataMatrix& data, const ClassMap& classes,
                           const Params& params, Reporter& reporter, const InitialWeights* initial,
                           const std::vector<std::uint8_t>* held_out);

// Whether a classification run reads nothing but the rows: its row
// needs_rows and its selection rule (--select or the row's) reads no dual
// state and no columns. cdtrain then reads the file into rows alone.
bool trains_on_rows(const Params& params);

// The solver_type of the model `row` writes for params: that of the row
// that lists LIBLINEAR's -s N when -s N chose the run (the primal -s 11's
// when its dual solver ran, say), else the row's for the loss and
// regularizer (model_solver_type()).
std::string model_type(const SolverInfo& row, const Params& params);

// Throws InstanceError if some feature's values are so large that C_max
// sum_j x_ji^2, the curvature every solver's steps rest on, is not a finite
// double (with room to spare), naming the instance at which the sum
// overflows; ConfigError if that feature is the -B bias column. C_max is
// largest_cost(classes, params). train() and train_regression() call it
// unless x.checked_cost is at least C_max; cdtrain calls it first on the
// whole file, so that the row is a line there, and records the C it checked
// at in x.checked_cost.
// `largest_magnitude`, if known (LabeledCsc::largest_magnitude), is the
// largest |value| of x: data far from the limit then pass without a pass
// over the values.
// With instance weights, C_max is times the largest weight.
void check_magnitudes(const CscMatrix& x, const ClassMap& classes, const Params& params,
                      double largest_magnitude = std::numeric_limits<double>::infinity(),
                      const std::vector<double>* weights = nullptr);
// The same test on rows, with the same errors: the screen bounds a column's
// length by l; past it, the running sums of all columns are kept at once in
// row order (each column's in its own order, so the same sums), O(nnz + n).
void check_magnitudes(const CsrMatrix& x, const ClassMap& classes, const Params& params,
                      double largest_magnitude = std::numeric_limits<double>::infinity(),
                      const std::vector<double>* weights = nullptr);
void check_magnitudes(const DataMatrix& x, const ClassMap& classes, const Params& params,
                      double largest_magnitude = std::numeric_limits<double>::infinity());

// The largest C of any instance: C, or C times a class's -wi weight, times
// the largest instance weight if `weights` is given and it is above 1.
double largest_cost(const ClassMap& classes, const Params& params,
                    const std::vector<double>* weights = nullptr);

// The start for train() on data with `classes` and `num_cols` columns (bias
// included if bias >= 0) taken from a model: each problem gets the model's
// weights for its positive class (negated for the second label of a binary
// model), zero for a class the model lacks; features beyond either side are
// dropped or zero, and the bias weight carries over if both have one.
InitialWeights initial_weights(const LinearModel& model, const ClassMap& classes,
                               std::size_t num_cols, double bias);

}  // namespace cdl

#endif  // CDL_TRAIN_H_
