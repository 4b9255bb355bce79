// Helpers shared by the solver tests: cached data sets, a recording reporter
// and LIBLINEAR's optima.
#ifndef CDL_TESTS_SOLVER_TEST_UTIL_H_
#define CDL_TESTS_SOLVER_TEST_UTIL_H_

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "data/libsvm_reader.h"
#include "data/problem.h"
#include "data/sparse_matrix.h"
#include "solvers/report.h"
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

// The binary problem of a data set (first class positive), with its rows.
inline Problem problem_of(const std::string& name, double cost = 1.0) {
  const Data& data = load(name);
  return one_vs_rest(data.file.features, data.classes, 0, cost, cost, &data.rows);
}

// Records every outer iteration and prints nothing.
class RecordingReporter : public Reporter {
 public:
  RecordingReporter() : Reporter(sink_, Level::kQuiet) {}
  void iteration(const IterationInfo& info) override { iterations.push_back(info); }
  std::vector<double> objectives() const {
    std::vector<double> out;
    for (const auto& info : iterations) out.push_back(info.objective);
    return out;
  }
  std::vector<IterationInfo> iterations;

 private:
  std::ostringstream sink_;
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

}  // namespace cdl::test

#endif  // CDL_TESTS_SOLVER_TEST_UTIL_H_
