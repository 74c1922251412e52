// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The Arm presets: juno-r0, Arm's Juno r0 big.LITTLE development board (two
// Cortex-A57 "big" CPUs, four Cortex-A53 "LITTLE" CPUs, one cluster each).
//
// Sources, abbreviated: [LISA] = the LISA platform info for Juno,
// lisa_sched_load_plat_info.yml, from the LISA project (ARM-software/lisa):
// a target description LISA wrote from a Juno running Linux 4.19 (CPU
// numbering, cpu-capacities "orig" as sysfs cpu_capacity shows them,
// freq-domains, per-CPU OPP lists in kHz, and the energy model "nrg-model":
// power in mW at each OPP per CPU; its idle-state powers are all 0, the
// kernel's energy model having none). [DT] = the kernel's device tree
// arch/arm64/boot/dts/arm/juno.dts (r0): the cpu-map clusters, the
// idle-states (entry-latency-us, exit-latency-us, min-residency-us) and
// dynamic-power-coefficient of each CPU type (A57 530, A53 140), and
// capacity-dmips-mhz (A57 1024, A53 578; 578 x 850 MHz / 1100 MHz = 446,
// the capacity [LISA] reports; Juno r2's A72 at 1.2 GHz would give other
// capacities, which is why this preset is r0). The DT has no OPP table:
// Juno's SCP firmware reports the OPPs (scpi-cpufreq on Linux 4.19), so
// the OPPs are [LISA]'s. [TFA] = Trusted Firmware-A's "PSCI Performance
// Measurements on Arm Juno Development Platform" (docs/perf/
// psci-performance-juno.rst, ARM-software/arm-trusted-firmware; measured on
// a Juno r1, same A57/A53 clusters): firmware entry and exit times of CPU
// and cluster power-down, and the L2 sizes (2 MB big, 1 MB LITTLE).
// "assumed" marks a value with no published source; each is a parameter
// to sweep.

#include <cstdint>
#include <vector>

#include "topology/presets_internal.h"

namespace schedsim::topology::presets_internal {

namespace {

// One cluster's OPPs as a FrequencySpec: the lowest and highest OPP, no
// boost (base = max), the OPP table as the P-state table, the voltages of
// `millivolts` (one per OPP, lowest first) as the V/f curve.
FrequencySpec ClusterOpps(const std::vector<int64_t>& khz_lowest_first,
                          const std::vector<int64_t>& millivolts) {
  FrequencySpec f;
  f.min_khz = khz_lowest_first.front();
  f.base_khz = khz_lowest_first.back();
  f.max_turbo_khz = khz_lowest_first.back();
  f.pstates_khz.assign(khz_lowest_first.rbegin(), khz_lowest_first.rend());
  // Assumed: the SCP firmware's DVFS request latency is not published; 1 ms
  // gives schedutil the kernel's 10 ms rate limit cap
  // (cpufreq_policy_transition_delay_us).
  f.transition_latency_ns = 1000 * kUs;
  f.has_hwp = false;
  f.has_epp = false;
  // The table driver of Linux 4.19 on Juno [LISA kernel 4.19, DT clocks
  // <&scpi_dvfs n>]; it resolves targets as acpi-cpufreq's table does.
  f.driver = "scpi-cpufreq";
  f.governor = "schedutil";
  for (size_t i = 0; i < khz_lowest_first.size(); ++i) {
    f.vf_curve.push_back({khz_lowest_first[i], millivolts[i]});
  }
  return f;
}

}  // namespace

absl::StatusOr<Topology> JunoR0() {
  TopologyBuilder b("juno-r0");
  b.set_model_name("Arm Juno r0: 2x Cortex-A57 + 4x Cortex-A53 (big.LITTLE)")
      .set_vendor(Vendor::kUnknown);
  // [LISA] numbering: CPUs 1, 2 are the A57s (capacity 1024), 0, 3, 4, 5
  // the A53s (446). [DT] cpu-map: one cluster per CPU type, each with its
  // own L2 and no L3, so each cluster is an LLC; one package, one node.
  const int big[] = {1, 2};
  const int little[] = {0, 3, 4, 5};
  for (int cpu : little) {
    b.AddCpu(cpu, /*package=*/0, /*node=*/0, /*llc=*/0, /*core=*/cpu);
    b.set_capacity(cpu,
                   446);  // [LISA] cpu-capacities orig; [DT] 578 x 850/1100
  }
  for (int cpu : big) {
    b.AddCpu(cpu, /*package=*/0, /*node=*/0, /*llc=*/1, /*core=*/cpu);
    b.set_capacity(cpu, 1024);  // [LISA]; [DT] capacity-dmips-mhz 1024
  }
  b.set_distances({{10}});

  // Frequency domains [LISA] freq-domains [0, 3, 4, 5] and [1, 2], OPPs
  // [LISA] freqs. Voltages: those the energy model implies. [LISA]'s power
  // at each OPP is the kernel's dynamic-power-coefficient model,
  // P = C x f x V^2 (drivers/opp/of.c, _get_cpu_power / the EM's
  // of_dev_pm_opp_get_cpu_power), with C = [DT]'s 530 (A57) and 140 (A53)
  // uW/MHz/V^2; solved for V and rounded to 10 mV, both clusters give
  // 820, 850, 900, 950, 1000 mV, which reproduce every [LISA] power to
  // within 1 mW (the EM truncates, ActivePowerMw rounds).
  b.AddFrequencyDomain({0, 3, 4, 5},
                       ClusterOpps({450000, 575000, 700000, 775000, 850000},
                                   {820, 850, 900, 950, 1000}),
                       /*ceff_pf=*/140.0);  // A53: [DT] 140, [LISA] 119 mW
                                            // at 850 MHz, 1.0 V
  b.AddFrequencyDomain({1, 2},
                       ClusterOpps({450000, 625000, 800000, 950000, 1100000},
                                   {820, 850, 900, 950, 1000}),
                       /*ceff_pf=*/530.0);  // A57: [DT] 530, [LISA] 583 mW
                                            // at 1100 MHz, 1.0 V

  // Idle states: the arm cpuidle driver's WFI (drivers/cpuidle/cpuidle-arm.c
  // with include/linux/cpuidle.h ARM_CPUIDLE_WFI_STATE: 1 us latency and
  // residency), then [DT]'s
  // cpu-sleep-0 and cluster-sleep-0, whose cpuidle exit latency is
  // entry-latency-us + exit-latency-us (drivers/cpuidle/dt_idle_states.c)
  // and target residency min-residency-us: cpu-sleep-0 300 + 1200 us,
  // 2000 us; cluster-sleep-0 400 + 1200 us, 2500 us. cluster-sleep-0 powers
  // the cluster down only when all its CPUs are in it (PSCI platform-
  // coordinated mode, [TFA]: "CPU 5 only powers down to level 0" while CPU
  // 4 runs): CState::kClusterState. Physical costs: [TFA]'s firmware
  // PSCI_ENTRY / PSCI_EXIT (CPU level about 22 / 14 us; cluster level
  // 114 / 20 us, most of the entry an L2 flush) plus an assumed 50 us
  // (CPU) and 100 us (cluster) for the SCP to power the core or cluster
  // back up. WFI exit: assumed 1 us. Power per CPU: assumed ([LISA]'s
  // idle-state powers are 0: the kernel's EM has none); WFI keeps the
  // core clocked-gated but powered, the sleep states power it off.
  using F = CState::Flags;
  b.set_cstates({
      State("WFI", "ARM WFI", 1, 1, 1 * kUs, 0, 15, 0),
      State("cpu-sleep-0", "PSCI 0x0010000", 1500, 2000, 64 * kUs, 22 * kUs, 0,
            0),
      State("cluster-sleep-0", "PSCI 0x1010000", 1600, 2500, 120 * kUs,
            114 * kUs, 0, F::kClusterState),
  });

  // The machine-wide FrequencySpec is the big cluster's (TopologyBuilder:
  // the domain of the biggest CPU); each domain has its own.
  PowerSpec p;
  p.ceff_pf = 530.0;         // A57 [DT]; each domain sets its own
  p.static_mw_per_core = 0;  // assumed: [LISA]'s EM has no static power
  p.uncore_mw = 0;           // assumed: no cluster power in [LISA]'s EM
  p.tdp_mw = 0;              // no package power limit on Juno
  b.set_power(p);

  // Caches of a big CPU (one list per machine): Cortex-A57 TRM, 32 KiB
  // 2-way L1d, 48 KiB 3-way L1i, 16-way L2; 2 MB L2 per big cluster [TFA]
  // (the LITTLE cluster's is 1 MB, its A53s 32 KiB L1s).
  b.set_caches({{1, "Data", 32 << 10, 2, 64},
                {1, "Instruction", 48 << 10, 3, 64},
                {2, "Unified", 2 << 20, 16, 64}});
  // Core-to-core line transfer: not published for Juno; left 0 (shared-
  // line costs off), as for imported machines.
  return b.Build();
}

// kunpeng920-2s-4826: two HiSilicon Kunpeng 920-4826 sockets (TaiShan v110
// cores, ARMv8.2, no SMT), 48 cores each, as on a TaiShan 200 server. Public
// facts, abbreviated: [HK] = Huawei's Kunpeng documentation
// (hikunpeng.com, "Kunpeng Processor NUMA Overview" and the programming
// tuning guide's "NUMA Structure": the cores of a die form a NUMA node,
// dies and sockets linked by the on-chip network and Hydra); [CSB] = the
// description of the chip most tuning guides repeat (codestudyblog.com
// 80428094557): each super core cluster (SCCL, one die) holds 6 core
// clusters (CCL) of 4 cores, 2 I/O clusters and 4 DDR controllers, and
// the L3 is split into a TAG part in each CCL and a DATA part shared on
// the die's bus; [CLS] = Barry Song's cluster-scheduler series (LKML
// 2021, merged in v5.16: commits c5e22feffdd7 "topology: Represent
// clusters of CPUs within a die" and 778c558f49a2 "sched: Add cluster
// scheduler level in core and related Kconfig for ARM64"): on Kunpeng 920
// 24 CPUs per NUMA node, each 4 CPUs of a cluster sharing an L3 tag, all
// clusters of the die sharing the L3 data; [4826] = the 4826's public
// specification, 48 cores at 2.6 GHz, 64 KiB L1i and L1d and 512 KiB L2
// per core, 1 MiB L3 per core. "assumed" marks the rest.
absl::StatusOr<Topology> Kunpeng920TwoSocket() {
  TopologyBuilder b("kunpeng920-2s-4826");
  b.set_model_name("HiSilicon Kunpeng 920-4826 (2 sockets, 96 cores)")
      .set_vendor(Vendor::kUnknown);
  // CPU numbering as arm64 ACPI PPTT enumerates them: die by die, cluster
  // by cluster. Die d (0..3) is NUMA node d, socket d / 2; its LLC is the
  // die's L3 [CSB][CLS]; cluster = 4 consecutive CPUs [CLS].
  for (int cpu = 0; cpu < 96; ++cpu) {
    const int die = cpu / 24;
    b.AddCpu(cpu, /*package=*/die / 2, /*node=*/die, /*llc=*/die,
             /*core=*/cpu);
    b.SetCluster(cpu, cpu / 4);
  }
  // SLIT: assumed, the shape of two dies per socket (12 to the other die of
  // the socket, 20 and 22 across the Hydra link); [HK] gives no table.
  b.set_distances(
      {{10, 12, 20, 22}, {12, 10, 22, 24}, {20, 22, 10, 12}, {22, 24, 12, 10}});

  // cppc_cpufreq (ACPI CPPC on Kunpeng): assumed OPPs up to the 2.6 GHz
  // [4826] nominal, no boost; schedutil.
  FrequencySpec f;
  f.min_khz = 1000000;
  f.base_khz = 2600000;
  f.max_turbo_khz = 2600000;
  f.pstates_khz = {2600000, 2000000, 1500000, 1000000};
  f.transition_latency_ns = 1000 * kUs;  // assumed: schedutil's 10 ms cap
  f.has_hwp = false;
  f.has_epp = false;
  f.driver = "cppc_cpufreq";
  f.governor = "schedutil";
  f.vf_curve = {{1000000, 700},
                {1500000, 780},
                {2000000, 860},
                {2600000, 950}};  // assumed
  b.set_frequency(f);

  // Idle: WFI (the arm64 default idle, 1/1 us) and an assumed PSCI core
  // power-down (the firmware's _LPI values are not published): 100/400 us
  // advertised, 50 us physical exit.
  b.set_cstates({
      State("WFI", "ARM WFI", 1, 1, 1 * kUs, 0, 100, 0),
      State("cpu-sleep", "PSCI core power-down (assumed)", 100, 400, 50 * kUs,
            20 * kUs, 0, 0),
  });

  PowerSpec p;
  p.ceff_pf = 450.0;           // assumed: ~1.1 W per busy core at 2.6 GHz
  p.static_mw_per_core = 150;  // assumed
  p.uncore_mw = 20000;         // assumed, per socket
  p.tdp_mw = 180000;           // assumed (published 4826 TDP: 168 W)
  b.set_power(p);

  // [4826]: 64 KiB L1d and L1i, 512 KiB private L2, the die's L3 (1 MiB per
  // core, 24 MiB per die); ways assumed.
  b.set_caches({{1, "Data", 64 << 10, 4, 64},
                {1, "Instruction", 64 << 10, 4, 64},
                {2, "Unified", 512 << 10, 8, 64},
                {3, "Unified", 24 << 20, 16, 64}});
  // Core-to-core line transfer: not published; left 0 (shared-line costs
  // off), as for imported machines.
  return b.Build();
}

}  // namespace schedsim::topology::presets_internal
