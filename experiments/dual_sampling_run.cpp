// Drives the issue-11 experiments through the library (not cdtrain, whose
// -s dcd was not on this branch when they were run): adaptive dual CD with
// each --select rule on one data set, several seeds, writing one CSV row per
// epoch: data,rule,seed,epoch,primal,dual,gap,subopt,nnz_ops.
// subopt = D(alpha) - D*, with D* from a cyclic run to a gap of 1e-11 (or
// its lowest dual value, if that is lower than any run's).
//
//   dual_sampling_run DATA LOSS C EPOCHS SEEDS RULE[,RULE...] [SUBSAMPLE_ROWS]
//
// C <= 0 means lambda = 0.1, C = 1/(0.1 n), as in Perekrestenko et al.
// SUBSAMPLE_ROWS > 0 draws that many rows without replacement (seed 2265).
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "data/libsvm_reader.h"
#include "data/problem.h"
#include "objective/dual_state.h"
#include "select/random.h"
#include "solvers/params.h"
#include "solvers/report.h"
#include "solvers/solver_dcd_adaptive.h"

namespace {

cdl::LabeledCsc subsample(const cdl::LabeledCsc& file, std::size_t count) {
  cdl::CsrMatrix rows = cdl::to_csr(file.features);
  std::vector<std::size_t> order(rows.num_rows);
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::mt19937_64 rng(2265);
  cdl::shuffle(order, rng);
  order.resize(count);
  cdl::CsrMatrix sub;
  sub.num_rows = count;
  sub.num_cols = rows.num_cols;
  cdl::LabeledCsc out;
  for (std::size_t r : order) {
    for (auto k = rows.row_ptr[r]; k < rows.row_ptr[r + 1]; ++k) {
      const auto t = static_cast<std::size_t>(k);
      sub.col_idx.push_back(rows.col_idx[t]);
      sub.values.push_back(rows.values[t]);
    }
    sub.row_ptr.push_back(static_cast<std::int64_t>(sub.values.size()));
    out.labels.push_back(file.labels[r]);
  }
  out.features = cdl::to_csc(sub, rows.num_cols);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 7) {
    std::cerr << "usage: dual_sampling_run DATA LOSS C EPOCHS SEEDS RULES [SUBSAMPLE]\n";
    return 2;
  }
  const std::string path = argv[1];
  const cdl::LossKind loss =
      std::string(argv[2]) == "l2svm" ? cdl::LossKind::kL2Svm : cdl::LossKind::kL1Svm;
  double C = std::atof(argv[3]);
  const std::int64_t epochs = std::atoll(argv[4]);
  const int seeds = std::atoi(argv[5]);
  std::vector<std::string> rules;
  std::stringstream list(argv[6]);
  for (std::string r; std::getline(list, r, ',');) rules.push_back(r);
  const std::size_t sub = argc > 7 ? static_cast<std::size_t>(std::atoll(argv[7])) : 0;

  cdl::ReadOptions options;
  options.integer_labels = true;
  cdl::LabeledCsc file = cdl::read_libsvm_csc(path, options);
  if (sub > 0) file = subsample(file, sub);
  const cdl::ClassMap classes = cdl::map_classes(file.labels);
  const std::size_t n = file.features.num_rows;
  if (C <= 0) C = 1.0 / (0.1 * static_cast<double>(n));
  const cdl::CsrMatrix rows = cdl::to_csr(file.features);
  const cdl::Problem problem = cdl::one_vs_rest(file.features, classes, 0, C, C, &rows);
  std::ostringstream sink;
  cdl::Reporter quiet(sink, cdl::Reporter::Level::kQuiet);

  cdl::Params long_run;
  long_run.eps = 0.0;
  long_run.max_iter = 20000;
  double best = 0;
  cdl::solve_dcd_with_rule(problem, loss, "cyclic", 1, long_run, quiet, 1e-11,
                           [&](const cdl::DualEpochInfo& info) { best = info.dual; });
  std::cerr << path << ": n=" << n << " nnz=" << file.features.nnz() << " C=" << C << " D*=" << best
            << "\n";

  struct Row {
    std::string rule;
    int seed;
    cdl::DualEpochInfo info;
  };
  std::vector<Row> out;
  cdl::Params params;
  params.eps = 0.0;
  params.max_iter = epochs;
  params.exact_gaps = true;  // the paper's per-step gaps, on any data
  for (const std::string& rule : rules) {
    const bool randomized = cdl::find_rule(rule)->randomized;
    for (int seed = 1; seed <= (randomized ? seeds : 1); ++seed) {
      cdl::solve_dcd_with_rule(problem, loss, rule, static_cast<std::uint64_t>(seed), params, quiet,
                               0, [&](const cdl::DualEpochInfo& info) {
                                 out.push_back({rule, seed, info});
                                 if (info.dual < best) best = info.dual;
                               });
    }
    std::cerr << "  " << rule << " done\n";
  }
  std::printf("data,rule,seed,epoch,primal,dual,gap,subopt,nnz_ops\n");
  for (const Row& r : out) {
    std::printf("%s,%s,%d,%lld,%.17g,%.17g,%.17g,%.17g,%lld\n", path.c_str(), r.rule.c_str(),
                r.seed, static_cast<long long>(r.info.epoch), r.info.primal, r.info.dual,
                r.info.gap, r.info.dual - best, static_cast<long long>(r.info.nnz_ops));
  }
  return 0;
}
