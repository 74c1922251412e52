// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "experiments/shard.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "cli/merge_command.h"
#include "cli/run_command.h"
#include "cli/slurm_command.h"
#include "experiments/run_shard.h"
#include "experiments/test_workload_model.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace schedsim::cli {

using experiments::AssignShards;
using experiments::ExactNumber;
using experiments::OrderedJson;
using experiments::ParseShard;
using experiments::PartialDigest;
using experiments::ReadExactNumber;
using experiments::Shard;
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

struct Result {
  int code;
  std::string out;
  std::string err;
};

Result Call(int (*command)(const std::vector<std::string>&, std::ostream&,
                           std::ostream&),
            std::vector<std::string> args) {
  std::ostringstream out, err;
  const int code = command(args, out, err);
  return {code, out.str(), err.str()};
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// 2 sweep values x 2 variants x 3 iterations = 12 runs of 10 ms.
constexpr char kExperiment[] = R"({
  "machine": "skylake-e3-1240v5",
  "workload": {"model": "test_compute_sleep",
               "params": {"cycles": 400000, "sleep_us": 300}},
  "sweep": {"param": "tasks", "values": [1, 4]},
  "iterations": 3,
  "seed": 7,
  "duration_ms": 10,
  "variants": [
    {"name": "baseline", "cpufreq": "performance"},
    {"name": "powersave", "cpufreq": "powersave"}
  ]
})";
constexpr int kRuns = 12;

class ShardTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* tmp = std::getenv("TEST_TMPDIR");
    dir_ = fs::path(tmp != nullptr ? tmp : "/tmp") /
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    file_ = (dir_ / "exp.json").string();
    std::ofstream(file_) << kExperiment;
  }
  // Runs every shard of N into DIR/NAME; returns the directory.
  std::string Shards(int n, const std::string& name,
                     std::vector<std::string> extra = {}) {
    const std::string out = (dir_ / name).string();
    for (int i = 0; i < n; ++i) {
      std::vector<std::string> args = {file_, "--jobs=1", "--out=" + out,
                                       absl::StrCat("--shard=", i, "/", n)};
      args.insert(args.end(), extra.begin(), extra.end());
      Result r = Call(&RunCommand, args);
      EXPECT_EQ(r.code, 0) << r.err;
    }
    return out;
  }
  fs::path dir_;
  std::string file_;
};

TEST(AssignShardsTest, EveryRunInExactlyOneShardForEveryCount) {
  std::vector<double> costs;
  for (int i = 0; i < 40; ++i) costs.push_back(1 + (i * 7) % 5);
  for (int n = 1; n <= 45; ++n) {
    std::vector<std::vector<int>> shards = AssignShards(costs, n);
    ASSERT_EQ(shards.size(), static_cast<size_t>(n));
    std::multiset<int> seen;
    for (const std::vector<int>& s : shards) {
      EXPECT_TRUE(std::is_sorted(s.begin(), s.end()));
      seen.insert(s.begin(), s.end());
      if (n <= 40) {
        EXPECT_FALSE(s.empty()) << n;
      }
    }
    ASSERT_EQ(seen.size(), costs.size()) << n;
    for (int i = 0; i < 40; ++i) EXPECT_EQ(seen.count(i), 1u) << n;
    // Deterministic.
    EXPECT_EQ(AssignShards(costs, n), shards);
  }
}

TEST(AssignShardsTest, BalancesByCost) {
  // One expensive run and eight cheap ones: the expensive one alone.
  const std::vector<double> costs = {1, 1, 1, 1, 8, 1, 1, 1, 1};
  const std::vector<std::vector<int>> shards = AssignShards(costs, 2);
  EXPECT_EQ(shards[0], std::vector<int>({4}));
  EXPECT_EQ(shards[1], std::vector<int>({0, 1, 2, 3, 5, 6, 7, 8}));
}

TEST(ParseShardTest, AcceptsIOfNFromZero) {
  absl::StatusOr<Shard> s = ParseShard("2/4");
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->index, 2);
  EXPECT_EQ(s->count, 4);
  EXPECT_EQ(s->FileName(), "shard-2-of-4.json");
  for (const char* bad :
       {"4/4", "-1/4", "1/0", "1", "a/b", "1/2/3", "", "0/100001"}) {
    absl::StatusOr<Shard> b = ParseShard(bad);
    EXPECT_FALSE(b.ok()) << bad;
    EXPECT_THAT(std::string(b.status().message()),
                HasSubstr("--shard expects I/N"));
  }
}

TEST(ExactNumberTest, RoundTripsEveryDouble) {
  for (double v : {0.0, -0.0, 1.0 / 3, 1e-310, 6.02214076e23, HUGE_VAL,
                   -HUGE_VAL, std::nan("")}) {
    const OrderedJson j = OrderedJson::parse(ExactNumber(v).dump());
    absl::StatusOr<double> back = ReadExactNumber(j, "x");
    ASSERT_TRUE(back.ok());
    if (std::isnan(v)) {
      EXPECT_TRUE(std::isnan(*back));
    } else {
      EXPECT_EQ(*back, v);
      EXPECT_EQ(std::signbit(*back), std::signbit(v));
    }
  }
  EXPECT_FALSE(ReadExactNumber(OrderedJson("x"), "where").ok());
}

TEST_F(ShardTest, MergedShardsEqualTheUnshardedRunInEveryFormat) {
  const std::string whole = (dir_ / "whole").string();
  Result r = Call(&RunCommand, {file_, "--jobs=2", "--out=" + whole});
  ASSERT_EQ(r.code, 0) << r.err;
  for (int n : {1, 3, 5, kRuns}) {
    const std::string shards = Shards(n, absl::StrCat("n", n));
    const std::string merged = (dir_ / absl::StrCat("merged", n)).string();
    Result m = Call(&MergeCommand, {shards, "--out=" + merged});
    ASSERT_EQ(m.code, 0) << m.err;
    EXPECT_EQ(m.out, ReadFile(whole + "/result.txt")) << n;
    for (const char* f : {"result.json", "result.csv", "result.txt"}) {
      EXPECT_EQ(ReadFile(merged + "/" + f), ReadFile(whole + "/" + f))
          << n << " " << f;
    }
  }
}

TEST_F(ShardTest, ShardsKeepTheOverriddenSeedAndIterations) {
  const std::string shards = Shards(2, "over", {"--seed=99", "--iterations=2"});
  Result m = Call(&MergeCommand, {shards, "--format=json"});
  ASSERT_EQ(m.code, 0) << m.err;
  Result whole = Call(&RunCommand, {file_, "--format=json", "--seed=99",
                                    "--iterations=2", "--jobs=1"});
  ASSERT_EQ(whole.code, 0) << whole.err;
  EXPECT_EQ(m.out, whole.out);
}

TEST_F(ShardTest, AShardHoldsItsRunsOnly) {
  const std::string shards = Shards(5, "five");
  int total = 0;
  for (int i = 0; i < 5; ++i) {
    const nlohmann::json j = nlohmann::json::parse(
        ReadFile(shards + "/shard-" + std::to_string(i) + "-of-5.json"));
    EXPECT_EQ(j["kind"], "run");
    EXPECT_EQ(j["shard"]["index"], i);
    EXPECT_EQ(j["runs_total"], kRuns);
    EXPECT_EQ(j["settings"]["seed"], 7);
    total += static_cast<int>(j["runs"].size());
  }
  EXPECT_EQ(total, kRuns);
}

TEST_F(ShardTest, MergeNamesMissingAndDuplicateShards) {
  const std::string shards = Shards(3, "three");
  fs::remove(shards + "/shard-1-of-3.json");
  fs::remove(shards + "/shard-2-of-3.json");
  Result m = Call(&MergeCommand, {shards});
  EXPECT_EQ(m.code, 1);
  EXPECT_THAT(m.err, HasSubstr("missing shards 1/3, 2/3 in " + shards));
  const std::string again = Shards(3, "again");
  m = Call(&MergeCommand, {shards, again});
  EXPECT_EQ(m.code, 1);
  EXPECT_THAT(m.err, HasSubstr("shard 0/3 twice: " + shards +
                               "/shard-0-of-3.json and " + again));
}

TEST_F(ShardTest, MergeRefusesShardsOfDifferentSeedsFilesAndBuilds) {
  const std::string a = Shards(2, "a");
  const std::string b = Shards(2, "b", {"--seed=8"});
  fs::remove(b + "/shard-0-of-2.json");
  Result m = Call(&MergeCommand, {a + "/shard-0-of-2.json", b});
  EXPECT_EQ(m.code, 1);
  EXPECT_THAT(m.err, HasSubstr("different settings"));
  EXPECT_THAT(m.err, HasSubstr("\"seed\":8"));

  std::ofstream(file_) << std::string(kExperiment) + "\n";
  const std::string c = Shards(2, "c");
  m = Call(&MergeCommand, {a + "/shard-0-of-2.json", c + "/shard-1-of-2.json"});
  EXPECT_EQ(m.code, 1);
  EXPECT_THAT(m.err, HasSubstr("shards of different experiment files"));

  // Another build: the commit differs.
  const std::string path = a + "/shard-1-of-2.json";
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(ReadFile(path));
  j["schedsim"]["commit"] = "0123456";
  j["digest"] = PartialDigest(j);  // as another build would write it
  std::ofstream(path) << j.dump();
  m = Call(&MergeCommand, {a});
  EXPECT_EQ(m.code, 1);
  EXPECT_THAT(m.err, HasSubstr("different schedsim builds"));

  const std::string d = Shards(3, "d");
  m = Call(&MergeCommand, {c + "/shard-0-of-2.json", d + "/shard-1-of-3.json"});
  EXPECT_EQ(m.code, 1);
  EXPECT_THAT(m.err, HasSubstr("split the runs differently"));
}

TEST_F(ShardTest, MergeRejectsBrokenPartials) {
  const std::string a = Shards(2, "broken");
  const std::string path = a + "/shard-1-of-2.json";
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(ReadFile(path));
  j["runs"][0]["metrics"] = "x";
  j["digest"] = PartialDigest(j);  // past the digest, to the reader's checks
  std::ofstream(path) << j.dump();
  Result m = Call(&MergeCommand, {a});
  EXPECT_EQ(m.code, 1);
  EXPECT_THAT(m.err, HasSubstr(path + ": experiment " + file_ +
                               ": runs[0].metrics: expected an array"));
  j["runs"].erase(0);
  j["digest"] = PartialDigest(j);
  std::ofstream(path) << j.dump();
  m = Call(&MergeCommand, {a});
  EXPECT_EQ(m.code, 1);
  EXPECT_THAT(m.err, HasSubstr("is in no partial result"));
  std::ofstream(path) << "{";
  m = Call(&MergeCommand, {a});
  EXPECT_EQ(m.code, 1);
  EXPECT_THAT(m.err, HasSubstr(path + ": not a partial result"));
  m = Call(&MergeCommand, {(dir_ / "none").string()});
  EXPECT_EQ(m.code, 1);
  EXPECT_THAT(m.err, HasSubstr("no such directory or file"));
  m = Call(&MergeCommand, {});
  EXPECT_EQ(m.code, 2);
}

// Issue 49 #13: a shard whose metric or per-run seed was edited by hand,
// or with a key twice, was merged.
TEST_F(ShardTest, MergeRefusesEditedShardsAndDuplicateKeys) {
  const std::string a = Shards(2, "edited");
  const std::string path = a + "/shard-1-of-2.json";
  const std::string original = ReadFile(path);
  ASSERT_THAT(original, HasSubstr("\"digest\": \"fnv1a64:"));
  EXPECT_EQ(Call(&MergeCommand, {a, "--format=csv"}).code, 0);
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(original);
  for (const char* what : {"metric", "seed"}) {
    nlohmann::ordered_json edited = j;
    if (std::string(what) == "metric") {
      edited["runs"][0]["metrics"][0] =
          edited["runs"][0]["metrics"][0].get<double>() * 2;
    } else {
      edited["runs"][0]["seed"] = 12345;
    }
    std::ofstream(path) << edited.dump(1);
    Result m = Call(&MergeCommand, {a});
    EXPECT_EQ(m.code, 1) << what;
    EXPECT_THAT(m.err, HasSubstr(path + ": its content does not match its "
                                        "digest"))
        << what;
    EXPECT_THAT(m.err, HasSubstr("run that shard again")) << what;
  }
  // A key twice: the second "seed" would win in most parsers.
  std::string twice = original;
  const size_t at = twice.find("\"seed\":");
  ASSERT_NE(at, std::string::npos);
  twice.insert(at, "\"seed\": 99, ");
  std::ofstream(path) << twice;
  Result m = Call(&MergeCommand, {a});
  EXPECT_EQ(m.code, 1);
  EXPECT_THAT(m.err, HasSubstr(path + ": the key \"seed\" appears twice in "
                                      "one object"));
  std::ofstream(path) << original;
  EXPECT_EQ(Call(&MergeCommand, {a, "--format=csv"}).code, 0);
}

TEST_F(ShardTest, RunRefusesShardWithFlagsItCannotHonour) {
  for (const char* flag :
       {"--format=json", "--trace=perfetto", "--robustness"}) {
    Result r = Call(&RunCommand, {file_, "--shard=0/2", flag});
    EXPECT_EQ(r.code, 2) << flag;
    EXPECT_THAT(r.err, HasSubstr("--shard writes a partial result")) << flag;
  }
  Result r = Call(&RunCommand, {file_, "--shard=2/2"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("I in 0..N-1"));
}

TEST_F(ShardTest, SlurmWritesAnArrayAMergeAndASubmitScript) {
  const std::string out = (dir_ / "slurm").string();
  Result r = Call(
      &SlurmCommand,
      {file_, "--shards=4", "--out=" + out, "--partition=debug", "--time=10:00",
       "--cpus-per-task=2", "--schedsim=/bin/true", "--seed=3"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string array = ReadFile(out + "/array.sbatch");
  EXPECT_THAT(array, HasSubstr("#SBATCH --array=0-3\n"));
  EXPECT_THAT(array, HasSubstr("#SBATCH --partition=debug\n"));
  EXPECT_THAT(array, HasSubstr("#SBATCH --time=10:00\n"));
  EXPECT_THAT(array, HasSubstr("#SBATCH --cpus-per-task=2\n"));
  EXPECT_THAT(array,
              HasSubstr("exec '/bin/true' run '" + file_ +
                        "' --seed=3 --shard=\"${SLURM_ARRAY_TASK_ID}/4\""));
  const std::string merge = ReadFile(out + "/merge.sbatch");
  EXPECT_THAT(merge, HasSubstr("merge '" + out + "/shards' --out='" + out));
  EXPECT_THAT(ReadFile(out + "/submit.sh"),
              HasSubstr("--dependency=afterok:\"$array\""));
  EXPECT_THAT(r.out, HasSubstr("submit with: sh"));
}

TEST_F(ShardTest, SlurmErrorsNameTheFlag) {
  const std::string out = (dir_ / "slurm").string();
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{file_, "--out=" + out}, "--shards must be in 1..100000 (required)"},
      {{file_, "--shards=13", "--out=" + out}, "more than the 12 runs"},
      {{file_, "--shards=2"}, "--out=DIR is required"},
      {{file_, "--shards=2", "--out=" + out, "--time=soon"}, "--time must be"},
      {{file_, "--shards=2", "--out=a b"}, "--out must be letters"},
      {{file_, "--shards=2", "--out=" + out, "--cpus-per-task=0"},
       "--cpus-per-task must be in 1..4096"},
      {{"--shards=2", "--out=" + out}, "expected an experiment FILE"},
      {{file_, "--validate", "--shards=2", "--out=" + out},
       "--validate takes no FILE"},
      {{file_, "--shards=2", "--out=" + out, "--schedsim=/no/such"},
       "--schedsim=/no/such: no such file"},
  };
  for (const auto& [args, message] : cases) {
    Result r = Call(&SlurmCommand, args);
    EXPECT_EQ(r.code, 2) << message;
    EXPECT_THAT(r.err, HasSubstr(message));
  }
  // Leftover partial results would mix with the new ones.
  fs::create_directories(out + "/shards");
  std::ofstream(out + "/shards/shard-0-of-2.json") << "{}";
  Result r = Call(&SlurmCommand, {file_, "--shards=2", "--out=" + out,
                                  "--schedsim=/bin/true"});
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.err, HasSubstr("already holds partial results"));
}

// Issue 49 #11: user strings cannot inject commands into the batch scripts.
// The generated scripts run under bash with stub `sbatch`, `srun` and
// schedsim programs: the stub schedsim must receive each string as one
// argument, unchanged, and no injected command may run.
class SlurmInjectionTest : public ShardTest {
 protected:
  void SetUp() override {
    ShardTest::SetUp();
    char cwd[4096];
    ASSERT_NE(getcwd(cwd, sizeof(cwd)), nullptr);
    old_cwd_ = cwd;
    // Relative names: the injected commands would run in this directory.
    ASSERT_EQ(chdir(dir_.c_str()), 0);
    bin_ = dir_ / "bin";
    fs::create_directories(bin_);
    WriteStub("sbatch", "echo \"$@\" >> sbatch.calls; echo 42\n");
    WriteStub("srun", "touch srun-ran\n");
    WriteStub("schedsim-stub", "printf '%s\\0' \"$@\" > stub.args\n");
  }
  void TearDown() override { ASSERT_EQ(chdir(old_cwd_.c_str()), 0); }
  void WriteStub(const std::string& name, const std::string& body) {
    const fs::path p = bin_ / name;
    std::ofstream(p) << "#!/bin/sh\n" << body;
    fs::permissions(p, fs::perms::owner_all);
  }
  // Runs `script` as Slurm would start task 0; its exit status.
  int RunScript(const std::string& script) {
    const std::string command = absl::StrCat(
        "cd '", dir_.string(), "' && PATH='", bin_.string(),
        "':\"$PATH\" SLURM_ARRAY_TASK_ID=0 SLURM_CPUS_PER_TASK=1 bash '",
        script, "' > /dev/null 2>&1");
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  // The stub's arguments from its last run.
  std::vector<std::string> StubArgs() {
    std::string text = ReadFile((dir_ / "stub.args").string());
    std::vector<std::string> args;
    size_t start = 0;
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\0') {
        args.push_back(text.substr(start, i - start));
        start = i + 1;
      }
    }
    return args;
  }
  // Nothing an injection would leave.
  void ExpectNoInjection(const std::string& what) {
    for (const char* marker : {"injected", "srun-ran"}) {
      EXPECT_FALSE(fs::exists(dir_ / marker)) << what << ": " << marker;
    }
  }

  std::string old_cwd_;
  fs::path bin_;
};

TEST_F(SlurmInjectionTest, QuotesInAFileNameReachTheJobAsOneArgument) {
  const std::string stub = (bin_ / "schedsim-stub").string();
  for (const std::string name :
       {"it's.json", "a'$(touch injected)'b.json", "`touch injected`.json",
        "x';touch injected;'.json", "$(srun).json", "\"; srun; \".json"}) {
    std::ofstream(dir_ / name) << kExperiment;
    const std::string out = (dir_ / "slurm").string();
    fs::remove_all(out);
    Result r = Call(&SlurmCommand,
                    {name, "--shards=2", "--out=" + out, "--schedsim=" + stub});
    ASSERT_EQ(r.code, 0) << name << ": " << r.err;
    fs::remove(dir_ / "stub.args");
    EXPECT_EQ(RunScript(out + "/array.sbatch"), 0) << name;
    const std::vector<std::string> args = StubArgs();
    ASSERT_GE(args.size(), 2u) << name;
    EXPECT_EQ(args[0], "run");
    EXPECT_EQ(args[1], name);
    EXPECT_EQ(RunScript(out + "/merge.sbatch"), 0) << name;
    EXPECT_EQ(RunScript(out + "/submit.sh"), 0) << name;
    ExpectNoInjection(name);
  }
  // --only with --validate, the same way.
  const std::string only = "a'$(touch injected)'|`srun`";
  const std::string out = (dir_ / "validate").string();
  Result r = Call(&SlurmCommand, {"--validate", "--only=" + only, "--shards=2",
                                  "--out=" + out, "--schedsim=" + stub});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(RunScript(out + "/array.sbatch"), 0);
  const std::vector<std::string> args = StubArgs();
  ASSERT_GE(args.size(), 2u);
  EXPECT_EQ(args[1], "--only=" + only);
  ExpectNoInjection("--only");
}

TEST_F(SlurmInjectionTest, ALineBreakInAnyStringIsRefused) {
  const std::string stub = (bin_ / "schedsim-stub").string();
  const std::string name = "exp\ntouch injected\nsrun\n.json";
  std::ofstream(dir_ / name) << kExperiment;
  const std::string out = (dir_ / "slurm").string();
  Result r = Call(&SlurmCommand,
                  {name, "--shards=2", "--out=" + out, "--schedsim=" + stub});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err,
              HasSubstr("the experiment FILE holds a control character "
                        "(byte 0x0a at offset 3), which would end a line of "
                        "the batch scripts; got 'exp\\ntouch injected"));
  // Had a script been written, running it injects nothing.
  if (fs::exists(out + "/array.sbatch")) {
    RunScript(out + "/array.sbatch");
    RunScript(out + "/merge.sbatch");
  }
  ExpectNoInjection("newline");
  EXPECT_FALSE(fs::exists(out + "/array.sbatch"));

  r = Call(&SlurmCommand, {"--validate", "--only=a\ntouch injected",
                           "--shards=2", "--out=" + out, "--schedsim=" + stub});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("--only holds a control character"));
  for (const std::string time : {"10:00\ntouch injected", "1:00 --x", "-1"}) {
    r = Call(&SlurmCommand, {"--validate", "--time=" + time, "--shards=2",
                             "--out=" + out, "--schedsim=" + stub});
    EXPECT_EQ(r.code, 2) << time;
    EXPECT_THAT(r.err, HasSubstr("--time must be MM, MM:SS")) << time;
  }
  // A working directory with a line break (it reaches `cd` and, through
  // an absolute --out, the #SBATCH --output lines).
  const fs::path odd = dir_ / "odd\ntouch injected";
  fs::create_directories(odd);
  ASSERT_EQ(chdir(odd.c_str()), 0);
  r = Call(&SlurmCommand,
           {"--validate", "--shards=2", "--out=rel", "--schedsim=" + stub});
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.err, HasSubstr("the working directory '"));
  EXPECT_THAT(r.err, HasSubstr("which would end a line of the batch scripts"));
  EXPECT_FALSE(fs::exists(odd / "rel" / "array.sbatch"));
  ASSERT_EQ(chdir(dir_.c_str()), 0);
  // A space in the absolute --out cannot go into #SBATCH --output.
  const fs::path spaced = dir_ / "with space";
  fs::create_directories(spaced);
  ASSERT_EQ(chdir(spaced.c_str()), 0);
  r = Call(&SlurmCommand,
           {"--validate", "--shards=2", "--out=rel", "--schedsim=" + stub});
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.err, HasSubstr("which an #SBATCH --output line cannot carry"));
  ASSERT_EQ(chdir(dir_.c_str()), 0);
  ExpectNoInjection("cwd");
}

}  // namespace
}  // namespace schedsim::cli
