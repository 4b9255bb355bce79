#include "api/run_reporter.h"

#include <utility>

namespace cdlinear {

namespace {

// One class's reporter on a thread of its own: prints into its log and
// hands its iterations and result to the run's reporter.
class ProblemReporter : public cdl::Reporter {
 public:
  ProblemReporter(RunReporter& run, std::size_t problem, std::ostream& log)
      : Reporter(log, run.level()), run_(run), problem_(problem) {}
  void iteration(const cdl::IterationInfo& info) override {
    Reporter::iteration(info);
    run_.poll(problem_, info);
  }
  void summary(const std::string& solver_name, const cdl::SolveResult& result) override {
    Reporter::summary(solver_name, result);
    run_.record(problem_, result);
  }

 private:
  RunReporter& run_;
  std::size_t problem_;
};

}  // namespace

RunReporter::RunReporter(const TrainOptions& options)
    : Reporter(
          options.progress != nullptr ? *options.progress : discard,
          options.progress != nullptr || options.on_iteration ? Level::kNormal : Level::kQuiet),
      cancel_(options.cancel),
      on_iteration_(options.on_iteration) {}

void RunReporter::iteration(const cdl::IterationInfo& info) {
  Reporter::iteration(info);
  std::size_t problem = 0;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    problem = next_;
  }
  poll(problem, info);
}

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

void RunReporter::poll(std::size_t problem, const cdl::IterationInfo& info) {
  if (on_iteration_ && !stopped_) {
    IterationProgress progress;
    progress.problem = problem;
    progress.iteration = info.iteration;
    progress.objective = info.objective;
    progress.grad_norm = info.grad_norm;
    progress.seconds = info.seconds;
    const std::lock_guard<std::mutex> lock(mutex_);
    if (!on_iteration_(progress)) stopped_ = true;
  }
  if (stopped_ || (cancel_ != nullptr && cancel_->load())) {
    stopped_ = true;
    throw Cancelled("training cancelled after outer iteration " + std::to_string(info.iteration));
  }
}

void RunReporter::check_cancel() {
  if (cancel_ != nullptr && cancel_->load()) throw Cancelled("search cancelled");
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
