// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "topology/sysfs.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "base/status_macros.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "topology/cpuset.h"
#include "topology/testing/pepc_tree.h"
#include "topology/topology.h"

namespace schedsim::topology {
namespace {

using ::schedsim::topology::testing::CaptureRunfile;
using ::schedsim::topology::testing::LayOutPepcCapture;
using ::schedsim::topology::testing::LayOutPepcCaptureText;
using ::schedsim::topology::testing::MakeTestTempDir;
using ::testing::AllOf;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

// Imports the pepc capture of `machine` ("milan0", "rome0", "sklep0"),
// laying it out once per test binary.
const absl::StatusOr<Topology>& Capture(const std::string& machine) {
  static auto* const cache =
      new std::map<std::string, absl::StatusOr<Topology>>();
  auto it = cache->find(machine);
  if (it == cache->end()) {
    auto load = [&]() -> absl::StatusOr<Topology> {
      SCHEDSIM_ASSIGN_OR_RETURN(std::string root, MakeTestTempDir(machine));
      SCHEDSIM_RETURN_IF_ERROR(
          LayOutPepcCapture(CaptureRunfile(absl::StrCat(
                                "pepc_", machine, "_sys_inlinefiles.txt")),
                            root));
      return LoadTopologyFromSysfs(root, machine);
    };
    it = cache->emplace(machine, load()).first;
  }
  return it->second;
}

// The set of CPUs `cpus` on a machine of `width` CPUs, as a cpulist.
std::string List(const std::vector<int>& cpus, int width) {
  CpuSet set(width);
  for (int cpu : cpus) set.Set(cpu);
  return set.ToList();
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// Lays out pepc-format `lines` ("ro|/sys/...|content") in a new temp dir
// and returns its path.
std::string Tree(absl::string_view name,
                 const std::vector<std::string>& lines) {
  absl::StatusOr<std::string> root = MakeTestTempDir(name);
  EXPECT_TRUE(root.ok()) << root.status();
  if (!root.ok()) return "/nonexistent";
  absl::Status s = LayOutPepcCaptureText(absl::StrJoin(lines, "\n"), *root);
  EXPECT_TRUE(s.ok()) << s;
  return *root;
}

// A small machine with every file the importer reads: 2 packages x 2 cores
// x 2 threads, SMT siblings (n, n+4), one L3 and one node per package.
std::vector<std::string> FullMachineLines() {
  std::vector<std::string> lines = {
      "ro|/sys/devices/system/cpu/online|0-7",
      "ro|/sys/devices/system/cpu/cpuidle/current_driver|intel_idle",
      "ro|/sys/devices/system/node/online|0-1",
      "ro|/sys/devices/system/node/node0/cpulist|0-1,4-5",
      "ro|/sys/devices/system/node/node1/cpulist|2-3,6-7",
      "ro|/sys/devices/system/node/node0/distance|10 21",
      "ro|/sys/devices/system/node/node1/distance|21 10",
  };
  for (int cpu = 0; cpu < 8; ++cpu) {
    const int core = cpu % 4;
    const int pkg = core / 2;
    const std::string dir = absl::StrCat("ro|/sys/devices/system/cpu/cpu", cpu);
    const std::string smt = absl::StrCat(core, ",", core + 4);
    const std::string l3 = pkg == 0 ? "0-1,4-5" : "2-3,6-7";
    lines.push_back(absl::StrCat(dir, "/topology/core_id|", core % 2));
    lines.push_back(absl::StrCat(dir, "/topology/physical_package_id|", pkg));
    lines.push_back(absl::StrCat(dir, "/topology/thread_siblings_list|", smt));
    const struct {
      int level;
      const char* type;
      const char* size;
      int ways;
      std::string shared;
    } caches[] = {{1, "Data", "48K", 12, smt},
                  {1, "Instruction", "32K", 8, smt},
                  {2, "Unified", "2048K", 16, smt},
                  {3, "Unified", "105M", 15, l3}};
    for (int i = 0; i < 4; ++i) {
      const std::string idx = absl::StrCat(dir, "/cache/index", i, "/");
      lines.push_back(absl::StrCat(idx, "level|", caches[i].level));
      lines.push_back(absl::StrCat(idx, "type|", caches[i].type));
      lines.push_back(absl::StrCat(idx, "size|", caches[i].size));
      lines.push_back(
          absl::StrCat(idx, "ways_of_associativity|", caches[i].ways));
      lines.push_back(absl::StrCat(idx, "coherency_line_size|64"));
      lines.push_back(absl::StrCat(idx, "shared_cpu_list|", caches[i].shared));
    }
    lines.push_back(absl::StrCat(dir, "/cpufreq/cpuinfo_min_freq|800000"));
    lines.push_back(absl::StrCat(dir, "/cpufreq/cpuinfo_max_freq|3800000"));
    lines.push_back(absl::StrCat(dir, "/cpufreq/base_frequency|2000000"));
    lines.push_back(absl::StrCat(dir, "/cpufreq/scaling_driver|intel_pstate"));
    lines.push_back(absl::StrCat(dir, "/cpufreq/scaling_governor|powersave"));
    lines.push_back(
        absl::StrCat(dir, "/cpufreq/cpuinfo_transition_latency|20000"));
    const char* const states[][5] = {
        {"POLL", "CPUIDLE CORE POLL IDLE", "0", "0", "4294967295"},
        {"C1", "MWAIT 0x00", "1", "1", "0"},
        {"C6", "MWAIT 0x20", "170", "600", "250"}};
    for (int k = 0; k < 3; ++k) {
      const std::string st = absl::StrCat(dir, "/cpuidle/state", k, "/");
      lines.push_back(absl::StrCat(st, "name|", states[k][0]));
      lines.push_back(absl::StrCat(st, "desc|", states[k][1]));
      lines.push_back(absl::StrCat(st, "latency|", states[k][2]));
      lines.push_back(absl::StrCat(st, "residency|", states[k][3]));
      lines.push_back(absl::StrCat(st, "power|", states[k][4]));
      lines.push_back(absl::StrCat(st, "disable|", k == 2 ? 1 : 0));
    }
  }
  return lines;
}

// Replaces the content of the line for `path` (or appends the line).
std::vector<std::string> With(std::vector<std::string> lines,
                              absl::string_view path,
                              absl::string_view content) {
  const std::string prefix = absl::StrCat("ro|/sys/", path, "|");
  for (std::string& line : lines) {
    if (line.rfind(prefix, 0) == 0) {
      line = absl::StrCat(prefix, content);
      return lines;
    }
  }
  lines.push_back(absl::StrCat(prefix, content));
  return lines;
}

// --- milan0: 2x AMD EPYC 7543 --------------------------------------------

// Issue 49 #16: a root that exists but is no directory was "not found".
TEST(SysfsImportTest, ARootThatIsNoDirectorySaysWhatItIs) {
  absl::StatusOr<Topology> t = LoadTopologyFromSysfs("/dev/zero");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(std::string(t.status().message()),
            "/dev/zero is a character device: expected a sysfs root, a "
            "directory holding devices/system/cpu (such as /sys)");
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string file =
      std::string(tmp != nullptr ? tmp : "/tmp") + "/plain_file";
  std::ofstream(file) << "x";
  t = LoadTopologyFromSysfs(file);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(std::string(t.status().message()).find(" is a regular file: "),
            std::string::npos)
      << t.status();
  t = LoadTopologyFromSysfs(file + "-missing");
  ASSERT_FALSE(t.ok());
  EXPECT_NE(std::string(t.status().message()).find("-missing not found: "),
            std::string::npos)
      << t.status();
}

TEST(SysfsImportTest, Milan0HasTwoPackagesOf32CoresWithSmt) {
  const absl::StatusOr<Topology>& t = Capture("milan0");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->name(), "milan0");
  EXPECT_EQ(t->num_cpus(), 128);
  EXPECT_EQ(t->num_cores(), 64);
  EXPECT_EQ(t->threads_per_core(), 2);
  EXPECT_EQ(t->num_packages(), 2);
  EXPECT_EQ(t->packages()[0].ToList(), "0-31,64-95");
  EXPECT_EQ(t->packages()[1].ToList(), "32-63,96-127");
  EXPECT_EQ(t->vendor(), Vendor::kAmd);
}

TEST(SysfsImportTest, Milan0SmtSiblingsAreNAndNPlus64) {
  const absl::StatusOr<Topology>& t = Capture("milan0");
  ASSERT_TRUE(t.ok()) << t.status();
  for (int n = 0; n < 64; ++n) {
    EXPECT_EQ(t->smt_siblings(n).ToList(), List({n, n + 64}, 128)) << n;
    EXPECT_EQ(t->place(n).thread, 0);
    EXPECT_EQ(t->place(n + 64).thread, 1);
  }
}

TEST(SysfsImportTest, Milan0HasSixteenLlcsOfFourCores) {
  const absl::StatusOr<Topology>& t = Capture("milan0");
  ASSERT_TRUE(t.ok()) << t.status();
  ASSERT_EQ(t->num_llcs(), 16);
  for (int llc = 0; llc < 16; ++llc) {
    const CpuSet& span = t->llcs()[llc];
    EXPECT_EQ(span.Count(), 8) << llc;
    int cores = 0;
    for (const CpuSet& core : t->cores()) cores += core.IsSubsetOf(span);
    EXPECT_EQ(cores, 4) << llc;
    // A CCX: 4 consecutive cores and their siblings.
    const int first = 4 * llc;
    EXPECT_EQ(span.ToList(),
              List({first, first + 1, first + 2, first + 3, first + 64,
                    first + 65, first + 66, first + 67},
                   128));
  }
}

TEST(SysfsImportTest, Milan0HasTwoNodesWithDefaultDistances) {
  const absl::StatusOr<Topology>& t = Capture("milan0");
  ASSERT_TRUE(t.ok()) << t.status();
  ASSERT_EQ(t->num_nodes(), 2);
  EXPECT_EQ(t->nodes()[0].ToList(), "0-31,64-95");
  EXPECT_EQ(t->nodes()[1].ToList(), "32-63,96-127");
  // The capture has no node*/distance files.
  EXPECT_EQ(t->distance(0, 0), 10);
  EXPECT_EQ(t->distance(0, 1), 20);
  EXPECT_THAT(t->warnings(), Contains(HasSubstr("no NUMA distances")));
}

TEST(SysfsImportTest, Milan0CStatesArePollC1C2) {
  const absl::StatusOr<Topology>& t = Capture("milan0");
  ASSERT_TRUE(t.ok()) << t.status();
  const std::vector<CState>& cs = t->cstates();
  ASSERT_EQ(cs.size(), 3u);
  EXPECT_EQ(cs[0].name, "POLL");
  EXPECT_TRUE(cs[0].polling());
  EXPECT_EQ(cs[0].exit_latency_ns, 0);
  EXPECT_EQ(cs[0].power_mw, 0);  // sysfs shows 4294967295 (unknown)
  EXPECT_EQ(cs[1].name, "C1");
  EXPECT_EQ(cs[1].desc, "ACPI FFH MWAIT 0x0");
  EXPECT_FALSE(cs[1].polling());
  EXPECT_EQ(cs[1].exit_latency_ns, 1000);
  EXPECT_EQ(cs[1].target_residency_ns, 2000);
  EXPECT_EQ(cs[2].name, "C2");
  EXPECT_EQ(cs[2].desc, "ACPI IOPORT 0x414");
  EXPECT_EQ(cs[2].exit_latency_ns, 30000);
  EXPECT_EQ(cs[2].target_residency_ns, 60000);
  EXPECT_EQ(cs[2].physical_exit_ns, cs[2].exit_latency_ns);
  EXPECT_EQ(cs[2].physical_entry_ns, 0);
  for (const CState& s : cs) EXPECT_FALSE(s.disabled) << s.name;
}

TEST(SysfsImportTest, Milan0FrequencyIsAcpiCpufreqWithCppcLevels) {
  const absl::StatusOr<Topology>& t = Capture("milan0");
  ASSERT_TRUE(t.ok()) << t.status();
  const FrequencySpec& f = t->frequency();
  EXPECT_EQ(f.driver, "acpi-cpufreq");
  EXPECT_EQ(f.governor, "schedutil");
  EXPECT_EQ(f.min_khz, 1500000);
  EXPECT_EQ(f.max_turbo_khz, 3739225);
  EXPECT_EQ(f.base_khz, 2800000);  // ACPI P0
  EXPECT_THAT(f.pstates_khz, ElementsAre(2800000, 2100000, 1500000));
  EXPECT_EQ(f.transition_latency_ns, 0);
  EXPECT_FALSE(f.has_hwp);
  EXPECT_FALSE(f.has_epp);
  EXPECT_EQ(f.hwp.lowest, 28);
  EXPECT_EQ(f.hwp.most_efficient, 103);
  EXPECT_EQ(f.hwp.guaranteed, 191);
  EXPECT_EQ(f.hwp.highest, 255);
  EXPECT_EQ(f.khz_per_perf_unit, 14665);  // 2801 MHz / 191, rounded
}

TEST(SysfsImportTest, Milan0InfersCoresPackagesAndCacheLevelsWithWarnings) {
  const absl::StatusOr<Topology>& t = Capture("milan0");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_THAT(t->warnings(),
              Contains(HasSubstr("cores inferred from L1 Data cache sharing")));
  EXPECT_THAT(t->warnings(),
              Contains(HasSubstr("packages inferred from dies")));
  EXPECT_THAT(t->warnings(), Contains(HasSubstr("cache level/type missing")));
  EXPECT_THAT(t->warnings(), Contains(HasSubstr("cpb")));
  const std::vector<CacheSpec>& caches = t->caches();
  ASSERT_EQ(caches.size(), 4u);
  EXPECT_EQ(caches[0].level, 1);
  EXPECT_EQ(caches[0].type, "Data");
  EXPECT_EQ(caches[1].type, "Instruction");
  EXPECT_EQ(caches[2].level, 2);
  EXPECT_EQ(caches[3].level, 3);
  EXPECT_EQ(caches[3].size_bytes, 0);  // not in the capture
  EXPECT_THAT(t->warnings(), Contains(HasSubstr("cache coherency_line_size")));
}

// --- rome0: 2x AMD EPYC 7742 ---------------------------------------------

TEST(SysfsImportTest, Rome0HasThirtyTwoLlcsOfFourCores) {
  const absl::StatusOr<Topology>& t = Capture("rome0");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->num_cpus(), 256);
  EXPECT_EQ(t->num_cores(), 128);
  EXPECT_EQ(t->threads_per_core(), 2);
  EXPECT_EQ(t->num_packages(), 2);
  EXPECT_EQ(t->packages()[1].ToList(), "64-127,192-255");
  ASSERT_EQ(t->num_llcs(), 32);
  for (const CpuSet& llc : t->llcs()) EXPECT_EQ(llc.Count(), 8);
  EXPECT_EQ(t->llc_span(0).ToList(), "0-3,128-131");
  EXPECT_EQ(t->smt_siblings(127).ToList(), "127,255");
  ASSERT_EQ(t->num_nodes(), 2);
  EXPECT_EQ(t->nodes()[0].ToList(), "0-63,128-191");
  EXPECT_EQ(t->vendor(), Vendor::kAmd);
}

TEST(SysfsImportTest, Rome0CStatesHaveSlowIoPortC2) {
  const absl::StatusOr<Topology>& t = Capture("rome0");
  ASSERT_TRUE(t.ok()) << t.status();
  const std::vector<CState>& cs = t->cstates();
  ASSERT_EQ(cs.size(), 3u);
  EXPECT_EQ(cs[0].name, "POLL");
  EXPECT_TRUE(cs[0].polling());
  EXPECT_EQ(cs[1].name, "C1");
  EXPECT_EQ(cs[1].exit_latency_ns, 1000);
  EXPECT_EQ(cs[1].target_residency_ns, 2000);
  EXPECT_EQ(cs[2].name, "C2");
  EXPECT_EQ(cs[2].desc, "ACPI IOPORT 0x814");
  EXPECT_EQ(cs[2].exit_latency_ns, 400000);
  EXPECT_EQ(cs[2].target_residency_ns, 800000);
}

TEST(SysfsImportTest, Rome0FrequencyUsesBaseForPerfUnit) {
  const absl::StatusOr<Topology>& t = Capture("rome0");
  ASSERT_TRUE(t.ok()) << t.status();
  const FrequencySpec& f = t->frequency();
  EXPECT_EQ(f.driver, "acpi-cpufreq");
  EXPECT_EQ(f.base_khz, 2250000);
  EXPECT_EQ(f.max_turbo_khz, 3414550);
  EXPECT_THAT(f.pstates_khz, ElementsAre(2250000, 2000000, 1500000));
  EXPECT_EQ(f.hwp.guaranteed, 168);
  // acpi_cppc/nominal_freq is 0 here: 2250000 kHz / 168, rounded.
  EXPECT_EQ(f.khz_per_perf_unit, 13393);
}

// --- sklep0: 2x Intel Xeon Platinum 8170M, SNC-2 -------------------------

TEST(SysfsImportTest, Sklep0InterleavesPackagesByCpuParity) {
  const absl::StatusOr<Topology>& t = Capture("sklep0");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->num_cpus(), 104);
  EXPECT_EQ(t->num_cores(), 52);
  EXPECT_EQ(t->threads_per_core(), 2);
  ASSERT_EQ(t->num_packages(), 2);
  for (int cpu = 0; cpu < 104; ++cpu) {
    EXPECT_EQ(t->place(cpu).package, cpu % 2) << cpu;
  }
  EXPECT_EQ(t->smt_siblings(0).ToList(), "0,52");
  EXPECT_EQ(t->smt_siblings(51).ToList(), "51,103");
  ASSERT_EQ(t->num_llcs(), 2);
  EXPECT_EQ(t->llcs()[0], t->packages()[0]);
  EXPECT_EQ(t->vendor(), Vendor::kIntel);
}

TEST(SysfsImportTest, Sklep0HasFourSubNumaNodesTwoPerLlc) {
  const absl::StatusOr<Topology>& t = Capture("sklep0");
  ASSERT_TRUE(t.ok()) << t.status();
  ASSERT_EQ(t->num_nodes(), 4);
  for (int node = 0; node < 4; ++node) {
    const CpuSet& span = t->nodes()[node];
    EXPECT_EQ(span.Count(), 26) << node;
    EXPECT_EQ(span.First(), node);
    for (int cpu : span.ToVector()) EXPECT_EQ(cpu % 4, node);
    // Nodes 0 and 2 are halves of package 0's L3, 1 and 3 of package 1's.
    EXPECT_TRUE(span.IsSubsetOf(t->llcs()[node % 2])) << node;
  }
  EXPECT_THAT(t->warnings(), Contains(HasSubstr("no NUMA distances")));
}

TEST(SysfsImportTest, Sklep0CStatesArePollC1C1eC6) {
  const absl::StatusOr<Topology>& t = Capture("sklep0");
  ASSERT_TRUE(t.ok()) << t.status();
  const std::vector<CState>& cs = t->cstates();
  ASSERT_EQ(cs.size(), 4u);
  const char* const names[] = {"POLL", "C1", "C1E", "C6"};
  const int64_t latency_us[] = {0, 2, 10, 133};
  const int64_t residency_us[] = {0, 2, 20, 600};
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(cs[k].name, names[k]);
    EXPECT_EQ(cs[k].exit_latency_ns, latency_us[k] * 1000) << names[k];
    EXPECT_EQ(cs[k].target_residency_ns, residency_us[k] * 1000) << names[k];
    EXPECT_EQ(cs[k].polling(), k == 0) << names[k];
  }
  EXPECT_EQ(cs[3].desc, "MWAIT 0x20");
}

TEST(SysfsImportTest, Sklep0HasIntelPstateWithHwpAndEpp) {
  const absl::StatusOr<Topology>& t = Capture("sklep0");
  ASSERT_TRUE(t.ok()) << t.status();
  const FrequencySpec& f = t->frequency();
  EXPECT_EQ(f.driver, "intel_pstate");
  EXPECT_EQ(f.governor, "powersave");
  EXPECT_TRUE(f.has_hwp);
  EXPECT_TRUE(f.has_epp);
  EXPECT_EQ(f.min_khz, 1000000);
  EXPECT_EQ(f.base_khz, 2100000);
  EXPECT_EQ(f.max_turbo_khz, 3700000);
  EXPECT_THAT(f.pstates_khz, IsEmpty());
  EXPECT_EQ(f.hwp.lowest, 7);
  EXPECT_EQ(f.hwp.most_efficient, 10);
  EXPECT_EQ(f.hwp.guaranteed, 21);
  EXPECT_EQ(f.hwp.highest, 37);
  EXPECT_EQ(f.khz_per_perf_unit, 100000);
  // base_frequency is in the capture: no base inference.
  EXPECT_THAT(t->warnings(), Not(Contains(HasSubstr("base taken as"))));
}

// --- the running machine --------------------------------------------------

TEST(SysfsImportTest, ImportsThisMachine) {
  std::error_code ec;
  if (!std::filesystem::is_directory("/sys/devices/system/cpu", ec)) {
    GTEST_SKIP() << "/sys/devices/system/cpu does not exist here";
  }
  absl::StatusOr<Topology> t = LoadTopologyFromSysfs("/sys");
  ASSERT_TRUE(t.ok()) << t.status();
  for (const std::string& w : t->warnings())
    std::cerr << "warning: " << w << "\n";
  ASSERT_GE(t->num_cpus(), 1);
  absl::StatusOr<CpuSet> online =
      CpuSet::ParseList(ReadText("/sys/devices/system/cpu/online"), 1 << 16);
  if (online.ok() && !online->Empty()) {
    EXPECT_EQ(t->num_cpus(), online->Count());
  } else if (std::thread::hardware_concurrency() != 0) {
    EXPECT_EQ(t->num_cpus(),
              static_cast<int>(std::thread::hardware_concurrency()));
  }
  for (int cpu = 0; cpu < t->num_cpus(); ++cpu) {
    const CpuPlace& p = t->place(cpu);
    ASSERT_TRUE(p.core >= 0 && p.core < t->num_cores()) << cpu;
    ASSERT_TRUE(p.llc >= 0 && p.llc < t->num_llcs()) << cpu;
    ASSERT_TRUE(p.node >= 0 && p.node < t->num_nodes()) << cpu;
    ASSERT_TRUE(p.package >= 0 && p.package < t->num_packages()) << cpu;
    EXPECT_TRUE(t->smt_siblings(cpu).Test(cpu));
    EXPECT_TRUE(t->llc_span(cpu).Test(cpu));
    EXPECT_TRUE(t->node_span(cpu).Test(cpu));
    EXPECT_TRUE(t->package_span(cpu).Test(cpu));
  }
}

// --- synthetic trees ------------------------------------------------------

TEST(SysfsImportTest, CompleteTreeNeedsNoInference) {
  const std::string root = Tree("full", FullMachineLines());
  absl::StatusOr<Topology> t = LoadTopologyFromSysfs(root, "full");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->num_cpus(), 8);
  EXPECT_EQ(t->num_cores(), 4);
  EXPECT_EQ(t->num_packages(), 2);
  EXPECT_EQ(t->num_llcs(), 2);
  EXPECT_EQ(t->num_nodes(), 2);
  EXPECT_EQ(t->smt_siblings(1).ToList(), "1,5");
  EXPECT_EQ(t->llc_span(6).ToList(), "2-3,6-7");
  EXPECT_EQ(t->distance(0, 1), 21);
  EXPECT_EQ(t->distance(1, 1), 10);
  ASSERT_EQ(t->caches().size(), 4u);
  EXPECT_EQ(t->caches()[0].size_bytes, 48 * 1024);
  EXPECT_EQ(t->caches()[0].ways, 12);
  EXPECT_EQ(t->caches()[1].type, "Instruction");
  EXPECT_EQ(t->caches()[3].size_bytes, 105 * 1024 * 1024);
  EXPECT_EQ(t->caches()[3].line_bytes, 64);
  ASSERT_EQ(t->cstates().size(), 3u);
  EXPECT_EQ(t->cstates()[2].power_mw, 250);
  EXPECT_TRUE(t->cstates()[2].disabled);
  EXPECT_EQ(t->frequency().base_khz, 2000000);
  EXPECT_EQ(t->frequency().transition_latency_ns, 20000);
  EXPECT_FALSE(t->frequency().has_hwp);  // no HWP evidence in this tree
  EXPECT_EQ(t->vendor(), Vendor::kIntel);
  // The only note is where the vendor came from.
  EXPECT_THAT(t->warnings(), ElementsAre(HasSubstr("vendor taken as")));
}

// topology/cluster_cpus_list (v5.16+) gives each CPU's cluster, the CLS
// scheduling level: package 0's two cores (with their SMT siblings) form
// one cluster, package 1 has a cluster per core. Without the file, each
// CPU's cluster is its core.
TEST(SysfsImportTest, ClusterCpusListGivesTheClusters) {
  std::vector<std::string> lines = FullMachineLines();
  // Package 0: one cluster of both cores; package 1: a cluster per core.
  const char* const clusters[8] = {"0-1,4-5", "0-1,4-5", "2,6", "3,7",
                                   "0-1,4-5", "0-1,4-5", "2,6", "3,7"};
  for (int cpu = 0; cpu < 8; ++cpu) {
    lines = With(lines,
                 absl::StrCat("devices/system/cpu/cpu", cpu,
                              "/topology/cluster_cpus_list"),
                 clusters[cpu]);
  }
  absl::StatusOr<Topology> t =
      LoadTopologyFromSysfs(Tree("clusters", lines), "clusters");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_TRUE(t->has_clusters());
  EXPECT_EQ(t->cluster_span(1).ToList(), "0-1,4-5");
  EXPECT_EQ(t->cluster_span(6).ToList(), "2,6");
  absl::StatusOr<Topology> plain =
      LoadTopologyFromSysfs(Tree("full", FullMachineLines()), "full");
  ASSERT_TRUE(plain.ok()) << plain.status();
  EXPECT_FALSE(plain->has_clusters());
  EXPECT_EQ(plain->cluster_span(1).ToList(), "1,5");
}

TEST(SysfsImportTest, BareTreeDegradesWithWarnings) {
  const std::string root =
      Tree("bare", {"ro|/sys/devices/system/cpu/online|0-3",
                    "ro|/sys/devices/system/cpu/cpu0/uevent|",
                    "ro|/sys/devices/system/cpu/cpu1/uevent|",
                    "ro|/sys/devices/system/cpu/cpu2/uevent|",
                    "ro|/sys/devices/system/cpu/cpu3/uevent|"});
  absl::StatusOr<Topology> t = LoadTopologyFromSysfs(root);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->name(), root);
  EXPECT_EQ(t->num_cpus(), 4);
  EXPECT_EQ(t->num_cores(), 4);
  EXPECT_EQ(t->num_llcs(), 1);
  EXPECT_EQ(t->num_nodes(), 1);
  EXPECT_EQ(t->num_packages(), 1);
  EXPECT_THAT(t->cstates(), IsEmpty());
  EXPECT_EQ(t->frequency().max_turbo_khz, 0);
  EXPECT_EQ(t->vendor(), Vendor::kUnknown);
  const std::vector<std::string>& w = t->warnings();
  EXPECT_THAT(w, Contains(HasSubstr("each CPU taken as its own core")));
  EXPECT_THAT(w, Contains(HasSubstr("assumed one package")));
  EXPECT_THAT(w, Contains(HasSubstr("one LLC per package")));
  EXPECT_THAT(w, Contains(HasSubstr("assumed one node")));
  EXPECT_THAT(w, Contains(HasSubstr("C-state table left empty")));
  EXPECT_THAT(w, Contains(HasSubstr("no cpufreq")));
  EXPECT_THAT(w, Contains(HasSubstr("vendor not recognisable")));
}

TEST(SysfsImportTest, CpuDirectoriesUsedWithoutOnlineFile) {
  const std::string root =
      Tree("dirs", {"ro|/sys/devices/system/cpu/cpu0/uevent|",
                    "ro|/sys/devices/system/cpu/cpu1/uevent|",
                    "ro|/sys/devices/system/cpu/cpufreq/boost|1"});
  absl::StatusOr<Topology> t = LoadTopologyFromSysfs(root);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->num_cpus(), 2);
  EXPECT_THAT(t->warnings(), Contains(HasSubstr("CPUs taken from the cpuN")));
}

TEST(SysfsImportTest, OfflineHoleIsRenumbered) {
  const std::string root =
      Tree("hole", {"ro|/sys/devices/system/cpu/online|0-1,3",
                    "ro|/sys/devices/system/cpu/cpu0/uevent|",
                    "ro|/sys/devices/system/cpu/cpu1/uevent|",
                    "ro|/sys/devices/system/cpu/cpu2/uevent|",
                    "ro|/sys/devices/system/cpu/cpu3/uevent|",
                    "ro|/sys/devices/system/node/node0/cpulist|0-3"});
  absl::StatusOr<Topology> t = LoadTopologyFromSysfs(root);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->num_cpus(), 3);
  EXPECT_THAT(t->warnings(),
              Contains(AllOf(HasSubstr("0,1,3"), HasSubstr("renumbered"))));
}

TEST(SysfsImportTest, CpusOfDifferentMaximumFrequencyAreNoted) {
  std::vector<std::string> lines = FullMachineLines();
  for (int cpu : {2, 3, 6, 7}) {
    lines = With(lines,
                 absl::StrCat("devices/system/cpu/cpu", cpu,
                              "/cpufreq/cpuinfo_max_freq"),
                 "2400000");
  }
  lines.push_back("ro|/sys/devices/cpu_core/cpus|0-1,4-5");
  lines.push_back("ro|/sys/devices/cpu_atom/cpus|2-3,6-7");
  absl::StatusOr<Topology> t = LoadTopologyFromSysfs(Tree("hybrid", lines));
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_THAT(t->warnings(),
              Contains(HasSubstr("CPUs differ in cpuinfo_max_freq (a hybrid "
                                 "part or binned cores): 3800000 kHz on CPUs "
                                 "0-1,4-5, 2400000 kHz on CPUs 2-3,6-7; all "
                                 "modelled as CPU 0")));
  EXPECT_THAT(t->warnings(),
              Contains(HasSubstr("hybrid CPU kinds (cpu_core CPUs 0-1,4-5, "
                                 "cpu_atom CPUs 2-3,6-7)")));
  // A machine of identical CPUs gets no such note.
  t = LoadTopologyFromSysfs(Tree("alike", FullMachineLines()));
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_THAT(t->warnings(), Not(Contains(HasSubstr("differ in cpuinfo"))));
}

// Issue 49 #13: an unreadable cpu1 directory gave another machine (a CPU
// without topology or caches) with no note. Root reads any directory, so
// under root the import runs in a child that gives up root first; the tree
// is under /tmp so that the child may reach it.
TEST(SysfsImportTest, AnUnreadableCpuDirectoryIsRefused) {
  char dir[] = "/tmp/schedsim-sysfs-unreadable.XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string root = dir;
  ASSERT_TRUE(
      LayOutPepcCaptureText(absl::StrJoin(FullMachineLines(), "\n"), root)
          .ok());
  ASSERT_TRUE(LoadTopologyFromSysfs(root).ok());
  for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
    chmod(e.path().c_str(), e.is_directory() ? 0755 : 0644);
  }
  chmod(root.c_str(), 0755);
  const std::string cpu1 = root + "/devices/system/cpu/cpu1";
  ASSERT_EQ(chmod(cpu1.c_str(), 0), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0)) _exit(3);
    absl::StatusOr<Topology> t = LoadTopologyFromSysfs(root);
    if (t.ok()) _exit(1);
    const std::string m(t.status().message());
    _exit(m.find(cpu1 + ": cannot read this CPU's directory (") == 0 &&
                  m.find("Permission denied") != std::string::npos
              ? 0
              : 2);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  chmod(cpu1.c_str(), 0755);
  std::filesystem::remove_all(root);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0)
      << "1: imported; 2: another message; 3: could not drop root";
}

// Issue 49 #13: a FIFO, a device or a file over 64 KiB where an attribute
// belongs read as a missing file (another machine, exit 0); docs/cli.md
// says such files are refused.
TEST(SysfsImportTest, AFifoOrAnOversizedAttributeIsRefused) {
  const std::string root = Tree("fifo", FullMachineLines());
  ASSERT_TRUE(LoadTopologyFromSysfs(root).ok());
  const std::string core_id =
      root + "/devices/system/cpu/cpu3/topology/core_id";
  ASSERT_EQ(std::remove(core_id.c_str()), 0);
  ASSERT_EQ(mkfifo(core_id.c_str(), 0600), 0);
  absl::StatusOr<Topology> t = LoadTopologyFromSysfs(root);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(t.status().message(),
              HasSubstr(core_id + ": is a FIFO (named pipe), not a regular "
                                  "file"));
  EXPECT_THAT(t.status().message(),
              HasSubstr("a sysfs tree holds regular files of at most 64 KiB"));
  ASSERT_EQ(std::remove(core_id.c_str()), 0);
  std::ofstream(core_id) << std::string(70000, '1');
  t = LoadTopologyFromSysfs(root);
  ASSERT_FALSE(t.ok());
  EXPECT_THAT(t.status().message(), HasSubstr(core_id + ": is 70000 bytes"));
}

// cpuN/cpu_capacity gives each CPU its capacity, normalized to 1024 at the
// largest; a partial set is ignored with a warning, a bad value is an error.
TEST(SysfsImportTest, CpuCapacityFilesGiveTheCapacities) {
  std::vector<std::string> lines = FullMachineLines();
  for (int cpu = 0; cpu < 8; ++cpu) {
    lines.push_back(absl::StrCat("ro|/sys/devices/system/cpu/cpu", cpu,
                                 "/cpu_capacity|",
                                 cpu % 4 < 2 ? "1024" : "446"));
  }
  absl::StatusOr<Topology> t = LoadTopologyFromSysfs(Tree("caps", lines));
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_TRUE(t->asym_capacity());
  EXPECT_EQ(t->capacity(0), 1024);
  EXPECT_EQ(t->capacity(2), 446);
  EXPECT_EQ(t->capacity(7), 446);

  // Scaled: 512 and 256 become 1024 and 512.
  std::vector<std::string> half = FullMachineLines();
  for (int cpu = 0; cpu < 8; ++cpu) {
    half.push_back(absl::StrCat("ro|/sys/devices/system/cpu/cpu", cpu,
                                "/cpu_capacity|", cpu < 4 ? "512" : "256"));
  }
  t = LoadTopologyFromSysfs(Tree("caps_half", half));
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->capacity(0), 1024);
  EXPECT_EQ(t->capacity(4), 512);

  std::vector<std::string> partial = FullMachineLines();
  partial.push_back("ro|/sys/devices/system/cpu/cpu0/cpu_capacity|512");
  t = LoadTopologyFromSysfs(Tree("caps_partial", partial));
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_FALSE(t->asym_capacity());
  EXPECT_THAT(t->warnings(),
              Contains(HasSubstr("cpu_capacity on 1 of 8 CPUs: ignored")));

  const std::string bad_root = Tree(
      "caps_bad",
      With(FullMachineLines(), "devices/system/cpu/cpu3/cpu_capacity", "0"));
  t = LoadTopologyFromSysfs(bad_root);
  ASSERT_FALSE(t.ok());
  EXPECT_THAT(t.status().message(),
              HasSubstr("expected a CPU capacity > 0 in " + bad_root +
                        "/devices/system/cpu/cpu3/cpu_capacity, got 0"));
}

// Issue 49 #7: hwloc's offline-cpu0-node0 dump: node 0 offline
// (node/online "1"), node1/distance with one entry per possible node
// ("21 10"). It failed with "expected 1 distances ... got '21 10'";
// lstopo reads it.
TEST(SysfsImportTest, ADistanceRowOverThePossibleNodesIsRead) {
  std::vector<std::string> lines;
  for (const std::string& line :
       With(With(FullMachineLines(), "devices/system/cpu/online", "2-3,6-7"),
            "devices/system/node/online", "1")) {
    if (line.find("/node/node0/") == std::string::npos) lines.push_back(line);
  }
  lines.push_back("ro|/sys/devices/system/node/possible|0-1");
  const std::string root = Tree("offline_node0", lines);
  absl::StatusOr<Topology> t = LoadTopologyFromSysfs(root);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->num_cpus(), 4);
  EXPECT_EQ(t->num_nodes(), 1);
  EXPECT_EQ(t->distance(0, 0), 10);
  EXPECT_THAT(t->warnings(),
              Contains(HasSubstr("node1/distance has 2 distances, one per "
                                 "node of " +
                                 root + "/devices/system/node/possible")));
  // A row that fits no list of nodes is still an error.
  std::vector<std::string> odd = lines;
  for (std::string& line : odd) {
    if (line.find("/node1/distance|") != std::string::npos) {
      line = "ro|/sys/devices/system/node/node1/distance|21 10 30";
    }
  }
  t = LoadTopologyFromSysfs(Tree("odd_distances", odd));
  ASSERT_FALSE(t.ok());
  EXPECT_THAT(t.status().message(), HasSubstr("expected 1 distances"));
}

TEST(SysfsImportTest, EmptyCoreIdIsAnErrorNamingTheFile) {
  const std::string root = Tree(
      "empty_core_id",
      With(FullMachineLines(), "devices/system/cpu/cpu3/topology/core_id", ""));
  absl::StatusOr<Topology> t = LoadTopologyFromSysfs(root);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(t.status().message(),
              HasSubstr(absl::StrCat("expected an integer in ", root,
                                     "/devices/system/cpu/cpu3/topology/"
                                     "core_id, got ''")));
}

TEST(SysfsImportTest, NonNumericCoreIdIsAnErrorNamingTheFile) {
  const std::string root = Tree(
      "bad_core_id", With(FullMachineLines(),
                          "devices/system/cpu/cpu5/topology/core_id", "abc"));
  absl::StatusOr<Topology> t = LoadTopologyFromSysfs(root);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(t.status().message(),
              HasSubstr(absl::StrCat(
                  "expected an integer in ", root,
                  "/devices/system/cpu/cpu5/topology/core_id, got 'abc'")));
}

TEST(SysfsImportTest, NonNumericCacheSizeIsAnErrorNamingTheFile) {
  const std::string root =
      Tree("bad_cache_size",
           With(FullMachineLines(), "devices/system/cpu/cpu0/cache/index2/size",
                "lots"));
  absl::StatusOr<Topology> t = LoadTopologyFromSysfs(root);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(t.status().message(),
              AllOf(HasSubstr("cache size"),
                    HasSubstr(absl::StrCat(
                        root, "/devices/system/cpu/cpu0/cache/index2/size")),
                    HasSubstr("'lots'")));
}

TEST(SysfsImportTest, NonNumericNodeDistanceIsAnErrorNamingTheFile) {
  const std::string root = Tree(
      "bad_distance",
      With(FullMachineLines(), "devices/system/node/node1/distance", "21 ten"));
  absl::StatusOr<Topology> t = LoadTopologyFromSysfs(root);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(t.status().message(),
              AllOf(HasSubstr(absl::StrCat(
                        root, "/devices/system/node/node1/distance")),
                    HasSubstr("'21 ten'")));
}

TEST(SysfsImportTest, ShortDistanceRowIsAnError) {
  const std::string root = Tree(
      "short_distance",
      With(FullMachineLines(), "devices/system/node/node0/distance", "10"));
  absl::StatusOr<Topology> t = LoadTopologyFromSysfs(root);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(t.status().message(), AllOf(HasSubstr("expected 2 distances"),
                                          HasSubstr("node0/distance")));
}

TEST(SysfsImportTest, MalformedCpuListIsAnErrorNamingTheFile) {
  const std::string root =
      Tree("bad_online",
           With(FullMachineLines(), "devices/system/cpu/online", "0-x"));
  absl::StatusOr<Topology> t = LoadTopologyFromSysfs(root);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(t.status().message(),
              HasSubstr(absl::StrCat("expected a CPU list like '0-3,8' in ",
                                     root, "/devices/system/cpu/online")));
}

TEST(SysfsImportTest, MissingCpuDirectoryIsNotFound) {
  const std::string root =
      Tree("no_cpu_dir", {"ro|/sys/devices/system/node/online|0"});
  absl::StatusOr<Topology> t = LoadTopologyFromSysfs(root);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(t.status().message(),
              HasSubstr(absl::StrCat(root, "/devices/system/cpu not found")));
}

TEST(SysfsImportTest, ListedCpuWithoutDirectoryIsNotFound) {
  const std::string root =
      Tree("missing_cpu2", {"ro|/sys/devices/system/cpu/online|0-2",
                            "ro|/sys/devices/system/cpu/cpu0/uevent|",
                            "ro|/sys/devices/system/cpu/cpu1/uevent|"});
  absl::StatusOr<Topology> t = LoadTopologyFromSysfs(root);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(t.status().message(),
              AllOf(HasSubstr(absl::StrCat(root, "/devices/system/cpu/cpu2")),
                    HasSubstr("devices/system/cpu/online")));
}

TEST(SysfsImportTest, NonExistentRootIsNotFound) {
  const std::string root = "/nonexistent/schedsim/sysfs";
  absl::StatusOr<Topology> t = LoadTopologyFromSysfs(root);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(t.status().message(), HasSubstr(root));
}

TEST(SysfsImportTest, GroupsThatDoNotNestAreRejected) {
  // CPU 2 (package 1) claims CPU 0 (package 0) as its SMT sibling.
  const std::string root = Tree(
      "no_nest",
      With(FullMachineLines(),
           "devices/system/cpu/cpu2/topology/thread_siblings_list", "0,2"));
  absl::StatusOr<Topology> t = LoadTopologyFromSysfs(root);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(t.status().message(), HasSubstr("must nest"));
}

// --- the pepc capture helper ---------------------------------------------

TEST(PepcTreeTest, JoinsMultiLineFilesAndAddsNewlines) {
  absl::StatusOr<std::string> root = MakeTestTempDir("pepc");
  ASSERT_TRUE(root.ok()) << root.status();
  int files = 0;
  ASSERT_TRUE(LayOutPepcCaptureText("# comment\n"
                                    "rw|/sys/a/table|  From  :    To\n"
                                    "rw|/sys/a/table|  1: 0\n"
                                    "ro|/sys/a/pipe|x|y\n"
                                    "ro|/sys/a/empty|\n"
                                    "rw|/sys/a/twice|first\n"
                                    "ro|/sys/a/twice|second\n",
                                    *root, "test", &files)
                  .ok());
  EXPECT_EQ(files, 4);
  EXPECT_EQ(ReadText(*root + "/a/table"), "  From  :    To\n  1: 0\n");
  EXPECT_EQ(ReadText(*root + "/a/pipe"), "x|y\n");
  EXPECT_EQ(ReadText(*root + "/a/empty"), "\n");
  EXPECT_EQ(ReadText(*root + "/a/twice"), "first\nsecond\n");
}

TEST(PepcTreeTest, LaterRepeatReplacesEarlierContent) {
  absl::StatusOr<std::string> root = MakeTestTempDir("pepc");
  ASSERT_TRUE(root.ok()) << root.status();
  ASSERT_TRUE(LayOutPepcCaptureText("rw|/sys/a/epp|old\n"
                                    "rw|/sys/a/other|1\n"
                                    "ro|/sys/a/epp|new\n",
                                    *root)
                  .ok());
  EXPECT_EQ(ReadText(*root + "/a/epp"), "new\n");
}

TEST(PepcTreeTest, RejectsMalformedLinesAndEscapingPaths) {
  absl::StatusOr<std::string> root = MakeTestTempDir("pepc");
  ASSERT_TRUE(root.ok()) << root.status();
  absl::Status s = LayOutPepcCaptureText("ok|/sys/a|1\n", *root, "cap");
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("cap:1"));
  s = LayOutPepcCaptureText("ro|/sys/a|1\nro|/sys/../etc/x|1\n", *root, "cap");
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("cap:2"));
  s = LayOutPepcCaptureText("ro|/proc/x|1\n", *root, "cap");
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  s = LayOutPepcCapture(*root + "/no_such_capture.txt", *root);
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace schedsim::topology
