// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The Intel presets other than the Skylake E3 of presets.cc: Sandy Bridge-EP
// and Ivy Bridge-EP servers, a Sandy Bridge desktop, two TDP-limited Atom
// parts without HWP, and the Skylake-SP server of the pepc capture. Each
// number has its source beside it (presets.h).

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "topology/presets_internal.h"
#include "topology/topology.h"

namespace schedsim::topology::presets_internal {
namespace {

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

}  // namespace

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

}  // namespace schedsim::topology::presets_internal
