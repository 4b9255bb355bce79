// cdtrain-mpi: cdtrain's training on the ranks of an MPI job, every rank
// reading its own part of one data file (mpi/distribute.h), the model the
// same bits as cdtrain's on one machine for any number of ranks. Rank 0
// prints the progress and writes the model, atomically; a rank that fails
// makes every rank exit 1 with no model file.
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
//   doubles per round. With one part (--partitions 1, the default below
//   10^6 nonzeros) rank 0 runs the serial dual CD on every row.
// Any other solver, and -v, -C, -i, --cache, --trace and -W with --shards,
// are refused as usage errors.
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli.h"
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
#include "train/train.h"
#include "train/train_regression.h"
#include "util/atomic_file.h"
#include "util/error.h"

namespace {

// Whether the run's solver is the dual CD of parts; else it is one of the
// whole-vector solvers, or the run is refused.
bool dual_parts(const cdl::Params& params) {
  const std::string_view name = cdl::solver_info(params.solver).name;
  if (name == "tron" || name == "newton") return false;
  if (name == "dcd" && !cdl::stops_by_primal_rule(params)) return true;
  throw cdl::ConfigError(
      "cdtrain-mpi runs the whole-vector solvers tron and newton (LIBLINEAR's -s 0, and -s 2 and "
      "-s 11 where the data's shape gives them or with --partitions) and the partitioned dual CD "
      "(-s 1, -s 3, and the default on wide data); this run's solver is " +
      std::string(name) + (params.solver_reason.empty() ? "" : " (" + params.solver_reason + ")"));
}

// Usage errors of the options that do not run distributed.
void check_options(const cdl::TrainCommand& command, const cdl::Params& params, bool shards) {
  const auto refuse = [](const std::string& what) {
    throw cdl::ConfigError(what + " does not run distributed yet; run cdtrain for it");
  };
  if (command.find_C) refuse("-C");
  if (params.cv_folds > 0) refuse("-v");
  if (!command.initial_model.empty()) refuse("-i");
  if (!command.weights_path.empty() && shards) {
    throw cdl::ConfigError(
        "-W with --shards: the weights are one file for the whole data; "
        "give the data as one file");
  }
  if (command.cache || !command.cache_file.empty()) refuse("--cache");
  if (!command.trace_path.empty()) refuse("--trace");
}

// cdtrain's arguments, and --shards PREFIX, the last option, whose PREFIX
// takes the training file's place: the files PREFIX.0, PREFIX.1, ..., one
// a rank.
cdl::TrainCommand parse_args(std::vector<std::string> args, bool& shards) {
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

int run(int argc, char** argv, cdl::MpiCollective& collective) {
  bool shards = false;
  const cdl::TrainCommand command =
      parse_args(std::vector<std::string>(argv + 1, argv + argc), shards);
  if (command.help) {
    if (collective.rank() == 0) {
      std::cout << "usage: mpirun -np K ./cdtrain-mpi [cdtrain's options] training_file "
                   "[model_file]\n"
                   "       mpirun -np K ./cdtrain-mpi [cdtrain's options] --shards PREFIX "
                   "[model_file]\n"
                   "Trains cdtrain's model on the K ranks of an MPI job, each rank reading its "
                   "part of training_file\n(or with --shards its own file PREFIX.r); runs "
                   "LIBLINEAR's -s 0, 2 and 11 by tron and newton,\nand -s 1, -s 3 and the "
                   "default on wide data by the partitioned dual CD.\n\ncdtrain's options:\n"
                << cdl::train_help();
    }
    return 0;
  }
  if (command.version) {
    if (collective.rank() == 0) std::cout << cdl::version_text("cdtrain-mpi");
    return 0;
  }
  cdl::Params params = cdl::resolve_defaults(command.params);
  cdl::validate(params);
  check_options(command, params, shards);
  if (command.training_path != cdl::kStandardInput) {
    cdl::check_not_input(
        command.model_path, "model_file",
        shards ? cdl::shard_path(command.training_path, collective.rank()) : command.training_path);
  }
  // Rank 0 writes the model: an unwritable place fails now, not after the
  // training.
  cdl::agree_on_errors(collective, [&] {
    if (collective.rank() == 0) cdl::check_writable_path(command.model_path);
  });
  const bool regression = !cdl::has_classes(params.loss.value());
  // The one-class SVM runs neither solver: refused before the reading.
  if (cdl::is_one_class(params.loss.value())) dual_parts(params);

  cdl::ReadOptions options;
  options.integer_labels = !regression;
  options.bias = params.bias;
  options.threads = params.threads;
  using Clock = std::chrono::steady_clock;
  const auto seconds_since = [](Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
  };
  const Clock::time_point start = Clock::now();
  // cdtrain's check of the values (train.h), on each rank's rows as read.
  const auto check = [&params](const cdl::CsrMatrix& rows, const cdl::ClassMap& classes,
                               double largest, const std::vector<double>* weights) {
    cdl::check_magnitudes(rows, classes, params, largest, weights);
    return cdl::largest_cost(classes, params, weights);
  };
  cdl::DistributedRows data;
  cdl::agree_on_errors(collective, [&] {
    data = cdl::read_distributed(command.training_path, options, shards, !regression,
                                 command.weights_path, check, collective);
  });
  if (cdl::solver_by_shape(command.params)) {
    params = cdl::resolve_defaults(cdl::choose_solver_by_shape(
        command.params, cdl::DataShape{data.total_rows, data.rows.num_cols, data.total_nonzeros}));
    cdl::validate(params);
  }
  std::string layout;
  if (dual_parts(params)) {
    const std::size_t parts =
        cdl::dcd_partitions(params, data.total_nonzeros, data.total_counted_rows);
    cdl::share_parts(data, parts, params.seed, collective);
    layout = std::to_string(parts) + (parts == 1 ? " part (serial dual CD on rank 0)" : " parts");
  } else {
    cdl::share_blocks(data, command.params.partitions, collective);
    const std::size_t blocks = data.share.block_bounds.size() - 1;
    layout = std::to_string(blocks) + (blocks == 1 ? " block" : " blocks") + " of rows";
  }

  cdl::Reporter reporter(std::cerr, collective.rank() == 0 && !params.quiet
                                        ? cdl::Reporter::Level::kNormal
                                        : cdl::Reporter::Level::kQuiet);
  reporter.info("cdtrain-mpi: training on " + std::to_string(collective.size()) +
                (collective.size() == 1 ? " rank, " : " ranks, ") + cdl::describe_run(params) +
                "; " + std::to_string(data.total_rows) + " instances in " + layout);
  const double reading_seconds = seconds_since(start);
  const Clock::time_point training_start = Clock::now();
  const std::vector<double>* weights = command.weights_path.empty() ? nullptr : &data.weights;
  const cdl::DataMatrix matrix{nullptr, &data.rows, weights, &data.share};
  std::optional<cdl::LinearModel> model;
  try {
    model = regression ? cdl::train_regression(matrix, data.labels, params, reporter, nullptr,
                                               nullptr, weights)
                       : cdl::train(matrix, data.classes, params, reporter);
  } catch (const std::exception& e) {
    // The other ranks may be waiting in an exchange: the job ends here.
    const bool memory = dynamic_cast<const std::bad_alloc*>(&e) != nullptr;
    std::cerr << "cdtrain-mpi: error on rank " << collective.rank() << ": "
              << (memory ? "out of memory" : e.what()) << '\n';
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  cdl::agree_on_errors(collective, [&] {
    if (collective.rank() == 0) {
      cdl::save_model(*model, command.model_path, cdl::thread_count(params));
    }
  });
  char total[192];
  std::snprintf(total, sizeof total,
                "total time %s: reading and sharing the rows %s, training %s; rank 0 sent %.1f MB "
                "of rows and %.1f MB in the solve",
                cdl::format_duration(seconds_since(start)).c_str(),
                cdl::format_duration(reading_seconds).c_str(),
                cdl::format_duration(seconds_since(training_start)).c_str(),
                1e-6 * static_cast<double>(data.bytes_moved),
                1e-6 * static_cast<double>(collective.bytes_sent()));
  reporter.info(total);
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
