// Calling cdlinear from a program: read data, train two models, save one,
// load it back, predict, build data from arrays in memory, and catch the
// error of a malformed file. Build it
// against an installed cdlinear (make install PREFIX=...):
//
//   g++ -std=c++17 library-example.cpp -I$PREFIX/include -L$PREFIX/lib -lcdlinear -pthread
//
// Run it as `a.out data/heart_scale scratch_dir`.
#include <cdlinear.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s data_file scratch_dir\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[2];
  try {
    const cdlinear::Data data = cdlinear::Data::read(argv[1]);
    std::printf("%zu instances, %zu features\n", data.size(), data.num_features());

    // LIBLINEAR's -s 2 (the L2-loss SVM, primal), and cdtrain's default (cdper).
    cdlinear::TrainOptions options;
    options.solver = "2";
    const cdlinear::Model tron = cdlinear::train(data, options);
    const cdlinear::Model cdper = cdlinear::train(data);
    const auto report = [&data](const char* name, const cdlinear::Model& model) {
      std::printf("%s (%s): training accuracy %.4f%%\n", name, model.solver_type().c_str(),
                  100 * cdlinear::accuracy(model.predict(data), data.labels()));
    };
    report("-s 2", tron);
    report("default", cdper);

    // Save, load, and predict one instance with the loaded model.
    cdper.save(dir + "/heart_scale.model");
    const cdlinear::Model loaded = cdlinear::Model::load(dir + "/heart_scale.model");
    const cdlinear::Instance first = data.instance(0);
    std::printf("loaded: same text %s; instance 1: label %g, decision value %.6f\n",
                loaded.to_string() == cdper.to_string() ? "yes" : "no", loaded.predict(first),
                loaded.decision_values(first)[0]);

    // The same instances as CSR arrays in memory (scipy.sparse's layout,
    // 0-based columns), trained to the same model.
    std::vector<std::int64_t> indptr{0};
    std::vector<std::int32_t> indices;
    std::vector<double> values;
    for (std::size_t j = 0; j < data.size(); ++j) {
      for (const cdlinear::Feature& f : data.instance(j)) {
        indices.push_back(f.index - 1);
        values.push_back(f.value);
      }
      indptr.push_back(static_cast<std::int64_t>(values.size()));
    }
    cdlinear::SparseArrays x;
    x.rows = data.size();
    x.cols = data.num_features();
    x.nnz = values.size();
    x.indptr = indptr.data();  // int64 by default
    x.indices = indices.data();
    x.indices_type = cdlinear::IndexType::kInt32;
    x.values = values.data();  // float64 by default
    const cdlinear::Model from_arrays = cdlinear::train(cdlinear::Data::from_csr(x, data.labels()));
    std::printf("from arrays: same model %s, %lld outer iterations, w_1 = %.6f\n",
                from_arrays.to_string() == cdper.to_string() ? "yes" : "no",
                static_cast<long long>(from_arrays.iterations()[0]), from_arrays.weights()[0]);
  } catch (const cdlinear::Error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }

  // A malformed file: the error names its path and line.
  const std::string bad = dir + "/bad.svm";
  std::ofstream(bad) << "+1 1:0.5 2:1\n-1 3:0.25 2:1\n";
  try {
    cdlinear::Data::read(bad);
    std::printf("no error for %s\n", bad.c_str());
    return 1;
  } catch (const cdlinear::ParseError& e) {
    std::printf("caught: line %lld: %s\n", static_cast<long long>(e.line()), e.reason().c_str());
  }
  return 0;
}
