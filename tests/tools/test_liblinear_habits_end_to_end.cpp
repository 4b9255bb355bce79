// End-to-end tests of a LIBLINEAR user's habits: its -s numbers,
// refusals of numbers and options that cannot act, -i of another problem,
// swapped arguments, --version and cdpredict --info. Peer results are the
// stored LIBLINEAR 2.3 outputs of tests/fixtures (README there).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "model/model.h"
#include "solvers/liblinear_numbers.h"
#include "test_util.h"

namespace cdl {
namespace {

namespace fs = std::filesystem;

std::string data(const std::string& name) { return test::data_path(name); }

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// The first column of LIBLINEAR's -b 1 output (its labels), without the header.
std::vector<std::string> labels_of_probabilities(const std::string& text) {
  std::vector<std::string> out;
  const std::vector<std::string> lines = lines_of(text);
  for (std::size_t k = 1; k < lines.size(); ++k)
    out.push_back(lines[k].substr(0, lines[k].find(' ')));
  return out;
}

double printed_accuracy(const std::string& out) {
  std::smatch m;
  EXPECT_TRUE(std::regex_search(out, m, std::regex("Accuracy = ([0-9.]+)%"))) << out;
  return m.empty() ? -1 : std::stod(m[1]);
}

struct PeerCase {
  std::string flags;        // ours and LIBLINEAR's
  std::string train;        // data set
  std::string test;         // data set predicted
  std::string peer_labels;  // fixture with LIBLINEAR's predictions
  bool probabilities;       // the fixture is -b 1 output
  std::string solver_type;
  bool exact;  // predictions equal LIBLINEAR's; otherwise accuracy within 0.3 points
};

// -s 0 and -s 2 mean what they mean to LIBLINEAR: the model says the same
// solver_type, and the predictions equal liblinear-predict's (heart_scale)
// or its accuracy within 0.3 points (dna, three classes).
TEST(LiblinearHabits, NumbersZeroAndTwoMatchLiblinear) {
  test::ScratchDir dir;
  for (const PeerCase& c : {
           PeerCase{"-s 0", "heart_scale", "heart_scale", "heart_scale_lr.liblinear.probabilities",
                    true, "L2R_LR", true},
           PeerCase{"-s 2", "heart_scale", "heart_scale", "heart_scale.liblinear.predictions",
                    false, "L2R_L2LOSS_SVC", true},
           PeerCase{"-s 0", "dna.scale", "dna.scale.t", "dna_lr.liblinear.probabilities", true,
                    "L2R_LR", false},
           PeerCase{"-s 2 -B 1", "dna.scale", "dna.scale.t", "dna_bias.liblinear.predictions",
                    false, "L2R_L2LOSS_SVC", false},
       }) {
    SCOPED_TRACE(c.flags + " " + c.train);
    const std::string model = dir.file("m");
    const auto trained =
        test::run_tool("cdtrain", "-q " + c.flags + " " + data(c.train) + " " + model);
    ASSERT_EQ(trained.status, 0) << trained.err;
    EXPECT_EQ(load_model(model).solver_type, c.solver_type);
    const auto predicted =
        test::run_tool("cdpredict", data(c.test) + " " + model + " " + dir.file("p"));
    ASSERT_EQ(predicted.status, 0) << predicted.err;
    const std::vector<std::string> ours = lines_of(test::read_file(dir.file("p")));
    const std::string peer_text = test::read_file(test::fixture_path(c.peer_labels));
    const std::vector<std::string> peer =
        c.probabilities ? labels_of_probabilities(peer_text) : lines_of(peer_text);
    ASSERT_EQ(ours.size(), peer.size());
    std::size_t agree = 0;
    std::size_t peer_right = 0;
    const std::vector<std::string> truth = lines_of(test::read_file(data(c.test)));
    for (std::size_t k = 0; k < ours.size(); ++k) {
      agree += ours[k] == peer[k];
      peer_right += truth[k].substr(0, truth[k].find(' ')) == peer[k];
    }
    if (c.exact) {
      EXPECT_EQ(agree, ours.size());
    } else {
      const double peer_accuracy =
          100.0 * static_cast<double>(peer_right) / static_cast<double>(peer.size());
      EXPECT_NEAR(printed_accuracy(predicted.out), peer_accuracy, 0.3);
    }
  }
}

// The solver_type LIBLINEAR 2.50 writes for each of its numbers.
const std::map<int, std::string> kLiblinearModelTypes = {{0, "L2R_LR"},
                                                         {1, "L2R_L2LOSS_SVC_DUAL"},
                                                         {2, "L2R_L2LOSS_SVC"},
                                                         {3, "L2R_L1LOSS_SVC_DUAL"},
                                                         {4, "MCSVM_CS"},
                                                         {5, "L1R_L2LOSS_SVC"},
                                                         {6, "L1R_LR"},
                                                         {7, "L2R_LR_DUAL"},
                                                         {11, "L2R_L2LOSS_SVR"},
                                                         {12, "L2R_L2LOSS_SVR_DUAL"},
                                                         {13, "L2R_L1LOSS_SVR_DUAL"},
                                                         {21, "ONECLASS_SVM"}};

// A number whose problem this build does not solve is a usage error naming
// the problem; one LIBLINEAR lacks says what the numbers are.
TEST(LiblinearHabits, UnsolvedAndUnknownNumbersAreUsageErrors) {
  test::ScratchDir dir;
  for (const LiblinearNumber& entry : liblinear_numbers()) {
    SCOPED_TRACE(entry.number);
    const std::string model = dir.file("m");
    const auto r = test::run_tool("cdtrain", "-q -s " + std::to_string(entry.number) + " " +
                                                 data("heart_scale") + " " + model);
    if (r.status == 0) {
      EXPECT_EQ(load_model(model).solver_type, kLiblinearModelTypes.at(entry.number));
      fs::remove(model);
      continue;
    }
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("cdtrain: error: LIBLINEAR's -s " + std::to_string(entry.number) + " (" +
                         entry.problem + ") is not solved by cdtrain yet\n"),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(fs::exists(model));
  }
  const auto nine = test::run_tool("cdtrain", "-s 9 " + data("heart_scale") + " " + dir.file("m"));
  EXPECT_EQ(nine.status, 2);
  EXPECT_NE(nine.err.find("LIBLINEAR has no solver 9 (its numbers are 0-7, 11-13, 21)"),
            std::string::npos)
      << nine.err;
  const auto disagree =
      test::run_tool("cdtrain", "-s 0 -l l2svm " + data("heart_scale") + " " + dir.file("m"));
  EXPECT_EQ(disagree.status, 2);
  EXPECT_NE(disagree.err.find("-s 0 is LIBLINEAR's L2-regularized logistic regression (primal), "
                              "whose loss is lr"),
            std::string::npos)
      << disagree.err;
  EXPECT_FALSE(fs::exists(dir.file("m")));
}

// A -r that disagrees with the regularizer of LIBLINEAR's number is a usage
// error naming both, for the numbers that fix L1 (5, 6) and those that fix L2
// (0-3, 11); one that agrees is accepted.
TEST(LiblinearHabits, RegularizerThatDisagreesWithTheNumberIsAUsageError) {
  test::ScratchDir dir;
  const std::string model = dir.file("m");
  for (int number : {0, 1, 2, 3, 5, 6, 11}) {
    const LiblinearNumber* entry = find_liblinear_number(number);
    ASSERT_NE(entry, nullptr);
    const std::string fixed = number == 5 || number == 6 ? "l1" : "l2";
    const std::string other = fixed == "l1" ? "l2" : "l1";
    const std::string s = "-s " + std::to_string(number);
    SCOPED_TRACE(s);
    for (const std::string& flags : {s + " -r " + other, "-r " + other + " " + s}) {
      const auto r = test::run_tool("cdtrain", flags + " " + data("heart_scale") + " " + model);
      EXPECT_EQ(r.status, 2) << r.err;
      EXPECT_NE(r.err.find("cdtrain: error: -r " + other + ": " + s + " is LIBLINEAR's " +
                           entry->problem + ", whose regularizer is " + fixed +
                           "; drop -r, or choose a solver by name\n"),
                std::string::npos)
          << r.err;
      EXPECT_NE(r.err.find("usage: cdtrain"), std::string::npos) << r.err;
      EXPECT_FALSE(fs::exists(model));
    }
  }
  const auto agrees =
      test::run_tool("cdtrain", "-q -s 5 -r l1 " + data("heart_scale") + " " + model);
  ASSERT_EQ(agrees.status, 0) << agrees.err;
  EXPECT_EQ(load_model(model).solver_type, "L1R_L2LOSS_SVC");
}

// Names are case-insensitive, and the header names the solver and problem.
TEST(LiblinearHabits, HeaderNamesSolverAndProblem) {
  test::ScratchDir dir;
  const auto named =
      test::run_tool("cdtrain", "-s CdPer " + data("heart_scale") + " " + dir.file("a"));
  ASSERT_EQ(named.status, 0) << named.err;
  EXPECT_EQ(named.err.rfind("cdtrain: training, solver cdper, loss l2svm, regularizer l2\n", 0), 0u)
      << named.err;
  const auto numbered = test::run_tool("cdtrain", "-v 3 -s 0 " + data("heart_scale"));
  ASSERT_EQ(numbered.status, 0) << numbered.err;
  EXPECT_EQ(
      numbered.err.rfind("cdtrain: 3-fold cross validation, solver tron, loss lr, regularizer "
                         "l2 (LIBLINEAR's -s 0: L2-regularized logistic regression (primal))\n",
                         0),
      0u)
      << numbered.err;
  const auto help = test::run_tool("cdtrain", "-h");
  EXPECT_NE(help.out.find("LIBLINEAR's numbers (-s N)"), std::string::npos);
  EXPECT_NE(help.out.find("  0   L2-regularized logistic regression (primal): tron -l lr\n"),
            std::string::npos)
      << help.out;
}

// What LIBSVM's grid.py reads from a -v run (tools/grid.py, LocalWorker):
// the first stdout line that contains "Cross", its last whitespace-separated
// word, without that word's last character (the '%').
std::string grid_py_value(const std::string& out) {
  for (const std::string& line : lines_of(out)) {
    if (line.find("Cross") == std::string::npos) continue;
    std::istringstream words(line);
    std::string word;
    std::string last;
    while (words >> word) last = word;
    return last.substr(0, last.size() - 1);
  }
  return "";
}

// The one-line summaries of -q -v and -q -C name the solver and problem that
// ran, as the stderr header does, and end in the value, which grid.py's rule
// reads: the accuracy the fold lines add up to.
TEST(LiblinearHabits, QuietSummaryNamesSolverAndProblemAndGridPyReadsIt) {
  struct Case {
    std::string flags;
    std::string name;  // what the header and summary say ran
  };
  std::vector<Case> cases = {{"-s cdper -l lr", "solver cdper, loss lr, regularizer l2"},
                             {"-s pegasos", "solver pegasos, loss l1svm, regularizer l2"}};
  for (int number : {0, 2, 3, 5}) {
    const ResolvedNumber resolved = resolve_liblinear_number(number);
    cases.push_back({"-s " + std::to_string(number),
                     std::string("solver ") + solver_info(resolved.solver).name + ", loss " +
                         loss_info(resolved.loss).name + ", regularizer " +
                         regularizer_info(resolved.regularizer).name + " (LIBLINEAR's -s " +
                         std::to_string(number) + ": " + resolved.entry->problem + ")"});
  }
  const std::regex fold("fold [0-9]/5: accuracy [0-9.]+% \\(([0-9]+)/([0-9]+)\\), [0-9.]+ ms");
  for (const Case& c : cases) {
    SCOPED_TRACE(c.flags);
    const auto quiet = test::run_tool("cdtrain", "-q -v 5 " + c.flags + " " + data("heart_scale"));
    ASSERT_EQ(quiet.status, 0) << quiet.err;
    EXPECT_EQ(quiet.err, "");
    ASSERT_EQ(lines_of(quiet.out).size(), 1u) << quiet.out;
    EXPECT_EQ(quiet.out.rfind(c.name + ": Cross Validation Accuracy = ", 0), 0u) << quiet.out;
    const auto loud = test::run_tool("cdtrain", "-v 5 " + c.flags + " " + data("heart_scale"));
    ASSERT_EQ(loud.status, 0) << loud.err;
    EXPECT_EQ(loud.err.rfind("cdtrain: 5-fold cross validation, " + c.name + "\n", 0), 0u)
        << loud.err;
    EXPECT_EQ(loud.out, quiet.out);
    std::size_t right = 0;
    std::size_t total = 0;
    for (const std::string& line : lines_of(loud.err)) {
      std::smatch m;
      if (!std::regex_match(line, m, fold)) continue;
      right += std::stoul(m[1]);
      total += std::stoul(m[2]);
    }
    ASSERT_EQ(total, 270u) << loud.err;
    char accuracy[32];
    std::snprintf(accuracy, sizeof accuracy, "%g",
                  100.0 * static_cast<double>(right) / static_cast<double>(total));
    EXPECT_EQ(grid_py_value(quiet.out), accuracy) << quiet.out;
  }
  const auto search = test::run_tool("cdtrain", "-q -C -s 2 -c 0.25 " + data("heart_scale"));
  ASSERT_EQ(search.status, 0) << search.err;
  const std::vector<std::string> lines = lines_of(search.out);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.back().rfind(cases[3].name + ": Best C = ", 0), 0u) << search.out;
}

// -C stops at the largest C with a warning when the best is there, and
// prints its best line.
TEST(LiblinearHabits, SearchSaysWhenItStoppedAtTheLargestC) {
  test::ScratchDir dir;
  // One C, the largest: the best is necessarily there.
  const auto r = test::run_tool("cdtrain", "-C -c 1024 " + data("heart_scale"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("warning: the best C is the largest the search tries (1024)"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.out.find("Best C = 1024  CV accuracy = "), std::string::npos) << r.out;
}

// -C stops as LIBLINEAR's search does once no fold's model has changed at 3
// consecutive values of C (the first C counting as unchanged). -V shows each
// fold's solve; a CD solve that makes no outer iteration returns its warm
// start unchanged, and one that makes any moves it, so the place to stop
// can be read off the -V lines and compared with where the search stopped.
TEST(LiblinearHabits, SearchCStopsWhenTheModelsStopChanging) {
  const auto r = test::run_tool("cdtrain", "-C -V -m 1 " + data("heart_scale"));
  ASSERT_EQ(r.status, 0) << r.err;
  const std::regex header("fold [0-9]+/5, C = ([0-9.e+-]+)");
  const std::regex summary("cdper: ([0-9]+) outer iterations, .*");
  std::vector<std::string> order;     // the Cs, in order
  std::map<std::string, bool> moved;  // C -> some fold's solve iterated
  std::string current;
  for (const std::string& line : lines_of(r.err)) {
    std::smatch m;
    if (std::regex_match(line, m, header)) {
      current = m[1];
      if (order.empty() || order.back() != current) order.push_back(current);
      moved.emplace(current, false);
    } else if (std::regex_match(line, m, summary)) {
      ASSERT_FALSE(current.empty()) << line;
      if (std::stoi(m[1]) > 0) moved[current] = true;
    }
  }
  ASSERT_FALSE(order.empty()) << r.err;
  std::size_t stop = order.size() - 1;  // where the rule stops, else the last C
  int unchanged = 0;
  for (std::size_t k = 0; k < order.size(); ++k) {
    unchanged = k > 0 && moved[order[k]] ? 0 : unchanged + 1;
    if (unchanged == 3) {
      stop = k;
      break;
    }
  }
  // The search went exactly as far as the rule says (heart_scale's folds
  // stop moving at C = 64, all five starting within eps of their optimum).
  EXPECT_EQ(order.size(), stop + 1) << r.err;
  const std::vector<std::string> out = lines_of(r.out);
  ASSERT_GE(out.size(), 2u);
  char expected_row[32];
  std::snprintf(expected_row, sizeof expected_row, "log2c=%7.2f",
                std::log2(std::stod(order[stop])));
  EXPECT_EQ(out[out.size() - 2].rfind(expected_row, 0), 0u) << r.out;
  EXPECT_NE(r.err.find("cdtrain: no fold's model changed at the last 3 values of C; the search "
                       "stops at C = " +
                       order[stop] + ", as LIBLINEAR's does\n"),
            std::string::npos)
      << r.err;
  EXPECT_LT(std::stod(order[stop]), 1024.0);
}

// With an L1 regularizer every model is w = 0 below a threshold C, so the
// first Cs of the search leave every fold's model unchanged; they must not
// count toward the early stop, or the search ends before any weight is
// nonzero and reports the majority class (55.56% on heart_scale). The best
// row must be within one instance (0.37 points, printed to 4 decimals) of
// -v at the same C.
TEST(LiblinearHabits, SearchCWithL1PassesTheZeroModels) {
  for (const std::string number : {"5", "6"}) {
    const auto r = test::run_tool("cdtrain", "-q -C -m 1 -s " + number + " " + data("heart_scale"));
    ASSERT_EQ(r.status, 0) << r.err;
    const std::regex best(".*Best C = ([0-9.e+-]+)  CV accuracy = ([0-9.]+)%");
    const std::vector<std::string> out = lines_of(r.out);
    ASSERT_FALSE(out.empty());
    std::smatch m;
    ASSERT_TRUE(std::regex_match(out.back(), m, best)) << r.out;
    const std::string best_C = m[1];
    const double accuracy = std::stod(m[2]);
    EXPECT_GT(accuracy, 75.0) << r.out;
    const auto v = test::run_tool(
        "cdtrain", "-q -m 1 -s " + number + " -v 5 -c " + best_C + " " + data("heart_scale"));
    ASSERT_EQ(v.status, 0) << v.err;
    std::smatch vm;
    const std::string line = lines_of(v.out).back();
    ASSERT_TRUE(std::regex_match(line, vm, std::regex(".*Cross Validation Accuracy = ([0-9.]+)%")))
        << v.out;
    EXPECT_NEAR(accuracy, std::stod(vm[1]), 100.0 / 270 + 1e-3) << r.out << v.out;
  }
}

// Options that cannot act on this run are usage errors saying why.
TEST(LiblinearHabits, OptionsThatCannotActAreRefused) {
  test::ScratchDir dir;
  struct Case {
    std::string args;
    std::string message;
  };
  for (const Case& c : {
           Case{"-k 5", "-k sets Pegasos's instances per update; solver cdper does not use it"},
           Case{"-s tron --sigma 0.1", "--sigma sets CD's line search (Algorithm 2); solver tron"},
           Case{"-s pegasos --beta 0.3",
                "--beta sets CD's line search (Algorithm 2); solver pegasos"},
           Case{"--stratified", "--stratified shapes the folds of -v or -C; this run has none"},
           Case{"-V", "-V adds per-iteration lines to -v and -C, which this run lacks"},
           Case{"-q -V -v 5", "-V and -q contradict each other"},
       }) {
    SCOPED_TRACE(c.args);
    const auto r =
        test::run_tool("cdtrain", c.args + " " + data("heart_scale") + " " + dir.file("m"));
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir.file("m")));
  }
  // -m on one binary solve of a solver that runs it on one thread has
  // nothing to parallelize: a warning.
  const auto threads =
      test::run_tool("cdtrain", "-q -m 4 " + data("heart_scale") + " " + dir.file("m"));
  EXPECT_EQ(threads.status, 0) << threads.err;
  EXPECT_NE(
      threads.err.find("warning: -m 4: a problem of two classes without -v or -C is one solve, "
                       "which solver cdper runs on one thread"),
      std::string::npos)
      << threads.err;
}

// A model given as the training data gets the hint cdpredict gives for a
// data file given as the model.
TEST(LiblinearHabits, ModelFileAsTrainingDataGetsAHint) {
  test::ScratchDir dir;
  const std::string model = test::fixture_path("heart_scale.liblinear.model");
  const auto r = test::run_tool("cdtrain", model + " " + dir.file("out"));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find(model + ":1: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("this looks like a model file, not training data"), std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir.file("out")));
}

TEST(LiblinearHabits, VersionOfEveryTool) {
  const auto train = test::run_tool("cdtrain", "--version");
  const auto predict = test::run_tool("cdpredict", "--version");
  const auto scale = test::run_tool("cdscale", "--version");
  EXPECT_EQ(train.status, 0);
  EXPECT_EQ(predict.status, 0);
  EXPECT_EQ(scale.status, 0) << scale.err;
  EXPECT_EQ(scale.err, "");
  EXPECT_TRUE(
      std::regex_match(train.out, std::regex("cdtrain \\(cdlinear\\) [0-9]+\\.[0-9]+\\.[0-9]+\n")))
      << train.out;
  // One version string for all three.
  EXPECT_EQ(train.out.substr(7), predict.out.substr(9));
  EXPECT_EQ(scale.out, "cdscale" + train.out.substr(7));
  // It wins over the rest of the command line, as -h does, and -h lists it.
  EXPECT_EQ(test::run_tool("cdscale", "--version -l x no_such_file").out, scale.out);
  EXPECT_NE(test::run_tool("cdscale", "-h").out.find("--version"), std::string::npos);
}

// --info describes a model, counting its nonzero weights itself.
TEST(LiblinearHabits, PredictInfoDescribesTheModel) {
  const std::string path = test::fixture_path("dna_bias.liblinear.model");
  const auto r = test::run_tool("cdpredict", "--info " + path);
  ASSERT_EQ(r.status, 0) << r.err;
  const LinearModel model = load_model(path);
  std::size_t nonzero = 0;
  for (double w : model.w) nonzero += w != 0;
  EXPECT_EQ(r.out, "model: " + path +
                       "\nsolver_type: L2R_L2LOSS_SVC (classification)\nclasses: 3 (labels 3 1 "
                       "2)\nfeatures: 180\nbias: 1 (one more weight per class vector)\nweight "
                       "vectors: 3\nnonzero weights: " +
                       std::to_string(nonzero) + " of 543\n");
  const auto bad = test::run_tool("cdpredict", "--info " + data("heart_scale"));
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.err.find("this looks like a data file, not a model"), std::string::npos) << bad.err;
  const auto extra = test::run_tool("cdpredict", "--info " + path + " x");
  EXPECT_EQ(extra.status, 2);
}

}  // namespace
}  // namespace cdl
