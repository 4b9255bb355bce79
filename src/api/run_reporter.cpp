#include "api/run_reporter.h"

#include <exception>
#include <string>
#include <utility>

namespace cdlinear {

namespace {

// One class's reporter on a thread of its own: prints into its log and
// hands its iterations and result to the run's reporter.
class ProblemReporter : public cdl::Reporter {
 public:
  ProblemReporter(RunReporter& run, std::size_t problem, std::ostream& log)
      : Reporter(log, run.level()), run_(run), problem_(problem) {}
  // A class not yet started when training stopped does not start.
  void begin_problem(const cdl::Problem& problem, cdl::LossKind loss, int label) override {
    Reporter::begin_problem(problem, loss, label);
    run_.check_stopped("before one-vs-rest problem " + std::to_string(problem_) + " started");
  }
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
    // Another thread may have stopped the run since the check above.
    if (!stopped_) {
      try {
        if (!on_iteration_(progress)) stopped_ = true;
      } catch (...) {
        error_ = std::current_exception();
        stopped_ = true;
        throw;
      }
    }
  }
  check_stopped("after outer iteration " + std::to_string(info.iteration));
}

void RunReporter::check_stopped(const std::string& when) {
  if (!stopped_ && (cancel_ == nullptr || !cancel_->load())) return;
  stopped_ = true;
  std::exception_ptr error;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    error = error_;
  }
  // The other classes end with the callback's exception, so that train()
  // throws it whichever class ends first.
  if (error) std::rethrow_exception(error);
  throw Cancelled("training cancelled " + when);
}

void RunReporter::check_cancel(const std::string& message) {
  if (cancel_ != nullptr && cancel_->load()) throw Cancelled(message);
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
