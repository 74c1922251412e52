// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "cli/flags.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace schedsim::cli {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

struct Parsed {
  std::string machine = "default";
  int64_t jobs = 1;
  double scale = 1.0;
  bool verbose = false;
};

FlagSet Make(Parsed* p) {
  FlagSet f("run");
  f.String("machine", &p->machine, "machine name");
  f.Int("jobs", &p->jobs, "parallel jobs");
  f.Double("scale", &p->scale, "scale");
  f.Bool("verbose", &p->verbose, "chatty");
  return f;
}

TEST(FlagSetTest, ParsesEqualsAndSpaceFormsAndPositionals) {
  Parsed p;
  FlagSet f = Make(&p);
  std::vector<std::string> pos;
  ASSERT_TRUE(f.Parse({"file.json", "--machine=zen3", "--jobs", "4",
                       "--verbose", "--scale=0.5", "--", "--not-a-flag"},
                      &pos)
                  .ok());
  EXPECT_EQ(p.machine, "zen3");
  EXPECT_EQ(p.jobs, 4);
  EXPECT_EQ(p.scale, 0.5);
  EXPECT_TRUE(p.verbose);
  EXPECT_TRUE(f.Given("jobs"));
  EXPECT_THAT(pos, ElementsAre("file.json", "--not-a-flag"));
}

TEST(FlagSetTest, UnknownFlagListsKnownOnes) {
  Parsed p;
  FlagSet f = Make(&p);
  std::vector<std::string> pos;
  absl::Status s = f.Parse({"--machnie=x"}, &pos);
  EXPECT_THAT(s.message(), HasSubstr("unknown flag --machnie"));
  EXPECT_THAT(s.message(), HasSubstr("--machine, --jobs, --scale, --verbose"));
}

TEST(FlagSetTest, WrongTypesAndMissingValuesAreErrors) {
  Parsed p;
  FlagSet f = Make(&p);
  std::vector<std::string> pos;
  EXPECT_THAT(f.Parse({"--jobs=many"}, &pos).message(),
              HasSubstr("--jobs expects an integer, got 'many'"));
  EXPECT_THAT(f.Parse({"--verbose=maybe"}, &pos).message(),
              HasSubstr("expects true or false"));
  EXPECT_THAT(f.Parse({"--machine"}, &pos).message(),
              HasSubstr("--machine needs a value"));
}

TEST(FlagSetTest, OptionalDoubleTakesNoValueOrAnEqualsValue) {
  auto parse = [](const std::vector<std::string>& args, double* pct,
                  std::vector<std::string>* pos) {
    FlagSet f("run");
    f.OptionalDouble("robustness", pct, /*bare_value=*/25, "scale costs");
    return f.Parse(args, pos);
  };
  double pct = 0;
  std::vector<std::string> pos;
  ASSERT_TRUE(parse({"--robustness", "file.json"}, &pct, &pos).ok());
  EXPECT_EQ(pct, 25);
  // The next argument is not its value.
  EXPECT_THAT(pos, ElementsAre("file.json"));
  pct = 0;
  pos.clear();
  ASSERT_TRUE(parse({"--robustness=10", "file.json"}, &pct, &pos).ok());
  EXPECT_EQ(pct, 10);
  EXPECT_THAT(pos, ElementsAre("file.json"));
  pct = 0;
  ASSERT_TRUE(parse({"file.json"}, &pct, &pos).ok());
  EXPECT_EQ(pct, 0);  // absent: unchanged
  EXPECT_THAT(parse({"--robustness=lots"}, &pct, &pos).message(),
              HasSubstr("--robustness expects a number, got 'lots'"));
  FlagSet f("run");
  f.OptionalDouble("robustness", &pct, 25, "scale costs");
  EXPECT_THAT(f.Usage(), HasSubstr("--robustness[=<number>]"));
  EXPECT_THAT(f.Usage(), HasSubstr("(--robustness alone: 25)"));
}

TEST(FlagSetTest, UsageShowsDefaults) {
  Parsed p;
  FlagSet f = Make(&p);
  EXPECT_THAT(f.Usage(), HasSubstr("--jobs=<int>"));
  EXPECT_THAT(f.Usage(), HasSubstr("(default: default)"));
}

}  // namespace
}  // namespace schedsim::cli
