#include "solvers/report.h"

#include <cmath>
#include <cstdio>
#include <ostream>

#include "solvers/solve_result.h"

namespace cdl {
namespace {

std::string format(const char* pattern, double a, double b, double c) {
  char buffer[160];
  std::snprintf(buffer, sizeof buffer, pattern, a, b, c);
  return buffer;
}

}  // namespace

void Reporter::begin_problem(const Problem&, LossKind, int) {}

void Reporter::iteration(const IterationInfo& info) {
  if (level_ == Level::kQuiet) return;
  if (!std::isnan(info.gap)) {
    out_ << "iter " << info.iteration
         << format("  primal %.10e  dual %.10e  gap %.4e", info.primal, info.dual, info.gap)
         << format("  time %.3fs", info.seconds, 0, 0) << '\n';
    return;
  }
  out_ << "iter " << info.iteration
       << format("  f %.10e  |g| %.4e  time %.3fs", info.objective, info.grad_norm, info.seconds)
       << '\n';
}

void Reporter::summary(const std::string& solver_name, const SolveResult& result) {
  if (result.status == Status::kMaxIter) {
    warning(solver_name + " stopped at the iteration limit (" + std::to_string(result.iterations) +
            ") before the stopping tolerance was met; raise --max-iter or -e");
  } else if (result.status == Status::kLineSearchFailed) {
    warning(solver_name + ": " + status_name(result.status) + "; the model may be inaccurate");
  }
  if (level_ == Level::kQuiet) return;
  out_ << solver_name << ": " << result.iterations << " outer iterations, "
       << format("f %.10e, |g| %.4e, %.3fs", result.objective, result.grad_norm, result.seconds)
       << ", " << status_name(result.status) << '\n';
  const auto inner = static_cast<double>(result.inner_iterations);
  if (result.full_newton_steps > 0 || result.function_evaluations > 0) {
    out_ << "inner iterations " << result.inner_iterations
         << format(", full Newton steps %.3f%%, D(lambda d) evaluated %.0f times (%.3f%%)",
                   100.0 * static_cast<double>(result.full_newton_steps) / inner,
                   static_cast<double>(result.function_evaluations),
                   100.0 * static_cast<double>(result.function_evaluations) / inner)
         << '\n';
  } else if (result.inner_iterations > 0) {
    out_ << "inner iterations " << result.inner_iterations << '\n';
  }
}

void Reporter::warning(const std::string& message) { out_ << "warning: " << message << '\n'; }

void Reporter::info(const std::string& message) {
  if (level_ != Level::kQuiet) out_ << message << '\n';
}

}  // namespace cdl
