// Training on rows spread over ranks (data/row_share.h), with the ranks as
// threads of this process exchanging through shared memory: for 1, 2, 3 and
// 5 ranks, each holding its run of X'u's blocks (tron, newton), of the
// dual CD's parts or of the primal CD's blocks of features, train() gives
// every rank the weights of a single process, bit for bit (two classes and
// more, the logistic loss, the L2-SVM and the L2-loss SVR, the L1-SVM, L1
// regularization, with -B, from a warm start). cdtrain-mpi runs the
// same code over MPI (tests/mpi/test_mpi.sh).
#include <gtest/gtest.h>

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "cli.h"
#include "data/problem.h"
#include "data/row_share.h"
#include "objective/transpose_blocks.h"
#include "solver_test_util.h"
#include "solvers/params.h"
#include "solvers/solver.h"
#include "solvers/solver_table.h"
#include "train/train.h"
#include "train/train_regression.h"
#include "util/collective.h"

namespace cdl {
namespace {

// What the ranks post for one exchange, and a barrier between exchanges.
class Board {
 public:
  explicit Board(int ranks) : ranks_(ranks), doubles_(ranks), integers_(ranks), vectors_(ranks) {}

  // Returns once every rank has arrived.
  void barrier() {
    std::unique_lock<std::mutex> lock(mutex_);
    const std::uint64_t generation = generation_;
    if (++arrived_ == ranks_) {
      arrived_ = 0;
      ++generation_;
      done_.notify_all();
    } else {
      done_.wait(lock, [&] { return generation_ != generation; });
    }
  }

  int ranks_;
  std::vector<std::vector<double>> doubles_;
  std::vector<std::vector<std::uint64_t>> integers_;
  std::vector<std::vector<const std::vector<double>*>> vectors_;

 private:
  std::mutex mutex_;
  std::condition_variable done_;
  int arrived_ = 0;
  std::uint64_t generation_ = 0;
};

class ThreadRank final : public Collective {
 public:
  ThreadRank(Board& board, int rank) : board_(board), rank_(rank) {}
  int rank() const override { return rank_; }
  int size() const override { return board_.ranks_; }
  std::vector<double> gather_all(const std::vector<double>& mine) override {
    return gather(board_.doubles_, mine);
  }
  std::vector<std::uint64_t> gather_all(const std::vector<std::uint64_t>& mine) override {
    return gather(board_.integers_, mine);
  }
  // The definition: (((v_0 + v_1) + v_2) + ...), element by element.
  void add_in_order(const std::vector<const std::vector<double>*>& mine, std::size_t n,
                    std::vector<double>& out) override {
    board_.vectors_[static_cast<std::size_t>(rank_)] = mine;
    board_.barrier();
    std::vector<double> sum;
    for (const auto& vectors : board_.vectors_) {
      for (const std::vector<double>* v : vectors) {
        if (sum.empty()) {
          sum = *v;
        } else {
          for (std::size_t i = 0; i < n; ++i) sum[i] += (*v)[i];
        }
      }
    }
    board_.barrier();
    out = sum;
  }

 private:
  template <class T>
  std::vector<T> gather(std::vector<std::vector<T>>& slots, const std::vector<T>& mine) {
    slots[static_cast<std::size_t>(rank_)] = mine;
    board_.barrier();
    std::vector<T> all;
    for (const auto& slot : slots) all.insert(all.end(), slot.begin(), slot.end());
    board_.barrier();
    return all;
  }

  Board& board_;
  int rank_;
};

// Runs body(rank, r) for each of `ranks` ranks, each on a thread of its own
// with its ThreadRank, and returns each rank's model.
std::vector<LinearModel> train_on_ranks(
    int ranks, const std::function<LinearModel(Collective& rank, int r)>& body) {
  Board board(ranks);
  std::vector<LinearModel> models(static_cast<std::size_t>(ranks));
  std::vector<std::thread> threads;
  for (int r = 0; r < ranks; ++r) {
    threads.emplace_back([&, r] {
      ThreadRank rank(board, r);
      models[static_cast<std::size_t>(r)] = body(rank, r);
    });
  }
  for (std::thread& t : threads) t.join();
  return models;
}

// The blocks of X'u of `rows` (every row counted), by transpose_blocks.h's
// rule, computed here from the rows' lengths; `partitions` of them if given.
std::vector<std::size_t> blocks_of(const CsrMatrix& rows,
                                   const std::optional<std::int64_t>& partitions) {
  const auto nnz = static_cast<std::uint64_t>(rows.nnz());
  const std::size_t count = transpose_block_count(partitions, nnz, rows.num_cols);
  std::vector<std::size_t> bounds{0};
  std::size_t j = 0;
  for (std::size_t b = 1; b < count; ++b) {
    while (j < rows.num_rows && rows.row_ptr[j] < transpose_block_target(nnz, b, count)) ++j;
    bounds.push_back(j);
  }
  bounds.push_back(rows.num_rows);
  return bounds;
}

// Rows [begin, end) of `rows`.
CsrMatrix slice(const CsrMatrix& rows, std::size_t begin, std::size_t end) {
  CsrMatrix out;
  out.num_rows = end - begin;
  out.num_cols = rows.num_cols;
  out.row_ptr.assign(out.num_rows + 1, 0);
  const auto first = static_cast<std::size_t>(rows.row_ptr[begin]);
  const auto last = static_cast<std::size_t>(rows.row_ptr[end]);
  for (std::size_t j = 0; j <= out.num_rows; ++j) {
    out.row_ptr[j] = rows.row_ptr[begin + j] - rows.row_ptr[begin];
  }
  out.col_idx.assign(rows.col_idx.begin() + static_cast<std::ptrdiff_t>(first),
                     rows.col_idx.begin() + static_cast<std::ptrdiff_t>(last));
  out.values.assign(rows.values.begin() + static_cast<std::ptrdiff_t>(first),
                    rows.values.begin() + static_cast<std::ptrdiff_t>(last));
  return out;
}

// cdtrain's params for -s `number` -B `bias` on data of `shape` (the shape
// chooses -s 2's and -s 11's solver), as cdtrain and cdtrain-mpi make them.
Params params_of(int number, double bias, const std::string& partitions, const DataShape& shape) {
  std::vector<std::string> args = {
      "-s", std::to_string(number), "-B", std::to_string(bias), "-m", "2", "-q"};
  if (!partitions.empty()) args.insert(args.end(), {"--partitions", partitions});
  args.push_back("data");
  const RunRequest command = parse_train_args(args);
  Params params = resolve_defaults(command.params);
  if (solver_by_shape(command.params)) {
    params = resolve_defaults(choose_solver_by_shape(command.params, shape));
  }
  validate(params);
  return params;
}

// Each of `ranks` threads trains on its blocks' rows of data set `name`
// (read with -B `bias`, --partitions `partitions` if not empty); every
// rank's w against one process's.
void expect_same_weights(const std::string& name, int number, double bias, int ranks,
                         const std::string& partitions = "") {
  ReadOptions options;
  options.integer_labels = number != 11;
  options.bias = bias;
  const LabeledRows file = read_libsvm_rows(test::data_path(name), options);
  const CsrMatrix& x = file.features;
  const Params params =
      params_of(number, bias, partitions, DataShape{x.num_rows, x.num_cols, x.nnz()});
  const std::string solver(solver_info(params.solver).name);
  ASSERT_TRUE(solver == "tron" || solver == "newton") << solver;
  const bool regression = number == 11;
  const ClassMap classes = regression ? ClassMap{} : map_classes(file.labels);
  test::RecordingReporter reporter;
  const DataMatrix whole{nullptr, &file.features};
  const LinearModel one = regression ? train_regression(whole, file.labels, params, reporter)
                                     : train(whole, classes, params, reporter);

  const std::vector<std::size_t> bounds =
      blocks_of(file.features, params.own<PartitionOptions>().count);
  ASSERT_GT(bounds.size(), 3u) << "too few blocks to spread";
  const std::size_t blocks = bounds.size() - 1;
  const std::vector<LinearModel> models = train_on_ranks(ranks, [&](Collective& rank, int r) {
    RowShare share;
    share.collective = &rank;
    share.block_bounds = bounds;
    share.first_block = static_cast<std::size_t>(r) * blocks / static_cast<std::size_t>(ranks);
    share.end_block = static_cast<std::size_t>(r + 1) * blocks / static_cast<std::size_t>(ranks);
    const std::size_t begin = share.first_row();
    const std::size_t end = begin + share.num_rows();
    const CsrMatrix rows = slice(file.features, begin, end);
    const std::vector<double> labels(file.labels.begin() + static_cast<std::ptrdiff_t>(begin),
                                     file.labels.begin() + static_cast<std::ptrdiff_t>(end));
    ClassMap mine = classes;
    if (!regression) {
      mine.class_of.assign(classes.class_of.begin() + static_cast<std::ptrdiff_t>(begin),
                           classes.class_of.begin() + static_cast<std::ptrdiff_t>(end));
    }
    test::RecordingReporter quiet;
    const DataMatrix matrix{nullptr, &rows, nullptr, &share};
    return regression ? train_regression(matrix, labels, params, quiet)
                      : train(matrix, mine, params, quiet);
  });
  for (int r = 0; r < ranks; ++r) {
    SCOPED_TRACE("rank " + std::to_string(r) + " of " + std::to_string(ranks));
    EXPECT_EQ(models[static_cast<std::size_t>(r)].w, one.w);
    EXPECT_EQ(models[static_cast<std::size_t>(r)].labels, one.labels);
  }
}

TEST(RowShare, RanksTrainTheWeightsOfOneProcess) {
  for (int ranks : {1, 2, 3, 5}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks");
    expect_same_weights("a9a", 0, -1, ranks);       // logistic regression, tron
    expect_same_weights("a9a", 2, 1, ranks);        // the L2-SVM, newton, with -B 1
    expect_same_weights("a9a", 11, -1, ranks);      // the L2-loss SVR, tron
    expect_same_weights("dna.scale", 0, 1, ranks);  // 3 classes, one after another
  }
}

// --partitions 21: more blocks than the 8 of the data's default, which one
// process adds a group at a time (7 vectors) and 5 ranks hold 4 or 5 each.
TEST(RowShare, ManyPartitionsGiveTheWeightsOfOneProcess) {
  for (int ranks : {1, 2, 5}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks");
    expect_same_weights("a9a", 0, 1, ranks, "21");
    expect_same_weights("a9a", 2, -1, ranks, "21");
  }
}

// Each of `ranks` threads trains on the rows of its parts of the dual CD's
// (-s `number`, --partitions `partitions`) of data set `name`, read with -B
// `bias`; every rank's w against one process's.
void expect_same_dual_weights(const std::string& name, int number, double bias, int ranks,
                              const std::string& partitions) {
  ReadOptions options;
  options.integer_labels = true;
  options.bias = bias;
  const LabeledRows file = read_libsvm_rows(test::data_path(name), options);
  const CsrMatrix& x = file.features;
  // The ranks keep their parts' rows: cdtrain --fixed-parts's model.
  Params params = params_of(number, bias, partitions, DataShape{x.num_rows, x.num_cols, x.nnz()});
  params.own<DualOptions>().fixed_parts = true;
  ASSERT_EQ(std::string(solver_info(params.solver).name), "dcd");
  const ClassMap classes = map_classes(file.labels);
  test::RecordingReporter reporter;
  const LinearModel one = train(DataMatrix{nullptr, &file.features}, classes, params, reporter);

  // Every row counts: row j is the one numbered j. Part k of P holds the
  // rows at places [l k / P, l (k + 1) / P) of the cut's order; rank r the
  // parts [ceil(r P / K), ceil((r + 1) P / K)).
  const std::size_t l = x.num_rows;
  const std::size_t parts = dcd_partitions(params, x.nnz(), l);
  ASSERT_GT(parts, 1u);
  const std::vector<std::size_t> order = dcd_part_order(l, params.seed);
  const auto k_ranks = static_cast<std::size_t>(ranks);
  std::vector<std::vector<std::size_t>> rows_of_rank(k_ranks);
  for (std::size_t p = 0; p < l; ++p) {
    const std::size_t part = ((p + 1) * parts - 1) / l;  // the k with l k / P <= p < l (k + 1) / P
    std::size_t r = 0;
    while (part >= (parts * (r + 1) + k_ranks - 1) / k_ranks) ++r;
    rows_of_rank[r].push_back(order[p]);
  }
  const std::vector<LinearModel> models = train_on_ranks(ranks, [&](Collective& rank, int r) {
    std::vector<std::size_t> mine = rows_of_rank[static_cast<std::size_t>(r)];
    std::sort(mine.begin(), mine.end());
    RowShare share;
    share.collective = &rank;
    share.parts = parts;
    share.first_part = (parts * static_cast<std::size_t>(r) + k_ranks - 1) / k_ranks;
    share.end_part = (parts * static_cast<std::size_t>(r + 1) + k_ranks - 1) / k_ranks;
    share.counted.assign(mine.begin(), mine.end());
    share.total_counted = l;
    const CsrMatrix rows = test::pick_rows(file.features, mine);
    ClassMap own = classes;
    own.class_of.clear();
    for (std::size_t j : mine) own.class_of.push_back(classes.class_of[j]);
    test::RecordingReporter quiet;
    return train(DataMatrix{nullptr, &rows, nullptr, &share}, own, params, quiet);
  });
  for (int r = 0; r < ranks; ++r) {
    SCOPED_TRACE("rank " + std::to_string(r) + " of " + std::to_string(ranks));
    EXPECT_EQ(models[static_cast<std::size_t>(r)].w, one.w);
  }
}

TEST(RowShare, RanksOfPartsTrainTheDualWeightsOfOneProcess) {
  for (int ranks : {1, 2, 3, 5}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks");
    expect_same_dual_weights("heart_scale", 1, -1, ranks, "3");  // the L2-SVM
    expect_same_dual_weights("heart_scale", 3, 1, ranks, "4");   // the L1-SVM, with -B 1
    expect_same_dual_weights("dna.scale", 1, -1, ranks, "2");    // 3 classes, one after another
  }
}

// Each of `ranks` threads trains the partitioned primal CD (-s `number`,
// or the default with `number` < 0, --partitions `partitions`) of data set
// `name`, read with -B `bias`, on every row and the columns of its blocks
// of features, the others' columns empty; every rank's w against one
// process's. From `warm`'s weights if given (as -C's folds start).
void expect_same_column_weights(const std::string& name, int number, double bias, int ranks,
                                const std::string& partitions, bool warm = false) {
  ReadOptions options;
  options.integer_labels = true;
  options.bias = bias;
  const LabeledRows file = read_libsvm_rows(test::data_path(name), options);
  const CscMatrix x = to_csc(file.features);
  std::vector<std::string> args = {"-B", std::to_string(bias), "-m",      "2",
                                   "-q", "--partitions",       partitions};
  if (number >= 0) args.insert(args.end(), {"-s", std::to_string(number)});
  args.push_back("data");
  const RunRequest command = parse_train_args(args);
  Params params = resolve_defaults(command.params);
  if (solver_by_shape(command.params)) {
    params = resolve_defaults(
        choose_solver_by_shape(command.params, DataShape{x.num_rows, x.num_cols, x.nnz()}));
  }
  validate(params);
  ASSERT_EQ(std::string(solver_info(params.solver).name), "cdper");
  const ClassMap classes = map_classes(file.labels);
  test::RecordingReporter reporter;
  std::optional<InitialWeights> start;
  if (warm) {
    Params first = params;
    first.C = params.C / 4;
    start = initial_weights(train(DataMatrix{&x, nullptr}, classes, first, reporter), classes,
                            x.num_cols, bias);
  }
  const InitialWeights* from = start ? &*start : nullptr;
  const LinearModel one = train(DataMatrix{&x, nullptr}, classes, params, reporter, from);

  const auto parts = static_cast<std::size_t>(cd_partitions(params, x.nnz()));
  ASSERT_GT(parts, 1u);
  const std::vector<std::vector<std::uint32_t>> blocks = cd_feature_blocks(
      x.num_cols,
      [&x](std::size_t i) { return static_cast<std::uint64_t>(x.col_ptr[i + 1] - x.col_ptr[i]); },
      parts, params.seed);
  const auto k_ranks = static_cast<std::size_t>(ranks);
  const std::vector<LinearModel> models = train_on_ranks(ranks, [&](Collective& rank, int r) {
    RowShare share;
    share.collective = &rank;
    share.parts = parts;
    share.first_part = first_part_of_rank(parts, static_cast<std::size_t>(r), k_ranks);
    share.end_part = first_part_of_rank(parts, static_cast<std::size_t>(r) + 1, k_ranks);
    share.feature_blocks = blocks;
    // The columns of this rank's blocks; the others empty.
    std::vector<char> mine(x.num_cols, 0);
    for (std::size_t b = share.first_part; b < share.end_part; ++b) {
      for (std::uint32_t i : blocks[b]) mine[i] = 1;
    }
    CscMatrix own;
    own.num_rows = x.num_rows;
    own.num_cols = x.num_cols;
    std::vector<Index> row_idx;
    std::vector<double> values;
    for (std::size_t i = 0; i < x.num_cols; ++i) {
      for (auto k = x.col_ptr[i]; mine[i] != 0 && k < x.col_ptr[i + 1]; ++k) {
        row_idx.push_back(x.row_idx[static_cast<std::size_t>(k)]);
        values.push_back(x.values[static_cast<std::size_t>(k)]);
      }
      own.col_ptr.push_back(static_cast<std::int64_t>(values.size()));
    }
    own.row_idx.resize(row_idx.size());
    std::copy(row_idx.begin(), row_idx.end(), own.row_idx.begin());
    own.values.resize(values.size());
    std::copy(values.begin(), values.end(), own.values.begin());
    test::RecordingReporter quiet;
    return train(DataMatrix{&own, nullptr, nullptr, &share}, classes, params, quiet, from);
  });
  for (int r = 0; r < ranks; ++r) {
    SCOPED_TRACE("rank " + std::to_string(r) + " of " + std::to_string(ranks));
    EXPECT_EQ(models[static_cast<std::size_t>(r)].w, one.w);
  }
}

// 5 ranks hold the 2 to 4 blocks with some ranks empty.
TEST(RowShare, RanksOfColumnsTrainThePrimalCdWeightsOfOneProcess) {
  for (int ranks : {1, 2, 5}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks");
    expect_same_column_weights("heart_scale", -1, -1, ranks, "3");       // the default: the L2-SVM
    expect_same_column_weights("heart_scale", 5, 1, ranks, "4");         // L1, the L2-SVM, -B 1
    expect_same_column_weights("heart_scale", 6, -1, ranks, "2");        // L1 logistic regression
    expect_same_column_weights("dna.scale", -1, -1, ranks, "4");         // 3 classes
    expect_same_column_weights("heart_scale", -1, 1, ranks, "3", true);  // from a warm start
    expect_same_column_weights("heart_scale", 6, 1, ranks, "3", true);
  }
}

}  // namespace
}  // namespace cdl
