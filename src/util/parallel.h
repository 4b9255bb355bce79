// The one thread helper: the reader's byte ranges, cross-validation's folds
// and one-vs-rest's classes all run through run_tasks().
#ifndef CDL_UTIL_PARALLEL_H_
#define CDL_UTIL_PARALLEL_H_

#include <algorithm>
#include <cstddef>
#include <exception>
#include <functional>
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

}  // namespace cdl

#endif  // CDL_UTIL_PARALLEL_H_
