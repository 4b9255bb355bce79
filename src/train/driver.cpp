#include "train/driver.h"

#include <chrono>
#include <cstdio>

#include "objective/loss.h"
#include "train/run_output.h"

namespace cdl {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The run after the data are read and checked: the header, then the search,
// the cross validation or the training, and the results.
void dispatch(const RunRequest& request, const Params& params, RunSource& source,
              Reporter& reporter) {
  const std::string& tool = source.tool();
  const bool prints = source.prints();
  const bool regression = !has_classes(params.loss.value());
  const std::string folds = std::to_string(params.cv_folds) + "-fold cross validation";
  const std::optional<double> start =
      request.cost_given ? std::optional<double>(params.C) : std::nullopt;
  if (request.find_C && regression) {
    const bool with_p = is_svr(params.loss.value());
    reporter.info(tool + ": searching C" + (with_p ? " and p" : "") + " by " + folds +
                  source.describe(params));
    const RegressionSearch best =
        source.search_regression(params, start, reporter, [&](double C, double p, double mse) {
          if (prints) print_regression_step(C, p, mse, with_p);
        });
    if (prints) print_regression_search_result(params, best, reporter);
  } else if (request.find_C) {
    reporter.info(tool + ": searching C by " + folds + source.describe(params));
    const CSearch best = source.search_C(params, start, reporter, [&](double C, double accuracy) {
      if (prints) print_search_step(C, accuracy);
    });
    if (prints) print_search_result(tool, params, best, reporter);
  } else if (params.cv_folds > 0) {
    reporter.info(tool + ": " + folds + source.describe(params));
    if (regression) {
      const RegressionValidation cv = source.cross_validate_regression(params, reporter);
      if (prints) print_regression_validation(params, cv);
    } else {
      const double accuracy = source.cross_validate(params, reporter);
      if (prints) print_validation(params, accuracy);
    }
  } else {
    const std::string layout = source.share_for_training(params);
    reporter.info(tool + ": training" + source.describe(params) + layout);
    source.train_and_save(request, params, reporter);
  }
}

}  // namespace

bool shape_chooses(const RunRequest& request) {
  return request.initial_model.empty() && solver_by_shape(request.params);
}

void run_request(const RunRequest& request, RunSource& source, std::ostream& progress) {
  Params params = resolve_defaults(request.params);
  validate(params);
  source.check_request(request, params);
  const Clock::time_point start = Clock::now();
  const DataShape shape = source.read(request, params);
  const bool chosen = shape_chooses(request);
  if (chosen) {
    params = resolve_defaults(choose_solver_by_shape(request.params, shape));
    validate(params);
  }
  source.lay_out(request, params, chosen);
  const double reading_seconds = seconds_since(start);
  // The process that does not print has its warnings, the same, go nowhere.
  std::ostream nowhere(nullptr);
  const bool prints = source.prints();
  Reporter reporter(prints ? progress : nowhere,
                    prints && !params.quiet ? Reporter::Level::kNormal : Reporter::Level::kQuiet);
  const Clock::time_point training_start = Clock::now();
  source.check_data(request, params, reporter);
  dispatch(request, params, source, reporter);
  std::fflush(stdout);
  reporter.info(total_time_line(request, params, seconds_since(start), reading_seconds,
                                seconds_since(training_start), source.training_name(),
                                source.traffic(params)));
}

}  // namespace cdl
