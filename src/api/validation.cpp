// cross_validate() and search_C() of cdlinear.h: cdtrain's -v and -C on
// the core's cross validation and searches, with each instance's
// prediction by the model of its fold.
#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "api/internal.h"
#include "api/run_reporter.h"
#include "cdlinear.h"
#include "train/cross_validation.h"
#include "train/train_regression.h"

namespace cdlinear {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

void check_folds(int folds) {
  if (folds < 2) {
    throw ConfigError("folds: cross validation needs at least 2 folds, got " +
                      std::to_string(folds));
  }
}

void check_has_folds(const PreparedRun& run, const char* what) {
  if (cdl::is_one_class(run.params.loss.value())) {
    throw ConfigError(std::string(what) +
                      ": the one-class SVM is not cross-validated; train a model and score it");
  }
}

CrossValidation classification_folds(const PreparedRun& run, cdl::Reporter& reporter) {
  const cdl::CscMatrix& x = run.x();
  const cdl::CrossValidation cv =
      cdl::cross_validate(cdl::DataMatrix{&x, nullptr, run.weights}, run.classes, run.params,
                          reporter, nullptr, true, false);
  CrossValidation out;
  out.accuracy = cv.accuracy;
  out.mean_squared_error = kNaN;
  out.squared_correlation = kNaN;
  out.predictions.assign(cv.predicted.begin(), cv.predicted.end());
  return out;
}

CrossValidation regression_folds(const PreparedRun& run, cdl::Reporter& reporter) {
  const cdl::RegressionValidation cv = cdl::cross_validate_regression(
      run.x(), run.data->csc.labels, run.params, reporter, run.weights, nullptr, false, true);
  CrossValidation out;
  out.accuracy = kNaN;
  out.mean_squared_error = cv.mean_squared_error;
  out.squared_correlation = cv.squared_correlation;
  out.predictions = cv.predicted;
  return out;
}

// The search of search_C() on a prepared run: each step to `step_done`,
// the best into `out`.
void search_steps(const PreparedRun& run, std::optional<double> start_C, RunReporter& reporter,
                  const std::function<void(const Search::Step&)>& step_done, Search& out) {
  const cdl::CscMatrix& x = run.x();
  if (run.has_classes()) {
    const double start = start_C ? *start_C : cdl::search_start_C(x, run.params.loss.value());
    const cdl::CSearch best =
        cdl::search_C(cdl::DataMatrix{&x, nullptr, run.weights}, run.classes, run.params, start,
                      reporter, [&](double C, double accuracy) {
                        step_done({C, -1, accuracy});
                      });
    out.best_C = best.best_C;
    out.best_score = best.best_accuracy;
    return;
  }
  const cdl::RegressionSearch best = cdl::search_regression(
      x, run.data->csc.labels, run.params, start_C, reporter,
      [&](double C, double p, double mse) {
        step_done({C, p, mse});
      },
      run.weights);
  out.best_C = best.best_C;
  out.best_p = best.best_p;
  out.best_score = best.best_mean_squared_error;
}

}  // namespace

CrossValidation cross_validate(const Data& data, int folds, const TrainOptions& options) {
  return translating_errors([&] {
    check_folds(folds);
    RunReporter reporter(options);
    const PreparedRun run = prepare_run(Access::of(data), options, folds, false, reporter);
    check_has_folds(run, "cross_validate");
    return run.has_classes() ? classification_folds(run, reporter)
                             : regression_folds(run, reporter);
  });
}

Search search_C(const Data& data, int folds, const TrainOptions& options,
                std::optional<double> start_C) {
  return translating_errors([&] {
    if (folds == 0) folds = 5;
    check_folds(folds);
    if (start_C && (!(*start_C > 0) || !std::isfinite(*start_C))) {
      throw ConfigError("start_C: expected a positive number");
    }
    RunReporter reporter(options);
    TrainOptions searched = options;
    searched.C = start_C.value_or(TrainOptions{}.C);  // cdtrain's -c, or its default
    const PreparedRun run = prepare_run(Access::of(data), searched, folds, true, reporter);
    check_has_folds(run, "search_C");
    Search out;
    // Records a step; then a cancel ends the search, naming the steps done.
    const auto steps_done = [&] {
      return "search cancelled after " + std::to_string(out.steps.size()) +
             (out.steps.size() == 1 ? " step" : " steps") +
             (out.steps.empty() ? "" : ", the last at C = " + show(out.steps.back().C));
    };
    bool in_step = true;
    const auto step_done = [&](const Search::Step& step) {
      out.steps.push_back(step);
      in_step = false;
      reporter.check_cancel(steps_done());
      in_step = true;
    };
    // A step's folds stop as training does (the flag, or the callback's
    // false); the search names the steps done.
    try {
      search_steps(run, start_C, reporter, step_done, out);
    } catch (const Cancelled&) {
      if (!in_step) throw;
      throw Cancelled(out.steps.empty() ? "search cancelled in its first step"
                                        : steps_done() + ", in the next");
    }
    return out;
  });
}

}  // namespace cdlinear
