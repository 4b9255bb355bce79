// The one clock and report of every solver's outer loop.
//
// The clock counts solver work only: it runs from construction, and between
// pause() and report() it stands still while the solver computes what only
// the report needs (f(w), a materialized w) and while the Reporter prints or
// writes its trace. Reading, writing and trace work are thus never counted,
// and the seconds of successive reports never decrease.
//
//   Progress progress(reporter);
//   while (...) {
//     ... one outer iteration ...
//     progress.pause();
//     progress.report(iteration, objective.value(), grad_norm, &w);
//   }
//   result.seconds = progress.seconds();
#ifndef CDL_SOLVERS_PROGRESS_H_
#define CDL_SOLVERS_PROGRESS_H_

#include <chrono>
#include <cstdint>
#include <vector>

#include "solvers/report.h"

namespace cdl {

class Progress {
 public:
  explicit Progress(Reporter& reporter) : reporter_(reporter), start_(Clock::now()) {}

  // Stops the clock (idempotent).
  void pause() {
    if (running_) seconds_ += std::chrono::duration<double>(Clock::now() - start_).count();
    running_ = false;
  }
  // Restarts the clock after pause() (idempotent): for solver work done
  // between a pause and the report.
  void resume() {
    if (!running_) start_ = Clock::now();
    running_ = true;
  }
  // Reports an outer iteration with the time so far, then restarts the clock.
  void report(std::int64_t iteration, double objective, double grad_norm,
              const std::vector<double>* w) {
    pause();
    reporter_.iteration({iteration, objective, grad_norm, seconds_, w});
    running_ = true;
    start_ = Clock::now();
  }
  // The same with every field of `info` but seconds given (solvers that
  // add alpha and nnz_ops, or the duality gap); `info.seconds` is set here.
  void report(IterationInfo info) {
    pause();
    info.seconds = seconds_;
    reporter_.iteration(info);
    running_ = true;
    start_ = Clock::now();
  }
  // The solver time so far; stops the clock.
  double seconds() {
    pause();
    return seconds_;
  }
  bool wants_w() const { return reporter_.wants_w(); }

 private:
  using Clock = std::chrono::steady_clock;
  Reporter& reporter_;
  Clock::time_point start_;
  double seconds_ = 0;
  bool running_ = true;
};

}  // namespace cdl

#endif  // CDL_SOLVERS_PROGRESS_H_
