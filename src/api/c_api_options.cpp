// The training options of the C interface: cdl_options_create, its
// setters, and the cancel flag.
#include <string>

#include "api/c_api_internal.h"
#include "cdlinear.h"
#include "cdlinear_c.h"

using cdlinear::c_api::array_of;
using cdlinear::c_api::fail;
using cdlinear::c_api::free_handle;
using cdlinear::c_api::guarded;
using cdlinear::c_api::need;
using cdlinear::c_api::set_option;
using cdlinear::c_api::text_or_empty;

extern "C" {

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

}  // extern "C"
