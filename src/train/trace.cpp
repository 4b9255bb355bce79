#include "train/trace.h"

#include <cassert>
#include <cstdio>
#include <sstream>

#include "objective/evaluate.h"

namespace cdl {
namespace {

std::ostringstream& quiet_sink() {
  static std::ostringstream sink;
  return sink;
}

}  // namespace

TraceReporter::TraceReporter(Reporter& inner, const std::string& path, const TestSet* test,
                             bool multiclass, const Regularizer& regularizer)
    : Reporter(quiet_sink(), Level::kQuiet),
      inner_(inner),
      out_(path),
      test_(test),
      multiclass_(multiclass),
      regularizer_(regularizer) {
  std::string header = multiclass_ ? "class\t" : "";
  header += "iteration\tseconds\tobjective\tgrad_f_norm";
  // For more than two classes each row's accuracy is its one-vs-rest
  // problem's (sign(w'x) against "this class or not"), so named.
  if (test_ != nullptr) header += multiclass_ ? "\tovr_test_accuracy" : "\ttest_accuracy";
  out_.write(header + "\n");
}

void TraceReporter::begin_problem(const Problem& problem, LossKind loss, int positive_label) {
  problem_ = &problem;
  loss_ = loss;
  positive_label_ = positive_label;
  if (test_ != nullptr) {
    test_y_.clear();
    for (double label : test_->labels) test_y_.push_back(label == positive_label ? 1.0 : -1.0);
  }
  inner_.begin_problem(problem, loss, positive_label);
}

void TraceReporter::iteration(const IterationInfo& info) {
  assert(problem_ != nullptr && info.w != nullptr);
  const Evaluation exact = evaluate(*problem_, loss_, *info.w, regularizer_);
  char buffer[160];
  std::string row = multiclass_ ? std::to_string(positive_label_) + "\t" : "";
  std::snprintf(buffer, sizeof buffer, "%lld\t%.6f\t%.12g\t%.6g",
                static_cast<long long>(info.iteration), info.seconds, exact.objective,
                exact.gradient_norm);
  row += buffer;
  if (test_ != nullptr) {
    std::snprintf(buffer, sizeof buffer, "\t%.4f", 100.0 * accuracy(test_->x, test_y_, *info.w));
    row += buffer;
  }
  out_.write(row + "\n");
  inner_.iteration(info);
}

void TraceReporter::summary(const std::string& solver_name, const SolveResult& result) {
  inner_.summary(solver_name, result);
}

void TraceReporter::warning(const std::string& message) { inner_.warning(message); }

void TraceReporter::info(const std::string& message) { inner_.info(message); }

void TraceReporter::model_accuracy(double accuracy) {
  char buffer[96];
  std::snprintf(buffer, sizeof buffer, "# multi-class test accuracy\t%.4f\n", 100.0 * accuracy);
  out_.write(buffer);
  std::snprintf(buffer, sizeof buffer, "multi-class test accuracy %.4f%%", 100.0 * accuracy);
  inner_.info(buffer);
}

void TraceReporter::set_norm_name(const std::string& name) {
  Reporter::set_norm_name(name);
  inner_.set_norm_name(name);
}

}  // namespace cdl
