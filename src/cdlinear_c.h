/* cdlinear's C interface: the library of cdlinear.h behind opaque handles,
 * for C programs and for any language's foreign-function interface (ctypes,
 * cffi, R's .Call, Julia's ccall, Rust, Go). It includes only <stddef.h> and
 * <stdint.h>, compiles as C89, C99 and C++, and is the only part of
 * libcdlinear.so that the shared library exports:
 *
 *   cc prog.c $(pkg-config --cflags --libs cdlinear)
 *
 * Models are cdtrain's: cdl_train() with the options of a cdtrain run writes,
 * through cdl_model_save(), the model file that run writes, byte for byte.
 *
 * Status. Every call returns an int: CDL_OK (0), or one of the codes below.
 * The message of the last call that failed on the calling thread is
 * cdl_last_error(); a call that succeeds leaves it as it was. A call that
 * fails sets its output handle (if any) to NULL and writes nothing else: no
 * partial output array, no partial file. No C++ exception leaves a call.
 *
 * Handles. cdl_data, cdl_model, cdl_options and cdl_search are opaque; each
 * is made by a call that gives it through an out-parameter and released by
 * its _free call (which takes NULL as a no-op, as free() does). A NULL
 * handle or a NULL out-pointer where one is needed is
 * CDL_ERR_INVALID_ARGUMENT, not a crash.
 * Data and models never change once made, so several threads may read one
 * handle at once (predict with one model, train several models on one data
 * set). Undefined, and forbidden: using a handle after its _free call;
 * freeing a handle, or changing an options handle, while another thread is
 * still in a call that uses it (a cdl_train() on that data or with those
 * options, say; cdl_options_cancel is the one exception); freeing a handle
 * twice. A pointer that a call gives into a handle (a solver_type string)
 * lives as long as the handle.
 *
 * Options. Training options are an opaque cdl_options handle with one setter
 * per option rather than a struct with a size or version field: a language
 * binding declares no struct layout (ctypes and cffi would have to repeat
 * it), and a new option is a new function that old programs never see.
 * The values are checked when training, with cdtrain's messages. A NULL
 * options handle means every default, which are cdtrain's.
 *
 * Arrays. A call that gives an array copies it into the caller's buffer of
 * `capacity` elements; a buffer too small is CDL_ERR_INVALID_ARGUMENT, and
 * the size a call needs is given by the matching count call (cdl_data_num_rows,
 * cdl_model_num_labels, ...). Feature i (1-based, as in the data and model
 * files) is column i - 1 (0-based) of the arrays cdl_data_from_csr takes.
 */
#ifndef CDLINEAR_C_H_
#define CDLINEAR_C_H_

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__) && !defined(_WIN32)
#define CDL_API __attribute__((visibility("default")))
#else
#define CDL_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The statuses every call returns. */
enum cdl_status {
  CDL_OK = 0,
  /* A NULL handle or pointer, a buffer too small, an argument out of range. */
  CDL_ERR_INVALID_ARGUMENT = 1,
  /* Malformed data or model ("path:line: reason"), arrays that do not make
   * a data set ("CSR row 3, entry 2: ..."), or data that cannot be trained
   * on (a label that is not an integer, a value too large). */
  CDL_ERR_DATA = 2,
  /* Options that cannot be trained with: an unknown solver, a loss the
   * solver lacks, C <= 0, ... (cdtrain's usage errors). */
  CDL_ERR_CONFIG = 3,
  /* A file that cannot be opened, read or written. */
  CDL_ERR_IO = 4,
  /* Out of memory. */
  CDL_ERR_NO_MEMORY = 5,
  /* Training stopped by cdl_options_cancel or the iteration callback. */
  CDL_ERR_CANCELLED = 6,
  /* Any other failure of the library; the message tells what. */
  CDL_ERR_OTHER = 7
};

typedef struct cdl_data cdl_data;
typedef struct cdl_model cdl_model;
typedef struct cdl_options cdl_options;
typedef struct cdl_search cdl_search;

/* The message of the last call that failed on this thread ("" if none). The
 * text stays valid until the next failing call on this thread. */
CDL_API const char* cdl_last_error(void);

/* ---- Data ---- */

/* Reads a LIBSVM-format file ("-": standard input) with cdtrain's strict
 * reader. CDL_ERR_DATA "path:line: reason" for a malformed line or a file
 * with no instance, CDL_ERR_IO for a file that cannot be read. */
CDL_API int cdl_data_read(const char* path, cdl_data** out);
CDL_API int cdl_data_free(cdl_data* data);

/* The element types of the arrays below. */
enum cdl_index_type { CDL_INT32 = 0, CDL_INT64 = 1 };
enum cdl_value_type { CDL_FLOAT64 = 0, CDL_FLOAT32 = 1 };

/* Data from a compressed sparse matrix in the caller's memory, as
 * scipy.sparse's csr_matrix and csc_matrix hold it. By rows (CSR): row r's
 * nonzeros are entries indptr[r] to indptr[r + 1] - 1 of `indices` (their
 * 0-based columns) and `values`, so indptr holds rows + 1 offsets; by
 * columns (CSC) the same with rows and columns swapped. indptr_type and
 * indices_type are cdl_index_type codes, value_type a cdl_value_type code.
 * Instance j is row j; its label (or regression target) is labels[j], and
 * its weight instance_weights[j], multiplying its C (num_weights 0 and
 * instance_weights NULL: every weight 1). Feature i of a model trained on it
 * is column i - 1.
 *
 * Everything is checked before anything is kept, and a fault is
 * CDL_ERR_DATA naming the row (CSC: the column) and the entry: indptr not
 * starting at 0, decreasing or not ending at nnz; an index negative, not
 * below the other dimension, or not greater than the previous one of its
 * row (column); a NaN or infinite value; num_labels or num_weights not
 * rows; a label not finite; a weight negative or not finite.
 *
 * Float64 values with CDL_INT32 indices are the layout of the library's
 * matrices, which then use `indices` and `values` in place, with no copy:
 * the caller keeps those two arrays alive and unchanged until the data
 * handle is freed (cdl_data_borrowed tells). The library never writes to
 * them, and a model trained on the data does not need them. indptr,
 * labels and weights are copied, and so are indices and values of any
 * other layout (converted once, on every core when they are large): the
 * caller may free those when the call returns. */
CDL_API int cdl_data_from_csr(size_t rows, size_t cols, size_t nnz, const void* indptr,
                              int indptr_type, const void* indices, int indices_type,
                              const void* values, int value_type, const double* labels,
                              size_t num_labels, const double* instance_weights, size_t num_weights,
                              cdl_data** out);
CDL_API int cdl_data_from_csc(size_t rows, size_t cols, size_t nnz, const void* indptr,
                              int indptr_type, const void* indices, int indices_type,
                              const void* values, int value_type, const double* labels,
                              size_t num_labels, const double* instance_weights, size_t num_weights,
                              cdl_data** out);

/* *out = 1 if the data uses the caller's indices and values in place
 * (cdl_data_from_csr or cdl_data_from_csc of float64 values and int32
 * indices), 0 if it holds copies of its own. */
CDL_API int cdl_data_borrowed(const cdl_data* data, int* out);

/* The number of instances, and the largest feature index. */
CDL_API int cdl_data_num_rows(const cdl_data* data, size_t* out);
CDL_API int cdl_data_num_features(const cdl_data* data, size_t* out);
/* The label (or regression target) of each instance: num_rows values. */
CDL_API int cdl_data_labels(const cdl_data* data, double* out, size_t capacity);

/* ---- Training options ---- */

/* A new options handle holding cdtrain's defaults. */
CDL_API int cdl_options_create(cdl_options** out);
CDL_API int cdl_options_free(cdl_options* options);

/* -s: a solver's name ("cdper", "cd", "tron", "dcd", ...) or LIBLINEAR's
 * number as text ("2"), which picks that problem's solver, loss and
 * regularizer. NULL or "": the default, chosen by the data's shape. */
CDL_API int cdl_options_set_solver(cdl_options* options, const char* solver);
/* -l: "l2svm", "l1svm", "lr", or "sq", "svr2", "svr1" for a regression.
 * NULL or "": the solver's default. */
CDL_API int cdl_options_set_loss(cdl_options* options, const char* loss);
/* -r: "l2" or "l1". NULL or "": l2 (or the number's regularizer). */
CDL_API int cdl_options_set_regularizer(cdl_options* options, const char* regularizer);
/* -c: the cost C, > 0 (checked by cdl_train). */
CDL_API int cdl_options_set_c(cdl_options* options, double c);
/* -e: the stopping tolerance; the solver's default until set. */
CDL_API int cdl_options_set_eps(cdl_options* options, double eps);
/* -B: >= 0 appends a constant feature of this value; < 0 none (default -1). */
CDL_API int cdl_options_set_bias(cdl_options* options, double bias);
/* -wi: class `label`'s C is C * weight (> 0); a second call for one label
 * replaces its weight. */
CDL_API int cdl_options_set_class_weight(cdl_options* options, int label, double weight);
/* -W: one weight >= 0 per instance of the data that will be trained on,
 * multiplying its C (0 leaves it out); copied. count 0: every weight 1. */
CDL_API int cdl_options_set_instance_weights(cdl_options* options, const double* weights,
                                             size_t count);
/* -m: threads; 0 (default) one per core. Never changes the model. */
CDL_API int cdl_options_set_threads(cdl_options* options, unsigned threads);
/* --seed (default 1). */
CDL_API int cdl_options_set_seed(cdl_options* options, uint64_t seed);
/* --max-iter; the solver's default until set. */
CDL_API int cdl_options_set_max_iter(cdl_options* options, int64_t max_iter);
/* -p: the epsilon of the SVR losses (with loss "svr2" or "svr1" only). */
CDL_API int cdl_options_set_svr_epsilon(cdl_options* options, double p);
/* -n: the one-class SVM's nu, in (0, 1] (solver "oneclass" or "21"). */
CDL_API int cdl_options_set_nu(cdl_options* options, double nu);
/* -R (nonzero): do not regularize the bias weight (needs bias > 0). */
CDL_API int cdl_options_set_free_bias(cdl_options* options, int free_bias);
/* --select: the CD solvers' coordinate selection rule by name; NULL or "":
 * the solver's own. */
CDL_API int cdl_options_set_select(cdl_options* options, const char* rule);
/* --partitions: the fixed blocks of one parallel solve, 1 to 4096; the
 * model depends on them, never on the threads. */
CDL_API int cdl_options_set_partitions(cdl_options* options, int64_t partitions);
/* --fixed-parts (nonzero): dcd's parts keep the first cut. */
CDL_API int cdl_options_set_fixed_parts(cdl_options* options, int fixed_parts);
/* --shrink (nonzero) or --no-shrink (0): the dual solvers' shrinking. */
CDL_API int cdl_options_set_shrink(cdl_options* options, int shrink);
/* --exact-gaps (nonzero): dcd with a rule that reads the margins. */
CDL_API int cdl_options_set_exact_gaps(cdl_options* options, int exact_gaps);
/* --gap-tol: the dual solvers', pdcd's and rcd-pair's gap tolerance, > 0. */
CDL_API int cdl_options_set_gap_tol(cdl_options* options, double gap_tol);
/* --sigma: CD's sufficient decrease, in (0, 0.5). */
CDL_API int cdl_options_set_sigma(cdl_options* options, double sigma);
/* --beta: CD's line search shrink factor, in (0, 1). */
CDL_API int cdl_options_set_beta(cdl_options* options, double beta);
/* --pd-sigma: pdcd's dual step, > 0. */
CDL_API int cdl_options_set_pd_sigma(cdl_options* options, double pd_sigma);
/* --tau-factor: pdcd's, in (0, 1). */
CDL_API int cdl_options_set_tau_factor(cdl_options* options, double tau_factor);
/* -k: pegasos's instances per update, >= 1. */
CDL_API int cdl_options_set_pegasos_batch(cdl_options* options, int64_t batch);
/* --stratified (nonzero): cross validation and the searches keep each
 * class's share in every fold. */
CDL_API int cdl_options_set_stratified(cdl_options* options, int stratified);

/* -i: training starts from this model's weights (a classifier's of the
 * same labels and bias, or a regression model's); not for the dual
 * solvers, cross validation or the search (CDL_ERR_CONFIG). The options
 * refer to the model, which must outlive every call that uses them. NULL
 * (the default): start from 0. */
CDL_API int cdl_options_set_initial_model(cdl_options* options, const cdl_model* model);

/* Receives the solver's progress, one line at a time (without its newline;
 * warnings start with "warning:"), on the thread that called cdl_train or
 * on one of its worker threads, one call at a time. It must not call
 * cdlinear. */
typedef void (*cdl_progress_fn)(const char* line, void* user);
/* Where the progress lines go: fn(line, user) for each; fn NULL: nowhere
 * (the default). */
CDL_API int cdl_options_set_progress(cdl_options* options, cdl_progress_fn fn, void* user);

/* Hears every outer iteration (epoch, Newton step) of every solver during
 * cdl_train: the problem (a one-vs-rest class's index in label order; 0 for
 * a single problem), the iteration (from 1), the objective after it (NaN
 * where a solver does not compute it every iteration), the stopping rule's
 * measure, and the seconds of training so far. Called from the thread that
 * trains the problem, one call at a time; it must not call cdlinear.
 * Returning nonzero stops training: cdl_train gives CDL_ERR_CANCELLED. A
 * language binding can check its own interrupts here (Python's Ctrl-C). */
typedef int (*cdl_iteration_fn)(size_t problem, int64_t iteration, double objective,
                                double grad_norm, double seconds, void* user);
/* fn NULL: none (the default). Cross validation and the search call it
 * for every fold's iterations too (problem: the fold in cdl_cross_validate,
 * 0 in cdl_search_c), and a nonzero return stops them likewise. */
CDL_API int cdl_options_set_iteration_callback(cdl_options* options, cdl_iteration_fn fn,
                                               void* user);
/* Cancels the runs with these options: cdl_train stops within one outer
 * iteration of each problem and gives CDL_ERR_CANCELLED; cdl_cross_validate
 * and cdl_search_c stop likewise within one outer iteration of each fold
 * in progress, and cdl_search_c between two values of C too. It may be
 * called from any thread while they run, and from a signal handler (it
 * stores one lock-free atomic flag). The flag stays set, and cancels every
 * later run, until cdl_options_reset_cancel. */
CDL_API int cdl_options_cancel(cdl_options* options);
CDL_API int cdl_options_reset_cancel(cdl_options* options);

/* ---- Training ---- */

/* Trains on `data` as cdtrain does with the same options (NULL: the
 * defaults); one-vs-rest for more than two classes. CDL_ERR_CONFIG for
 * options that cannot be trained with, CDL_ERR_DATA for data that cannot
 * be trained on. */
CDL_API int cdl_train(const cdl_data* data, const cdl_options* options, cdl_model** out);

/* ---- Cross validation and the search for C ---- */

/* cdtrain -v `folds`: the folds, their seeds and the solver are cdtrain's,
 * so the numbers are those it prints for the same options. Each output may
 * be NULL if not wanted: a classification's accuracy in [0, 1] (NaN for a
 * regression); a regression's mean squared error and squared correlation
 * coefficient (NaN for a classification); and each instance's prediction
 * by the model trained without its fold (num_rows values). CDL_ERR_CONFIG
 * for folds < 2 and for the one-class SVM. */
CDL_API int cdl_cross_validate(const cdl_data* data, const cdl_options* options, int folds,
                               double* accuracy, double* mean_squared_error,
                               double* squared_correlation, double* predictions, size_t capacity);

/* cdtrain -C -v `folds` (5 if 0): cross validation over C (and an SVR's p),
 * as cdtrain searches; start_c > 0 is cdtrain's -c, the first C; otherwise
 * LIBLINEAR's choice from the data. The options' C is not read. The result
 * is a handle, freed by cdl_search_free. */
CDL_API int cdl_search_c(const cdl_data* data, const cdl_options* options, int folds,
                         double start_c, cdl_search** out);
CDL_API int cdl_search_free(cdl_search* search);
/* The best C, p (an SVR's; -1 otherwise) and score: the best accuracy, or
 * the lowest mean squared error of a regression. Each may be NULL. */
CDL_API int cdl_search_best(const cdl_search* search, double* c, double* p, double* score);
/* The cross validations in the order searched (cdtrain's log2c lines):
 * step k < num_steps has its C, p and score; each output may be NULL. */
CDL_API int cdl_search_num_steps(const cdl_search* search, size_t* out);
CDL_API int cdl_search_step(const cdl_search* search, size_t k, double* c, double* p,
                            double* score);

/* ---- Models ---- */

/* Loads a LIBLINEAR-format model file: CDL_ERR_DATA "path:line: reason" for
 * a malformed one, CDL_ERR_IO for one that cannot be read. */
CDL_API int cdl_model_load(const char* path, cdl_model** out);
/* Writes the model file whole or not at all (a temporary file renamed into
 * place): CDL_ERR_IO if it cannot be written. */
CDL_API int cdl_model_save(const cdl_model* model, const char* path);
CDL_API int cdl_model_free(cdl_model* model);

/* 1 for a regression model, 0 for a classifier. */
CDL_API int cdl_model_is_regression(const cdl_model* model, int* out);
/* LIBLINEAR's nr_class: the number of labels, or 2 for a regression or
 * one-class model. */
CDL_API int cdl_model_nr_class(const cdl_model* model, size_t* out);
/* The class labels (none for a regression or one-class model), in the
 * order of the decision values and probabilities. */
CDL_API int cdl_model_num_labels(const cdl_model* model, size_t* out);
CDL_API int cdl_model_labels(const cdl_model* model, int* out, size_t capacity);
/* The number of features, not counting the bias. */
CDL_API int cdl_model_num_features(const cdl_model* model, size_t* out);
/* The bias value; < 0: none. */
CDL_API int cdl_model_bias(const cdl_model* model, double* out);
/* LIBLINEAR's solver_type, e.g. "L2R_L2LOSS_SVC"; the text lives as long
 * as the model. */
CDL_API int cdl_model_solver_type(const cdl_model* model, const char** out);
/* The number of decision values: 1 for two classes (except with the
 * Crammer-Singer solver) and for a regression or one-class model, nr_class
 * otherwise. */
CDL_API int cdl_model_nr_w(const cdl_model* model, size_t* out);
/* The weights as LIBLINEAR's model file holds them, row after row: one row
 * per feature (and one more, the bias feature's, last, if bias >= 0) of
 * nr_w weights, so feature i's (1-based) weight for decision value k is
 * out[(i - 1) * nr_w + k]. cdl_model_num_weights gives their number. */
CDL_API int cdl_model_num_weights(const cdl_model* model, size_t* out);
CDL_API int cdl_model_weights(const cdl_model* model, double* out, size_t capacity);
/* A one-class model's offset: its decision value is w'x - rho; 0 for the
 * others. */
CDL_API int cdl_model_rho(const cdl_model* model, double* out);
/* From the run that trained the model, one per problem the solver solved
 * (one for two classes, a regression, one class or the Crammer-Singer
 * solver; nr_w for one-vs-rest, in label order): the solver's outer
 * iterations and its final objective value. A loaded model has none
 * (cdl_model_num_problems gives 0). */
CDL_API int cdl_model_num_problems(const cdl_model* model, size_t* out);
CDL_API int cdl_model_iterations(const cdl_model* model, int64_t* out, size_t capacity);
CDL_API int cdl_model_objectives(const cdl_model* model, double* out, size_t capacity);
/* 1 for a logistic regression model, whose decision values give
 * probabilities; 0 otherwise. */
CDL_API int cdl_model_has_probabilities(const cdl_model* model, int* out);

/* Predictions for every instance of `data`, computed on `threads` threads
 * (0: one per core); the numbers never depend on the threads. They are
 * cdpredict's for the same model and data: */
/* the label (or, for a regression, the value) of each instance: num_rows
 * values; */
CDL_API int cdl_model_predict(const cdl_model* model, const cdl_data* data, unsigned threads,
                              double* out, size_t capacity);
/* the decision values, instance after instance: num_rows * nr_w values; */
CDL_API int cdl_model_decision_values(const cdl_model* model, const cdl_data* data,
                                      unsigned threads, double* out, size_t capacity);
/* the class probabilities of a model with probabilities (cdpredict -b 1),
 * instance after instance: num_rows * nr_class values, in label order;
 * CDL_ERR_CONFIG for a model without. */
CDL_API int cdl_model_probabilities(const cdl_model* model, const cdl_data* data, unsigned threads,
                                    double* out, size_t capacity);

#ifdef __cplusplus
}
#endif

#endif /* CDLINEAR_C_H_ */
