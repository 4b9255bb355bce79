// Progress and summary output of the solvers.
//
// Solvers call the Reporter they are given; there is no global print hook.
// Progress goes to the stream given at construction (stderr in the tools);
// results such as accuracy are the tools' business and go to stdout.
// Subclasses can capture iterations (tests, traces).
#ifndef CDL_REPORT_H_
#define CDL_REPORT_H_

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "objective/loss.h"

namespace cdl {

struct Problem;
struct SolveResult;

struct IterationInfo {
  std::int64_t iteration;  // outer iteration, from 1
  double objective;        // f(w) after it; NaN where dcd skips it (quiet, no trace)
  double grad_norm;        // the stopping rule's gradient norm after it (CD: stored D')
  double seconds;          // cumulative training time, without reporting
  // w after the iteration; always set, except by Pegasos when wants_w() is
  // false (it keeps w in a scaled form).
  const std::vector<double>* w = nullptr;
  // Solvers with an unregularized intercept (SolverInfo::intercept): w holds
  // n + 1 weights, w0 last, and objective is P(w, w0) (intercept_gap.h).
  bool intercept = false;
  // The post-processed primal, dual and duality gap (intercept_gap.h) of the
  // solvers that compute them every outer iteration; NaN otherwise.
  double primal = std::numeric_limits<double>::quiet_NaN();
  double dual = std::numeric_limits<double>::quiet_NaN();
  double gap = std::numeric_limits<double>::quiet_NaN();
  // Dual solvers (dcd): the dual point alpha (one per instance) whose w is
  // the above, and the nonzeros touched by coordinate steps so far; null
  // and 0 for the primal solvers.
  const std::vector<double>* alpha = nullptr;
  std::int64_t nnz_ops = 0;
};

class Reporter {
 public:
  enum class Level { kQuiet, kNormal };

  Reporter(std::ostream& out, Level level) : out_(out), level_(level) {}
  virtual ~Reporter() = default;

  // Called by train() before each binary problem: the problem, its loss and
  // the label of its positive class.
  virtual void begin_problem(const Problem& problem, LossKind loss, int positive_label);
  virtual void iteration(const IterationInfo& info);
  // Whether iteration() needs IterationInfo::w even where it costs O(n).
  virtual bool wants_w() const { return false; }
  // Whether it does more with these calls than print them (a trace, a
  // test's recorder). train() then trains the classes of a one-vs-rest
  // model one after another on the calling thread, so that it sees every
  // call in order; a reporter that only prints lets them run on threads,
  // each printing into a log of its own, which train() passes on in order.
  virtual bool observes_iterations() const { return false; }
  // Whether begin_problem()'s Problem must hold columns (the trace's
  // evaluations read them); train() then gives the solver columns too.
  virtual bool needs_columns() const { return false; }
  virtual void summary(const std::string& solver_name, const SolveResult& result);
  // The reporter of one-vs-rest problem `problem` (0-based, in label
  // order) when train() trains the classes on threads: it prints into
  // `log`, which train() passes on in order, and is called from the
  // problem's thread. This one is a plain Reporter at this level; a
  // subclass may return one that also hands results back to it.
  virtual std::unique_ptr<Reporter> problem_reporter(std::size_t problem, std::ostream& log);
  // Warnings are printed at every level.
  virtual void warning(const std::string& message);
  virtual void info(const std::string& message);

  // The name of IterationInfo::grad_norm and SolveResult::grad_norm for the
  // solver about to run: "|D'|" (CD, CMLS: the stored partial derivatives
  // the stopping rule tests), "|grad f|" (TRON: the true gradient), or ""
  // for a solver that has no gradient norm (Pegasos), whose lines print none.
  // train_binary() sets it from the solver's row.
  virtual void set_norm_name(const std::string& name) { norm_name_ = name; }
  const std::string& norm_name() const { return norm_name_; }

  Level level() const { return level_; }
  std::ostream& stream() { return out_; }

 protected:
  std::ostream& out_;
  Level level_;
  std::string norm_name_ = "|D'|";
};

// "12.3ms" below a second, "4.567s" above: progress times.
std::string format_duration(double seconds);

}  // namespace cdl

#endif  // CDL_REPORT_H_
