#include "mpi_collective.h"

#include <mpi.h>

#include <climits>
#include <string>

#include "util/error.h"

namespace cdl {
namespace {

// The first element of rank s's range of n elements over `size` ranks.
std::size_t range_start(std::size_t n, int s, int size) {
  return static_cast<std::size_t>(share_start(n, s, size));
}

template <class T>
std::vector<T> gather_all_of(const std::vector<T>& mine, MPI_Datatype type, int size,
                             std::uint64_t& bytes_sent) {
  const int count = mpi_count(mine.size(), "gathered values");
  std::vector<int> counts(static_cast<std::size_t>(size));
  MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  std::vector<int> offsets(counts.size(), 0);
  std::uint64_t total = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    offsets[r] = mpi_count(total, "gathered values");
    total += static_cast<std::uint64_t>(counts[r]);
  }
  std::vector<T> all(static_cast<std::size_t>(total));
  MPI_Allgatherv(mine.data(), count, type, all.data(), counts.data(), offsets.data(), type,
                 MPI_COMM_WORLD);
  bytes_sent += mine.size() * sizeof(T) * static_cast<std::size_t>(size - 1);
  return all;
}

}  // namespace

int mpi_count(std::uint64_t count, const char* what) {
  if (count > static_cast<std::uint64_t>(INT_MAX)) {
    throw Error(std::string("cdtrain-mpi: ") + what + ": " + std::to_string(count) +
                " elements in one exchange, more than MPI's 2^31-1; use more ranks");
  }
  return static_cast<int>(count);
}

MpiCollective::MpiCollective() {
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

std::vector<double> MpiCollective::gather_all(const std::vector<double>& mine) {
  return gather_all_of(mine, MPI_DOUBLE, size_, bytes_sent_);
}

std::vector<std::uint64_t> MpiCollective::gather_all(const std::vector<std::uint64_t>& mine) {
  return gather_all_of(mine, MPI_UINT64_T, size_, bytes_sent_);
}

void MpiCollective::add_in_order(const std::vector<const std::vector<double>*>& mine, std::size_t n,
                                 std::vector<double>& out) {
  const auto ranks = static_cast<std::size_t>(size_);
  // How many vectors each rank holds.
  const int own = mpi_count(mine.size(), "block vectors");
  std::vector<int> held(ranks);
  MPI_Allgather(&own, 1, MPI_INT, held.data(), 1, MPI_INT, MPI_COMM_WORLD);
  // The first rank that holds vectors holds the first of them: the sum
  // (((v_0 + v_1) + v_2) + ...) starts with its run, so it adds its own in
  // order and sends that one vector; the others' go one by one.
  std::size_t first = 0;
  while (first < ranks && held[first] == 0) ++first;
  std::vector<double>& folded = folded_;
  std::vector<const std::vector<double>*> sending = mine;
  if (first < ranks && held[first] > 1) {
    if (static_cast<std::size_t>(rank_) == first) {
      folded = *mine[0];
      for (std::size_t k = 1; k < mine.size(); ++k) {
        const std::vector<double>& v = *mine[k];
        for (std::size_t i = 0; i < n; ++i) folded[i] += v[i];
      }
      sending = {&folded};
    }
    held[first] = 1;
  }
  // To rank s: the slice [start_s, start_{s+1}) of each of mine, in order.
  std::vector<int> send_counts(ranks), send_offsets(ranks), receive_counts(ranks),
      receive_offsets(ranks);
  std::vector<double>& send = send_;
  send.clear();
  send.reserve(sending.size() * n);
  for (std::size_t s = 0; s < ranks; ++s) {
    const std::size_t begin = range_start(n, static_cast<int>(s), size_);
    const std::size_t end = range_start(n, static_cast<int>(s + 1), size_);
    send_offsets[s] = mpi_count(send.size(), "block vectors");
    for (const std::vector<double>* v : sending) {
      send.insert(send.end(), v->begin() + static_cast<std::ptrdiff_t>(begin),
                  v->begin() + static_cast<std::ptrdiff_t>(end));
    }
    send_counts[s] = mpi_count(send.size(), "block vectors") - send_offsets[s];
  }
  const std::size_t my_begin = range_start(n, rank_, size_);
  const std::size_t my_length = range_start(n, rank_ + 1, size_) - my_begin;
  std::uint64_t total = 0;
  for (std::size_t r = 0; r < ranks; ++r) {
    receive_offsets[r] = mpi_count(total, "block vectors");
    receive_counts[r] = mpi_count(static_cast<std::uint64_t>(held[r]) * my_length, "block vectors");
    total += static_cast<std::uint64_t>(receive_counts[r]);
  }
  std::vector<double>& received = received_;
  received.resize(static_cast<std::size_t>(total));
  MPI_Alltoallv(send.data(), send_counts.data(), send_offsets.data(), MPI_DOUBLE, received.data(),
                receive_counts.data(), receive_offsets.data(), MPI_DOUBLE, MPI_COMM_WORLD);
  bytes_sent_ +=
      (send.size() - static_cast<std::size_t>(send_counts[static_cast<std::size_t>(rank_)])) *
      sizeof(double);
  // The slices arrive in rank order, each rank's in its block order: the
  // global block order. Added one after another, from the first.
  std::vector<double>& sum = sum_;
  sum.assign(my_length, 0.0);
  const std::size_t slices = my_length == 0 ? 0 : received.size() / my_length;
  for (std::size_t k = 0; k < slices; ++k) {
    const double* slice = received.data() + k * my_length;
    if (k == 0) {
      for (std::size_t i = 0; i < my_length; ++i) sum[i] = slice[i];
    } else {
      for (std::size_t i = 0; i < my_length; ++i) sum[i] += slice[i];
    }
  }
  // Every rank's range, on every rank.
  std::vector<int> counts(ranks), offsets(ranks);
  for (std::size_t s = 0; s < ranks; ++s) {
    offsets[s] = mpi_count(range_start(n, static_cast<int>(s), size_), "features");
    counts[s] = mpi_count(range_start(n, static_cast<int>(s + 1), size_), "features") - offsets[s];
  }
  out.resize(n);
  MPI_Allgatherv(sum.data(), mpi_count(my_length, "features"), MPI_DOUBLE, out.data(),
                 counts.data(), offsets.data(), MPI_DOUBLE, MPI_COMM_WORLD);
  bytes_sent_ += my_length * sizeof(double) * (ranks - 1);
}

}  // namespace cdl
