// LIBLINEAR's -s numbers (LIBLINEAR 2.3's README, "-s type"): each number is
// a problem (a loss, a regularizer, primal or dual), which cdtrain solves with
// the solver it measured best for it. The table names that solver, loss and
// regularizer as strings and resolves them in the solver, loss and
// regularizer tables at run time, so that a number whose solver, loss or
// regularizer this build lacks (or whose solver's row does not list them) is
// refused with the problem named, and starts working once they are added.
//
// The paper's algorithms and ours are chosen by name (`-s cdper`); a number
// always means LIBLINEAR's problem.
#ifndef CDL_SOLVERS_LIBLINEAR_NUMBERS_H_
#define CDL_SOLVERS_LIBLINEAR_NUMBERS_H_

#include <string>
#include <vector>

#include "objective/loss.h"
#include "objective/regularizer.h"
#include "solvers/solver_table.h"

namespace cdl {

struct LiblinearNumber {
  int number;           // LIBLINEAR's -s
  const char* problem;  // LIBLINEAR's description of it
  // Our solver, loss and regularizer for it, by name; solver nullptr: none
  // planned (the number is refused).
  const char* solver;
  const char* loss;
  const char* regularizer;
  const char* solver_type;  // what LIBLINEAR writes in the model for it
};

const std::vector<LiblinearNumber>& liblinear_numbers();
// nullptr if LIBLINEAR has no such number.
const LiblinearNumber* find_liblinear_number(int number);

// A number resolved to this build's tables.
struct ResolvedNumber {
  const LiblinearNumber* entry;
  SolverKind solver;
  LossKind loss;
  RegularizerKind regularizer;
};

// Throws ConfigError: for a number LIBLINEAR lacks, and "LIBLINEAR's -s N
// (<problem>) is not solved by cdtrain yet" for one whose solver, loss or
// regularizer this build lacks.
ResolvedNumber resolve_liblinear_number(int number);

// "0-7, 11-13": the numbers LIBLINEAR has, for messages.
std::string liblinear_number_list();

}  // namespace cdl

#endif  // CDL_SOLVERS_LIBLINEAR_NUMBERS_H_
