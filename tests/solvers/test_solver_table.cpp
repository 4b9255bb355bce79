// The solver registry (solver_table.h): every row is complete and says of
// itself what the rest of the program reads from it, the checks that read
// the rows refuse what a row does not take, and train() picks its threads
// by what the reporter does, not by its type.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "select/selection_rule.h"
#include "solver_test_util.h"
#include "solvers/liblinear_numbers.h"
#include "solvers/params.h"
#include "solvers/pdcd.h"
#include "solvers/solver.h"
#include "solvers/solver_cd.h"
#include "solvers/solver_pegasos.h"
#include "solvers/solver_table.h"
#include "train/train.h"
#include "util/error.h"

namespace cdl {
namespace {

// The solvers' own option groups, each defined beside the solver that
// reads it.
const std::vector<const OptionGroup*>& own_options() {
  static const std::vector<const OptionGroup*> groups = {
      select_options(),    line_search_options(), pegasos_options(),
      shrink_options(),    gap_tol_options(),     pd_step_options(),
      partition_options(), exact_gaps_options(),  fixed_parts_options()};
  return groups;
}

template <class T>
bool contains(const std::vector<T>& list, const T& value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

TEST(SolverTable, EveryRowIsComplete) {
  std::set<std::string> names;
  for (const SolverInfo& row : solver_table()) {
    SCOPED_TRACE(row.name);
    EXPECT_TRUE(names.insert(row.name).second) << "two rows named " << row.name;
    EXPECT_EQ(row.kind.name(), row.name);
    // One entry point: per binary problem, or one model over all classes.
    EXPECT_NE(row.solve == nullptr, row.solve_all_classes == nullptr);
    EXPECT_FALSE(row.model_types.empty());
    EXPECT_STRNE(row.description, "");
    EXPECT_STRNE(row.stopping, "");
    EXPECT_FALSE(row.losses.empty());
    EXPECT_FALSE(row.regularizers.empty());
    // A model type for each pair the row trains (the Lasso's rules and
    // the L1-loss SVR aside, every pair is trainable), and none other.
    for (LossKind loss : row.losses) {
      for (RegularizerKind regularizer : row.regularizers) {
        EXPECT_NO_THROW(model_solver_type(row, loss, regularizer))
            << loss_info(loss).name << " " << regularizer_info(regularizer).name;
      }
    }
    for (const ModelType& type : row.model_types) {
      EXPECT_TRUE(contains(row.losses, type.loss)) << type.name;
      EXPECT_TRUE(contains(row.regularizers, type.regularizer)) << type.name;
    }
    for (const OptionGroup* group : row.options) {
      EXPECT_TRUE(contains(own_options(), group)) << group->name;
    }
    // A row with a rule takes --select, and its rule serves its coordinates.
    EXPECT_EQ(row.rule != nullptr, row.takes_option(*select_options()));
    if (row.rule != nullptr) {
      const RuleInfo* rule = find_rule(row.rule);
      ASSERT_NE(rule, nullptr) << row.rule;
      EXPECT_TRUE(rule->applies_to(row.coordinates));
    }
    for (const char* name : row.only_rules) {
      const RuleInfo* rule = find_rule(name);
      ASSERT_NE(rule, nullptr) << name;
      EXPECT_TRUE(rule->applies_to(row.coordinates)) << name;
    }
    for (LossKind loss : row.intercept_trace_losses) EXPECT_TRUE(contains(row.losses, loss));
  }
}

// A model type means one loss and regularizer whichever row writes it, and
// find_model_type() says what it is; a name no row writes is unknown.
TEST(SolverTable, ModelTypesHaveOneMeaning) {
  std::set<std::string> names;
  for (const SolverInfo& row : solver_table()) {
    for (const ModelType& type : row.model_types) {
      SCOPED_TRACE(type.name);
      names.insert(type.name);
      const ModelTypeInfo* info = find_model_type(type.name);
      ASSERT_NE(info, nullptr);
      EXPECT_EQ(info->loss, type.loss);
      EXPECT_EQ(info->regularizer, type.regularizer);
      EXPECT_EQ(info->all_classes, row.solve_all_classes != nullptr);
      EXPECT_EQ(info->probabilities, type.probabilities);
      // LIBLINEAR's logistic models give its one-vs-rest probabilities.
      EXPECT_EQ(type.probabilities == ProbabilityKind::kSigmoid, type.loss == LossKind::kLogistic);
    }
  }
  // LIBLINEAR 2.50's twelve, cdlinear's three regressions and its
  // multinomial logistic regression.
  EXPECT_EQ(names.size(), 16u);
  EXPECT_EQ(find_model_type("L2R_FOO"), nullptr);
  EXPECT_EQ(find_model_type(""), nullptr);
  ASSERT_NE(find_model_type("MCSVM_CS"), nullptr);
  EXPECT_TRUE(find_model_type("MCSVM_CS")->all_classes);
  EXPECT_EQ(find_model_type("L2R_LR_DUAL")->loss, LossKind::kLogistic);
  EXPECT_EQ(find_model_type("L1R_SQUARED_LOSS")->regularizer, RegularizerKind::kL1);
}

// The rows that wide data send LIBLINEAR's primal numbers to train those
// numbers' problems, and one row is the default L2-SVM solver there.
TEST(SolverTable, WideDataRowsTrainTheirNumbersProblems) {
  int defaults = 0;
  std::set<int> numbers;
  for (const SolverInfo& row : solver_table()) {
    SCOPED_TRACE(row.name);
    if (row.wide_data_default) {
      ++defaults;
      EXPECT_TRUE(contains(row.losses, LossKind::kL2Svm));
    }
    for (int number : row.wide_data_numbers) {
      EXPECT_TRUE(numbers.insert(number).second) << number;
      const ResolvedNumber resolved = resolve_liblinear_number(number);
      EXPECT_NE(resolved.solver, row.kind) << number;
      EXPECT_TRUE(contains(row.losses, resolved.loss)) << number;
      EXPECT_EQ(resolved.regularizer, RegularizerKind::kL2) << number;
      EXPECT_TRUE(row.dual) << number;
    }
  }
  EXPECT_EQ(defaults, 1);
  EXPECT_EQ(numbers, (std::set<int>{kPrimalL2SvmNumber, kPrimalSvrNumber}));
}

// Each LIBLINEAR number is listed by one row at most, for a loss and
// regularizer that row trains, and -s N resolves to that row.
TEST(SolverTable, LiblinearNumbersComeFromTheRows) {
  std::set<int> numbers;
  for (const SolverInfo& row : solver_table()) {
    for (const LiblinearProblem& problem : row.liblinear) {
      SCOPED_TRACE(problem.number);
      EXPECT_TRUE(numbers.insert(problem.number).second) << "two rows list it";
      ASSERT_NE(find_liblinear_number(problem.number), nullptr);
      EXPECT_TRUE(contains(row.losses, problem.loss));
      EXPECT_TRUE(contains(row.regularizers, problem.regularizer));
      const ResolvedNumber resolved = resolve_liblinear_number(problem.number);
      EXPECT_EQ(resolved.solver, row.kind);
      EXPECT_EQ(resolved.loss, problem.loss);
      EXPECT_EQ(resolved.regularizer, problem.regularizer);
    }
  }
  for (const LiblinearNumber& entry : liblinear_numbers()) {
    if (numbers.count(entry.number) == 0) {
      EXPECT_THROW(resolve_liblinear_number(entry.number), ConfigError) << entry.number;
    }
  }
}

// The Params that set each solver's own option, as the command line would.
Params with_option(SolverKind solver, const OptionGroup* group) {
  Params params;
  params.solver = solver;
  if (group == select_options()) params.own<SelectOptions>().rule = "cyclic";
  if (group == line_search_options()) params.own<LineSearchOptions>().sigma = 0.1;
  if (group == pegasos_options()) params.own<PegasosOptions>().batch = 4;
  if (group == shrink_options()) params.own<DualOptions>().shrink = false;
  if (group == gap_tol_options()) params.own<GapTolOptions>().gap_tol = 1e-3;
  if (group == pd_step_options()) params.own<PdcdOptions>().sigma = 2.0;
  if (group == partition_options()) params.own<PartitionOptions>().count = 2;
  if (group == exact_gaps_options()) params.own<DualOptions>().exact_gaps = true;
  if (group == fixed_parts_options()) params.own<DualOptions>().fixed_parts = true;
  return resolve_defaults(params);
}

// validate() takes a solver's own option exactly where the row lists it,
// and the refusal names the flag and every row that takes it.
TEST(SolverTable, ValidateTakesExactlyTheOptionsOfTheRow) {
  for (const SolverInfo& row : solver_table()) {
    for (const OptionGroup* group : own_options()) {
      SCOPED_TRACE(std::string(row.name) + " " + group->name);
      const Params params = with_option(row.kind, group);
      ASSERT_EQ(solver_options_set(params).size(), 1u);
      if (row.takes_option(*group)) {
        EXPECT_NO_THROW(validate(params));
        continue;
      }
      try {
        validate(params);
        ADD_FAILURE() << "accepted";
      } catch (const ConfigError& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("solver " + std::string(row.name) + " does not use it (use -s " +
                               solvers_taking(*group) + ")"),
                  std::string::npos)
            << message;
      }
    }
  }
  EXPECT_EQ(solvers_taking(*shrink_options()), "dcd");
  EXPECT_EQ(solvers_taking(*gap_tol_options()), "dcd, pdcd, rcd-pair");
}

// The groups that the rows take are the solvers' own options, each once,
// and each flag's setter sets what its is_set reads, from the defaults.
TEST(SolverTable, OptionGroupsSetWhatTheyReport) {
  const auto& groups = solver_option_groups();
  EXPECT_EQ(std::set<const OptionGroup*>(groups.begin(), groups.end()),
            std::set<const OptionGroup*>(own_options().begin(), own_options().end()));
  EXPECT_EQ(groups.size(), own_options().size());
  const std::map<std::string, std::string> values = {
      {"--select", "cyclic"}, {"--sigma", "0.1"},
      {"--beta", "0.25"},     {"-k", "3"},
      {"--pd-sigma", "2"},    {"--tau-factor", "0.5"},
      {"--gap-tol", "0.001"}, {"--partitions", "3"}};
  for (const OptionGroup* group : groups) {
    for (const OptionFlag& flag : group->flags) {
      SCOPED_TRACE(flag.flag);
      Params params;
      EXPECT_FALSE(flag.is_set(params));
      const auto value = values.find(flag.flag);
      EXPECT_EQ(value != values.end(), flag.argument != nullptr);
      flag.set(params, flag.flag, value == values.end() ? "" : value->second);
      EXPECT_TRUE(flag.is_set(params));
      const auto set = solver_options_set(params);
      ASSERT_EQ(set.size(), 1u);
      EXPECT_EQ(set[0].group, group);
    }
  }
  Params params;
  line_search_options()->flags[1].set(params, "--beta", "0.25");
  EXPECT_EQ(params.own<LineSearchOptions>().beta, 0.25);
  EXPECT_EQ(params.own<LineSearchOptions>().sigma, 0.01);
  EXPECT_EQ(std::as_const(params).own<PdcdOptions>().tau_factor, 0.95);
  EXPECT_THROW(pegasos_options()->flags[0].set(params, "-k", "0"), ConfigError);
}

// A row's only_rules narrow --select: the intercept solvers take the rules
// that order their coordinates.
TEST(SolverTable, OnlyRulesNarrowSelect) {
  Params params;
  params.solver = SolverKind("pdcd");
  params.own<SelectOptions>().rule = "cyclic";
  EXPECT_NO_THROW(validate(resolve_defaults(params)));
  params.own<SelectOptions>().rule = "importance";
  try {
    validate(resolve_defaults(params));
    ADD_FAILURE() << "accepted";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()),
              "--select: solver pdcd takes uniform, perm, perm-once or cyclic");
  }
}

// What the fake multi-class solver below saw.
struct SeenInput {
  std::size_t rows = 0;
  std::vector<double> class_costs;
  bool held_out = false;
};
SeenInput seen;
bool wrong_size = false;

// Returns weight k + 1 + i / 1000 for feature i and class k.
std::vector<double> fake_all_classes(const MultiClassInput& input) {
  seen = {input.x.num_rows, input.class_costs, input.held_out != nullptr};
  const std::size_t nr_w = input.classes.labels.size();
  std::vector<double> w(input.x.num_cols * nr_w + (wrong_size ? 1 : 0));
  for (std::size_t i = 0; i < input.x.num_cols; ++i) {
    for (std::size_t k = 0; k < nr_w; ++k) {
      w[i * nr_w + k] = static_cast<double>(k + 1) + static_cast<double>(i) / 1000;
    }
  }
  return w;
}

// A row with solve_all_classes gets every class at once, with each class's
// C, and its weights become the model's as they are; train() checks their
// number.
TEST(SolverTable, AllClassesSolverGetsEveryClassOnce) {
  SolverInfo row;
  row.name = "fake-all-classes";
  row.solve_all_classes = fake_all_classes;
  row.losses = {LossKind::kL1Svm};
  row.model_types = {{LossKind::kL1Svm, RegularizerKind::kL2, "MCSVM_CS"}};
  const test::Data& data = test::load("dna.scale");
  Params params;
  params.loss = LossKind::kL1Svm;
  params.C = 2;
  params.class_weights[data.classes.labels[1]] = 3;
  std::ostringstream log;
  Reporter reporter(log, Reporter::Level::kQuiet);
  const LinearModel model = train_with_row(row, data.file.features, data.classes, params, reporter);
  ASSERT_EQ(model.nr_w(), data.classes.labels.size());
  EXPECT_EQ(model.solver_type, "MCSVM_CS");
  EXPECT_EQ(seen.rows, data.file.features.num_rows);
  EXPECT_EQ(seen.class_costs, (std::vector<double>{2, 6, 2}));
  EXPECT_FALSE(seen.held_out);
  ASSERT_EQ(model.w.size(), data.file.features.num_cols * 3);
  EXPECT_EQ(model.w[5 * 3 + 2], 3.005);
  wrong_size = true;
  EXPECT_THROW(train_with_row(row, data.file.features, data.classes, params, reporter), Error);
  wrong_size = false;
}

// Records the order of the problems and iterations train() reports.
class OrderRecorder : public Reporter {
 public:
  OrderRecorder() : Reporter(sink_, Level::kQuiet) {}
  void begin_problem(const Problem&, LossKind, int positive_label) override {
    labels.push_back(positive_label);
  }
  void iteration(const IterationInfo&) override { steps.push_back(labels.back()); }
  bool observes_iterations() const override { return true; }
  std::vector<int> labels;
  std::vector<int> steps;  // the class of each reported iteration

 private:
  std::ostringstream sink_;
};

// A reporter that observes the iterations sees every class in order, with
// -n 2 as with -n 1; a printing one lets the classes run on threads, and
// prints what one thread prints. The models are the same either way.
TEST(TrainThreads, ObservingReportersSeeTheClassesInOrder) {
  const test::Data& data = test::load("dna.scale");
  Params params = resolve_defaults(Params{});
  params.threads = 2;
  OrderRecorder recorder;
  const LinearModel observed = train(data.file.features, data.classes, params, recorder);
  EXPECT_EQ(recorder.labels, data.classes.labels);
  ASSERT_FALSE(recorder.steps.empty());
  EXPECT_TRUE(std::is_sorted(recorder.steps.begin(), recorder.steps.end(), [&](int a, int b) {
    const auto& l = data.classes.labels;
    return std::find(l.begin(), l.end(), a) < std::find(l.begin(), l.end(), b);
  }));
  std::ostringstream threaded_log;
  std::ostringstream serial_log;
  Reporter threaded(threaded_log, Reporter::Level::kNormal);
  const LinearModel on_threads = train(data.file.features, data.classes, params, threaded);
  params.threads = 1;
  Reporter serial(serial_log, Reporter::Level::kNormal);
  const LinearModel on_one = train(data.file.features, data.classes, params, serial);
  EXPECT_EQ(observed.w, on_one.w);
  EXPECT_EQ(on_threads.w, on_one.w);
  // The logs differ only in their times, and in a time's unit when one run
  // crosses a second (under ThreadSanitizer): "#ms" and "#s" are both "#s".
  const auto untimed = [](std::string log) {
    std::string out;
    bool digits = false;
    for (char c : log) {
      const bool digit = (c >= '0' && c <= '9') || c == '.';
      if (!digit || !digits) out += digit ? '#' : c;
      if (c == 's' && out.size() >= 3 && out.compare(out.size() - 3, 3, "#ms") == 0) {
        out.erase(out.size() - 2, 1);
      }
      digits = digit;
    }
    return out;
  };
  EXPECT_EQ(untimed(threaded_log.str()), untimed(serial_log.str()));
}

}  // namespace
}  // namespace cdl
