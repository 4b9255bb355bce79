// LIBLINEAR's catalogue of -s numbers (liblinear_numbers.h).
#include "solvers/liblinear_numbers.h"

#include "solvers/params.h"
#include "util/error.h"

namespace cdl {

const std::vector<LiblinearNumber>& liblinear_numbers() {
  static const std::vector<LiblinearNumber> table = {
      {0, "L2-regularized logistic regression (primal)"},
      {1, "L2-regularized L2-loss support vector classification (dual)"},
      {2, "L2-regularized L2-loss support vector classification (primal)"},
      {3, "L2-regularized L1-loss support vector classification (dual)"},
      {4, "support vector classification by Crammer and Singer"},
      {5, "L1-regularized L2-loss support vector classification"},
      {6, "L1-regularized logistic regression"},
      {7, "L2-regularized logistic regression (dual)"},
      {11, "L2-regularized L2-loss support vector regression (primal)"},
      {12, "L2-regularized L2-loss support vector regression (dual)"},
      {13, "L2-regularized L1-loss support vector regression (dual)"},
      {21, "one-class support vector machine"},
  };
  return table;
}

const LiblinearNumber* find_liblinear_number(int number) {
  for (const LiblinearNumber& entry : liblinear_numbers()) {
    if (entry.number == number) return &entry;
  }
  return nullptr;
}

std::string liblinear_number_list() {
  std::string out;
  const auto& table = liblinear_numbers();
  std::size_t k = 0;
  while (k < table.size()) {
    std::size_t end = k + 1;
    while (end < table.size() && table[end].number == table[end - 1].number + 1) ++end;
    if (!out.empty()) out += ", ";
    out += std::to_string(table[k].number);
    if (end - k > 1) out += "-" + std::to_string(table[end - 1].number);
    k = end;
  }
  return out;
}

ResolvedNumber resolve_liblinear_number(int number) {
  const LiblinearNumber* entry = find_liblinear_number(number);
  if (entry == nullptr) {
    throw ConfigError("-s " + std::to_string(number) + ": LIBLINEAR has no solver " +
                      std::to_string(number) + " (its numbers are " + liblinear_number_list() +
                      "); cdtrain's own solvers go by name (cdtrain -h)");
  }
  for (const SolverInfo& row : solver_table()) {
    for (const LiblinearProblem& problem : row.liblinear) {
      if (problem.number == number) return {entry, row.kind, problem.loss, problem.regularizer};
    }
  }
  throw ConfigError("LIBLINEAR's -s " + std::to_string(number) + " (" + entry->problem +
                    ") is not solved by cdtrain yet");
}

void apply_liblinear_number(Params& params, bool regularizer_given,
                            const NumberSpelling& spelling) {
  if (!params.choice.liblinear_number) return;
  const int number = *params.choice.liblinear_number;
  const ResolvedNumber resolved = resolve_liblinear_number(number);
  const std::string what = std::string(spelling.number) + " " + std::to_string(number) +
                           " is LIBLINEAR's " + resolved.entry->problem;
  const auto hint = [&](const char* flag) {
    return spelling.hint ? "; drop " + std::string(flag) + ", or choose a solver by name"
                         : std::string();
  };
  if (params.loss && *params.loss != resolved.loss) {
    throw ConfigError(std::string(spelling.loss) + " " + loss_info(*params.loss).name + ": " +
                      what + ", whose loss is " + loss_info(resolved.loss).name +
                      hint(spelling.loss));
  }
  if (regularizer_given && params.regularizer != resolved.regularizer) {
    throw ConfigError(std::string(spelling.regularizer) + " " +
                      regularizer_info(params.regularizer).name + ": " + what +
                      ", whose regularizer is " + regularizer_info(resolved.regularizer).name +
                      hint(spelling.regularizer));
  }
  params.solver = resolved.solver;
  params.loss = resolved.loss;
  params.regularizer = resolved.regularizer;
}

}  // namespace cdl
