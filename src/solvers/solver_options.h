// A solver's own options (σ and β of CD's line search, Pegasos's batch,
// pdcd's steps, dual CD's shrinking, ...), as option groups that the rows of
// the solver table own.
//
// A group is two things, each defined beside the solver that reads it:
// - a struct of its values with default member initialisers
//   (LineSearchOptions in solver_cd.h, say), kept in Params's type-keyed
//   store (OptionStore): Params::own<LineSearchOptions>() reads it;
// - an OptionGroup: its flags (name, argument, -h text, setter, whether a
//   run sets it, where -h shows it), the message that refuses it, and the
//   range checks of validate().
// A row lists the groups it takes (SolverInfo::options); cdtrain's flags,
// -h, the refusal of a group that a row does not take and validate()'s
// checks all come from the rows' groups. A solver with options of its own
// adds its struct and group beside its code and names the group in its row:
// no shared struct or flag table changes.
#ifndef CDL_SOLVERS_SOLVER_OPTIONS_H_
#define CDL_SOLVERS_SOLVER_OPTIONS_H_

#include <any>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <typeindex>
#include <vector>

#include "data/parse_number.h"

namespace cdl {

struct Params;

// One flag of a group.
struct OptionFlag {
  const char* flag;      // "--sigma"
  const char* argument;  // the -h name of its value; nullptr for a switch
  std::string help;      // -h's text
  // Sets the option from the flag's value ("" for a switch); throws
  // ConfigError naming the flag and the bad token.
  void (*set)(Params& params, const std::string& flag, const std::string& value);
  // Whether `params` sets the option: given, or away from its default.
  bool (*is_set)(const Params& params);
  // -h shows the flag right after this one (a run's flag or another group's).
  const char* after;
};

// The options a row takes together.
struct OptionGroup {
  // Names the group in messages and in docs/architecture.md: its first flag.
  const char* name;
  // What it does, for the message that refuses it to a row that does not
  // take it: "--beta sets CD's line search (Algorithm 2); solver ...".
  const char* purpose;
  std::vector<OptionFlag> flags;
  // validate()'s checks of the values (from an API caller; cdtrain's
  // setters check them already); throws ConfigError. May be null.
  void (*check)(const Params& params) = nullptr;
};

// The groups' value structs, keyed by their type: a run holds the ones it
// sets, and reading one it does not hold gives the struct's defaults.
class OptionStore {
 public:
  template <class Group>
  const Group& get() const {
    const auto it = groups_.find(std::type_index(typeid(Group)));
    if (it == groups_.end()) {
      static const Group defaults{};
      return defaults;
    }
    return *std::any_cast<Group>(&it->second);
  }
  template <class Group>
  Group& edit() {
    std::any& slot = groups_[std::type_index(typeid(Group))];
    if (!slot.has_value()) slot = Group{};
    return *std::any_cast<Group>(&slot);
  }

 private:
  std::map<std::type_index, std::any> groups_;
};

// The groups that several solvers read.

// --select: the coordinate selection rule; default: the row's own
// (rule_name() in solver.h).
struct SelectOptions {
  std::optional<std::string> rule;
};

// --partitions: the fixed blocks of one parallel solve (cdper: of the
// features; dcd: of the rows; tron, newton: of the rows in whose order X'u
// is added); the model depends on them, never on -m. Default per solver and
// data: SolverInfo::partitions.
struct PartitionOptions {
  std::optional<std::int64_t> count;
};

// --gap-tol. Dual CD: also stop once the duality gap is <= this; pdcd and
// rcd-pair: stop once their post-processed gap is <= this, in place of -e's
// relative gap.
struct GapTolOptions {
  std::optional<double> gap_tol;
};

// The strict number parsing of the setters (STYLE.md §2): the whole token
// must convert and be in range, and the message names the flag and the
// token: "-c: expected a positive number, got '-1'".
[[noreturn]] void bad_value(const std::string& flag, const std::string& expected,
                            const std::string& value);
double positive_number(const std::string& flag, const std::string& value);
// A number in the open interval (low, high).
double number_in(const std::string& flag, const std::string& value, double low, double high);
template <class Int>
Int integer_at_least(const std::string& flag, const std::string& value, Int low) {
  Int x{};
  if (!parse_integer(value, x) || x < low) {
    bad_value(flag, "an integer >= " + std::to_string(low), value);
  }
  return x;
}
// A number as -h shows it ("%g").
std::string show_number(double value);

}  // namespace cdl

#endif  // CDL_SOLVERS_SOLVER_OPTIONS_H_
