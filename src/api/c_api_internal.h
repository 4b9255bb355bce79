// What the files of the C interface (c_api.cpp, c_api_options.cpp) share:
// the handles' contents, and the wrapping of each call in guarded(), which
// turns every exception into a status and the thread's last-error message.
// The library's own: nothing else includes it.
#ifndef CDL_API_C_API_INTERNAL_H_
#define CDL_API_C_API_INTERNAL_H_

#include <atomic>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "cdlinear.h"
#include "cdlinear_c.h"

struct cdl_data {
  cdlinear::Data data;
};

struct cdl_model {
  cdlinear::Model model;
};

struct cdl_options {
  cdlinear::TrainOptions options;      // its cancel points to `cancel`
  cdl_progress_fn progress = nullptr;  // with progress_user
  void* progress_user = nullptr;
  std::atomic<bool> cancel{false};
};

struct cdl_search {
  cdlinear::Search search;
};

namespace cdlinear::c_api {

// A caller's mistake that the C++ interface cannot see: a NULL handle or
// pointer, a buffer too small.
class InvalidArgument : public std::exception {
 public:
  explicit InvalidArgument(std::string message) : message_(std::move(message)) {}
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  std::string message_;
};

// Stores `message` as the calling thread's cdl_last_error() and gives
// `status`.
int fail(int status, const char* message) noexcept;

// Runs `body`; every exception becomes its status and message.
template <class Body>
int guarded(Body body) noexcept {
  try {
    body();
    return CDL_OK;
  } catch (const InvalidArgument& e) {
    return fail(CDL_ERR_INVALID_ARGUMENT, e.what());
  } catch (const cdlinear::ParseError& e) {
    return fail(CDL_ERR_DATA, e.what());
  } catch (const cdlinear::ArrayError& e) {
    return fail(CDL_ERR_DATA, e.what());
  } catch (const cdlinear::DataError& e) {
    return fail(CDL_ERR_DATA, e.what());
  } catch (const cdlinear::ConfigError& e) {
    return fail(CDL_ERR_CONFIG, e.what());
  } catch (const cdlinear::IoError& e) {
    return fail(CDL_ERR_IO, e.what());
  } catch (const cdlinear::Cancelled& e) {
    return fail(CDL_ERR_CANCELLED, e.what());
  } catch (const std::bad_alloc&) {
    return fail(CDL_ERR_NO_MEMORY, "out of memory");
  } catch (const std::exception& e) {
    return fail(CDL_ERR_OTHER, e.what());
  } catch (...) {
    return fail(CDL_ERR_OTHER, "unknown error");
  }
}

// Throws InvalidArgument "call: name is NULL" for a null pointer.
inline const void* need(const void* pointer, const char* call, const char* name) {
  if (pointer == nullptr) throw InvalidArgument(std::string(call) + ": " + name + " is NULL");
  return pointer;
}

template <class T>
T& need(T* pointer, const char* call, const char* name) {
  need(static_cast<const void*>(pointer), call, name);
  return *pointer;
}

// Copies `values` into the caller's buffer of `capacity` elements.
template <class T>
void copy_out(const std::vector<T>& values, T* out, std::size_t capacity, const char* call) {
  if (values.empty()) return;
  need(out, call, "out");
  if (capacity < values.size()) {
    throw InvalidArgument(std::string(call) + ": the buffer holds " + std::to_string(capacity) +
                          " values, " + std::to_string(values.size()) + " needed");
  }
  std::memcpy(out, values.data(), values.size() * sizeof(T));
}

// Makes a handle for `value` into *out (NULL first, so that a failure leaves
// NULL there).
template <class Handle, class Make>
int make_handle(Handle** out, const char* call, Make make) {
  if (out != nullptr) *out = nullptr;
  return guarded([&] {
    Handle** target = &need(out, call, "out");
    *target = new Handle{make()};
  });
}

template <class Handle>
int free_handle(Handle* handle) {
  delete handle;
  return CDL_OK;
}

// Runs `set` on the options of a non-NULL handle.
template <class Set>
int set_option(cdl_options* options, const char* call, Set set) {
  return guarded([&] { set(need(options, call, "options").options); });
}

inline std::string text_or_empty(const char* text) { return text != nullptr ? text : ""; }

// The `count` values at `first` (NULL only when count is 0).
std::vector<double> array_of(const double* first, std::size_t count, const char* call,
                             const char* name);

}  // namespace cdlinear::c_api

#endif  // CDL_API_C_API_INTERNAL_H_
