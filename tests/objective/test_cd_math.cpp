#include <gtest/gtest.h>

#include "objective/cd_math.h"

namespace cdl {
namespace {

TEST(CdMath, NewtonDirectionOfAQuadraticIsItsMinimizer) {
  // D(z) = 3 z^2 + 2 z: D'(0) = 2, D''(0) = 6, minimum at -1/3.
  EXPECT_DOUBLE_EQ(newton_direction(2.0, 6.0), -1.0 / 3.0);
}

TEST(CdMath, NewtonDirectionFloorsTheSecondDerivative) {
  EXPECT_DOUBLE_EQ(newton_direction(1.0, 0.0), -1.0 / kMinSecondDerivative);
}

TEST(CdMath, SufficientDecreaseIsEquation12) {
  // D(z) - D(0) <= -sigma z^2
  EXPECT_TRUE(sufficient_decrease(-0.01, 1.0, 0.01));
  EXPECT_FALSE(sufficient_decrease(-0.0099, 1.0, 0.01));
  EXPECT_TRUE(sufficient_decrease(-0.04, -2.0, 0.01));
  EXPECT_FALSE(sufficient_decrease(0.0, 0.5, 0.01));
}

TEST(CdMath, LambdaBarIsEquation15) {
  // D''(0) / (H/2 + sigma)
  EXPECT_DOUBLE_EQ(lambda_bar(3.0, 4.0, 0.5), 3.0 / 2.5);
}

TEST(CdMath, StepsUpToLambdaBarDecreaseAQuadraticEnough) {
  // For a quadratic D with D'' = H, Theorem 1 says every lambda <= lambda_bar
  // passes (12), with equality at lambda_bar; check it on a grid below.
  const double d1 = -4.0;
  const double d2 = 5.0;
  const double sigma = 0.01;
  const double bar = lambda_bar(d2, d2, sigma);
  const double d = newton_direction(d1, d2);
  for (double lambda = bar * (1 - 1e-9); lambda > 1e-6; lambda *= 0.7) {
    const double z = lambda * d;
    EXPECT_TRUE(sufficient_decrease(d1 * z + 0.5 * d2 * z * z, z, sigma)) << lambda;
  }
  const double beyond = 1.01 * bar * d;
  EXPECT_FALSE(sufficient_decrease(d1 * beyond + 0.5 * d2 * beyond * beyond, beyond, sigma));
}

}  // namespace
}  // namespace cdl
