// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "sim/program.h"

#include <cmath>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace schedsim::sim {
namespace {

using ::testing::HasSubstr;

TEST(ProgramBuilderTest, LoopsAreMatchedAndExitAppended) {
  ProgramBuilder b("p");
  b.Loop(3).Compute(Dist::Constant(10)).Loop(2).Send(0).EndLoop().EndLoop();
  absl::StatusOr<Program> p = b.Build();
  ASSERT_TRUE(p.ok()) << p.status();
  ASSERT_EQ(p->ops.size(), 7u);
  EXPECT_EQ(p->ops[4].code, OpCode::kEndLoop);
  EXPECT_EQ(p->ops[4].arg, 2);  // the inner loop's index
  EXPECT_EQ(p->ops[5].arg, 0);
  EXPECT_EQ(p->ops.back().code, OpCode::kExit);
  EXPECT_EQ(p->loop_depth, 2);
}

TEST(ProgramBuilderTest, MalformedProgramsAreRejected) {
  ProgramBuilder open("open");
  open.Loop(2).Yield();
  EXPECT_THAT(open.Build().status().message(), HasSubstr("never closed"));
  ProgramBuilder stray("stray");
  stray.EndLoop();
  EXPECT_THAT(stray.Build().status().message(), HasSubstr("no matching loop"));
  ProgramBuilder deep("deep");
  for (int i = 0; i < 5; ++i) deep.Loop(1);
  for (int i = 0; i < 5; ++i) deep.EndLoop();
  EXPECT_THAT(deep.Build().status().message(), HasSubstr("nest 5 deep"));
  ProgramBuilder bad("bad");
  bad.Sleep(Dist::Uniform(10, 5));
  EXPECT_THAT(bad.Build().status().message(),
              HasSubstr("uniform needs a <= b"));
}

TEST(DistTest, SamplesAreDeterministicAndHaveTheRightMean) {
  Rng a(5), b(5);
  Dist d = Dist::Exponential(1000);
  double sum = 0;
  for (int i = 0; i < 20000; ++i) {
    int64_t x = d.Sample(a);
    EXPECT_EQ(x, d.Sample(b));
    EXPECT_GE(x, 0);
    sum += static_cast<double>(x);
  }
  EXPECT_NEAR(sum / 20000, 1000, 30);
  Rng r(1);
  EXPECT_EQ(Dist::Constant(42).Sample(r), 42);
  for (int i = 0; i < 100; ++i) {
    int64_t u = Dist::Uniform(3, 5).Sample(r);
    EXPECT_GE(u, 3);
    EXPECT_LE(u, 5);
  }
  EXPECT_NEAR(Dist::LogNormal(1000, 500).Mean(), 1000 * std::exp(0.125), 1e-6);
}

}  // namespace
}  // namespace schedsim::sim
