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

#include <chrono>
#include <cstdio>
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
#include "train/train.h"
#include "train/train_regression.h"
#include "util/atomic_file.h"
#include "util/error.h"

namespace {

// How the run's solver lays the data out over the ranks (distribute.h), or
// a usage error if it does not run distributed.
enum class Layout { kBlocks, kParts, kColumns };
Layout layout_of(const cdl::Params& params) {
  const std::string_view name = cdl::solver_info(params.solver).name;
  if (name == "tron" || name == "newton") return Layout::kBlocks;
  if (name == "dcd" && !cdl::stops_by_primal_rule(params)) return Layout::kParts;
  if (name == "cdper" && cdl::has_classes(params.loss.value())) return Layout::kColumns;
  const std::string reason = params.solver_reason.empty() ? "" : " (" + params.solver_reason + ")";
  if (name == "dcd") {
    throw cdl::ConfigError("this run's solver is dcd" + reason +
                           ", whose rule on the primal gradient does not run distributed; "
                           "give --partitions P for newton");
  }
  throw cdl::ConfigError(
      "cdtrain-mpi runs the whole-vector solvers tron and newton (LIBLINEAR's -s 0, and -s 2 and "
      "-s 11 where the data's shape gives them or with --partitions), the partitioned dual CD "
      "(-s 1, -s 3, and the default on wide data) and the partitioned primal CD cdper of "
      "classification (-s 5, -s 6, and the default on other data); this run's solver is " +
      std::string(name) + reason);
}

// Usage errors of the options that do not run distributed.
void check_options(const cdl::TrainCommand& command, bool shards) {
  const auto refuse = [](const std::string& what) {
    throw cdl::ConfigError(what + " does not run distributed yet; run cdtrain for it");
  };
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
                   "LIBLINEAR's -s 0, 2 and 11 by tron and newton,\n-s 1 and -s 3 by the "
                   "partitioned dual CD, -s 5 and -s 6 by the partitioned primal CD,\nand the "
                   "default (one of the two by the data's shape).\n\ncdtrain's options:\n"
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
  check_options(command, shards);
  // Rank 0 writes the model (none for -v): an unwritable place fails now,
  // not after the training.
  if (params.cv_folds == 0 && command.training_path != cdl::kStandardInput) {
    cdl::check_not_input(
        command.model_path, "model_file",
        shards ? cdl::shard_path(command.training_path, collective.rank()) : command.training_path);
  }
  cdl::agree_on_errors(collective, [&] {
    if (collective.rank() == 0 && params.cv_folds == 0) {
      cdl::check_writable_path(command.model_path);
    }
  });
  const bool regression = !cdl::has_classes(params.loss.value());
  // The one-class SVM runs neither solver: refused before the reading.
  if (cdl::is_one_class(params.loss.value())) layout_of(params);

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
  // The rows laid out over the ranks for the solver (a fold's rows for -v),
  // and the layout in words.
  const Layout kind = layout_of(params);
  // The parts keep their rows on their ranks: cdtrain --fixed-parts's model.
  if (kind == Layout::kParts) params.fixed_parts = true;
  std::string layout;
  const auto share = [&](cdl::DistributedRows& rows, const cdl::Params& run) {
    if (kind == Layout::kParts) {
      const std::size_t parts =
          cdl::dcd_partitions(run, rows.total_nonzeros, rows.total_counted_rows);
      cdl::share_parts(rows, parts, run.seed, collective);
      layout = std::to_string(parts) +
               (parts == 1 ? " part (serial dual CD on rank 0)" : " fixed parts (--fixed-parts)");
    } else if (kind == Layout::kColumns) {
      const auto blocks = static_cast<std::size_t>(cdl::cd_partitions(run, rows.total_nonzeros));
      cdl::share_columns(rows, blocks, run.seed, collective);
      layout = std::to_string(blocks) +
               (blocks == 1 ? " block of features (serial CD on rank 0)" : " blocks of features");
    } else {
      cdl::share_blocks(rows, command.params.partitions, collective);
      const std::size_t blocks = rows.share.block_bounds.size() - 1;
      layout = std::to_string(blocks) + (blocks == 1 ? " block" : " blocks") + " of rows";
    }
  };

  // Rank 0 prints; the others' warnings, the same, go nowhere.
  const bool rank0 = collective.rank() == 0;
  std::ostream nowhere(nullptr);
  cdl::Reporter reporter(rank0 ? std::cerr : nowhere, rank0 && !params.quiet
                                                          ? cdl::Reporter::Level::kNormal
                                                          : cdl::Reporter::Level::kQuiet);
  // The other ranks may be waiting in an exchange when one fails in training:
  // the job ends there.
  const auto end_job = [&](const std::exception& e) {
    const bool memory = dynamic_cast<const std::bad_alloc*>(&e) != nullptr;
    std::cerr << "cdtrain-mpi: error on rank " << collective.rank() << ": "
              << (memory ? "out of memory" : e.what()) << '\n';
    MPI_Abort(MPI_COMM_WORLD, 1);
  };
  std::optional<cdl::LinearModel> model;
  const std::string on_ranks = " on " + std::to_string(collective.size()) +
                               (collective.size() == 1 ? " rank, " : " ranks, ") +
                               cdl::describe_run(params) + "; " + std::to_string(data.total_rows) +
                               " instances";
  const double reading_seconds = seconds_since(start);
  const Clock::time_point training_start = Clock::now();
  try {
    const std::optional<double> start_C =
        command.cost_given ? std::optional<double>(params.C) : std::nullopt;
    if (command.find_C && regression) {
      const bool with_p = cdl::is_svr(params.loss.value());
      reporter.info("cdtrain-mpi: searching C" + std::string(with_p ? " and p" : "") + " by " +
                    std::to_string(params.cv_folds) + "-fold cross validation" + on_ranks);
      const cdl::RegressionSearch best = cdl::search_regression_ranks(
          data, params, start_C, share, reporter, collective, [&](double C, double p, double mse) {
            if (rank0) cdl::print_regression_step(C, p, mse, with_p);
          });
      if (rank0) cdl::print_regression_search_result(params, best, reporter);
    } else if (params.cv_folds > 0 && regression) {
      reporter.info("cdtrain-mpi: " + std::to_string(params.cv_folds) + "-fold cross validation" +
                    on_ranks);
      const cdl::RegressionValidation cv =
          cdl::cross_validate_regression_ranks(data, params, share, reporter, collective);
      if (rank0) cdl::print_regression_validation(params, cv);
    } else if (command.find_C) {
      reporter.info("cdtrain-mpi: searching C by " + std::to_string(params.cv_folds) +
                    "-fold cross validation" + on_ranks);
      const cdl::CSearch best = cdl::search_C_ranks(data, params, start_C, share, reporter,
                                                    collective, [rank0](double C, double accuracy) {
                                                      if (rank0)
                                                        cdl::print_search_step(C, accuracy);
                                                    });
      if (rank0) cdl::print_search_result("cdtrain-mpi", params, best, reporter);
    } else if (params.cv_folds > 0) {
      reporter.info("cdtrain-mpi: " + std::to_string(params.cv_folds) + "-fold cross validation" +
                    on_ranks);
      const double accuracy =
          cdl::cross_validate_ranks(data, params, share, reporter, collective).accuracy;
      if (rank0) cdl::print_validation(params, accuracy);
    } else {
      share(data, params);
      reporter.info("cdtrain-mpi: training" + on_ranks + " in " + layout);
      const std::vector<double>* weights = command.weights_path.empty() ? nullptr : &data.weights;
      const cdl::DataMatrix matrix = cdl::training_matrix(data, weights != nullptr);
      model = regression ? cdl::train_regression(matrix, data.labels, params, reporter, nullptr,
                                                 nullptr, weights)
                         : cdl::train(matrix, data.classes, params, reporter);
    }
  } catch (const std::exception& e) {
    end_job(e);
  }
  if (model) {
    cdl::agree_on_errors(collective, [&] {
      if (rank0) cdl::save_model(*model, command.model_path, cdl::thread_count(params));
    });
  }
  std::fflush(stdout);
  // What rank 0 sent: the rows' move, then the solve's exchanges (for -v
  // and -C, every fold's move and solve).
  char sent[96];
  if (params.cv_folds > 0) {
    std::snprintf(sent, sizeof sent, "rank 0 sent %.1f MB",
                  1e-6 * static_cast<double>(collective.bytes_sent()));
  } else {
    std::snprintf(sent, sizeof sent, "rank 0 sent %.1f MB of rows and %.1f MB in the solve",
                  1e-6 * static_cast<double>(data.bytes_moved),
                  1e-6 * static_cast<double>(collective.bytes_sent() - data.bytes_moved));
  }
  reporter.info(cdl::total_time_line(command, params, seconds_since(start), reading_seconds,
                                     seconds_since(training_start), "sharing the rows and training",
                                     sent));
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
