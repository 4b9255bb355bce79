#include <gtest/gtest.h>

#include <cctype>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cli.h"
#include "solvers/liblinear_numbers.h"
#include "solvers/params.h"
#include "solvers/solver_cd.h"
#include "solvers/solver_pegasos.h"
#include "util/error.h"

namespace cdl {
namespace {

// Splits a command line at spaces (no quoting needed here).
std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string word; in >> word;) out.push_back(word);
  return out;
}

RunRequest train(const std::string& line) { return parse_train_args(words(line)); }
PredictCommand predict(const std::string& line) { return parse_predict_args(words(line)); }

// The message of the ConfigError that `run` throws, or "" if none.
template <class Run>
std::string config_error(Run run) {
  try {
    run();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

// For argument lists; the string forms split a command line with words(),
// which cannot write empty arguments.
std::string train_args_error(const std::vector<std::string>& args) {
  return config_error([&] { parse_train_args(args); });
}
std::string predict_args_error(const std::vector<std::string>& args) {
  return config_error([&] { parse_predict_args(args); });
}
std::string train_error(const std::string& line) { return train_args_error(words(line)); }
std::string predict_error(const std::string& line) { return predict_args_error(words(line)); }

std::string validate_error(const Params& params) {
  return config_error([&] { validate(params); });
}

// ---- cdtrain ----

TEST(TrainArgs, Defaults) {
  const RunRequest c = train("train.svm");
  EXPECT_EQ(c.training_path, "train.svm");
  EXPECT_EQ(c.model_path, "train.svm.model");
  EXPECT_FALSE(c.help);
  EXPECT_EQ(c.params.solver, SolverKind::kCdPer);
  EXPECT_FALSE(c.params.loss.has_value());  // the solver's default
  EXPECT_EQ(c.params.C, 1.0);
  EXPECT_FALSE(c.params.eps.has_value());
  EXPECT_FALSE(c.params.max_iter.has_value());
  EXPECT_EQ(c.params.bias, -1);
  EXPECT_EQ(c.params.own<LineSearchOptions>().sigma, 0.01);
  EXPECT_EQ(c.params.own<LineSearchOptions>().beta, 0.5);
  EXPECT_EQ(c.params.seed, 1u);
  EXPECT_EQ(c.params.cv_folds, 0);
  EXPECT_FALSE(c.params.quiet);
}

TEST(TrainArgs, DefaultModelPathIsTheBasenamePlusModel) {
  EXPECT_EQ(train("dir/sub/train.svm").model_path, "train.svm.model");
  EXPECT_EQ(train("/abs/data").model_path, "data.model");
}

TEST(TrainArgs, ExplicitModelPath) {
  const RunRequest c = train("dir/train.svm out/my.model");
  EXPECT_EQ(c.training_path, "dir/train.svm");
  EXPECT_EQ(c.model_path, "out/my.model");
}

TEST(TrainArgs, SolverByNameCaseInsensitively) {
  const std::vector<std::pair<const char*, SolverKind>> solvers = {
      {"cdper", SolverKind::kCdPer},       {"cd", SolverKind::kCd},
      {"cdperone", SolverKind::kCdPerOne}, {"online", SolverKind::kOnlineCd},
      {"cmls", SolverKind::kCmls},         {"cmlsper", SolverKind::kCmlsPer},
      {"tron", SolverKind::kTron},         {"pegasos", SolverKind::kPegasos},
  };
  for (const auto& [name, kind] : solvers) {
    SCOPED_TRACE(name);
    EXPECT_EQ(train(std::string("-s ") + name + " f").params.solver, kind);
    std::string upper = name;
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    EXPECT_EQ(train("-s " + upper + " f").params.solver, kind);
    EXPECT_FALSE(
        train(std::string("-s ") + name + " f").params.choice.liblinear_number.has_value());
  }
}

// -s N is LIBLINEAR's problem N: the solver, loss and regularizer of the
// table, whatever -s said before.
TEST(TrainArgs, SolverByLiblinearNumber) {
  const Params lr = train("-s 0 f").params;
  EXPECT_EQ(lr.choice.liblinear_number, 0);
  EXPECT_EQ(lr.solver, SolverKind::kTron);
  EXPECT_EQ(lr.loss, LossKind::kLogistic);
  EXPECT_EQ(lr.regularizer, RegularizerKind::kL2);
  const Params svm = train("-s pegasos -s 2 f").params;
  EXPECT_EQ(svm.choice.liblinear_number, 2);
  EXPECT_EQ(svm.solver, SolverKind{"newton"});
  EXPECT_EQ(svm.loss, LossKind::kL2Svm);
  EXPECT_EQ(train("-s 2 -s cdper f").params.solver, SolverKind::kCdPer);
  EXPECT_FALSE(train("-s 2 -s cdper f").params.choice.liblinear_number.has_value());
  // -l that agrees is accepted, one that disagrees is a usage error.
  EXPECT_EQ(train("-s 0 -l lr f").params.loss, LossKind::kLogistic);
  EXPECT_EQ(train_error("-l l2svm -s 0 f"),
            "-l l2svm: -s 0 is LIBLINEAR's L2-regularized logistic regression (primal), whose "
            "loss is lr; drop -l, or choose a solver by name");
  EXPECT_EQ(train_error("-s 2 -l lr f"),
            "-l lr: -s 2 is LIBLINEAR's L2-regularized L2-loss support vector classification "
            "(primal), whose loss is l2svm; drop -l, or choose a solver by name");
  // Likewise -r, including -r l2 (the default) with a number that fixes L1.
  EXPECT_EQ(train("-s 5 -r l1 f").params.regularizer, RegularizerKind::kL1);
  EXPECT_EQ(train("-r l2 -s 0 f").params.regularizer, RegularizerKind::kL2);
  EXPECT_EQ(train_error("-s 5 -r l2 f"),
            "-r l2: -s 5 is LIBLINEAR's L1-regularized L2-loss support vector classification, "
            "whose regularizer is l1; drop -r, or choose a solver by name");
  EXPECT_EQ(train_error("-r l1 -s 11 f"),
            "-r l1: -s 11 is LIBLINEAR's L2-regularized L2-loss support vector regression "
            "(primal), whose regularizer is l2; drop -r, or choose a solver by name");
}

// Every number in LIBLINEAR's table either resolves to a solver row that
// trains its loss and regularizer, or is refused naming the problem.
TEST(TrainArgs, EveryLiblinearNumberResolvesOrIsRefusedByName) {
  for (const LiblinearNumber& entry : liblinear_numbers()) {
    SCOPED_TRACE(entry.number);
    const std::string args = "-s " + std::to_string(entry.number) + " f";
    const std::string error = train_error(args);
    if (error.empty()) {
      const Params p = train(args).params;
      // What each number means here, written out apart from the rows.
      static const std::map<int, std::string> expected = {
          {0, "tron lr l2"},    {1, "dcd l2svm l2"},          {2, "newton l2svm l2"},
          {3, "dcd l1svm l2"},  {5, "cdper l2svm l1"},        {6, "cdper lr l1"},
          {11, "tron svr2 l2"}, {12, "dcd-svr svr2 l2"},      {13, "dcd-svr svr1 l2"},
          {7, "dcd-lr lr l2"},  {21, "oneclass oneclass l2"}, {4, "cs mchinge l2"}};
      ASSERT_EQ(expected.count(entry.number), 1u);
      EXPECT_EQ(std::string(solver_info(p.solver).name) + " " + loss_info(*p.loss).name + " " +
                    regularizer_info(p.regularizer).name,
                expected.at(entry.number));
      EXPECT_EQ(validate_error(resolve_defaults(p)), "");
    } else {
      EXPECT_EQ(error, "LIBLINEAR's -s " + std::to_string(entry.number) + " (" + entry.problem +
                           ") is not solved by cdtrain yet");
    }
  }
  // The numbers this build solves today.
  for (const char* number : {"0", "2", "4", "21"})
    EXPECT_EQ(train_error(std::string("-s ") + number + " f"), "");
}

TEST(TrainArgs, LossByName) {
  EXPECT_EQ(train("-l l2svm f").params.loss, LossKind::kL2Svm);
  EXPECT_EQ(train("-l l1svm f").params.loss, LossKind::kL1Svm);
  EXPECT_EQ(train("-l lr f").params.loss, LossKind::kLogistic);
}

TEST(TrainArgs, EveryNumericFlag) {
  const RunRequest c =
      train("-c 2.5 -e 0.01 -B 1 -v 5 --sigma 0.1 --beta 0.25 --max-iter 50 --seed 42 f m");
  EXPECT_EQ(c.params.C, 2.5);
  EXPECT_EQ(c.params.eps, 0.01);
  EXPECT_EQ(c.params.bias, 1);
  EXPECT_EQ(c.params.cv_folds, 5);
  EXPECT_EQ(c.params.own<LineSearchOptions>().sigma, 0.1);
  EXPECT_EQ(c.params.own<LineSearchOptions>().beta, 0.25);
  EXPECT_EQ(c.params.max_iter, 50);
  EXPECT_EQ(c.params.seed, 42u);
  EXPECT_EQ(c.training_path, "f");
  EXPECT_EQ(c.model_path, "m");
}

TEST(TrainArgs, NegativeBiasAndZeroSeed) {
  EXPECT_EQ(train("-B -1 f").params.bias, -1);
  EXPECT_EQ(train("-B 0 f").params.bias, 0);
  EXPECT_EQ(train("--seed 0 f").params.seed, 0u);
}

TEST(TrainArgs, Quiet) { EXPECT_TRUE(train("-q f").params.quiet); }

TEST(TrainArgs, HelpNeedsNoOperands) {
  EXPECT_TRUE(train("-h").help);
  EXPECT_TRUE(train("--help").help);
  EXPECT_TRUE(train("-c 2 -h").help);
}

TEST(TrainArgs, RejectsBadCost) {
  EXPECT_EQ(train_error("-c abc f"), "-c: expected a positive number, got 'abc'");
  EXPECT_EQ(train_error("-c -1 f"), "-c: expected a positive number, got '-1'");
  EXPECT_EQ(train_error("-c 0 f"), "-c: expected a positive number, got '0'");
  EXPECT_EQ(train_error("-c 1x f"), "-c: expected a positive number, got '1x'");
  EXPECT_EQ(train_error("-c inf f"), "-c: expected a positive number, got 'inf'");
  EXPECT_EQ(train_error("-c nan f"), "-c: expected a positive number, got 'nan'");
}

TEST(TrainArgs, RejectsBadEpsilon) {
  EXPECT_EQ(train_error("-e 0 f"), "-e: expected a positive number, got '0'");
  EXPECT_EQ(train_error("-e -1 f"), "-e: expected a positive number, got '-1'");
}

TEST(TrainArgs, RejectsBadBias) {
  EXPECT_EQ(train_error("-B x f"), "-B: expected a number, got 'x'");
}

TEST(TrainArgs, RejectsBadFolds) {
  EXPECT_EQ(train_error("-v 1 f"), "-v: expected an integer >= 2, got '1'");
  EXPECT_EQ(train_error("-v x f"), "-v: expected an integer >= 2, got 'x'");
  EXPECT_EQ(train_error("-v 2.5 f"), "-v: expected an integer >= 2, got '2.5'");
}

TEST(TrainArgs, RejectsLineSearchConstantsOutOfRange) {
  EXPECT_EQ(train_error("--sigma 0.5 f"), "--sigma: expected a number in (0, 0.5), got '0.5'");
  EXPECT_EQ(train_error("--sigma 0 f"), "--sigma: expected a number in (0, 0.5), got '0'");
  EXPECT_EQ(train_error("--beta 1 f"), "--beta: expected a number in (0, 1), got '1'");
  EXPECT_EQ(train_error("--beta 0 f"), "--beta: expected a number in (0, 1), got '0'");
}

TEST(TrainArgs, RejectsBadMaxIterAndSeed) {
  EXPECT_EQ(train_error("--max-iter 0 f"), "--max-iter: expected an integer >= 1, got '0'");
  EXPECT_EQ(train_error("--max-iter 1.5 f"), "--max-iter: expected an integer >= 1, got '1.5'");
  EXPECT_EQ(train_error("--seed -1 f"), "--seed: expected an integer >= 0, got '-1'");
}

TEST(TrainArgs, RejectsUnknownSolverAndLoss) {
  const std::string solvers =
      "a LIBLINEAR number (0-7, 11-13, 21) or one of cdper, cd, cdperone, online, cmls, cmlsper, "
      "tron, newton, pegasos, dcd, pdcd, rcd-pair, dcd-svr, dcd-lr, oneclass, cs, dcd-maxent";
  EXPECT_EQ(
      train_error("-s 9 f"),
      "-s 9: LIBLINEAR has no solver 9 (its numbers are 0-7, 11-13, 21); cdtrain's own solvers "
      "go by name (cdtrain -h)");
  EXPECT_EQ(train_error("-s foo f"), "-s: expected " + solvers + ", got 'foo'");
  EXPECT_EQ(train_error("-l foo f"),
            "-l: expected one of l2svm, l1svm, lr, sq, svr2, svr1, oneclass, mchinge, softmax, got "
            "'foo'");
}

TEST(TrainArgs, RejectsUnknownFlag) {
  EXPECT_EQ(train_error("-x f"), "unknown option '-x'");
  EXPECT_EQ(train_error("--cost 1 f"), "unknown option '--cost'");
}

TEST(TrainArgs, RejectsMissingValue) {
  EXPECT_EQ(train_error("-c"), "-c: missing value");
  EXPECT_EQ(train_error("-q -c"), "-c: missing value");
}

TEST(TrainArgs, RejectsMissingTrainingFile) {
  EXPECT_EQ(train_error(""), "missing training_file");
  EXPECT_EQ(train_error("-q"), "missing training_file");
}

TEST(TrainArgs, RejectsEmptyFileNames) {
  EXPECT_EQ(train_args_error({""}), "training_file: empty file name");
  EXPECT_EQ(train_args_error({"data", ""}), "model_file: empty file name");
  EXPECT_EQ(train_args_error({"--trace", "", "data"}), "--trace: empty file name");
  EXPECT_EQ(train_args_error({"-i", "", "data"}), "-i: empty file name");
  EXPECT_EQ(train_error("dir/"), "training_file 'dir/' names no file; give a model_file");
  EXPECT_EQ(train("dir/ .model").model_path, ".model");
  EXPECT_EQ(train("t.txt .model").model_path, ".model");
}

TEST(TrainArgs, RejectsOptionsAfterTheFiles) {
  const std::string hint =
      "' looks like an option; options go before the files (write ./-c for a file of that name)";
  EXPECT_EQ(train_error("data -c"), "argument '-c" + hint);
  EXPECT_EQ(train_error("data model -c 2"), "argument '-c" + hint);
  EXPECT_EQ(train("data ./-c").model_path, "./-c");
  EXPECT_EQ(train("data -").model_path, "-");
  EXPECT_EQ(predict_error("t m -c"), "argument '-c" + hint);
}

TEST(TrainArgs, RejectsTooManyOperands) {
  EXPECT_EQ(train_error("a b c"), "unexpected argument 'c'");
}

// ---- cdpredict ----

TEST(PredictArgs, Operands) {
  const PredictCommand c = predict("test.svm model out");
  EXPECT_EQ(c.test_path, "test.svm");
  EXPECT_EQ(c.model_path, "model");
  EXPECT_EQ(c.output_path, "out");
  EXPECT_FALSE(c.quiet);
  EXPECT_FALSE(c.probability);
  EXPECT_FALSE(c.help);
}

TEST(PredictArgs, RejectsEmptyFileNames) {
  EXPECT_EQ(predict_args_error({"", "m", "o"}), "test_file: empty file name");
  EXPECT_EQ(predict_args_error({"t", "", "o"}), "model_file: empty file name");
  EXPECT_EQ(predict_args_error({"t", "m", ""}), "output_file: empty file name");
}

TEST(PredictArgs, Flags) {
  EXPECT_TRUE(predict("-q t m o").quiet);
  EXPECT_TRUE(predict("-b 1 t m o").probability);
  EXPECT_FALSE(predict("-b 0 t m o").probability);
  EXPECT_TRUE(predict("-h").help);
  EXPECT_TRUE(predict("--help").help);
}

TEST(PredictArgs, Rejections) {
  EXPECT_EQ(predict_error("-b 2 t m o"), "-b: expected 0 or 1, got '2'");
  EXPECT_EQ(predict_error("t m"), "expected test_file model_file output_file");
  EXPECT_EQ(predict_error(""), "expected test_file model_file output_file");
  EXPECT_EQ(predict_error("t m o x"), "unexpected argument 'x'");
  EXPECT_EQ(predict_error("-x t m o"), "unknown option '-x'");
  EXPECT_EQ(predict_error("-b"), "-b: missing value");
}

// ---- validate and resolve_defaults ----

TEST(Validate, AcceptsTheImplementedSolvers) {
  for (const char* solver :
       {"0", "2", "cdper", "cd", "cdperone", "online", "cmls", "cmlsper", "tron", "pegasos"}) {
    SCOPED_TRACE(solver);
    EXPECT_EQ(validate_error(resolve_defaults(train(std::string("-s ") + solver + " f").params)),
              "");
  }
}

TEST(Validate, AcceptsEveryValidSolverLossPair) {
  for (const char* args :
       {"-l l2svm f", "-l lr f", "-s cd -l lr f", "-s cdperone -l lr f", "-s online -l lr f",
        "-s cmls -l l2svm f", "-s cmlsper f", "-s tron -l l2svm f", "-s tron -l lr f",
        "-s pegasos -l l1svm f", "-s pegasos f"}) {
    SCOPED_TRACE(args);
    EXPECT_EQ(validate_error(resolve_defaults(train(args).params)), "");
  }
}

TEST(Validate, RejectsInvalidPairsListingTheValidOnes) {
  const std::string pairs =
      "valid pairs: -s cdper/cd/cdperone/online: l2svm lr sq svr2; -s cmls/cmlsper: l2svm; -s "
      "tron/newton: l2svm lr svr2; -s pegasos: l1svm; -s dcd: l2svm l1svm; -s pdcd/rcd-pair: "
      "l1svm; "
      "-s dcd-svr: svr2 svr1; -s dcd-lr: lr; -s oneclass: oneclass; -s cs: mchinge; -s dcd-maxent: "
      "softmax";
  EXPECT_EQ(validate_error(train("-l l1svm f").params),
            "solver cdper does not train loss l1svm; " + pairs);
  EXPECT_EQ(validate_error(train("-s cmls -l lr f").params),
            "solver cmls does not train loss lr; " + pairs);
  EXPECT_EQ(validate_error(train("-s tron -l l1svm f").params),
            "solver tron does not train loss l1svm; " + pairs);
  EXPECT_EQ(validate_error(train("-s pegasos -l l2svm f").params),
            "solver pegasos does not train loss l2svm; " + pairs);
}

TEST(ResolveDefaults, FillsLossEpsAndMaxIterPerSolver) {
  const Params p = resolve_defaults(Params{});
  EXPECT_EQ(p.loss, LossKind::kL2Svm);
  EXPECT_EQ(p.eps, 0.001);
  EXPECT_EQ(p.max_iter, kDefaultMaxIter);
  EXPECT_EQ(kDefaultMaxIter, 1000);
  const Params tron = resolve_defaults(train("-s tron f").params);
  EXPECT_EQ(tron.eps, 0.01);
  const Params pegasos = resolve_defaults(train("-s pegasos f").params);
  EXPECT_EQ(pegasos.loss, LossKind::kL1Svm);
  EXPECT_FALSE(pegasos.max_iter.has_value());  // set from the data size
  EXPECT_EQ(pegasos_updates(pegasos, 1000), kDefaultPegasosPasses * 1000);
  EXPECT_EQ(pegasos_updates(resolve_defaults(train("-s pegasos -k 3 f").params), 1000),
            kDefaultPegasosPasses * 334);
  EXPECT_EQ(pegasos_updates(resolve_defaults(train("-s pegasos --max-iter 9 f").params), 1000), 9);
}

TEST(ResolveDefaults, KeepsExplicitValues) {
  const Params p = resolve_defaults(train("-e 0.5 --max-iter 7 f").params);
  EXPECT_EQ(p.eps, 0.5);
  EXPECT_EQ(p.max_iter, 7);
}

// ---- help ----

TEST(TrainHelp, MentionsEveryFlagSolverAndDefault) {
  const std::string help = train_help();
  for (const char* flag : {"-s", "-l", "-c", "-e", "-B", "-v", "-q", "--sigma", "--beta", "-k",
                           "--max-iter", "--seed", "-h"}) {
    EXPECT_NE(help.find(std::string("  ") + flag + " "), std::string::npos) << flag;
  }
  for (const char* solver :
       {"cdper", "cd", "cdperone", "online", "cmls", "cmlsper", "tron", "pegasos"}) {
    EXPECT_NE(help.find(std::string(" ") + solver + " "), std::string::npos) << solver;
  }
  for (const char* loss : {"l2svm", "l1svm", "lr"}) {
    EXPECT_NE(help.find(loss), std::string::npos) << loss;
  }
  for (const char* default_text :
       {"Default: for the L2-SVM, dcd on data with more features than instances and at least "
        "100000 nonzeros, else cdper",
        "(default: the solver's first: l2svm; l1svm for pegasos", "(default 1)",
        "(default -e 0.001)", "(default -e 0.01)", "(default -e 0.1)", "(default -1: none)",
        "(default 0.01)", "(default 0.5)", "(default 1000)",
        "(default 500 passes over the data)"}) {
    EXPECT_NE(help.find(default_text), std::string::npos) << default_text;
  }
  EXPECT_NE(help.find("tron "), std::string::npos);
  EXPECT_NE(help.find("(l2svm, lr, svr2)"), std::string::npos);
}

TEST(TrainHelp, UsageLine) {
  EXPECT_EQ(train_usage().rfind("usage: cdtrain [options] training_file [model_file]\n", 0), 0u);
  EXPECT_EQ(train_help().rfind("usage: cdtrain [options] training_file [model_file]\n", 0), 0u);
}

TEST(PredictHelp, MentionsEveryFlag) {
  const std::string help = predict_help();
  for (const char* flag : {"-b", "-q", "-h"}) {
    EXPECT_NE(help.find(std::string("  ") + flag + " "), std::string::npos) << flag;
  }
  EXPECT_EQ(
      predict_usage().rfind("usage: cdpredict [options] test_file model_file output_file\n", 0),
      0u);
}

}  // namespace
}  // namespace cdl
