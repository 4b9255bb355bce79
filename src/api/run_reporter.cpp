#include "api/run_reporter.h"

#include <utility>

namespace cdlinear {

namespace {

// One class's reporter on a thread of its own: prints into its log and
// hands its result to the run's reporter.
class ProblemReporter : public cdl::Reporter {
 public:
  ProblemReporter(RunReporter& run, std::size_t problem, std::ostream& log)
      : Reporter(log, run.level()), run_(run), problem_(problem) {}
  void summary(const std::string& solver_name, const cdl::SolveResult& result) override {
    Reporter::summary(solver_name, result);
    run_.record(problem_, result);
  }

 private:
  RunReporter& run_;
  std::size_t problem_;
};

}  // namespace

RunReporter::RunReporter(std::ostream* progress)
    : Reporter(progress != nullptr ? *progress : discard,
               progress != nullptr ? Level::kNormal : Level::kQuiet) {}

void RunReporter::summary(const std::string& solver_name, const cdl::SolveResult& result) {
  Reporter::summary(solver_name, result);
  std::size_t problem = 0;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    problem = next_++;
  }
  record(problem, result);
}

std::unique_ptr<cdl::Reporter> RunReporter::problem_reporter(std::size_t problem,
                                                             std::ostream& log) {
  return std::make_unique<ProblemReporter>(*this, problem, log);
}

void RunReporter::record(std::size_t problem, const cdl::SolveResult& result) {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (iterations_.size() <= problem) {
    iterations_.resize(problem + 1, 0);
    objectives_.resize(problem + 1, 0);
  }
  iterations_[problem] = result.iterations;
  objectives_[problem] = result.objective;
}

std::vector<std::int64_t> RunReporter::iterations() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return iterations_;
}

std::vector<double> RunReporter::objectives() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return objectives_;
}

}  // namespace cdlinear
