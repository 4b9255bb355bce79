#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <utility>

#include "data/cache.h"
#include "data/problem.h"
#include "test_util.h"
#include "train/train.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/file_pages.h"

namespace cdl {
namespace {

using test::error_message;

namespace fs = std::filesystem;

void expect_same(const LabeledCsc& a, const LabeledCsc& b) {
  EXPECT_EQ(a.labels, b.labels);
  EXPECT_EQ(a.features.num_rows, b.features.num_rows);
  EXPECT_EQ(a.features.num_cols, b.features.num_cols);
  EXPECT_EQ(a.features.col_ptr, b.features.col_ptr);
  EXPECT_EQ(a.features.row_idx, b.features.row_idx);
  EXPECT_EQ(a.features.values, b.features.values);  // bit for bit: no NaN in data
  EXPECT_EQ(a.lines.rows, b.lines.rows);
  EXPECT_EQ(a.lines.lines, b.lines.lines);
  EXPECT_EQ(a.largest_magnitude, b.largest_magnitude);  // found by the loader too
}

// The file mapped at `p` in this process, or "" (from /proc/self/maps).
std::string file_mapped_at(const void* p) {
  std::ifstream maps("/proc/self/maps");
  const auto address = reinterpret_cast<std::uintptr_t>(p);
  std::string line;
  while (std::getline(maps, line)) {
    std::istringstream fields(line);
    std::string range, permissions, offset, device, inode, path;
    fields >> range >> permissions >> offset >> device >> inode;
    std::getline(fields >> std::ws, path);
    const std::size_t dash = range.find('-');
    if (address >= std::stoull(range.substr(0, dash), nullptr, 16) &&
        address < std::stoull(range.substr(dash + 1), nullptr, 16)) {
      return path;
    }
  }
  return "";
}

// Whether any part of `path` is mapped in this process.
bool is_mapped(const std::string& path) {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    if (line.size() >= path.size() && line.compare(line.size() - path.size(), path.npos, path) == 0)
      return true;
  }
  return false;
}

class Cache : public ::testing::Test {
 protected:
  void SetUp() override {
    // Comment lines, so that the line map has more than one entry.
    std::string text = "# a header\n" + test::read_file(test::data_path("heart_scale"));
    text.insert(text.find('\n', 2000) + 1, "# in the middle\n");
    data_ = dir_.write("data.svm", text);
    cache_ = dir_.file("data.svm.cdcache");
    options_.integer_labels = true;
    options_.bias = 1;
  }
  // Sets the text's modification time back to what it was.
  void keep_mtime(const std::string& path, const struct stat& before) {
    const struct timespec times[2] = {before.st_atim, before.st_mtim};
    ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), times, 0), 0);
  }
  void rewrite_byte(const std::string& path, std::uint64_t offset, char byte) {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(offset));
    f.put(byte);
  }

  // load_cache()'s error once `cache` holds `pristine` again except for the
  // byte at `at`, set to `byte`.
  std::string error_with_byte(const std::string& cache, const std::string& data,
                              const std::string& pristine, std::uint64_t at, char byte) {
    std::ofstream(cache, std::ios::binary | std::ios::trunc) << pristine;
    rewrite_byte(cache, at, byte);
    return error_message([&] { load_cache(cache, data, options_); });
  }
  // The error that names a corrupt cache.
  static std::string corrupt(const std::string& cache, const std::string& reason) {
    return cache + ": corrupt cache: " + reason + "; delete it to rebuild it from the text";
  }

  // Reads `data` and writes its cache at `cache`; returns what was read.
  LabeledCsc write_large_cache(const std::string& data, const std::string& cache) {
    LabeledCsc parsed = read_libsvm_csc(data, options_);
    write_cache(cache, data, options_, parsed);
    return parsed;
  }

  test::ScratchDir dir_;
  std::string data_;
  std::string cache_;
  ReadOptions options_;
};

TEST_F(Cache, DefaultPathIsBesideTheText) {
  EXPECT_EQ(default_cache_path("dir/train.svm"), "dir/train.svm.cdcache");
}

TEST_F(Cache, RoundTripIsBitIdenticalToParsing) {
  const LabeledCsc parsed = read_libsvm_csc(data_, options_);
  ASSERT_GT(parsed.lines.rows.size(), 1u);
  write_cache(cache_, data_, options_, parsed);
  const std::optional<LabeledCsc> loaded = load_cache(cache_, data_, options_);
  ASSERT_TRUE(loaded.has_value());
  expect_same(*loaded, parsed);
  EXPECT_EQ(loaded->lines.line_of(parsed.features.num_rows - 1),
            parsed.lines.line_of(parsed.features.num_rows - 1));
}

TEST_F(Cache, ReadWithCacheWritesThenLoads) {
  const LabeledCsc parsed = read_libsvm_csc(data_, options_);
  CacheUse first;
  expect_same(read_with_cache(data_, options_, cache_, first), parsed);
  EXPECT_FALSE(first.loaded);
  EXPECT_TRUE(first.written);
  EXPECT_TRUE(fs::exists(cache_));
  CacheUse second;
  expect_same(read_with_cache(data_, options_, cache_, second), parsed);
  EXPECT_TRUE(second.loaded);
  EXPECT_FALSE(second.written);
}

TEST_F(Cache, LargerDataRoundTrip) {
  const std::string rcv1 = test::data_path("rcv1_small");
  ReadOptions options;
  const LabeledCsc parsed = read_libsvm_csc(rcv1, options);
  const std::string cache = dir_.file("rcv1.cdcache");
  write_cache(cache, rcv1, options, parsed);
  const std::optional<LabeledCsc> loaded = load_cache(cache, rcv1, options);
  ASSERT_TRUE(loaded.has_value());
  expect_same(*loaded, parsed);
}

// A cache that does not match its text is stale: not loaded, and rebuilt.
TEST_F(Cache, StaleCachesAreRebuilt) {
  const LabeledCsc parsed = read_libsvm_csc(data_, options_);
  write_cache(cache_, data_, options_, parsed);
  // Other reader options.
  ReadOptions other_bias = options_;
  other_bias.bias = 2;
  EXPECT_FALSE(load_cache(cache_, data_, other_bias).has_value());
  ReadOptions no_bias = options_;
  no_bias.bias = -1;
  EXPECT_FALSE(load_cache(cache_, data_, no_bias).has_value());
  ReadOptions any_labels = options_;
  any_labels.integer_labels = false;
  EXPECT_FALSE(load_cache(cache_, data_, any_labels).has_value());
  EXPECT_TRUE(load_cache(cache_, data_, options_).has_value());

  // The same size and modification time, another first label: the head's
  // checksum tells.
  struct stat before {};
  ASSERT_EQ(::stat(data_.c_str(), &before), 0);
  rewrite_byte(data_, 11, '-');  // "+1" -> "-1" on the first instance
  keep_mtime(data_, before);
  EXPECT_FALSE(load_cache(cache_, data_, options_).has_value());
  CacheUse use;
  const LabeledCsc rebuilt = read_with_cache(data_, options_, cache_, use);
  EXPECT_TRUE(use.written);
  EXPECT_EQ(rebuilt.labels[0], -parsed.labels[0]);
  const std::optional<LabeledCsc> reloaded = load_cache(cache_, data_, options_);
  ASSERT_TRUE(reloaded.has_value());
  expect_same(*reloaded, rebuilt);

  // Another modification time alone.
  struct timespec later[2] = {before.st_atim, before.st_mtim};
  later[1].tv_nsec = (later[1].tv_nsec + 1) % 1000000000;
  ASSERT_EQ(::utimensat(AT_FDCWD, data_.c_str(), later, 0), 0);
  EXPECT_FALSE(load_cache(cache_, data_, options_).has_value());

  // Another size.
  std::ofstream(data_, std::ios::app) << "1 1:1\n";
  EXPECT_FALSE(load_cache(cache_, data_, options_).has_value());
  CacheUse again;
  EXPECT_EQ(read_with_cache(data_, options_, cache_, again).labels.size(),
            parsed.labels.size() + 1);
  EXPECT_TRUE(again.written);
}

TEST_F(Cache, TruncatedCacheIsAnErrorThatNamesIt) {
  write_cache(cache_, data_, options_, read_libsvm_csc(data_, options_));
  const auto size = fs::file_size(cache_);
  fs::resize_file(cache_, size - 100);
  EXPECT_THROW(load_cache(cache_, data_, options_), Error);
  EXPECT_EQ(error_message([&] { load_cache(cache_, data_, options_); }),
            cache_ + ": corrupt cache: truncated (" + std::to_string(size - 100) + " of " +
                std::to_string(size) + " bytes); delete it to rebuild it from the text");
  CacheUse use;
  EXPECT_THROW(read_with_cache(data_, options_, cache_, use), Error);
  EXPECT_EQ(fs::file_size(cache_), size - 100);  // left as it is
  fs::resize_file(cache_, 50);
  EXPECT_EQ(error_message([&] { load_cache(cache_, data_, options_); }),
            cache_ +
                ": corrupt cache: truncated (50 bytes, less than a header); delete it to "
                "rebuild it from the text");
}

TEST_F(Cache, CorruptCacheIsAnErrorThatNamesIt) {
  write_cache(cache_, data_, options_, read_libsvm_csc(data_, options_));
  const auto size = fs::file_size(cache_);
  const std::string pristine = test::read_file(cache_);
  // The row numbers start at kMappableAlignment, after the small arrays and
  // zeros; the line map ends the file.
  for (const std::uint64_t at : {kMappableAlignment + 1, size - 3}) {
    EXPECT_EQ(error_with_byte(cache_, data_, pristine, at, static_cast<char>(pristine[at] ^ 0x10)),
              corrupt(cache_, "payload checksum mismatch"))
        << at;
  }
  EXPECT_EQ(error_with_byte(cache_, data_, pristine, kMappableAlignment - 1, 1),
            corrupt(cache_, "nonzero bytes between its arrays"));
  EXPECT_EQ(error_with_byte(cache_, data_, pristine, 70,
                            static_cast<char>(pristine[70] ^ 1)),  // num_rows
            corrupt(cache_, "header checksum mismatch"));
  dir_.write("data.svm.cdcache", pristine + "x");
  EXPECT_EQ(error_message([&] { load_cache(cache_, data_, options_); }),
            cache_ + ": corrupt cache: " + std::to_string(size + 1) +
                " bytes where the header says " + std::to_string(size) +
                "; delete it to rebuild it from the text");
}

// 3000 x 100 and the bias: 1.2 MB of row numbers and 2.4 MB of values,
// each above the 1 MiB worth mapping.
std::string large_data() {
  std::string text;
  for (int i = 0; i < 3000; ++i) {
    text += i % 2 ? "+1" : "-1";
    for (int j = 1; j <= 100; ++j) {
      text += " " + std::to_string(j) + ":" + std::to_string((i * 7 + j) % 13) + ".25";
    }
    text += "\n";
  }
  return text;
}

// A matrix of 1001 rows and 150 columns of 1000 entries, the last column
// with one more (150,001 nonzeros, an odd number: the row numbers end in half
// a word, the values in part of a 64 KiB block). Every value is 0.5 but the
// last, `last_value`, and the last row number is `last_row`.
LabeledCsc hand_built(double last_value, Index last_row) {
  LabeledCsc data;
  CscMatrix& m = data.features;
  m.num_rows = 1001;
  m.num_cols = 150;
  m.col_ptr.assign(1, 0);
  for (std::size_t c = 0; c < m.num_cols; ++c) {
    for (Index r = 0; r < 1000; ++r) {
      m.row_idx.push_back(r);
      m.values.push_back(0.5);
    }
    if (c + 1 == m.num_cols) {
      m.row_idx.push_back(1000);
      m.values.push_back(0.5);
    }
    m.col_ptr.push_back(static_cast<std::int64_t>(m.row_idx.size()));
  }
  m.row_idx.back() = last_row;
  m.values.back() = last_value;
  for (std::size_t j = 0; j < m.num_rows; ++j) data.labels.push_back(j % 2 ? 1.0 : -1.0);
  data.lines.add(0, 1);
  data.largest_magnitude = last_value;
  return data;
}

// The loader finds the largest |value| and checks the row numbers in one pass
// with its checksum, 64 KiB at a time: both must see the last entry of the
// last, partial block.
TEST_F(Cache, TheLoaderSeesTheLastEntryOfTheLastBlock) {
  const std::string cache = dir_.file("built.cdcache");
  write_cache(cache, data_, options_, hand_built(7.75, 1000));
  const std::optional<LabeledCsc> loaded = load_cache(cache, data_, options_);
  ASSERT_TRUE(loaded);
  EXPECT_EQ(loaded->features.nnz(), 150001u);
  EXPECT_EQ(loaded->largest_magnitude, 7.75);
  EXPECT_EQ(loaded->features.values.back(), 7.75);

  write_cache(cache, data_, options_, hand_built(-9.5, 1000));
  EXPECT_EQ(load_cache(cache, data_, options_)->largest_magnitude, 9.5);

  // A row number out of range in the last half word, checksummed as written.
  write_cache(cache, data_, options_, hand_built(0.5, 1001));
  EXPECT_EQ(error_message([&] { load_cache(cache, data_, options_); }),
            corrupt(cache, "inconsistent matrix"));
}

// A line map or labels that the reader cannot make, sealed with valid
// checksums (as a tool fault could write them), are refused by the loader:
// the messages would name wrong lines, and classes are mapped from labels
// without another check. (Found by fuzz_cache.)
TEST_F(Cache, ALineMapOrLabelsTheReaderCannotMakeAreCorrupt) {
  const std::string cache = dir_.file("sealed.cdcache");
  const auto load_error = [&](const LabeledCsc& data, const ReadOptions& options) {
    write_cache(cache, data_, options, data);
    return error_message([&] { load_cache(cache, data_, options); });
  };
  const std::string bad_lines = corrupt(cache, "inconsistent line map");
  const std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>> maps[] = {
      {{1}, {1}},              // the first entry is not instance 0
      {{0}, {0}},              // line 0
      {{0, 5}, {2, 4}},        // instance 5 on a line before instance 1's
      {{0, 5}, {1, 6}},        // instance 5 on line 6: the map records no jump
      {{5, 0}, {9, 1}},        // rows out of order
      {{0, 1001}, {1, 2000}},  // past the last instance
  };
  for (const auto& [rows, lines] : maps) {
    LabeledCsc data = hand_built(0.5, 1000);
    data.lines.rows = rows;
    data.lines.lines = lines;
    EXPECT_EQ(load_error(data, options_), bad_lines) << rows.back() << " " << lines.back();
  }
  LabeledCsc jump = hand_built(0.5, 1000);
  jump.lines.rows = {0, 5};
  jump.lines.lines = {2, 9};  // two comment lines before instance 5
  write_cache(cache, data_, options_, jump);
  const std::optional<LabeledCsc> loaded = load_cache(cache, data_, options_);
  ASSERT_TRUE(loaded);
  EXPECT_EQ(loaded->lines.line_of(5), 9);

  LabeledCsc fractional = hand_built(0.5, 1000);
  fractional.labels[3] = 0.5;
  EXPECT_EQ(load_error(fractional, options_), corrupt(cache, "a label is not an integer"));
  ReadOptions real_labels = options_;
  real_labels.integer_labels = false;
  write_cache(cache, data_, real_labels, fractional);
  EXPECT_EQ(load_cache(cache, data_, real_labels)->labels[3], 0.5);
}

// A NaN that reached a cache (a checksum does not judge numbers) is kept as
// the largest |value|, and the magnitude check then makes its full pass,
// which refuses it.
TEST_F(Cache, ANaNInACacheIsLeftToTheFullMagnitudeCheck) {
  const std::string cache = dir_.file("nan.cdcache");
  write_cache(cache, data_, options_, hand_built(std::nan(""), 1000));
  const std::optional<LabeledCsc> loaded = load_cache(cache, data_, options_);
  ASSERT_TRUE(loaded);
  EXPECT_TRUE(std::isnan(loaded->largest_magnitude));
  const ClassMap classes = map_classes(loaded->labels);
  const Params params = resolve_defaults(Params{});
  try {
    check_magnitudes(loaded->features, classes, params, loaded->largest_magnitude);
    FAIL() << "no error";
  } catch (const InstanceError& e) {
    EXPECT_EQ(e.row(), 1000u);
  }
}

TEST_F(Cache, TheValuesOfALargeCacheAreMappedAndTheRowNumbersRead) {
  const std::string data = dir_.write("large.svm", large_data());
  const std::string cache = dir_.file("large.svm.cdcache");
  const LabeledCsc parsed = write_large_cache(data, cache);
  const std::string pristine = test::read_file(cache);
  const std::string mapped_file = fs::canonical(cache).string();

  std::optional<LabeledCsc> loaded = load_cache(cache, data, options_);
  ASSERT_TRUE(loaded);
  expect_same(*loaded, parsed);
  CscMatrix& m = loaded->features;
  EXPECT_EQ(file_mapped_at(m.values.data()), mapped_file);
  // The row numbers index the solvers' arrays: they are read, so that a file
  // rewritten in place under the run cannot change them after their check.
  EXPECT_NE(file_mapped_at(m.row_idx.data()), mapped_file);
  rewrite_byte(cache, kMappableAlignment + 3, static_cast<char>(0xFF));
  EXPECT_EQ(m.row_idx, parsed.features.row_idx);
  rewrite_byte(cache, kMappableAlignment + 3, pristine[kMappableAlignment + 3]);
  // Written, a page becomes the process's own copy: the file stays as it was.
  m.values[7] = 42;
  EXPECT_EQ(test::read_file(cache), pristine);
  // Moved, the Buffer keeps the pages; grown, it leaves them for the heap.
  Buffer<double> values = std::move(m.values);
  const double* const pages = values.data();
  values.push_back(1);
  EXPECT_NE(file_mapped_at(pages), mapped_file);
  EXPECT_EQ(values[7], 42);
  EXPECT_EQ(values[8], parsed.features.values[8]);
  EXPECT_EQ(values.back(), 1);
  loaded.reset();
  EXPECT_FALSE(is_mapped(mapped_file));

  // A fault in the mapped values is found as in read ones, and the failed
  // load leaves no mapping behind.
  const std::uint64_t nnz = parsed.features.nnz();
  const std::uint64_t values_at = (kMappableAlignment + 4 * nnz + kMappableAlignment - 1) /
                                  kMappableAlignment * kMappableAlignment;
  const std::uint64_t at = values_at + 8 * 1234 + 3;
  EXPECT_EQ(error_with_byte(cache, data, pristine, at, static_cast<char>(pristine[at] ^ 4)),
            corrupt(cache, "payload checksum mismatch"));
  EXPECT_FALSE(is_mapped(mapped_file));
  // So are nonzero bytes before the values.
  EXPECT_EQ(error_with_byte(cache, data, pristine, values_at - 1, 1),
            corrupt(cache, "nonzero bytes between its arrays"));
  EXPECT_FALSE(is_mapped(mapped_file));
}

TEST(FilePages, AMappedFileTruncatedUnderTheRunEndsItWithAnErrorAndNoOutput) {
  test::ScratchDir dir;
  const std::string path = dir.write("pages", std::string(std::size_t{1} << 20, '\x01'));
  const std::string model = dir.file("model");
  EXPECT_EXIT(
      {
        remove_temporary_files_on_signals("cdtrain");
        const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        void* pages = map_file_pages(fd, 0, std::size_t{1} << 20);
        if (pages == nullptr) std::_Exit(3);
        const Buffer<char> buffer = buffer_on_pages<char>(pages, std::size_t{1} << 20);
        if (buffer[12345] != 1) std::_Exit(4);
        AtomicFileWriter out(model);
        out.write("partial");
        fs::resize_file(path, 4096);
        volatile char last = buffer.back();  // SIGBUS
        static_cast<void>(last);
        std::_Exit(0);
      },
      ::testing::ExitedWithCode(1),
      "^cdtrain: error: a page of a file mapped into memory could not be read \\(a --cache "
      "file truncated while in use, or an I/O error\\); no output file was written\n$");
  EXPECT_FALSE(fs::exists(model));
  // Any other bus error keeps its default action.
  EXPECT_EXIT(
      {
        remove_temporary_files_on_signals("cdtrain");
        ::raise(SIGBUS);
      },
      ::testing::KilledBySignal(SIGBUS), "");
}

TEST_F(Cache, AFileThatIsNotACacheIsNeitherUsedNorReplaced) {
  const std::string other = dir_.write("notes.txt", "my notes\n");
  CacheUse use;
  EXPECT_EQ(error_message([&] { read_with_cache(data_, options_, other, use); }),
            other + ": not a cdlinear cache; refusing to use or replace it");
  EXPECT_EQ(test::read_file(other), "my notes\n");
}

TEST_F(Cache, ACacheThatCannotBeWrittenIsAWarning) {
  CacheUse use;
  const LabeledCsc data = read_with_cache(data_, options_, dir_.file("no/such/dir/c"), use);
  EXPECT_EQ(data.labels.size(), 270u);
  EXPECT_FALSE(use.written);
  EXPECT_NE(use.warning.find("cache not written: "), std::string::npos) << use.warning;
}

}  // namespace
}  // namespace cdl
