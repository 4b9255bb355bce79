#include "util/parallel.h"

#include <algorithm>
#include <atomic>
#include <system_error>
#include <thread>

namespace cdl {

unsigned hardware_threads() { return std::max(1u, std::thread::hardware_concurrency()); }

std::vector<std::exception_ptr> run_tasks(std::size_t count, unsigned threads,
                                          const std::function<void(std::size_t)>& task) {
  std::vector<std::exception_ptr> errors(count);
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    for (std::size_t k = next++; k < count; k = next++) {
      try {
        task(k);
      } catch (...) {
        errors[k] = std::current_exception();
      }
    }
  };
  const std::size_t helpers = std::min<std::size_t>(std::max(threads, 1u), count) - (count > 0);
  std::vector<std::thread> pool;
  try {
    for (std::size_t t = 0; t < helpers; ++t) pool.emplace_back(work);
  } catch (const std::system_error&) {
    // No more threads to be had: those started and this one do the rest.
  }
  work();
  for (auto& thread : pool) thread.join();
  return errors;
}

void run_tasks_or_throw(std::size_t count, unsigned threads,
                        const std::function<void(std::size_t)>& task) {
  for (const std::exception_ptr& error : run_tasks(count, threads, task)) {
    if (error) std::rethrow_exception(error);
  }
}

}  // namespace cdl
