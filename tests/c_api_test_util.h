// What the tests of the C interface (tests/api/test_c_api*.cpp) share:
// handles released at the end of a scope, so that a failed ASSERT leaks
// nothing under ASan, and the weights of a model file's text.
#ifndef CDL_TESTS_C_API_TEST_UTIL_H_
#define CDL_TESTS_C_API_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "cdlinear_c.h"

namespace cdl::test {

struct DataHandle {
  cdl_data* handle = nullptr;
  ~DataHandle() { cdl_data_free(handle); }
};
struct ModelHandle {
  cdl_model* handle = nullptr;
  ~ModelHandle() { cdl_model_free(handle); }
};
struct OptionsHandle {
  cdl_options* handle = nullptr;
  OptionsHandle() { EXPECT_EQ(cdl_options_create(&handle), CDL_OK); }
  ~OptionsHandle() { cdl_options_free(handle); }
};

// The numbers after "w" in a model file: the weights, row after row.
inline std::vector<double> weights_in(const std::string& model_text) {
  std::istringstream in(model_text.substr(model_text.find("\nw\n") + 3));
  std::vector<double> out;
  for (double w; in >> w;) out.push_back(w);
  return out;
}

}  // namespace cdl::test

#endif  // CDL_TESTS_C_API_TEST_UTIL_H_
