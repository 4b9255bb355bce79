// libFuzzer target: the binary cache (data/cache.h), a file format read from
// disk. The first byte picks the read options (integer labels, a bias
// column) and one of three ways to make the cache file:
//   raw:     the rest of the input is the cache file, beside a fixed text;
//   patched: the rest is [2-byte length][text][patches]: the cache is written
//            from the text by write_cache, then each 5-byte patch (a 4-byte
//            offset, a byte to XOR there) changes it, and a patch with the
//            top bit of its offset set cuts the file there instead;
//   sealed:  the rest is [2-byte length][text][arrays]: a matrix, labels
//            and line map decoded from the input, whatever their shape, are
//            written by write_cache with valid checksums, as a tool fault
//            could write them.
// The text gets a fixed modification time, so that a seed cache stays
// current. What must hold:
//   - read_with_cache either returns exactly what read_libsvm_csc makes of
//     the text (loaded or rebuilt), or throws an Error that names the cache;
//     a cache it refused is left as it was (never replaced), and a cache it
//     rebuilt then loads as that same data;
//   - a sealed cache either loads as exactly what was sealed, in a shape the
//     solvers can walk (column offsets from 0 to nnz, row numbers below the
//     rows, finite labels, integers where asked, a line map that increases),
//     or throws an Error that names the cache.
#include <fcntl.h>
#include <sys/stat.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "data/cache.h"
#include "data/libsvm_reader.h"
#include "fuzz_util.h"
#include "util/error.h"

namespace {

using cdl::fuzz::fail;

// Reads the fuzzer's bytes front to back; past the end, everything is 0.
class Bytes {
 public:
  Bytes(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  std::uint64_t take(std::size_t count) {
    std::uint64_t value = 0;
    for (std::size_t k = 0; k < count; ++k) {
      value |= std::uint64_t{at_ < size_ ? data_[at_] : std::uint8_t{0}} << (8 * k);
      if (at_ < size_) ++at_;
    }
    return value;
  }
  std::string take_string(std::size_t count) {
    count = std::min(count, size_ - at_);
    std::string out(reinterpret_cast<const char*>(data_ + at_), count);
    at_ += count;
    return out;
  }
  bool done() const { return at_ >= size_; }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t at_ = 0;
};

// The text and its cache, in this process's scratch folder; the text's
// modification time is fixed, so that a cache made in an earlier run (a seed)
// is still current.
class Files {
 public:
  explicit Files(const std::string& text)
      : text_(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()) {
    cache_ = text_.path() + ".cdcache";
    const struct timespec times[2] = {{1000000000, 0}, {1000000000, 0}};
    if (::utimensat(AT_FDCWD, text_.path().c_str(), times, 0) != 0) fail("cannot set mtime");
  }
  ~Files() { std::remove(cache_.c_str()); }
  Files(const Files&) = delete;
  Files& operator=(const Files&) = delete;

  const std::string& text() const { return text_.path(); }
  const std::string& cache() const { return cache_; }

  void write_cache_bytes(const std::string& bytes) const {
    std::ofstream out(cache_, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) fail("cannot write the cache");
  }
  std::string cache_bytes() const {
    std::ifstream in(cache_, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }

 private:
  cdl::fuzz::ScratchFile text_;
  std::string cache_;
};

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

template <class Doubles>
bool same_doubles(const Doubles& a, const Doubles& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t k = 0; k < a.size(); ++k) {
    if (!same_bits(a[k], b[k])) return false;
  }
  return true;
}

void check_same(const cdl::LabeledCsc& expected, const cdl::LabeledCsc& actual, const char* what) {
  const cdl::CscMatrix& e = expected.features;
  const cdl::CscMatrix& a = actual.features;
  const bool same =
      e.num_rows == a.num_rows && e.num_cols == a.num_cols && e.col_ptr == a.col_ptr &&
      e.row_idx == a.row_idx && same_doubles(e.values, a.values) &&
      same_doubles(expected.labels, actual.labels) && expected.lines.rows == actual.lines.rows &&
      expected.lines.lines == actual.lines.lines &&
      same_bits(expected.largest_magnitude, actual.largest_magnitude);
  if (!same) fail(std::string(what) + ": the data differ");
}

// What the solvers and the messages rely on of loaded data.
void check_walkable(const cdl::LabeledCsc& data, const cdl::ReadOptions& options) {
  const cdl::CscMatrix& m = data.features;
  if (m.col_ptr.size() != m.num_cols + 1 || m.col_ptr[0] != 0 ||
      m.col_ptr[m.num_cols] != static_cast<std::int64_t>(m.row_idx.size()) ||
      m.values.size() != m.row_idx.size() || data.labels.size() != m.num_rows) {
    fail("loaded arrays of the wrong sizes");
  }
  for (std::size_t c = 0; c < m.num_cols; ++c) {
    if (m.col_ptr[c] > m.col_ptr[c + 1]) fail("loaded column offsets decrease");
  }
  for (cdl::Index row : m.row_idx) {
    if (row >= m.num_rows) fail("loaded row number out of range");
  }
  for (double label : data.labels) {
    if (!std::isfinite(label)) fail("loaded label not finite");
    if (options.integer_labels && label != std::floor(label)) fail("loaded label not an integer");
  }
  const cdl::LineMap& lines = data.lines;
  if (lines.rows.size() != lines.lines.size()) fail("loaded line map of two lengths");
  for (std::size_t k = 0; k < lines.rows.size(); ++k) {
    const bool first = k == 0;
    if ((first && lines.rows[0] != 0) || (!first && lines.rows[k] <= lines.rows[k - 1]) ||
        lines.rows[k] >= static_cast<std::int64_t>(m.num_rows)) {
      fail("loaded line map rows out of order");
    }
    if (lines.lines[k] < 1 ||
        (!first && (lines.lines[k] <= lines.lines[k - 1] ||
                    lines.lines[k] - lines.lines[k - 1] <= lines.rows[k] - lines.rows[k - 1]))) {
      fail("loaded line map lines out of order");
    }
  }
}

// An error about the cache must name it.
void check_names_cache(const cdl::Error& e, const Files& files) {
  if (std::string(e.what()).rfind(files.cache() + ": ", 0) != 0) {
    fail(std::string("an error that does not name the cache: ") + e.what());
  }
}

// read_with_cache on whatever the cache file holds now.
void read_through(const Files& files, const cdl::ReadOptions& options) {
  cdl::LabeledCsc expected;
  try {
    expected = cdl::read_libsvm_csc(files.text(), options);
  } catch (const cdl::Error&) {
    return;  // a text the reader refuses: fuzz_reader's business
  }
  const std::string before = files.cache_bytes();
  cdl::CacheUse use;
  cdl::LabeledCsc got;
  try {
    got = cdl::read_with_cache(files.text(), options, files.cache(), use);
  } catch (const cdl::Error& e) {
    check_names_cache(e, files);
    if (files.cache_bytes() != before) fail("a refused cache was changed");
    return;
  }
  check_same(expected, got, use.loaded ? "loaded" : "rebuilt");
  if (!use.written) return;
  const std::optional<cdl::LabeledCsc> again =
      cdl::load_cache(files.cache(), files.text(), options);
  if (!again) fail("a rebuilt cache is stale");
  check_same(expected, *again, "reloaded");
}

// Arrays of any shape (small), decoded from the input.
cdl::LabeledCsc decode_arrays(Bytes& in) {
  cdl::LabeledCsc data;
  cdl::CscMatrix& m = data.features;
  m.num_rows = 1 + in.take(1) % 16;
  m.num_cols = in.take(1) % 16;
  const std::uint64_t shape = in.take(1);  // which arrays get arbitrary contents
  std::int64_t nnz = 0;
  m.col_ptr.assign(1, 0);
  for (std::size_t c = 0; c < m.num_cols; ++c) {
    nnz += static_cast<std::int64_t>(in.take(1) % 8);
    m.col_ptr.push_back(nnz);
  }
  if (shape & 1) m.col_ptr[in.take(1) % m.col_ptr.size()] = static_cast<std::int64_t>(in.take(8));
  for (std::int64_t k = 0; k < nnz; ++k) {
    m.row_idx.push_back(
        static_cast<cdl::Index>((shape & 2) ? in.take(4) : in.take(1) % m.num_rows));
    double value = 0;
    const std::uint64_t bits = in.take(8);
    std::memcpy(&value, &bits, sizeof value);
    m.values.push_back(value);
  }
  for (std::size_t j = 0; j < m.num_rows; ++j) {
    if (shape & 4) {
      double label = 0;
      const std::uint64_t bits = in.take(8);
      std::memcpy(&label, &bits, sizeof label);
      data.labels.push_back(label);
    } else {
      data.labels.push_back(static_cast<double>(in.take(1) % 3) - 1.0);
    }
  }
  const std::size_t entries = in.take(1) % 4;
  for (std::size_t k = 0; k < entries && k < m.num_rows; ++k) {
    data.lines.rows.push_back(static_cast<std::int64_t>((shape & 8) ? in.take(8) : k));
    data.lines.lines.push_back(static_cast<std::int64_t>((shape & 8) ? in.take(8) : 2 * k + 1));
  }
  return data;
}

void sealed(const Files& files, const cdl::ReadOptions& options, Bytes& in) {
  const cdl::LabeledCsc data = decode_arrays(in);
  cdl::write_cache(files.cache(), files.text(), options, data);
  std::optional<cdl::LabeledCsc> loaded;
  try {
    loaded = cdl::load_cache(files.cache(), files.text(), options);
  } catch (const cdl::Error& e) {
    check_names_cache(e, files);
    return;
  }
  if (!loaded) fail("a cache just written is stale");
  check_walkable(*loaded, options);
  cdl::LabeledCsc expected = data;
  expected.largest_magnitude = loaded->largest_magnitude;  // found while loading
  check_same(expected, *loaded, "sealed");
  for (std::size_t j = 0; j < loaded->features.num_rows; ++j) loaded->lines.line_of(j);
}

void patched(const Files& files, const cdl::ReadOptions& options, Bytes& in) {
  cdl::LabeledCsc data;
  try {
    data = cdl::read_libsvm_csc(files.text(), options);
  } catch (const cdl::Error&) {
    return;
  }
  cdl::write_cache(files.cache(), files.text(), options, data);
  std::string bytes = files.cache_bytes();
  while (!in.done() && !bytes.empty()) {
    const std::uint64_t offset = in.take(4);
    const auto value = static_cast<char>(in.take(1));
    const std::size_t at = static_cast<std::size_t>(offset & 0x7fffffff) % bytes.size();
    if (offset & 0x80000000) {
      bytes.resize(at);
    } else {
      bytes[at] = static_cast<char>(bytes[at] ^ value);
    }
  }
  files.write_cache_bytes(bytes);
  read_through(files, options);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t choice = data[0];
  Bytes in(data + 1, size - 1);
  cdl::ReadOptions options;
  options.threads = 1;
  options.column_memory_limit = cdl::fuzz::kColumnMemoryLimit;
  options.integer_labels = (choice & 4) != 0;
  options.bias = (choice & 8) != 0 ? 1.0 : -1.0;
  try {
    switch (choice % 3) {
      case 0: {
        const Files files("+1 1:0.5 3:1\n# a comment\n-1 2:0.25\n");
        files.write_cache_bytes(in.take_string(size));
        read_through(files, options);
        break;
      }
      case 1: {
        const Files files(in.take_string(in.take(2)));
        patched(files, options, in);
        break;
      }
      default: {
        const Files files(in.take_string(in.take(2)));
        sealed(files, options, in);
        break;
      }
    }
  } catch (const cdl::Error& e) {
    fail(std::string("an error outside the cache's checks: ") + e.what());
  }
  return 0;
}
