// Reading one LIBSVM file on every rank of an MPI job, each rank its own
// lines, into the rows of a distributed run (data/row_share.h).
//
// Every rank reads the lines that start in its 1/K of the file's bytes
// (InputStream::limit_to_lines(): no split step, no copy of the file); the
// ranks then agree on the error to report (the first in file order, its line
// counted in the whole file), the number of features and the classes (in
// order of first appearance in the file, as a single process orders them),
// with -B's column appended as the single process appends it. The rows then
// move (one all-to-all) to the ranks of their layout:
// - share_blocks(): the blocks of X'u of the whole data
//   (objective/transpose_blocks.h), rank r holding blocks
//   [r B / K, (r + 1) B / K), its rows the file's first_row() + j;
// - share_parts(): the partitioned dual CD's P parts, rank r holding parts
//   [ceil(r P / K), ceil((r + 1) P / K)), its rows those of its parts in
//   file order;
// - share_columns(): the partitioned primal CD's P blocks of features, rank
//   r holding the columns of blocks [ceil(r P / K), ceil((r + 1) P / K)) over
//   every row, and every row's label and weight.
#ifndef CDL_MPI_DISTRIBUTE_H_
#define CDL_MPI_DISTRIBUTE_H_

#include <cstdint>
#include <exception>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "data/libsvm_reader.h"
#include "data/problem.h"
#include "data/row_share.h"
#include "mpi_collective.h"

namespace cdl {

struct DistributedRows {
  CsrMatrix rows;               // this rank's rows; num_cols is the whole data's
  CscMatrix columns;            // after share_columns(), this rank's columns (rows is empty)
  std::vector<double> labels;   // their labels (targets)
  std::vector<double> weights;  // their -W weights, or empty
  RowShare share;
  ClassMap classes;  // the whole data's labels; class_of for this rank's rows
  std::uint64_t total_nonzeros = 0;
  std::uint64_t bytes_moved = 0;  // the bytes of rows this rank sent to others
  // As read, before the rows move: this rank's rows are the file's rows
  // [first_row, first_row + rows.num_rows) of total_rows; the rows that
  // count (weight > 0) number total_counted_rows, of which
  // counted_rows_before come before this rank's, and have
  // total_counted_nonzeros nonzeros, counted_nonzeros_before before them.
  std::uint64_t first_row = 0;
  std::uint64_t total_rows = 0;
  std::uint64_t counted_rows_before = 0;
  std::uint64_t total_counted_rows = 0;
  std::uint64_t counted_nonzeros_before = 0;
  std::uint64_t total_counted_nonzeros = 0;
};

// Thrown on the ranks that did not report the run's error: the rank that
// did reports it, and every rank exits with its status (2 for a usage
// error, else 1).
class ErrorOnAnotherRank : public std::runtime_error {
 public:
  explicit ErrorOnAnotherRank(int status)
      : std::runtime_error("an error on another rank"), status_(status) {}
  int status() const { return status_; }

 private:
  int status_;
};

// The exit status of `error`: 0 for none or for an ErrorOnAnotherRank (an
// error agreed on already), 2 for a usage error, else 1.
int status_of(const std::exception_ptr& error);

// If some rank's `error` (this rank's) is set, rethrows the first of them
// in rank order on its rank and throws ErrorOnAnotherRank on the others. A
// collective call.
void agree_on(const std::exception_ptr& error, MpiCollective& collective);

// Checks a rank's rows, as read, against the whole data's classes and the
// largest |value| the reader found, and returns the C checked at (the rows'
// checked_cost, train.h's check_magnitudes()); an InstanceError names a row
// of those.
using ValueCheck = std::function<double(const CsrMatrix& rows, const ClassMap& classes,
                                        double largest, const std::vector<double>* weights)>;

// Reads `path` (a regular file) as above, or with `shards` the file
// shard_path(path, r) on rank r, whole (the data are then the shards one
// after another, in rank order, and a ParseError's line is in the shard),
// and checks the rows' values by `check`. `options` are cdtrain's (bias,
// integer labels, threads); `classes` is false for a regression;
// `weights_path` is -W's file (one weight a line of the whole data), or
// empty. Throws the run's first error on the rank that found it (a
// ParseError's line counted in the whole file) and ErrorOnAnotherRank on
// the others. The rows stay where they were read.

DistributedRows read_distributed(const std::string& path, const ReadOptions& options, bool shards,
                                 bool classes, const std::string& weights_path,
                                 const ValueCheck& check, MpiCollective& collective);

// Counts the rows read that count (weight > 0) and their nonzeros, on
// every rank (data's counted_* and total_counted_*). A collective call.
void count_rows(DistributedRows& data, MpiCollective& collective);

// Moves the rows read to the blocks of X'u (`partitions` of them if given,
// else transpose_blocks.h's count) and sets data.share to them.
void share_blocks(DistributedRows& data, const std::optional<std::int64_t>& partitions,
                  MpiCollective& collective);

// Moves the rows that count to the ranks of their parts, of `parts`, cut by
// --seed `seed` (dcd_part_order(), solvers/solver.h), and sets data.share
// to them; rows that do not count (weight 0) are dropped.
void share_parts(DistributedRows& data, std::size_t parts, std::uint64_t seed,
                 MpiCollective& collective);

// Moves the entries of the rows read to the ranks of their columns' blocks,
// of `parts`, cut by --seed `seed` (cd_feature_blocks(), solvers/solver.h),
// and sets data.share to them; every rank gets every row's label, weight
// and class.
void share_columns(DistributedRows& data, std::size_t parts, std::uint64_t seed,
                   MpiCollective& collective);

// What train() takes of `data` laid out: its columns after share_columns(),
// else its rows; with `weights`, data.weights.
DataMatrix training_matrix(const DistributedRows& data, bool weights);

// Rank r's file of --shards PREFIX: PREFIX.r (PREFIX.0, PREFIX.1, ...).
std::string shard_path(const std::string& prefix, int rank);

// Runs body() on every rank; if it throws on some ranks, the first of them
// in rank order rethrows and the others throw ErrorOnAnotherRank, so that
// every rank leaves together (an exchange after it would wait forever) and
// one message is printed.
template <class Body>
void agree_on_errors(MpiCollective& collective, Body body) {
  std::exception_ptr error;
  try {
    body();
  } catch (...) {
    error = std::current_exception();
  }
  agree_on(error, collective);
}

}  // namespace cdl

#endif  // CDL_MPI_DISTRIBUTE_H_
