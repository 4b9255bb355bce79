#include "util/parallel.h"

#include <algorithm>
#include <atomic>
#include <chrono>
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

namespace {

// How long a waiting thread of a team checks for its event before it sleeps
// (parallel.h): longer than the serial steps between most passes, as CDPER's
// line search of a merge, and short beside a solve (the gaps between passes
// measured at 2474177 are in docs/checks.md).
constexpr std::chrono::microseconds kSpinTime{1000};

// Calls done() until it is true or kSpinTime has passed; returns done().
template <class Done>
bool spin_until(Done done) {
  const auto start = std::chrono::steady_clock::now();
  for (unsigned k = 1;; ++k) {
    if (done()) return true;
    if (k % 64 == 0 && std::chrono::steady_clock::now() - start > kSpinTime) return done();
    std::this_thread::yield();
  }
}

}  // namespace

ThreadTeam::ThreadTeam(unsigned threads) : spin_(threads <= hardware_threads()) {
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
    const auto event = [&] { return stopping_.load() || pass_.load() != seen; };
    if (!spin_ || !spin_until(event)) {
      std::unique_lock<std::mutex> lock(mutex_);
      ++sleeping_;
      wake_.wait(lock, event);
      --sleeping_;
    }
    if (stopping_) return;
    seen = pass_;
    take_tasks();
    if (--busy_ == 0) {
      const std::lock_guard<std::mutex> lock(mutex_);
      done_.notify_one();
    }
  }
}

void ThreadTeam::run(std::size_t count, const std::function<void(std::size_t)>& task) {
  if (helpers_.empty() || count <= 1) {
    for (std::size_t k = 0; k < count; ++k) task(k);
    return;
  }
  bool sleepers = false;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    task_ = &task;
    count_ = count;
    next_ = 0;
    errors_.assign(count, nullptr);
    busy_ = helpers_.size();
    ++pass_;
    sleepers = sleeping_ > 0;
  }
  if (sleepers) wake_.notify_all();
  take_tasks();
  const auto finished = [&] { return busy_.load() == 0; };
  if (!spin_ || !spin_until(finished)) {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, finished);
  }
  task_ = nullptr;
  for (const std::exception_ptr& error : errors_) {
    if (error) std::rethrow_exception(error);
  }
}

}  // namespace cdl
