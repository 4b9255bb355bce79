#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "util/populate.h"

namespace cdl {
namespace {

// The pages of [data, data + bytes) that mincore() reports in memory.
std::size_t resident_pages(char* data, std::size_t bytes) {
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> in_core((bytes + page - 1) / page);
  EXPECT_EQ(::mincore(data, bytes, in_core.data()), 0);
  std::size_t count = 0;
  for (unsigned char flags : in_core) count += flags & 1u;
  return count;
}

// Whether this system has MADV_POPULATE_WRITE (Linux 5.14 and later).
bool system_populates() {
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  void* probe = ::mmap(nullptr, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  EXPECT_NE(probe, MAP_FAILED);
  const bool ok = ::madvise(probe, page, 23 /* MADV_POPULATE_WRITE */) == 0;
  ::munmap(probe, page);
  return ok;
}

// Fresh anonymous pages are mapped by the call, not by a write: mincore()
// sees them before anything touches them. Where the system lacks the call,
// nothing is mapped and nothing fails.
TEST(Populate, MapsEveryPageOfTheRangeBeforeItIsWritten) {
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  const std::size_t bytes = 64 * page;
  void* mapping = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(mapping, MAP_FAILED);
  char* data = static_cast<char*>(mapping);
  EXPECT_EQ(resident_pages(data, bytes), 0u);
  // A range that starts and ends inside pages maps the pages it touches.
  populate_for_writing(data + page + 100, 40 * page);
  EXPECT_EQ(resident_pages(data, page), 0u);
  EXPECT_EQ(resident_pages(data + page, 41 * page), system_populates() ? 41u : 0u);
  EXPECT_EQ(resident_pages(data + 42 * page, 22 * page), 0u);
  ::munmap(mapping, bytes);
}

TEST(Populate, LeavesSmallRangesToTheirWrites) {
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  const std::size_t bytes = 64 * page;
  void* mapping = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(mapping, MAP_FAILED);
  char* data = static_cast<char*>(mapping);
  populate_for_writing(data, kPopulateMinBytes - 1);
  populate_for_writing(nullptr, bytes);
  EXPECT_EQ(resident_pages(data, bytes), 0u);
  ::munmap(mapping, bytes);
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

}  // namespace
}  // namespace cdl
