// cdlinear's library interface: read LIBSVM-format data or take it from
// arrays in memory, train a linear classifier or regression, cross-validate
// and search C, predict, and save and load models in LIBLINEAR's text
// format, from a C++17 program. It is the whole interface a program
// needs, and includes nothing but the standard library, so that it can be
// installed alone beside libcdlinear.a. The shared library exports the C
// interface (cdlinear_c.h) alone, so a C++ program links the archive, as
// the pkg-config file cdlinear-cxx names it:
//
//   g++ -std=c++17 prog.cpp $(pkg-config --cflags --libs cdlinear-cxx)
//
// The functions are the ones cdtrain and cdpredict run: train() on a file
// with the same options writes, through Model::save(), the same model file
// as cdtrain, byte for byte, and Model::predict() gives cdpredict's labels.
//
// Errors are exceptions derived from cdlinear::Error (below); messages about
// a file read "path:line: reason", as the tools print them. Nothing here
// prints, except the progress of train() to TrainOptions::progress, or exits.
// Data and Model are immutable values that share their storage when copied,
// so that a Model may predict from several threads at once.
#ifndef CDLINEAR_H_
#define CDLINEAR_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace cdlinear {

// Every error the library reports. Out of memory is std::bad_alloc.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A malformed data or model file, or data that cannot be trained on: the
// message reads "path:line: reason".
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

// Options that cannot be trained with (an unknown solver, a loss the solver
// lacks, C <= 0, ...); the tools exit 2 for these.
class ConfigError : public Error {
 public:
  using Error::Error;
};

// Data that cannot be used as a whole, with no one line to name: an empty
// or compressed data file. The message reads "path: reason".
class DataError : public Error {
 public:
  using Error::Error;
};

// A file that cannot be opened, read or written.
class IoError : public Error {
 public:
  using Error::Error;
};

// Training stopped by TrainOptions::cancel or on_iteration: train() (or
// the search) returns nothing, and what it had made is freed.
class Cancelled : public Error {
 public:
  using Error::Error;
};

// Arrays that do not make a data set (Data::from_csr, Data::from_csc), or
// data made from arrays that cannot be trained on. The message names the
// place, 0-based as in the arrays: "CSR row 3, entry 2: column index 9 not
// greater than the previous index 9", "array row 7: label 1.5 is not an
// integer class label".
class ArrayError : public Error {
 public:
  using Error::Error;
};

// One nonzero of an instance: a 1-based feature index, as in the data file.
struct Feature {
  int index;
  double value;
};
using Instance = std::vector<Feature>;

// The element types Data::from_csr and from_csc read.
enum class IndexType { kInt32, kInt64 };
enum class ValueType { kFloat64, kFloat32 };

// A compressed sparse matrix in the caller's memory, as scipy.sparse's
// csr_matrix and csc_matrix hold it. Compressed by rows (CSR): row r's
// nonzeros are entries indptr[r] to indptr[r + 1] - 1 of `indices` (their
// 0-based columns) and `values`; by columns (CSC) the same with rows and
// columns swapped. The pointers are the caller's: they must hold outer + 1
// offsets (outer: rows for CSR, cols for CSC) and nnz indices and values
// (which may be null when nnz is 0). Data may use indices and values in
// place (Data::from_csr): the caller then keeps them alive and unchanged.
struct SparseArrays {
  std::size_t rows = 0;  // instances
  std::size_t cols = 0;  // features: the model's nr_feature
  std::size_t nnz = 0;   // the length of indices and values
  const void* indptr = nullptr;
  IndexType indptr_type = IndexType::kInt64;
  const void* indices = nullptr;
  IndexType indices_type = IndexType::kInt32;
  const void* values = nullptr;
  ValueType value_type = ValueType::kFloat64;
  // true: copy indices and values even when they could be used in place,
  // so that the caller may free or change them once the call returns.
  bool copy = false;
};

// A data set: the instances of a LIBSVM-format file (`label index:value
// ...` per line, read by cdtrain's strict reader), or of a sparse matrix in
// memory.
class Data {
 public:
  // Reads `path` ("-": standard input). Throws ParseError "path:line:
  // reason" for a malformed line, Error for a file with no instance,
  // IoError for a file that cannot be read.
  static Data read(const std::string& path);

  // Data from a matrix in memory: instance j is row j of `x`, its label (or
  // regression target) labels[j], and its weight instance_weights[j] (as
  // TrainOptions::instance_weights; empty: every weight is 1). Feature i of
  // a model trained on it is column i - 1 of `x`.
  //
  // Everything is checked before anything is kept, and a failure throws
  // ArrayError naming the row (CSC: the column) and the entry:
  // indptr[0] != 0, indptr decreasing or its last offset not nnz; an index
  // negative or not below the other dimension, or not greater than the
  // previous index of its row (column): indices are sorted and unique; a NaN
  // or infinite value; rows or cols above 2147483647, rows 0; a null indptr,
  // or null indices or values with nnz > 0; a shape whose copies (below)
  // would need more memory than this process may use, refused before
  // anything is allocated; labels not one a row or not finite; instance
  // weights not one a row, negative or not finite. Integer class labels are
  // checked when a classification trains, as for a file.
  //
  // Float64 values with int32 indices are the layout of the library's
  // matrices, which then use the caller's indices and values in place, with
  // no copy (unless x.copy): the caller keeps those two arrays alive and
  // unchanged as long as the Data or a copy of it lives (borrowed() tells).
  // The library never writes to them. What trains on the Data keeps no
  // reference to them: a Model, cross validation's and the search's results
  // outlive them. indptr, labels and weights are copied (8 bytes an offset).
  // Other layouts (float32 values, int64 indices) are converted once into
  // the library's matrices (8 bytes a nonzero for the value, 4 for the
  // index); the caller may then free or change the arrays when the call
  // returns. The checks read every entry either way, on every core when
  // there are many.
  //
  // From CSC, the columns are what the coordinate-descent solvers read;
  // the solvers that walk rows (dcd, tron, ...) train on rows made by one
  // transposition. From CSR, the columns are made during the call by one
  // transposition (12 bytes a nonzero), which also converts other layouts;
  // borrowed rows are kept for instance() and prediction, converted ones
  // are not kept (made again from the columns when first needed, as from
  // CSC). A solver that walks rows trains on rows made from the columns.
  // The data trains to the same model bytes as Data::read() of a file
  // holding the same numbers whose largest feature index is `cols` (a file
  // has as many features as its largest index; arrays have `cols`, also
  // when the last columns are empty, and the model has a weight for each),
  // borrowed or copied.
  static Data from_csr(const SparseArrays& x, std::vector<double> labels,
                       std::vector<double> instance_weights = {});
  static Data from_csc(const SparseArrays& x, std::vector<double> labels,
                       std::vector<double> instance_weights = {});

  std::size_t size() const;          // instances
  std::size_t num_features() const;  // the largest feature index
  // The label (or regression target) of each instance, in file order.
  const std::vector<double>& labels() const;
  // Instance `row` (0-based), features in increasing index order.
  Instance instance(std::size_t row) const;
  // The weights given to from_csr() or from_csc(); empty otherwise.
  const std::vector<double>& instance_weights() const;
  // Whether the matrix uses the caller's indices and values in place
  // (from_csr() or from_csc() of float64 values and int32 indices).
  bool borrowed() const;
  // The name the messages use: the path, "(standard input)", or "(CSR
  // arrays)" and "(CSC arrays)", whose messages name "array row N"
  // (0-based) where a file's name path:line.
  const std::string& name() const;

  struct Impl;  // the library's own; opaque here

 private:
  friend struct Access;
  explicit Data(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<const Impl> impl_;
};

// A LIBSVM-format file's instances as CSR arrays, read by Data::read()'s
// strict reader straight into rows: the layout of scipy's csr_matrix, and
// the matrix scikit-learn's load_svmlight_file gives for a file whose
// indices start at 1. A copy shares the arrays, which live as long as the
// last copy.
class CsrFile {
 public:
  // Reads `path` ("-": standard input) on `threads` threads (0: one per
  // core, at most 4; the arrays do not depend on it). Throws as
  // Data::read() does.
  static CsrFile read(const std::string& path, unsigned threads = 0);

  std::size_t rows() const;  // instances
  std::size_t cols() const;  // the largest feature index
  std::size_t nnz() const;
  const std::int64_t* indptr() const;   // rows() + 1 offsets, the first 0
  const std::int32_t* indices() const;  // nnz() columns: feature index - 1, increasing in a row
  const double* values() const;         // nnz() values
  const std::vector<double>& labels() const;  // rows() labels (or targets)

  struct Impl;  // the library's own; opaque here

 private:
  explicit CsrFile(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<const Impl> impl_;
};

class Model;

// One outer iteration of a solver, as TrainOptions::on_iteration hears it.
struct IterationProgress {
  // The problem: a one-vs-rest class's index in Model::labels() order; 0
  // for a single problem.
  std::size_t problem = 0;
  std::int64_t iteration = 0;  // from 1
  // The objective f(w) after the iteration; NaN where a solver does not
  // compute it every iteration. The dual solvers report their primal value,
  // except cs, which reports 1/2 |w|^2 plus the sum of its dual variables
  // over the wrong classes, and oneclass, which reports 1/2 |w|^2.
  double objective = 0;
  // The stopping rule's measure after it (CD: the norm of the stored
  // partial derivatives; Newton solvers: the gradient norm; Pegasos has
  // none and reports 0).
  double grad_norm = 0;
  double seconds = 0;  // training time so far
};

// What cdtrain's options set; the defaults are cdtrain's.
struct TrainOptions {
  // -s: a solver's name ("cdper", "cd", "tron", "dcd", ...; cdtrain -h
  // lists them) or LIBLINEAR's -s number ("2"), which picks the solver,
  // loss and regularizer of that problem. Empty: cdtrain's default, which
  // for the L2-SVM is chosen by the data's shape (dcd on data with more
  // features than instances and at least 100000 nonzeros, else cdper;
  // Model::solver_type() tells which ran).
  std::string solver;
  // -l: "l2svm", "l1svm", "lr"; "sq" or "svr2" train a regression. Empty:
  // the solver's default (or the number's loss).
  std::string loss;
  // -r: "l2" or "l1". Empty: l2 (or the number's regularizer).
  std::string regularizer;
  double C = 1;                          // -c, > 0
  std::optional<double> eps;             // -e; default per solver
  double bias = -1;                      // -B; >= 0 appends a constant feature
  std::map<int, double> class_weights;   // -wi: class i's C is C * weight
  unsigned threads = 0;                  // -m; 0: one per core; never changes the model
  std::uint64_t seed = 1;                // --seed
  std::optional<std::int64_t> max_iter;  // --max-iter; default per solver
  std::optional<double> svr_epsilon;     // -p, with loss "svr2" or "svr1" only
  // -W: one weight >= 0 per instance of the data, multiplying its C (0
  // leaves it out). Empty: every weight is 1, or the Data's own
  // (Data::instance_weights()); giving both is a ConfigError.
  std::vector<double> instance_weights;
  // -n: the one-class SVM's nu, in (0, 1] (solver "oneclass" or "21"
  // only). Empty: 0.5, as LIBLINEAR.
  std::optional<double> nu;
  // -R: do not regularize the bias weight (needs bias > 0; the solvers and
  // losses of cdtrain -R, LIBLINEAR's -R).
  bool free_bias = false;
  // --select: the coordinate selection rule of the CD solvers by name
  // (cdtrain -h lists them). Empty: the solver's own.
  std::string select;
  // --partitions: the fixed blocks of one parallel solve, 1 to 4096 (cdper:
  // of the features; dcd, tron, newton: of the rows); the model depends on
  // them, never on threads. Empty: the solver's default for the data.
  std::optional<std::int64_t> partitions;
  bool fixed_parts = false;          // --fixed-parts: dcd's parts keep the first cut
  std::optional<bool> shrink;        // --shrink (true) / --no-shrink (false): dual solvers
  bool exact_gaps = false;           // --exact-gaps: dcd with a rule that reads the margins
  std::optional<double> gap_tol;     // --gap-tol: dual solvers, pdcd, rcd-pair; > 0
  std::optional<double> sigma;       // --sigma: CD's sufficient decrease, in (0, 0.5)
  std::optional<double> beta;        // --beta: CD's line search shrink factor, in (0, 1)
  std::optional<double> pd_sigma;    // --pd-sigma: pdcd's dual step, > 0
  std::optional<double> tau_factor;  // --tau-factor: pdcd, in (0, 1)
  std::optional<std::int64_t> pegasos_batch;  // -k: pegasos's instances per update, >= 1
  // --stratified: cross validation and the searches keep each class's
  // share in every fold (train() ignores it).
  bool stratified = false;
  // -i: train() starts from this model's weights: a classifier's of the
  // same labels and bias for a classification, a regression model's for a
  // regression. Not for the dual solvers, nor with cross validation or the
  // search (ConfigError). As with cdtrain -i, the data's shape then never
  // chooses the solver. The model must outlive the call; null: start from 0.
  const Model* initial_model = nullptr;
  // Each option left empty takes cdtrain's default. Options a solver does
  // not take are a ConfigError, as cdtrain's usage errors are.

  // Where the solver's progress lines and warnings go (cdtrain writes them
  // to stderr); null: nowhere.
  std::ostream* progress = nullptr;
  // train() calls it after every outer iteration (epoch, Newton step) of
  // every solver, from the thread that trains the problem (the classes of
  // one-vs-rest may run on threads), one call at a time. Returning false
  // stops training as `cancel` does; an exception it throws stops training
  // too and leaves train() as it is (on threads, every class in progress
  // ends with it). After either, it is not called again. cross_validate()
  // and search_C() call it for every fold's iterations too (`problem` is
  // the fold in cross_validate(), 0 in the search), from the fold's thread.
  // Null: none.
  std::function<bool(const IterationProgress&)> on_iteration;
  // train() polls it after every outer iteration of every solver: once it
  // reads true, train() throws Cancelled, within one outer iteration of
  // each problem in progress; a one-vs-rest class not yet started then
  // does not start, so that at most `threads` classes run an iteration
  // after the flag is set. cross_validate() and search_C() poll it in
  // every fold as train() does, and search_C() after each step too; its
  // Cancelled names the steps done and the last C. May be set from any
  // thread; null: never.
  const std::atomic<bool>* cancel = nullptr;
};

// A trained linear model: LIBLINEAR's model, as its text file holds it.
class Model {
 public:
  // Loads a LIBLINEAR-format model file; throws ParseError "path:line:
  // reason" for a malformed one, IoError for one that cannot be read.
  static Model load(const std::string& path);
  // Writes the model file whole or not at all (a temporary file renamed
  // into place); throws IoError.
  void save(const std::string& path) const;
  // The model file's text.
  std::string to_string() const;

  bool is_regression() const;
  // LIBLINEAR's solver_type, e.g. "L2R_L2LOSS_SVC".
  const std::string& solver_type() const;
  // The class labels (empty for a regression model); decision values come
  // in this order.
  const std::vector<int>& labels() const;
  std::size_t num_features() const;  // not counting the bias
  double bias() const;               // < 0: none
  // LIBLINEAR's nr_class: labels().size(), or 2 for a regression or
  // one-class model.
  std::size_t nr_class() const;
  // The number of decision values: 1 for two classes (except with the
  // Crammer-Singer solver, "cs") and for a regression or one-class model,
  // nr_class() otherwise.
  std::size_t nr_w() const;
  // The weights as LIBLINEAR's model holds them: num_features() rows (one
  // more, the bias feature's, last, if bias() >= 0) of nr_w() weights each,
  // so feature i's (1-based) weight for decision value k is
  // weights()[(i - 1) * nr_w() + k].
  const std::vector<double>& weights() const;
  // The weights of decision value k < nr_w() (class labels()[k]'s, for
  // more than two classes): one per feature, then the bias feature's if
  // bias() >= 0. Throws ConfigError for k >= nr_w().
  std::vector<double> weights_of(std::size_t k) const;
  // A one-class model's offset: its decision value is w'x - rho(); 0 for
  // the others.
  double rho() const;
  // From the training run that made the model, one per problem the solver
  // solved: one for two classes, a regression or one class, and for the
  // Crammer-Singer solver's problem over all classes; nr_w() for
  // one-vs-rest, in labels() order. iterations(): the solver's outer
  // iterations (epochs for the coordinate-descent solvers, Newton steps
  // for tron and newton); objectives(): its objective value f(w) at the
  // end, as its summary line prints it. Model files do not hold them: a
  // loaded Model's are empty.
  const std::vector<std::int64_t>& iterations() const;
  const std::vector<double>& objectives() const;

  // The decision values w'x of one instance: one for two classes (positive
  // for labels()[0]) and for a regression, one per class otherwise.
  // Features beyond num_features() are ignored, as LIBLINEAR does. Throws
  // ConfigError for an index < 1.
  std::vector<double> decision_values(const Instance& x) const;
  // The predicted label (as a double) or, for a regression, the value.
  double predict(const Instance& x) const;

  // Whether the model is a logistic regression (solver_type L2R_LR,
  // L2R_LR_DUAL or L1R_LR), whose decision values give probabilities.
  bool has_probabilities() const;
  // The class probabilities of one instance, as LIBLINEAR's predict -b 1
  // computes them: nr_class() values in labels() order, 1 / (1 +
  // exp(-decision)) per class (for two classes p and 1 - p), normalized to
  // sum to 1 for more than two. Throws ConfigError for a model without
  // probabilities.
  std::vector<double> probabilities(const Instance& x) const;

  // The same for every instance of `data`, in order, on `threads` threads
  // (0: one per core; above 1024, ConfigError as for train()); the numbers
  // never depend on the threads. Rows of values are laid out row-major:
  // instance j's nr_w() decision values start at j * nr_w(), its nr_class()
  // probabilities at j * nr_class().
  // cdpredict's labels, values and -b 1 probabilities, for the data of
  // its test file.
  std::vector<double> predict(const Data& data, unsigned threads = 0) const;
  std::vector<double> decision_values(const Data& data, unsigned threads = 0) const;
  std::vector<double> probabilities(const Data& data, unsigned threads = 0) const;

  struct Impl;  // the library's own; opaque here

 private:
  friend struct Access;
  explicit Model(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<const Impl> impl_;
};

// Trains on `data` as cdtrain does with the same options (one-vs-rest for
// more than two classes). Throws ConfigError for options that cannot be
// trained with, ParseError "path:line: reason" for labels that are not
// integers in a classification or values too large to train on.
Model train(const Data& data, const TrainOptions& options = {});

// What cross validation found (cdtrain -v).
struct CrossValidation {
  // A classification's share of instances predicted right, in [0, 1]
  // (NaN for a regression).
  double accuracy = 0;
  // A regression's mean squared error and squared correlation coefficient
  // of the predictions (NaN for a classification), as cdtrain -v prints them.
  double mean_squared_error = 0;
  double squared_correlation = 0;
  // Each instance's prediction (label or value) by the model trained
  // without its fold.
  std::vector<double> predictions;
};

// cdtrain -v `folds` on `data` with `options`: the folds, their seeds and
// the solver are cdtrain's, so the numbers are the ones it prints for the
// same options; the folds train on options.threads threads at once and the
// result never depends on the threads. More folds than instances: one per
// instance. Throws ConfigError for folds < 2 and for the one-class SVM;
// otherwise as train().
CrossValidation cross_validate(const Data& data, int folds, const TrainOptions& options = {});

// What a search for C found (cdtrain -C).
struct Search {
  // One cross validation of the search: its C, its p (an SVR's; -1
  // otherwise), and its accuracy (classification) or mean squared error
  // (regression).
  struct Step {
    double C = 0;
    double p = -1;
    double score = 0;
  };
  std::vector<Step> steps;  // in the order searched: cdtrain's log2c lines
  double best_C = 0;
  double best_p = -1;     // an SVR's best p; -1 otherwise
  double best_score = 0;  // the best accuracy, or the lowest mean squared error
};

// cdtrain -C -v `folds` (5 if 0): for a classification, cross validation at
// C = start, 2 start, ... up to 1024, each fold warm-started from the
// previous C and stopping early as LIBLINEAR's search does; for a
// regression C up to 2^20 by mean squared error, and with loss svr2 or
// svr1 also p over 20 steps of max |y| (from options.svr_epsilon down, if
// given). The start is `start_C` if given (cdtrain's -c), else LIBLINEAR's
// choice from the data. options.C is not read. Throws as cross_validate().
Search search_C(const Data& data, int folds, const TrainOptions& options = {},
                std::optional<double> start_C = std::nullopt);

// The share of `predicted` equal to `labels` (both of one size), in [0, 1].
double accuracy(const std::vector<double>& predicted, const std::vector<double>& labels);

}  // namespace cdlinear

#endif  // CDLINEAR_H_
