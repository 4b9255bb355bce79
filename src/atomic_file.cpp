#include "atomic_file.h"

#include <cstdio>
#include <filesystem>
#include <random>
#include <system_error>

#include "error.h"

namespace cdl {
namespace {

constexpr std::size_t kFlushBytes = std::size_t{1} << 20;

std::string random_suffix() {
  std::random_device device;
  const auto value = (static_cast<unsigned long long>(device()) << 32) ^ device();
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, ".tmp%016llx", value);
  return buffer;
}

}  // namespace

void check_writable_path(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw IoError(path + ": is a directory");
  fs::path parent = fs::path(path).parent_path();
  if (parent.empty()) parent = ".";
  if (!fs::is_directory(parent, ec)) {
    throw IoError(path + ": cannot write: directory " + parent.string() + " does not exist");
  }
}

AtomicFileWriter::AtomicFileWriter(const std::string& path) : path_(path) {
  check_writable_path(path);
  std::error_code ec;
  // Write through a symbolic link to the file it names, as fopen would.
  if (std::filesystem::is_symlink(path, ec)) {
    const auto target = std::filesystem::weakly_canonical(path, ec);
    if (!ec) target_ = target.string();
  }
  if (target_.empty()) target_ = path;
  const auto status = std::filesystem::status(target_, ec);
  direct_ = !ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status);
  replacing_ = !ec && std::filesystem::is_regular_file(status);
  if (replacing_) permissions_ = status.permissions();
  temp_path_ = direct_ ? target_ : target_ + random_suffix();
  out_.open(temp_path_, std::ios::binary | (direct_ ? std::ios::out : std::ios::trunc));
  if (!out_) throw IoError(path + ": cannot open for writing");
}

AtomicFileWriter::~AtomicFileWriter() {
  if (!committed_ && !direct_) {
    out_.close();
    std::error_code ec;
    std::filesystem::remove(temp_path_, ec);
  }
}

void AtomicFileWriter::write(std::string_view text) {
  buffer_.append(text);
  if (buffer_.size() >= kFlushBytes) flush_buffer();
}

void AtomicFileWriter::flush_buffer() {
  out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
  buffer_.clear();
  if (!out_) throw IoError(path_ + ": write failed (disk full?)");
}

void AtomicFileWriter::commit() {
  flush_buffer();
  out_.flush();
  out_.close();
  if (!out_) throw IoError(path_ + ": write failed (disk full?)");
  committed_ = true;
  if (direct_) return;
  std::error_code ec;
  if (replacing_) std::filesystem::permissions(temp_path_, permissions_, ec);
  std::filesystem::rename(temp_path_, target_, ec);
  if (ec) {
    committed_ = false;
    throw IoError(path_ + ": cannot rename temporary file: " + ec.message());
  }
}

}  // namespace cdl
