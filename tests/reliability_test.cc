// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The reproducers of issue 14 (tests/data/repro, README.md "Reproducers"):
// crashes and hangs found by fuzzing and by bad input. Each now gives an
// exit code below 128 and a message naming the file and what is wrong.

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "topology/presets.h"
#include "workloads/rtapp.h"

namespace schedsim {
namespace {

using ::testing::HasSubstr;

constexpr char kRepro[] = "tests/data/repro/";

struct Result {
  int code;
  std::string out;
  std::string err;
};

Result Schedsim(std::vector<std::string> args) {
  std::ostringstream out, err;
  int code = cli::RunCli(args, out, err);
  return {code, out.str(), err.str()};
}

std::string TmpDir() {
  const char* dir = std::getenv("TEST_TMPDIR");
  return dir != nullptr ? dir : "/tmp";
}

// #1: forking 2 children and forking in a loop ran into freed memory.
TEST(ReliabilityTest, ForkingSeveralChildrenRuns) {
  Result r =
      Schedsim({"simulate", std::string(kRepro) + "fork_two_children.json",
                "--format=json"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("\"done\""));
}

TEST(ReliabilityTest, ForkingForeverIsAnErrorNotACrash) {
  const std::string file = std::string(kRepro) + "fork_loop_forever.json";
  Result r = Schedsim({"simulate", file});
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.err, HasSubstr(file));
  EXPECT_THAT(r.err, HasSubstr("a fork beyond the limit of 100000 live tasks"));
}

// #2: a number too large for a double ended in std::terminate.
TEST(ReliabilityTest, NumberOverflowNamesTheFileAndPath) {
  const std::string file = std::string(kRepro) + "rtapp_number_overflow.json";
  absl::StatusOr<workloads::RtAppWorkload> w = workloads::LoadRtAppFile(
      file, *topology::MakePreset("skylake-e3-1240v5"));
  ASSERT_FALSE(w.ok());
  EXPECT_THAT(w.status().message(),
              HasSubstr(file + ": tasks.t.run: invalid JSON: a number out of "
                               "range"));
  const std::string scenario =
      std::string(kRepro) + "scenario_number_overflow.json";
  Result r = Schedsim({"simulate", scenario});
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.err, HasSubstr(scenario + ": duration_ms: invalid JSON: a "
                                          "number out of range"));
}

// #3: 100 entries of 10^6 tasks passed validation, then std::bad_alloc.
TEST(ReliabilityTest, TooManyTasksNamesTheLimit) {
  const std::string file = std::string(kRepro) + "too_many_tasks.json";
  Result r = Schedsim({"simulate", file});
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.err, HasSubstr(file));
  EXPECT_THAT(r.err, HasSubstr("limit of 100000 tasks"));
}

// #7: a FIFO blocked forever, /dev/zero was read to the memory limit, a
// directory was "invalid JSON".
TEST(ReliabilityTest, FifosDevicesAndDirectoriesAreRefused) {
  const std::string fifo = TmpDir() + "/input.fifo";
  unlink(fifo.c_str());
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{
           {"simulate", fifo},
           {"run", fifo},
           {"topology", "--hwloc=" + fifo},
           {"shadow", "--trace=" + fifo, "--cpuidle=menu"}}) {
    Result r = Schedsim(args);
    EXPECT_GE(r.code, 1) << args[0];
    EXPECT_LE(r.code, 2) << args[0];
    EXPECT_THAT(r.err, HasSubstr(fifo + ": is a FIFO (named pipe)")) << args[0];
  }
  unlink(fifo.c_str());

  Result dev = Schedsim({"topology", "--hwloc=/dev/zero"});
  EXPECT_EQ(dev.code, 1);
  EXPECT_THAT(dev.err, HasSubstr("/dev/zero: is a character device"));
  Result trace = Schedsim({"shadow", "--trace=/dev/zero", "--cpuidle=menu"});
  EXPECT_EQ(trace.code, 1);
  EXPECT_THAT(trace.err, HasSubstr("/dev/zero: is a character device"));

  Result dir = Schedsim({"simulate", "tests/data"});
  EXPECT_EQ(dir.code, 1);
  EXPECT_THAT(dir.err, HasSubstr("tests/data: is a directory"));
  EXPECT_THAT(dir.err, ::testing::Not(HasSubstr("invalid JSON")));
}

// #4: libhwloc 2.9.0 crashed (SEGV) on these; the import runs in a child.
TEST(ReliabilityTest, HwlocCrashesAreAnErrorNamingTheFile) {
  for (const char* name : {"hwloc_pu_without_complete_cpuset.xml",
                           "hwloc_numa_without_complete_nodeset.xml"}) {
    const std::string file = std::string(kRepro) + name;
    Result r = Schedsim({"topology", "--hwloc=" + file});
    EXPECT_EQ(r.code, 1) << name;
    EXPECT_THAT(r.err, HasSubstr(file)) << name;
    EXPECT_THAT(r.err, HasSubstr("libhwloc crashed importing it")) << name;
  }
  // The original still imports.
  Result ok =
      Schedsim({"topology", "--hwloc=tests/data/mpibind_eas-tioga.xml"});
  EXPECT_EQ(ok.code, 0) << ok.err;
}

// #9: 10^6 runs or 10^9 ms ran for hours with no estimate.
TEST(ReliabilityTest, HugeExperimentsAreEstimatedAndRefused) {
  const std::string runs = std::string(kRepro) + "experiment_million_runs.json";
  Result r = Schedsim({"run", runs});
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.err, HasSubstr("schedsim run: estimate: 1000000 runs"));
  EXPECT_THAT(r.err, HasSubstr("more than the limit of 10000 runs"));
  EXPECT_THAT(r.err, HasSubstr("--yes"));
  const std::string ms = std::string(kRepro) + "experiment_billion_ms.json";
  Result t = Schedsim({"run", ms});
  EXPECT_EQ(t.code, 1);
  EXPECT_THAT(t.err, HasSubstr("schedsim run: estimate: 5 runs, 5e+06 "
                               "simulated s"));
  EXPECT_THAT(t.err, HasSubstr("hours of estimated wall time"));
}

TEST(ReliabilityTest, AnEndlessTraceLineIsAnErrorNamingTheLine) {
  const std::string path = TmpDir() + "/long_line.txt";
  {
    std::ofstream out(path, std::ios::binary);
    out << "# tracer: nop\n" << std::string(2 << 20, 'x') << "\n";
  }
  Result r = Schedsim({"shadow", "--trace=" + path, "--cpuidle=menu"});
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.err, HasSubstr(path + ":2: line longer than the limit of 1 "
                                      "MiB"));
}

}  // namespace
}  // namespace schedsim
