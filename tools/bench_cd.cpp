// Benchmark of the two costs the README reports for the CD solvers:
//
//   bench_cd read FILE [T]      seconds to read FILE row-wise (CSR, one pass)
//                               and straight into columns (CSC, two passes,
//                               T threads; default one per core)
//   bench_cd objective FILE MODEL [C]
//                               f(w) of equation (1) for a binary model (ours
//                               or LIBLINEAR's; L2-SVM, L1-SVM or LR by its
//                               solver_type) on FILE, so that both tools'
//                               models are scored by one formula
//   bench_cd sweep FILE [K]     seconds of one CDPER outer iteration against a
//                               bare sweep over the CSC arrays, averaged over K
//                               iterations (default 5), as medians
//
// The bare sweep is the floor of any primal CD iteration: for each column it
// computes D'_i(0) and D''_i(0) of L2-SVM (paper, equations 9 and 10) over the
// column's nonzeros, takes the Newton step, and updates b_j by equation (17).
// It has no line search, no permutation and no bookkeeping.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "data/libsvm_reader.h"
#include "data/parse_number.h"
#include "data/problem.h"
#include "model/model.h"
#include "objective/evaluate.h"
#include "objective/objective.h"
#include "solvers/params.h"
#include "solvers/solver.h"
#include "train/train.h"
#include "util/error.h"

namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

int bench_read(const std::string& path, unsigned threads) {
  auto start = Clock::now();
  const cdl::LabeledCsr csr = cdl::read_libsvm_csr(path);
  const double csr_seconds = seconds_since(start);
  start = Clock::now();
  cdl::ReadOptions options;
  options.threads = threads;
  const cdl::LabeledCsc csc = cdl::read_libsvm_csc(path, options);
  const double csc_seconds = seconds_since(start);
  std::printf("rows %zu  features %zu  nonzeros %zu\n", csc.features.num_rows,
              csc.features.num_cols, csc.features.nnz());
  std::printf("read CSR (one pass)   %.3f s\n", csr_seconds);
  std::printf("read CSC (two passes) %.3f s\n", csc_seconds);
  return 0;
}

// One bare sweep over all columns; b_j = 1 - y_j w'x_j, C = 1.
void bare_sweep(const cdl::CscMatrix& x, const std::vector<double>& y, std::vector<double>& w,
                std::vector<double>& b) {
  for (std::size_t i = 0; i < x.num_cols; ++i) {
    const auto begin = static_cast<std::size_t>(x.col_ptr[i]);
    const auto end = static_cast<std::size_t>(x.col_ptr[i + 1]);
    double d1 = 0;
    double d2 = 0;
    for (std::size_t k = begin; k < end; ++k) {
      const std::size_t j = x.row_idx[k];
      if (b[j] > 0) {
        const double v = x.values[k];
        d1 -= 2.0 * y[j] * v * b[j];
        d2 += 2.0 * v * v;
      }
    }
    const double z = -(w[i] + d1) / (1.0 + d2);
    w[i] += z;
    for (std::size_t k = begin; k < end; ++k) {
      const std::size_t j = x.row_idx[k];
      b[j] -= z * y[j] * x.values[k];
    }
  }
}

class TimingReporter : public cdl::Reporter {
 public:
  TimingReporter() : Reporter(sink_, Level::kQuiet) {}
  void iteration(const cdl::IterationInfo& info) override { seconds.push_back(info.seconds); }
  std::vector<double> seconds;

 private:
  std::ostringstream sink_;
};

// f(w) of equation (1) for a binary model, with the loss its solver_type
// names (L2-SVM, L1-SVM or logistic regression).
int bench_objective(const std::string& data_path, const std::string& model_path, double cost) {
  const cdl::LinearModel model = cdl::load_model(model_path);
  if (model.nr_w() != 1) throw cdl::Error(model_path + ": objective needs a binary model");
  cdl::LossKind loss = cdl::LossKind::kL2Svm;
  if (model.solver_type == "L2R_L1LOSS_SVC_DUAL") {
    loss = cdl::LossKind::kL1Svm;
  } else if (model.solver_type == "L2R_LR" || model.solver_type == "L2R_LR_DUAL") {
    loss = cdl::LossKind::kLogistic;
  } else if (model.solver_type != "L2R_L2LOSS_SVC" && model.solver_type != "L2R_L2LOSS_SVC_DUAL") {
    throw cdl::Error(model_path + ": no objective for " + model.solver_type);
  }
  cdl::ReadOptions options;
  options.integer_labels = true;
  options.bias = model.bias;
  const cdl::LabeledCsc data = cdl::read_libsvm_csc(data_path, options);
  // The model's first label is the positive class; every other label negative.
  cdl::ClassMap classes{model.labels, {}};
  for (double label : data.labels) {
    classes.class_of.push_back(static_cast<int>(label) == model.labels[0] ? 0 : 1);
  }
  const std::vector<double> w =
      cdl::initial_weights(model, classes, data.features.num_cols, model.bias)[0];
  const cdl::Problem problem = cdl::one_vs_rest(data.features, classes, 0, cost, cost);
  std::printf("%.12g\n", cdl::evaluate(problem, loss, w).objective);
  return 0;
}

int bench_sweep(const std::string& path, int iterations) {
  cdl::ReadOptions options;
  options.integer_labels = true;
  const cdl::LabeledCsc data = cdl::read_libsvm_csc(path, options);
  const cdl::ClassMap classes = cdl::map_classes(data.labels);
  const cdl::Problem problem = cdl::one_vs_rest(data.features, classes, 0, 1.0, 1.0);

  std::vector<double> w(problem.num_features(), 0.0);
  std::vector<double> b(problem.num_rows(), 1.0);
  std::vector<double> sweep_seconds;
  for (int k = 0; k < iterations; ++k) {
    const auto start = Clock::now();
    bare_sweep(data.features, problem.y, w, b);
    sweep_seconds.push_back(seconds_since(start));
  }

  cdl::Params params;
  params.eps = 1e-12;
  params.max_iter = iterations;
  auto objective = cdl::make_coordinate_objective(cdl::LossKind::kL2Svm, problem);
  cdl::PermutationOrder order(problem.num_features(), 1, true);
  TimingReporter reporter;
  const cdl::SolveResult result = cdl::solve_cd(*objective, order, params, reporter);
  std::vector<double> cdper_seconds;
  for (std::size_t k = 0; k < reporter.seconds.size(); ++k) {
    cdper_seconds.push_back(reporter.seconds[k] - (k == 0 ? 0.0 : reporter.seconds[k - 1]));
  }
  const double sweep = median(sweep_seconds);
  const double cdper = median(cdper_seconds);

  std::printf("rows %zu  features %zu  nonzeros %zu  iterations %d\n", problem.num_rows(),
              problem.num_features(), data.features.nnz(), iterations);
  std::printf("bare sweep            median %.4f s/iteration (min %.4f)\n", sweep,
              *std::min_element(sweep_seconds.begin(), sweep_seconds.end()));
  std::printf("CDPER outer iteration median %.4f s/iteration (min %.4f)\n", cdper,
              *std::min_element(cdper_seconds.begin(), cdper_seconds.end()));
  std::printf("ratio of medians      %.2f\n", cdper / sweep);
  std::printf("CDPER full Newton steps %.3f%%, D evaluations per inner iteration %.3f\n",
              100.0 * static_cast<double>(result.full_newton_steps) /
                  static_cast<double>(result.inner_iterations),
              static_cast<double>(result.function_evaluations) /
                  static_cast<double>(result.inner_iterations));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::vector<std::string> args(argv + 1, argv + argc);
    unsigned threads = 0;
    double cost = 1.0;
    int iterations = 5;
    if ((args.size() == 2 || (args.size() == 3 && cdl::parse_integer(args[2], threads))) &&
        args[0] == "read") {
      return bench_read(args[1], threads);
    }
    if ((args.size() == 3 || (args.size() == 4 && cdl::parse_double(args[3], cost))) &&
        args[0] == "objective") {
      return bench_objective(args[1], args[2], cost);
    }
    if ((args.size() == 2 ||
         (args.size() == 3 && cdl::parse_integer(args[2], iterations) && iterations > 0)) &&
        args[0] == "sweep") {
      return bench_sweep(args[1], iterations);
    }
    std::cerr << "usage: bench_cd read FILE [threads] | bench_cd objective FILE MODEL [C] |\n"
                 "       bench_cd sweep FILE [iterations]\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "bench_cd: error: " << e.what() << '\n';
    return 1;
  }
}
