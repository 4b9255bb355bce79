#include "cli.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>

#include "data/parse_number.h"
#include "select/selection_rule.h"
#include "solvers/liblinear_numbers.h"
#include "solvers/solver.h"
#include "solvers/solver_options.h"
#include "util/error.h"
#include "version.h"

namespace cdl {
namespace {

// A file name given as an option value or operand: an empty one is a usage
// error rather than a file that cannot be opened (or an option quietly off).
std::string file_name(const std::string& what, const std::string& value) {
  if (value.empty()) throw ConfigError(what + ": empty file name");
  return value;
}

// Operands after the first that look like options are options typed after
// the files, which would otherwise become files of those names.
void check_no_option_among(const std::vector<std::string>& operands) {
  for (std::size_t k = 1; k < operands.size(); ++k) {
    const std::string& value = operands[k];
    if (value.size() > 1 && value[0] == '-') {
      throw ConfigError("argument '" + value +
                        "' looks like an option; options go before the files (write ./" + value +
                        " for a file of that name)");
    }
  }
}

template <class T>
struct Flag {
  const char* name;      // "-c" or "--sigma"
  const char* argument;  // nullptr for a switch
  std::string help;
  std::function<void(T&, const std::string& flag, const std::string& value)> set;
  // The flag is `name` followed by a suffix, passed to `set` in `flag`
  // (-w1, -w-1: LIBLINEAR's -wi).
  bool prefix = false;
  const char* shown = nullptr;  // how -h shows the name, if not `name`
};

std::string solver_choices() {
  std::string out;
  for (const auto& info : solver_table()) {
    out += (out.empty() ? "" : ", ") + std::string(info.name);
  }
  return out;
}

// "cdper, cdperone, ...": the solvers whose result --seed changes.
std::string seeded_solvers() {
  std::string out;
  for (const auto& info : solver_table()) {
    if (info.uses_seed()) out += (out.empty() ? "" : ", ") + std::string(info.name);
  }
  return out;
}

std::string loss_choices() {
  std::string out;
  for (const auto& info : loss_table()) out += (out.empty() ? "" : ", ") + std::string(info.name);
  return out;
}

// The run's own flags; train_flags() adds the solvers' option groups' flags.
std::vector<Flag<RunRequest>> run_flags() {
  static const Params defaults;
  return {
      {"-s", "solver",
       "solver by name (case-insensitive) or by LIBLINEAR's number (the problem LIBLINEAR's -s N "
       "solves); see the tables below. Default: for the L2-SVM, dcd on data with more features "
       "than instances and at least 100000 nonzeros, else cdper; on such data -s 2 and -s 11 run "
       "dcd and dcd-svr to their own stopping rules",
       [](RunRequest& c, const std::string& flag, const std::string& v) {
         c.params.choice.given = true;
         int number = 0;
         if (parse_integer(v, number)) {
           c.params.choice.liblinear_number = number;
           return;
         }
         const SolverInfo* info = find_solver(v);
         if (info == nullptr) {
           bad_value(
               flag,
               "a LIBLINEAR number (" + liblinear_number_list() + ") or one of " + solver_choices(),
               v);
         }
         c.params.solver = info->kind;
         c.params.choice.liblinear_number.reset();
       }},
      {"-l", "loss",
       "loss: l2svm, l1svm or lr; sq, svr2 or svr1 for regression (default: the solver's first: "
       "l2svm; l1svm for pegasos, pdcd, rcd-pair; svr2 for dcd-svr; lr for dcd-lr)",
       [](RunRequest& c, const std::string& flag, const std::string& v) {
         const LossInfo* info = find_loss(v);
         if (info == nullptr) bad_value(flag, "one of " + loss_choices(), v);
         c.params.loss = info->kind;
       }},
      {"-r", "regularizer",
       "regularizer: l2 (1/2 ||w||^2, default) or l1 (||w||_1, the CD solvers: LIBLINEAR's "
       "-s 5/6, and the Lasso with -l sq)",
       [](RunRequest& c, const std::string& flag, const std::string& v) {
         const RegularizerInfo* info = find_regularizer(v);
         if (info == nullptr || info->kind == RegularizerKind::kElasticNet) {
           bad_value(flag, "l2 or l1", v);
         }
         c.params.regularizer = info->kind;
       }},
      {"-p", "epsilon",
       "svr2, svr1: the epsilon of max(0, |y - w'x| - epsilon)^2 or max(0, |y - w'x| - epsilon) "
       "(default " +
           show_number(kDefaultSvrEpsilon) + ", as LIBLINEAR)",
       [](RunRequest& c, const std::string& flag, const std::string& v) {
         double x = 0;
         if (!parse_double(v, x) || !(x >= 0) || !std::isfinite(x)) {
           bad_value(flag, "a number >= 0", v);
         }
         c.params.svr_epsilon = x;
       }},
      {"-c", "cost", "penalty parameter C > 0 (default " + show_number(defaults.C) + ")",
       [](RunRequest& c, const std::string& flag, const std::string& v) {
         c.params.C = positive_number(flag, v);
         c.cost_given = true;
       }},
      {"-e", "epsilon",
       "stopping tolerance: each solver's rule and default are under \"solvers\" below; "
       "with -r l1: stop when ||v||_1 <= eps * ||v(0)||_1 for the minimum-norm "
       "subgradient v, eps scaled as LIBLINEAR's -s 5/6 (default " +
           show_number(kL1CdEps) +
           "); the Lasso (-r l1 -l sq): stop when its duality gap <= eps * f(w) "
           "(default " +
           show_number(kLassoGapEps) + ")",
       [](RunRequest& c, const std::string& flag, const std::string& v) {
         c.params.eps = positive_number(flag, v);
       }},
      {"-B", "bias",
       "if bias >= 0, append a constant feature of this value to every instance (default -1: "
       "none)",
       [](RunRequest& c, const std::string& flag, const std::string& v) {
         if (!parse_double(v, c.params.bias)) bad_value(flag, "a number", v);
       }},
      {"-R", nullptr,
       "do not regularize the bias weight (needs -B > 0; LIBLINEAR's -R): tron (-s 0, -s 2) and "
       "the CD solvers cdper, cd, cdperone, online (-s 11) with -r l2, and with -r l1 for l2svm "
       "and lr (-s 5, -s 6)",
       [](RunRequest& c, const std::string&, const std::string&) { c.params.free_bias = true; }},
      {"-v", "n", "n-fold cross validation (n >= 2); prints the accuracy, writes no model",
       [](RunRequest& c, const std::string& flag, const std::string& v) {
         c.params.cv_folds = integer_at_least<int>(flag, v, 2);
       }},
      {"-C", nullptr,
       "find C by cross validation (-v folds, 5 by default) from a small C, or -c, doubling up "
       "to 1024, each fold warm-started from the previous C (cold-started for solvers that do "
       "not take -i, such as dcd); for a regression, C up to 2^20 by mean squared error, and "
       "with -l svr2 or svr1 also p over 20 steps of max|y| (from -p down, if given)",
       [](RunRequest& c, const std::string&, const std::string&) { c.find_C = true; }},
      {"-w", "weight",
       "-wi weight: multiply C of class i by weight, as LIBLINEAR (e.g. -w1 2 -w-1 0.5)",
       [](RunRequest& c, const std::string& flag, const std::string& v) {
         int label = 0;
         if (!parse_integer(flag.substr(2), label)) {
           throw ConfigError("unknown option '" + flag + "' (-wi needs an integer class label i)");
         }
         c.params.class_weights[label] = positive_number(flag, v);
       },
       true, "-wi"},
      {"-W", "weight_file",
       "instance weights: line j a number >= 0 that multiplies instance j's C (LIBLINEAR's "
       "weights extension); 0 leaves the instance out; read at each run, not part of --cache",
       [](RunRequest& c, const std::string& n, const std::string& v) {
         c.weights_path = file_name(n, v);
       }},
      {"-m", "threads",
       "threads of the run: reading, classes (one-vs-rest) and cross-validation folds "
       "trained at once, 1 to " +
           std::to_string(kMaxThreads) +
           " (default: one per core); the model does not depend on it",
       [](RunRequest& c, const std::string& flag, const std::string& v) {
         unsigned threads = 0;
         if (!parse_integer(v, threads) || threads < 1 || threads > kMaxThreads) {
           bad_value(flag, "an integer from 1 to " + std::to_string(kMaxThreads), v);
         }
         c.params.threads = threads;
       }},
      {"-n", "nu",
       "oneclass (-s 21): nu of the one-class SVM, in (0, 1] (default " + show_number(kDefaultNu) +
           ", as LIBLINEAR); no other solver takes it (threads are -m)",
       [](RunRequest& c, const std::string& flag, const std::string& v) {
         // The range is validate()'s, after the check that the run is
         // one-class: -n 4 elsewhere is most likely meant as threads.
         double x = 0;
         if (!parse_double(v, x)) bad_value(flag, "a number in (0, 1]", v);
         c.params.nu = x;
       }},
      {"--stratified", nullptr, "cross validation: keep each class's share in every fold",
       [](RunRequest& c, const std::string&, const std::string&) { c.params.stratified = true; }},
      {"-i", "model_file", "start from this model's weights (not for pegasos)",
       [](RunRequest& c, const std::string& n, const std::string& v) {
         c.initial_model = file_name(n, v);
       }},
      {"--trace", "file",
       "write one row per outer iteration: iteration, training seconds, f, ||grad f|| and, with "
       "-t, test accuracy; dual solvers add primal, dual, gap and nnz_ops",
       [](RunRequest& c, const std::string& n, const std::string& v) {
         c.trace_path = file_name(n, v);
       }},
      {"-t", "test_file", "test set for the --trace accuracy column",
       [](RunRequest& c, const std::string& n, const std::string& v) {
         c.test_path = file_name(n, v);
       }},
      {"--cache", nullptr,
       "keep the parsed data in training_file.cdcache and load it from there next time (rebuilt "
       "when the file or -B changes)",
       [](RunRequest& c, const std::string&, const std::string&) { c.cache = true; }},
      {"--cache-file", "file", "as --cache, with the cache at this path",
       [](RunRequest& c, const std::string& n, const std::string& v) {
         c.cache_file = file_name(n, v);
       }},
      {"-q", nullptr, "quiet: no progress output",
       [](RunRequest& c, const std::string&, const std::string&) { c.params.quiet = true; }},
      {"--max-iter", "n",
       "maximum outer iterations (default " + std::to_string(kDefaultMaxIter) +
           "); for pegasos, updates (default " + std::to_string(kDefaultPegasosPasses) +
           " passes over the data)",
       [](RunRequest& c, const std::string& flag, const std::string& v) {
         c.params.max_iter = integer_at_least<std::int64_t>(flag, v, 1);
       }},
      {"--seed", "n",
       "random seed of " + seeded_solvers() + " and the -v/-C folds (default " +
           std::to_string(defaults.seed) + ")",
       [](RunRequest& c, const std::string& flag, const std::string& v) {
         c.params.seed = integer_at_least<std::uint64_t>(flag, v, 0);
       }},
      {"-V", nullptr,
       "verbose: with -v or -C, also each fold's per-iteration lines under a fold header",
       [](RunRequest& c, const std::string&, const std::string&) { c.params.verbose = true; }},
      {"--verbose", nullptr, "the same as -V",
       [](RunRequest& c, const std::string&, const std::string&) { c.params.verbose = true; }},
      {"--version", nullptr, "print the version and exit",
       [](RunRequest& c, const std::string&, const std::string&) { c.version = true; }},
      {"-h", nullptr, "print this help and exit",
       [](RunRequest& c, const std::string&, const std::string&) { c.help = true; }},
  };
}

// cdtrain's flags: the run's, and each flag of the rows' option groups
// (solver_option_groups()) placed in -h after the flag it names.
const std::vector<Flag<RunRequest>>& train_flags() {
  static const std::vector<Flag<RunRequest>> flags = [] {
    std::vector<Flag<RunRequest>> out = run_flags();
    std::vector<const OptionFlag*> pending;
    for (const SolverOptionFlag& entry : solver_option_flags()) pending.push_back(entry.flag);
    while (!pending.empty()) {
      const auto placed = std::find_if(pending.begin(), pending.end(), [&](const OptionFlag* flag) {
        return std::any_of(out.begin(), out.end(), [&](const auto& run) {
          return std::strcmp(run.name, flag->after) == 0;
        });
      });
      if (placed == pending.end()) {
        throw Error(std::string("option flag ") + pending.front()->flag + " follows no flag");
      }
      const OptionFlag* flag = *placed;
      const auto after = std::find_if(out.begin(), out.end(), [&](const auto& run) {
        return std::strcmp(run.name, flag->after) == 0;
      });
      const auto set = flag->set;
      out.insert(after + 1, {flag->flag, flag->argument, flag->help,
                             [set](RunRequest& c, const std::string& name,
                                   const std::string& value) { set(c.params, name, value); }});
      pending.erase(placed);
    }
    return out;
  }();
  return flags;
}

const std::vector<Flag<PredictCommand>>& predict_flags() {
  static const std::vector<Flag<PredictCommand>> flags = {
      {"-b", "0|1", "1: output probability estimates (logistic regression models only)",
       [](PredictCommand& c, const std::string& flag, const std::string& v) {
         if (v != "0" && v != "1") bad_value(flag, "0 or 1", v);
         c.probability = v == "1";
       }},
      {"-q", nullptr, "quiet: do not print the accuracy",
       [](PredictCommand& c, const std::string&, const std::string&) { c.quiet = true; }},
      {"--info", "model_file",
       "print what the model is (solver type, classes, features, bias, nonzero weights) and "
       "exit",
       [](PredictCommand& c, const std::string& n, const std::string& v) {
         c.info_model = file_name(n, v);
       }},
      {"--version", nullptr, "print the version and exit",
       [](PredictCommand& c, const std::string&, const std::string&) { c.version = true; }},
      {"-h", nullptr, "print this help and exit",
       [](PredictCommand& c, const std::string&, const std::string&) { c.help = true; }},
  };
  return flags;
}

// Applies the flags at the front of `args`; returns the remaining operands.
template <class T>
std::vector<std::string> parse_flags(const std::vector<Flag<T>>& flags,
                                     const std::vector<std::string>& args, T& command,
                                     std::vector<std::string>* given = nullptr) {
  std::size_t k = 0;
  for (; k < args.size(); ++k) {
    const std::string& arg = args[k];
    if (arg.size() < 2 || arg[0] != '-') break;
    std::string name = arg;
    if (name == "--help") name = "-h";
    const Flag<T>* flag = nullptr;
    for (const auto& candidate : flags) {
      const bool match = candidate.prefix
                             ? name.size() > std::strlen(candidate.name) &&
                                   name.compare(0, std::strlen(candidate.name), candidate.name) == 0
                             : name == candidate.name;
      if (match) flag = &candidate;
    }
    if (flag == nullptr) throw ConfigError("unknown option '" + arg + "'");
    std::string value;
    if (flag->argument != nullptr) {
      if (k + 1 == args.size()) throw ConfigError(name + ": missing value");
      value = args[++k];
    }
    flag->set(command, name, value);
    if (given != nullptr) given->push_back(flag->name);
  }
  return {args.begin() + static_cast<std::ptrdiff_t>(k), args.end()};
}

template <class T>
std::string flag_help(const std::vector<Flag<T>>& flags) {
  std::string out = "options:\n";
  for (const auto& flag : flags) {
    std::string head = std::string("  ") + (flag.shown != nullptr ? flag.shown : flag.name);
    if (flag.argument != nullptr) head += std::string(" ") + flag.argument;
    head.resize(std::max<std::size_t>(head.size() + 1, 18), ' ');
    out += head + flag.help + "\n";
  }
  return out;
}

// Options that cannot act on this run are usage errors that say why, rather
// than silently doing nothing.
void check_options_act(const RunRequest& command, const std::vector<std::string>& given) {
  const auto was_given = [&](const char* flag) {
    return std::find(given.begin(), given.end(), flag) != given.end();
  };
  // The solvers' own options, by the flag the user gave (validate() sees
  // only values, and -k 1 is the default's value).
  const SolverInfo& solver = solver_info(command.params.solver);
  for (const SolverOptionFlag& entry : solver_option_flags()) {
    if (was_given(entry.flag->flag)) check_solver_option(solver, *entry.group, entry.flag->flag);
  }
  const bool cross_validation = command.params.cv_folds > 0 || command.find_C;
  if (was_given("--stratified") && !cross_validation) {
    throw ConfigError("--stratified shapes the folds of -v or -C; this run has none");
  }
  if (was_given("-V") || was_given("--verbose")) {
    if (!cross_validation) {
      throw ConfigError(
          "-V adds per-iteration lines to -v and -C, which this run lacks; a training run "
          "prints them already");
    }
    if (command.params.quiet) throw ConfigError("-V and -q contradict each other");
  }
}

std::string basename_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

RunRequest parse_train_args(const std::vector<std::string>& args) {
  RunRequest command;
  std::vector<std::string> given;
  const auto operands = parse_flags(train_flags(), args, command, &given);
  if (command.help || command.version) return command;
  apply_liblinear_number(command.params, std::find(given.begin(), given.end(), "-r") != given.end(),
                         {"-s", "-l", "-r", true});
  check_options_act(command, given);
  if (operands.empty()) throw ConfigError("missing training_file");
  check_no_option_among(operands);
  if (operands.size() > 2) throw ConfigError("unexpected argument '" + operands[2] + "'");
  command.training_path = file_name("training_file", operands[0]);
  if (operands.size() == 2) {
    command.model_path = file_name("model_file", operands[1]);
  } else if (command.training_path != "-") {
    const std::string base = basename_of(command.training_path);
    if (base.empty()) {
      throw ConfigError("training_file '" + command.training_path +
                        "' names no file; give a model_file");
    }
    command.model_path = base + ".model";
  }
  if (command.find_C && command.params.cv_folds == 0) command.params.cv_folds = 5;
  if (command.model_path.empty() && command.params.cv_folds == 0) {  // standard input
    throw ConfigError(
        "training_file '-' is standard input, which has no name to make the model's "
        "from; give a model_file (cdtrain [options] - model_file)");
  }
  if (!command.trace_path.empty() && command.params.cv_folds > 0) {
    throw ConfigError("--trace cannot be combined with -v or -C");
  }
  if (!command.test_path.empty() && command.trace_path.empty()) {
    throw ConfigError("-t gives the test set of --trace; add --trace FILE");
  }
  if (!command.initial_model.empty() && command.params.cv_folds > 0) {
    throw ConfigError("-i cannot be combined with -v or -C");
  }
  if (!command.initial_model.empty() && solver_info(command.params.solver).dual) {
    throw ConfigError(std::string("-i: ") + solver_info(command.params.solver).name +
                      " solves the dual, and a start from a model's w is not defined there (w "
                      "does not determine the dual variables); train without -i, or use a "
                      "primal solver such as cdper");
  }
  if (!command.initial_model.empty() && !solver_info(command.params.solver).warm_start) {
    throw ConfigError(std::string("-i: ") + solver_info(command.params.solver).name +
                      " always starts from w = 0");
  }
  return command;
}

PredictCommand parse_predict_args(const std::vector<std::string>& args) {
  PredictCommand command;
  const auto operands = parse_flags(predict_flags(), args, command);
  if (command.help || command.version) return command;
  if (!command.info_model.empty()) {
    if (!operands.empty()) {
      throw ConfigError("--info takes only the model file; unexpected argument '" + operands[0] +
                        "'");
    }
    return command;
  }
  check_no_option_among(operands);
  if (operands.size() < 3) throw ConfigError("expected test_file model_file output_file");
  if (operands.size() > 3) throw ConfigError("unexpected argument '" + operands[3] + "'");
  command.test_path = file_name("test_file", operands[0]);
  command.model_path = file_name("model_file", operands[1]);
  command.output_path = file_name("output_file", operands[2]);
  return command;
}

std::string train_usage() {
  return "usage: cdtrain [options] training_file [model_file]\n"
         "Try 'cdtrain -h' for the options.\n";
}

std::string train_help() {
  std::string out =
      "usage: cdtrain [options] training_file [model_file]\n"
      "Trains an L2- or L1-regularized linear classifier or regression by coordinate descent.\n"
      "The model file defaults to the training file's basename + \".model\".\n"
      "training_file '-' is standard input (give a model_file); pipes and FIFOs are read too.\n\n";
  out += flag_help(train_flags());
  out += "\nsolvers (-s NAME; names are case-insensitive):\n";
  for (const auto& info : solver_table()) {
    std::string head = std::string("  ") + info.name;
    head.resize(16, ' ');
    std::string losses;
    for (LossKind loss : info.losses)
      losses += (losses.empty() ? "" : ", ") + std::string(loss_info(loss).name);
    out += head + info.description + " (" + losses + ")";
    if (info.rule != nullptr) out += std::string(" [--select ") + info.rule + "]";
    out += "\n                stops: " + std::string(info.stopping);
    if (info.default_eps > 0) out += " (default -e " + show_number(info.default_eps) + ")";
    out += "\n";
  }
  out +=
      "\nLIBLINEAR's numbers (-s N): the numbers of LIBLINEAR 2.50's train -s, each meaning the\n"
      "same problem as there, solved by the solver shown, and the model's solver_type is the one\n"
      "LIBLINEAR writes for it:\n";
  for (const LiblinearNumber& entry : liblinear_numbers()) {
    std::string head = "  " + std::to_string(entry.number);
    head.resize(6, ' ');
    out += head + entry.problem + ": ";
    try {
      const ResolvedNumber resolved = resolve_liblinear_number(entry.number);
      out +=
          std::string(solver_info(resolved.solver).name) + " -l " + loss_info(resolved.loss).name;
      if (resolved.regularizer != RegularizerKind::kL2) {
        out += std::string(" -r ") + regularizer_info(resolved.regularizer).name;
      }
    } catch (const ConfigError&) {
      out += "not solved by cdtrain yet";
    }
    out += "\n";
  }
  out += "\nselection rules (--select), for the solvers with one above:\n";
  for (const auto& rule : rule_table()) {
    std::string head = std::string("  ") + rule.name;
    head.resize(std::max<std::size_t>(16, head.size() + 1), ' ');
    out += head + rule.description;
    if (!rule.applies_to(kPrimalCoordinates)) out += " [dual CD only]";
    out += "\n";
  }
  out += "\nlosses (-l):\n";
  for (const auto& info : loss_table()) {
    std::string head = std::string("  ") + info.name;
    head.resize(16, ' ');
    out += head + info.description + "\n";
  }
  return out;
}

std::string predict_usage() {
  return "usage: cdpredict [options] test_file model_file output_file\n"
         "Try 'cdpredict -h' for the options.\n";
}

std::string version_text(const std::string& tool) {
  return tool + " (cdlinear) " + kVersion + "\n";
}

std::string predict_help() {
  return "usage: cdpredict [options] test_file model_file output_file\n"
         "Writes one predicted label per line and prints the accuracy.\n\n" +
         flag_help(predict_flags());
}

}  // namespace cdl
