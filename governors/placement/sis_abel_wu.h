// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// sis_abel_wu: Abel Wu's "sched/fair: Improve scan efficiency of SIS" v6
// (LKML 20221019122859.18399-1-wuyun.abel@bytedance.com, four patches on
// Linux 6.1-era tip, never merged) on top of sis_util. The model in one
// sentence: keep a per-LLC mask of idle CPUs with at most one CPU per core,
// scan it instead of the whole LLC, let an idle-core search ignore SIS_UTIL's
// depth, and after a depth-limited scan fails, check whole cores and prune busy
// ones from the mask. Each patch is a parameter; with all four off this is
// exactly sis_util.
//
// Simplifications and readings of the patch prose:
//   * Patch 3's reset after a failed full scan removes the scanned CPUs
//     (icpus ∩ allowed) from icpus: the whole mask when every CPU is
//     allowed, which is the patch's "clear icpus".
//   * Patch 4 "fails partially" is read as: a depth-limited scan ran out of
//     depth without finding an idle CPU. Its flag lives on the target CPU.
//   * Patch 4 builds on patch 3's mask; enabling it without sis_core is
//     rejected by the factory.
//   * SIS_CORE acts only when SMT is active (like update_idle_core).

#ifndef SCHEDSIM_GOVERNORS_PLACEMENT_SIS_ABEL_WU_H_
#define SCHEDSIM_GOVERNORS_PLACEMENT_SIS_ABEL_WU_H_

#include <cstdint>
#include <vector>

#include "absl/strings/string_view.h"
#include "governors/placement/sis_common.h"
#include "platform/placement.h"
#include "topology/cpuset.h"
#include "topology/sched_domains.h"
#include "topology/topology.h"

namespace schedsim::governors {

struct SisAbelWuOptions {
  // Patch 1/4 "Skip core update if task pending": OnCpuIdle does nothing
  // when the CPU has a wake-up pending (rq->ttwu_pending).
  bool skip_core_update_if_pending = true;
  // Patch 2/4 "Ignore SIS_UTIL when has_idle_core": with the idle-core hint
  // set, neither SIS_UTIL's early exit nor its depth applies.
  bool ignore_sis_util_with_idle_core = true;
  // Patch 3/4 "Introduce SIS_CORE": per-LLC idle-CPU mask icpus, filled at
  // core granularity in OnCpuIdle, scanned instead of the LLC span.
  bool sis_core = true;
  // Patch 4/4 "Deal with SIS scan failures": per-CPU sis_scan_sibling flag,
  // fail-prone scans check whole cores and prune busy ones from icpus, the
  // depth counts core scans too, and icpus is reset only after a failed
  // idle-core scan. Has no effect without sis_core (the registry's factory
  // rejects that combination).
  bool scan_failure_handling = true;
};

class SisAbelWu final : public SisBase {
 public:
  explicit SisAbelWu(const SisAbelWuOptions& options = SisAbelWuOptions())
      : options_(options) {}

  absl::string_view name() const override { return "sis_abel_wu"; }

  // SisBase::Attach, then one icpus mask per LLC (sd_llc span), initialised
  // to the whole span as at domain build, and the per-CPU scan flags.
  void Attach(const topology::Topology& topology,
              const topology::SchedDomains& domains) override;

  // __update_idle_core with the series: when SMT is active, (patch 1)
  // return if `cpu` has a wake-up pending; (patch 3) add `cpu` to its LLC's
  // icpus unless a CPU of its core is already there; then the 6.1 hint
  // update (PlacementPolicy::OnCpuIdle).
  void OnCpuIdle(platform::SchedView& view, int cpu) override;

  // The idle-CPU mask of `cpu`'s LLC (for tests and traces).
  const topology::CpuSet& idle_cpus(int cpu) const {
    return icpus_[llc_slot_[cpu]];
  }
  // Whether the next scan from `cpu` is fail-prone (patch 4).
  bool scan_sibling_pending(int cpu) const { return scan_sibling_[cpu] != 0; }

 protected:
  // select_idle_cpu with the series:
  //   1. cpus = icpus ∩ allowed (sis_core and SMT active), else LLC ∩
  //      allowed;
  //   2. nr = nr_idle_scan + 1 with the early exit at 1, unless
  //      has_idle_core and patch 2 (then no limit);
  //   3. patch 4: the depth counts core scans; without has_idle_core, if
  //      target's sis_scan_sibling flag is set, clear it and scan
  //      fail-prone;
  //   4. the shared main loop (SIS_CORE keeps core siblings in the mask);
  //   5. nothing found: if the depth ran out, patch 4 sets target's flag;
  //      if the scan was complete, patch 3 resets icpus (with patch 4 only
  //      after an idle-core scan).
  int SelectIdleCpu(platform::SchedView& view,
                    const platform::WakeupRequest& request,
                    bool has_idle_core) override;

 private:
  SisAbelWuOptions options_;
  std::vector<topology::CpuSet> icpus_;  // per LLC (sd_llc span)
  std::vector<int> llc_slot_;            // per CPU: index into icpus_
  std::vector<uint8_t> scan_sibling_;    // per CPU: rq->sis_scan_sibling
};

}  // namespace schedsim::governors

#endif  // SCHEDSIM_GOVERNORS_PLACEMENT_SIS_ABEL_WU_H_
