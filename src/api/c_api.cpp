// The C interface of cdlinear_c.h over the C++ one of cdlinear.h: each
// handle holds the C++ value, each call runs inside guarded(), which turns
// every exception into a status and the thread's last-error message (kept
// here). This file has the data, training, cross validation, the search and
// the models; c_api_options.cpp the training options.
#include <mutex>
#include <optional>
#include <ostream>
#include <streambuf>
#include <string>
#include <utility>
#include <vector>

#include "api/c_api_internal.h"
#include "cdlinear.h"
#include "cdlinear_c.h"

namespace cdlinear::c_api {

namespace {

thread_local std::string last_error;
// False when the last message could not be stored (no memory for it).
thread_local bool last_error_stored = true;

}  // namespace

int fail(int status, const char* message) noexcept {
  try {
    last_error = message;
    last_error_stored = true;
  } catch (...) {
    last_error_stored = false;
  }
  return status;
}

std::vector<double> array_of(const double* first, std::size_t count, const char* call,
                             const char* name) {
  if (count == 0) return {};
  const double* start = &need(first, call, name);
  return std::vector<double>(start, start + count);
}

namespace {

// A stream buffer that hands each complete line to a cdl_progress_fn (and
// the last, unfinished one when destroyed), one call at a time.
class LineCallback : public std::streambuf {
 public:
  LineCallback(cdl_progress_fn fn, void* user) : fn_(fn), user_(user) {}
  LineCallback(const LineCallback&) = delete;
  LineCallback& operator=(const LineCallback&) = delete;
  ~LineCallback() override {
    if (!line_.empty()) fn_(line_.c_str(), user_);
  }

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    const std::lock_guard<std::mutex> lock(mutex_);
    if (traits_type::to_char_type(c) == '\n') {
      fn_(line_.c_str(), user_);
      line_.clear();
    } else {
      line_.push_back(traits_type::to_char_type(c));
    }
    return c;
  }

 private:
  cdl_progress_fn fn_;
  void* user_;
  std::mutex mutex_;
  std::string line_;
};

cdlinear::IndexType index_type(int code, const char* call, const char* name) {
  if (code == CDL_INT32) return cdlinear::IndexType::kInt32;
  if (code == CDL_INT64) return cdlinear::IndexType::kInt64;
  throw InvalidArgument(std::string(call) + ": " + name + " " + std::to_string(code) +
                        " is neither CDL_INT32 nor CDL_INT64");
}

cdlinear::ValueType value_type_of(int code, const char* call) {
  if (code == CDL_FLOAT64) return cdlinear::ValueType::kFloat64;
  if (code == CDL_FLOAT32) return cdlinear::ValueType::kFloat32;
  throw InvalidArgument(std::string(call) + ": value_type " + std::to_string(code) +
                        " is neither CDL_FLOAT64 nor CDL_FLOAT32");
}

// cdl_data_from_csr's and from_csc's arguments, as Data::from_csr and
// from_csc take them; NULL arrays that hold something are refused here
// (the C++ interface reads them).
using FromArrays = cdlinear::Data (*)(const cdlinear::SparseArrays&, std::vector<double>,
                                      std::vector<double>);
int data_from_arrays(FromArrays from, const char* call, size_t rows, size_t cols, size_t nnz,
                     const void* indptr, int indptr_type, const void* indices, int indices_type,
                     const void* values, int value_type, const double* labels, size_t num_labels,
                     const double* instance_weights, size_t num_weights, cdl_data** out) {
  return make_handle(out, call, [&] {
    cdlinear::SparseArrays x;
    x.rows = rows;
    x.cols = cols;
    x.nnz = nnz;
    x.indptr = need(indptr, call, "indptr");
    x.indptr_type = index_type(indptr_type, call, "indptr_type");
    x.indices = nnz > 0 ? need(indices, call, "indices") : indices;
    x.indices_type = index_type(indices_type, call, "indices_type");
    x.values = nnz > 0 ? need(values, call, "values") : values;
    x.value_type = value_type_of(value_type, call);
    return from(x, array_of(labels, num_labels, call, "labels"),
                array_of(instance_weights, num_weights, call, "instance_weights"));
  });
}

// Runs `body` on the C++ options of `options` (the defaults if NULL), with
// a progress stream of this call's own when a callback wants the lines, so
// that the options stay unchanged (and may serve several calls at once).
template <class Body>
auto with_options(const cdl_options* options, Body body) {
  if (options == nullptr) return body(cdlinear::TrainOptions{});
  if (options->progress == nullptr) return body(options->options);
  LineCallback lines(options->progress, options->progress_user);
  std::ostream progress(&lines);
  cdlinear::TrainOptions with_progress = options->options;
  with_progress.progress = &progress;
  return body(with_progress);
}

// Copies what `predict` gives for a model and data that are not NULL.
template <class Predict>
int predict_into(const cdl_model* model, const cdl_data* data, double* out, std::size_t capacity,
                 const char* call, Predict predict) {
  return guarded([&] {
    const cdlinear::Model& m = need(model, call, "model").model;
    copy_out(predict(m, need(data, call, "data").data), out, capacity, call);
  });
}

// A path that must not be NULL.
std::string path_of(const char* path, const char* call) { return &need(path, call, "path"); }

}  // namespace
}  // namespace cdlinear::c_api

using cdlinear::c_api::copy_out;
using cdlinear::c_api::data_from_arrays;
using cdlinear::c_api::free_handle;
using cdlinear::c_api::guarded;
using cdlinear::c_api::InvalidArgument;
using cdlinear::c_api::last_error;
using cdlinear::c_api::last_error_stored;
using cdlinear::c_api::make_handle;
using cdlinear::c_api::need;
using cdlinear::c_api::path_of;
using cdlinear::c_api::predict_into;
using cdlinear::c_api::with_options;

extern "C" {

const char* cdl_last_error(void) {
  return last_error_stored ? last_error.c_str() : "out of memory (the message was lost)";
}

int cdl_data_read(const char* path, cdl_data** out) {
  return make_handle(out, "cdl_data_read",
                     [&] { return cdlinear::Data::read(path_of(path, "cdl_data_read")); });
}

int cdl_data_free(cdl_data* data) { return free_handle(data); }

int cdl_data_from_csr(size_t rows, size_t cols, size_t nnz, const void* indptr, int indptr_type,
                      const void* indices, int indices_type, const void* values, int value_type,
                      const double* labels, size_t num_labels, const double* instance_weights,
                      size_t num_weights, cdl_data** out) {
  return data_from_arrays(cdlinear::Data::from_csr, "cdl_data_from_csr", rows, cols, nnz, indptr,
                          indptr_type, indices, indices_type, values, value_type, labels,
                          num_labels, instance_weights, num_weights, out);
}

int cdl_data_from_csc(size_t rows, size_t cols, size_t nnz, const void* indptr, int indptr_type,
                      const void* indices, int indices_type, const void* values, int value_type,
                      const double* labels, size_t num_labels, const double* instance_weights,
                      size_t num_weights, cdl_data** out) {
  return data_from_arrays(cdlinear::Data::from_csc, "cdl_data_from_csc", rows, cols, nnz, indptr,
                          indptr_type, indices, indices_type, values, value_type, labels,
                          num_labels, instance_weights, num_weights, out);
}

int cdl_data_borrowed(const cdl_data* data, int* out) {
  return guarded([&] {
    need(out, "cdl_data_borrowed", "out") =
        need(data, "cdl_data_borrowed", "data").data.borrowed() ? 1 : 0;
  });
}

int cdl_data_num_rows(const cdl_data* data, size_t* out) {
  return guarded([&] {
    need(out, "cdl_data_num_rows", "out") = need(data, "cdl_data_num_rows", "data").data.size();
  });
}

int cdl_data_num_features(const cdl_data* data, size_t* out) {
  return guarded([&] {
    need(out, "cdl_data_num_features", "out") =
        need(data, "cdl_data_num_features", "data").data.num_features();
  });
}

int cdl_data_labels(const cdl_data* data, double* out, size_t capacity) {
  return guarded([&] {
    copy_out(need(data, "cdl_data_labels", "data").data.labels(), out, capacity, "cdl_data_labels");
  });
}

int cdl_train(const cdl_data* data, const cdl_options* options, cdl_model** out) {
  return make_handle(out, "cdl_train", [&] {
    const cdlinear::Data& d = need(data, "cdl_train", "data").data;
    return with_options(options,
                        [&](const cdlinear::TrainOptions& o) { return cdlinear::train(d, o); });
  });
}

int cdl_cross_validate(const cdl_data* data, const cdl_options* options, int folds,
                       double* accuracy, double* mean_squared_error, double* squared_correlation,
                       double* predictions, size_t capacity) {
  return guarded([&] {
    const cdlinear::Data& d = need(data, "cdl_cross_validate", "data").data;
    const cdlinear::CrossValidation cv = with_options(
        options,
        [&](const cdlinear::TrainOptions& o) { return cdlinear::cross_validate(d, folds, o); });
    // The one output that can fail first, so that a failure writes nothing.
    if (predictions != nullptr)
      copy_out(cv.predictions, predictions, capacity, "cdl_cross_validate");
    if (accuracy != nullptr) *accuracy = cv.accuracy;
    if (mean_squared_error != nullptr) *mean_squared_error = cv.mean_squared_error;
    if (squared_correlation != nullptr) *squared_correlation = cv.squared_correlation;
  });
}

int cdl_search_c(const cdl_data* data, const cdl_options* options, int folds, double start_c,
                 cdl_search** out) {
  return make_handle(out, "cdl_search_c", [&] {
    const cdlinear::Data& d = need(data, "cdl_search_c", "data").data;
    const std::optional<double> start = start_c > 0 ? std::optional<double>(start_c) : std::nullopt;
    return with_options(options, [&](const cdlinear::TrainOptions& o) {
      return cdlinear::search_C(d, folds, o, start);
    });
  });
}

int cdl_search_free(cdl_search* search) { return free_handle(search); }

int cdl_search_best(const cdl_search* search, double* c, double* p, double* score) {
  return guarded([&] {
    const cdlinear::Search& s = need(search, "cdl_search_best", "search").search;
    if (c != nullptr) *c = s.best_C;
    if (p != nullptr) *p = s.best_p;
    if (score != nullptr) *score = s.best_score;
  });
}

int cdl_search_num_steps(const cdl_search* search, size_t* out) {
  return guarded([&] {
    need(out, "cdl_search_num_steps", "out") =
        need(search, "cdl_search_num_steps", "search").search.steps.size();
  });
}

int cdl_search_step(const cdl_search* search, size_t k, double* c, double* p, double* score) {
  return guarded([&] {
    const cdlinear::Search& s = need(search, "cdl_search_step", "search").search;
    if (k >= s.steps.size()) {
      throw InvalidArgument("cdl_search_step: step " + std::to_string(k) + " of a search of " +
                            std::to_string(s.steps.size()));
    }
    if (c != nullptr) *c = s.steps[k].C;
    if (p != nullptr) *p = s.steps[k].p;
    if (score != nullptr) *score = s.steps[k].score;
  });
}

int cdl_model_load(const char* path, cdl_model** out) {
  return make_handle(out, "cdl_model_load",
                     [&] { return cdlinear::Model::load(path_of(path, "cdl_model_load")); });
}

int cdl_model_save(const cdl_model* model, const char* path) {
  return guarded(
      [&] { need(model, "cdl_model_save", "model").model.save(path_of(path, "cdl_model_save")); });
}

int cdl_model_free(cdl_model* model) { return free_handle(model); }

int cdl_model_is_regression(const cdl_model* model, int* out) {
  return guarded([&] {
    need(out, "cdl_model_is_regression", "out") =
        need(model, "cdl_model_is_regression", "model").model.is_regression() ? 1 : 0;
  });
}

int cdl_model_nr_class(const cdl_model* model, size_t* out) {
  return guarded([&] {
    need(out, "cdl_model_nr_class", "out") =
        need(model, "cdl_model_nr_class", "model").model.nr_class();
  });
}

int cdl_model_num_labels(const cdl_model* model, size_t* out) {
  return guarded([&] {
    need(out, "cdl_model_num_labels", "out") =
        need(model, "cdl_model_num_labels", "model").model.labels().size();
  });
}

int cdl_model_labels(const cdl_model* model, int* out, size_t capacity) {
  return guarded([&] {
    copy_out(need(model, "cdl_model_labels", "model").model.labels(), out, capacity,
             "cdl_model_labels");
  });
}

int cdl_model_num_features(const cdl_model* model, size_t* out) {
  return guarded([&] {
    need(out, "cdl_model_num_features", "out") =
        need(model, "cdl_model_num_features", "model").model.num_features();
  });
}

int cdl_model_bias(const cdl_model* model, double* out) {
  return guarded([&] {
    need(out, "cdl_model_bias", "out") = need(model, "cdl_model_bias", "model").model.bias();
  });
}

int cdl_model_solver_type(const cdl_model* model, const char** out) {
  if (out != nullptr) *out = nullptr;
  return guarded([&] {
    need(out, "cdl_model_solver_type", "out") =
        need(model, "cdl_model_solver_type", "model").model.solver_type().c_str();
  });
}

int cdl_model_nr_w(const cdl_model* model, size_t* out) {
  return guarded([&] {
    need(out, "cdl_model_nr_w", "out") = need(model, "cdl_model_nr_w", "model").model.nr_w();
  });
}

int cdl_model_num_weights(const cdl_model* model, size_t* out) {
  return guarded([&] {
    need(out, "cdl_model_num_weights", "out") =
        need(model, "cdl_model_num_weights", "model").model.weights().size();
  });
}

int cdl_model_weights(const cdl_model* model, double* out, size_t capacity) {
  return guarded([&] {
    copy_out(need(model, "cdl_model_weights", "model").model.weights(), out, capacity,
             "cdl_model_weights");
  });
}

int cdl_model_rho(const cdl_model* model, double* out) {
  return guarded([&] {
    need(out, "cdl_model_rho", "out") = need(model, "cdl_model_rho", "model").model.rho();
  });
}

int cdl_model_num_problems(const cdl_model* model, size_t* out) {
  return guarded([&] {
    need(out, "cdl_model_num_problems", "out") =
        need(model, "cdl_model_num_problems", "model").model.iterations().size();
  });
}

int cdl_model_iterations(const cdl_model* model, int64_t* out, size_t capacity) {
  return guarded([&] {
    copy_out(need(model, "cdl_model_iterations", "model").model.iterations(), out, capacity,
             "cdl_model_iterations");
  });
}

int cdl_model_objectives(const cdl_model* model, double* out, size_t capacity) {
  return guarded([&] {
    copy_out(need(model, "cdl_model_objectives", "model").model.objectives(), out, capacity,
             "cdl_model_objectives");
  });
}

int cdl_model_has_probabilities(const cdl_model* model, int* out) {
  return guarded([&] {
    need(out, "cdl_model_has_probabilities", "out") =
        need(model, "cdl_model_has_probabilities", "model").model.has_probabilities() ? 1 : 0;
  });
}

int cdl_model_predict(const cdl_model* model, const cdl_data* data, unsigned threads, double* out,
                      size_t capacity) {
  return predict_into(
      model, data, out, capacity, "cdl_model_predict",
      [&](const cdlinear::Model& m, const cdlinear::Data& d) { return m.predict(d, threads); });
}

int cdl_model_decision_values(const cdl_model* model, const cdl_data* data, unsigned threads,
                              double* out, size_t capacity) {
  return predict_into(model, data, out, capacity, "cdl_model_decision_values",
                      [&](const cdlinear::Model& m, const cdlinear::Data& d) {
                        return m.decision_values(d, threads);
                      });
}

int cdl_model_probabilities(const cdl_model* model, const cdl_data* data, unsigned threads,
                            double* out, size_t capacity) {
  return predict_into(model, data, out, capacity, "cdl_model_probabilities",
                      [&](const cdlinear::Model& m, const cdlinear::Data& d) {
                        return m.probabilities(d, threads);
                      });
}

}  // extern "C"
