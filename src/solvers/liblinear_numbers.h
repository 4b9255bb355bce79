// LIBLINEAR's -s numbers (LIBLINEAR 2.50's README, "-s type"): its catalogue of
// problems (a loss, a regularizer, primal or dual). Which solver of ours
// trains a number is said by that solver's row (SolverInfo::liblinear), and
// so is the model type it writes (SolverInfo::model_types), so that a
// number no row lists is refused with its problem named, and starts working
// once a row lists it.
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
struct Params;
}

namespace cdl {

struct LiblinearNumber {
  int number;           // LIBLINEAR's -s
  const char* problem;  // LIBLINEAR's description of it
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

// LIBLINEAR's -s 2 and -s 11, the primal L2-SVM and L2-loss SVR: their
// stopping rule is on the primal gradient whichever solver runs them (dual
// CD on wide data, choose_solver_by_shape in params.h and primal_rule.h;
// newton and tron otherwise).
constexpr int kPrimalL2SvmNumber = 2;
constexpr int kPrimalSvrNumber = 11;

// Throws ConfigError: for a number LIBLINEAR lacks, and "LIBLINEAR's -s N
// (<problem>) is not solved by cdtrain yet" for one that no row lists.
ResolvedNumber resolve_liblinear_number(int number);

// How a caller spells the number, the loss and the regularizer in its
// messages: "-s", "-l" and "-r" for cdtrain, with the hint to drop the flag.
struct NumberSpelling {
  const char* number;
  const char* loss;
  const char* regularizer;
  bool hint = false;  // add "; drop -l, or choose a solver by name"
};

// -s N: sets the solver, loss and regularizer of LIBLINEAR's problem N
// (params.choice.liblinear_number; nothing if unset). A loss given that says
// otherwise is a ConfigError, and so is a regularizer given
// (`regularizer_given`: l2 is also the default) that says otherwise.
void apply_liblinear_number(Params& params, bool regularizer_given, const NumberSpelling& spelling);

// "0-7, 11-13, 21": the numbers LIBLINEAR has, for messages.
std::string liblinear_number_list();

}  // namespace cdl

#endif  // CDL_SOLVERS_LIBLINEAR_NUMBERS_H_
