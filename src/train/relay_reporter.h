// The reporter of a fold of cross validation (and of a step of a search):
// it prints into the fold's own log at the fold's own level, as a plain
// Reporter, and relays each problem's start and each outer iteration to the
// run's reporter, through the reporter that the run's problem_reporter()
// gives for the fold. The library's reporter (api/run_reporter.h) calls its
// progress callback and polls its cancel flag there, so that a cross
// validation or a search stops as training does; a plain Reporter's
// problem_reporter() prints, and what it is relayed goes nowhere.
#ifndef CDL_TRAIN_RELAY_REPORTER_H_
#define CDL_TRAIN_RELAY_REPORTER_H_

#include <cstddef>
#include <memory>
#include <mutex>
#include <ostream>
#include <utility>

#include "solvers/report.h"

namespace cdl {

class RelayReporter : public Reporter {
 public:
  // Prints into `out` at `level`; relays to run.problem_reporter(problem).
  RelayReporter(std::ostream& out, Level level, Reporter& run, std::size_t problem);

  void begin_problem(const Problem& problem, LossKind loss, int positive_label) override;
  void iteration(const IterationInfo& info) override;
  // A one-vs-rest class of the fold on a thread of its own: prints into
  // `log` at this level and relays to the same reporter (one call at a
  // time).
  std::unique_ptr<Reporter> problem_reporter(std::size_t problem, std::ostream& log) override;

 private:
  // The reporter relayed to, which the fold's classes share.
  struct Relay {
    std::mutex mutex;
    std::ostream nowhere{nullptr};  // what the relayed reporter prints
    std::unique_ptr<Reporter> to;
  };

 public:
  // A class's reporter (problem_reporter()): the fold's relay.
  RelayReporter(std::ostream& out, Level level, std::shared_ptr<Relay> relay)
      : Reporter(out, level), relay_(std::move(relay)) {}

 private:
  std::shared_ptr<Relay> relay_;
};

}  // namespace cdl

#endif  // CDL_TRAIN_RELAY_REPORTER_H_
