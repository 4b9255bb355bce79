// The solver entry points.
//
// Every solver has one entry point of one signature, SolveResult
// solve_NAME(const SolverInput&), named by its row in solver_table.cpp;
// train() calls it through the row. The algorithm functions below them take
// their parts ready-made (objective, selection rule), for tests and
// benchmarks that build the parts themselves. Params have been through
// resolve_defaults() and validate(): eps and max_iter are read with value().
#ifndef CDL_SOLVER_H_
#define CDL_SOLVER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "data/problem.h"
#include "objective/margin_objective.h"
#include "objective/objective.h"
#include "objective/regression_objective.h"
#include "objective/vector_objective.h"
#include "select/coordinate_order.h"
#include "solvers/params.h"
#include "solvers/report.h"
#include "solvers/solve_result.h"

namespace cdl {

struct SolverInput {
  const Problem& problem;
  const Params& params;  // resolved; eps already scaled as the row says
  std::uint64_t seed;    // this binary problem's seed (for the rule and the solver)
  Reporter& reporter;
  const std::vector<double>* w0;  // the starting w (size n), or null for 0
};

// The option groups of several solvers (solver_options.h), defined in
// solver_input.cpp: --select (SelectOptions), --partitions
// (PartitionOptions), --gap-tol (GapTolOptions).
const OptionGroup* select_options();
const OptionGroup* partition_options();
const OptionGroup* gap_tol_options();

// The run's selection rule: --select, else the row's own (nullptr for a row
// that picks no coordinates).
const char* rule_name(const Params& params);

// The input of a solver of one model over all classes
// (SolverInfo::solve_all_classes). It returns the model's weights, as
// LinearModel::w holds them: x.num_cols rows (the bias column included) of
// nr_w = classes.labels.size() weights, row-major by feature.
struct MultiClassInput {
  const CscMatrix& x;
  const CsrMatrix* rows;  // x in row order, if the row needs_rows; else null
  const ClassMap& classes;
  // Each class's C (C times its -wi weight), in the order of classes.labels.
  const std::vector<double>& class_costs;
  // Rows to leave out (cross-validation's folds), or null.
  const std::vector<std::uint8_t>* held_out;
  // Instance weights s_i >= 0 (-W): row i's C is its class's times s_i, and
  // a row of weight 0 is left out as a held-out row is. Null: all 1.
  const std::vector<double>* weights;
  const Params& params;  // resolved
  std::uint64_t seed;
  Reporter& reporter;
};

// What every solver of one model over all classes starts from: the rows
// (input.rows, or the columns' transpose), and the rows that take part (not
// held out, weight above 0) in order, with each row's C_i (its class's C
// times its weight) and ||x_i||^2, both 0 for the rows left out.
struct AllClassesRows {
  std::optional<CsrMatrix> own;  // the transpose, when input.rows is null
  const CsrMatrix* x = nullptr;
  std::vector<std::size_t> rows;
  std::vector<double> cost;
  std::vector<double> norm2;
};
AllClassesRows all_classes_rows(const MultiClassInput& input);

// The selection rule of the run: --select if given, else the row's rule.
std::unique_ptr<SelectionRule> make_selection_rule(const SolverInput& input);

// The starting w: *w0, or zeros.
std::vector<double> starting_w(const SolverInput& input);

// The whole-vector objective of the run (TRON, newton): its loss, -R, -m's
// threads and -p.
std::unique_ptr<VectorObjective> make_vector_objective(const SolverInput& input);

// ---- entry points, one per algorithm ----
// The CD rows: L2-regularized classification here (solver_cd.cpp); an L1
// regularizer or a regression loss goes on to solve_cd_general
// (solver_cd_l1.cpp).
SolveResult solve_cd(const SolverInput& input);
SolveResult solve_cd_general(const SolverInput& input);
// The CD rows with cd_partitions(params, nnz) > 1: fixed blocks of features on
// -m's threads (solver_cd_partitioned.cpp).
SolveResult solve_cd_partitioned(const SolverInput& input);
// The blocks the CD rows run: with the columns spread over ranks
// (problem.share), the blocks they were spread by; else
// cd_partitions(params, problem.nnz()).
std::size_t cd_partitions(const Params& params, const Problem& problem);
// The `parts` fixed blocks of features of the partitioned CD, by --seed
// `seed` (the same blocks for every class of one-vs-rest and for any number
// of threads or ranks): the n features shuffled, then cut into runs of
// consecutive shuffled features of about equal weight, feature i weighing
// nonzeros(i) + 1 (its column's nonzeros). Each block lists its features in
// index order; blocks may be empty when parts > n.
std::vector<std::vector<std::uint32_t>> cd_feature_blocks(
    std::size_t n, const std::function<std::uint64_t(std::size_t)>& nonzeros, std::size_t parts,
    std::uint64_t seed);
SolveResult solve_cmls(const SolverInput& input);
SolveResult solve_tron(const SolverInput& input);
SolveResult solve_newton(const SolverInput& input);
SolveResult solve_pegasos(const SolverInput& input);
SolveResult solve_dcd(const SolverInput& input);
// Primal-dual CD (Fercoq & Bianchi) and random pair CD for the L1-SVM with an
// unregularized intercept (solver_pdcd.cpp, solver_rcd_pair.cpp); w gets
// n + 1 weights, w0 last.
SolveResult solve_pdcd(const SolverInput& input);
SolveResult solve_rcd_pair(const SolverInput& input);
// Dual CD for L1- and L2-loss SVR (solver_svr_dual.cpp).
SolveResult solve_svr_dual(const SolverInput& input);
// Dual CD for logistic regression (solver_lr_dual.cpp).
SolveResult solve_lr_dual(const SolverInput& input);
// The one-class SVM by dual CD on pairs (solver_oneclass.cpp); sets rho.
SolveResult solve_oneclass(const SolverInput& input);
// Crammer and Singer's multi-class SVM by the sequential dual method
// (solver_cs.cpp), one model over all classes.
std::vector<double> solve_cs(const MultiClassInput& input);
// Multinomial logistic regression (maximum entropy) by dual CD
// (solver_maxent.cpp), one model over all classes.
std::vector<double> solve_maxent(const MultiClassInput& input);

// ---- the algorithms, given their parts ----

// Coordinate descent with Newton steps and line search (solver_cd.cpp). Starts
// from the objective's current w.
SolveResult solve_cd(CoordinateObjective& objective, SelectionRule& rule, const Params& params,
                     Reporter& reporter);

// The same, compiled for the concrete objective of a margin loss, with no
// virtual call per coordinate and prefetching along the rule's batches (what
// the entry point runs; instantiated for L2SvmLoss and LogisticLoss).
template <class Loss>
SolveResult solve_cd(MarginObjective<Loss>& objective, SelectionRule& rule, const Params& params,
                     Reporter& reporter);

// The same for a regression loss (instantiated for SquaredLoss and SvrL2Loss).
template <class Loss>
SolveResult solve_cd(RegressionObjective<Loss>& objective, SelectionRule& rule,
                     const Params& params, Reporter& reporter);

// CD with an L1 regularizer (solver_cd_l1.cpp), from the objective's current
// w: stops when the L1 norm of the minimum-norm subgradient is at most eps
// times its value at the start; num_rows is the l of the shrinking threshold.
SolveResult solve_cd_l1(CoordinateObjective& objective, SelectionRule& rule, const Params& params,
                        const Regularizer& regularizer, double eps, std::size_t num_rows,
                        Reporter& reporter);

// Trust region Newton method (solver_tron.cpp), from w.
SolveResult solve_tron(VectorObjective& objective, std::vector<double> w, const Params& params,
                       Reporter& reporter);

// Line-search Newton method with preconditioned CG (solver_newton.cpp), from w.
SolveResult solve_newton(VectorObjective& objective, std::vector<double> w, const Params& params,
                         Reporter& reporter);

// CMLS, Zhang & Oles (2001), for L2-SVM (solver_cmls.cpp), from w.
SolveResult solve_cmls(const Problem& problem, std::vector<double> w, SelectionRule& rule,
                       const Params& params, Reporter& reporter);

// Pegasos for L1-SVM (solver_pegasos.cpp), from w = 0, drawing instances
// with `seed`.
SolveResult solve_pegasos(const Problem& problem, const Params& params, std::uint64_t seed,
                          Reporter& reporter);

// Dual coordinate descent for L1- and L2-SVM (solver_dcd.cpp), from
// alpha = 0, visiting the coordinates (instances) in the order of `rule`,
// whose coordinates are the problem's rows that count (C_j > 0), numbered in
// order. Uses problem.rows if set, else makes its own row-major copy.
SolveResult solve_dcd(const Problem& problem, LossKind loss, SelectionRule& rule,
                      const Params& params, Reporter& reporter);

// Dual CD's own options (solver_dcd.cpp, solver_dcd_adaptive.cpp,
// solver_dcd_partitioned.cpp).
struct DualOptions {
  // --shrink/--no-shrink (default on); set only when given, so that
  // validate() can refuse --shrink with a rule that reads the dual state.
  std::optional<bool> shrink;
  // --exact-gaps: with a rule that reads the margins, re-weigh every row a
  // step changes after each step (the papers' form), even where that costs
  // more than kStaleGapsRatio uniform epochs an epoch
  // (solver_dcd_adaptive.cpp).
  bool exact_gaps = false;
  // --fixed-parts: the parts keep the rows of the run's first cut in every
  // epoch (the cut cdtrain-mpi's ranks hold), in place of a new cut of the
  // rows every epoch.
  bool fixed_parts = false;
};
// Its groups: --shrink and --no-shrink, --exact-gaps, --fixed-parts.
const OptionGroup* shrink_options();
const OptionGroup* exact_gaps_options();
const OptionGroup* fixed_parts_options();

// Partitioned dual CD for L1- and L2-SVM (solver_dcd_partitioned.cpp), from
// alpha = 0: the rows that count cut into `partitions` parts by `seed`, the
// parts run on up to `threads` threads. The model depends on partitions and
// seed, not on threads. Uses problem.rows if set, else makes its own copy.
SolveResult solve_dcd_partitioned(const Problem& problem, LossKind loss, std::size_t partitions,
                                  std::uint64_t seed, unsigned threads, const Params& params,
                                  Reporter& reporter);

// The parts dcd runs (--partitions): PartitionOptions::count if given, else the
// default for the data's shape (dcd_partitions_default_text()); 1 with a
// --select rule other than perm; at most the rows that count (at least 1).
std::size_t dcd_partitions(const Params& params, std::size_t nonzeros, std::size_t rows_that_count);
std::size_t dcd_partitions(const Params& params, const Problem& problem);
// The default of --partitions in words, for -h.
std::string dcd_partitions_default_text();
// The order in which the partitioned dual CD cuts the `count` rows that
// count into parts, by --seed `seed`: the rows' numbers (in file order) in
// a shuffled order, part k being positions [first_of_run(count, k, P),
// first_of_run(count, k + 1, P)) (data/row_share.h).
std::vector<std::size_t> dcd_part_order(std::size_t count, std::uint64_t seed);

}  // namespace cdl

#endif  // CDL_SOLVER_H_
