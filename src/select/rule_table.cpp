// The --select table. Adding a rule: its own file, and one row here.
#include <memory>

#include "select/cyclic_order.h"
#include "select/dual_rules.h"
#include "select/lasso_rules.h"
#include "select/permutation_order.h"
#include "select/random_order.h"
#include "select/selection_rule.h"
#include "util/error.h"

namespace cdl {

const std::vector<RuleInfo>& rule_table() {
  static const std::vector<RuleInfo> table = {
      {"cyclic", "0, 1, ..., n-1 in every epoch", false,
       [](const RuleContext& c) -> std::unique_ptr<SelectionRule> {
         return std::make_unique<CyclicOrder>(c.num_coordinates);
       }},
      {"perm", "a new random permutation every epoch", true,
       [](const RuleContext& c) -> std::unique_ptr<SelectionRule> {
         return std::make_unique<PermutationOrder>(c.num_coordinates, c.seed, true, c.spare_thread);
       }},
      {"perm-once", "one random permutation, drawn once", true,
       [](const RuleContext& c) -> std::unique_ptr<SelectionRule> {
         return std::make_unique<PermutationOrder>(c.num_coordinates, c.seed, false);
       }},
      {"uniform", "n uniform draws with replacement per epoch", true,
       [](const RuleContext& c) -> std::unique_ptr<SelectionRule> {
         return std::make_unique<RandomOrder>(c.num_coordinates, c.seed);
       }},
      {"importance", "n draws per epoch, p_i ~ L_i ||x_i|| (dual) or ||column i|| (primal)", true,
       make_importance_rule, kAnyCoordinates, DualNeeds::kState},
      {"support-uniform", "uniform over {i : kappa_i != 0}, every step (Perekrestenko (16))", true,
       make_support_uniform_rule, kDualCoordinates, DualNeeds::kMargins,
       make_lasso_support_uniform_rule},
      {"adaptive", "p_i ~ |kappa_i| ||x_i||, every step (Perekrestenko (17))", true,
       make_adaptive_rule, kDualCoordinates, DualNeeds::kMargins, make_lasso_adaptive_rule},
      {"ada-uniform", "half support-uniform, half adaptive, every step (Perekrestenko (18))", true,
       make_ada_uniform_rule, kDualCoordinates, DualNeeds::kMargins, make_lasso_ada_uniform_rule},
      {"ada-gap", "p_i = G_i / G, every step (Perekrestenko Theorem 3.7)", true, make_ada_gap_rule,
       kDualCoordinates, DualNeeds::kMargins, make_lasso_ada_gap_rule},
      {"gap-per-epoch", "p_i = G_i / G, fixed for each epoch (Perekrestenko 3.4)", true,
       make_gap_per_epoch_rule, kDualCoordinates, DualNeeds::kState, make_lasso_gap_per_epoch_rule},
      {"gs-s", "greedy: largest |projected gradient| (primer (18))", false, make_gs_s_rule,
       kDualCoordinates, DualNeeds::kMargins, make_lasso_gs_s_rule},
      {"gs-r", "greedy: largest clipped Newton step |d_i| (primer (19))", false, make_gs_r_rule,
       kDualCoordinates, DualNeeds::kMargins, make_lasso_gs_r_rule},
      {"gs-q", "greedy: largest decrease of the dual objective (primer (20))", false,
       make_gs_q_rule, kDualCoordinates, DualNeeds::kMargins, make_lasso_gs_q_rule},
  };
  return table;
}

const RuleInfo* find_rule(const std::string& name) {
  for (const RuleInfo& rule : rule_table()) {
    if (name == rule.name) return &rule;
  }
  return nullptr;
}

std::string rule_choices() {
  std::string out;
  const auto& table = rule_table();
  for (std::size_t k = 0; k < table.size(); ++k) {
    if (k > 0) out += k + 1 == table.size() ? " or " : ", ";
    out += table[k].name;
  }
  return out;
}

std::string rule_choices(unsigned kind) {
  std::vector<const char*> names;
  for (const RuleInfo& rule : rule_table()) {
    if (rule.applies_to(kind)) names.push_back(rule.name);
  }
  std::string out;
  for (std::size_t k = 0; k < names.size(); ++k) {
    if (k > 0) out += k + 1 == names.size() ? " or " : ", ";
    out += names[k];
  }
  return out;
}

std::unique_ptr<SelectionRule> make_rule(const std::string& name, const RuleContext& context) {
  const RuleInfo* rule = find_rule(name);
  if (rule == nullptr) throw Error("unknown selection rule '" + name + "'");
  if (context.lasso != nullptr && rule->make_lasso != nullptr) return rule->make_lasso(context);
  return rule->make(context);
}

}  // namespace cdl
