#include "train/relay_reporter.h"

namespace cdl {

RelayReporter::RelayReporter(std::ostream& out, Level level, Reporter& run, std::size_t problem)
    : Reporter(out, level), relay_(std::make_shared<Relay>()) {
  relay_->to = run.problem_reporter(problem, relay_->nowhere);
}

void RelayReporter::begin_problem(const Problem& problem, LossKind loss, int positive_label) {
  Reporter::begin_problem(problem, loss, positive_label);
  const std::lock_guard<std::mutex> lock(relay_->mutex);
  relay_->to->begin_problem(problem, loss, positive_label);
}

void RelayReporter::iteration(const IterationInfo& info) {
  Reporter::iteration(info);
  const std::lock_guard<std::mutex> lock(relay_->mutex);
  relay_->to->iteration(info);
}

std::unique_ptr<Reporter> RelayReporter::problem_reporter(std::size_t, std::ostream& log) {
  return std::make_unique<RelayReporter>(log, level_, relay_);
}

}  // namespace cdl
