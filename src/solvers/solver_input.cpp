#include "select/selection_rule.h"
#include "solvers/solver.h"
#include "util/error.h"
#include "util/parallel.h"

namespace cdl {

std::unique_ptr<SelectionRule> make_selection_rule(const SolverInput& input) {
  const std::string rule = rule_name(input.params);
  RuleContext context{input.problem.num_features(), input.seed,
                      input.problem.has_columns() ? &input.problem.x() : nullptr};
  context.spare_thread = input.params.threads != 1 && hardware_threads() > 1;
  if (is_lasso(input.params)) {
    context.lasso = &input.problem;
    context.w0 = input.w0;
    context.lasso_free_bias = input.params.free_bias;
  }
  return make_rule(rule, context);
}

AllClassesRows all_classes_rows(const MultiClassInput& input) {
  AllClassesRows out;
  if (input.rows == nullptr) out.own = to_csr(input.x);
  out.x = input.rows != nullptr ? input.rows : &*out.own;
  const CsrMatrix& x = *out.x;
  out.cost.assign(x.num_rows, 0.0);
  out.norm2.assign(x.num_rows, 0.0);
  for (std::size_t i = 0; i < x.num_rows; ++i) {
    if (input.held_out != nullptr && (*input.held_out)[i] != 0) continue;
    const double weight = input.weights != nullptr ? (*input.weights)[i] : 1.0;
    if (!(weight > 0)) continue;
    out.cost[i] = input.class_costs[input.classes.class_of[i]] * weight;
    out.norm2[i] = row_squared_norm(x, i);
    out.rows.push_back(i);
  }
  return out;
}

std::vector<double> starting_w(const SolverInput& input) {
  return input.w0 != nullptr ? *input.w0 : std::vector<double>(input.problem.num_features(), 0.0);
}

std::unique_ptr<VectorObjective> make_vector_objective(const SolverInput& input) {
  const Regularizer regularizer = regularizer_of(input.params, input.problem.num_features());
  return make_vector_objective(
      input.params.loss.value(), input.problem, regularizer, thread_count(input.params),
      input.params.svr_epsilon.value_or(kDefaultSvrEpsilon),
      static_cast<std::size_t>(input.params.own<PartitionOptions>().count.value_or(0)));
}

const char* rule_name(const Params& params) {
  const auto& rule = params.own<SelectOptions>().rule;
  return rule ? rule->c_str() : solver_info(params.solver).rule;
}

const OptionGroup* select_options() {
  static const OptionGroup group{
      "--select",
      "picks the coordinates of a CD algorithm",
      {{"--select", "rule",
        "coordinate selection rule of the CD algorithms: " + rule_choices() +
            " (default: the solver's own, see the table below)",
        [](Params& params, const std::string& flag, const std::string& value) {
          if (find_rule(value) == nullptr) bad_value(flag, "one of " + rule_choices(), value);
          params.own<SelectOptions>().rule = value;
        },
        [](const Params& params) { return params.own<SelectOptions>().rule.has_value(); }, "-p"}}};
  return &group;
}

const OptionGroup* partition_options() {
  static const OptionGroup group{
      "--partitions",
      "splits one solve into fixed blocks",
      {{"--partitions", "P",
        "split one solve into P fixed blocks that run at once on -m's threads: cdper's features "
        "(default " +
            cd_partitions_default_text() + "), dcd's rows (default " +
            dcd_partitions_default_text() +
            "), tron's and newton's rows, in whose order "
            "X'u is added (default 1 to 8 by the data's size; cdtrain-mpi's ranks share them); 1 "
            "to " +
            std::to_string(kMaxPartitions) +
            ", 1 is the serial algorithm; the model depends on P, never on -m",
        [](Params& params, const std::string& flag, const std::string& value) {
          std::int64_t parts = 0;
          if (!parse_integer(value, parts) || parts < 1 || parts > kMaxPartitions) {
            bad_value(flag, "an integer from 1 to " + std::to_string(kMaxPartitions), value);
          }
          params.own<PartitionOptions>().count = parts;
        },
        [](const Params& params) { return params.own<PartitionOptions>().count.has_value(); },
        "--gap-tol"}},
      [](const Params& params) {
        const auto& parts = params.own<PartitionOptions>().count;
        if (parts && (*parts < 1 || *parts > kMaxPartitions)) {
          throw ConfigError("--partitions must be from 1 to " + std::to_string(kMaxPartitions));
        }
      }};
  return &group;
}

const OptionGroup* gap_tol_options() {
  static const OptionGroup group{
      "--gap-tol",
      "stops on the duality gap",
      {{"--gap-tol", "G",
        "dual solvers (dcd): also stop when the duality gap P(w) - D(alpha) is <= G, checked "
        "after each epoch; pdcd, rcd-pair: stop when their post-processed gap is <= G (in place "
        "of -e's relative gap)",
        [](Params& params, const std::string& flag, const std::string& value) {
          params.own<GapTolOptions>().gap_tol = positive_number(flag, value);
        },
        [](const Params& params) { return params.own<GapTolOptions>().gap_tol.has_value(); },
        "--exact-gaps"}},
      [](const Params& params) {
        const auto& gap_tol = params.own<GapTolOptions>().gap_tol;
        if (gap_tol && !(*gap_tol > 0)) throw ConfigError("--gap-tol must be positive");
      }};
  return &group;
}

}  // namespace cdl
