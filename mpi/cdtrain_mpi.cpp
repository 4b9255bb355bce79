// cdtrain-mpi: cdtrain's training on the ranks of an MPI job, every rank
// reading its own part of one data file (mpi/distribute.h), the model the
// same bits as cdtrain's on one machine for any number of ranks. Rank 0
// prints the progress and writes the model, atomically; a rank that fails
// makes every rank exit 1 with no model file. The driver is cdtrain's
// (train/driver.h); this file gives it the ranks' data and layouts.
//
//   mpirun -np K ./cdtrain-mpi [cdtrain's options] training_file [model_file]
//
// Distributed:
// - the whole-vector solvers tron and newton (LIBLINEAR's -s 0, and -s 2
//   and -s 11 where the data's shape gives them or with --partitions),
//   whose products X v and X'u each rank computes on its rows, X'u's block
//   vectors added in a fixed order (RowShare's blocks): about one
//   reduce-scatter and one all-gather of n doubles per gradient,
//   Hessian-vector product and diagonal;
// - the partitioned dual CD (-s 1, -s 3, and the default on wide data),
//   each rank running its parts' local steps, their n-vectors added in part
//   order (RowShare's parts): one reduce-scatter and one all-gather of n
//   doubles per round. The parts keep their rows (cdtrain --fixed-parts's
//   model; cdtrain draws a new cut every epoch). With one part
//   (--partitions 1, the default below 10^6 nonzeros) rank 0 runs the
//   serial dual CD on every row;
// - the partitioned primal CD cdper of classification (-s 5, -s 6, and the
//   default on other data), each rank holding every row and the columns of
//   its blocks of features (RowShare's columns), their l-vectors of margin
//   changes added in block order: one reduce-scatter and one all-gather of
//   l doubles per merge. With one block, rank 0 runs the serial CD.
// -v and -C run cdtrain's folds one after another, each laid out and
// trained on the ranks (cross_validate.h). Any other solver, and -i,
// --cache, --trace and -W with --shards, are refused as usage errors.
#include <mpi.h>

#include <cstdio>
#include <functional>
#include <iostream>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli.h"
#include "cross_validate.h"
#include "data/input_file.h"
#include "data/problem.h"
#include "distribute.h"
#include "model/model.h"
#include "mpi_collective.h"
#include "solvers/params.h"
#include "solvers/primal_rule.h"
#include "solvers/report.h"
#include "solvers/solver.h"
#include "solvers/solver_table.h"
#include "tool_main.h"
#include "train/driver.h"
#include "train/run_checks.h"
#include "train/train.h"
#include "train/train_regression.h"
#include "util/atomic_file.h"
#include "util/error.h"

namespace {

// How the run's solver lays the data out over the ranks (distribute.h), or
// a usage error if it does not run distributed.
enum class Layout { kBlocks, kParts, kColumns };
Layout layout_of(const cdl::Params& params) {
  const cdl::SolverInfo& row = cdl::solver_info(params.solver);
  const std::string reason = params.choice.reason.empty() ? "" : " (" + params.choice.reason + ")";
  switch (row.distribution) {
    case cdl::Distribution::kRowBlocks:
      return Layout::kBlocks;
    case cdl::Distribution::kRowParts:
      if (!cdl::stops_by_primal_rule(params)) return Layout::kParts;
      throw cdl::ConfigError("this run's solver is " + std::string(row.name) + reason +
                             ", whose rule on the primal gradient does not run distributed; "
                             "give --partitions P for newton");
    case cdl::Distribution::kFeatureBlocks:
      if (cdl::has_classes(params.loss.value())) return Layout::kColumns;
      break;
    case cdl::Distribution::kNone:
      break;
  }
  throw cdl::ConfigError(
      "cdtrain-mpi runs the whole-vector solvers tron and newton (LIBLINEAR's -s 0, and -s 2 and "
      "-s 11 where the data's shape gives them or with --partitions), the partitioned dual CD "
      "(-s 1, -s 3, and the default on wide data) and the partitioned primal CD cdper of "
      "classification (-s 5, -s 6, and the default on other data); this run's solver is " +
      std::string(row.name) + reason);
}

// Usage errors of the options that do not run distributed.
void check_options(const cdl::RunRequest& request, bool shards) {
  const auto refuse = [](const std::string& what) {
    throw cdl::ConfigError(what + " does not run distributed yet; run cdtrain for it");
  };
  if (!request.initial_model.empty()) refuse("-i");
  if (!request.weights_path.empty() && shards) {
    throw cdl::ConfigError(
        "-W with --shards: the weights are one file for the whole data; "
        "give the data as one file");
  }
  if (request.cache || !request.cache_file.empty()) refuse("--cache");
  if (!request.trace_path.empty()) refuse("--trace");
}

// cdtrain's arguments, and --shards PREFIX, the last option, whose PREFIX
// takes the training file's place: the files PREFIX.0, PREFIX.1, ..., one
// a rank.
cdl::RunRequest parse_args(std::vector<std::string> args, bool& shards) {
  shards = false;
  for (std::size_t k = 0; k < args.size() && args[k] != "--"; ++k) {
    if (args[k] != "--shards") continue;
    if (shards) throw cdl::ConfigError("--shards given twice");
    if (k + 1 == args.size()) throw cdl::ConfigError("--shards: missing value");
    shards = true;
    args.erase(args.begin() + static_cast<std::ptrdiff_t>(k));
  }
  return cdl::parse_train_args(args);
}

// cdtrain-mpi's RunSource (train/driver.h): every rank reads its part of
// the file (or its shard) and checks its values as cdtrain does; the rows
// are laid out over the ranks for the solver, the folds run one after
// another on the ranks (cross_validate.h), and rank 0 prints and writes.
class RankSource : public cdl::RunSource {
 public:
  RankSource(cdl::MpiCollective& collective, bool shards)
      : collective_(collective), shards_(shards) {}

  const std::string& tool() const override { return tool_; }
  bool prints() const override { return collective_.rank() == 0; }
  std::string training_name() const override { return "sharing the rows and training"; }

  void check_request(const cdl::RunRequest& request, const cdl::Params& params) override {
    check_options(request, shards_);
    // Rank 0 writes the model (none for -v): an unwritable place fails now,
    // not after the training.
    if (params.cv_folds == 0 && request.training_path != cdl::kStandardInput) {
      cdl::check_not_input(request.model_path, "model_file",
                           shards_ ? cdl::shard_path(request.training_path, collective_.rank())
                                   : request.training_path);
    }
    cdl::agree_on_errors(collective_, [&] {
      if (collective_.rank() == 0 && params.cv_folds == 0) {
        cdl::check_writable_path(request.model_path);
      }
    });
    // The one-class SVM runs neither solver: refused before the reading.
    if (cdl::is_one_class(params.loss.value())) layout_of(params);
  }

  cdl::DataShape read(const cdl::RunRequest& request, const cdl::Params& params) override {
    const bool regression = !cdl::has_classes(params.loss.value());
    cdl::ReadOptions options;
    options.integer_labels = !regression;
    options.bias = params.bias;
    options.threads = params.threads;
    // cdtrain's check of the values (train.h), on each rank's rows as read.
    const auto check = [&params](const cdl::CsrMatrix& rows, const cdl::ClassMap& classes,
                                 double largest, const std::vector<double>* weights) {
      return cdl::check_values(cdl::DataMatrix{nullptr, &rows, weights}, classes, params, false,
                               largest, nullptr);
    };
    cdl::agree_on_errors(collective_, [&] {
      data_ = cdl::read_distributed(request.training_path, options, shards_, !regression,
                                    request.weights_path, check, collective_);
    });
    weighted_ = !request.weights_path.empty();
    return cdl::DataShape{data_.total_rows, data_.rows.num_cols, data_.total_nonzeros};
  }

  void lay_out(const cdl::RunRequest& request, cdl::Params& params, bool /*chosen*/) override {
    kind_ = layout_of(params);
    // The parts keep their rows on their ranks: cdtrain --fixed-parts's model.
    if (kind_ == Layout::kParts) params.own<cdl::DualOptions>().fixed_parts = true;
    partitions_ = request.params.own<cdl::PartitionOptions>().count;
  }

  void check_data(const cdl::RunRequest& /*request*/, const cdl::Params& /*params*/,
                  cdl::Reporter& /*reporter*/) override {}

  std::string describe(const cdl::Params& params) override {
    return " on " + std::to_string(collective_.size()) +
           (collective_.size() == 1 ? " rank, " : " ranks, ") + cdl::describe_run(params) + "; " +
           std::to_string(data_.total_rows) + " instances";
  }

  cdl::CSearch search_C(const cdl::Params& params, const std::optional<double>& start,
                        cdl::Reporter& reporter,
                        const std::function<void(double, double)>& on_step) override {
    return or_end_job([&] {
      return cdl::search_C_ranks(data_, params, start, share(), reporter, collective_, on_step);
    });
  }

  cdl::RegressionSearch search_regression(
      const cdl::Params& params, const std::optional<double>& start, cdl::Reporter& reporter,
      const std::function<void(double, double, double)>& on_step) override {
    return or_end_job([&] {
      return cdl::search_regression_ranks(data_, params, start, share(), reporter, collective_,
                                          on_step);
    });
  }

  double cross_validate(const cdl::Params& params, cdl::Reporter& reporter) override {
    return or_end_job([&] {
      return cdl::cross_validate_ranks(data_, params, share(), reporter, collective_).accuracy;
    });
  }

  cdl::RegressionValidation cross_validate_regression(const cdl::Params& params,
                                                      cdl::Reporter& reporter) override {
    return or_end_job([&] {
      return cdl::cross_validate_regression_ranks(data_, params, share(), reporter, collective_);
    });
  }

  std::string share_for_training(const cdl::Params& params) override {
    or_end_job([&] {
      share()(data_, params);
      return 0;
    });
    return " in " + layout_;
  }

  void train_and_save(const cdl::RunRequest& request, const cdl::Params& params,
                      cdl::Reporter& reporter) override {
    const cdl::LinearModel model = or_end_job([&] {
      const std::vector<double>* weights = weighted_ ? &data_.weights : nullptr;
      const cdl::DataMatrix matrix = cdl::training_matrix(data_, weights != nullptr);
      return cdl::has_classes(params.loss.value())
                 ? cdl::train(matrix, data_.classes, params, reporter)
                 : cdl::train_regression(matrix, data_.labels, params, reporter, nullptr, nullptr,
                                         weights);
    });
    cdl::agree_on_errors(collective_, [&] {
      if (collective_.rank() == 0) {
        cdl::save_model(model, request.model_path, cdl::thread_count(params));
      }
    });
  }

  // What rank 0 sent: the rows' move, then the solve's exchanges (for -v
  // and -C, every fold's move and solve).
  std::string traffic(const cdl::Params& params) override {
    char sent[96];
    if (params.cv_folds > 0) {
      std::snprintf(sent, sizeof sent, "rank 0 sent %.1f MB",
                    1e-6 * static_cast<double>(collective_.bytes_sent()));
    } else {
      std::snprintf(sent, sizeof sent, "rank 0 sent %.1f MB of rows and %.1f MB in the solve",
                    1e-6 * static_cast<double>(data_.bytes_moved),
                    1e-6 * static_cast<double>(collective_.bytes_sent() - data_.bytes_moved));
    }
    return sent;
  }

 private:
  // Lays rows out over the ranks for the solver (a fold's rows for -v), and
  // keeps the layout in words.
  cdl::ShareRows share() {
    return [this](cdl::DistributedRows& rows, const cdl::Params& run) {
      if (kind_ == Layout::kParts) {
        const std::size_t parts =
            cdl::dcd_partitions(run, rows.total_nonzeros, rows.total_counted_rows);
        cdl::share_parts(rows, parts, run.seed, collective_);
        layout_ = std::to_string(parts) + (parts == 1 ? " part (serial dual CD on rank 0)"
                                                      : " fixed parts (--fixed-parts)");
      } else if (kind_ == Layout::kColumns) {
        const auto blocks = static_cast<std::size_t>(cdl::cd_partitions(run, rows.total_nonzeros));
        cdl::share_columns(rows, blocks, run.seed, collective_);
        layout_ = std::to_string(blocks) + (blocks == 1 ? " block of features (serial CD on rank 0)"
                                                        : " blocks of features");
      } else {
        cdl::share_blocks(rows, partitions_, collective_);
        const std::size_t blocks = rows.share.block_bounds.size() - 1;
        layout_ = std::to_string(blocks) + (blocks == 1 ? " block" : " blocks") + " of rows";
      }
    };
  }

  // Runs `work` on the ranks: the other ranks may be waiting in an
  // exchange when one fails in it, so the job ends there.
  template <class Work>
  auto or_end_job(Work work) -> decltype(work()) {
    try {
      return work();
    } catch (const std::exception& e) {
      const bool memory = dynamic_cast<const std::bad_alloc*>(&e) != nullptr;
      std::cerr << "cdtrain-mpi: error on rank " << collective_.rank() << ": "
                << (memory ? "out of memory" : e.what()) << '\n';
      MPI_Abort(MPI_COMM_WORLD, 1);
      throw;
    }
  }

  const std::string tool_ = "cdtrain-mpi";
  cdl::MpiCollective& collective_;
  bool shards_;
  bool weighted_ = false;
  cdl::DistributedRows data_;
  Layout kind_ = Layout::kBlocks;
  std::optional<std::int64_t> partitions_;  // --partitions, the blocks of rows
  std::string layout_;
};

int run(int argc, char** argv, cdl::MpiCollective& collective) {
  bool shards = false;
  const cdl::RunRequest request =
      parse_args(std::vector<std::string>(argv + 1, argv + argc), shards);
  if (request.help) {
    if (collective.rank() == 0) {
      std::cout << "usage: mpirun -np K ./cdtrain-mpi [cdtrain's options] training_file "
                   "[model_file]\n"
                   "       mpirun -np K ./cdtrain-mpi [cdtrain's options] --shards PREFIX "
                   "[model_file]\n"
                   "Trains cdtrain's model on the K ranks of an MPI job, each rank reading its "
                   "part of training_file\n(or with --shards its own file PREFIX.r); runs "
                   "LIBLINEAR's -s 0, 2 and 11 by tron and newton,\n-s 1 and -s 3 by the "
                   "partitioned dual CD, -s 5 and -s 6 by the partitioned primal CD,\nand the "
                   "default (one of the two by the data's shape).\n\ncdtrain's options:\n"
                << cdl::train_help();
    }
    return 0;
  }
  if (request.version) {
    if (collective.rank() == 0) std::cout << cdl::version_text("cdtrain-mpi");
    return 0;
  }
  RankSource source(collective, shards);
  cdl::run_request(request, source, std::cerr);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int status = 0;
  {
    cdl::MpiCollective collective;
    // The usage text on rank 0 alone; every rank exits with the same status.
    std::string usage;
    if (collective.rank() == 0) {
      usage = cdl::train_usage();
      for (const auto& [from, to] :
           {std::pair<std::string, std::string>{"cdtrain [options] training_file",
                                                "mpirun -np K ./cdtrain-mpi [cdtrain's options] "
                                                "{training_file | --shards PREFIX}"},
            {"'cdtrain -h'", "'./cdtrain-mpi -h'"}}) {
        const std::size_t at = usage.find(from);
        if (at != std::string::npos) usage.replace(at, from.size(), to);
      }
    }
    status = cdl::run_tool("cdtrain-mpi", usage, [&] {
      try {
        return run(argc, argv, collective);
      } catch (const cdl::ErrorOnAnotherRank& e) {
        return e.status();
      } catch (const cdl::ConfigError& e) {
        // A usage error that every rank finds; rank 0 alone says it.
        if (collective.rank() == 0) throw;
        return 2;
      }
    });
  }
  // Every rank has said what it had to before any exits: mpirun ends the
  // job at the first rank that exits with an error.
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return status;
}
