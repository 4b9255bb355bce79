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

ThreadTeam::ThreadTeam(unsigned threads) {
  try {
    for (unsigned t = 1; t < threads; ++t) helpers_.emplace_back([this] { help(); });
  } catch (const std::system_error&) {
    // No more threads to be had: the team is those started and the caller.
  }
}

ThreadTeam::~ThreadTeam() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& helper : helpers_) helper.join();
}

void ThreadTeam::take_tasks() {
  for (std::size_t k = next_++; k < count_; k = next_++) {
    try {
      (*task_)(k);
    } catch (...) {
      errors_[k] = std::current_exception();
    }
  }
}

void ThreadTeam::help() {
  std::uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || pass_ != seen; });
      if (stopping_) return;
      seen = pass_;
    }
    take_tasks();
    const std::lock_guard<std::mutex> lock(mutex_);
    if (--busy_ == 0) done_.notify_one();
  }
}

void ThreadTeam::run(std::size_t count, const std::function<void(std::size_t)>& task) {
  if (helpers_.empty() || count <= 1) {
    for (std::size_t k = 0; k < count; ++k) task(k);
    return;
  }
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    task_ = &task;
    count_ = count;
    next_ = 0;
    errors_.assign(count, nullptr);
    busy_ = helpers_.size();
    ++pass_;
  }
  wake_.notify_all();
  take_tasks();
  {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return busy_ == 0; });
    task_ = nullptr;
  }
  for (const std::exception_ptr& error : errors_) {
    if (error) std::rethrow_exception(error);
  }
}

}  // namespace cdl
