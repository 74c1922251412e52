// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "topology/hwloc.h"

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

#if defined(__SANITIZE_ADDRESS__)
// LeakSanitizer: when libhwloc 2.9 parses with its own minimal XML parser
// (libhwloc-plugins' libxml2 importer absent, or HWLOC_LIBXML_IMPORT=0), a
// truncated file makes it leak the object it was importing (allocated in
// hwloc_alloc_setup_object; hwloc_topology_destroy does not reach it). Only
// that allocation site is suppressed: a topology or distances structure the
// importer failed to release would still be reported.
extern "C" const char* __lsan_default_suppressions() {
  return "leak:hwloc_alloc_setup_object\n";
}
#endif

namespace schedsim::topology {
namespace {

using ::testing::AllOf;
using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;

// Test data, relative to the runfiles root of workspace "schedsim" (the
// test's working directory).
constexpr char kZen3[] = "tests/data/hwloc_AMD-19h-Zen3-2xEpyc-7763.xml";
constexpr char kSkylake[] = "tests/data/hwloc_Intel-Skylake-2xXeon6140.xml";
constexpr char kTioga[] = "tests/data/mpibind_eas-tioga.xml";

std::string TempPath(const std::string& file) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return std::string(dir != nullptr ? dir : "/tmp") + "/" + file;
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in),
                     std::istreambuf_iterator<char>());
}

std::string WriteTemp(const std::string& file, const std::string& content) {
  const std::string path = TempPath(file);
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

// A matcher for a warning list containing a warning with `text`.
auto HasWarning(const std::string& text) { return Contains(HasSubstr(text)); }

// hwloc CPU kinds give a hybrid part its capacities: by FrequencyMaxMHz
// (4700 MHz cores 1024, 3500 MHz cores 1024 x 3500 / 4700 = 763).
TEST(HwlocImportTest, CpuKindsByMaximumFrequency) {
  absl::StatusOr<Topology> t =
      LoadTopologyFromHwlocXml("tests/data/hybrid_cpukinds.xml");
  ASSERT_TRUE(t.ok()) << t.status();
  ASSERT_EQ(t->num_cpus(), 8);
  EXPECT_TRUE(t->asym_capacity());
  for (int c = 0; c < 4; ++c) EXPECT_EQ(t->capacity(c), 1024) << c;
  for (int c = 4; c < 8; ++c) EXPECT_EQ(t->capacity(c), 763) << c;
  EXPECT_THAT(t->warnings(),
              HasWarning("CPU capacities from hwloc CPU kinds (CPUs 4-7 "
                         "IntelAtom efficiency 0 3500 MHz; CPUs 0-3 IntelCore "
                         "efficiency 1 4700 MHz), by FrequencyMaxMHz"));
}

// By LinuxCapacity (the kernel's cpu_capacity) when every kind has it;
// with efficiency ranks only, no capacities and a warning that says so.
TEST(HwlocImportTest, CpuKindsByLinuxCapacityOrRanksOnly) {
  absl::StatusOr<Topology> t =
      LoadTopologyFromHwlocXml("tests/data/biglittle_cpukinds.xml");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_TRUE(t->asym_capacity());
  EXPECT_EQ(t->capacity(0), 446);
  EXPECT_EQ(t->capacity(1), 446);
  EXPECT_EQ(t->capacity(2), 1024);
  EXPECT_THAT(t->warnings(), HasWarning("by LinuxCapacity"));

  std::string ranks = ReadAll("tests/data/biglittle_cpukinds.xml");
  for (const char* info :
       {"    <info name=\"LinuxCapacity\" value=\"446\"/>\n",
        "    <info name=\"LinuxCapacity\" value=\"1024\"/>\n",
        "    <info name=\"FrequencyMaxMHz\" value=\"1100\"/>\n",
        "    <info name=\"FrequencyMaxMHz\" value=\"1800\"/>\n"}) {
    const size_t at = ranks.find(info);
    ASSERT_NE(at, std::string::npos) << info;
    ranks.erase(at, std::string(info).size());
  }
  t = LoadTopologyFromHwlocXml(WriteTemp("ranks_only.xml", ranks));
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_FALSE(t->asym_capacity());
  EXPECT_THAT(t->warnings(),
              HasWarning("give efficiency ranks but neither LinuxCapacity nor "
                         "FrequencyMaxMHz for every kind: capacities unknown"));
}

TEST(HwlocImportTest, Zen3TwoEpyc7763HasSixteenCcxsAndNoSmt) {
  absl::StatusOr<Topology> t = LoadTopologyFromHwlocXml(kZen3);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->name(), "hwloc_AMD-19h-Zen3-2xEpyc-7763");
  EXPECT_EQ(t->model_name(), "AMD EPYC 7763 64-Core Processor");
  EXPECT_EQ(t->vendor(), Vendor::kAmd);
  EXPECT_EQ(t->num_cpus(), 128);
  EXPECT_EQ(t->num_cores(), 128);
  EXPECT_EQ(t->threads_per_core(), 1);
  EXPECT_EQ(t->num_packages(), 2);
  EXPECT_EQ(t->num_llcs(), 16);
  for (const CpuSet& llc : t->llcs()) EXPECT_EQ(llc.Count(), 8);
  EXPECT_EQ(t->llc_span(0).ToList(), "0-7");
  EXPECT_EQ(t->llc_span(127).ToList(), "120-127");
  EXPECT_EQ(t->package_span(0).ToList(), "0-63");
  EXPECT_EQ(t->package_span(64).ToList(), "64-127");
  EXPECT_EQ(t->smt_siblings(5).ToList(), "5");
}

TEST(HwlocImportTest, Zen3CpuidOnlyNodeIsKeptAsTheFileStatesIt) {
  // The file (CPUID backend only) has one NUMA node for both sockets and no
  // distances: one node holding both packages, as lstopo shows it.
  absl::StatusOr<Topology> t = LoadTopologyFromHwlocXml(kZen3);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->num_nodes(), 1);
  EXPECT_EQ(t->num_packages(), 2);
  EXPECT_EQ(t->node_span(0).ToList(), "0-127");
  EXPECT_EQ(t->distance(0, 0), 10);
  EXPECT_THAT(t->warnings(), HasWarning("span several packages; kept as one"));
  EXPECT_THAT(t->warnings(), Not(HasWarning("split")));
  EXPECT_THAT(t->warnings(), Not(HasWarning("no NUMA distances given")));
  EXPECT_THAT(t->warnings(), HasWarning("format 3.x read as format 2.0"));
  EXPECT_THAT(t->warnings(), HasWarning("no C-state (cpuidle) or frequency"));
  EXPECT_TRUE(t->cstates().empty());
  EXPECT_EQ(t->frequency().max_turbo_khz, 0);
}

TEST(HwlocImportTest, Zen3CachesOfCpu0) {
  absl::StatusOr<Topology> t = LoadTopologyFromHwlocXml(kZen3);
  ASSERT_TRUE(t.ok()) << t.status();
  const std::vector<CacheSpec>& c = t->caches();
  ASSERT_EQ(c.size(), 4u);
  EXPECT_EQ(c[0].level, 1);
  EXPECT_EQ(c[0].type, "Data");
  EXPECT_EQ(c[0].size_bytes, 32768);
  EXPECT_EQ(c[0].ways, 8);
  EXPECT_EQ(c[0].line_bytes, 64);
  EXPECT_EQ(c[1].level, 1);
  EXPECT_EQ(c[1].type, "Instruction");
  EXPECT_EQ(c[1].size_bytes, 32768);
  EXPECT_EQ(c[1].ways, 8);
  EXPECT_EQ(c[2].level, 2);
  EXPECT_EQ(c[2].type, "Unified");
  EXPECT_EQ(c[2].size_bytes, 512 * 1024);
  EXPECT_EQ(c[2].ways, 8);
  EXPECT_EQ(c[3].level, 3);
  EXPECT_EQ(c[3].type, "Unified");
  EXPECT_EQ(c[3].size_bytes, 32 * 1024 * 1024);
  EXPECT_EQ(c[3].ways, 16);
  EXPECT_EQ(c[3].line_bytes, 64);
}

TEST(HwlocImportTest, SkylakeTwoXeon6140HasSiblingPairsNAndNPlus36) {
  absl::StatusOr<Topology> t = LoadTopologyFromHwlocXml(kSkylake);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->model_name(), "Intel(R) Xeon(R) Gold 6140 CPU @ 2.30GHz");
  EXPECT_EQ(t->vendor(), Vendor::kIntel);
  EXPECT_EQ(t->num_cpus(), 72);
  EXPECT_EQ(t->num_cores(), 36);
  EXPECT_EQ(t->threads_per_core(), 2);
  EXPECT_EQ(t->num_packages(), 2);
  EXPECT_EQ(t->num_llcs(), 2);
  // The file numbers CPUs alternately across sockets: package 0 holds the
  // even CPUs, and each core's threads are n and n + 36.
  for (int cpu = 0; cpu < 36; ++cpu) {
    EXPECT_EQ(t->smt_siblings(cpu).ToVector(),
              (std::vector<int>{cpu, cpu + 36}))
        << "cpu " << cpu;
    EXPECT_EQ(t->place(cpu).package, cpu % 2) << "cpu " << cpu;
    EXPECT_EQ(t->place(cpu).thread, 0);
    EXPECT_EQ(t->place(cpu + 36).thread, 1);
  }
  EXPECT_EQ(t->package_span(0).Count(), 36);
  EXPECT_EQ(t->llc_span(0), t->package_span(0));
  EXPECT_EQ(t->llc_span(1), t->package_span(1));
  EXPECT_TRUE(t->package_span(0).Test(70));
  EXPECT_FALSE(t->package_span(0).Test(71));
  EXPECT_EQ(t->num_nodes(), 1);  // one node in the file, over both packages
  ASSERT_EQ(t->caches().size(), 4u);
  EXPECT_EQ(t->caches()[2].size_bytes, 1024 * 1024);
  EXPECT_EQ(t->caches()[2].ways, 16);
  EXPECT_EQ(t->caches()[3].size_bytes, 25952256);  // 24.75 MiB
  EXPECT_EQ(t->caches()[3].ways, 11);
}

TEST(HwlocImportTest, TiogaHasFourNpsNodesWithSlit) {
  absl::StatusOr<Topology> t = LoadTopologyFromHwlocXml(kTioga);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->name(), "mpibind_eas-tioga");
  EXPECT_EQ(t->model_name(), "AMD EPYC 7A53 64-Core Processor");
  EXPECT_EQ(t->vendor(), Vendor::kAmd);
  EXPECT_EQ(t->num_packages(), 1);
  EXPECT_EQ(t->num_cores(), 64);
  EXPECT_EQ(t->num_cpus(), 128);
  EXPECT_EQ(t->threads_per_core(), 2);
  EXPECT_EQ(t->num_llcs(), 8);
  ASSERT_EQ(t->num_nodes(), 4);
  for (const CpuSet& node : t->nodes()) EXPECT_EQ(node.Count(), 32);
  EXPECT_EQ(t->node_span(0).ToList(), "0-15,64-79");
  EXPECT_EQ(t->node_span(127).ToList(), "48-63,112-127");
  EXPECT_EQ(t->llc_span(0).ToList(), "0-7,64-71");
  EXPECT_EQ(t->smt_siblings(0).ToList(), "0,64");
  EXPECT_EQ(t->distance(0, 0), 10);
  EXPECT_EQ(t->distance(0, 1), 12);
  for (int a = 0; a < 4; ++a) {
    for (int b = 0; b < 4; ++b) {
      EXPECT_EQ(t->distance(a, b), a == b ? 10 : 12) << a << "->" << b;
    }
  }
  EXPECT_THAT(t->warnings(), Not(HasWarning("split")));
  EXPECT_THAT(t->warnings(), Not(HasWarning("no NUMA distances")));
  EXPECT_THAT(t->warnings(), Not(HasWarning("format 3.x")));
  EXPECT_THAT(t->warnings(), HasWarning("no C-state (cpuidle) or frequency"));
  ASSERT_EQ(t->caches().size(), 4u);
  EXPECT_EQ(t->caches()[3].size_bytes, 32 * 1024 * 1024);
}

TEST(HwlocImportTest, NameOverridesFileName) {
  absl::StatusOr<Topology> t = LoadTopologyFromHwlocXml(kTioga, "tioga29");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->name(), "tioga29");
}

TEST(HwlocImportTest, MissingFileIsNotFoundNamingThePath) {
  const std::string path = TempPath("no_such_machine.xml");
  absl::StatusOr<Topology> t = LoadTopologyFromHwlocXml(path);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(t.status().message()), HasSubstr(path));
}

// Issue 49 #14: a PU whose os_index is HWLOC_UNKNOWN_INDEX (2^32 - 1) made
// libhwloc allocate a bitmap of 2^32 bits twice (1 GB, 13 s) before the
// importer refused it. The text is checked before libhwloc sees it.
TEST(HwlocImportTest, AHugeOsIndexIsRefusedBeforeLibhwlocSizesABitmap) {
  const std::string repro = "tests/data/repro/hwloc_pu_os_index_unknown.xml";
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<Topology> t = LoadTopologyFromHwlocXml(repro);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(
      std::string(t.status().message()),
      AllOf(HasSubstr(repro), HasSubstr("line 9: the PU object's os_index is "
                                        "\"4294967295\"; expected a number in "
                                        "0..1048576")));
  EXPECT_LT(seconds, 5.0);
  // Spelled with single quotes and blanks, or on a NUMA node: the same.
  std::string text = ReadAll(repro);
  const std::string pu = "<object type=\"PU\" os_index=\"4294967295\"";
  ASSERT_NE(text.find(pu), std::string::npos);
  for (const std::string& spelling :
       {std::string("<object type='PU'  os_index = '4294967295'"),
        std::string("<object type=\"PU\" os_index=\"-1\"")}) {
    std::string odd = text;
    odd.replace(odd.find(pu), pu.size(), spelling);
    t = LoadTopologyFromHwlocXml(WriteTemp("odd_os_index.xml", odd));
    ASSERT_FALSE(t.ok()) << spelling;
    EXPECT_THAT(std::string(t.status().message()),
                HasSubstr("the PU object's os_index is"))
        << spelling;
  }
  std::string node = ReadAll(kSkylake);
  const std::string numa = "<object type=\"NUMANode\" os_index=\"0\"";
  ASSERT_NE(node.find(numa), std::string::npos);
  node.replace(node.find(numa), numa.size(),
               "<object type=\"NUMANode\" os_index=\"3000000000\"");
  t = LoadTopologyFromHwlocXml(WriteTemp("numa_os_index.xml", node));
  ASSERT_FALSE(t.ok());
  EXPECT_THAT(std::string(t.status().message()),
              HasSubstr("line 5: the NUMANode object's os_index is "
                        "\"3000000000\""));
}

TEST(HwlocImportTest, DirectoryIsInvalidArgument) {
  const std::string path = TempPath("");
  absl::StatusOr<Topology> t = LoadTopologyFromHwlocXml(path);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(t.status().message()),
              AllOf(HasSubstr(path), HasSubstr("directory")));
}

TEST(HwlocImportTest, GarbageIsInvalidArgumentNamingThePath) {
  const std::string path =
      WriteTemp("garbage.xml", "this is not XML\n\x01\x02\xff garbage\n");
  absl::StatusOr<Topology> t = LoadTopologyFromHwlocXml(path);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(t.status().message()),
              AllOf(HasSubstr(path), HasSubstr("no <topology> root element"),
                    HasSubstr("lstopo")));
}

TEST(HwlocImportTest, EmptyFileIsInvalidArgument) {
  const std::string path = WriteTemp("empty.xml", "");
  absl::StatusOr<Topology> t = LoadTopologyFromHwlocXml(path);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(t.status().message()), HasSubstr(path));
}

TEST(HwlocImportTest, OtherXmlIsInvalidArgument) {
  const std::string path = WriteTemp(
      "other.xml",
      "<?xml version=\"1.0\"?>\n<machine><cpu id=\"0\"/></machine>\n");
  absl::StatusOr<Topology> t = LoadTopologyFromHwlocXml(path);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(t.status().message()),
              AllOf(HasSubstr(path), HasSubstr("<topology>")));
}

TEST(HwlocImportTest, TopologyWithoutObjectsIsInvalidArgument) {
  const std::string path = WriteTemp(
      "hollow.xml",
      "<?xml version=\"1.0\"?>\n<topology version=\"2.0\">\n</topology>\n");
  absl::StatusOr<Topology> t = LoadTopologyFromHwlocXml(path);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(t.status().message()), HasSubstr(path));
}

TEST(HwlocImportTest, TruncatedTiogaIsInvalidArgumentNamingThePath) {
  const std::string full = ReadAll(kTioga);
  ASSERT_GT(full.size(), 100000u);
  const std::string path =
      WriteTemp("truncated-tioga.xml", full.substr(0, full.size() / 2));
  absl::StatusOr<Topology> t = LoadTopologyFromHwlocXml(path);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(t.status().message()),
              AllOf(HasSubstr(path), HasSubstr("could not import"),
                    HasSubstr("truncated")));
}

TEST(HwlocImportTest, TruncatedFormat3FileIsInvalidArgument) {
  const std::string full = ReadAll(kZen3);
  ASSERT_GT(full.size(), 100000u);
  const std::string path =
      WriteTemp("truncated-zen3.xml", full.substr(0, full.size() / 3));
  absl::StatusOr<Topology> t = LoadTopologyFromHwlocXml(path);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(t.status().message()), HasSubstr(path));
}

TEST(HwlocImportTest, TruncatedInsideRootTagIsInvalidArgument) {
  const std::string path = WriteTemp(
      "truncated-root.xml", "<?xml version=\"1.0\"?>\n<topology version=\"2");
  absl::StatusOr<Topology> t = LoadTopologyFromHwlocXml(path);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(t.status().message()),
              AllOf(HasSubstr(path), HasSubstr("truncated")));
}

TEST(HwlocImportTest, FutureFormatVersionIsInvalidArgument) {
  std::string content = ReadAll(kTioga);
  const std::string from = "<topology version=\"2.0\">";
  const size_t at = content.find(from);
  ASSERT_NE(at, std::string::npos);
  content.replace(at, from.size(), "<topology version=\"4.0\">");
  const std::string path = WriteTemp("future.xml", content);
  absl::StatusOr<Topology> t = LoadTopologyFromHwlocXml(path);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(t.status().message()),
              AllOf(HasSubstr(path), HasSubstr("4.0"), HasSubstr("newer")));
}

}  // namespace
}  // namespace schedsim::topology
