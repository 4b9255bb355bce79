// --trace: one tab-separated row per outer iteration of every binary problem,
//
//   [class]  iteration  seconds  objective  grad_f_norm  [test_accuracy]
//
// under a header row. seconds is the solver's cumulative training time, which
// excludes reading, writing and the trace's own work; objective and
// grad_f_norm are f(w) and ||grad f(w)|| (the true gradient, which the screen
// calls |grad f|; CD's screen |D'| is another quantity) recomputed from
// scratch for the w of that iteration (evaluate.h), not the solver's running
// values. With a test set, test_accuracy is the accuracy of sign(w'x) on it
// for the binary problem (for two classes, the model's test accuracy). For
// more than two classes a class column, the positive label of each
// one-vs-rest problem, comes first, the accuracy column is called
// ovr_test_accuracy (its one-vs-rest problem's), and model_accuracy() adds
// the multi-class model's as a last "# multi-class test accuracy" line.
// For a dual solver (dual_columns), four more columns follow:
//
//   primal  dual  gap  nnz_ops
//
// P(w), D(alpha) and P - D recomputed from scratch for that iteration's
// alpha and w (objective/dual_gap.h), and the solver's count of nonzeros
// touched by coordinate steps so far (the cost axis of Perekrestenko, Cevher
// & Jaggi 2017, Figure 2). //
// For a solver with an unregularized intercept (SolverInfo::intercept;
// intercept_columns), objective and grad_f_norm are P(w, w0) and its
// subgradient norm over (w, w0) (intercept_gap.h), the test accuracy counts
// w0, and three more columns follow: primal, dual and gap, the
// post-processed duality gap the solver computed for its stopping rule
// (primal equals objective: the solver reports the post-processed point).
// A dual solver of the L1-SVM given intercept_columns adds one column to its
// four, intercept_gap: the post-processed gap of its alpha for the problem
// with an unregularized intercept (Fercoq & Bianchi's Figure 2 measures
// SDCA so). The file is written atomically by commit().
#ifndef CDL_TRACE_H_
#define CDL_TRACE_H_

#include <string>
#include <vector>

#include "data/sparse_matrix.h"
#include "objective/regularizer.h"
#include "solvers/report.h"
#include "util/atomic_file.h"

namespace cdl {

struct TestSet {
  const CscMatrix& x;                 // same columns as the training data, bias included
  const std::vector<double>& labels;  // the file's labels
};

class TraceReporter final : public Reporter {
 public:
  // Every call is passed on to `inner` as well. `test` may be null.
  // `regularizer` is the run's, for the objective and gradient columns.
  // svr_epsilon is the svr2 loss's tube width, for a regression's columns;
  // lasso_gap adds the column duality_gap, lasso_duality_gap() (evaluate.h)
  // of each iteration's w, for a Lasso run (-r l1 -l sq) from w = 0.
  TraceReporter(Reporter& inner, const std::string& path, const TestSet* test, bool multiclass,
                const Regularizer& regularizer = Regularizer::l2_only(), bool dual_columns = false,
                bool intercept_columns = false, double svr_epsilon = SvrL2Loss{}.epsilon,
                bool lasso_gap = false);

  void begin_problem(const Problem& problem, LossKind loss, int positive_label) override;
  void iteration(const IterationInfo& info) override;
  void summary(const std::string& solver_name, const SolveResult& result) override;
  void warning(const std::string& message) override;
  void info(const std::string& message) override;
  void set_norm_name(const std::string& name) override;
  bool wants_w() const override { return true; }
  bool observes_iterations() const override { return true; }
  bool needs_columns() const override { return true; }

  // The multi-class model's test accuracy, after training: a last comment
  // line in the file, and a line of progress.
  void model_accuracy(double accuracy);

  // Writes the file into place; throws IoError.
  void finish() { out_.finish(); }  // see AtomicFileWriter
  void commit() { out_.commit(); }

 private:
  Reporter& inner_;
  AtomicFileWriter out_;
  const TestSet* test_;
  bool multiclass_;
  Regularizer regularizer_;
  bool dual_columns_;
  bool intercept_columns_;
  double svr_epsilon_;  // the svr2 loss's -p, for a regression's columns
  bool lasso_gap_;
  const Problem* problem_ = nullptr;
  LossKind loss_ = LossKind::kL2Svm;
  int positive_label_ = 0;
  std::vector<double> test_y_;  // +1 for the positive class, -1 otherwise
};

}  // namespace cdl

#endif  // CDL_TRACE_H_
