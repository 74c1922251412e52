// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "cli/progress.h"

#include <sstream>
#include <thread>  // NOLINT(build/c++11)

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace schedsim::cli {
namespace {

using ::testing::HasSubstr;

TEST(ProgressTest, EtaFromTheRateOrTheEstimate) {
  EXPECT_DOUBLE_EQ(EstimateSecondsLeft(30, 10, 40, 0), 90);
  EXPECT_DOUBLE_EQ(EstimateSecondsLeft(30, 10, 40, 500), 90);  // rate wins
  EXPECT_DOUBLE_EQ(EstimateSecondsLeft(20, 0, 40, 120), 100);
  EXPECT_DOUBLE_EQ(EstimateSecondsLeft(200, 0, 40, 120), 0);
  EXPECT_LT(EstimateSecondsLeft(20, 0, 40, 0), 0);  // unknown
  EXPECT_DOUBLE_EQ(EstimateSecondsLeft(30, 40, 40, 0), 0);
}

TEST(ProgressTest, TextHasTheBarCountsElapsedAndEta) {
  EXPECT_EQ(ProgressText(10, 40, "runs", 42, 98),
            "[#######.......................] 10/40 runs, 0:42 elapsed, "
            "ETA 1:38");
  EXPECT_THAT(ProgressText(0, 3, "runs", 5, -1), HasSubstr("ETA ?"));
  EXPECT_EQ(FormatDuration(3725), "1:02:05");
}

// The line is redrawn by the thread without any Update (here every 5 ms;
// 1 s in the commands, well within the 10 s a user waits at most).
TEST(ProgressTest, RedrawsWhileNothingFinishes) {
  std::ostringstream out;
  {
    ProgressLine p(&out, "runs", 60, std::chrono::milliseconds(5));
    p.Update(0, 4);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    EXPECT_GE(p.draws(), 5);
    p.Print("row 1 done");
    p.Clear();
    const int64_t cleared = p.draws();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_EQ(p.draws(), cleared);  // no redraws after Clear()
  }
  const std::string text = out.str();
  EXPECT_THAT(text, HasSubstr("0/4 runs, 0:00 elapsed, ETA 1:00"));
  EXPECT_THAT(text, HasSubstr("\r\033[Krow 1 done\n"));
}

}  // namespace
}  // namespace schedsim::cli
