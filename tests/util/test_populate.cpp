#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "util/populate.h"

namespace cdl {
namespace {

const std::size_t kPage = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));

// The pages of [data, data + bytes) that mincore() reports in memory.
std::size_t resident_pages(char* data, std::size_t bytes) {
  std::vector<unsigned char> in_core((bytes + kPage - 1) / kPage);
  EXPECT_EQ(::mincore(data, bytes, in_core.data()), 0);
  std::size_t count = 0;
  for (unsigned char flags : in_core) count += flags & 1u;
  return count;
}

// `pages` fresh anonymous pages, unmapped with the object.
class FreshPages {
 public:
  explicit FreshPages(std::size_t pages) : bytes_(pages * kPage) {
    void* mapping =
        ::mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapping == MAP_FAILED) throw std::runtime_error("mmap failed");
    data_ = static_cast<char*>(mapping);
  }
  ~FreshPages() { ::munmap(data_, bytes_); }
  FreshPages(const FreshPages&) = delete;
  FreshPages& operator=(const FreshPages&) = delete;
  char* data() const { return data_; }
  std::size_t bytes() const { return bytes_; }

 private:
  std::size_t bytes_;
  char* data_ = nullptr;
};

// Whether this system has MADV_POPULATE_WRITE (Linux 5.14 and later).
bool system_populates() {
  const FreshPages probe(1);
  return ::madvise(probe.data(), kPage, 23 /* MADV_POPULATE_WRITE */) == 0;
}

// Fresh anonymous pages are mapped by the call, not by a write: mincore()
// sees them before anything touches them. Where the system lacks the call,
// nothing is mapped and nothing fails.
TEST(Populate, MapsEveryPageOfTheRangeBeforeItIsWritten) {
  const FreshPages pages(64);
  char* const data = pages.data();
  EXPECT_EQ(resident_pages(data, pages.bytes()), 0u);
  // A range that starts and ends inside pages maps the pages it touches.
  populate_for_writing(data + kPage + 100, 40 * kPage);
  EXPECT_EQ(resident_pages(data, kPage), 0u);
  EXPECT_EQ(resident_pages(data + kPage, 41 * kPage), system_populates() ? 41u : 0u);
  EXPECT_EQ(resident_pages(data + 42 * kPage, 22 * kPage), 0u);
}

TEST(Populate, LeavesSmallRangesToTheirWrites) {
  const FreshPages pages(64);
  populate_for_writing(pages.data(), kPopulateMinBytes - 1);
  populate_for_writing(nullptr, pages.bytes());
  EXPECT_EQ(resident_pages(pages.data(), pages.bytes()), 0u);
}

TEST(Populate, VectorsHoldTheirValues) {
  const std::vector<double> filled = populated_vector(100000, 2.5);
  EXPECT_EQ(filled, std::vector<double>(100000, 2.5));
  std::vector<std::uint32_t> from(70000);
  for (std::size_t i = 0; i < from.size(); ++i) from[i] = static_cast<std::uint32_t>(i * 7);
  EXPECT_EQ(populated_copy(from), from);
  EXPECT_TRUE(populated_vector(0, 1.0).empty());
  EXPECT_TRUE(populated_copy(std::vector<double>()).empty());
}

TEST(Populate, ResizeForWritingKeepsOrZerosTheElements) {
  std::vector<double> v;
  resize_for_writing(v, 100000);  // new memory: zeros
  EXPECT_EQ(v, std::vector<double>(100000, 0.0));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(i);
  const double* const data = v.data();
  resize_for_writing(v, 100000);  // the same size: untouched
  EXPECT_EQ(v.data(), data);
  EXPECT_EQ(v[99999], 99999.0);
  resize_for_writing(v, 10);  // shorter, in the same memory
  EXPECT_EQ(v.data(), data);
  EXPECT_EQ(v, std::vector<double>({0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
  resize_for_writing(v, 200000);  // beyond the capacity: new memory, zeros
  EXPECT_EQ(v, std::vector<double>(200000, 0.0));
}

}  // namespace
}  // namespace cdl
