// Memory straight from mmap for the readers' temporaries (internal to
// src/data): freeing it returns it to the system, whatever malloc's
// thresholds are. glibc raises its mmap threshold to the size of a large
// block once one is freed, and a later block of that size then comes from
// a thread's arena, which keeps it after it is freed: a parsing thread's 4
// MiB text buffer stayed in the process for the whole run that way.
#ifndef CDL_PAGES_H_
#define CDL_PAGES_H_

#include <sys/mman.h>

#include <cstddef>
#include <cstring>
#include <new>
#include <utility>
#include <vector>

#include "util/populate.h"

namespace cdl {
namespace detail {

// Anonymous memory straight from mmap, so that freeing it returns it to the
// system whatever malloc's thresholds are: the streams' memory must leave the
// process while the matrix fills. Pages are touched (and counted) only when
// written.
class Pages {
 public:
  Pages() = default;
  explicit Pages(std::size_t size) : size_(size) {
    void* data = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (data == MAP_FAILED) throw std::bad_alloc();
    data_ = static_cast<char*>(data);
  }
  ~Pages() {
    if (data_ != nullptr) ::munmap(data_, size_);
  }
  Pages(Pages&& other) noexcept : data_(std::exchange(other.data_, nullptr)), size_(other.size_) {}
  Pages& operator=(Pages&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    return *this;
  }
  Pages(const Pages&) = delete;
  Pages& operator=(const Pages&) = delete;
  char* data() const { return data_; }
  std::size_t size() const { return size_; }

 private:
  char* data_ = nullptr;
  std::size_t size_ = 0;
};

// A byte buffer on Pages that keeps its contents as it grows, as a
// std::vector<char> would (without the zero fill): the readers' text blocks.
class TextPages {
 public:
  std::size_t size() const { return size_; }
  char* data() const { return pages_.data(); }
  void resize(std::size_t size) {
    if (size > pages_.size()) {
      Pages larger(size);
      populate_for_writing(larger.data(), size);
      if (size_ > 0) std::memcpy(larger.data(), pages_.data(), size_);
      pages_ = std::move(larger);
    }
    size_ = size;
  }

 private:
  Pages pages_;
  std::size_t size_ = 0;
};

// Runs of `run_bytes` cut from mappings of kRunsPerMapping runs, all freed
// with the arena. Freeing memory costs a call per mapping, and with two
// threads or more each call also interrupts the others to flush their TLBs:
// with a mapping per run, the wide file's 2,000 stream runs took most of the
// column reader's scatter on two threads. A run's pages count as used only
// once written.
class RunArena {
 public:
  static constexpr std::size_t kRunsPerMapping = 8;
  explicit RunArena(std::size_t run_bytes) : run_bytes_(run_bytes) {}
  char* take() {
    if (mappings_.empty() || used_ == kRunsPerMapping) {
      mappings_.emplace_back(kRunsPerMapping * run_bytes_);
      used_ = 0;
    }
    return mappings_.back().data() + run_bytes_ * used_++;
  }

 private:
  std::size_t run_bytes_;
  std::vector<Pages> mappings_;
  std::size_t used_ = 0;
};

}  // namespace detail
}  // namespace cdl

#endif  // CDL_PAGES_H_
