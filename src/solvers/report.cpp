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

std::string norm_text(const std::string& name, double value) {
  if (name.empty()) return "";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%s %.4e", name.c_str(), value);
  return buffer;
}

}  // namespace

std::string format_duration(double seconds) {
  char buffer[32];
  if (seconds < 1) {
    std::snprintf(buffer, sizeof buffer, "%.2fms", 1000 * seconds);
  } else {
    std::snprintf(buffer, sizeof buffer, "%.3fs", seconds);
  }
  return buffer;
}

std::unique_ptr<Reporter> Reporter::problem_reporter(std::size_t, std::ostream& log) {
  return std::make_unique<Reporter>(log, level_);
}

void Reporter::begin_problem(const Problem&, LossKind, int) {}

void Reporter::iteration(const IterationInfo& info) {
  if (level_ == Level::kQuiet) return;
  if (!std::isnan(info.gap)) {
    out_ << "iter " << info.iteration
         << format("  primal %.10e  dual %.10e  gap %.4e", info.primal, info.dual, info.gap)
         << "  time " << format_duration(info.seconds) << '\n';
    return;
  }
  char f[48];
  std::snprintf(f, sizeof f, "  f %.10e", info.objective);
  const std::string norm = norm_text(norm_name_, info.grad_norm);
  out_ << "iter " << info.iteration << f << (norm.empty() ? "" : "  ") << norm << "  time "
       << format_duration(info.seconds) << '\n';
}

void Reporter::summary(const std::string& solver_name, const SolveResult& result) {
  if (result.status == Status::kMaxIter) {
    warning(solver_name + " stopped at the iteration limit (" + std::to_string(result.iterations) +
            ") before the stopping tolerance was met; raise --max-iter or -e");
  } else if (result.status == Status::kLineSearchFailed) {
    warning(solver_name + ": " + status_name(result.status) + "; the model may be inaccurate");
  }
  if (level_ == Level::kQuiet) return;
  char f[48];
  std::snprintf(f, sizeof f, "f %.10e", result.objective);
  const std::string norm = norm_text(norm_name_, result.grad_norm);
  out_ << solver_name << ": " << result.iterations << " outer iterations, " << f
       << (norm.empty() ? "" : ", ") << norm << ", " << format_duration(result.seconds) << ", "
       << status_name(result.status) << '\n';
  const auto inner = static_cast<double>(result.inner_iterations);
  if (result.full_newton_steps > 0 || result.function_evaluations > 0) {
    out_ << "inner iterations " << result.inner_iterations
         << format(", full Newton steps %.3f%%, line-search evaluations %.0f (%.3f%%)",
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
