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

std::unique_ptr<VectorObjective> make_vector_objective(const SolverInput& input) {
  const Regularizer regularizer = regularizer_of(input.params, input.problem.num_features());
  return make_vector_objective(input.params.loss.value(), input.problem, regularizer,
                               thread_count(input.params),
                               input.params.svr_epsilon.value_or(kDefaultSvrEpsilon),
                               static_cast<std::size_t>(input.params.partitions.value_or(0)));
}

}  // namespace cdl
