#include "solvers/primal_rule.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "objective/vector_math.h"
#include "solvers/solver_table.h"

namespace cdl {

const SolverInfo* primal_on_wide_data(const Params& params) {
  if (!params.choice.liblinear_number) return nullptr;
  for (const SolverInfo& row : solver_table()) {
    const auto& numbers = row.wide_data_numbers;
    if (std::find(numbers.begin(), numbers.end(), *params.choice.liblinear_number) !=
        numbers.end()) {
      return &row;
    }
  }
  return nullptr;
}

bool stops_by_primal_rule(const Params& params) {
  const SolverInfo* row = primal_on_wide_data(params);
  return row != nullptr && params.solver == row->kind;
}

PrimalRule::PrimalRule(const Problem& problem, const Params& params, unsigned threads,
                       Reporter& reporter)
    : objective_(make_vector_objective(params.loss.value(), problem,
                                       regularizer_of(params, problem.num_features()), threads,
                                       params.svr_epsilon.value_or(kDefaultSvrEpsilon))),
      reporter_(reporter),
      number_(params.choice.liblinear_number.value_or(0)),
      target_(params.eps.value() * objective_->gradient_norm_at_zero()) {}

bool PrimalRule::passes(std::int64_t epoch, const std::vector<double>& w) {
  objective_->evaluate(w);
  objective_->gradient(gradient_);
  const double norm = norm2(gradient_);
  char line[112];
  std::snprintf(line, sizeof line, "after epoch %lld: |grad f| %.4e, -s %d stops at %.4e",
                static_cast<long long>(epoch), norm, number_, target_);
  reporter_.info(line);
  if (norm <= target_) return true;
  std::int64_t wait = 1;
  if (last_epoch_ > 0 && norm < last_norm_ && target_ > 0) {
    const double rate = std::pow(norm / last_norm_, 1.0 / static_cast<double>(epoch - last_epoch_));
    const double needed = std::ceil(std::log(target_ / norm) / std::log(rate));
    if (needed > 1) wait = static_cast<std::int64_t>(std::min(needed, static_cast<double>(epoch)));
  }
  last_epoch_ = epoch;
  last_norm_ = norm;
  next_ = epoch + wait;
  return false;
}

}  // namespace cdl
