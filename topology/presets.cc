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

namespace schedsim::topology {
namespace {

constexpr int64_t kUs = 1000;  // ns per microsecond

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
  // Guide for Family 19h, 56665 rev. 3.00, "L1 Data Cache").
  b.set_coherence({/*smt_ns=*/7, /*llc_ns=*/25, /*package_ns=*/100,
                   /*remote_ns=*/190, /*refill_parallelism=*/24});
  return b.Build();
}

// An intel_idle state with the physical costs the simulator charges
// (assumed, following [IDLE] as the Skylake preset does): C1 exits in
// ~0.1 us and C1E in ~2 us whatever the table says; a deeper state exits in
// about a third of its advertised latency and takes a tenth of it to enter.
CState IntelState(const char* name, const char* desc, int64_t exit_us,
                  int64_t residency_us, int64_t power_mw, uint32_t flags) {
  const std::string n = name;
  if (n == "C1") {
    return State(name, desc, exit_us, residency_us, 100, 50, power_mw, flags);
  }
  if (n == "C1E") {
    return State(name, desc, exit_us, residency_us, 2 * kUs, 200, power_mw,
                 flags);
  }
  return State(name, desc, exit_us, residency_us, exit_us * kUs / 3,
               exit_us * kUs / 10, power_mw, flags);
}

CState Poll(int64_t power_mw) {
  return State("POLL", "CPUIDLE CORE POLL IDLE", 0, 0, 0, 0, power_mw,
               CState::kPolling);
}

// An intel_pstate part without HWP (the P-state algorithm, 100 MHz ratio
// steps).
FrequencySpec NoHwpIntel(int64_t min_khz, int64_t base_khz,
                         int64_t max_turbo_khz) {
  FrequencySpec f;
  f.min_khz = min_khz;
  f.base_khz = base_khz;
  f.max_turbo_khz = max_turbo_khz;
  f.transition_latency_ns = 20 * kUs;  // INTEL_CPUFREQ_TRANSITION_LATENCY
  f.has_hwp = false;
  f.has_epp = false;
  f.khz_per_perf_unit = 100000;
  f.driver = "intel_pstate";
  f.governor = "powersave";
  return f;
}

// Intel two-socket server: `cores` cores per socket, one NUMA node and one
// LLC per socket. Linux numbering as on most two-socket Xeon E5 hosts
// (ACPI MADT order, `numactl -H`): socket s, core k has first thread
// s*cores+k and second thread 2*cores+s*cores+k (assumed; BIOSes differ).
void AddTwoSocketIntel(TopologyBuilder& b, int cores) {
  for (int s = 0; s < 2; ++s) {
    for (int k = 0; k < cores; ++k) {
      const int core = s * cores + k;
      b.AddCpu(core, s, s, s, core);
      b.AddCpu(2 * cores + core, s, s, s, core);
    }
  }
  // SLIT 10 local, 20 remote: the ACPI SLIT of two-socket Sandy and Ivy
  // Bridge-EP hosts as `numactl -H` prints it (assumed; later BIOSes say
  // 21).
  b.set_distances({{10, 20}, {20, 10}});
}

// 2x Xeon E5-2690 (Sandy Bridge-EP, 32 nm): 8C/16T per socket [ARK].
absl::StatusOr<Topology> SandyBridgeEpE52690() {
  TopologyBuilder b("sandybridge-2s-e5-2690");
  b.set_model_name("Intel(R) Xeon(R) CPU E5-2690 0 @ 2.90GHz")
      .set_vendor(Vendor::kIntel);
  AddTwoSocketIntel(b, 8);
  // intel_idle: SANDYBRIDGE_X uses snb_cstates (idle_cpu_snx); the server
  // part enumerates no C7 MWAIT sub-state, so C7 is not registered:
  // POLL, C1 2/2, C1E 10/20, C3 80/211, C6 104/345 us. Power per thread:
  // assumed.
  using F = CState::Flags;
  b.set_cstates({
      Poll(5000),
      IntelState("C1", "MWAIT 0x00", 2, 2, 1800, 0),
      IntelState("C1E", "MWAIT 0x01", 10, 20, 1200, F::kAlwaysEnable),
      IntelState("C3", "MWAIT 0x10", 80, 211, 600,
                 F::kTlbFlushed | F::kCoreState),
      IntelState("C6", "MWAIT 0x20", 104, 345, 100,
                 F::kTlbFlushed | F::kCoreState),
  });
  // Base 2.9 GHz, turbo 3.8 GHz [ARK]; LFM 1.2 GHz (assumed: 12 x 100 MHz,
  // the usual Sandy Bridge-EP minimum).
  FrequencySpec f = NoHwpIntel(1200000, 2900000, 3800000);
  // Turbo bins 4/4/5/5/7/7/9/9 over base, 8 down to 1 active cores [SPEC,
  // unverified]: 3.8 GHz with 1-2 active, 3.3 GHz all-core.
  f.turbo_ceiling_khz = {3800000, 3800000, 3600000, 3600000,
                         3400000, 3400000, 3300000, 3300000};
  // V/f curve: assumed, typical 32 nm server part.
  f.vf_curve = {{1200000, 800},
                {2000000, 900},
                {2900000, 1000},
                {3300000, 1100},
                {3800000, 1250}};
  b.set_frequency(f);
  PowerSpec p;
  p.ceff_pf = 2300.0;           // assumed: ~6.7 W per busy thread at base
  p.static_mw_per_core = 2000;  // assumed
  p.uncore_mw = 20000;          // assumed: ring, 20 MiB LLC, QPI, IMC
  p.tdp_mw = 135000;            // 135 W TDP [ARK]
  b.set_power(p);
  // 32 KiB L1d/L1i 8-way, 256 KiB L2 8-way per core, 20 MiB L3 20-way per
  // socket [ARK: 20 MB cache; ways: Intel optimization manual, Sandy
  // Bridge].
  b.set_caches({{1, "Data", 32 << 10, 8, 64},
                {1, "Instruction", 32 << 10, 8, 64},
                {2, "Unified", 256 << 10, 8, 64},
                {3, "Unified", 20 << 20, 20, 64}});
  return b.Build();
}

// 2x Xeon E5-2690 v2 (Ivy Bridge-EP, 22 nm): 10C/20T per socket [ARK].
absl::StatusOr<Topology> IvyBridgeEpE52690v2() {
  TopologyBuilder b("ivybridge-2s-e5-2690v2");
  b.set_model_name("Intel(R) Xeon(R) CPU E5-2690 v2 @ 3.00GHz")
      .set_vendor(Vendor::kIntel);
  AddTwoSocketIntel(b, 10);
  // intel_idle: IVYBRIDGE_X uses ivt_cstates (idle_cpu_ivt; the _4s and _8s
  // tables are for more than two sockets): POLL, C1 1/1, C1E 10/80,
  // C3 59/156, C6 82/300 us. Power per thread: assumed.
  using F = CState::Flags;
  b.set_cstates({
      Poll(4500),
      IntelState("C1", "MWAIT 0x00", 1, 1, 1600, 0),
      IntelState("C1E", "MWAIT 0x01", 10, 80, 1000, F::kAlwaysEnable),
      IntelState("C3", "MWAIT 0x10", 59, 156, 500,
                 F::kTlbFlushed | F::kCoreState),
      IntelState("C6", "MWAIT 0x20", 82, 300, 80,
                 F::kTlbFlushed | F::kCoreState),
  });
  // Base 3.0 GHz, turbo 3.6 GHz [ARK]; LFM 1.2 GHz (assumed).
  FrequencySpec f = NoHwpIntel(1200000, 3000000, 3600000);
  // Turbo bins 3/3/3/3/3/3/4/5/6/6 over base, 10 down to 1 active cores
  // [SPEC, unverified]: 3.6 GHz with 1-2 active, 3.3 GHz from 5.
  f.turbo_ceiling_khz = {3600000, 3600000, 3500000, 3400000, 3300000,
                         3300000, 3300000, 3300000, 3300000, 3300000};
  // V/f curve: assumed, typical 22 nm server part.
  f.vf_curve = {{1200000, 750},
                {2000000, 850},
                {3000000, 950},
                {3300000, 1020},
                {3600000, 1100}};
  b.set_frequency(f);
  PowerSpec p;
  p.ceff_pf = 2000.0;           // assumed: ~5.4 W per busy thread at base
  p.static_mw_per_core = 1500;  // assumed
  p.uncore_mw = 20000;          // assumed: ring, 25 MiB LLC, QPI, IMC
  p.tdp_mw = 130000;            // 130 W TDP [ARK]
  b.set_power(p);
  // 32 KiB L1d/L1i 8-way, 256 KiB L2 8-way, 25 MiB L3 20-way per socket
  // [ARK: 25 MB cache; ways assumed as on Sandy Bridge-EP].
  b.set_caches({{1, "Data", 32 << 10, 8, 64},
                {1, "Instruction", 32 << 10, 8, 64},
                {2, "Unified", 256 << 10, 8, 64},
                {3, "Unified", 25 << 20, 20, 64}});
  return b.Build();
}

// Core i7-2600K (Sandy Bridge client, 32 nm): 4C/8T [ARK], SMT siblings
// (n, n+4) as on the E3 preset.
absl::StatusOr<Topology> SandyBridgeI72600k() {
  TopologyBuilder b("sandybridge-i7-2600k");
  b.set_model_name("Intel(R) Core(TM) i7-2600K CPU @ 3.40GHz")
      .set_vendor(Vendor::kIntel);
  for (int cpu = 0; cpu < 8; ++cpu) b.AddCpu(cpu, 0, 0, 0, cpu % 4);
  b.set_distances({{10}});
  // intel_idle snb_cstates (SANDYBRIDGE, idle_cpu_snb): POLL, C1 2/2,
  // C1E 10/20, C3 80/211, C6 104/345, C7 109/345 us. Power: assumed.
  using F = CState::Flags;
  b.set_cstates({
      Poll(4000),
      IntelState("C1", "MWAIT 0x00", 2, 2, 1400, 0),
      IntelState("C1E", "MWAIT 0x01", 10, 20, 900, F::kAlwaysEnable),
      IntelState("C3", "MWAIT 0x10", 80, 211, 450,
                 F::kTlbFlushed | F::kCoreState),
      IntelState("C6", "MWAIT 0x20", 104, 345, 60,
                 F::kTlbFlushed | F::kCoreState),
      IntelState("C7", "MWAIT 0x30", 109, 345, 50,
                 F::kTlbFlushed | F::kCoreState),
  });
  // Base 3.4 GHz, turbo 3.8 GHz [ARK]; LFM 1.6 GHz (assumed: 16 x 100 MHz,
  // the usual Sandy Bridge desktop minimum).
  FrequencySpec f = NoHwpIntel(1600000, 3400000, 3800000);
  // Turbo bins 4/3/2/1 over base with 1/2/3/4 active cores [SPEC,
  // unverified].
  f.turbo_ceiling_khz = {3800000, 3700000, 3600000, 3500000};
  // V/f curve: assumed, typical 32 nm client part.
  f.vf_curve = {{1600000, 850},
                {2400000, 950},
                {3400000, 1100},
                {3600000, 1180},
                {3800000, 1250}};
  b.set_frequency(f);
  PowerSpec p;
  p.ceff_pf = 2000.0;           // assumed: ~8.2 W per busy thread at base
  p.static_mw_per_core = 2000;  // assumed
  p.uncore_mw = 8000;           // assumed: ring, LLC, IMC (GPU idle)
  p.tdp_mw = 95000;             // 95 W TDP [ARK]
  b.set_power(p);
  // 32 KiB L1d/L1i 8-way, 256 KiB L2 8-way, 8 MiB L3 16-way [ARK: 8 MB
  // cache; ways: Intel optimization manual, Sandy Bridge].
  b.set_caches({{1, "Data", 32 << 10, 8, 64},
                {1, "Instruction", 32 << 10, 8, 64},
                {2, "Unified", 256 << 10, 8, 64},
                {3, "Unified", 8 << 20, 16, 64}});
  return b.Build();
}

// Celeron N3050 (Braswell, Airmont cores, 14 nm): 2C/2T, no SMT, one
// 2-core module sharing its L2 [ARK].
absl::StatusOr<Topology> BraswellN3050() {
  TopologyBuilder b("braswell-n3050");
  b.set_model_name("Intel(R) Celeron(R) CPU  N3050  @ 1.60GHz")
      .set_vendor(Vendor::kIntel);
  for (int cpu = 0; cpu < 2; ++cpu) b.AddCpu(cpu, 0, 0, 0, cpu);
  b.set_distances({{10}});
  // intel_idle: ATOM_AIRMONT uses cht_cstates (idle_cpu_cht): POLL, C1 1/1,
  // C6N 80/275, C6S 200/560, C7 1200/4000, C7S 10000/20000 us. Power per
  // core: assumed.
  using F = CState::Flags;
  b.set_cstates({
      Poll(900),
      IntelState("C1", "MWAIT 0x00", 1, 1, 300, 0),
      IntelState("C6N", "MWAIT 0x58", 80, 275, 40,
                 F::kTlbFlushed | F::kCoreState),
      IntelState("C6S", "MWAIT 0x52", 200, 560, 25,
                 F::kTlbFlushed | F::kCoreState),
      IntelState("C7", "MWAIT 0x60", 1200, 4000, 15,
                 F::kTlbFlushed | F::kCoreState),
      IntelState("C7S", "MWAIT 0x64", 10000, 20000, 10,
                 F::kTlbFlushed | F::kCoreState),
  });
  // Base 1.6 GHz, burst 2.16 GHz [ARK]; minimum 480 MHz (assumed: the
  // cpuinfo_min_freq intel_pstate reports on Airmont). No turbo-by-cores
  // table: the 6 W package limit below is what stops both cores bursting.
  FrequencySpec f = NoHwpIntel(480000, 1600000, 2160000);
  // V/f curve: assumed, typical 14 nm Atom part.
  f.vf_curve = {{480000, 650}, {1000000, 720}, {1600000, 820}, {2160000, 950}};
  b.set_frequency(f);
  PowerSpec p;
  p.ceff_pf = 1100.0;          // assumed: ~1.2 W per busy core at base
  p.static_mw_per_core = 300;  // assumed
  p.uncore_mw = 1200;          // assumed: SoC fabric, memory controller
  p.tdp_mw = 6000;             // 6 W TDP (PL1) [ARK]
  b.set_power(p);
  // 24 KiB L1d 6-way, 32 KiB L1i 8-way per core (assumed: Silvermont/
  // Airmont core), 1 MiB L2 16-way shared by the module (assumed; [ARK]
  // gives the cache total only).
  b.set_caches({{1, "Data", 24 << 10, 6, 64},
                {1, "Instruction", 32 << 10, 8, 64},
                {2, "Unified", 1 << 20, 16, 64}});
  return b.Build();
}

// Celeron J3455 (Apollo Lake, Goldmont cores, 14 nm): 4C/4T, no SMT, two
// 2-core modules each sharing an L2 [ARK: 2 MB cache].
absl::StatusOr<Topology> ApolloLakeJ3455() {
  TopologyBuilder b("apollolake-j3455");
  b.set_model_name("Intel(R) Celeron(R) CPU J3455 @ 1.50GHz")
      .set_vendor(Vendor::kIntel);
  for (int cpu = 0; cpu < 4; ++cpu) b.AddCpu(cpu, 0, 0, cpu / 2, cpu);
  b.set_distances({{10}});
  // intel_idle: ATOM_GOLDMONT uses bxt_cstates (idle_cpu_bxt): POLL,
  // C1 2/2, C1E 10/20, C6 133/133, C7s 155/155, C8 1000/1000, C9 2000/2000,
  // C10 10000/10000 us (the static table; bxt_idle_state_table_update
  // may replace C6-C10 with the part's MSR_*_IRTL values). Power per core:
  // assumed.
  using F = CState::Flags;
  b.set_cstates({
      Poll(1200),
      IntelState("C1", "MWAIT 0x00", 2, 2, 400, 0),
      IntelState("C1E", "MWAIT 0x01", 10, 20, 250, F::kAlwaysEnable),
      IntelState("C6", "MWAIT 0x20", 133, 133, 40,
                 F::kTlbFlushed | F::kCoreState),
      IntelState("C7s", "MWAIT 0x31", 155, 155, 35,
                 F::kTlbFlushed | F::kCoreState),
      IntelState("C8", "MWAIT 0x40", 1000, 1000, 25,
                 F::kTlbFlushed | F::kCoreState),
      IntelState("C9", "MWAIT 0x50", 2000, 2000, 15,
                 F::kTlbFlushed | F::kCoreState),
      IntelState("C10", "MWAIT 0x60", 10000, 10000, 10,
                 F::kTlbFlushed | F::kCoreState),
  });
  // Base 1.5 GHz, burst 2.3 GHz [ARK]; minimum 800 MHz (assumed: 8 x
  // 100 MHz). No turbo-by-cores table: the 10 W package limit below is
  // what stops every core bursting at once.
  FrequencySpec f = NoHwpIntel(800000, 1500000, 2300000);
  // V/f curve: assumed, typical 14 nm Atom part.
  f.vf_curve = {{800000, 680}, {1500000, 800}, {2000000, 900}, {2300000, 980}};
  b.set_frequency(f);
  PowerSpec p;
  p.ceff_pf = 1100.0;          // assumed: ~1.1 W per busy core at base
  p.static_mw_per_core = 300;  // assumed
  p.uncore_mw = 1500;          // assumed: SoC fabric, memory controller
  p.tdp_mw = 10000;            // 10 W TDP (PL1) [ARK]
  b.set_power(p);
  // 24 KiB L1d 6-way, 32 KiB L1i 8-way per core (assumed: Goldmont core),
  // 1 MiB L2 16-way per 2-core module (assumed; [ARK]: 2 MB in all).
  b.set_caches({{1, "Data", 24 << 10, 6, 64},
                {1, "Instruction", 32 << 10, 8, 64},
                {2, "Unified", 1 << 20, 16, 64}});
  return b.Build();
}

// 2x Xeon Platinum 8170M (Skylake-SP, 14 nm), 26C/52T per socket, SNC-2,
// as captured by pepc ("sklep0") [PEPC]: package = CPU mod 2, NUMA node =
// CPU mod 4 (nodes 0 and 2 in package 0), SMT siblings (n, n+52), one L3
// per package shared by its two nodes.
absl::StatusOr<Topology> SkylakeSp8170m() {
  TopologyBuilder b("skylake-2s-8170m");
  b.set_model_name("Intel(R) Xeon(R) Platinum 8170M CPU @ 2.10GHz")
      .set_vendor(Vendor::kIntel);
  for (int cpu = 0; cpu < 104; ++cpu) {
    b.AddCpu(cpu, /*package=*/cpu % 2, /*node=*/cpu % 4, /*llc=*/cpu % 2,
             /*core=*/cpu % 52);
  }
  // No node*/distance in the capture [PEPC]. SLIT assumed as `numactl -H`
  // shows on Skylake-SP SNC-2 hosts: 10 local, 11 the other node of the
  // socket, 21 the other socket.
  std::vector<std::vector<int>> d(4, std::vector<int>(4));
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j)
      d[i][j] = i == j ? 10 : (i % 2 == j % 2 ? 11 : 21);
  }
  b.set_distances(std::move(d));
  // The capture's cpuidle (intel_idle skx_cstates) [PEPC]: POLL, C1 2/2,
  // C1E 10/20, C6 133/600 us. Physical costs and power: assumed.
  using F = CState::Flags;
  b.set_cstates({
      Poll(4500),
      IntelState("C1", "MWAIT 0x00", 2, 2, 1500, 0),
      IntelState("C1E", "MWAIT 0x01", 10, 20, 1000, F::kAlwaysEnable),
      IntelState("C6", "MWAIT 0x20", 133, 600, 80,
                 F::kTlbFlushed | F::kCoreState),
  });
  FrequencySpec f;
  // cpuinfo_min_freq 1.0 GHz, base_frequency 2.1 GHz, cpuinfo_max_freq
  // 3.7 GHz, intel_pstate active, powersave, EPP files present [PEPC].
  f.min_khz = 1000000;
  f.base_khz = 2100000;
  f.max_turbo_khz = 3700000;
  // MSR_TURBO_RATIO_LIMIT 0x1AD = 0x1c1c1e2122222325 with the core-count
  // groups of 0x1AE = 0x1a1814100c000402 [MSR]: ratio 37 up to 2 active
  // cores, 35 up to 4, 34 up to 12, 33 up to 16, 30 up to 20, 28 up to 26
  // (the group with 0 cores is unused).
  for (int active = 1; active <= 26; ++active) {
    const int ratio = active <= 2    ? 37
                      : active <= 4  ? 35
                      : active <= 12 ? 34
                      : active <= 16 ? 33
                      : active <= 20 ? 30
                                     : 28;
    f.turbo_ceiling_khz.push_back(int64_t{ratio} * 100000);
  }
  f.transition_latency_ns = 20 * kUs;  // INTEL_CPUFREQ_TRANSITION_LATENCY
  f.has_hwp = true;
  f.has_epp = true;
  // IA32_HWP_CAPABILITIES 0x771 = 0x070a1525 [MSR]: lowest 7, most
  // efficient 10, guaranteed 21, highest 37 (also acpi_cppc [PEPC]).
  f.hwp = {/*lowest=*/7, /*most_efficient=*/10, /*guaranteed=*/21,
           /*highest=*/37};
  f.khz_per_perf_unit = 100000;
  f.driver = "intel_pstate";
  f.governor = "powersave";
  // V/f curve: assumed, typical 14 nm server part.
  f.vf_curve = {{1000000, 700}, {1600000, 760},  {2100000, 830},
                {2800000, 930}, {3300000, 1030}, {3700000, 1120}};
  b.set_frequency(f);
  PowerSpec p;
  p.ceff_pf = 2000.0;           // assumed: ~2.9 W per busy thread at base
  p.static_mw_per_core = 1000;  // assumed
  p.uncore_mw = 30000;          // assumed: mesh, 35.75 MiB LLC, UPI, IMC
  p.tdp_mw = 165000;            // 165 W TDP [ARK]
  b.set_power(p);
  // 32 KiB L1d/L1i 8-way, 1 MiB L2 16-way per core, 35.75 MiB L3 11-way
  // per socket ([ARK]: 35.75 MB; ways: Intel optimization manual,
  // Skylake-SP; sizes are not in the capture).
  b.set_caches({{1, "Data", 32 << 10, 8, 64},
                {1, "Instruction", 32 << 10, 8, 64},
                {2, "Unified", 1 << 20, 16, 64},
                {3, "Unified", int64_t{143} << 18, 11, 64}});
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
  // Gen EPYC Milan Review", 2021-03-15, p. 4; 24 L1D misses in flight).
  b.set_coherence({/*smt_ns=*/7, /*llc_ns=*/25, /*package_ns=*/100,
                   /*remote_ns=*/190, /*refill_parallelism=*/24});
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

const std::vector<std::string>& PresetNames() {
  static const auto* names = new std::vector<std::string>{
      "skylake-e3-1240v5",      "zen3-2s-nps1",
      "zen3-2s-nps2",           "zen3-2s-nps4",
      "sandybridge-2s-e5-2690", "ivybridge-2s-e5-2690v2",
      "sandybridge-i7-2600k",   "braswell-n3050",
      "apollolake-j3455",       "skylake-2s-8170m",
      "zen3-2s-7543",           "zen2-2s-7742"};
  return *names;
}

absl::StatusOr<Topology> MakePreset(absl::string_view name) {
  if (name == "skylake-e3-1240v5") return SkylakeE31240v5();
  if (name == "zen3-2s-nps1") return Zen3TwoSocket(1);
  if (name == "zen3-2s-nps2") return Zen3TwoSocket(2);
  if (name == "zen3-2s-nps4") return Zen3TwoSocket(4);
  if (name == "sandybridge-2s-e5-2690") return SandyBridgeEpE52690();
  if (name == "ivybridge-2s-e5-2690v2") return IvyBridgeEpE52690v2();
  if (name == "sandybridge-i7-2600k") return SandyBridgeI72600k();
  if (name == "braswell-n3050") return BraswellN3050();
  if (name == "apollolake-j3455") return ApolloLakeJ3455();
  if (name == "skylake-2s-8170m") return SkylakeSp8170m();
  if (name == "zen3-2s-7543") return Zen3Epyc7543();
  if (name == "zen2-2s-7742") return Zen2Epyc7742();
  return absl::NotFoundError(absl::StrCat(
      "unknown machine '", name,
      "'; built-in machines: ", absl::StrJoin(PresetNames(), ", ")));
}

}  // namespace schedsim::topology
