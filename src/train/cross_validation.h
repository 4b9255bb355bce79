// Cross validation (-v) and the search for C (-C).
#ifndef CDL_CROSS_VALIDATION_H_
#define CDL_CROSS_VALIDATION_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "data/problem.h"
#include "model/model.h"
#include "solvers/params.h"
#include "solvers/report.h"
#include "train/relay_reporter.h"

namespace cdl {

// -v's fold count for `rows` instances: at most one fold per instance
// (leave-one-out), with a warning when -v asks for more.
std::size_t fold_count(const Params& params, std::size_t rows, Reporter& reporter);

// The fold, 0..folds-1, of every instance. The instances are shuffled with
// `seed`; without `stratified` fold f takes the f-th of `folds` equal slices
// of the shuffle, with it the shuffled instances of each class in turn are
// dealt round-robin, so every fold gets each class's share.
std::vector<std::size_t> assign_folds(const ClassMap& classes, std::size_t folds, bool stratified,
                                      std::uint64_t seed);

// The folds of -v under `params`: assign_folds() with params.stratified,
// drawn from a seed of its own derived from params.seed.
std::vector<std::size_t> fold_assignment(const ClassMap& classes, std::size_t folds,
                                         const Params& params);

// Fold f's (from 0) params: `params` with the fold's own seed, derived from
// params.seed, which every fold's training takes.
Params fold_params(const Params& params, std::size_t f);

// Fold f's (from 0) header under -V, "fold 2/5, C = 0.5", and its line,
// "fold 2/5: RESULT, 12.3 ms" for a fold that took `ms` milliseconds.
std::string fold_header(std::size_t f, std::size_t folds, double C);
std::string fold_line(std::size_t f, std::size_t folds, const std::string& result, double ms);

// A classification fold's result: "accuracy 81.48% (22/27)", `right` of
// the `held` rows it held out predicted right.
std::string accuracy_text(std::size_t right, std::size_t held);

struct CrossValidation {
  double accuracy = 0;  // correct predictions / instances
  // Each row's label as predicted by the model trained without its fold,
  // for the rows this process holds (all of them but on ranks), in order.
  std::vector<int> predicted;
  // The model trained without each fold; empty unless asked for (a model
  // is n weights per class, and -v alone needs only the predictions).
  std::vector<LinearModel> models;
};

// params.cv_folds-fold cross validation (more folds than instances: one per
// instance, with a warning). Folds train on params.threads threads at once
// (0: one per core); each fold's output is buffered and printed as soon as it
// and every fold before it are done (live, in fold order), and every fold
// draws from its own seed, so the result does not depend on the thread
// count. A fold's output is its warnings and, with `fold_lines` and a
// reporter that is not quiet, one line (accuracy on the fold, time); with
// params.verbose (-V) also a "fold f/F" header and its per-iteration lines.
// With `warm`, one model per fold, each fold starts from its model
// (initial_weights()). Without it, for a solver that takes a start (-i),
// fold 0 trains first from 0 (the lead fold) and every other fold starts
// from its model. With `keep_models` the folds' models are returned;
// otherwise each is freed once its fold is predicted (the lead fold's once
// every fold is done). One lead fold, not two: on two cores two folds at
// once each ran slower than one alone, and a later fold took under half a
// lead fold's time from either start (docs/checks.md has the figures).
//
// Whether cross validation with `folds` folds under `params` starts the
// folds after the first from its model: a solver that takes a start, and
// more than one fold. Regression folds follow the same rule.
bool starts_from_lead_fold(const Params& params, std::size_t folds);
CrossValidation cross_validate(const CscMatrix& x, const ClassMap& classes, const Params& params,
                               Reporter& reporter, const std::vector<LinearModel>* warm = nullptr,
                               bool fold_lines = true, bool keep_models = true);
// The same on the matrix as columns, rows or both (train()'s DataMatrix):
// the folds share the one matrix the solver reads, and each fold's held-out
// rows are predicted from it.
CrossValidation cross_validate(const DataMatrix& data, const ClassMap& classes,
                               const Params& params, Reporter& reporter,
                               const std::vector<LinearModel>* warm = nullptr,
                               bool fold_lines = true, bool keep_models = true);

// The output of a search's cross validations, one step (one C) at a time
// (each step's iterations relayed to `out`, relay_reporter.h):
// a line printed at an earlier step (the same warning at every C, such as a
// solver's iteration limit at large C) is counted rather than printed again,
// unless `verbose` (-V). finish() says how many were left out.
class SearchLog {
 public:
  SearchLog(Reporter& out, bool verbose) : out_(out), verbose_(verbose) {}
  // The reporter of the next step; its lines go out at end_step().
  Reporter& step();
  void end_step();
  void finish();

 private:
  Reporter& out_;
  bool verbose_;
  std::ostringstream text_;
  std::optional<RelayReporter> step_;
  std::set<std::string> seen_;
  std::size_t repeated_ = 0;
};

// The largest C of the search.
constexpr double kMaxSearchC = 1024;
// The largest C at which the search trains: kMaxSearchC, allowing for the
// rounding of the doublings that reach it. cdtrain checks the data at this C.
constexpr double kLargestSearchC = kMaxSearchC * (1 + 1e-12);

// The first C of the search when -c is not given, as LIBLINEAR picks it:
// the power of two at or below the loss's start_C_scale / (l max_j
// ||x_j||^2) (loss.h: 1 for logistic regression, 1/2 for the others).
double search_start_C(const CscMatrix& x, LossKind loss);
double search_start_C(const DataMatrix& data, LossKind loss);
// The same for `rows` instances whose largest ||x_j||^2 is `largest_norm2`.
double search_start_C(double rows, double largest_norm2, LossKind loss);

// The largest ||x_j||^2 of the rows of `data` (the bias column included).
double largest_row_norm2(const DataMatrix& data);

// Whether a search's fold models moved from `before` (the previous C's) to
// `after`: a fold's weights differ by more than 1e-15 in Euclidean norm.
// (Pointers: the search keeps the models, and these only read them.)
bool fold_models_moved(const std::vector<const std::vector<double>*>& before,
                       const std::vector<const std::vector<double>*>& after);

struct CSearch {
  double best_C = 0;
  double best_accuracy = -1;
  // The search stopped before the largest C because no fold's model had
  // changed at kSearchUnchangedStop consecutive values of C (last_C is the
  // last C searched).
  bool stopped_unchanged = false;
  double last_C = 0;
};

// As LIBLINEAR's search: it stops once no fold's model has changed (by more
// than 1e-15 in Euclidean norm, all classes' weights together) at this many
// consecutive values of C, the first C counting as unchanged and a C at
// which every fold's model is w = 0 (L1 below its threshold C) not counting
// at all. A warm-started
// solve that takes no step (its start already passes the stopping test, as
// at large C, where the test's ||grad f(0)|| grows with C) returns its start,
// and every larger C would do the same.
constexpr int kSearchUnchangedStop = 3;

// -C: cross validation at C = start, 2 start, 4 start, ... up to kMaxSearchC
// (a start above it is lowered to it),
// each fold warm-started from its model at the previous C (except Pegasos,
// which always starts from 0), and stopping early as LIBLINEAR's does
// (kSearchUnchangedStop). `on_step(C, accuracy)` is called after each C.
// The best C is the first with the highest accuracy.
CSearch search_C(const CscMatrix& x, const ClassMap& classes, const Params& params, double start,
                 Reporter& reporter, const std::function<void(double, double)>& on_step);
CSearch search_C(const DataMatrix& data, const ClassMap& classes, const Params& params,
                 double start, Reporter& reporter,
                 const std::function<void(double, double)>& on_step);

// One cross validation of the search: under `step` (its C), each fold from
// its model in `warm` if not null, the output to `log`, every fold's model
// kept (cross_validate() with fold lines under -V only).
using SearchStep = std::function<CrossValidation(const Params& step, Reporter& log,
                                                 const std::vector<LinearModel>* warm)>;
// The search above, each C's cross validation by `cross_validation`.
CSearch search_C(const Params& params, double start, Reporter& reporter,
                 const SearchStep& cross_validation,
                 const std::function<void(double, double)>& on_step);

}  // namespace cdl

#endif  // CDL_CROSS_VALIDATION_H_
