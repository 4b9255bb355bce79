// LIBLINEAR's catalogue of -s numbers (liblinear_numbers.h).
#include "solvers/liblinear_numbers.h"

#include "solvers/params.h"
#include "util/error.h"

namespace cdl {

const std::vector<LiblinearNumber>& liblinear_numbers() {
  static const std::vector<LiblinearNumber> table = {
      {0, "L2-regularized logistic regression (primal)", "L2R_LR"},
      {1, "L2-regularized L2-loss support vector classification (dual)", "L2R_L2LOSS_SVC_DUAL"},
      {2, "L2-regularized L2-loss support vector classification (primal)", "L2R_L2LOSS_SVC"},
      {3, "L2-regularized L1-loss support vector classification (dual)", "L2R_L1LOSS_SVC_DUAL"},
      {4, "support vector classification by Crammer and Singer", "MCSVM_CS"},
      {5, "L1-regularized L2-loss support vector classification", "L1R_L2LOSS_SVC"},
      {6, "L1-regularized logistic regression", "L1R_LR"},
      {7, "L2-regularized logistic regression (dual)", "L2R_LR_DUAL"},
      {11, "L2-regularized L2-loss support vector regression (primal)", "L2R_L2LOSS_SVR"},
      {12, "L2-regularized L2-loss support vector regression (dual)", "L2R_L2LOSS_SVR_DUAL"},
      {13, "L2-regularized L1-loss support vector regression (dual)", "L2R_L1LOSS_SVR_DUAL"},
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

}  // namespace cdl
