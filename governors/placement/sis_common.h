// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The parts of select_idle_sibling that every variant shares, written once:
// the step sequence of Linux 6.1 kernel/sched/fair.c select_idle_sibling()
// (listed at SisBase::SelectIdleSibling below), its helpers
// select_idle_smt(), select_idle_core() and __select_idle_cpu(), and the main
// loop of select_idle_cpu() (at ScanForIdleCpu below).
// A variant derives from SisBase and supplies only SelectIdleCpu(): which
// CPUs to scan and how deep (SIS_UTIL, SIS_PROP, Abel Wu's SIS_CORE), by
// calling ScanForIdleCpu() with its mask, depth and ScanOptions. Modelled
// from the prose description, not from kernel source.
//
// Simplifications, shared by every variant:
//   * No asymmetric-capacity steps (asym_fits_cpu, select_idle_capacity):
//     they never run on EPYC or Xeon SMP parts.
//   * No core-scheduling cookies: __select_idle_cpu always matches.
//   * 6.1 order and checks (no 6.12 cluster handling or prev_aff fallback).
//   * The allowed mask is tested before target, prev and the per-CPU
//     kthread CPU are probed, and a disallowed target is never returned: the
//     kernel would return it and let select_fallback_rq repair it; here the
//     policy returns the first allowed CPU of target's NUMA node (else the
//     first allowed CPU), which is what select_fallback_rq picks.

#ifndef SCHEDSIM_GOVERNORS_PLACEMENT_SIS_COMMON_H_
#define SCHEDSIM_GOVERNORS_PLACEMENT_SIS_COMMON_H_

#include <cstdint>
#include <limits>
#include <vector>

#include "platform/placement.h"
#include "topology/cpuset.h"
#include "topology/sched_domains.h"
#include "topology/topology.h"

namespace schedsim::governors {

// Scan depth meaning "no limit" (the kernel's nr = INT_MAX).
inline constexpr int64_t kSisNoDepthLimit = std::numeric_limits<int>::max();

// "Idle enough" for a wake-up, everywhere in select_idle_sibling:
// available_idle_cpu(cpu) || sched_idle_cpu(cpu) (kernel/sched/core.c,
// kernel/sched/fair.c), one probe
// (SchedView::idle_for_wakeup).
inline bool IdleForWakeup(platform::SchedView& view, int cpu) {
  return view.idle_for_wakeup(cpu);
}

// select_idle_sibling steps 1 and 2 (below): `target` if it is allowed and
// idle enough; else `prev` if it differs from target, shares target's LLC,
// is allowed and idle enough; else -1.
// REQUIRES: request.target, request.prev_cpu are CPUs of the machine and
// request.allowed is set.
int TargetOrIdlePrev(platform::SchedView& view,
                     const platform::WakeupRequest& request);

// The last step, "return target", kept within the allowed mask: target if
// allowed, else the first allowed CPU of target's NUMA node, else the first
// allowed CPU (select_fallback_rq's order). Target if nothing is allowed.
// Makes no probe.
int TargetOrFallback(const platform::SchedView& view,
                     const platform::WakeupRequest& request);

// SIS_UTIL's scan limit (select_idle_cpu(), fair.c v6.1): nr =
// nr_idle_scan + 1 read
// from the sd_llc_shared of `target`; 1 means "LLC overloaded, no scan".
inline int64_t SisUtilScanLimit(const platform::SchedView& view, int target) {
  return int64_t{view.nr_idle_scan(target)} + 1;
}

// A select_idle_sibling variant: SelectIdleSibling() runs the sequence below
// and calls the variant's SelectIdleCpu() at step 8. One object serves the
// whole machine; the scratch scan mask is sized in Attach and hooks never
// allocate.
class SisBase : public platform::PlacementPolicy {
 public:
  // Sizes the scratch mask and the per-CPU sd_llc table. A subclass that
  // overrides Attach must call SisBase::Attach first.
  void Attach(const topology::Topology& topology,
              const topology::SchedDomains& domains) override;

  // select_idle_sibling(p, prev, target) of fair.c v6.1, in order (the
  // kernel has no numbers; these are the project's, used across
  // governors/placement/ and docs/policies/placement.md);
  // the first success returns:
  //   1. target, if allowed and idle enough;
  //   2. prev, if != target, sharing target's LLC, allowed and idle enough;
  //   3. prev, if the waker is a per-CPU kthread, prev == this_cpu, prev is
  //      allowed and this_cpu's nr_running <= 1 (IO-completion stacking);
  //   4. recent_used_cpu r, read and then unconditionally replaced by prev;
  //      r if != prev, != target, sharing target's LLC, allowed and idle
  //      enough;
  //   5. (asymmetric capacity: not modelled);
  //   6. no sd_llc for target: go to 10;
  //   7. if SMT is active: has_idle_core = the LLC hint; without it, and if
  //      prev shares target's LLC, an idle SMT sibling of prev
  //      (select_idle_smt);
  //   8. SelectIdleCpu(view, request, has_idle_core), if >= 0;
  //   10. target (TargetOrFallback when target is not allowed).
  // REQUIRES: Attach() was called for this machine; request.target and
  // request.prev_cpu are CPUs of the machine; request.allowed is set.
  int SelectIdleSibling(platform::SchedView& view,
                        const platform::WakeupRequest& request) final;

 protected:
  // What ScanForIdleCpu() returns.
  struct ScanResult {
    int cpu = -1;                  // the CPU found, or -1
    bool depth_exhausted = false;  // the depth ran out before the mask did
  };

  // Where the variants' main loops differ (all false: Linux 6.1).
  struct ScanOptions {
    // select_idle_core leaves a not-fully-idle core's siblings in the scan
    // mask (SIS_CORE: the mask holds at most one CPU per core).
    bool keep_core_siblings = false;
    // The depth is also counted down in the has_idle_core (core) scan
    // (Abel Wu patch 4/4).
    bool limit_core_scan = false;
    // A fail-prone scan (Abel Wu patch 4/4): without has_idle_core, each
    // scanned CPU's whole core is checked (select_idle_smt with no
    // exclusion), and a CPU whose core is fully busy is removed from this
    // mask (false-positive cleanup). nullptr: an ordinary scan.
    topology::CpuSet* fail_prone_idle_mask = nullptr;
  };

  // select_idle_cpu(p, sd_llc, has_idle_core, target), the variant's part:
  // choose the CPUs to scan and the depth, call ScanForIdleCpu(), update
  // the variant's state. Returns an allowed CPU or -1.
  virtual int SelectIdleCpu(platform::SchedView& view,
                            const platform::WakeupRequest& request,
                            bool has_idle_core) = 0;

  // The main loop of select_idle_cpu() (fair.c v6.1) over `cpus`, which it may
  // modify, starting just after request.target and wrapping:
  //   * has_idle_core: select_idle_core on each CPU; the first fully idle
  //     core's scanned CPU is returned at once; otherwise the first idle (or
  //     else SCHED_IDLE-only) allowed CPU seen is kept as the fallback; a
  //     completed scan clears the LLC's has_idle_cores hint.
  //   * otherwise: `nr` is decremented before each CPU and the scan stops
  //     when it reaches 0 (so at most nr - 1 CPUs are probed); the first
  //     idle-enough CPU is returned.
  //   * when view.cluster_scan_active() and target's LLC domain has the
  //     cluster as its local group (v6.7, commit 8881e1639f1f): the
  //     cluster's CPUs in `cpus` first, from target + 1 wrapping, by the
  //     same two rules and the same `nr`; then they leave `cpus` and the
  //     scan goes on over the rest of the LLC.
  // `nr` is the kernel's nr (kSisNoDepthLimit for none).
  // REQUIRES: cpus is a subset of target's LLC span and of request.allowed.
  ScanResult ScanForIdleCpu(platform::SchedView& view,
                            const platform::WakeupRequest& request,
                            topology::CpuSet& cpus, bool has_idle_core,
                            int64_t nr, const ScanOptions& options) const;

  // select_idle_core(p, core, cpus, &idle_cpu): `cpu` if every SMT sibling
  // of `cpu` is available_idle; else -1, after recording in *idle_cpu (if
  // still -1) the first allowed sibling that is idle or SCHED_IDLE-only and,
  // unless `keep_siblings`, removing the core from `cpus`. Stops probing a
  // busy core once *idle_cpu is known.
  static int SelectIdleCore(platform::SchedView& view, int cpu,
                            topology::CpuSet& cpus,
                            const topology::CpuSet& allowed, int* idle_cpu,
                            bool keep_siblings);

  // select_idle_smt(p, sd, cpu): the first SMT sibling of `cpu`, other
  // than `exclude` (-1 for none), that is allowed, in `span` and idle
  // enough; -1 if none.
  static int SelectIdleSmt(platform::SchedView& view, int cpu,
                           const topology::CpuSet& allowed,
                           const topology::CpuSet& span, int exclude);

  // The scratch mask set to span(sd_llc(target)) ∩ allowed (the kernel's
  // per-CPU select_rq_mask; one is enough because a policy object handles
  // one wake-up at a time).
  topology::CpuSet& LlcScanMask(const platform::SchedView& view,
                                const platform::WakeupRequest& request);
  // The scratch mask, for a variant that fills it itself.
  topology::CpuSet& scan_mask() { return scan_mask_; }

 private:
  topology::CpuSet scan_mask_;
  std::vector<uint8_t> has_sd_llc_;  // per CPU: sd_llc exists
  // Per CPU, the span of its CLS domain when that is the child of its
  // sd_llc (the LLC domain's local group is the cluster, SD_CLUSTER);
  // empty (width 0) otherwise, or no entries on a machine without one.
  std::vector<topology::CpuSet> cluster_;
};

}  // namespace schedsim::governors

#endif  // SCHEDSIM_GOVERNORS_PLACEMENT_SIS_COMMON_H_
