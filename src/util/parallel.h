// The thread helpers: the reader's byte ranges, cross-validation's folds
// and one-vs-rest's classes run through run_tasks(); the many short passes of
// one solve (TRON's products) through a ThreadTeam.
#ifndef CDL_UTIL_PARALLEL_H_
#define CDL_UTIL_PARALLEL_H_

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace cdl {

// The number of hardware threads, at least 1.
unsigned hardware_threads();

// Runs task(0), ..., task(count - 1) on up to `threads` threads, the calling
// thread included; each thread takes the next task not yet started, so a slow
// task does not hold up the others. When the system gives no more threads,
// the ones already running (or the calling thread alone) do the rest.
//
// A task's exception does not stop the others. The result holds, for every
// task, the exception it threw or nullptr, so that the caller can report
// errors in task order, whatever order the tasks ran in.
std::vector<std::exception_ptr> run_tasks(std::size_t count, unsigned threads,
                                          const std::function<void(std::size_t)>& task);

// run_tasks(), then rethrows the first task's exception in task order.
void run_tasks_or_throw(std::size_t count, unsigned threads,
                        const std::function<void(std::size_t)>& task);

// Calls body(i) for i = 0, ..., count - 1 in blocks of 8192 consecutive
// indices on up to `threads` threads (the passes over the columns). A block
// stops at its first exception, and the first block's is rethrown, so the
// error is the one a single loop would meet first.
template <class Body>
void run_in_blocks_or_throw(std::size_t count, unsigned threads, Body body) {
  constexpr std::size_t kBlock = 8192;
  run_tasks_or_throw((count + kBlock - 1) / kBlock, threads, [&](std::size_t b) {
    for (std::size_t i = b * kBlock, stop = std::min(count, i + kBlock); i < stop; ++i) body(i);
  });
}

// A fixed team of threads for many short passes: its helpers start once, so
// that a pass costs no thread start. TRON runs two passes per CG step,
// hundreds per solve, and CDPER's partitions three per merge. Between passes
// a helper checks for the next one for up to 1 ms (yielding its core), and
// only then sleeps: a pass that wakes a sleeping helper costs many times a
// pass that a checking helper takes (`bench_cd team` measures both; the
// figures, at 2474177, are in docs/checks.md). The caller waits for the
// pass's end the same way. Only a team with no more threads than the
// hardware has checks; a larger one sleeps at once, as its threads would
// take each other's cores.
//
// Contract: run() is called by one thread at a time (the owner's); the team
// is not reentrant (a task must not call run()). Which thread runs which task
// varies from pass to pass, so a task must write only its own outputs: results
// then do not depend on the team's size.
class ThreadTeam {
 public:
  // The calling thread and up to threads - 1 helpers; fewer if the system
  // gives no more (the team then runs with those it has, or alone).
  explicit ThreadTeam(unsigned threads);
  ~ThreadTeam();
  ThreadTeam(const ThreadTeam&) = delete;
  ThreadTeam& operator=(const ThreadTeam&) = delete;

  // The threads of a pass, the caller's included.
  unsigned size() const { return static_cast<unsigned>(helpers_.size()) + 1; }

  // Runs task(0), ..., task(count - 1), each once, on the team, the calling
  // thread included, and returns when all are done. Then the first task's
  // exception in task order is rethrown (whether the tasks after a failed
  // one ran is unspecified).
  void run(std::size_t count, const std::function<void(std::size_t)>& task);

 private:
  void help();
  void take_tasks();

  std::mutex mutex_;
  std::condition_variable wake_;  // a new pass, or the end
  std::condition_variable done_;  // the last helper left the pass
  std::vector<std::thread> helpers_;
  // Whether helpers and the caller spin a while before they sleep: only
  // when the team has a hardware thread per member.
  bool spin_ = false;
  // The current pass, written before pass_ is raised.
  const std::function<void(std::size_t)>* task_ = nullptr;
  std::size_t count_ = 0;
  std::atomic<std::size_t> next_{0};
  std::vector<std::exception_ptr> errors_;
  std::atomic<std::uint64_t> pass_{0};  // passes started
  std::atomic<std::size_t> busy_{0};    // helpers not yet done with the current pass
  std::size_t sleeping_ = 0;            // helpers waiting on wake_ (under mutex_)
  std::atomic<bool> stopping_{false};
};

// sum_k part(first_k, stop_k) over the chunks [k chunk, min((k + 1) chunk,
// count)) of [0, count), the chunks on the team and their sums added in
// chunk order on the caller: the bits depend on count and chunk, never on
// the team's size (a reduction that follows the threads would not). `sums`
// is the caller's buffer, kept between calls. part must write only what its
// chunk owns.
template <class Part>
double chunked_sum(ThreadTeam& team, std::size_t count, std::size_t chunk,
                   std::vector<double>& sums, Part part) {
  const std::size_t chunks = (count + chunk - 1) / chunk;
  sums.assign(chunks, 0.0);
  team.run(chunks,
           [&](std::size_t k) { sums[k] = part(k * chunk, std::min(count, (k + 1) * chunk)); });
  double total = 0;
  for (double s : sums) total += s;
  return total;
}

}  // namespace cdl

#endif  // CDL_UTIL_PARALLEL_H_
