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
// the multi-class model's as a last "# multi-class test accuracy" line. The
// file is written atomically by commit().
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
  TraceReporter(Reporter& inner, const std::string& path, const TestSet* test, bool multiclass,
                const Regularizer& regularizer = Regularizer::l2_only());

  void begin_problem(const Problem& problem, LossKind loss, int positive_label) override;
  void iteration(const IterationInfo& info) override;
  void summary(const std::string& solver_name, const SolveResult& result) override;
  void warning(const std::string& message) override;
  void info(const std::string& message) override;
  void set_norm_name(const std::string& name) override;
  bool wants_w() const override { return true; }

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
  const Problem* problem_ = nullptr;
  LossKind loss_ = LossKind::kL2Svm;
  int positive_label_ = 0;
  std::vector<double> test_y_;  // +1 for the positive class, -1 otherwise
};

}  // namespace cdl

#endif  // CDL_TRACE_H_
