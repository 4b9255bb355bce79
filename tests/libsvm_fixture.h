// LIBSVM's results for the SVM with an unregularized intercept, stored in
// tests/fixtures (see its README for the commands): the figures of
// libsvm_linear.txt and the dual solution alpha of a kept model file.
#ifndef CDL_TESTS_LIBSVM_FIXTURE_H_
#define CDL_TESTS_LIBSVM_FIXTURE_H_

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "data/problem.h"
#include "test_util.h"
#include "util/error.h"

namespace cdl::test {

struct LibsvmFigures {
  double objective;  // the optimum of P: minus LIBSVM's printed obj
  double intercept;  // w0 = -rho
  double accuracy;   // training accuracy, percent
};

// The row of libsvm_linear.txt for `data` with class -1's weight `weight`.
inline LibsvmFigures libsvm_figures(const std::string& data, double weight = 1.0) {
  std::istringstream in(read_file(fixture_path("libsvm_linear.txt")));
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string name;
    double c = 0, w = 0, obj = 0, rho = 0, accuracy = 0;
    fields >> name >> c >> w >> obj >> rho >> accuracy;
    if (name == data && w == weight) return {-obj, -rho, accuracy};
  }
  throw Error("no LIBSVM figures for " + data);
}

// alpha (one per row of `rows`, labels y) of a LIBSVM model file whose first
// label is +1: each support vector "coef i:v ..." is matched to an unused
// training row with the same features (exactly: LIBSVM writes the values it
// read), and alpha_j = |coef|.
inline std::vector<double> libsvm_alpha(const std::string& model_file, const CsrMatrix& rows) {
  std::istringstream in(read_file(fixture_path(model_file)));
  std::string line;
  while (std::getline(in, line) && line != "SV") {
    if (line.rfind("label", 0) == 0 && line != "label 1 -1") throw Error("label order");
  }
  std::vector<double> alpha(rows.num_rows, 0.0);
  std::vector<char> used(rows.num_rows, 0);
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::istringstream fields(line);
    double coef = 0;
    fields >> coef;
    std::vector<std::pair<Index, double>> sv;
    std::string token;
    while (fields >> token) {
      const auto colon = token.find(':');
      const double value = std::stod(token.substr(colon + 1));
      if (value != 0)
        sv.emplace_back(static_cast<Index>(std::stoul(token.substr(0, colon)) - 1), value);
    }
    bool found = false;
    for (std::size_t j = 0; j < rows.num_rows && !found; ++j) {
      if (used[j]) continue;
      std::vector<std::pair<Index, double>> row;
      for (auto k = rows.row_ptr[j]; k < rows.row_ptr[j + 1]; ++k) {
        const auto t = static_cast<std::size_t>(k);
        if (rows.values[t] != 0) row.emplace_back(rows.col_idx[t], rows.values[t]);
      }
      if (row == sv) {
        used[j] = 1;
        alpha[j] = std::fabs(coef);
        found = true;
      }
    }
    if (!found) throw Error("support vector matches no row: " + line);
  }
  return alpha;
}

}  // namespace cdl::test

#endif  // CDL_TESTS_LIBSVM_FIXTURE_H_
