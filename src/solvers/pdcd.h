// The state and one coordinate step of the primal-dual coordinate descent of
// solver_pdcd.cpp (whose opening comment gives the problem, the paper and
// the equations), apart from the loop, so that tests can drive chosen
// coordinates (Section 2.4's example) and read the iterate.
#ifndef CDL_SOLVERS_PDCD_H_
#define CDL_SOLVERS_PDCD_H_

#include <cstddef>
#include <optional>
#include <vector>

#include "data/problem.h"
#include "solvers/solver_options.h"

namespace cdl {

// pdcd's own options: --pd-sigma, the dual step sigma of the intercept's
// dual variables (Algorithm 2 with M = I, in cdtrain's scaling; default per
// data set, default_pd_sigma()), and --tau-factor: each primal step is this
// share of Assumption 1(e)'s bound.
struct PdcdOptions {
  std::optional<double> sigma;
  double tau_factor = 0.95;
};
const OptionGroup* pd_step_options();

// sigma's default for a problem, 3 mean_j ||x_j||^2 over the rows that
// count: see solver_pdcd.cpp. O(#nz).
double default_pd_sigma(const Problem& problem);

class PrimalDualCd {
 public:
  // `problem` needs its rows (CSR) and must outlive the object. sigma >= 0
  // is the dual step of every dual coordinate (0: h is ignored, plain CD
  // on f + g); tau_factor scales the bound of Assumption 1(e). Starts at
  // alpha = 0, y = 0.
  PrimalDualCd(const Problem& problem, double sigma, double tau_factor);

  // The rows that count (C_j > 0); the steps take their positions in this
  // list, 0 .. active_count() - 1.
  std::size_t active_count() const { return active_.size(); }
  // One iteration of Algorithm 2 on the k-th active row. O(nonzeros of it).
  void step(std::size_t k);

  const std::vector<double>& alpha() const { return alpha_; }  // size l
  double tau(std::size_t k) const { return tau_[k]; }
  // z: the mean of the dual copies, the running estimate of w0.
  double intercept_estimate() const { return z_; }
  // r = y'alpha, the constraint residual.
  double residual() const { return r_; }

 private:
  const Problem& problem_;
  std::vector<std::size_t> active_;
  std::vector<double> tau_;    // per active row
  std::vector<double> alpha_;  // per row
  std::vector<double> t_;      // per active row: y_j times its dual copy
  std::vector<double> v_;      // sum_j alpha_j y_j x_j (= w)
  double sigma_over_n_;        // sigma / active_count()
  double z_ = 0;               // mean of t_
  double r_ = 0;               // y'alpha
};

}  // namespace cdl

#endif  // CDL_SOLVERS_PDCD_H_
