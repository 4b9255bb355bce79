#include "train/run_output.h"

#include <cmath>
#include <cstdio>

namespace cdl {

std::string summary_prefix(const Params& params) {
  Params named = params;
  named.choice.reason.clear();
  return describe_run(named) + ": ";
}

void print_search_step(double C, double accuracy) {
  std::printf("log2c=%7.2f\trate=%g\n", std::log2(C), 100.0 * accuracy);
  std::fflush(stdout);
}

void print_search_result(const std::string& tool, const Params& params, const CSearch& best,
                         Reporter& reporter) {
  if (best.stopped_unchanged) {
    std::fflush(stdout);
    char last[32];
    std::snprintf(last, sizeof last, "%g", best.last_C);
    reporter.info(tool + ": no fold's model changed at the last " +
                  std::to_string(kSearchUnchangedStop) +
                  " values of C; the search stops at C = " + last + ", as LIBLINEAR's does");
  }
  if (best.best_C >= kMaxSearchC * (1 - 1e-12)) {
    std::fflush(stdout);
    reporter.warning("the best C is the largest the search tries (" +
                     std::to_string(static_cast<int>(kMaxSearchC)) +
                     "); the search stopped there, and a larger C might do better");
  }
  std::printf("%sBest C = %g  CV accuracy = %g%%\n", summary_prefix(params).c_str(), best.best_C,
              100.0 * best.best_accuracy);
}

void print_validation(const Params& params, double accuracy) {
  std::printf("%sCross Validation Accuracy = %g%%\n", summary_prefix(params).c_str(),
              100.0 * accuracy);
}

std::string total_time_line(const RunRequest& request, const Params& params, double total,
                            double reading, double work, const std::string& training,
                            const std::string& more) {
  return "total time " + format_duration(total) + ": reading " + format_duration(reading) + ", " +
         (request.find_C        ? "searching C"
          : params.cv_folds > 0 ? "cross validation"
                                : training) +
         " " + format_duration(work) + (more.empty() ? "" : "; " + more);
}

void print_regression_validation(const Params& params, const RegressionValidation& cv) {
  const std::string prefix = summary_prefix(params);
  std::printf("%sCross Validation Mean squared error = %g\n", prefix.c_str(),
              cv.mean_squared_error);
  std::printf("%sCross Validation Squared correlation coefficient = %g\n", prefix.c_str(),
              cv.squared_correlation);
}

void print_regression_step(double C, double p, double mse, bool with_p) {
  if (with_p) {
    std::printf("log2c=%7.2f\tp=%7.2f\tMean squared error=%g\n", std::log2(C), p, mse);
  } else {
    std::printf("log2c=%7.2f\tMean squared error=%g\n", std::log2(C), mse);
  }
  std::fflush(stdout);
}

void print_regression_search_result(const Params& params, const RegressionSearch& best,
                                    Reporter& reporter) {
  if (best.best_at_max_C) {
    std::fflush(stdout);
    reporter.warning("the best C is the largest the search tries (" +
                     std::to_string(static_cast<long>(kMaxRegressionSearchC)) +
                     "); the search stopped there, and a larger C might do better");
  }
  const std::string prefix = summary_prefix(params);
  if (best.best_p >= 0) {
    std::printf("%sBest C = %g Best p = %g  CV MSE = %g\n", prefix.c_str(), best.best_C,
                best.best_p, best.best_mean_squared_error);
  } else {
    std::printf("%sBest C = %g  CV MSE = %g\n", prefix.c_str(), best.best_C,
                best.best_mean_squared_error);
  }
}

}  // namespace cdl
