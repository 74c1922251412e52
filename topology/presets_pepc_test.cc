// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The presets made from the pepc captures in tests/data (skylake-2s-8170m,
// zen3-2s-7543, zen2-2s-7742) against the captures themselves: the sysfs
// import of each capture places every CPU where the preset does and has
// the same idle states and frequencies; the Skylake-SP turbo and HWP
// numbers decode from the capture's MSR dump.

#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/status_macros.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "topology/presets.h"
#include "topology/sysfs.h"
#include "topology/testing/pepc_tree.h"

namespace schedsim::topology {
namespace {

using ::schedsim::topology::testing::CaptureRunfile;
using ::schedsim::topology::testing::LayOutPepcCapture;
using ::schedsim::topology::testing::MakeTestTempDir;

absl::StatusOr<Topology> Capture(const std::string& machine) {
  SCHEDSIM_ASSIGN_OR_RETURN(std::string root, MakeTestTempDir(machine));
  SCHEDSIM_RETURN_IF_ERROR(LayOutPepcCapture(
      CaptureRunfile(absl::StrCat("pepc_", machine, "_sys_inlinefiles.txt")),
      root));
  return LoadTopologyFromSysfs(root, machine);
}

class PepcPresetTest
    : public ::testing::TestWithParam<std::pair<const char*, const char*>> {};

TEST_P(PepcPresetTest, MatchesItsCapture) {
  const auto& [preset_name, capture_name] = GetParam();
  absl::StatusOr<Topology> preset = MakePreset(preset_name);
  ASSERT_TRUE(preset.ok()) << preset.status();
  absl::StatusOr<Topology> capture = Capture(capture_name);
  ASSERT_TRUE(capture.ok()) << capture.status();
  EXPECT_TRUE(preset->warnings().empty());

  ASSERT_EQ(preset->num_cpus(), capture->num_cpus());
  EXPECT_EQ(preset->num_cores(), capture->num_cores());
  EXPECT_EQ(preset->num_llcs(), capture->num_llcs());
  EXPECT_EQ(preset->num_nodes(), capture->num_nodes());
  EXPECT_EQ(preset->num_packages(), capture->num_packages());
  EXPECT_EQ(preset->threads_per_core(), capture->threads_per_core());
  EXPECT_EQ(preset->vendor(), capture->vendor());
  for (int cpu = 0; cpu < preset->num_cpus(); ++cpu) {
    const CpuPlace& a = preset->place(cpu);
    const CpuPlace& b = capture->place(cpu);
    EXPECT_EQ(a.core, b.core) << cpu;
    EXPECT_EQ(a.llc, b.llc) << cpu;
    EXPECT_EQ(a.node, b.node) << cpu;
    EXPECT_EQ(a.package, b.package) << cpu;
    EXPECT_EQ(a.thread, b.thread) << cpu;
  }

  // The real idle table: names, descriptions, advertised latency and
  // residency (the physical costs are the model's).
  ASSERT_EQ(preset->cstates().size(), capture->cstates().size());
  for (size_t k = 0; k < preset->cstates().size(); ++k) {
    const CState& a = preset->cstates()[k];
    const CState& b = capture->cstates()[k];
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.desc, b.desc);
    EXPECT_EQ(a.exit_latency_ns, b.exit_latency_ns) << a.name;
    EXPECT_EQ(a.target_residency_ns, b.target_residency_ns) << a.name;
    EXPECT_EQ(a.polling(), b.polling()) << a.name;
    EXPECT_LE(a.physical_exit_ns, a.exit_latency_ns) << a.name;
  }

  const FrequencySpec& a = preset->frequency();
  const FrequencySpec& b = capture->frequency();
  EXPECT_EQ(a.min_khz, b.min_khz);
  EXPECT_EQ(a.base_khz, b.base_khz);
  EXPECT_EQ(a.max_turbo_khz, b.max_turbo_khz);
  EXPECT_EQ(a.pstates_khz, b.pstates_khz);
  EXPECT_EQ(a.driver, b.driver);
  EXPECT_EQ(a.governor, b.governor);
  EXPECT_EQ(a.has_hwp, b.has_hwp);
  EXPECT_EQ(a.has_epp, b.has_epp);
  if (a.has_hwp) {
    EXPECT_EQ(a.hwp.lowest, b.hwp.lowest);
    EXPECT_EQ(a.hwp.most_efficient, b.hwp.most_efficient);
    EXPECT_EQ(a.hwp.guaranteed, b.hwp.guaranteed);
    EXPECT_EQ(a.hwp.highest, b.hwp.highest);
  }
  EXPECT_GT(preset->power().tdp_mw, 0);
}

INSTANTIATE_TEST_SUITE_P(
    Captures, PepcPresetTest,
    ::testing::Values(std::make_pair("skylake-2s-8170m", "sklep0"),
                      std::make_pair("zen3-2s-7543", "milan0"),
                      std::make_pair("zen2-2s-7742", "rome0")));

// CPU 0's value of each MSR in pepc's dump ("addr:cpu|hex cpu|hex ...").
std::map<std::string, uint64_t> MsrsOfCpu0() {
  std::ifstream in(CaptureRunfile("pepc_sklep0_msr.txt"));
  std::map<std::string, uint64_t> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> head =
        absl::StrSplit(line, absl::MaxSplits(':', 1));
    if (head.size() != 2) continue;
    const std::string first_field = head[1].substr(0, head[1].find(' '));
    std::vector<std::string> first = absl::StrSplit(first_field, '|');
    uint64_t v = 0;
    if (first.size() == 2 && first[0] == "0" &&
        absl::SimpleHexAtoi(first[1], &v)) {
      out[head[0]] = v;
    }
  }
  return out;
}

TEST(PepcPresetMsrTest, SkylakeSpTurboAndHwpDecodeFromTheMsrDump) {
  std::map<std::string, uint64_t> msr = MsrsOfCpu0();
  ASSERT_TRUE(msr.count("1ad") && msr.count("1ae") && msr.count("771") &&
              msr.count("ce"));
  absl::StatusOr<Topology> t = MakePreset("skylake-2s-8170m");
  ASSERT_TRUE(t.ok()) << t.status();
  const FrequencySpec& f = t->frequency();
  // MSR_TURBO_RATIO_LIMIT: byte i is the ratio of group i; byte i of
  // MSR_TURBO_RATIO_LIMIT1 (0x1AE on Skylake-SP) the group's largest
  // active-core count; a group of 0 cores is unused.
  ASSERT_EQ(f.turbo_ceiling_khz.size(), 26u);
  for (int active = 1; active <= 26; ++active) {
    int64_t want = 0;
    for (int g = 0; g < 8; ++g) {
      const int cores = (msr["1ae"] >> (8 * g)) & 0xff;
      if (cores >= active) {
        want = int64_t((msr["1ad"] >> (8 * g)) & 0xff) * 100000;
        break;
      }
    }
    EXPECT_EQ(f.TurboCeilingKhz(active), want) << active;
  }
  // IA32_HWP_CAPABILITIES: highest, guaranteed, most efficient, lowest.
  const uint64_t caps = msr["771"];
  EXPECT_EQ(f.hwp.highest, int(caps & 0xff));
  EXPECT_EQ(f.hwp.guaranteed, int((caps >> 8) & 0xff));
  EXPECT_EQ(f.hwp.most_efficient, int((caps >> 16) & 0xff));
  EXPECT_EQ(f.hwp.lowest, int((caps >> 24) & 0xff));
  // MSR_PLATFORM_INFO bits 15:8: the maximum non-turbo ratio (base).
  EXPECT_EQ(f.base_khz, int64_t((msr["ce"] >> 8) & 0xff) * 100000);
}

// A capture with idle and frequency files of its own keeps them under a
// power model and takes the physical costs, power and V/f curve.
TEST(PepcPowerModelTest, CaptureKeepsItsTablesAndTakesPhysicalCosts) {
  absl::StatusOr<Topology> milan = Capture("milan0");
  ASSERT_TRUE(milan.ok()) << milan.status();
  absl::StatusOr<Topology> model = MakePreset("zen3-2s-nps1");
  ASSERT_TRUE(model.ok());
  absl::StatusOr<Topology> t = milan->WithPowerModel(*model);
  ASSERT_TRUE(t.ok()) << t.status();
  ASSERT_EQ(t->cstates().size(), 3u);
  const CState& c2 = t->cstates()[2];
  EXPECT_EQ(c2.desc, "ACPI IOPORT 0x414");  // the capture's
  EXPECT_EQ(c2.exit_latency_ns, 30000);     // the capture's
  EXPECT_EQ(c2.physical_exit_ns, 2500);     // zen3-2s-nps1's C2
  EXPECT_EQ(c2.power_mw, model->cstates()[2].power_mw);
  EXPECT_TRUE(t->cstates()[0].polling());
  EXPECT_EQ(t->frequency().max_turbo_khz, 3739225);  // the capture's
  EXPECT_EQ(t->frequency().driver, "acpi-cpufreq");
  EXPECT_EQ(t->frequency().vf_curve.size(), model->frequency().vf_curve.size());
  EXPECT_EQ(t->power().ceff_pf, model->power().ceff_pf);
  // 32 cores per package against the model's 64: half the package limit.
  EXPECT_EQ(t->power().tdp_mw, model->power().tdp_mw / 2);
  EXPECT_THAT(t->warnings().back(),
              ::testing::HasSubstr("the machine's own idle states kept, with "
                                   "the physical exit and entry costs, power "
                                   "and flags of the model's state of the "
                                   "same name (3) or nearest exit latency "
                                   "(0); the machine's own frequencies kept"));

  // sklep0 under the Skylake client model: C1, C1E, C6 and POLL by name.
  absl::StatusOr<Topology> sklep = Capture("sklep0");
  ASSERT_TRUE(sklep.ok()) << sklep.status();
  absl::StatusOr<Topology> skl = MakePreset("skylake-e3-1240v5");
  ASSERT_TRUE(skl.ok());
  t = sklep->WithPowerModel(*skl);
  ASSERT_TRUE(t.ok()) << t.status();
  ASSERT_EQ(t->cstates().size(), 4u);
  EXPECT_EQ(t->cstates()[3].name, "C6");
  EXPECT_EQ(t->cstates()[3].exit_latency_ns, 133000);  // the capture's
  EXPECT_EQ(t->cstates()[3].physical_exit_ns, 35000);  // the model's C6
  EXPECT_TRUE(t->frequency().has_hwp);
  EXPECT_EQ(t->frequency().max_turbo_khz, 3700000);
}

}  // namespace
}  // namespace schedsim::topology
