// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Sources, abbreviated: [HW] = docs/kernel-behaviour.md, "The preset
// machines" (hardware facts, with their addresses); [IDLE] = the same file,
// "Idle states: advertised and physical exit" (measured exit costs, the
// Zen3 _CST values); the Skylake table is drivers/idle/intel_idle.c
// skl_cstates (Linux 6.1), and the tables of the Sandy Bridge, Ivy Bridge
// and Atom machines are the same file's snb_cstates, ivt_cstates,
// cht_cstates and bxt_cstates (Linux 6.1; advertised exit latency and
// target residency in us, values written here, not copied). [PEPC] = the
// real sysfs captures in tests/data (pepc_{sklep0,milan0,rome0}_sys_
// inlinefiles.txt) and [MSR] = tests/data/pepc_sklep0_msr.txt, made by
// Intel's pepc developers on lab machines. [ARK] = Intel
// ARK's page for the part (ark.intel.com: base and turbo frequency, cores,
// threads, cache, TDP); [SPEC] = the part's Intel specification update
// (turbo bins by active cores). "assumed" marks a value with no published
// source; each is a parameter to sweep.

#include "topology/presets.h"

#include <algorithm>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "topology/presets_internal.h"

namespace schedsim::topology {
namespace presets_internal {

CState State(const char* name, const char* desc, int64_t exit_us,
             int64_t residency_us, int64_t physical_exit_ns,
             int64_t physical_entry_ns, int64_t power_mw, uint32_t flags) {
  CState s;
  s.name = name;
  s.desc = desc;
  s.exit_latency_ns = exit_us * kUs;
  s.target_residency_ns = residency_us * kUs;
  s.physical_exit_ns = physical_exit_ns;
  s.physical_entry_ns = physical_entry_ns;
  s.power_mw = power_mw;
  s.flags = flags;
  return s;
}

}  // namespace presets_internal

namespace {

using presets_internal::kUs;
using presets_internal::State;

absl::StatusOr<Topology> SkylakeE31240v5() {
  TopologyBuilder b("skylake-e3-1240v5");
  b.set_model_name("Intel(R) Xeon(R) CPU E3-1240 v5 @ 3.50GHz")
      .set_vendor(Vendor::kIntel);
  // 4 cores, SMT siblings (n, n+4) [HW, E3-1275 v5 cpuinfo].
  for (int cpu = 0; cpu < 8; ++cpu) {
    b.AddCpu(cpu, /*package=*/0, /*node=*/0, /*llc=*/0, /*core=*/cpu % 4);
  }
  b.set_distances({{10}});

  // drivers/idle/intel_idle.c skl_cstates (v6.1), advertised exit/residency
  // in us.
  // Physical exit costs: assumed at roughly a third of the table, following
  // [IDLE]: physical exit ~0.1 us (C1) ... tens of us (Intel C6). Power
  // per hardware thread: assumed (intel_idle publishes none [IDLE]).
  using F = CState::Flags;
  b.set_cstates({
      State("POLL", "CPUIDLE CORE POLL IDLE", 0, 0, 0, 0, 4000, F::kPolling),
      State("C1", "MWAIT 0x00", 2, 2, 100, 50, 1200, 0),
      State("C1E", "MWAIT 0x01", 10, 20, 2 * kUs, 200, 800, F::kAlwaysEnable),
      State("C3", "MWAIT 0x10", 70, 100, 25 * kUs, 5 * kUs, 400,
            F::kTlbFlushed | F::kCoreState),
      State("C6", "MWAIT 0x20", 85, 200, 35 * kUs, 10 * kUs, 50,
            F::kTlbFlushed | F::kCoreState),
      State("C7s", "MWAIT 0x33", 124, 800, 50 * kUs, 15 * kUs, 40,
            F::kTlbFlushed | F::kCoreState),
      State("C8", "MWAIT 0x40", 200, 800, 80 * kUs, 20 * kUs, 30,
            F::kTlbFlushed | F::kCoreState),
      State("C9", "MWAIT 0x50", 480, 5000, 150 * kUs, 30 * kUs, 20,
            F::kTlbFlushed | F::kCoreState),
      State("C10", "MWAIT 0x60", 890, 5000, 300 * kUs, 40 * kUs, 10,
            F::kTlbFlushed | F::kCoreState),
  });

  FrequencySpec f;
  f.min_khz = 800000;         // assumed: usual Skylake LFM (8 x 100 MHz)
  f.base_khz = 3500000;       // CPUID brand string "@ 3.50GHz" [HW]
  f.max_turbo_khz = 3900000;  // Intel ARK #88176 [HW, unverified]
  // Turbo bins by active cores: assumed (one bin per extra core, 3.7 GHz
  // all-core).
  f.turbo_ceiling_khz = {3900000, 3800000, 3700000, 3700000};
  f.transition_latency_ns = 20 * kUs;  // INTEL_CPUFREQ_TRANSITION_LATENCY
  f.has_hwp = true;                    // CPUID hwp, hwp_epp [HW]
  f.has_epp = true;
  // HWP_CAPABILITIES in 100 MHz ratio units: highest = max turbo,
  // guaranteed = base; lowest and most efficient assumed.
  f.hwp = {/*lowest=*/8, /*most_efficient=*/10, /*guaranteed=*/35,
           /*highest=*/39};
  f.khz_per_perf_unit = 100000;
  f.driver = "intel_pstate";
  f.governor = "powersave";
  // V/f curve: assumed, typical 14 nm client part.
  f.vf_curve = {{800000, 700},  {1600000, 760},  {2400000, 850},
                {3000000, 950}, {3500000, 1050}, {3900000, 1180}};
  b.set_frequency(f);

  PowerSpec p;
  p.ceff_pf = 2200.0;  // assumed: ~8.5 W per busy thread at 3.5 GHz, 1.05 V
  p.static_mw_per_core = 1500;  // assumed
  p.uncore_mw = 6000;           // assumed (ring, LLC, memory controller)
  p.tdp_mw = 80000;             // 80 W TDP [HW, unverified]
  b.set_power(p);

  // [HW]: 32 KiB L1d/L1i 8-way, 256 KiB L2 4-way, 8 MiB L3 16-way.
  b.set_caches({{1, "Data", 32 << 10, 8, 64},
                {1, "Instruction", 32 << 10, 8, 64},
                {2, "Unified", 256 << 10, 4, 64},
                {3, "Unified", 8 << 20, 16, 64}});
  // Core-to-core line transfer: one ring, one LLC. About 40 ns between
  // cores and a few ns between SMT siblings (the line is in their shared
  // L1/L2): AnandTech's core-to-core latency test of client Skylake parts
  // (for example "The Intel Core i9-10900K Review", 2020-05-20, which
  // uses the same ring; assumed equal on the E3-1240 v5).
  // Skylake's L1D has 10 fill buffers (Intel 64 and IA-32 Architectures
  // Optimization Reference Manual, "Skylake microarchitecture").
  b.set_coherence({/*smt_ns=*/5, /*llc_ns=*/40, /*package_ns=*/40,
                   /*remote_ns=*/40, /*refill_parallelism=*/10});
  return b.Build();
}

// 2x EPYC 7713: socket s, core k (0..63): first thread s*64+k, second
// thread 128+s*64+k [HW numbering]; CCX = 8 consecutive cores.
absl::StatusOr<Topology> Zen3TwoSocket(int nps) {
  TopologyBuilder b(absl::StrCat("zen3-2s-nps", nps));
  b.set_model_name("AMD EPYC 7713 64-Core Processor").set_vendor(Vendor::kAmd);
  const int cores_per_node = 64 / nps;
  for (int s = 0; s < 2; ++s) {
    for (int k = 0; k < 64; ++k) {
      int core = s * 64 + k;
      int llc = s * 8 + k / 8;
      int node = s * nps + k / cores_per_node;
      b.AddCpu(core, s, node, llc, core);
      b.AddCpu(128 + core, s, node, llc, core);
    }
  }
  // SLIT: 10 local, 12 same socket, 32 other socket [HW, SLIT].
  const int nodes = 2 * nps;
  std::vector<std::vector<int>> d(nodes, std::vector<int>(nodes));
  for (int i = 0; i < nodes; ++i) {
    for (int j = 0; j < nodes; ++j) {
      d[i][j] = i == j ? 10 : (i / nps == j / nps ? 12 : 32);
    }
  }
  b.set_distances(std::move(d));

  // acpi_idle: POLL, C1 (FFH MWAIT) 1/2 us, C2 (IO port) 400/800 us
  // (drivers/acpi/processor_idle.c, _CST values [IDLE]). Physical exit:
  // C2 ~2.5 us from Norbert's futex ping-pong (3.54 us in C2 vs 1.07 us in
  // POLL) [IDLE]; C1 ~0.1 us. Power per thread: assumed.
  using F = CState::Flags;
  b.set_cstates({
      State("POLL", "CPUIDLE CORE POLL IDLE", 0, 0, 0, 0, 2500, F::kPolling),
      State("C1", "ACPI FFH MWAIT 0x0", 1, 2, 100, 50, 700, 0),
      State("C2", "ACPI IOPORT 0x814", 400, 800, 2500, 1000, 40, F::kCoreState),
  });

  FrequencySpec f;
  f.min_khz = 1500000;        // assumed lowest P-state
  f.base_khz = 2000000;       // 2.0 GHz base [HW]
  f.max_turbo_khz = 3675000;  // 3.675 GHz max boost [HW]
  // Boost by active cores in the socket: assumed, full boost up to 8 cores,
  // falling linearly to 3.0 GHz with all 64 active.
  for (int active = 1; active <= 64; ++active) {
    int64_t khz =
        active <= 8 ? 3675000
                    : 3675000 - (3675000 - 3000000) * int64_t{active - 8} / 56;
    f.turbo_ceiling_khz.push_back(khz / 25000 * 25000);
  }
  f.pstates_khz = {2000000, 1700000, 1500000};  // assumed ACPI _PSS
  f.transition_latency_ns = 20 * kUs;           // acpi-cpufreq FFH cap
  f.has_hwp = false;
  f.driver = "acpi-cpufreq";
  f.governor = "schedutil";
  f.vf_curve = {{1500000, 850},
                {2000000, 950},
                {2800000, 1050},
                {3300000, 1150},
                {3675000, 1250}};  // assumed
  b.set_frequency(f);

  PowerSpec p;
  p.ceff_pf = 800.0;           // assumed: ~1.4 W per busy thread at base
  p.static_mw_per_core = 300;  // assumed
  p.uncore_mw = 60000;         // assumed: IO die per socket
  p.tdp_mw = 225000;           // 225 W TDP [HW]
  b.set_power(p);

  // [HW]: 32 KiB L1d/L1i 8-way, 512 KiB L2 8-way, 32 MiB L3 16-way.
  b.set_caches({{1, "Data", 32 << 10, 8, 64},
                {1, "Instruction", 32 << 10, 8, 64},
                {2, "Unified", 512 << 10, 8, 64},
                {3, "Unified", 32 << 20, 16, 64}});
  // Core-to-core line transfer on Milan, AnandTech's core-to-core bounce
  // test ("AMD 3rd Gen EPYC Milan Review", 2021-03-15, p. 4): about 7 ns
  // between SMT siblings, 20-25 ns inside a CCX, about 100 ns between CCXs
  // of a socket (through the IO die) and about 190 ns across sockets.
  // Zen3 keeps 24 L1D misses in flight (AMD's Software Optimization
  // Guide for Family 19h, 56665 rev. 3.00, "L1 Data Cache"). A contended
  // atomic's line serves three writes inside a CCX per move into it
  // (llc_handoffs): FITTED to seed 001's UnixBench syscall rate at 512
  // copies (7.85 M loops/s, NPS1; every copy's dup/close writes one
  // struct file's f_count), docs/validation.md "Calibration"; 1 (every
  // write pays the transfer) gives 0.46x of it.
  b.set_coherence({/*smt_ns=*/7, /*llc_ns=*/25, /*package_ns=*/100,
                   /*remote_ns=*/190, /*refill_parallelism=*/24,
                   /*llc_handoffs=*/3});
  return b.Build();
}

// The acpi_idle table of an AMD capture [PEPC]: POLL, C1 (FFH MWAIT) 1/2 us,
// C2 (I/O port read) with the given latency/residency. Physical exit of
// C2 ~2.5 us as the zen3-2s-* presets have it ([IDLE]: Norbert's futex
// ping-pong); C1 ~0.1 us; power per thread assumed as there.
std::vector<CState> AmdAcpiIdle(const char* c2_desc, int64_t c2_exit_us,
                                int64_t c2_residency_us) {
  using F = CState::Flags;
  return {
      State("POLL", "CPUIDLE CORE POLL IDLE", 0, 0, 0, 0, 2500, F::kPolling),
      State("C1", "ACPI FFH MWAIT 0x0", 1, 2, 100, 50, 700, 0),
      State("C2", c2_desc, c2_exit_us, c2_residency_us, 2500, 1000, 40,
            F::kCoreState),
  };
}

// Two AMD EPYC sockets of `cores` cores, SMT siblings (n, n + 2*cores),
// `ccx_cores` cores per L3, one NUMA node per socket (NPS1), as the milan0
// and rome0 captures number them [PEPC]. SLIT 10/32 assumed as for
// zen3-2s-nps1 (the captures have no distance files).
void AddTwoSocketEpyc(TopologyBuilder& b, int cores, int ccx_cores) {
  for (int s = 0; s < 2; ++s) {
    for (int k = 0; k < cores; ++k) {
      const int core = s * cores + k;
      const int llc = (s * cores + k) / ccx_cores;
      b.AddCpu(core, s, s, llc, core);
      b.AddCpu(2 * cores + core, s, s, llc, core);
    }
  }
  b.set_distances({{10, 32}, {32, 10}});
}

// An acpi-cpufreq EPYC as captured [PEPC]: the ACPI P-states, the lowest
// as cpuinfo_min_freq, the highest as base, cpuinfo_max_freq as the boost
// ceiling, schedutil. No boost-by-active-cores table (unknown): the
// package power limit bounds all-core boost.
FrequencySpec AcpiCpufreqEpyc(std::vector<int64_t> pstates_khz,
                              int64_t max_khz) {
  FrequencySpec f;
  f.pstates_khz = std::move(pstates_khz);
  f.min_khz = f.pstates_khz.back();
  f.base_khz = f.pstates_khz.front();
  f.max_turbo_khz = max_khz;
  f.transition_latency_ns = 20 * kUs;  // acpi-cpufreq FFH cap, as zen3-2s-*
  f.has_hwp = false;
  f.driver = "acpi-cpufreq";
  f.governor = "schedutil";
  return f;
}

// 2x EPYC 7543 (Zen3 Milan): 32C/64T per socket, 4-core CCDs with 32 MiB
// of L3 each, NPS1 [PEPC: milan0].
absl::StatusOr<Topology> Zen3Epyc7543() {
  TopologyBuilder b("zen3-2s-7543");
  b.set_model_name("AMD EPYC 7543 32-Core Processor").set_vendor(Vendor::kAmd);
  AddTwoSocketEpyc(b, 32, 4);
  // C2 "ACPI IOPORT 0x414" 30/60 us [PEPC].
  b.set_cstates(AmdAcpiIdle("ACPI IOPORT 0x414", 30, 60));
  // P-states 2.8/2.1/1.5 GHz, cpuinfo_max_freq 3739225 kHz [PEPC].
  FrequencySpec f =
      AcpiCpufreqEpyc({2800000, 2100000, 1500000}, /*max_khz=*/3739225);
  f.vf_curve = {{1500000, 850},
                {2100000, 950},
                {2800000, 1050},
                {3300000, 1150},
                {3739225, 1250}};  // assumed, as zen3-2s-*
  b.set_frequency(f);
  PowerSpec p;
  p.ceff_pf = 800.0;           // assumed, as zen3-2s-*
  p.static_mw_per_core = 300;  // assumed
  p.uncore_mw = 60000;         // assumed: IO die per socket
  p.tdp_mw = 225000;           // 225 W default TDP (AMD product page)
  b.set_power(p);
  // 32 KiB L1d/L1i 8-way, 512 KiB L2 8-way, 32 MiB L3 16-way per CCD (AMD
  // product page: 256 MB L3 in all; sizes are not in the capture).
  b.set_caches({{1, "Data", 32 << 10, 8, 64},
                {1, "Instruction", 32 << 10, 8, 64},
                {2, "Unified", 512 << 10, 8, 64},
                {3, "Unified", 32 << 20, 16, 64}});
  // Milan's core-to-core transfers, as zen3-2s-nps1 (AnandTech, "AMD 3rd
  // Gen EPYC Milan Review", 2021-03-15, p. 4; 24 L1D misses in flight;
  // three atomic writes served inside a CCX per move, fitted there).
  b.set_coherence({/*smt_ns=*/7, /*llc_ns=*/25, /*package_ns=*/100,
                   /*remote_ns=*/190, /*refill_parallelism=*/24,
                   /*llc_handoffs=*/3});
  return b.Build();
}

// 2x EPYC 7742 (Zen2 Rome): 64C/128T per socket, 4-core CCXs with 16 MiB
// of L3 each, NPS1 [PEPC: rome0].
absl::StatusOr<Topology> Zen2Epyc7742() {
  TopologyBuilder b("zen2-2s-7742");
  b.set_model_name("AMD EPYC 7742 64-Core Processor").set_vendor(Vendor::kAmd);
  AddTwoSocketEpyc(b, 64, 4);
  // C2 "ACPI IOPORT 0x814" 400/800 us [PEPC].
  b.set_cstates(AmdAcpiIdle("ACPI IOPORT 0x814", 400, 800));
  // P-states 2.25/2.0/1.5 GHz, cpuinfo_max_freq 3414550 kHz [PEPC].
  FrequencySpec f =
      AcpiCpufreqEpyc({2250000, 2000000, 1500000}, /*max_khz=*/3414550);
  f.vf_curve = {{1500000, 850},
                {2000000, 930},
                {2250000, 980},
                {3000000, 1120},
                {3414550, 1220}};  // assumed
  b.set_frequency(f);
  PowerSpec p;
  p.ceff_pf = 800.0;           // assumed, as zen3-2s-*
  p.static_mw_per_core = 300;  // assumed
  p.uncore_mw = 60000;         // assumed: IO die per socket
  p.tdp_mw = 225000;           // 225 W default TDP (AMD product page)
  b.set_power(p);
  // 32 KiB L1d/L1i 8-way, 512 KiB L2 8-way, 16 MiB L3 16-way per CCX (AMD
  // product page: 256 MB L3 in all; sizes are not in the capture).
  b.set_caches({{1, "Data", 32 << 10, 8, 64},
                {1, "Instruction", 32 << 10, 8, 64},
                {2, "Unified", 512 << 10, 8, 64},
                {3, "Unified", 16 << 20, 16, 64}});
  return b.Build();
}

}  // namespace

const std::vector<PresetEntry>& Presets() {
  namespace in = presets_internal;
  static const auto* presets = new std::vector<PresetEntry>{
      {"skylake-e3-1240v5",
       "Intel Xeon E3-1240 v5 (Skylake): 4C/8T, one 8 MiB LLC, HWP",
       &SkylakeE31240v5},
      {"zen3-2s-nps1", "2x AMD EPYC 7713-class (Zen3), NPS1: 2x 64C/128T",
       [] { return Zen3TwoSocket(1); }},
      {"zen3-2s-nps2", "2x AMD EPYC 7713-class (Zen3), NPS2: 4 NUMA nodes",
       [] { return Zen3TwoSocket(2); }},
      {"zen3-2s-nps4", "2x AMD EPYC 7713-class (Zen3), NPS4: 8 NUMA nodes",
       [] { return Zen3TwoSocket(4); }},
      {"sandybridge-2s-e5-2690",
       "2x Intel Xeon E5-2690 (Sandy Bridge-EP): 2x 8C/16T",
       &in::SandyBridgeEpE52690},
      {"ivybridge-2s-e5-2690v2",
       "2x Intel Xeon E5-2690 v2 (Ivy Bridge-EP): 2x 10C/20T",
       &in::IvyBridgeEpE52690v2},
      {"sandybridge-i7-2600k",
       "Intel Core i7-2600K (Sandy Bridge client): 4C/8T",
       &in::SandyBridgeI72600k},
      {"braswell-n3050", "Intel Celeron N3050 (Braswell): 2 cores, no HWP",
       &in::BraswellN3050},
      {"apollolake-j3455", "Intel Celeron J3455 (Apollo Lake): 4 cores, no HWP",
       &in::ApolloLakeJ3455},
      {"skylake-2s-8170m",
       "2x Intel Xeon Platinum 8170M (Skylake-SP): 2x 26C/52T, pepc's sklep0",
       &in::SkylakeSp8170m},
      {"zen3-2s-7543", "2x AMD EPYC 7543 (Zen3 Milan): pepc's milan0",
       &Zen3Epyc7543},
      {"zen2-2s-7742", "2x AMD EPYC 7742 (Zen2 Rome): pepc's rome0",
       &Zen2Epyc7742},
      {"juno-r0", "Arm Juno r0 big.LITTLE: 2 Cortex-A57 + 4 Cortex-A53",
       &in::JunoR0},
      {"kunpeng920-2s-4826",
       "2x HiSilicon Kunpeng 920-4826: 2x 48 cores, 4-core clusters (CLS)",
       &in::Kunpeng920TwoSocket},
  };
  return *presets;
}

const std::vector<std::string>& PresetNames() {
  static const auto* names = [] {
    auto* v = new std::vector<std::string>;
    for (const PresetEntry& p : Presets()) v->push_back(p.name);
    return v;
  }();
  return *names;
}

absl::StatusOr<Topology> MakePreset(absl::string_view name) {
  for (const PresetEntry& p : Presets()) {
    if (name == p.name) return p.make();
  }
  return absl::NotFoundError(absl::StrCat(
      "unknown machine '", name,
      "'; built-in machines: ", absl::StrJoin(PresetNames(), ", ")));
}

}  // namespace schedsim::topology
