// Progress and summary output of the solvers.
//
// Solvers call the Reporter they are given; there is no global print hook.
// Progress goes to the stream given at construction (stderr in the tools);
// results such as accuracy are the tools' business and go to stdout.
// Subclasses can capture iterations (tests, traces).
#ifndef CDL_REPORT_H_
#define CDL_REPORT_H_

#include <cstdint>
#include <iosfwd>
#include <string>

namespace cdl {

struct SolveResult;

struct IterationInfo {
  std::int64_t iteration;  // outer iteration, from 1
  double objective;        // f(w) after it
  double grad_norm;        // the stopping rule's gradient norm after it
  double seconds;          // cumulative training time
};

class Reporter {
 public:
  enum class Level { kQuiet, kNormal };

  Reporter(std::ostream& out, Level level) : out_(out), level_(level) {}
  virtual ~Reporter() = default;

  virtual void iteration(const IterationInfo& info);
  virtual void summary(const std::string& solver_name, const SolveResult& result);
  // Warnings are printed at every level.
  virtual void warning(const std::string& message);
  void info(const std::string& message);

 protected:
  std::ostream& out_;
  Level level_;
};

}  // namespace cdl

#endif  // CDL_REPORT_H_
