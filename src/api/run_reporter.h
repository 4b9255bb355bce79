// The Reporter of a training run through cdlinear.h: prints where
// TrainOptions::progress says (or nowhere); records each problem's outer
// iterations and final objective for Model::iterations() and objectives();
// and after each outer iteration calls TrainOptions::on_iteration and polls
// TrainOptions::cancel, also from the threads that train one-vs-rest
// classes.
#ifndef CDL_API_RUN_REPORTER_H_
#define CDL_API_RUN_REPORTER_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <vector>

#include "cdlinear.h"
#include "solvers/report.h"
#include "solvers/solve_result.h"

namespace cdlinear {

// Holds the stream that discards, so that it exists before the Reporter
// that may write to it.
struct DiscardStream {
  std::ostream discard{nullptr};
};

class RunReporter : private DiscardStream, public cdl::Reporter {
 public:
  // Prints to options.progress (null: nowhere, warnings neither). With an
  // on_iteration callback the level is normal, so that the solvers compute
  // the objective it is given.
  explicit RunReporter(const TrainOptions& options);

  void iteration(const cdl::IterationInfo& info) override;
  // Records the result as the next problem's (the problems of a run on
  // this thread come in order).
  void summary(const std::string& solver_name, const cdl::SolveResult& result) override;
  std::unique_ptr<cdl::Reporter> problem_reporter(std::size_t problem, std::ostream& log) override;

  // Problem `problem`'s result; safe from any thread.
  void record(std::size_t problem, const cdl::SolveResult& result);
  // Problem `problem` finished an outer iteration: calls on_iteration, and
  // throws Cancelled if it or the cancel flag asks to stop. Any thread.
  void poll(std::size_t problem, const cdl::IterationInfo& info);
  // Throws Cancelled if the cancel flag is set (the search's steps).
  void check_cancel();

  // One per problem recorded, in problem order.
  std::vector<std::int64_t> iterations() const;
  std::vector<double> objectives() const;

 private:
  const std::atomic<bool>* cancel_;
  std::function<bool(const IterationProgress&)> on_iteration_;
  std::atomic<bool> stopped_{false};  // a callback asked to stop
  mutable std::mutex mutex_;
  std::size_t next_ = 0;
  std::vector<std::int64_t> iterations_;
  std::vector<double> objectives_;
};

}  // namespace cdlinear

#endif  // CDL_API_RUN_REPORTER_H_
