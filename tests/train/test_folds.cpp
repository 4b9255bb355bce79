// The fold loop (train/folds.h) on its own, with trainers that record what
// they are given: each fold's held-out rows against fold_assignment(), the
// lead fold's warm start and `warm`, the scores against a count made here,
// and the same loop on two ranks (threads of this process behind an
// in-process Collective) against one process.
#include <gtest/gtest.h>

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "data/problem.h"
#include "model/model.h"
#include "objective/evaluate.h"
#include "solvers/params.h"
#include "solvers/report.h"
#include "train/cross_validation.h"
#include "train/folds.h"
#include "train/train_regression.h"
#include "util/collective.h"

namespace cdl {
namespace {

Params resolved(SolverKind solver, int folds, unsigned threads) {
  Params params;
  params.solver = solver;
  params.cv_folds = folds;
  params.threads = threads;
  params = resolve_defaults(params);
  validate(params);
  return params;
}

// l rows of two classes, labels 1 and 2, row r of class r % 3 == 0.
ClassMap two_classes(std::size_t l) {
  ClassMap classes;
  classes.labels = {1, 2};
  for (std::size_t r = 0; r < l; ++r) classes.class_of.push_back(r % 3 == 0 ? 1 : 0);
  return classes;
}

// What a fake trainer saw of one fold.
struct FoldSeen {
  std::vector<std::uint8_t> held_out;
  double start = -1;  // the start's first weight, or -1 for none
  std::uint64_t seed = 0;
  unsigned threads = 0;
};

// A model of one feature (its weight is the start initial_weights() makes
// of it), which names its fold: 10 + f.
LinearModel fold_model(double weight) {
  LinearModel model;
  model.w = {weight};
  model.labels = {1, 2};
  model.num_features = 1;
  return model;
}

// The fold of a model made by fold_model().
std::size_t fold_of_model(const LinearModel& model) {
  return static_cast<std::size_t>(model.w[0]) - 10;
}

// Predicts row r (of the whole data) right unless (r + f) % 4 == 0.
std::vector<int> predict_rows(const LinearModel& model, const ClassMap& whole, std::size_t first,
                              std::size_t count) {
  const std::size_t f = fold_of_model(model);
  std::vector<int> out(count);
  for (std::size_t j = 0; j < count; ++j) {
    const std::size_t r = first + j;
    const int label = whole.labels[whole.class_of[r]];
    out[j] = (r + f) % 4 == 0 ? 3 - label : label;
  }
  return out;
}

// Runs cross_validate_folds() on rows [first, first + count) of `whole`,
// recording every fold's view in `seen` (indexed by fold).
CrossValidation classify(const ClassMap& whole, const FoldRows& rows, const Params& params,
                         std::vector<FoldSeen>& seen, const std::vector<LinearModel>* warm,
                         std::ostream& out) {
  ClassMap mine;
  mine.labels = whole.labels;
  mine.class_of.assign(
      whole.class_of.begin() + static_cast<std::ptrdiff_t>(rows.first),
      whole.class_of.begin() + static_cast<std::ptrdiff_t>(rows.first + rows.count));
  std::mutex mutex;
  Reporter reporter(out, Reporter::Level::kNormal);
  return cross_validate_folds(
      mine, rows, 1, params, reporter,
      [&](const Params& run, const std::vector<std::uint8_t>& held_out, const InitialWeights* start,
          Reporter&) {
        // The fold is the one whose held-out rows these are: found by its seed.
        std::size_t f = 0;
        while (fold_params(params, f).seed != run.seed) ++f;
        const std::lock_guard<std::mutex> lock(mutex);
        if (seen.size() <= f) seen.resize(f + 1);
        seen[f].held_out = held_out;
        seen[f].start = start != nullptr ? (*start)[0][0] : -1;
        seen[f].seed = run.seed;
        seen[f].threads = run.threads;
        return fold_model(10.0 + static_cast<double>(f));
      },
      [&](const LinearModel& model) { return predict_rows(model, whole, rows.first, rows.count); },
      warm, true, true);
}

// The lines of `text` that start with "fold ", their times cut.
std::vector<std::string> fold_lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("fold ", 0) == 0) out.push_back(line.substr(0, line.rfind(',')));
  }
  return out;
}

TEST(FoldLoop, FoldsHoldOutTheirRowsAndStartFromTheLeadFold) {
  const std::size_t l = 37;
  const ClassMap whole = two_classes(l);
  const Params params = resolved(SolverKind::kCdPer, 5, 2);  // cdper takes a start
  ASSERT_TRUE(starts_from_lead_fold(params, 5));
  std::vector<FoldSeen> seen;
  std::ostringstream out;
  const CrossValidation cv =
      classify(whole, FoldRows{0, l, l, nullptr}, params, seen, nullptr, out);

  const std::vector<std::size_t> fold_of = fold_assignment(whole, 5, params);
  ASSERT_EQ(seen.size(), 5u);
  std::size_t right = 0;
  for (std::size_t f = 0; f < 5; ++f) {
    for (std::size_t r = 0; r < l; ++r) EXPECT_EQ(seen[f].held_out[r] != 0, fold_of[r] == f);
    // Fold 0 from 0 with every thread; the others from its model, one thread each.
    EXPECT_EQ(seen[f].start, f == 0 ? -1.0 : 10.0);
    EXPECT_EQ(seen[f].threads, f == 0 ? 2u : 1u);
    EXPECT_EQ(cv.models[f].w[0], 10.0 + static_cast<double>(f));
  }
  for (std::size_t r = 0; r < l; ++r) right += (r + fold_of[r]) % 4 != 0;
  EXPECT_EQ(cv.accuracy, static_cast<double>(right) / static_cast<double>(l));
  const std::vector<std::string> lines = fold_lines(out.str());
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[0].substr(0, 9), "fold 1/5:");
  EXPECT_EQ(lines[4].substr(0, 9), "fold 5/5:");
}

TEST(FoldLoop, WarmModelsReplaceTheLeadFold) {
  const std::size_t l = 20;
  const ClassMap whole = two_classes(l);
  const Params params = resolved(SolverKind::kCdPer, 4, 1);
  std::vector<LinearModel> warm;
  for (std::size_t f = 0; f < 4; ++f) warm.push_back(fold_model(100.0 + static_cast<double>(f)));
  std::vector<FoldSeen> seen;
  std::ostringstream out;
  classify(whole, FoldRows{0, l, l, nullptr}, params, seen, &warm, out);
  for (std::size_t f = 0; f < 4; ++f) EXPECT_EQ(seen[f].start, 100.0 + static_cast<double>(f));
}

TEST(FoldLoop, SolverWithoutStartTrainsEveryFoldFromZero) {
  const std::size_t l = 20;
  const ClassMap whole = two_classes(l);
  const Params params = resolved(SolverKind::kPegasos, 4, 1);
  ASSERT_FALSE(starts_from_lead_fold(params, 4));
  std::vector<FoldSeen> seen;
  std::ostringstream out;
  classify(whole, FoldRows{0, l, l, nullptr}, params, seen, nullptr, out);
  for (const FoldSeen& fold : seen) EXPECT_EQ(fold.start, -1.0);
}

// Every one of `size` threads waits here until all have come.
class Barrier {
 public:
  explicit Barrier(int size) : size_(size) {}
  void arrive_and_wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    const std::uint64_t generation = generation_;
    if (++arrived_ == size_) {
      arrived_ = 0;
      ++generation_;
      all_.notify_all();
      return;
    }
    all_.wait(lock, [&] { return generation_ != generation; });
  }

 private:
  int size_;
  int arrived_ = 0;
  std::uint64_t generation_ = 0;
  std::mutex mutex_;
  std::condition_variable all_;
};

// A Collective over the threads of this process, one a rank: each call
// waits for every rank's part, as MPI's would.
class ThreadCollective : public Collective {
 public:
  ThreadCollective(int rank, int size, Barrier& sync, std::vector<std::vector<double>>& d,
                   std::vector<std::vector<std::uint64_t>>& u)
      : rank_(rank), size_(size), sync_(sync), doubles_(d), integers_(u) {}
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  std::vector<double> gather_all(const std::vector<double>& mine) override {
    return gather(mine, doubles_);
  }
  std::vector<std::uint64_t> gather_all(const std::vector<std::uint64_t>& mine) override {
    return gather(mine, integers_);
  }
  void add_in_order(const std::vector<const std::vector<double>*>&, std::size_t,
                    std::vector<double>&) override {
    ADD_FAILURE() << "the fold loop adds no vectors";
  }

 private:
  template <class T>
  std::vector<T> gather(const std::vector<T>& mine, std::vector<std::vector<T>>& slots) {
    slots[static_cast<std::size_t>(rank_)] = mine;
    sync_.arrive_and_wait();
    std::vector<T> all;
    for (const std::vector<T>& slot : slots) all.insert(all.end(), slot.begin(), slot.end());
    sync_.arrive_and_wait();
    return all;
  }
  int rank_;
  int size_;
  Barrier& sync_;
  std::vector<std::vector<double>>& doubles_;
  std::vector<std::vector<std::uint64_t>>& integers_;
};

// Runs `body(rank, collective)` on `size` threads as ranks.
template <class Body>
void on_ranks(int size, Body body) {
  Barrier sync(size);
  std::vector<std::vector<double>> doubles(static_cast<std::size_t>(size));
  std::vector<std::vector<std::uint64_t>> integers(static_cast<std::size_t>(size));
  std::vector<std::thread> threads;
  for (int r = 0; r < size; ++r) {
    threads.emplace_back([&, r] {
      ThreadCollective collective(r, size, sync, doubles, integers);
      body(static_cast<std::size_t>(r), collective);
    });
  }
  for (std::thread& thread : threads) thread.join();
}

TEST(FoldLoop, RanksGiveTheOneProcessResult) {
  const std::size_t l = 41;
  const ClassMap whole = two_classes(l);
  const Params params = resolved(SolverKind::kCdPer, 5, 3);
  std::vector<FoldSeen> one_seen;
  std::ostringstream one_out;
  const CrossValidation one =
      classify(whole, FoldRows{0, l, l, nullptr}, params, one_seen, nullptr, one_out);
  const std::vector<std::size_t> first{0, 13, 30, l};  // three ranks' rows
  std::vector<CrossValidation> cv(3);
  std::vector<std::vector<FoldSeen>> seen(3);
  std::vector<std::ostringstream> out(3);
  on_ranks(3, [&](std::size_t r, Collective& collective) {
    cv[r] = classify(whole, FoldRows{first[r], first[r + 1] - first[r], l, &collective}, params,
                     seen[r], nullptr, out[r]);
  });
  for (std::size_t r = 0; r < 3; ++r) {
    EXPECT_EQ(cv[r].accuracy, one.accuracy);
    EXPECT_EQ(fold_lines(out[r].str()), fold_lines(one_out.str()));
    ASSERT_EQ(seen[r].size(), 5u);
    for (std::size_t f = 0; f < 5; ++f) {
      // This rank's part of the fold's held-out rows; every fold alone, on
      // every thread; the lead fold's start as on one process.
      const std::vector<std::uint8_t> part(
          one_seen[f].held_out.begin() + static_cast<std::ptrdiff_t>(first[r]),
          one_seen[f].held_out.begin() + static_cast<std::ptrdiff_t>(first[r + 1]));
      EXPECT_EQ(seen[r][f].held_out, part);
      EXPECT_EQ(seen[r][f].threads, 3u);
      EXPECT_EQ(seen[r][f].start, one_seen[f].start);
      EXPECT_EQ(seen[r][f].seed, one_seen[f].seed);
    }
  }
}

TEST(FoldLoop, RegressionOnRanksScoresEveryRowAsOneProcess) {
  const std::size_t l = 29;
  std::vector<double> targets(l);
  for (std::size_t r = 0; r < l; ++r) targets[r] = 0.5 * static_cast<double>(r % 7) - 1;
  const Params params = resolved(SolverKind::kCdPer, 4, 1);
  // Fold f's model predicts row r as target + (f + 1) r / 100, known here.
  const auto run = [&](const FoldRows& rows, std::ostream& out) {
    Reporter reporter(out, Reporter::Level::kNormal);
    const std::vector<double> mine(
        targets.begin() + static_cast<std::ptrdiff_t>(rows.first),
        targets.begin() + static_cast<std::ptrdiff_t>(rows.first + rows.count));
    return cross_validate_regression_folds(
        mine, rows, params, reporter,
        [&](const Params& fold, const std::vector<std::uint8_t>&, const std::vector<double>*,
            Reporter&) {
          std::size_t f = 0;
          while (fold_params(params, f).seed != fold.seed) ++f;
          LinearModel model;
          model.w = {static_cast<double>(f + 1)};
          return model;
        },
        [&](const LinearModel& model) {
          std::vector<double> values(rows.count);
          for (std::size_t j = 0; j < rows.count; ++j) {
            const std::size_t r = rows.first + j;
            values[j] = targets[r] + model.w[0] * static_cast<double>(r) / 100;
          }
          return values;
        },
        nullptr, true, true);
  };
  std::ostringstream one_out;
  const RegressionValidation one = run(FoldRows{0, l, l, nullptr}, one_out);
  const std::vector<std::size_t> fold_of = regression_fold_assignment(l, 4, params);
  RegressionScore expected;
  for (std::size_t r = 0; r < l; ++r) {
    expected.add(targets[r] + static_cast<double>(fold_of[r] + 1) * static_cast<double>(r) / 100,
                 targets[r]);
  }
  EXPECT_EQ(one.mean_squared_error, expected.mean_squared_error());
  EXPECT_EQ(one.squared_correlation, expected.squared_correlation());
  ASSERT_EQ(one.fold_weights.size(), 4u);
  for (std::size_t f = 0; f < 4; ++f) EXPECT_EQ(one.fold_weights[f][0], static_cast<double>(f + 1));

  const std::vector<std::size_t> first{0, 10, l};
  std::vector<RegressionValidation> cv(2);
  std::vector<std::ostringstream> out(2);
  on_ranks(2, [&](std::size_t r, Collective& collective) {
    cv[r] = run(FoldRows{first[r], first[r + 1] - first[r], l, &collective}, out[r]);
  });
  for (std::size_t r = 0; r < 2; ++r) {
    EXPECT_EQ(cv[r].mean_squared_error, one.mean_squared_error);
    EXPECT_EQ(cv[r].squared_correlation, one.squared_correlation);
    EXPECT_EQ(fold_lines(out[r].str()), fold_lines(one_out.str()));
  }
}

}  // namespace
}  // namespace cdl
