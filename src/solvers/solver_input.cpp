#include "select/selection_rule.h"
#include "solvers/solver.h"
#include "util/parallel.h"

namespace cdl {

std::unique_ptr<SelectionRule> make_selection_rule(const SolverInput& input) {
  const SolverInfo& row = solver_info(input.params.solver);
  const std::string rule = input.params.select ? *input.params.select : row.rule;
  RuleContext context{input.problem.num_features(), input.seed,
                      input.problem.has_columns() ? &input.problem.x() : nullptr};
  context.spare_thread = input.params.threads != 1 && hardware_threads() > 1;
  if (is_lasso(input.params)) {
    context.lasso = &input.problem;
    context.w0 = input.w0;
  }
  return make_rule(rule, context);
}

std::vector<double> starting_w(const SolverInput& input) {
  return input.w0 != nullptr ? *input.w0 : std::vector<double>(input.problem.num_features(), 0.0);
}

}  // namespace cdl
