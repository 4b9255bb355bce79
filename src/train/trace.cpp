#include "train/trace.h"

#include <cassert>
#include <cstdio>
#include <sstream>

#include "objective/dual_gap.h"
#include "objective/evaluate.h"
#include "objective/intercept_gap.h"

namespace cdl {
namespace {

std::ostringstream& quiet_sink() {
  static std::ostringstream sink;
  return sink;
}

// accuracy() for w = (w, w0), x without a bias column.
double intercept_accuracy(const CscMatrix& x, const std::vector<double>& y,
                          const std::vector<double>& w) {
  std::vector<double> decision = decision_values(x, w);
  std::size_t correct = 0;
  for (std::size_t j = 0; j < decision.size(); ++j) {
    correct += ((decision[j] + w.back()) > 0 ? 1.0 : -1.0) == y[j];
  }
  return decision.empty() ? 0.0
                          : static_cast<double>(correct) / static_cast<double>(decision.size());
}

}  // namespace

TraceReporter::TraceReporter(Reporter& inner, const std::string& path, const TestSet* test,
                             bool multiclass, const Regularizer& regularizer, bool dual_columns,
                             bool intercept_columns, double svr_epsilon, bool lasso_gap)
    : Reporter(quiet_sink(), Level::kQuiet),
      inner_(inner),
      out_(path),
      test_(test),
      multiclass_(multiclass),
      regularizer_(regularizer),
      dual_columns_(dual_columns),
      intercept_columns_(intercept_columns),
      svr_epsilon_(svr_epsilon),
      lasso_gap_(lasso_gap) {
  std::string header = multiclass_ ? "class\t" : "";
  header += "iteration\tseconds\tobjective\tgrad_f_norm";
  // For more than two classes each row's accuracy is its one-vs-rest
  // problem's (sign(w'x) against "this class or not"), so named.
  if (test_ != nullptr) header += multiclass_ ? "\tovr_test_accuracy" : "\ttest_accuracy";
  if (dual_columns_) header += "\tprimal\tdual\tgap\tnnz_ops";
  if (intercept_columns_) header += dual_columns_ ? "\tintercept_gap" : "\tprimal\tdual\tgap";
  if (lasso_gap_) header += "\tduality_gap";
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
  const Evaluation exact = info.intercept
                               ? Evaluation{intercept_primal(*problem_, *info.w),
                                            intercept_subgradient_norm(*problem_, *info.w)}
                               : evaluate(*problem_, loss_, *info.w, regularizer_, svr_epsilon_);
  char buffer[160];
  std::string row = multiclass_ ? std::to_string(positive_label_) + "\t" : "";
  std::snprintf(buffer, sizeof buffer, "%lld\t%.6f\t%.12g\t%.6g",
                static_cast<long long>(info.iteration), info.seconds, exact.objective,
                exact.gradient_norm);
  row += buffer;
  if (test_ != nullptr) {
    const double correct = info.intercept ? intercept_accuracy(test_->x, test_y_, *info.w)
                                          : accuracy(test_->x, test_y_, *info.w);
    std::snprintf(buffer, sizeof buffer, "\t%.4f", 100.0 * correct);
    row += buffer;
  }
  if (dual_columns_) {
    assert(info.alpha != nullptr);
    const DualGap gap = duality_gap(*problem_, loss_, *info.alpha, *info.w);
    std::snprintf(buffer, sizeof buffer, "\t%.12g\t%.12g\t%.6g\t%lld", gap.primal, gap.dual,
                  gap.gap, static_cast<long long>(info.nnz_ops));
    row += buffer;
  }
  if (intercept_columns_ && dual_columns_) {
    std::snprintf(buffer, sizeof buffer, "\t%.12g", post_process(*problem_, *info.alpha).gap);
    row += buffer;
  } else if (intercept_columns_) {
    std::snprintf(buffer, sizeof buffer, "\t%.12g\t%.12g\t%.12g", info.primal, info.dual, info.gap);
    row += buffer;
  }
  if (lasso_gap_) {
    std::snprintf(buffer, sizeof buffer, "\t%.12g", lasso_duality_gap(*problem_, *info.w));
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
