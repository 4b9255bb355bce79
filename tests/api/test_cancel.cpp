// TrainOptions::on_iteration and cancel: every solver reports each outer
// iteration, and a cancel asked for there stops training with Cancelled,
// leaving nothing behind that changes the next run.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "api/run_reporter.h"
#include "cdlinear.h"
#include "data/problem.h"
#include "data/sparse_matrix.h"
#include "solvers/liblinear_numbers.h"
#include "solvers/params.h"
#include "solvers/solver_table.h"
#include "test_util.h"
#include "train/train.h"

namespace cdl {
namespace {

// Every LIBLINEAR number and every solver by name (with its default loss).
std::vector<std::string> every_solver() {
  std::vector<std::string> out;
  for (const LiblinearNumber& n : liblinear_numbers()) out.push_back(std::to_string(n.number));
  for (const SolverInfo& row : solver_table()) out.push_back(row.name);
  return out;
}

TEST(Cancel, EverySolverStopsAtItsFirstIteration) {
  const cdlinear::Data data = cdlinear::Data::read(test::data_path("heart_scale"));
  std::size_t solvers = 0;
  for (const std::string& solver : every_solver()) {
    SCOPED_TRACE("solver " + solver);
    cdlinear::TrainOptions options;
    options.solver = solver;
    const std::string reference = cdlinear::train(data, options).to_string();
    ++solvers;
    // The callback asks to stop.
    int calls = 0;
    options.on_iteration = [&](const cdlinear::IterationProgress& p) {
      ++calls;
      EXPECT_EQ(p.iteration, 1);
      EXPECT_EQ(p.problem, 0u);
      return false;
    };
    EXPECT_THROW(cdlinear::train(data, options), cdlinear::Cancelled);
    EXPECT_EQ(calls, 1);
    // The flag, set from the callback, is read after it.
    std::atomic<bool> cancel{false};
    calls = 0;
    options.cancel = &cancel;
    options.on_iteration = [&](const cdlinear::IterationProgress&) {
      ++calls;
      cancel = true;
      return true;
    };
    EXPECT_THROW(cdlinear::train(data, options), cdlinear::Cancelled);
    EXPECT_EQ(calls, 1);
    // Nothing of the cancelled runs is left to change the next one.
    cancel = false;
    options.on_iteration = nullptr;
    EXPECT_EQ(cdlinear::train(data, options).to_string(), reference);
  }
  EXPECT_EQ(solvers, every_solver().size());
}

TEST(Cancel, ProgressIsEveryIterationOfEveryClassOnThreads) {
  const cdlinear::Data data = cdlinear::Data::read(test::data_path("dna.scale"));
  cdlinear::TrainOptions options;
  options.solver = "dcd";
  options.threads = 3;
  std::mutex mutex;
  std::vector<std::vector<cdlinear::IterationProgress>> heard(3);
  options.on_iteration = [&](const cdlinear::IterationProgress& p) {
    const std::lock_guard<std::mutex> lock(mutex);
    EXPECT_LT(p.problem, 3u);
    if (p.problem < 3) heard[p.problem].push_back(p);
    return true;
  };
  const cdlinear::Model model = cdlinear::train(data, options);
  ASSERT_EQ(model.iterations().size(), 3u);
  for (std::size_t k = 0; k < 3; ++k) {
    SCOPED_TRACE(k);
    ASSERT_EQ(heard[k].size(), static_cast<std::size_t>(model.iterations()[k]));
    for (std::size_t i = 0; i < heard[k].size(); ++i) {
      EXPECT_EQ(heard[k][i].iteration, static_cast<std::int64_t>(i + 1));
      EXPECT_FALSE(std::isnan(heard[k][i].objective));
    }
  }
  // A flag set on the third iteration of any class stops them all.
  std::atomic<bool> cancel{false};
  options.cancel = &cancel;
  options.on_iteration = [&](const cdlinear::IterationProgress& p) {
    if (p.iteration == 3) cancel = true;
    return true;
  };
  EXPECT_THROW(cdlinear::train(data, options), cdlinear::Cancelled);
}

// 20 classes of 10 instances each, in row order: instance i is of class
// i % 20, with a feature of its class and one of three shared ones.
struct ManyClasses {
  static constexpr std::size_t kClasses = 20;
  static constexpr std::size_t kRows = 200;
  CsrMatrix rows;
  std::vector<std::int32_t> indices;  // rows.col_idx as int32; data() borrows it and rows.values
  std::vector<double> labels;
  ManyClasses() {
    rows.num_rows = kRows;
    rows.num_cols = kClasses + 3;
    for (std::size_t i = 0; i < kRows; ++i) {
      rows.col_idx.push_back(static_cast<Index>(i % kClasses));
      rows.values.push_back(1);
      rows.col_idx.push_back(static_cast<Index>(kClasses + i % 3));
      rows.values.push_back(0.5);
      rows.row_ptr.push_back(static_cast<std::int64_t>(rows.values.size()));
      labels.push_back(static_cast<double>(i % kClasses));
    }
    indices.assign(rows.col_idx.begin(), rows.col_idx.end());
  }
  cdlinear::Data data() const {
    const std::vector<std::int64_t>& indptr = rows.row_ptr;
    cdlinear::SparseArrays x;
    x.rows = rows.num_rows;
    x.cols = rows.num_cols;
    x.nnz = rows.values.size();
    x.indptr = indptr.data();
    x.indptr_type = cdlinear::IndexType::kInt64;
    x.indices = indices.data();
    x.indices_type = cdlinear::IndexType::kInt32;
    x.values = rows.values.data();
    return cdlinear::Data::from_csr(x, labels);
  }
};

// The first call of the callback waits a little, so that the other thread
// reaches its own call meanwhile; it then stops training by `stop`, after
// which the callback is not called again.
void expect_one_call_on_threads(const std::function<bool()>& stop) {
  const ManyClasses classes;  // outlives the Data, which borrows its arrays
  const cdlinear::Data data = classes.data();
  cdlinear::TrainOptions options;
  options.threads = 2;
  std::atomic<int> calls{0};
  options.on_iteration = [&](const cdlinear::IterationProgress&) {
    ++calls;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    return stop();
  };
  try {
    cdlinear::train(data, options);
    ADD_FAILURE() << "train() returned";
  } catch (const std::exception&) {
  }
  EXPECT_EQ(calls.load(), 1);
}

TEST(Cancel, CallbackReturningFalseOnThreadsIsTheLastCall) {
  expect_one_call_on_threads([] { return false; });
}

TEST(Cancel, CallbackThrowingOnThreadsStopsEveryClass) {
  expect_one_call_on_threads([]() -> bool { throw std::runtime_error("from the callback"); });
  // train() throws the callback's exception, whichever class ends first.
  const ManyClasses classes;  // outlives the Data, which borrows its arrays
  const cdlinear::Data data = classes.data();
  cdlinear::TrainOptions options;
  options.threads = 2;
  options.on_iteration = [](const cdlinear::IterationProgress&) -> bool {
    throw std::runtime_error("from the callback");
  };
  EXPECT_THROW(cdlinear::train(data, options), std::runtime_error);
}

// Hands every call on to the run's reporter of the problem, and notes the
// problems that ran an outer iteration.
class NotingReporter : public Reporter {
 public:
  NotingReporter(std::unique_ptr<Reporter> inner, std::size_t problem, std::mutex& mutex,
                 std::set<std::size_t>& ran)
      : Reporter(inner->stream(), inner->level()),
        inner_(std::move(inner)),
        problem_(problem),
        mutex_(mutex),
        ran_(ran) {}
  void begin_problem(const Problem& problem, LossKind loss, int label) override {
    inner_->begin_problem(problem, loss, label);
  }
  void iteration(const IterationInfo& info) override {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      ran_.insert(problem_);
    }
    inner_->iteration(info);
  }
  void summary(const std::string& solver_name, const SolveResult& result) override {
    inner_->summary(solver_name, result);
  }
  void set_norm_name(const std::string& name) override { inner_->set_norm_name(name); }

 private:
  std::unique_ptr<Reporter> inner_;
  std::size_t problem_;
  std::mutex& mutex_;
  std::set<std::size_t>& ran_;
};

class NotingRunReporter : public cdlinear::RunReporter {
 public:
  using RunReporter::RunReporter;
  std::unique_ptr<Reporter> problem_reporter(std::size_t problem, std::ostream& log) override {
    return std::make_unique<NotingReporter>(RunReporter::problem_reporter(problem, log), problem,
                                            mutex, ran);
  }
  std::mutex mutex;
  std::set<std::size_t> ran;
};

// A cancel at the first iteration of 20 classes on 2 threads: the classes
// not yet started do not start, so that at most 2 run an outer iteration.
TEST(Cancel, ClassesNotYetStartedDoNotStart) {
  const ManyClasses many;
  const CscMatrix x = to_csc(many.rows);
  const ClassMap classes = map_classes(many.labels);
  ASSERT_EQ(classes.labels.size(), ManyClasses::kClasses);
  Params params;
  params.threads = 2;
  params = resolve_defaults(params);
  std::atomic<bool> cancel{false};
  std::atomic<int> calls{0};
  cdlinear::TrainOptions options;
  options.cancel = &cancel;
  options.on_iteration = [&](const cdlinear::IterationProgress&) {
    ++calls;
    cancel = true;
    return true;
  };
  NotingRunReporter reporter(options);
  EXPECT_THROW(train(x, classes, params, reporter), cdlinear::Cancelled);
  EXPECT_GE(calls.load(), 1);
  EXPECT_LE(calls.load(), 2);
  EXPECT_GE(reporter.ran.size(), 1u);
  EXPECT_LE(reporter.ran.size(), 2u);
}

// The message of the Cancelled that search_C() throws.
std::string search_cancel(const cdlinear::Data& data, const cdlinear::TrainOptions& options) {
  try {
    cdlinear::search_C(data, 3, options, 0.25);
  } catch (const cdlinear::Cancelled& e) {
    return e.what();
  }
  return "(not cancelled)";
}

// A flag set before the search: the first C's folds stop as they start,
// and the search says it stopped in its first step.
TEST(Cancel, SearchStopsInTheFirstStep) {
  const cdlinear::Data data = cdlinear::Data::read(test::data_path("heart_scale"));
  std::atomic<bool> cancel{true};
  cdlinear::TrainOptions options;
  options.cancel = &cancel;
  EXPECT_EQ(search_cancel(data, options), "search cancelled in its first step");
  options.loss = "sq";
  EXPECT_EQ(search_cancel(data, options), "search cancelled in its first step");
  // Unset, the same search takes several steps from that C.
  cancel = false;
  const cdlinear::Search found = cdlinear::search_C(data, 3, options, 0.25);
  ASSERT_GT(found.steps.size(), 1u);
  EXPECT_EQ(found.steps.front().C, 0.25);
}

}  // namespace
}  // namespace cdl
