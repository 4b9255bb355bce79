// The library reaches dcd-maxent through the solver table alone: trained
// from CSR arrays with TrainOptions, it gives cdtrain's model file, and its
// probabilities are the softmax of its decision values.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "cdlinear.h"
#include "test_util.h"
#include "text_arrays.h"

namespace cdl {
namespace {

TEST(MaxentLibrary, FromArraysGivesCdtrainsModelAndSoftmaxProbabilities) {
  test::ScratchDir dir;
  const std::string file = test::data_path("dna.scale");
  const auto r =
      test::run_tool("cdtrain", "-q -s dcd-maxent -c 0.5 -B 1 -m 2 " + file + " " + dir.file("m"));
  ASSERT_EQ(r.status, 0) << r.err;

  const auto a = test::text_arrays<std::int64_t, std::int64_t>(file);
  cdlinear::SparseArrays x;
  x.rows = a.rows;
  x.cols = a.cols;
  x.nnz = a.values.size();
  x.indptr = a.row_ptr.data();
  x.indptr_type = cdlinear::IndexType::kInt64;
  x.indices = a.col_idx.data();
  x.indices_type = cdlinear::IndexType::kInt64;
  x.values = a.values.data();
  const cdlinear::Data data = cdlinear::Data::from_csr(x, a.labels);
  cdlinear::TrainOptions options;
  options.solver = "dcd-maxent";
  options.C = 0.5;
  options.bias = 1;
  const cdlinear::Model model = cdlinear::train(data, options);
  EXPECT_EQ(model.to_string(), test::read_file(dir.file("m")));

  ASSERT_TRUE(model.has_probabilities());
  for (std::size_t i = 0; i < data.size(); i += 97) {
    const std::vector<double> decision = model.decision_values(data.instance(i));
    const std::vector<double> p = model.probabilities(data.instance(i));
    ASSERT_EQ(p.size(), decision.size());
    double sum = 0;
    for (double d : decision) sum += std::exp(d);
    for (std::size_t k = 0; k < p.size(); ++k)
      EXPECT_NEAR(p[k], std::exp(decision[k]) / sum, 1e-12);
  }
}

}  // namespace
}  // namespace cdl
