// The C interface of cdlinear_c.h over the C++ one of cdlinear.h: each
// handle holds the C++ value, each call runs inside guarded(), which turns
// every exception into a status and the thread's last-error message.
#include <atomic>
#include <cstring>
#include <exception>
#include <mutex>
#include <new>
#include <optional>
#include <ostream>
#include <streambuf>
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

namespace {

// A caller's mistake that the C++ interface cannot see: a NULL handle or
// pointer, a buffer too small.
class InvalidArgument : public std::exception {
 public:
  explicit InvalidArgument(std::string message) : message_(std::move(message)) {}
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  std::string message_;
};

thread_local std::string last_error;
// False when the last message could not be stored (no memory for it).
thread_local bool last_error_stored = true;

int fail(int status, const char* message) noexcept {
  try {
    last_error = message;
    last_error_stored = true;
  } catch (...) {
    last_error_stored = false;
  }
  return status;
}

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
const void* need(const void* pointer, const char* call, const char* name) {
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

std::string text_or_empty(const char* text) { return text != nullptr ? text : ""; }

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

// The `count` values at `first` (NULL only when count is 0).
std::vector<double> array_of(const double* first, std::size_t count, const char* call,
                             const char* name) {
  if (count == 0) return {};
  const double* start = &need(first, call, name);
  return std::vector<double>(start, start + count);
}

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

int cdl_options_create(cdl_options** out) {
  if (out != nullptr) *out = nullptr;
  return guarded([&] {
    cdl_options** target = &need(out, "cdl_options_create", "out");
    auto* options = new cdl_options;
    options->options.cancel = &options->cancel;
    *target = options;
  });
}

int cdl_options_free(cdl_options* options) { return free_handle(options); }

int cdl_options_set_solver(cdl_options* options, const char* solver) {
  return set_option(options, "cdl_options_set_solver",
                    [&](cdlinear::TrainOptions& o) { o.solver = text_or_empty(solver); });
}

int cdl_options_set_loss(cdl_options* options, const char* loss) {
  return set_option(options, "cdl_options_set_loss",
                    [&](cdlinear::TrainOptions& o) { o.loss = text_or_empty(loss); });
}

int cdl_options_set_regularizer(cdl_options* options, const char* regularizer) {
  return set_option(options, "cdl_options_set_regularizer",
                    [&](cdlinear::TrainOptions& o) { o.regularizer = text_or_empty(regularizer); });
}

int cdl_options_set_c(cdl_options* options, double c) {
  return set_option(options, "cdl_options_set_c", [&](cdlinear::TrainOptions& o) { o.C = c; });
}

int cdl_options_set_eps(cdl_options* options, double eps) {
  return set_option(options, "cdl_options_set_eps",
                    [&](cdlinear::TrainOptions& o) { o.eps = eps; });
}

int cdl_options_set_bias(cdl_options* options, double bias) {
  return set_option(options, "cdl_options_set_bias",
                    [&](cdlinear::TrainOptions& o) { o.bias = bias; });
}

int cdl_options_set_class_weight(cdl_options* options, int label, double weight) {
  return set_option(options, "cdl_options_set_class_weight",
                    [&](cdlinear::TrainOptions& o) { o.class_weights[label] = weight; });
}

int cdl_options_set_instance_weights(cdl_options* options, const double* weights, size_t count) {
  return set_option(options, "cdl_options_set_instance_weights", [&](cdlinear::TrainOptions& o) {
    o.instance_weights = array_of(weights, count, "cdl_options_set_instance_weights", "weights");
  });
}

int cdl_options_set_threads(cdl_options* options, unsigned threads) {
  return set_option(options, "cdl_options_set_threads",
                    [&](cdlinear::TrainOptions& o) { o.threads = threads; });
}

int cdl_options_set_seed(cdl_options* options, uint64_t seed) {
  return set_option(options, "cdl_options_set_seed",
                    [&](cdlinear::TrainOptions& o) { o.seed = seed; });
}

int cdl_options_set_max_iter(cdl_options* options, int64_t max_iter) {
  return set_option(options, "cdl_options_set_max_iter",
                    [&](cdlinear::TrainOptions& o) { o.max_iter = max_iter; });
}

int cdl_options_set_svr_epsilon(cdl_options* options, double p) {
  return set_option(options, "cdl_options_set_svr_epsilon",
                    [&](cdlinear::TrainOptions& o) { o.svr_epsilon = p; });
}

int cdl_options_set_nu(cdl_options* options, double nu) {
  return set_option(options, "cdl_options_set_nu", [&](cdlinear::TrainOptions& o) { o.nu = nu; });
}

int cdl_options_set_free_bias(cdl_options* options, int free_bias) {
  return set_option(options, "cdl_options_set_free_bias",
                    [&](cdlinear::TrainOptions& o) { o.free_bias = free_bias != 0; });
}

int cdl_options_set_select(cdl_options* options, const char* rule) {
  return set_option(options, "cdl_options_set_select",
                    [&](cdlinear::TrainOptions& o) { o.select = text_or_empty(rule); });
}

int cdl_options_set_partitions(cdl_options* options, int64_t partitions) {
  return set_option(options, "cdl_options_set_partitions",
                    [&](cdlinear::TrainOptions& o) { o.partitions = partitions; });
}

int cdl_options_set_fixed_parts(cdl_options* options, int fixed_parts) {
  return set_option(options, "cdl_options_set_fixed_parts",
                    [&](cdlinear::TrainOptions& o) { o.fixed_parts = fixed_parts != 0; });
}

int cdl_options_set_shrink(cdl_options* options, int shrink) {
  return set_option(options, "cdl_options_set_shrink",
                    [&](cdlinear::TrainOptions& o) { o.shrink = shrink != 0; });
}

int cdl_options_set_exact_gaps(cdl_options* options, int exact_gaps) {
  return set_option(options, "cdl_options_set_exact_gaps",
                    [&](cdlinear::TrainOptions& o) { o.exact_gaps = exact_gaps != 0; });
}

int cdl_options_set_gap_tol(cdl_options* options, double gap_tol) {
  return set_option(options, "cdl_options_set_gap_tol",
                    [&](cdlinear::TrainOptions& o) { o.gap_tol = gap_tol; });
}

int cdl_options_set_sigma(cdl_options* options, double sigma) {
  return set_option(options, "cdl_options_set_sigma",
                    [&](cdlinear::TrainOptions& o) { o.sigma = sigma; });
}

int cdl_options_set_beta(cdl_options* options, double beta) {
  return set_option(options, "cdl_options_set_beta",
                    [&](cdlinear::TrainOptions& o) { o.beta = beta; });
}

int cdl_options_set_pd_sigma(cdl_options* options, double pd_sigma) {
  return set_option(options, "cdl_options_set_pd_sigma",
                    [&](cdlinear::TrainOptions& o) { o.pd_sigma = pd_sigma; });
}

int cdl_options_set_tau_factor(cdl_options* options, double tau_factor) {
  return set_option(options, "cdl_options_set_tau_factor",
                    [&](cdlinear::TrainOptions& o) { o.tau_factor = tau_factor; });
}

int cdl_options_set_pegasos_batch(cdl_options* options, int64_t batch) {
  return set_option(options, "cdl_options_set_pegasos_batch",
                    [&](cdlinear::TrainOptions& o) { o.pegasos_batch = batch; });
}

int cdl_options_set_stratified(cdl_options* options, int stratified) {
  return set_option(options, "cdl_options_set_stratified",
                    [&](cdlinear::TrainOptions& o) { o.stratified = stratified != 0; });
}

int cdl_options_set_initial_model(cdl_options* options, const cdl_model* model) {
  return set_option(options, "cdl_options_set_initial_model", [&](cdlinear::TrainOptions& o) {
    o.initial_model = model != nullptr ? &model->model : nullptr;
  });
}

int cdl_options_set_progress(cdl_options* options, cdl_progress_fn fn, void* user) {
  return guarded([&] {
    cdl_options& o = need(options, "cdl_options_set_progress", "options");
    o.progress = fn;
    o.progress_user = user;
  });
}

int cdl_options_set_iteration_callback(cdl_options* options, cdl_iteration_fn fn, void* user) {
  return set_option(options, "cdl_options_set_iteration_callback", [&](cdlinear::TrainOptions& o) {
    o.on_iteration = nullptr;
    if (fn == nullptr) return;
    o.on_iteration = [fn, user](const cdlinear::IterationProgress& p) {
      return fn(p.problem, p.iteration, p.objective, p.grad_norm, p.seconds, user) == 0;
    };
  });
}

int cdl_options_cancel(cdl_options* options) {
  if (options == nullptr)
    return fail(CDL_ERR_INVALID_ARGUMENT, "cdl_options_cancel: options is NULL");
  options->cancel.store(true);
  return CDL_OK;
}

int cdl_options_reset_cancel(cdl_options* options) {
  return guarded([&] { need(options, "cdl_options_reset_cancel", "options").cancel.store(false); });
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
