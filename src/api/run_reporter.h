// The Reporter of a training run through cdlinear.h: prints where
// TrainOptions::progress says (or nowhere), and records each problem's
// outer iterations and final objective for Model::iterations() and
// objectives(), also from the threads that train one-vs-rest classes.
#ifndef CDL_API_RUN_REPORTER_H_
#define CDL_API_RUN_REPORTER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <vector>

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
  // `progress` null: prints nothing (warnings neither).
  explicit RunReporter(std::ostream* progress);

  // Records the result as the next problem's (the problems of a run on
  // this thread come in order).
  void summary(const std::string& solver_name, const cdl::SolveResult& result) override;
  std::unique_ptr<cdl::Reporter> problem_reporter(std::size_t problem, std::ostream& log) override;

  // Problem `problem`'s result; safe from any thread.
  void record(std::size_t problem, const cdl::SolveResult& result);

  // One per problem recorded, in problem order.
  std::vector<std::int64_t> iterations() const;
  std::vector<double> objectives() const;

 private:
  mutable std::mutex mutex_;
  std::size_t next_ = 0;
  std::vector<std::int64_t> iterations_;
  std::vector<double> objectives_;
};

}  // namespace cdlinear

#endif  // CDL_API_RUN_REPORTER_H_
