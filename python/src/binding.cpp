// cdlinear._core: the C++ interface of cdlinear.h for Python, through
// pybind11. This file only converts: Python arguments into the interface's
// types and back; the package's Python code (cdlinear/*.py) checks the
// input as scikit-learn does before anything reaches here.
#include <cdlinear.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <future>
#include <iostream>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace py = pybind11;

namespace {

// One TrainOptions field from the keyword dictionary the Python layer
// builds; an unknown key is a programming error of that layer.
void set_option(cdlinear::TrainOptions& options, const std::string& key, const py::handle& value) {
  if (key == "solver") {
    options.solver = py::cast<std::string>(value);
  } else if (key == "loss") {
    options.loss = py::cast<std::string>(value);
  } else if (key == "regularizer") {
    options.regularizer = py::cast<std::string>(value);
  } else if (key == "C") {
    options.C = py::cast<double>(value);
  } else if (key == "eps") {
    options.eps = py::cast<double>(value);
  } else if (key == "bias") {
    options.bias = py::cast<double>(value);
  } else if (key == "class_weights") {
    options.class_weights = py::cast<std::map<int, double>>(value);
  } else if (key == "threads") {
    options.threads = py::cast<unsigned>(value);
  } else if (key == "seed") {
    options.seed = py::cast<std::uint64_t>(value);
  } else if (key == "max_iter") {
    options.max_iter = py::cast<std::int64_t>(value);
  } else if (key == "svr_epsilon") {
    options.svr_epsilon = py::cast<double>(value);
  } else if (key == "nu") {
    options.nu = py::cast<double>(value);
  } else if (key == "free_bias") {
    options.free_bias = py::cast<bool>(value);
  } else if (key == "select") {
    options.select = py::cast<std::string>(value);
  } else if (key == "partitions") {
    options.partitions = py::cast<std::int64_t>(value);
  } else if (key == "shrink") {
    options.shrink = py::cast<bool>(value);
  } else if (key == "stratified") {
    options.stratified = py::cast<bool>(value);
  } else if (key == "progress") {
    // The solver's progress lines go to the process's standard error.
    options.progress = py::cast<bool>(value) ? &std::cerr : nullptr;
  } else {
    throw py::key_error("train: unknown option '" + key + "'");
  }
}

// TrainOptions from that dictionary (None: the option's default);
// ValueError for a value of the wrong type or out of range.
cdlinear::TrainOptions options_of(const py::dict& given) {
  cdlinear::TrainOptions options;
  for (const auto& [key_object, value] : given) {
    const std::string key = py::cast<std::string>(key_object);
    if (value.is_none()) continue;
    try {
      set_option(options, key, value);
    } catch (const py::cast_error&) {
      throw py::value_error("option " + key + ": bad value " + py::str(value).cast<std::string>());
    }
  }
  return options;
}

using DoubleArray = py::array_t<double, py::array::c_style | py::array::forcecast>;

// A numpy array holding a copy of `values` (one memcpy, no Python objects).
template <class T>
py::array_t<T> array_of(const std::vector<T>& values) {
  return py::array_t<T>(static_cast<py::ssize_t>(values.size()), values.data());
}

std::vector<double> vector_of(const DoubleArray& array) {
  return std::vector<double>(array.data(), array.data() + array.size());
}

// The element type of an index array: int32 or int64, as scipy makes them.
cdlinear::IndexType index_type(const py::array& array, const char* what) {
  if (array.dtype().is(py::dtype::of<std::int32_t>())) return cdlinear::IndexType::kInt32;
  if (array.dtype().is(py::dtype::of<std::int64_t>())) return cdlinear::IndexType::kInt64;
  throw py::value_error(std::string(what) + ": expected int32 or int64 indices");
}

cdlinear::ValueType value_type(const py::array& array) {
  if (array.dtype().is(py::dtype::of<double>())) return cdlinear::ValueType::kFloat64;
  if (array.dtype().is(py::dtype::of<float>())) return cdlinear::ValueType::kFloat32;
  throw py::value_error("values: expected float64 or float32");
}

void check_contiguous(const py::array& array, const char* what) {
  if (array.ndim() != 1 || !(array.flags() & py::array::c_style)) {
    throw py::value_error(std::string(what) + ": expected a contiguous one-dimensional array");
  }
}

// Data from a scipy CSR or CSC matrix's arrays (`compressed_rows` tells
// which), as they are, checked with the GIL released: float64 values with
// int32 indices are used in place (Data.borrowed), and the Data keeps the
// arrays alive (keep_alive below); other layouts are converted during the
// call. `labels` holds the class labels or targets, `weights` one weight
// an instance or nothing.
cdlinear::Data data_of(bool compressed_rows, const py::array& indptr, const py::array& indices,
                       const py::array& values, std::size_t rows, std::size_t cols,
                       const DoubleArray& labels, const DoubleArray& weights) {
  check_contiguous(indptr, "indptr");
  check_contiguous(indices, "indices");
  check_contiguous(values, "values");
  if (indices.shape(0) != values.shape(0)) {
    throw py::value_error("indices and values differ in length");
  }
  cdlinear::SparseArrays x;
  x.rows = rows;
  x.cols = cols;
  x.nnz = static_cast<std::size_t>(values.shape(0));
  x.indptr = indptr.data();
  x.indptr_type = index_type(indptr, "indptr");
  x.indices = indices.data();
  x.indices_type = index_type(indices, "indices");
  x.values = values.data();
  x.value_type = value_type(values);
  if (static_cast<std::size_t>(indptr.shape(0)) != (compressed_rows ? rows : cols) + 1) {
    throw py::value_error("indptr: expected one offset more than the matrix has " +
                          std::string(compressed_rows ? "rows" : "columns"));
  }
  py::gil_scoped_release release;
  return compressed_rows ? cdlinear::Data::from_csr(x, vector_of(labels), vector_of(weights))
                         : cdlinear::Data::from_csc(x, vector_of(labels), vector_of(weights));
}

// Runs `body` (given the run's options with a cancel flag) on a thread of
// its own while this one, the interpreter's, waits without the GIL and
// looks for signals every 100 ms: a Ctrl-C sets the interface's cancel
// flag, training (or a fold's, or a search step's) stops within an outer
// iteration, and KeyboardInterrupt (or what the signal's handler raised) is
// raised here.
template <class Body>
auto interruptible(cdlinear::TrainOptions options, Body body) {
  std::atomic<bool> cancel{false};
  options.cancel = &cancel;
  auto result = std::async(std::launch::async, [&options, &body] { return body(options); });
  for (;;) {
    {
      py::gil_scoped_release release;
      if (result.wait_for(std::chrono::milliseconds(100)) == std::future_status::ready) break;
    }
    if (PyErr_CheckSignals() != 0) {
      cancel = true;
      {
        py::gil_scoped_release release;
        result.wait();
      }
      try {
        result.get();
      } catch (const std::exception&) {
        // Cancelled, or an error that the signal's exception supersedes.
      }
      throw py::error_already_set();
    }
  }
  return result.get();
}

cdlinear::Model train(const cdlinear::Data& data, const py::dict& options) {
  return interruptible(options_of(options), [&data](const cdlinear::TrainOptions& run) {
    return cdlinear::train(data, run);
  });
}

// cdtrain -v: (accuracy, mean squared error, squared correlation, each
// instance's prediction).
py::tuple cross_validate(const cdlinear::Data& data, int folds, const py::dict& options) {
  const cdlinear::CrossValidation result =
      interruptible(options_of(options), [&data, folds](const cdlinear::TrainOptions& run) {
        return cdlinear::cross_validate(data, folds, run);
      });
  return py::make_tuple(result.accuracy, result.mean_squared_error, result.squared_correlation,
                        array_of(result.predictions));
}

// cdtrain -C: (best C, best p (-1 but for an SVR), best score: accuracy in
// [0, 1] or mean squared error); start_C: cdtrain's -c, if given.
py::tuple search_C(const cdlinear::Data& data, int folds, const py::dict& options,
                   std::optional<double> start_C) {
  const cdlinear::Search result = interruptible(
      options_of(options), [&data, folds, start_C](const cdlinear::TrainOptions& run) {
        return cdlinear::search_C(data, folds, run, start_C);
      });
  return py::make_tuple(result.best_C, result.best_p, result.best_score);
}

// Values laid out row-major, `columns` a row, as a numpy array; takes the
// GIL, which the prediction calls release.
py::array rows_of(std::vector<double> values, std::size_t columns) {
  py::gil_scoped_acquire acquire;
  const auto width = static_cast<py::ssize_t>(columns);
  const auto height = width == 0 ? 0 : static_cast<py::ssize_t>(values.size()) / width;
  return py::array_t<double>({height, width}, values.data());
}

// A LIBSVM file's CSR arrays (cdlinear::CsrFile) as numpy arrays that use
// the reader's memory in place: (indptr, indices, values, labels, number of
// features), indices 0-based. Each array's base holds a copy of the file's
// handle, so the memory lives as long as any of them.
py::tuple read_file(const std::string& path, unsigned threads) {
  std::optional<cdlinear::CsrFile> file;
  {
    py::gil_scoped_release release;
    file = cdlinear::CsrFile::read(path, threads);
  }
  const py::capsule owner(new cdlinear::CsrFile(*file),
                          [](void* p) { delete static_cast<cdlinear::CsrFile*>(p); });
  const auto view = [&owner](auto* data, std::size_t count) {
    using T = std::remove_const_t<std::remove_pointer_t<decltype(data)>>;
    return py::array_t<T>(static_cast<py::ssize_t>(count), data, owner);
  };
  return py::make_tuple(view(file->indptr(), file->rows() + 1), view(file->indices(), file->nnz()),
                        view(file->values(), file->nnz()), array_of(file->labels()), file->cols());
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "cdlinear's C++ interface (cdlinear.h); use the package cdlinear instead";

  // Translators run newest first: IoError before its base Error.
  const auto& error = py::register_exception<cdlinear::Error>(m, "Error", PyExc_ValueError);
  py::register_exception<cdlinear::IoError>(m, "IoError", PyExc_OSError);
  static_cast<void>(error);

  py::class_<cdlinear::Model>(m, "Model")
      .def_static("load", &cdlinear::Model::load, py::call_guard<py::gil_scoped_release>())
      .def("save", &cdlinear::Model::save, py::call_guard<py::gil_scoped_release>())
      .def("to_string", &cdlinear::Model::to_string)
      .def_property_readonly("is_regression", &cdlinear::Model::is_regression)
      .def_property_readonly("solver_type", &cdlinear::Model::solver_type)
      .def_property_readonly("labels", &cdlinear::Model::labels)
      .def_property_readonly("num_features", &cdlinear::Model::num_features)
      .def_property_readonly("bias", &cdlinear::Model::bias)
      .def_property_readonly("nr_class", &cdlinear::Model::nr_class)
      .def_property_readonly("rho", &cdlinear::Model::rho)
      .def_property_readonly("iterations", &cdlinear::Model::iterations)
      .def_property_readonly("objectives", &cdlinear::Model::objectives)
      // cdpredict's labels, decision values (rows x nr_w) and -b 1
      // probabilities (rows x nr_class) of every instance of a Data.
      .def(
          "predict_data",
          [](const cdlinear::Model& model, const cdlinear::Data& data, unsigned threads) {
            return rows_of(model.predict(data, threads), 1);
          },
          py::call_guard<py::gil_scoped_release>())
      .def(
          "decision_values_data",
          [](const cdlinear::Model& model, const cdlinear::Data& data, unsigned threads) {
            return rows_of(model.decision_values(data, threads), model.nr_w());
          },
          py::call_guard<py::gil_scoped_release>())
      .def(
          "probabilities_data",
          [](const cdlinear::Model& model, const cdlinear::Data& data, unsigned threads) {
            return rows_of(model.probabilities(data, threads), model.nr_class());
          },
          py::call_guard<py::gil_scoped_release>())
      // LIBLINEAR's layout: one row per feature (and the bias), nr_w columns.
      .def_property_readonly("weights", [](const cdlinear::Model& model) {
        const std::vector<double>& weights = model.weights();
        const auto columns = static_cast<py::ssize_t>(model.nr_w());
        const auto rows = columns == 0 ? 0 : static_cast<py::ssize_t>(weights.size()) / columns;
        return py::array_t<double>({rows, columns}, weights.data());
      });

  py::class_<cdlinear::Data>(m, "Data")
      .def_property_readonly("size", &cdlinear::Data::size)
      .def_property_readonly("num_features", &cdlinear::Data::num_features)
      .def_property_readonly("borrowed", &cdlinear::Data::borrowed);

  // The Data may use indices and values in place: it keeps them (and
  // indptr) alive as long as it lives.
  m.def("data_of", &data_of, py::arg("compressed_rows"), py::arg("indptr"), py::arg("indices"),
        py::arg("values"), py::arg("rows"), py::arg("cols"), py::arg("labels"), py::arg("weights"),
        py::keep_alive<0, 2>(), py::keep_alive<0, 3>(), py::keep_alive<0, 4>());
  m.def("train", &train, py::arg("data"), py::arg("options"));
  m.def("cross_validate", &cross_validate, py::arg("data"), py::arg("folds"), py::arg("options"));
  m.def("search_C", &search_C, py::arg("data"), py::arg("folds"), py::arg("options"),
        py::arg("start_C"));
  m.def("read_file", &read_file, py::arg("path"), py::arg("threads"));
}
