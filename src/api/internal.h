// The storage behind cdlinear.h's Data and Model, shared by the files of
// src/api/ (the interface's own; nothing else includes it).
#ifndef CDL_API_INTERNAL_H_
#define CDL_API_INTERNAL_H_

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "cdlinear.h"
#include "data/libsvm_reader.h"
#include "data/problem.h"
#include "data/sparse_matrix.h"
#include "model/model.h"
#include "objective/loss.h"
#include "solvers/params.h"
#include "solvers/report.h"
#include "util/error.h"

namespace cdlinear {

struct Data::Impl {
  std::string name;       // for messages: the path, "(standard input)" or "(CSR arrays)"
  bool from_file = true;  // false: made from arrays, whose rows messages name
  cdl::LabeledCsc csc;    // as cdtrain reads it, without a bias column
  // Data::from_csr's and from_csc's instance weights; empty: none.
  std::vector<double> weights;
  // Whether the matrix uses the caller's arrays in place (Data::borrowed()).
  bool borrowed = false;

  // The same matrix in row order, for instance() and prediction; made on
  // first use (at most once, also with several threads asking), or given.
  const cdl::CsrMatrix& rows() const {
    std::call_once(rows_made_, [this] {
      rows_ = cdl::to_csr(csc.features);
      has_rows_ = true;
    });
    return rows_;
  }
  // Hands over the rows when they exist already (Data::from_csr's).
  void set_rows(cdl::CsrMatrix rows) {
    std::call_once(rows_made_, [&] {
      rows_ = std::move(rows);
      has_rows_ = true;
    });
  }
  // The rows when they exist already, else null: training on rows takes
  // them rather than transposing the columns again.
  const cdl::CsrMatrix* rows_if_made() const { return has_rows_ ? &rows_ : nullptr; }

 private:
  mutable std::once_flag rows_made_;
  mutable cdl::CsrMatrix rows_;
  mutable std::atomic<bool> has_rows_{false};
};

struct Model::Impl {
  cdl::LinearModel model;
  // The training run's, one per problem; empty for a loaded model.
  std::vector<std::int64_t> iterations;
  std::vector<double> objectives;
};

// The one way into Data's and Model's storage.
struct Access {
  static Data make_data(std::shared_ptr<const Data::Impl> impl) { return Data(std::move(impl)); }
  static Model make_model(cdl::LinearModel model, std::vector<std::int64_t> iterations = {},
                          std::vector<double> objectives = {}) {
    auto impl = std::make_shared<Model::Impl>();
    impl->model = std::move(model);
    impl->iterations = std::move(iterations);
    impl->objectives = std::move(objectives);
    return Model(std::move(impl));
  }
  static const Data::Impl& of(const Data& data) { return *data.impl_; }
  static const cdl::LinearModel& of(const Model& model) { return model.impl_->model; }
};

// Refuses with ArrayError, before anything is allocated, arrays whose
// copies would not fit in `memory` bytes (Data::from_csr and from_csc pass
// cdl::available_memory(), as the file reader does for its columns): 8
// bytes an offset, and during a transposition 8 more for each offset it
// makes; 12 bytes a nonzero for the columns, unless they are the caller's
// (CSC arrays borrowed). `rows`: the arrays are CSR.
void check_array_memory(const std::string& name, const SparseArrays& x, bool rows, bool borrowed,
                        double memory);

// Runs `body`; the core library's errors leave as this interface's, with the
// same message.
template <class Body>
auto translating_errors(Body body) -> decltype(body()) {
  try {
    return body();
  } catch (const cdl::ParseError& e) {
    throw ParseError(e.path(), e.line(), e.reason());
  } catch (const cdl::ConfigError& e) {
    throw ConfigError(e.what());
  } catch (const cdl::IoError& e) {
    throw IoError(e.what());
  } catch (const cdl::DataError& e) {
    throw DataError(e.what());
  } catch (const cdl::Error& e) {
    throw Error(e.what());
  }
}

// A run's inputs as cdtrain prepares them from its options and data: the
// resolved and validated Params (the solver chosen by the data's shape
// when the options leave it to them), the instance weights, the classes
// (none for a regression or the one-class SVM), the matrix with the bias
// column, and the values checked at the largest C the run trains at.
struct PreparedRun {
  const Data::Impl* data = nullptr;
  cdl::Params params;
  const std::vector<double>* weights = nullptr;  // null: none
  cdl::ClassMap classes;
  cdl::CscMatrix with_bias;  // when params.bias >= 0

  bool has_classes() const { return cdl::has_classes(params.loss.value()); }
  // The training matrix: the data's, with the bias column if any.
  const cdl::CscMatrix& x() const { return params.bias >= 0 ? with_bias : data->csc.features; }
};

// `cv_folds`: Params::cv_folds (0: training once), which the shape's choice
// of a solver reads; `search`: the values are checked at the largest C the
// search for C trains at, as cdtrain -C checks them. Throws as train()
// does; warns through `reporter`.
PreparedRun prepare_run(const Data::Impl& data, const TrainOptions& options, int cv_folds,
                        bool search, cdl::Reporter& reporter);

// A number as messages show it: "%.17g", every digit of a double.
inline std::string show(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", value);
  return buffer;
}

// Throws the error about instance `row` (0-based) of `data`: a ParseError
// "path:line: reason" for data read from a file, an ArrayError "array row
// N: reason" for data made from arrays.
[[noreturn]] void throw_at_row(const Data::Impl& data, std::size_t row, const std::string& reason);

}  // namespace cdlinear

#endif  // CDL_API_INTERNAL_H_
