// cdlinear::CsrFile: a file's CSR arrays are Data::read()'s instances, the
// arrays outlive the handle they came from in its copies, and errors are
// Data::read()'s.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>

#include "cdlinear.h"
#include "test_util.h"

namespace cdl {
namespace {

void expect_file_as_data(const std::string& path, unsigned threads) {
  const cdlinear::CsrFile file = cdlinear::CsrFile::read(path, threads);
  const cdlinear::Data data = cdlinear::Data::read(path);
  ASSERT_EQ(file.rows(), data.size()) << path;
  EXPECT_EQ(file.cols(), data.num_features()) << path;
  EXPECT_EQ(file.labels(), data.labels()) << path;
  ASSERT_EQ(file.indptr()[0], 0);
  std::size_t k = 0;
  for (std::size_t row = 0; row < data.size(); ++row) {
    for (const cdlinear::Feature& feature : data.instance(row)) {
      ASSERT_LT(k, file.nnz()) << path << " row " << row;
      EXPECT_EQ(file.indices()[k], feature.index - 1) << path << " row " << row;
      EXPECT_EQ(file.values()[k], feature.value) << path << " row " << row;
      ++k;
    }
    ASSERT_EQ(file.indptr()[row + 1], static_cast<std::int64_t>(k)) << path << " row " << row;
  }
  EXPECT_EQ(k, file.nnz()) << path;
}

TEST(CsrFile, HoldsTheInstancesDataReadGives) {
  for (const char* name : {"heart_scale", "dna.scale", "w8a", "svmlight_example1.test"}) {
    for (unsigned threads : {1u, 2u, 0u}) expect_file_as_data(test::data_path(name), threads);
  }
}

TEST(CsrFile, ACopyKeepsTheArraysAlive) {
  std::optional<cdlinear::CsrFile> first(cdlinear::CsrFile::read(test::data_path("heart_scale")));
  const cdlinear::CsrFile copy = *first;
  const double* values = first->values();
  const double last = values[first->nnz() - 1];
  first.reset();
  EXPECT_EQ(copy.values(), values);
  EXPECT_EQ(copy.values()[copy.nnz() - 1], last);
  EXPECT_EQ(copy.rows(), 270u);
}

TEST(CsrFile, ErrorsAreDataReads) {
  test::ScratchDir dir;
  const std::string bad = dir.write("bad.svm", "+1 1:0.5 2:1\n-1 3:0.25 2:1\n");
  try {
    cdlinear::CsrFile::read(bad);
    FAIL() << "read a file whose second line has a decreasing index";
  } catch (const cdlinear::ParseError& e) {
    EXPECT_EQ(e.line(), 2);
    EXPECT_NE(std::string(e.what()).find(bad + ":2:"), std::string::npos) << e.what();
  }
  EXPECT_THROW(cdlinear::CsrFile::read(dir.file("missing.svm")), cdlinear::IoError);
  EXPECT_THROW(cdlinear::CsrFile::read(dir.write("empty.svm", "")), cdlinear::DataError);
}

}  // namespace
}  // namespace cdl
