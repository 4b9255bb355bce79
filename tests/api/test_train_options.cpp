// TrainOptions's solver options give cdtrain's model bytes for the same
// flags: nu, -R, --select, --partitions and the solvers' own settings.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cdlinear.h"
#include "test_util.h"

namespace cdl {
namespace {

struct Case {
  const char* name;
  cdlinear::TrainOptions options;
  std::string flags;
};

std::vector<Case> cases() {
  std::vector<Case> out;
  const auto add = [&](const char* name, const std::string& flags, auto set) {
    cdlinear::TrainOptions o;
    set(o);
    out.push_back({name, o, flags});
  };
  add("oneclass_nu", "-s 21 -n 0.1", [](auto& o) {
    o.solver = "21";
    o.nu = 0.1;
  });
  add("free_bias_tron", "-s 2 -B 1 -R", [](auto& o) {
    o.solver = "2";
    o.bias = 1;
    o.free_bias = true;
  });
  add("free_bias_l1", "-s 5 -B 1 -R", [](auto& o) {
    o.solver = "5";
    o.bias = 1;
    o.free_bias = true;
  });
  add("select_importance", "-s cd --select importance --seed 3", [](auto& o) {
    o.solver = "cd";
    o.select = "importance";
    o.seed = 3;
  });
  add("dcd_select_no_shrink", "-s dcd --select ada-gap --no-shrink --exact-gaps", [](auto& o) {
    o.solver = "dcd";
    o.select = "ada-gap";
    o.shrink = false;
    o.exact_gaps = true;
  });
  add("cdper_partitions", "-s cdper --partitions 3 -m 2", [](auto& o) {
    o.solver = "cdper";
    o.partitions = 3;
    o.threads = 2;
  });
  add("dcd_fixed_parts", "-s dcd --partitions 2 --fixed-parts --gap-tol 0.01", [](auto& o) {
    o.solver = "dcd";
    o.partitions = 2;
    o.fixed_parts = true;
    o.gap_tol = 0.01;
  });
  add("cd_sigma_beta", "-s cd -l lr --sigma 0.1 --beta 0.3", [](auto& o) {
    o.solver = "cd";
    o.loss = "lr";
    o.sigma = 0.1;
    o.beta = 0.3;
  });
  add("pegasos_batch", "-s pegasos -k 4 --max-iter 500", [](auto& o) {
    o.solver = "pegasos";
    o.pegasos_batch = 4;
    o.max_iter = 500;
  });
  add("pdcd_steps", "-s pdcd --pd-sigma 2 --tau-factor 0.5", [](auto& o) {
    o.solver = "pdcd";
    o.pd_sigma = 2;
    o.tau_factor = 0.5;
  });
  return out;
}

TEST(TrainOptions, SolverOptionsGiveCdtrainsModelBytes) {
  test::ScratchDir dir;
  const std::string data_file = test::data_path("heart_scale");
  const cdlinear::Data data = cdlinear::Data::read(data_file);
  for (const Case& c : cases()) {
    SCOPED_TRACE(std::string(c.name) + ": cdtrain " + c.flags);
    const std::string tool_model = dir.file(std::string(c.name) + ".model");
    const auto r = test::run_tool("cdtrain", "-q " + c.flags + " " + data_file + " " + tool_model);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(cdlinear::train(data, c.options).to_string(), test::read_file(tool_model));
  }
}

TEST(TrainOptions, InitialModelIsCdtrainsMinusI) {
  test::ScratchDir dir;
  struct Start {
    std::string file;
    std::string start_flags;
    std::string flags;
    cdlinear::TrainOptions options;
  };
  cdlinear::TrainOptions multi;
  multi.solver = "cdper";
  multi.bias = 1;
  cdlinear::TrainOptions ridge;
  ridge.loss = "sq";
  ridge.C = 2;
  cdlinear::TrainOptions lr;
  lr.solver = "tron";
  lr.loss = "lr";
  for (const Start& c : std::vector<Start>{
           {test::data_path("dna.scale"), "-s cdper -B 1 -c 0.1 -e 0.5", "-s cdper -B 1", multi},
           {test::fixture_path("diabetes.svm"), "-l sq -e 0.5", "-l sq -c 2", ridge},
           {test::data_path("heart_scale"), "-s tron -l lr -c 4", "-s tron -l lr", lr}}) {
    SCOPED_TRACE(c.flags);
    const std::string start = dir.file("start.model");
    const std::string tool_model = dir.file("tool.model");
    ASSERT_EQ(test::run_tool("cdtrain", "-q " + c.start_flags + " " + c.file + " " + start).status,
              0);
    const auto r = test::run_tool(
        "cdtrain", "-q " + c.flags + " -i " + start + " " + c.file + " " + tool_model);
    ASSERT_EQ(r.status, 0) << r.err;
    const cdlinear::Model from = cdlinear::Model::load(start);
    cdlinear::TrainOptions options = c.options;
    options.initial_model = &from;
    const cdlinear::Data data = cdlinear::Data::read(c.file);
    const std::string model = cdlinear::train(data, options).to_string();
    EXPECT_EQ(model, test::read_file(tool_model));
  }
  // Starts that do not fit.
  const cdlinear::Data heart = cdlinear::Data::read(test::data_path("heart_scale"));
  const cdlinear::Model heart_model = cdlinear::train(heart);
  cdlinear::TrainOptions bad;
  bad.initial_model = &heart_model;
  bad.bias = 1;
  EXPECT_THROW(cdlinear::train(heart, bad), cdlinear::ConfigError);  // bias differs
  bad.bias = -1;
  EXPECT_THROW(cdlinear::train(cdlinear::Data::read(test::data_path("dna.scale")), bad),
               cdlinear::ConfigError);  // other labels
  bad.solver = "dcd";
  EXPECT_THROW(cdlinear::train(heart, bad), cdlinear::ConfigError);  // a dual solver
  bad.solver.clear();
  EXPECT_THROW(cdlinear::cross_validate(heart, 5, bad), cdlinear::ConfigError);
}

TEST(TrainOptions, OptionsCdtrainRefusesAreConfigErrors) {
  const cdlinear::Data data = cdlinear::Data::read(test::data_path("heart_scale"));
  std::vector<cdlinear::TrainOptions> bad(7);
  bad[0].nu = 0.5;  // not one-class
  bad[1].solver = "21";
  bad[1].nu = 1.5;
  bad[2].free_bias = true;  // no bias
  bad[3].select = "nonsense";
  bad[4].partitions = 0;
  bad[5].sigma = 0.7;
  bad[6].threads = 5000;
  for (std::size_t k = 0; k < bad.size(); ++k) {
    SCOPED_TRACE(k);
    EXPECT_THROW(cdlinear::train(data, bad[k]), cdlinear::ConfigError);
  }
}

}  // namespace
}  // namespace cdl
