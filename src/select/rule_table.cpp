// The --select table. Adding a rule: its own file, and one row here.
#include <memory>

#include "select/cyclic_order.h"
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
         return std::make_unique<PermutationOrder>(c.num_coordinates, c.seed, true);
       }},
      {"perm-once", "one random permutation, drawn once", true,
       [](const RuleContext& c) -> std::unique_ptr<SelectionRule> {
         return std::make_unique<PermutationOrder>(c.num_coordinates, c.seed, false);
       }},
      {"uniform", "n uniform draws with replacement per epoch", true,
       [](const RuleContext& c) -> std::unique_ptr<SelectionRule> {
         return std::make_unique<RandomOrder>(c.num_coordinates, c.seed);
       }},
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

std::unique_ptr<SelectionRule> make_rule(const std::string& name, const RuleContext& context) {
  const RuleInfo* rule = find_rule(name);
  if (rule == nullptr) throw Error("unknown selection rule '" + name + "'");
  return rule->make(context);
}

}  // namespace cdl
