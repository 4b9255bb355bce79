// Helpers shared by the solver tests: cached data sets, a recording reporter
// and LIBLINEAR's optima.
#ifndef CDL_TESTS_SOLVER_TEST_UTIL_H_
#define CDL_TESTS_SOLVER_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "data/libsvm_reader.h"
#include "data/problem.h"
#include "data/sparse_matrix.h"
#include "solvers/params.h"
#include "solvers/report.h"
#include "solvers/solver_table.h"
#include "test_util.h"

namespace cdl::test {

struct Data {
  LabeledCsc file;
  ClassMap classes;
  CsrMatrix rows;  // file.features row-major, for TRON and Pegasos
};

// A data set from data/, read once per test binary.
inline const Data& load(const std::string& name) {
  static std::map<std::string, Data> cache;  // nodes are stable: Problems point into them
  auto it = cache.find(name);
  if (it == cache.end()) {
    ReadOptions options;
    options.integer_labels = true;
    LabeledCsc file = read_libsvm_csc(data_path(name), options);
    ClassMap classes = map_classes(file.labels);
    CsrMatrix rows = to_csr(file.features);
    it = cache.emplace(name, Data{std::move(file), std::move(classes), std::move(rows)}).first;
  }
  return it->second;
}

// The resolved params of a table-wide test's run of `solver` and `loss`: C
// 0.5, one thread, 2000 updates for Pegasos.
// The rows of `x` listed in `order`, in that order (repeats allowed).
inline CsrMatrix pick_rows(const CsrMatrix& x, const std::vector<std::size_t>& order) {
  CsrMatrix out;
  out.num_rows = order.size();
  out.num_cols = x.num_cols;
  for (std::size_t j : order) {
    for (auto t = x.row_ptr[j]; t < x.row_ptr[j + 1]; ++t) {
      out.col_idx.push_back(x.col_idx[static_cast<std::size_t>(t)]);
      out.values.push_back(x.values[static_cast<std::size_t>(t)]);
    }
    out.row_ptr.push_back(static_cast<std::int64_t>(out.values.size()));
  }
  return out;
}

inline Params params_for(const SolverInfo& solver, LossKind loss) {
  Params params;
  params.solver = solver.kind;
  params.loss = loss;
  params.C = 0.5;
  params.threads = 1;
  if (solver.default_max_iter == 0) params.max_iter = 2000;  // Pegasos's updates
  return resolve_defaults(params);
}

// The binary problem of a data set (first class positive), with its rows.
inline Problem problem_of(const std::string& name, double cost = 1.0) {
  const Data& data = load(name);
  return one_vs_rest(data.file.features, data.classes, 0, cost, cost, &data.rows);
}

// ||w + sum_j u_j x_j|| with u_j = slope(j, x_j'w), from the columns: the
// norm of a primal gradient, computed apart from the solvers' objectives.
template <class Slope>
double gradient_norm_from_columns(const Problem& problem, const std::vector<double>& w,
                                  Slope slope) {
  const CscMatrix& x = problem.x();
  std::vector<double> score(problem.num_rows(), 0.0);
  for (std::size_t i = 0; i < x.num_cols; ++i) {
    for (auto k = x.col_ptr[i]; k < x.col_ptr[i + 1]; ++k) {
      const auto t = static_cast<std::size_t>(k);
      score[x.row_idx[t]] += w[i] * x.values[t];
    }
  }
  double norm = 0;
  for (std::size_t i = 0; i < x.num_cols; ++i) {
    double g = w[i];
    for (auto k = x.col_ptr[i]; k < x.col_ptr[i + 1]; ++k) {
      const auto t = static_cast<std::size_t>(k);
      g += slope(x.row_idx[t], score[x.row_idx[t]]) * x.values[t];
    }
    norm += g * g;
  }
  return std::sqrt(norm);
}

// Records every outer iteration and prints nothing.
class RecordingReporter : public Reporter {
 public:
  RecordingReporter() : Reporter(sink_, Level::kQuiet) {}
  void iteration(const IterationInfo& info) override { iterations.push_back(info); }
  bool observes_iterations() const override { return true; }
  std::vector<double> objectives() const {
    std::vector<double> out;
    for (const auto& info : iterations) out.push_back(info.objective);
    return out;
  }
  std::vector<IterationInfo> iterations;

 private:
  std::ostringstream sink_;
};

// A small SVM problem for dual CD: unequal class costs (C_pos = 2,
// C_neg = 0.5, as -wi gives), an empty row (2) and a held-out row (4).
struct SmallDualProblem {
  CsrMatrix rows = csr_from_dense(6, 3,
                                  {1.0, 0.0, 2.0,   //
                                   0.5, -1.0, 0.0,  //
                                   0.0, 0.0, 0.0,   //
                                   -2.0, 1.0, 1.0,  //
                                   0.0, 3.0, -1.0,  //
                                   1.5, 0.5, 0.5});
  CscMatrix x = to_csc(rows);
  std::vector<std::uint8_t> held_out{0, 0, 0, 0, 1, 0};
  Problem problem{x, &rows, {1, -1, 1, -1, 1, 1}, 2.0, 0.5, Task::kClassification, &held_out};
};

struct Optimum {
  const char* name;
  double f;
};

// f* of L2-SVM, C = 1: `liblinear-train -s 2 -e 0.0001 DATA MODEL` (LIBLINEAR
// 2.3.0), recomputed from the saved model by `build/bench_cd objective DATA MODEL`.
inline const Optimum kL2SvmOptima[] = {
    {"heart_scale", 121.134724522},
    {"rcv1_small", 194.888768867},
    {"svmlight_example1.train", 175.033181011},
};

// The Lasso's optimality conditions at w, for f = ||w||_1 + C ||y - Xw||^2
// with X the dense row-major l x n matrix: with the residual r = y - Xw in
// long double (from the matrix, not a solver's scores), x_i'r = sign(w_i)/(2C)
// where w_i != 0 and |x_i'r| <= 1/(2C) where w_i = 0, both to 1e-6. Returns
// the number of nonzero weights.
inline std::size_t expect_lasso_kkt(const std::vector<double>& dense, std::size_t l, std::size_t n,
                                    const std::vector<double>& y, const std::vector<double>& w,
                                    double C) {
  std::vector<long double> r(l);
  for (std::size_t j = 0; j < l; ++j) {
    long double s = 0;
    for (std::size_t i = 0; i < n; ++i) s += dense[j * n + i] * (long double)w[i];
    r[j] = y[j] - s;
  }
  const double half_lambda = 1.0 / (2.0 * C);
  std::size_t nonzeros = 0;
  for (std::size_t i = 0; i < n; ++i) {
    long double xr = 0;
    for (std::size_t j = 0; j < l; ++j) xr += dense[j * n + i] * r[j];
    if (w[i] == 0) {
      EXPECT_LE(std::fabs(static_cast<double>(xr)), half_lambda + 1e-6) << "feature " << i;
    } else {
      ++nonzeros;
      EXPECT_NEAR(static_cast<double>(xr), std::copysign(half_lambda, w[i]), 1e-6)
          << "feature " << i;
    }
  }
  return nonzeros;
}

}  // namespace cdl::test

#endif  // CDL_TESTS_SOLVER_TEST_UTIL_H_
