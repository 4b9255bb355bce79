// Error types thrown by the core library.
//
// The library never prints or exits; it throws one of these and the tools map
// them to messages and exit codes (1 for data, model and I/O errors, 2 for
// usage errors). ParseError carries the path and line so that every message
// about user data reads "path:line: reason".
#ifndef CDL_ERROR_H_
#define CDL_ERROR_H_

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

namespace cdl {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A malformed data or model file: the message is "path:line: reason".
class ParseError : public Error {
 public:
  ParseError(const std::string& path, std::int64_t line, const std::string& reason)
      : Error(path + ":" + std::to_string(line) + ": " + reason),
        path_(path),
        line_(line),
        reason_(reason) {}
  const std::string& path() const { return path_; }
  std::int64_t line() const { return line_; }
  const std::string& reason() const { return reason_; }

 private:
  std::string path_;
  std::int64_t line_;
  std::string reason_;
};

// Data that parse but cannot be trained on, found in one instance (0-based
// row of the matrix). The tools map the row to its line in the file and
// report "path:line: reason".
class InstanceError : public Error {
 public:
  InstanceError(std::size_t row, const std::string& reason)
      : Error("instance " + std::to_string(row + 1) + ": " + reason), row_(row), reason_(reason) {}
  std::size_t row() const { return row_; }
  const std::string& reason() const { return reason_; }

 private:
  std::size_t row_;
  std::string reason_;
};

// Data that cannot be used as a whole, with no one line to name (an empty or
// compressed file, a corrupt cache): the message is "path: reason". The
// tools exit with status 1, as for a ParseError.
class DataError : public Error {
 public:
  using Error::Error;
};

// A bad option or option combination: the tools exit with status 2.
class ConfigError : public Error {
 public:
  using Error::Error;
};

// A file that cannot be opened, read or written.
class IoError : public Error {
 public:
  using Error::Error;
};

// ": <the system's reason>" for the last failed system call (errno), or ""
// if it set none; appended to IoError messages. Clear errno before the call.
inline std::string system_reason() {
  return errno != 0 ? std::string(": ") + std::strerror(errno) : std::string();
}

}  // namespace cdl

#endif  // CDL_ERROR_H_
