#include "distribute.h"

#include <mpi.h>
#include <sys/stat.h>

#include <algorithm>
#include <exception>
#include <unordered_map>

#include "data/input_file.h"
#include "data/instance_weights.h"
#include "data/libsvm_line.h"
#include "objective/transpose_blocks.h"
#include "solvers/solver.h"
#include "util/error.h"
#include "util/populate.h"

namespace cdl {
namespace {

// This rank's share of the file's bytes, [begin, end).
void byte_range(const std::string& path, int rank, int size, std::uint64_t& begin,
                std::uint64_t& end) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) {
    // InputStream names the problem (no such file, a directory, a pipe).
    begin = end = 0;
    return;
  }
  const auto bytes = static_cast<std::uint64_t>(info.st_size);
  begin = share_start(bytes, rank, size);
  end = share_start(bytes, rank + 1, size);
}

// The sum of each rank's `value`, and the sum over the ranks before this one.
std::uint64_t sum_before(std::uint64_t value, MpiCollective& collective, std::uint64_t& total) {
  const std::vector<std::uint64_t> all = collective.gather_all(std::vector<std::uint64_t>{value});
  std::uint64_t before = 0;
  total = 0;
  for (std::size_t r = 0; r < all.size(); ++r) {
    if (static_cast<int>(r) < collective.rank()) before += all[r];
    total += all[r];
  }
  return before;
}

// Each rank's read, and the run's first error in file order (agree_on()):
// a ParseError's line counted from the file's start (from its shard's with
// shards); `lines_before` gets the lines before this rank's range.
LabeledRows read_share(const std::string& path, const ReadOptions& options, bool shards,
                       MpiCollective& collective, std::int64_t& lines_before) {
  ReadOptions mine = options;  // -B's column at this rank's n + 1, moved to the whole data's below
  mine.read_range = true;
  const std::string file = shards ? shard_path(path, collective.rank()) : path;
  // A shard is read whole: the one range of one.
  byte_range(file, shards ? 0 : collective.rank(), shards ? 1 : collective.size(), mine.range_begin,
             mine.range_end);
  LabeledRows rows;
  std::exception_ptr error;
  try {
    if (path == kStandardInput) {
      throw ConfigError(
          "cdtrain-mpi reads a file, not standard input: every rank reads its "
          "own part of it");
    }
    rows = read_libsvm_rows(file, mine);
  } catch (...) {
    error = std::current_exception();
  }
  // The lines of the ranks before this one (whose reads, if this rank's
  // error is the one reported, all succeeded).
  std::uint64_t all_lines = 0;
  lines_before = shards ? 0
                        : static_cast<std::int64_t>(sum_before(
                              static_cast<std::uint64_t>(rows.line_count), collective, all_lines));
  if (error) {
    try {
      std::rethrow_exception(error);
    } catch (const ParseError& e) {
      error = std::make_exception_ptr(ParseError(e.path(), e.line() + lines_before, e.reason()));
    } catch (...) {
    }
  }
  agree_on(error, collective);
  return rows;
}

// The labels in order of their first appearance in this rank's rows.
std::vector<double> first_appearances(const std::vector<double>& labels) {
  std::vector<double> out;
  std::unordered_map<double, bool> seen;
  for (double label : labels) {
    if (seen.emplace(label, true).second) out.push_back(label);
  }
  return out;
}

// The whole data's class labels, in order of first appearance in the file
// (the ranks' first appearances, in rank order, appear in the file in that
// order), as map_classes() orders them.
std::vector<int> agree_on_labels(const std::vector<double>& labels, MpiCollective& collective) {
  return map_classes(collective.gather_all(first_appearances(labels))).labels;
}

// Whether row j counts: it has no weight (no -W) or a weight above 0 (no
// fold is held out in a distributed run).
bool counts(const std::vector<double>& weights, std::size_t j) {
  return weights.empty() || weights[j] > 0;
}

// Row j's nonzeros if it counts, else 0.
std::uint64_t counted_length(const CsrMatrix& rows, const std::vector<double>& weights,
                             std::size_t j) {
  return counts(weights, j) ? static_cast<std::uint64_t>(rows.row_ptr[j + 1] - rows.row_ptr[j]) : 0;
}

// The blocks of X'u of the whole data, as transpose_blocks() cuts them on
// one process: block b starts at the first counted row with at least its
// target of counted nonzeros before it.
std::vector<std::size_t> agree_on_blocks(const CsrMatrix& rows, const std::vector<double>& weights,
                                         std::size_t first_row, std::size_t total_rows,
                                         std::uint64_t nonzeros_before,
                                         std::uint64_t total_nonzeros, std::size_t num_cols,
                                         const std::optional<std::int64_t>& partitions,
                                         MpiCollective& collective) {
  const std::size_t count = transpose_block_count(partitions, total_nonzeros, num_cols);
  // This rank's row that starts a block, if it has one; else a later rank's
  // does.
  std::vector<std::uint64_t> starts;
  for (std::size_t j : transpose_block_starts(
           rows.num_rows, nonzeros_before, total_nonzeros, count,
           [&](std::size_t k) { return counted_length(rows, weights, k); },
           [&](std::size_t k) { return counts(weights, k); })) {
    starts.push_back(j < rows.num_rows ? first_row + j : total_rows);
  }
  const std::vector<std::uint64_t> all = collective.gather_all(starts);
  std::vector<std::size_t> bounds{0};
  for (std::size_t b = 1; b < count; ++b) {
    std::uint64_t least = total_rows;
    for (int r = 0; r < collective.size(); ++r) {
      least = std::min(least, all[static_cast<std::size_t>(r) * (count - 1) + (b - 1)]);
    }
    bounds.push_back(static_cast<std::size_t>(least));
  }
  bounds.push_back(total_rows);
  return bounds;
}

// Moves each row j to rank dest[j] (none if dest[j] < 0) in one
// all-to-all of the labels, the weights if any, the numbers in `numbers` if
// any, the rows' lengths, their indices and their values; a rank receives
// the rows of rank 0, then rank 1's, ..., each in this rank's order. When
// every rank's rows stay where they were read (one rank, or rows that fall
// on their own ranks), they are kept without a copy; rows grouped by rank
// in rank order are sent from where they are, others packed first.
void move_rows(std::vector<int> dest, std::vector<std::uint64_t>& numbers,
               MpiCollective& collective, DistributedRows& data) {
  const auto ranks = static_cast<std::size_t>(collective.size());
  const auto me = static_cast<std::size_t>(collective.rank());
  CsrMatrix& m = data.rows;
  std::uint64_t moves = 0;
  bool grouped = true;
  for (std::size_t j = 0; j < m.num_rows; ++j) {
    if (dest[j] != static_cast<int>(me)) moves = 1;
    if (dest[j] < 0 || (j > 0 && dest[j] < dest[j - 1])) grouped = false;
  }
  std::uint64_t ranks_that_move = 0;
  sum_before(moves, collective, ranks_that_move);
  if (ranks_that_move == 0) return;
  if (!grouped) {
    // The rows in rank order, each rank's in this rank's order (a counting
    // sort).
    std::vector<std::size_t> at(ranks + 1, 0);
    for (std::size_t j = 0; j < m.num_rows; ++j) {
      if (dest[j] >= 0) ++at[static_cast<std::size_t>(dest[j]) + 1];
    }
    for (std::size_t s = 0; s < ranks; ++s) at[s + 1] += at[s];
    std::vector<std::size_t> order(at[ranks]);
    for (std::size_t j = 0; j < m.num_rows; ++j) {
      if (dest[j] >= 0) order[at[static_cast<std::size_t>(dest[j])]++] = j;
    }
    CsrMatrix packed;
    packed.num_rows = order.size();
    packed.num_cols = m.num_cols;
    packed.row_ptr.reserve(order.size() + 1);  // from its {0}
    for (std::size_t j : order) {
      packed.row_ptr.push_back(packed.row_ptr.back() + m.row_ptr[j + 1] - m.row_ptr[j]);
    }
    packed.col_idx.resize(static_cast<std::size_t>(packed.row_ptr.back()));
    packed.values.resize(packed.col_idx.size());
    std::vector<int> packed_dest;
    packed_dest.reserve(order.size());
    const auto pick = [&order](auto& v) {
      if (v.empty()) return;
      std::remove_reference_t<decltype(v)> out;
      out.reserve(order.size());
      for (std::size_t j : order) out.push_back(v[j]);
      v = std::move(out);
    };
    for (std::size_t k = 0; k < order.size(); ++k) {
      const std::size_t j = order[k];
      const auto from = static_cast<std::ptrdiff_t>(m.row_ptr[j]);
      const auto to = static_cast<std::ptrdiff_t>(m.row_ptr[j + 1]);
      std::copy(m.col_idx.begin() + from, m.col_idx.begin() + to,
                packed.col_idx.begin() + static_cast<std::ptrdiff_t>(packed.row_ptr[k]));
      std::copy(m.values.begin() + from, m.values.begin() + to,
                packed.values.begin() + static_cast<std::ptrdiff_t>(packed.row_ptr[k]));
      packed_dest.push_back(dest[j]);
    }
    pick(data.labels);
    pick(data.weights);
    pick(numbers);
    m = std::move(packed);
    dest = std::move(packed_dest);
  }
  std::vector<int> rows_to(ranks, 0), rows_off(ranks, 0), pairs_to(ranks), pairs_off(ranks);
  for (std::size_t j = 0; j < m.num_rows; ++j) ++rows_to[static_cast<std::size_t>(dest[j])];
  std::size_t lo = 0;
  for (std::size_t s = 0; s < ranks; ++s) {
    rows_off[s] = mpi_count(lo, "rows");
    const std::size_t hi = lo + static_cast<std::size_t>(rows_to[s]);
    pairs_off[s] = mpi_count(static_cast<std::uint64_t>(m.row_ptr[lo]), "nonzeros");
    pairs_to[s] = mpi_count(static_cast<std::uint64_t>(m.row_ptr[hi]), "nonzeros") - pairs_off[s];
    lo = hi;
  }
  std::vector<int> rows_from(ranks), pairs_from(ranks);
  MPI_Alltoall(rows_to.data(), 1, MPI_INT, rows_from.data(), 1, MPI_INT, MPI_COMM_WORLD);
  MPI_Alltoall(pairs_to.data(), 1, MPI_INT, pairs_from.data(), 1, MPI_INT, MPI_COMM_WORLD);
  std::vector<int> rows_from_off(ranks, 0), pairs_from_off(ranks, 0);
  std::uint64_t num_rows = 0, nnz = 0;
  for (std::size_t r = 0; r < ranks; ++r) {
    rows_from_off[r] = mpi_count(num_rows, "rows");
    pairs_from_off[r] = mpi_count(nnz, "nonzeros");
    num_rows += static_cast<std::uint64_t>(rows_from[r]);
    nnz += static_cast<std::uint64_t>(pairs_from[r]);
  }
  // One per-row vector to its rows' ranks.
  const auto exchange = [&](auto& v, MPI_Datatype type) {
    std::remove_reference_t<decltype(v)> theirs(static_cast<std::size_t>(num_rows));
    MPI_Alltoallv(v.data(), rows_to.data(), rows_off.data(), type, theirs.data(), rows_from.data(),
                  rows_from_off.data(), type, MPI_COMM_WORLD);
    v = std::move(theirs);
  };
  // The lengths of this rank's rows.
  std::vector<std::int64_t> lengths(m.num_rows);
  for (std::size_t j = 0; j < m.num_rows; ++j) lengths[j] = m.row_ptr[j + 1] - m.row_ptr[j];
  exchange(data.labels, MPI_DOUBLE);
  if (!data.weights.empty()) exchange(data.weights, MPI_DOUBLE);
  if (!numbers.empty()) exchange(numbers, MPI_UINT64_T);
  exchange(lengths, MPI_INT64_T);
  std::uint64_t sent = 0;
  for (std::size_t s = 0; s < ranks; ++s) {
    if (s == me) continue;
    sent += static_cast<std::uint64_t>(rows_to[s]) *
                (sizeof(double) * (data.weights.empty() ? 1 : 2) + 8 + (numbers.empty() ? 0 : 8)) +
            static_cast<std::uint64_t>(pairs_to[s]) * (sizeof(Index) + sizeof(double));
  }
  data.bytes_moved += sent;
  collective.count_sent(sent);
  CsrMatrix rows;
  rows.num_rows = static_cast<std::size_t>(num_rows);
  rows.num_cols = m.num_cols;
  rows.checked_cost = m.checked_cost;
  rows.row_ptr.assign(rows.num_rows + 1, 0);
  for (std::size_t j = 0; j < rows.num_rows; ++j) {
    rows.row_ptr[j + 1] = rows.row_ptr[j] + lengths[j];
  }
  rows.col_idx.resize(static_cast<std::size_t>(nnz));
  MPI_Alltoallv(m.col_idx.data(), pairs_to.data(), pairs_off.data(), MPI_UINT32_T,
                rows.col_idx.data(), pairs_from.data(), pairs_from_off.data(), MPI_UINT32_T,
                MPI_COMM_WORLD);
  m.col_idx = Buffer<Index>();
  rows.values.resize(static_cast<std::size_t>(nnz));
  MPI_Alltoallv(m.values.data(), pairs_to.data(), pairs_off.data(), MPI_DOUBLE, rows.values.data(),
                pairs_from.data(), pairs_from_off.data(), MPI_DOUBLE, MPI_COMM_WORLD);
  m = std::move(rows);
}

// The classes of this rank's rows (after they moved), from their labels.
void number_classes(DistributedRows& data) {
  if (data.classes.labels.empty()) return;
  std::unordered_map<int, std::size_t> number_of;
  for (std::size_t c = 0; c < data.classes.labels.size(); ++c) {
    number_of[data.classes.labels[c]] = c;
  }
  data.classes.class_of.clear();
  for (double label : data.labels) {
    data.classes.class_of.push_back(number_of.at(static_cast<int>(label)));
  }
}

}  // namespace

int status_of(const std::exception_ptr& error) {
  if (!error) return 0;
  try {
    std::rethrow_exception(error);
  } catch (const ErrorOnAnotherRank&) {
    return 0;  // agreed already: the rank of the error says so again
  } catch (const ConfigError&) {
    return 2;
  } catch (...) {
    return 1;
  }
}

void agree_on(const std::exception_ptr& error, MpiCollective& collective) {
  const std::vector<std::uint64_t> status = collective.gather_all(
      std::vector<std::uint64_t>{static_cast<std::uint64_t>(status_of(error))});
  for (int r = 0; r < collective.size(); ++r) {
    const std::uint64_t s = status[static_cast<std::size_t>(r)];
    if (s == 0) continue;
    if (r == collective.rank()) std::rethrow_exception(error);
    throw ErrorOnAnotherRank(static_cast<int>(s));
  }
  if (error) std::rethrow_exception(error);
}

std::string shard_path(const std::string& prefix, int rank) {
  return prefix + "." + std::to_string(rank);
}

DistributedRows read_distributed(const std::string& path, const ReadOptions& options, bool shards,
                                 bool classes, const std::string& weights_path,
                                 const ValueCheck& check, MpiCollective& collective) {
  std::int64_t lines_before = 0;
  LabeledRows read = read_share(path, options, shards, collective, lines_before);
  DistributedRows out;
  // The whole data's shape.
  std::uint64_t total_rows = 0;
  const std::uint64_t first_row = sum_before(read.features.num_rows, collective, total_rows);
  if (total_rows == 0) {
    if (collective.rank() != 0) throw ErrorOnAnotherRank(1);
    detail::throw_no_instances(shards ? path + ".*" : input_name(path));
  }
  // The whole data's features; -B's column, which the reader put after this
  // rank's last (the last entry of each row), goes after the whole data's.
  const bool with_bias = options.bias >= 0;
  CsrMatrix& mine = read.features;
  const std::size_t own_cols = mine.num_cols - (with_bias ? 1 : 0);
  std::size_t num_cols = 0;
  for (std::uint64_t n : collective.gather_all(std::vector<std::uint64_t>{own_cols})) {
    num_cols = std::max(num_cols, static_cast<std::size_t>(n));
  }
  if (with_bias) {
    for (std::size_t j = 0; j < mine.num_rows; ++j) {
      mine.col_idx[static_cast<std::size_t>(mine.row_ptr[j + 1] - 1)] =
          static_cast<Index>(num_cols);
    }
    ++num_cols;
  }
  // -W's weights of this rank's rows: every rank reads the file (it names
  // its own errors alike) and keeps its rows' lines.
  std::vector<double> weights;
  if (!weights_path.empty()) {
    std::exception_ptr error;
    try {
      std::vector<double> all =
          read_instance_weights(weights_path, static_cast<std::size_t>(total_rows));
      weights.assign(all.begin() + static_cast<std::ptrdiff_t>(first_row),
                     all.begin() + static_cast<std::ptrdiff_t>(first_row + mine.num_rows));
    } catch (...) {
      error = std::current_exception();
    }
    agree_on(error, collective);
  }
  sum_before(mine.nnz(), collective, out.total_nonzeros);
  if (classes) {
    // The classes of the whole data; each rank's rows' classes follow them.
    out.classes.labels = agree_on_labels(read.labels, collective);
  }
  // The values, checked on the rows as read, where a row is a line.
  std::exception_ptr error;
  try {
    mine.checked_cost =
        check(mine, out.classes, read.largest_magnitude, weights.empty() ? nullptr : &weights);
  } catch (const InstanceError& e) {
    const std::string name = input_name(shards ? shard_path(path, collective.rank()) : path);
    error = std::make_exception_ptr(
        ParseError(name, read.lines.line_of(e.row()) + lines_before, e.reason()));
  } catch (...) {
    error = std::current_exception();
  }
  agree_on(error, collective);
  out.rows = std::move(read.features);
  out.rows.num_cols = num_cols;
  out.labels = std::move(read.labels);
  out.weights = std::move(weights);
  out.first_row = first_row;
  out.total_rows = total_rows;
  count_rows(out, collective);
  number_classes(out);
  return out;
}

void count_rows(DistributedRows& data, MpiCollective& collective) {
  const CsrMatrix& rows = data.rows;
  std::uint64_t nonzeros = 0;
  std::uint64_t counted = 0;
  for (std::size_t j = 0; j < rows.num_rows; ++j) {
    nonzeros += counted_length(rows, data.weights, j);
    counted += counts(data.weights, j);
  }
  data.counted_nonzeros_before = sum_before(nonzeros, collective, data.total_counted_nonzeros);
  data.counted_rows_before = sum_before(counted, collective, data.total_counted_rows);
}

void share_blocks(DistributedRows& data, const std::optional<std::int64_t>& partitions,
                  MpiCollective& collective) {
  RowShare& share = data.share;
  share.collective = &collective;
  const auto first_row = static_cast<std::size_t>(data.first_row);
  const auto total_rows = static_cast<std::size_t>(data.total_rows);
  share.block_bounds =
      agree_on_blocks(data.rows, data.weights, first_row, total_rows, data.counted_nonzeros_before,
                      data.total_counted_nonzeros, data.rows.num_cols, partitions, collective);
  const std::size_t blocks = share.block_bounds.size() - 1;
  const auto ranks = static_cast<std::size_t>(collective.size());
  const auto rank = static_cast<std::size_t>(collective.rank());
  share.first_block = first_of_run(blocks, rank, ranks);
  share.end_block = first_of_run(blocks, rank + 1, ranks);
  // Row j goes to the rank whose blocks hold it.
  std::vector<int> dest(data.rows.num_rows);
  std::size_t r = 0;
  for (std::size_t j = 0; j < data.rows.num_rows; ++j) {
    while (first_row + j >= share.block_bounds[first_of_run(blocks, r + 1, ranks)]) ++r;
    dest[j] = static_cast<int>(r);
  }
  std::vector<std::uint64_t> none;
  move_rows(dest, none, collective, data);
  number_classes(data);
}

void share_parts(DistributedRows& data, std::size_t parts, std::uint64_t seed,
                 MpiCollective& collective) {
  RowShare& share = data.share;
  share.collective = &collective;
  share.parts = parts;
  share.total_counted = data.total_counted_rows;
  const auto ranks = static_cast<std::size_t>(collective.size());
  const auto rank = static_cast<std::size_t>(collective.rank());
  share.first_part = first_part_of_rank(parts, rank, ranks);
  share.end_part = first_part_of_rank(parts, rank + 1, ranks);
  // The numbers of this rank's rows that count: [first, first + mine).
  const CsrMatrix& rows = data.rows;
  const std::uint64_t first = data.counted_rows_before;
  std::vector<std::size_t> row_numbered;
  for (std::size_t j = 0; j < rows.num_rows; ++j) {
    if (counts(data.weights, j)) row_numbered.push_back(j);
  }
  // Each part's rank, and each row's part from its place in the cut.
  std::vector<int> rank_of(parts);
  for (std::size_t r = 0; r < ranks; ++r) {
    for (std::size_t k = first_part_of_rank(parts, r, ranks);
         k < first_part_of_rank(parts, r + 1, ranks); ++k) {
      rank_of[k] = static_cast<int>(r);
    }
  }
  const auto total = static_cast<std::size_t>(share.total_counted);
  std::vector<int> dest(rows.num_rows, -1);
  std::vector<std::uint64_t> numbers(rows.num_rows, 0);
  const std::vector<std::size_t> order = dcd_part_order(total, seed);
  std::size_t part = 0;
  for (std::size_t p = 0; p < total; ++p) {
    while (p >= first_of_run(total, part + 1, parts)) ++part;
    const std::uint64_t c = order[p];
    if (c < first || c >= first + row_numbered.size()) continue;
    const std::size_t j = row_numbered[static_cast<std::size_t>(c - first)];
    dest[j] = rank_of[part];
    numbers[j] = c;
  }
  move_rows(dest, numbers, collective, data);
  share.counted = std::move(numbers);
  number_classes(data);
}

void share_columns(DistributedRows& data, std::size_t parts, std::uint64_t seed,
                   MpiCollective& collective) {
  CsrMatrix& rows = data.rows;
  const std::size_t n = rows.num_cols;
  const auto ranks = static_cast<std::size_t>(collective.size());
  const auto me = static_cast<std::size_t>(collective.rank());
  RowShare& share = data.share;
  share.collective = &collective;
  share.parts = parts;
  share.first_part = first_part_of_rank(parts, me, ranks);
  share.end_part = first_part_of_rank(parts, me + 1, ranks);
  // The whole data's columns' nonzeros, whose blocks one process cuts.
  std::vector<std::uint64_t> column_nonzeros(n, 0);
  for (std::size_t k = 0; k < rows.nnz(); ++k) ++column_nonzeros[rows.col_idx[k]];
  MPI_Allreduce(MPI_IN_PLACE, column_nonzeros.data(), mpi_count(n, "features"), MPI_UINT64_T,
                MPI_SUM, MPI_COMM_WORLD);
  share.feature_blocks = cd_feature_blocks(
      n, [&column_nonzeros](std::size_t i) { return column_nonzeros[i]; }, parts, seed);
  std::vector<int> rank_of(n, 0);
  for (std::size_t r = 0; r < ranks; ++r) {
    for (std::size_t b = first_part_of_rank(parts, r, ranks);
         b < first_part_of_rank(parts, r + 1, ranks); ++b) {
      for (std::uint32_t i : share.feature_blocks[b]) rank_of[i] = static_cast<int>(r);
    }
  }
  if (ranks == 1) {  // nothing moves: the rows' transpose
    const double checked_cost = rows.checked_cost;
    data.columns = to_csc(rows);
    data.columns.checked_cost = checked_cost;
    rows = CsrMatrix();
    rows.num_cols = n;
    return;
  }
  // Each entry (its row in the whole data, its column, its value) to its
  // column's rank, in row order (a counting sort by rank).
  std::vector<std::size_t> at(ranks + 1, 0);
  for (std::size_t k = 0; k < rows.nnz(); ++k) {
    ++at[static_cast<std::size_t>(rank_of[rows.col_idx[k]]) + 1];
  }
  std::vector<int> to(ranks, 0), to_off(ranks, 0);
  for (std::size_t s = 0; s < ranks; ++s) {
    to[s] = mpi_count(at[s + 1], "nonzeros");
    at[s + 1] += at[s];
    to_off[s] = mpi_count(at[s], "nonzeros");
  }
  // Buffers whose pages are mapped at once before they are written
  // (util/populate.h), not zeroed first.
  const auto buffer = [](auto& v, std::size_t count) {
    v.resize(count);
    advise_huge_pages(v.data(), count * sizeof(v[0]));
    populate_for_writing(v.data(), count * sizeof(v[0]));
  };
  Buffer<Index> out_rows, out_cols;
  Buffer<double> out_values;
  buffer(out_rows, rows.nnz());
  buffer(out_cols, rows.nnz());
  buffer(out_values, rows.nnz());
  for (std::size_t j = 0; j < rows.num_rows; ++j) {
    const auto row = static_cast<Index>(data.first_row + j);
    for (auto k = static_cast<std::size_t>(rows.row_ptr[j]);
         k < static_cast<std::size_t>(rows.row_ptr[j + 1]); ++k) {
      std::size_t& place = at[static_cast<std::size_t>(rank_of[rows.col_idx[k]])];
      out_rows[place] = row;
      out_cols[place] = rows.col_idx[k];
      out_values[place] = rows.values[k];
      ++place;
    }
  }
  const double checked_cost = rows.checked_cost;
  rows = CsrMatrix();
  rows.num_cols = n;
  std::vector<int> from(ranks), from_off(ranks, 0);
  MPI_Alltoall(to.data(), 1, MPI_INT, from.data(), 1, MPI_INT, MPI_COMM_WORLD);
  std::uint64_t nnz = 0;
  for (std::size_t r = 0; r < ranks; ++r) {
    from_off[r] = mpi_count(nnz, "nonzeros");
    nnz += static_cast<std::uint64_t>(from[r]);
  }
  std::uint64_t sent = 0;
  for (std::size_t s = 0; s < ranks; ++s) {
    if (s != me) sent += static_cast<std::uint64_t>(to[s]) * (2 * sizeof(Index) + sizeof(double));
  }
  data.bytes_moved += sent;
  collective.count_sent(sent);
  // The entries arrive in rank order, each rank's in row order: in the
  // whole data's row order, which a stable counting sort by column keeps
  // within each column, as one process's columns are. Each array is freed
  // once it has crossed and been placed.
  const auto exchange = [&](auto& v, MPI_Datatype type) {
    std::remove_reference_t<decltype(v)> theirs;
    buffer(theirs, static_cast<std::size_t>(nnz));
    MPI_Alltoallv(v.data(), to.data(), to_off.data(), type, theirs.data(), from.data(),
                  from_off.data(), type, MPI_COMM_WORLD);
    v = std::remove_reference_t<decltype(v)>();
    return theirs;
  };
  const Buffer<Index> cols = exchange(out_cols, MPI_UINT32_T);
  CscMatrix& x = data.columns;
  x = CscMatrix();
  x.num_rows = static_cast<std::size_t>(data.total_rows);
  x.num_cols = n;
  x.checked_cost = checked_cost;
  // This rank's columns hold the whole data's nonzeros of theirs; the others
  // are empty.
  x.col_ptr.assign(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const auto own = rank_of[i] == static_cast<int>(me) ? column_nonzeros[i] : 0;
    x.col_ptr[i + 1] = x.col_ptr[i] + static_cast<std::int64_t>(own);
  }
  column_nonzeros = std::vector<std::uint64_t>();
  // Entry k goes to the next free place of its column, for the rows, then
  // again for the values.
  std::vector<std::int64_t> next(x.col_ptr.begin(), x.col_ptr.end() - 1);
  {
    const Buffer<Index> their_rows = exchange(out_rows, MPI_UINT32_T);
    buffer(x.row_idx, their_rows.size());
    for (std::size_t k = 0; k < their_rows.size(); ++k) {
      x.row_idx[static_cast<std::size_t>(next[cols[k]]++)] = their_rows[k];
    }
  }
  next.assign(x.col_ptr.begin(), x.col_ptr.end() - 1);
  {
    const Buffer<double> their_values = exchange(out_values, MPI_DOUBLE);
    buffer(x.values, their_values.size());
    for (std::size_t k = 0; k < their_values.size(); ++k) {
      x.values[static_cast<std::size_t>(next[cols[k]]++)] = their_values[k];
    }
  }
  // Every row's label, weight and class.
  data.labels = collective.gather_all(data.labels);
  if (!data.weights.empty()) data.weights = collective.gather_all(data.weights);
  number_classes(data);
}

DataMatrix training_matrix(const DistributedRows& data, bool weights) {
  const std::vector<double>* w = weights ? &data.weights : nullptr;
  if (data.share.every_row()) return DataMatrix{&data.columns, nullptr, w, &data.share};
  return DataMatrix{nullptr, &data.rows, w, &data.share};
}

}  // namespace cdl
