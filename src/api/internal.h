// The storage behind cdlinear.h's Data and Model, shared by the files of
// src/api/ (the interface's own; nothing else includes it).
#ifndef CDL_API_INTERNAL_H_
#define CDL_API_INTERNAL_H_

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "cdlinear.h"
#include "data/libsvm_reader.h"
#include "data/sparse_matrix.h"
#include "model/model.h"
#include "util/error.h"

namespace cdlinear {

struct Data::Impl {
  std::string name;       // for messages: the path, "(standard input)" or "(CSR arrays)"
  bool from_file = true;  // false: made from arrays, whose rows messages name
  cdl::LabeledCsc csc;    // as cdtrain reads it, without a bias column
  // Data::from_csr's and from_csc's instance weights; empty: none.
  std::vector<double> weights;

  // The same matrix in row order, for instance() and prediction; made on
  // first use (at most once, also with several threads asking), or given.
  const cdl::CsrMatrix& rows() const {
    std::call_once(rows_made_, [this] { rows_ = cdl::to_csr(csc.features); });
    return rows_;
  }
  // Hands over the rows when they exist already (Data::from_csr's).
  void set_rows(cdl::CsrMatrix rows) {
    std::call_once(rows_made_, [&] { rows_ = std::move(rows); });
  }

 private:
  mutable std::once_flag rows_made_;
  mutable cdl::CsrMatrix rows_;
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
  } catch (const cdl::Error& e) {
    throw Error(e.what());
  }
}

// Throws the error about instance `row` (0-based) of `data`: a ParseError
// "path:line: reason" for data read from a file, an ArrayError "array row
// N: reason" for data made from arrays.
[[noreturn]] void throw_at_row(const Data::Impl& data, std::size_t row, const std::string& reason);

}  // namespace cdlinear

#endif  // CDL_API_INTERNAL_H_
