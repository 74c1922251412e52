// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "workloads/rtapp_jsonc.h"

#include <ctime>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace schedsim::workloads {
namespace {

TEST(NormalizeJsonCTest, TrailingCommasBecomeBlanks) {
  EXPECT_EQ(NormalizeJsonC(R"({"a": [1, 2,], "b": {"c": 3,},})"),
            R"({"a": [1, 2 ], "b": {"c": 3 } })");
  // Past blanks, line breaks and comments too; lines are kept.
  EXPECT_EQ(NormalizeJsonC("{\"a\": 1, // one\n /* x */ }"),
            "{\"a\": 1  // one\n /* x */ }");
}

TEST(NormalizeJsonCTest, RepeatedKeysAreNumberedInOrder) {
  EXPECT_EQ(NormalizeJsonC(R"({"run": 1, "sleep": 2, "run": 3, "run": 4})"),
            R"({"run": 1, "sleep": 2, "run1": 3, "run2": 4})");
  // The number skips names the object already has; each object counts
  // its own keys; values and arrays are not keys.
  EXPECT_EQ(NormalizeJsonC(R"({"run": 1, "run1": 2, "run": 3})"),
            R"({"run": 1, "run1": 2, "run2": 3})");
  EXPECT_EQ(NormalizeJsonC(R"({"a": {"x": "x"}, "b": {"x": ["x", "x"]}})"),
            R"({"a": {"x": "x"}, "b": {"x": ["x", "x"]}})");
}

TEST(NormalizeJsonCTest, StringsAndCommentsAreLeftAlone) {
  EXPECT_EQ(NormalizeJsonC(R"({"a": "1,}", "b": "q\",]"})"),
            R"({"a": "1,}", "b": "q\",]"})");
  EXPECT_EQ(NormalizeJsonC("{\"a\": 1 /* ,} */}"), "{\"a\": 1 /* ,} */}");
  // Not JSON stays not JSON (for the parser to report).
  EXPECT_EQ(NormalizeJsonC("{\"a\": "), "{\"a\": ");
  EXPECT_EQ(NormalizeJsonC("}]\""), "}]\"");
}

TEST(NormalizeJsonCTest, KeysWithoutAValueAreReadAsEmptyStrings) {
  std::vector<std::string> valueless;
  EXPECT_EQ(NormalizeJsonC("{\"t\": {\"suspend\",\n \"run\": 1,\n \"x\" }}",
                           &valueless),
            "{\"t\": {\"suspend\": \"\",\n \"run\": 1,\n \"x\": \"\" }}");
  EXPECT_EQ(valueless,
            (std::vector<std::string>{"line 1: suspend", "line 3: x"}));
  // Only when asked; strings in arrays are not keys.
  EXPECT_EQ(NormalizeJsonC(R"({"a", "b": ["c", "d"]})"),
            R"({"a", "b": ["c", "d"]})");
  valueless.clear();
  EXPECT_EQ(NormalizeJsonC(R"({"b": ["c", "d"]})", &valueless),
            R"({"b": ["c", "d"]})");
  EXPECT_TRUE(valueless.empty());
}

// Issue 49 #14: renaming repeated keys and counting the lines of valueless
// keys took quadratic time (100,000 repeats: over 60 s). Linear now: the
// bound below (CPU seconds) is generous and far below the old time.
TEST(NormalizeJsonCTest, ManyRepeatedKeysTakeLinearTime) {
  constexpr int kRepeats = 100000;
  std::string text = "{";
  for (int i = 0; i < kRepeats; ++i) absl::StrAppend(&text, "\"k\": 1,\n");
  for (int i = 0; i < kRepeats; ++i) absl::StrAppend(&text, "\"v\",\n");
  text += "\"end\": 0}";
  std::vector<std::string> valueless;
  const auto start = std::chrono::steady_clock::now();
  const std::string out = NormalizeJsonC(text, &valueless);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  EXPECT_LT(seconds, 5.0);
  EXPECT_NE(out.find("\"k99999\": 1"), std::string::npos);
  EXPECT_EQ(out.find("\"k100000\""), std::string::npos);
  ASSERT_EQ(valueless.size(), static_cast<size_t>(kRepeats));
  EXPECT_EQ(valueless.front(), absl::StrCat("line ", kRepeats + 1, ": v"));
  EXPECT_EQ(valueless.back(), absl::StrCat("line ", 2 * kRepeats, ": v"));
}

}  // namespace
}  // namespace schedsim::workloads
