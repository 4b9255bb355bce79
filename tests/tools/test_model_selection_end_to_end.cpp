// cdtrain's model selection flags end to end: -C, -v with -m and
// --stratified, -i, -wi, and the combinations refused as usage errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "model/model.h"
#include "solver_test_util.h"
#include "solvers/params.h"
#include "test_util.h"
#include "train/cross_validation.h"
#include "train/train.h"

namespace cdl {
namespace {

namespace fs = std::filesystem;

using test::tool_path;

std::string data(const std::string& name) { return test::absolute_data_path(name); }

// Runs cdtrain with `dir` as the working directory, capturing its output
// elsewhere so that `dir` holds only what cdtrain writes.
test::CommandResult cdtrain_in(const test::ScratchDir& dir, const std::string& args) {
  static test::ScratchDir capture;
  const std::string out = capture.file("stdout");
  const std::string err = capture.file("stderr");
  const int raw = std::system(
      ("cd " + dir.file("") + " && " + tool_path("cdtrain") + " " + args + " >" + out + " 2>" + err)
          .c_str());
  return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, test::read_file(out), test::read_file(err)};
}

std::set<std::string> entries(const test::ScratchDir& dir) {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir.file(""))) {
    names.insert(entry.path().filename().string());
  }
  return names;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string percent(double accuracy) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", 100.0 * accuracy);
  return buffer;
}

// cdtrain's Params for `solver` without further flags.
Params defaults(SolverKind solver = SolverKind::kCdPer) {
  Params params;
  params.solver = solver;
  params = resolve_defaults(params);
  validate(params);
  return params;
}

class Quiet : public Reporter {
 public:
  Quiet() : Reporter(sink_, Level::kQuiet) {}

 private:
  std::ostringstream sink_;
};

struct SearchOutput {
  std::vector<double> log2c;
  std::vector<std::string> rates;
  std::string best_C;
  std::string best_accuracy;
};

// Parses and checks the format of -C's stdout.
SearchOutput parse_search(const std::string& out) {
  SearchOutput parsed;
  const std::vector<std::string> lines = lines_of(out);
  EXPECT_GE(lines.size(), 2u) << out;
  EXPECT_EQ(out.back(), '\n');
  if (lines.size() < 2) return parsed;
  // printf("log2c=%7.2f\trate=%g\n", log2(C), 100 * accuracy)
  const std::regex step("log2c=( *-?[0-9]+\\.[0-9]{2})\trate=([0-9]+(\\.[0-9]+)?)");
  for (std::size_t k = 0; k + 1 < lines.size(); ++k) {
    std::smatch match;
    if (!std::regex_match(lines[k], match, step)) {
      ADD_FAILURE() << "not a step line: '" << lines[k] << "'";
      continue;
    }
    EXPECT_EQ(match[1].length(), 7) << lines[k];
    parsed.log2c.push_back(std::stod(match[1]));
    parsed.rates.push_back(match[2]);
  }
  std::smatch match;
  // Named by the solver and problem, as the stderr header names them.
  const std::regex best(
      "solver [a-z-]+, loss [a-z0-9]+, regularizer l[12]( \\(LIBLINEAR's -s [0-9]+: .*\\))?: "
      "Best C = ([0-9.e+-]+)  CV accuracy = ([0-9.]+)%");
  if (std::regex_match(lines.back(), match, best)) {
    parsed.best_C = match[2];
    parsed.best_accuracy = match[3];
  } else {
    ADD_FAILURE() << "not the best line: '" << lines.back() << "'";
  }
  return parsed;
}

// ---- -C ----

TEST(ModelSelectionEndToEnd, SearchCPrintsEveryStepAndTheBestAndWritesNoModel) {
  test::ScratchDir dir;
  const auto r = cdtrain_in(dir, "-C " + data("heart_scale"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(entries(dir).empty());
  const SearchOutput parsed = parse_search(r.out);
  ASSERT_FALSE(parsed.log2c.empty());

  // C = start, 2 start, ... up to 1024, start = search_start_C (2^-13 on
  // heart_scale), or fewer when the models stop changing, which stderr says
  // (SearchCStopsWhenTheModelsStopChanging).
  const test::Data& heart = test::load("heart_scale");
  const double start = search_start_C(heart.file.features, LossKind::kL2Svm);
  EXPECT_EQ(parsed.log2c.front(), std::log2(start));
  if (parsed.log2c.back() != 10.0) {
    char last[32];
    std::snprintf(last, sizeof last, "%g", std::pow(2.0, parsed.log2c.back()));
    EXPECT_NE(r.err.find(std::string("the search stops at C = ") + last), std::string::npos)
        << r.err;
  }
  for (std::size_t k = 1; k < parsed.log2c.size(); ++k) {
    EXPECT_EQ(parsed.log2c[k], parsed.log2c[k - 1] + 1);
  }

  // The same rates as search_C in process (5 folds, seed 1), and the best is
  // the first C with the highest rate.
  Params params = defaults();
  params.cv_folds = 5;
  std::vector<std::string> expected_rates;
  Quiet quiet;
  const CSearch best =
      search_C(heart.file.features, heart.classes, params, start, quiet,
               [&](double, double accuracy) { expected_rates.push_back(percent(accuracy)); });
  EXPECT_EQ(parsed.rates, expected_rates);
  char best_C[32];
  std::snprintf(best_C, sizeof best_C, "%g", best.best_C);
  EXPECT_EQ(parsed.best_C, best_C);
  EXPECT_EQ(parsed.best_accuracy, percent(best.best_accuracy));
  std::size_t first_max = 0;
  for (std::size_t k = 0; k < parsed.rates.size(); ++k) {
    if (std::stod(parsed.rates[k]) > std::stod(parsed.rates[first_max])) first_max = k;
  }
  EXPECT_EQ(parsed.best_accuracy, parsed.rates[first_max]);
  // %g: 2^-12 prints as 0.000244141, as LIBLINEAR prints it.
  const double C = std::pow(2.0, parsed.log2c[first_max]);
  EXPECT_NEAR(std::stod(parsed.best_C), C, 1e-5 * C);

  // Without -V, stderr has the header, the total time line and nothing per
  // iteration (LIBLINEAR prints 27 lines here; we must stay near that).
  EXPECT_EQ(r.err.find("iter "), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("\nfold "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("cdtrain: searching C by 5-fold cross validation, solver cdper"),
            std::string::npos)
      << r.err;
  EXPECT_LE(lines_of(r.out).size() + lines_of(r.err).size(), 40u);
}

TEST(ModelSelectionEndToEnd, SearchCStartsAtTheGivenCAndHonoursFoldsAndQuiet) {
  test::ScratchDir dir;
  const auto r = cdtrain_in(dir, "-q -C -c 0.5 -v 3 " + data("heart_scale") + " named.model");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_TRUE(entries(dir).empty());
  const SearchOutput parsed = parse_search(r.out);
  // 2^-1 ... 2^10 at most (fewer when the models stop changing).
  ASSERT_GE(parsed.log2c.size(), 3u);
  ASSERT_LE(parsed.log2c.size(), 12u);
  EXPECT_EQ(parsed.log2c.front(), -1.0);

  const test::Data& heart = test::load("heart_scale");
  Params params = defaults();
  params.cv_folds = 3;
  params.C = 0.5;
  Quiet quiet;
  EXPECT_EQ(parsed.rates.front(),
            percent(cross_validate(heart.file.features, heart.classes, params, quiet).accuracy));
}

TEST(ModelSelectionEndToEnd, SearchCWithTronOnMultiClassData) {
  test::ScratchDir dir;
  const auto r = cdtrain_in(dir, "-s tron -C -c 128 " + data("dna.scale"));
  ASSERT_EQ(r.status, 0) << r.err;
  const SearchOutput parsed = parse_search(r.out);
  // From the model at C = 128, TRON takes no step at 256 nor at 512 (the
  // start passes the stopping test): three values of C (the first counts)
  // with no model changed, so the search stops there, as LIBLINEAR's would.
  EXPECT_EQ(parsed.log2c, (std::vector<double>{7, 8, 9}));
  EXPECT_NE(r.err.find("cdtrain: no fold's model changed at the last 3 values of C; the search "
                       "stops at C = 512, as LIBLINEAR's does\n"),
            std::string::npos)
      << r.err;
}

TEST(ModelSelectionEndToEnd, SearchCFromAboveTheLargestCIsRefusedOrSearchesAtLeastOneC) {
  // -c above 1024 with -C: LIBLINEAR clamps the start to 1024 (start_C =
  // min(start_C, max_C)) and searches that one C. Refusing it as a usage
  // error would do as well; printing "Best C = 0  CV accuracy = -100%" does
  // not.
  test::ScratchDir dir;
  const auto r = cdtrain_in(dir, "-q -C -c 2048 " + data("heart_scale"));
  if (r.status == 2) {
    EXPECT_NE(r.err.find("-c"), std::string::npos) << r.err;
    return;
  }
  ASSERT_EQ(r.status, 0) << r.err;
  const SearchOutput parsed = parse_search(r.out);
  EXPECT_GE(parsed.log2c.size(), 1u) << r.out;
  ASSERT_FALSE(parsed.best_C.empty()) << r.out;
  EXPECT_GT(std::stod(parsed.best_C), 0.0) << r.out;
  EXPECT_GE(std::stod(parsed.best_accuracy), 0.0) << r.out;
}

// ---- -v, -n, --stratified ----

TEST(ModelSelectionEndToEnd, ProgressIsPrintedInFoldOrderForAnyThreadCount) {
  test::ScratchDir dir;
  const auto one = cdtrain_in(dir, "-V -v 5 -m 1 " + data("heart_scale"));
  const auto three = cdtrain_in(dir, "-V -v 5 -m 3 " + data("heart_scale"));
  ASSERT_EQ(one.status, 0) << one.err;
  ASSERT_EQ(three.status, 0) << three.err;
  EXPECT_EQ(one.out, three.out);
  // Equal but for the timings.
  const std::regex seconds("[0-9]+\\.[0-9]+ ?m?s\\b");
  EXPECT_EQ(std::regex_replace(one.err, seconds, "Ts"),
            std::regex_replace(three.err, seconds, "Ts"));
  std::size_t summaries = 0;
  std::size_t headers = 0;
  std::size_t fold_lines = 0;
  for (const std::string& line : lines_of(one.err)) {
    summaries += line.rfind("cdper: ", 0) == 0;
    headers += line.rfind("fold ", 0) == 0 && line.find(", C = 1") != std::string::npos;
    fold_lines += line.rfind("fold ", 0) == 0 && line.find(": accuracy ") != std::string::npos;
  }
  EXPECT_EQ(summaries, 5u);
  EXPECT_EQ(headers, 5u);
  EXPECT_EQ(fold_lines, 5u);
  // Each fold's header comes before its iterations, folds in order.
  std::size_t last = 0;
  for (int f = 1; f <= 5; ++f) {
    const std::size_t at = one.err.find("fold " + std::to_string(f) + "/5, C = 1\n");
    ASSERT_NE(at, std::string::npos) << one.err;
    EXPECT_GT(at, last);
    EXPECT_EQ(one.err.compare(at + 16, 5, "iter "), 0) << one.err.substr(at, 40);
    last = at;
  }
}

// Without -V, -v prints one line per fold with its accuracy, which add up to
// the accuracy LIBLINEAR's line reports; no per-iteration line.
TEST(ModelSelectionEndToEnd, CrossValidationPrintsOneLinePerFold) {
  test::ScratchDir dir;
  const auto r = cdtrain_in(dir, "-v 5 " + data("heart_scale"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err.find("iter "), std::string::npos) << r.err;
  const std::regex fold("fold ([0-9])/5: accuracy [0-9.]+% \\(([0-9]+)/([0-9]+)\\), [0-9.]+ ms");
  std::size_t right = 0;
  std::size_t total = 0;
  int expected = 1;
  for (const std::string& line : lines_of(r.err)) {
    std::smatch m;
    if (!std::regex_match(line, m, fold)) continue;
    EXPECT_EQ(std::stoi(m[1]), expected++);
    right += std::stoul(m[2]);
    total += std::stoul(m[3]);
  }
  EXPECT_EQ(expected, 6) << r.err;
  EXPECT_EQ(total, 270u);
  char line[128];
  std::snprintf(line, sizeof line,
                "solver cdper, loss l2svm, regularizer l2: Cross Validation Accuracy = %g%%\n",
                100.0 * static_cast<double>(right) / 270.0);
  EXPECT_EQ(r.out, line);
  EXPECT_EQ(r.err.rfind("cdtrain: 5-fold cross validation, solver cdper (default for 13 features "
                        "<= 270 instances), loss l2svm",
                        0),
            0u)
      << r.err;
}

TEST(ModelSelectionEndToEnd, CrossValidationDoesNotDependOnTheThreadCount) {
  // CDPER on dna.scale takes 0.4 s per cross validation: TRON covers the
  // multi-class case.
  struct Case {
    const char* args;
    const char* name;
  };
  for (const Case& c :
       {Case{"-q -v 5 ", "heart_scale"}, Case{"-q -v 5 --stratified ", "heart_scale"},
        Case{"-q -s tron -v 4 ", "heart_scale"}, Case{"-q -s tron -v 4 ", "dna.scale"},
        Case{"-q -s tron -v 5 --stratified ", "dna.scale"}}) {
    {
      const std::string args = c.args;
      const std::string name = c.name;
      test::ScratchDir dir;
      const auto one = cdtrain_in(dir, args + "-m 1 " + data(name));
      ASSERT_EQ(one.status, 0) << one.err;
      EXPECT_TRUE(std::regex_match(
          one.out, std::regex("solver [a-z]+, loss l2svm, regularizer l2: Cross Validation "
                              "Accuracy = [0-9.]+%\n")))
          << one.out;
      for (const char* threads : {"-m 2 ", "-m 3 ", ""}) {
        const auto other = cdtrain_in(dir, args + threads + data(name));
        ASSERT_EQ(other.status, 0) << other.err;
        EXPECT_EQ(other.out, one.out) << args << threads << name;
      }
      EXPECT_TRUE(entries(dir).empty());
    }
  }
}

TEST(ModelSelectionEndToEnd, StratifiedCrossValidationMatchesInProcess) {
  test::ScratchDir dir;
  const auto r = cdtrain_in(dir, "-q -s tron -v 5 --stratified --seed 3 " + data("dna.scale"));
  ASSERT_EQ(r.status, 0) << r.err;
  const test::Data& dna = test::load("dna.scale");
  Params params = defaults(SolverKind::kTron);
  params.cv_folds = 5;
  params.stratified = true;
  params.seed = 3;
  Quiet quiet;
  EXPECT_EQ(r.out,
            "solver tron, loss l2svm, regularizer l2: Cross Validation Accuracy = " +
                percent(cross_validate(dna.file.features, dna.classes, params, quiet).accuracy) +
                "%\n");
}

TEST(ModelSelectionEndToEnd, MoreFoldsThanInstancesWarnsOnStderr) {
  test::ScratchDir dir;
  const std::string small =
      dir.write("small.svm", "1 1:1\n-1 1:-1\n1 1:0.8 2:0.1\n-1 1:-0.7\n1 1:0.5\n-1 2:1\n");
  const auto r = cdtrain_in(dir, "-q -v 10 " + small);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "warning: 10 folds of 6 instances: using 6 (leave-one-out)\n");
  EXPECT_TRUE(std::regex_match(
      r.out, std::regex("solver cdper, loss l2svm, regularizer l2: Cross Validation Accuracy = "
                        "[0-9.]+%\n")))
      << r.out;
}

// ---- -i ----

TEST(ModelSelectionEndToEnd, InitialModelAtTheOptimumStopsAtOnce) {
  for (const char* solver : {"cdper", "tron"}) {
    test::ScratchDir dir;
    const std::string s = std::string("-s ") + solver + " ";
    const auto tight = cdtrain_in(
        dir, "-q " + s + "-e 1e-10 --max-iter 20000 " + data("heart_scale") + " optimum.model");
    ASSERT_EQ(tight.status, 0) << tight.err;
    const auto warm =
        cdtrain_in(dir, s + "-i optimum.model " + data("heart_scale") + " warm.model");
    ASSERT_EQ(warm.status, 0) << warm.err;
    EXPECT_NE(warm.err.find(std::string(solver) + ": 0 outer iterations"), std::string::npos)
        << warm.err;
    EXPECT_EQ(warm.err.find("iter "), std::string::npos) << warm.err;
    EXPECT_EQ(test::read_file(dir.file("warm.model")), test::read_file(dir.file("optimum.model")))
        << solver;
  }
}

// -i with a model of other labels, another class count or another bias
// setting would start from weights that mean something else: refused (exit
// 2), naming the mismatch, and no model is written.
TEST(ModelSelectionEndToEnd, InitialModelOfAnotherProblemIsRefusedNamingTheMismatch) {
  test::ScratchDir dir;
  ASSERT_EQ(cdtrain_in(dir, "-q -s tron " + data("dna.scale") + " dna.model").status, 0);
  ASSERT_EQ(cdtrain_in(dir, "-q -s tron -B 1 " + data("heart_scale") + " bias.model").status, 0);
  ASSERT_EQ(cdtrain_in(dir, "-q -s tron " + data("heart_scale") + " heart.model").status, 0);
  std::string relabeled = test::read_file(dir.file("heart.model"));
  const std::size_t at = relabeled.find("label 1 -1\n");
  ASSERT_NE(at, std::string::npos);
  relabeled.replace(at, 11, "label 5 7\n");
  dir.write("five_seven.model", relabeled);
  struct Case {
    std::string args;
    std::string message;
  };
  for (const Case& c : {
           Case{"-i dna.model",
                "-i dna.model: the model has 3 classes (1 2 3), the training data "
                "2 (-1 1)"},
           Case{"-i five_seven.model",
                "-i five_seven.model: the model's labels are 5 7, the training data's -1 1"},
           Case{"-i bias.model", "-i bias.model: the model has bias 1, this run -B -1"},
           Case{"-B 2 -i bias.model", "-i bias.model: the model has bias 1, this run -B 2"},
           Case{"-B 1 -i heart.model", "-i heart.model: the model has bias -1, this run -B 1"},
       }) {
    SCOPED_TRACE(c.args);
    const auto r =
        cdtrain_in(dir, "-q -s tron " + c.args + " " + data("heart_scale") + " out.model");
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir.file("out.model")));
  }
  // The same problem's model is taken (and reaches the same optimum).
  const auto warm =
      cdtrain_in(dir, "-q -s tron -e 1e-8 -B 1 -i bias.model " + data("heart_scale") + " w.model");
  ASSERT_EQ(warm.status, 0) << warm.err;
  const auto cold = cdtrain_in(dir, "-q -s tron -e 1e-8 -B 1 " + data("heart_scale") + " c.model");
  ASSERT_EQ(cold.status, 0) << cold.err;
  const LinearModel a = load_model(dir.file("w.model"));
  const LinearModel b = load_model(dir.file("c.model"));
  ASSERT_EQ(a.w.size(), b.w.size());
  for (std::size_t i = 0; i < a.w.size(); ++i) EXPECT_NEAR(a.w[i], b.w[i], 1e-5) << i;
}

TEST(ModelSelectionEndToEnd, InitialModelIsNotSilentlyIgnoredByCrossValidation) {
  // -i names a model to start from; with -v or -C cdtrain neither uses it
  // nor checks it. Like --trace, it should be refused there (exit 2), or at
  // least read (a missing file: exit 1); a silent success hides the typo.
  test::ScratchDir dir;
  for (const char* mode : {"-v 5", "-C -c 256"}) {
    const auto r =
        cdtrain_in(dir, std::string("-q ") + mode + " -i no_such.model " + data("heart_scale"));
    EXPECT_NE(r.status, 0) << mode << ": " << r.out << r.err;
  }
}

TEST(ModelSelectionEndToEnd, MissingInitialModelExitsOne) {
  test::ScratchDir dir;
  const auto r = cdtrain_in(dir, "-q -i no_such.model " + data("heart_scale") + " out.model");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("no_such.model"), std::string::npos) << r.err;
  EXPECT_TRUE(entries(dir).empty());

  dir.write("bad.model", "solver_type L2R_L2LOSS_SVC\nnr_class two\n");
  const auto bad = cdtrain_in(dir, "-q -i bad.model " + data("heart_scale") + " out.model");
  EXPECT_EQ(bad.status, 1) << bad.err;
  EXPECT_NE(bad.err.find("bad.model:2"), std::string::npos) << bad.err;
  EXPECT_EQ(entries(dir), (std::set<std::string>{"bad.model"}));
}

// ---- -wi ----

TEST(ModelSelectionEndToEnd, ClassWeightsTrainTheWeightedModel) {
  test::ScratchDir dir;
  const auto r = cdtrain_in(dir, "-q -w1 2 -w-1 0.5 " + data("heart_scale") + " w.model");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto plain = cdtrain_in(dir, "-q " + data("heart_scale") + " plain.model");
  ASSERT_EQ(plain.status, 0) << plain.err;
  const std::string weighted = test::read_file(dir.file("w.model"));
  EXPECT_NE(weighted, test::read_file(dir.file("plain.model")));

  const test::Data& heart = test::load("heart_scale");
  Params params = defaults();
  params.class_weights = {{1, 2.0}, {-1, 0.5}};
  Quiet quiet;
  EXPECT_EQ(weighted, format_model(train(heart.file.features, heart.classes, params, quiet)));
}

TEST(ModelSelectionEndToEnd, ClassWeightsApplyToCrossValidation) {
  test::ScratchDir dir;
  const auto r = cdtrain_in(dir, "-q -v 5 -w1 4 " + data("heart_scale"));
  ASSERT_EQ(r.status, 0) << r.err;
  const test::Data& heart = test::load("heart_scale");
  Params params = defaults();
  params.cv_folds = 5;
  params.class_weights = {{1, 4.0}};
  Quiet quiet;
  EXPECT_EQ(
      r.out,
      "solver cdper, loss l2svm, regularizer l2: Cross Validation Accuracy = " +
          percent(cross_validate(heart.file.features, heart.classes, params, quiet).accuracy) +
          "%\n");
}

// ---- usage errors: exit 2 with the usage, before any training ----

// -C for -s 11 walks LIBLINEAR 2.50's grid of p (20 steps of max|y|, down
// to 0) and ends with its line. LIBLINEAR 2.50 on the same file:
// `train -s 11 -C diabetes.svm` (../shared/peers, built by build.sh) printed
// "Best C = 4 Best p = 155.7  CV MSE = 26437"; its folds are not ours, so the
// best (C, p) may differ, but the CV MSE is within 2% of its.
TEST(ModelSelectionEndToEnd, SearchCAndPForRegressionEndsWithLiblinearsLine) {
  test::ScratchDir dir;
  const std::string diabetes = test::fixture_path("diabetes.svm");
  const auto r = cdtrain_in(dir, "-q -s 11 -C " + diabetes);
  ASSERT_EQ(r.status, 0) << r.err;
  const std::vector<std::string> lines = lines_of(r.out);
  ASSERT_GE(lines.size(), 21u);
  // diabetes.svm's largest target is 346: p = i 346 / 20 = 17.3 i.
  const std::regex step(R"(log2c= *(-?[0-9.]+)\tp= *([0-9.]+)\tMean squared error=(\S+))");
  std::set<std::string> ps;
  for (std::size_t k = 0; k + 1 < lines.size(); ++k) {
    std::smatch m;
    ASSERT_TRUE(std::regex_match(lines[k], m, step)) << lines[k];
    ps.insert(m[2]);
  }
  EXPECT_EQ(ps.size(), 20u);
  EXPECT_EQ(ps.count("328.70"), 1u);  // i = 19
  EXPECT_EQ(ps.count("0.00"), 1u);
  std::smatch best;
  const std::regex last(R"(.*: Best C = (\S+) Best p = (\S+)  CV MSE = (\S+))");
  ASSERT_TRUE(std::regex_match(lines.back(), best, last)) << lines.back();
  EXPECT_LE(std::stod(best[3]), 1.02 * 26437);
  EXPECT_TRUE(entries(dir).empty());

  // -p starts the grid at the point at or below it: 40 / 17.3 -> i = 2.
  const auto from_p = cdtrain_in(dir, "-q -s 11 -p 40 -C " + diabetes);
  ASSERT_EQ(from_p.status, 0) << from_p.err;
  std::set<std::string> from_ps;
  for (const std::string& line : lines_of(from_p.out)) {
    std::smatch m;
    if (std::regex_match(line, m, step)) from_ps.insert(m[2]);
  }
  EXPECT_EQ(from_ps, (std::set<std::string>{"34.60", "17.30", "0.00"}));
}

TEST(ModelSelectionEndToEnd, RefusedCombinationsExitTwo) {
  test::ScratchDir dir;
  dir.write("some.model", "");
  const std::string heart = data("heart_scale");
  struct Case {
    std::string args;
    std::string message;  // part of the error
  };
  for (const Case& c : {
           Case{"-s pegasos -i some.model " + heart, "-i"},
           Case{"-s pegasos -l l1svm -i some.model " + heart, "-i"},
           Case{"--trace t.tsv -v 5 " + heart, "--trace"},
           Case{"--trace t.tsv -C " + heart, "--trace"},
           Case{"-t " + heart + " " + heart, "-t"},
           Case{"-w1 abc " + heart, "-w1"},
           Case{"-wx 2 " + heart, "-wx"},
           Case{"-w 2 " + heart, "-w"},
           Case{"-w1 0 " + heart, "-w1"},
           Case{"-w1 -2 " + heart, "-w1"},
           Case{"-m 0 -v 5 " + heart, "-m"},
           Case{"-m -1 " + heart, "-m"},
           Case{"-m 1.5 " + heart, "-m"},
           Case{"-m 1025 " + heart, "-m"},
           Case{"-n 2 " + heart, "the number of threads is -m"},
           Case{"-v 1 " + heart, "-v"},
       }) {
    const auto r = cdtrain_in(dir, c.args);
    EXPECT_EQ(r.status, 2) << c.args << "\n" << r.err;
    EXPECT_EQ(r.out, "") << c.args;
    EXPECT_EQ(r.err.rfind("cdtrain: error: ", 0), 0u) << c.args << "\n" << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << "\n" << r.err;
    EXPECT_NE(r.err.find("usage: cdtrain"), std::string::npos) << c.args << "\n" << r.err;
  }
  EXPECT_EQ(entries(dir), (std::set<std::string>{"some.model"}));
}

}  // namespace
}  // namespace cdl
