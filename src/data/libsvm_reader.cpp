#include "data/libsvm_reader.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <limits>

#include "data/input_file.h"
#include "data/libsvm_line.h"
#include "data/parse_number.h"
#include "util/error.h"

namespace cdl {
namespace {

constexpr std::size_t kInitialBuffer = std::size_t{1} << 20;
constexpr std::size_t kMinBuffer = 4096;

}  // namespace

LibsvmParser::LibsvmParser(const std::string& path, const ReadOptions& options)
    : in_(std::make_unique<InputStream>(path)), name_(in_->name()), options_(options) {
  // A small file gets a small buffer (it grows for long lines anyway).
  const std::uint64_t size = in_->regular() ? in_->size() : kInitialBuffer;
  buffer_.resize(static_cast<std::size_t>(std::clamp<std::uint64_t>(std::max(size, size + 1),
                                                                    kMinBuffer, kInitialBuffer)) +
                 detail::kLinePadding);
}

LibsvmParser::~LibsvmParser() = default;

void LibsvmParser::refill() {
  if (begin_ > 0) {
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  // Room for the line parser's padding after the data, which ends at a NUL
  // (the end of a last line without a newline).
  if (buffer_.size() - end_ <= detail::kLinePadding) buffer_.resize(buffer_.size() * 2);
  const std::size_t got =
      in_->read(buffer_.data() + end_, buffer_.size() - end_ - detail::kLinePadding);
  if (line_ == 0 && end_ == 0) detail::check_not_compressed(name_, options_, buffer_.data(), got);
  end_ += got;
  std::memset(buffer_.data() + end_, 0, detail::kLinePadding);
  if (got == 0) eof_ = true;
}

template <class Sink>
bool LibsvmParser::next_instance(double& label, Sink& sink) {
  for (;;) {
    const char* data = buffer_.data();
    const void* newline = std::memchr(data + begin_, '\n', end_ - begin_);
    const char* first = data + begin_;
    const char* last = nullptr;
    if (newline != nullptr) {
      last = static_cast<const char*>(newline);
      begin_ = static_cast<std::size_t>(last - data) + 1;
    } else if (eof_) {
      if (begin_ == end_) {
        if (rows_ == 0) detail::throw_no_instances(name_);
        return false;
      }
      last = data + end_;  // final line without a newline
      begin_ = end_;
    } else {
      refill();
      continue;
    }
    ++line_;
    const detail::LineContext context{name_, options_, line_, true};
    detail::DoubleSink<Sink> pairs{sink};
    if (detail::parse_libsvm_line(context, first, last, label, pairs)) {
      ++rows_;
      return true;
    }
  }
}

bool LibsvmParser::next(ParsedRow& row) {
  row.indices.clear();
  row.values.clear();
  auto append = [&row](std::uint64_t index, double value) {
    row.indices.push_back(static_cast<Index>(index - 1));
    row.values.push_back(value);
  };
  if (!next_instance(row.label, append)) return false;
  row.line = line_;
  return true;
}

std::int64_t LineMap::line_of(std::size_t row) const {
  const auto r = static_cast<std::int64_t>(row);
  const auto after = std::upper_bound(rows.begin(), rows.end(), r);
  if (after == rows.begin()) return r + 1;  // no map: a file without comments
  const auto k = static_cast<std::size_t>(after - rows.begin()) - 1;
  return lines[k] + (r - rows[k]);
}

std::uint64_t available_memory() {
  std::uint64_t limit = std::numeric_limits<std::uint64_t>::max();
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page_size > 0) {
    limit = static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size);
  }
  // A container's limit: cgroup v2, then v1 ("max" or a huge value: none).
  for (const char* file :
       {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
    std::ifstream in(file);
    std::string text;
    std::uint64_t value = 0;
    if (in >> text && parse_integer(text, value) && value > 0) limit = std::min(limit, value);
  }
  struct rlimit address_space {};
  if (getrlimit(RLIMIT_AS, &address_space) == 0 && address_space.rlim_cur != RLIM_INFINITY) {
    limit = std::min<std::uint64_t>(limit, address_space.rlim_cur);
  }
  return limit;
}

std::int64_t line_of_instance(const std::string& path, std::size_t row) {
  LibsvmParser parser(path, ReadOptions{});
  ParsedRow parsed;
  for (std::size_t r = 0; parser.next(parsed); ++r) {
    if (r == row) return parsed.line;
  }
  throw Error(path + ": has no instance " + std::to_string(row + 1));
}

LabeledCsr read_libsvm_csr(const std::string& path, const ReadOptions& options) {
  LibsvmParser parser(path, options);
  LabeledCsr out;
  CsrMatrix& m = out.features;
  auto append = [&m](std::uint64_t index, double value) {
    m.col_idx.push_back(static_cast<Index>(index - 1));
    m.values.push_back(value);
    m.num_cols = std::max<std::size_t>(m.num_cols, index);
  };
  double label = 0;
  while (parser.next_instance(label, append)) {
    if (m.num_rows == kMaxDimension) {
      throw ParseError(parser.path(), parser.lines_read(), "more than 2^31-1 instances");
    }
    out.labels.push_back(label);
    m.row_ptr.push_back(static_cast<std::int64_t>(m.values.size()));
    ++m.num_rows;
  }
  return out;
}

}  // namespace cdl
