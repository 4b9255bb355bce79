// LIBLINEAR's -s numbers and what solves each here (liblinear_numbers.h).
// The choice of solver for 0 and 2 is measured (README, "LIBLINEAR's -s
// numbers"); the others name the one solver of this project meant for them.
#include "solvers/liblinear_numbers.h"

#include <algorithm>

#include "solvers/params.h"
#include "util/error.h"

namespace cdl {

const std::vector<LiblinearNumber>& liblinear_numbers() {
  static const std::vector<LiblinearNumber> table = {
      {0, "L2-regularized logistic regression (primal)", "tron", "lr", "l2", "L2R_LR"},
      {1, "L2-regularized L2-loss support vector classification (dual)", "dcd", "l2svm", "l2",
       "L2R_L2LOSS_SVC_DUAL"},
      {2, "L2-regularized L2-loss support vector classification (primal)", "tron", "l2svm", "l2",
       "L2R_L2LOSS_SVC"},
      {3, "L2-regularized L1-loss support vector classification (dual)", "dcd", "l1svm", "l2",
       "L2R_L1LOSS_SVC_DUAL"},
      {4, "support vector classification by Crammer and Singer", nullptr, nullptr, nullptr,
       "MCSVM_CS"},
      {5, "L1-regularized L2-loss support vector classification", "cdper", "l2svm", "l1",
       "L1R_L2LOSS_SVC"},
      {6, "L1-regularized logistic regression", "cdper", "lr", "l1", "L1R_LR"},
      {7, "L2-regularized logistic regression (dual)", nullptr, nullptr, nullptr, "L2R_LR_DUAL"},
      {11, "L2-regularized L2-loss support vector regression (primal)", "cdper", "svr2", "l2",
       "L2R_L2LOSS_SVR"},
      {12, "L2-regularized L2-loss support vector regression (dual)", nullptr, nullptr, nullptr,
       "L2R_L2LOSS_SVR_DUAL"},
      {13, "L2-regularized L1-loss support vector regression (dual)", nullptr, nullptr, nullptr,
       "L2R_L1LOSS_SVR_DUAL"},
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
  const std::string not_yet = "LIBLINEAR's -s " + std::to_string(number) + " (" + entry->problem +
                              ") is not solved by cdtrain yet";
  if (entry->solver == nullptr) throw ConfigError(not_yet);
  const SolverInfo* solver = find_solver(entry->solver);
  const LossInfo* loss = find_loss(entry->loss);
  const RegularizerInfo* regularizer = find_regularizer(entry->regularizer);
  if (solver == nullptr || loss == nullptr || regularizer == nullptr) throw ConfigError(not_yet);
  const auto& losses = solver->losses;
  const auto& regularizers = solver->regularizers;
  if (std::find(losses.begin(), losses.end(), loss->kind) == losses.end() ||
      std::find(regularizers.begin(), regularizers.end(), regularizer->kind) ==
          regularizers.end()) {
    throw ConfigError(not_yet);
  }
  return {entry, solver->kind, loss->kind, regularizer->kind};
}

}  // namespace cdl
