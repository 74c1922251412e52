// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "governors/placement/sis_common.h"

#include <cassert>

namespace schedsim::governors {

using platform::SchedView;
using platform::WakeupRequest;
using topology::CpuSet;

int TargetOrIdlePrev(SchedView& view, const WakeupRequest& request) {
  const CpuSet& allowed = *request.allowed;
  const int target = request.target;
  const int prev = request.prev_cpu;
  if (allowed.Test(target) && IdleForWakeup(view, target)) return target;
  if (prev != target && view.domains().SharesCache(prev, target) &&
      allowed.Test(prev) && IdleForWakeup(view, prev)) {
    return prev;
  }
  return -1;
}

int TargetOrFallback(const SchedView& view, const WakeupRequest& request) {
  const CpuSet& allowed = *request.allowed;
  const int target = request.target;
  if (allowed.Test(target)) return target;
  const CpuSet& node = view.topology().node_span(target);
  for (int cpu = allowed.First(); cpu >= 0; cpu = allowed.Next(cpu)) {
    if (node.Test(cpu)) return cpu;
  }
  const int first = allowed.First();
  return first >= 0 ? first : target;
}

void SisBase::Attach(const topology::Topology& topology,
                     const topology::SchedDomains& domains) {
  const int num_cpus = topology.num_cpus();
  scan_mask_ = CpuSet(num_cpus);
  has_sd_llc_.assign(num_cpus, 0);
  for (int cpu = 0; cpu < domains.num_cpus() && cpu < num_cpus; ++cpu) {
    has_sd_llc_[cpu] = domains.HighestFlagDomain(
                           cpu, topology::kSdSharePkgResources) != nullptr;
  }
  // The cluster below each CPU's sd_llc (sd->groups with SD_CLUSTER).
  cluster_.clear();
  for (int cpu = 0; cpu < domains.num_cpus() && cpu < num_cpus; ++cpu) {
    const topology::SchedDomain* llc =
        domains.HighestFlagDomain(cpu, topology::kSdSharePkgResources);
    const std::vector<const topology::SchedDomain*> stack = domains.Stack(cpu);
    for (size_t i = 1; llc != nullptr && i < stack.size(); ++i) {
      if (stack[i] != llc || stack[i - 1]->name != "CLS") continue;
      if (cluster_.empty()) cluster_.assign(num_cpus, CpuSet());
      cluster_[cpu] = stack[i - 1]->span;
    }
  }
}

int SisBase::SelectIdleSibling(SchedView& view, const WakeupRequest& request) {
  assert(scan_mask_.width() == view.topology().num_cpus());
  const CpuSet& allowed = *request.allowed;
  const topology::SchedDomains& domains = view.domains();
  const int target = request.target;
  const int prev = request.prev_cpu;

  // 1-2. Target, then a cache-affine prev.
  int cpu = TargetOrIdlePrev(view, request);
  if (cpu >= 0) return cpu;

  // 3. Stack on an IO-completion kworker's CPU.
  if (request.waker_is_per_cpu_kthread && prev == request.this_cpu &&
      allowed.Test(prev) && view.nr_running(request.this_cpu) <= 1) {
    return prev;
  }

  // 4. recent_used_cpu, replaced by prev whatever happens next.
  if (request.recent_used_cpu != nullptr) {
    const int recent = *request.recent_used_cpu;
    *request.recent_used_cpu = prev;
    if (recent >= 0 && recent < allowed.width() && recent != prev &&
        recent != target && domains.SharesCache(recent, target) &&
        allowed.Test(recent) && IdleForWakeup(view, recent)) {
      return recent;
    }
  }

  // 6. No LLC domain: nothing to scan.
  if (!has_sd_llc_[target]) return TargetOrFallback(view, request);

  // 7. SMT: the idle-core hint, and prev's idle sibling.
  bool has_idle_core = false;
  if (view.smt_active()) {
    has_idle_core = view.has_idle_cores(target);
    if (!has_idle_core && domains.SharesCache(prev, target)) {
      cpu = SelectIdleSmt(view, prev, allowed, domains.llc_span(target), prev);
      if (cpu >= 0) return cpu;
    }
  }

  // 8. The variant's LLC scan.
  cpu = SelectIdleCpu(view, request, has_idle_core);
  if (cpu >= 0) return cpu;

  // 10. Stack on target.
  return TargetOrFallback(view, request);
}

SisBase::ScanResult SisBase::ScanForIdleCpu(SchedView& view,
                                            const WakeupRequest& request,
                                            CpuSet& cpus, bool has_idle_core,
                                            int64_t nr,
                                            const ScanOptions& options) const {
  const CpuSet& allowed = *request.allowed;
  const int target = request.target;
  // for_each_cpu_wrap(cpu, cpus, target + 1); a start of width() and of 0
  // visit the same order.
  const int start = (target + 1) % cpus.width();
  ScanResult result;
  int idle_cpu = -1;
  // The cluster first (v6.7 select_idle_cpu(), when sched_cluster_active).
  if (!cluster_.empty() && cluster_[target].width() == cpus.width() &&
      view.cluster_scan_active()) {
    const CpuSet& cluster = cluster_[target];
    for (int cpu = cluster.NextWrap(-1, start); cpu >= 0;
         cpu = cluster.NextWrap(cpu, start)) {
      if (!cpus.Test(cpu)) continue;
      if (has_idle_core) {
        const int core = SelectIdleCore(view, cpu, cpus, allowed, &idle_cpu,
                                        options.keep_core_siblings);
        if (core >= 0) {
          result.cpu = core;
          return result;
        }
        continue;
      }
      if (--nr <= 0) {
        result.depth_exhausted = true;
        return result;
      }
      if (IdleForWakeup(view, cpu)) {
        result.cpu = cpu;
        return result;
      }
    }
    cpus.AndNot(cluster);
  }
  for (int cpu = cpus.NextWrap(-1, start); cpu >= 0;
       cpu = cpus.NextWrap(cpu, start)) {
    if (has_idle_core) {
      if (options.limit_core_scan && --nr == 0) {
        result.depth_exhausted = true;
        break;
      }
      const int core = SelectIdleCore(view, cpu, cpus, allowed, &idle_cpu,
                                      options.keep_core_siblings);
      if (core >= 0) {
        result.cpu = core;
        return result;
      }
      continue;
    }
    if (--nr == 0) {
      result.depth_exhausted = true;
      break;
    }
    if (options.fail_prone_idle_mask != nullptr) {
      idle_cpu = SelectIdleSmt(view, cpu, allowed,
                               view.domains().llc_span(target), -1);
      if (idle_cpu >= 0) break;
      view.write_policy_llc_line(target);
      options.fail_prone_idle_mask->Clear(cpu);  // its whole core is busy
      continue;
    }
    // __select_idle_cpu(cpu, p).
    if (IdleForWakeup(view, cpu)) {
      idle_cpu = cpu;
      break;
    }
  }
  // A core scan that ran to the end found no fully idle core.
  if (has_idle_core && !result.depth_exhausted) {
    view.set_idle_cores(target, false);
  }
  result.cpu = idle_cpu;
  return result;
}

int SisBase::SelectIdleCore(SchedView& view, int cpu, CpuSet& cpus,
                            const CpuSet& allowed, int* idle_cpu,
                            bool keep_siblings) {
  const CpuSet& core = view.topology().smt_siblings(cpu);
  bool idle = true;
  for (int sibling = core.First(); sibling >= 0; sibling = core.Next(sibling)) {
    if (view.available_idle(sibling)) {
      if (*idle_cpu < 0 && allowed.Test(sibling)) *idle_cpu = sibling;
      continue;
    }
    idle = false;
    // The core is not idle; probe further only to find a fallback.
    if (*idle_cpu >= 0) break;
    if (allowed.Test(sibling) && view.sched_idle(sibling)) {
      *idle_cpu = sibling;
      break;
    }
  }
  if (idle) return cpu;
  if (!keep_siblings) cpus.AndNot(core);
  return -1;
}

int SisBase::SelectIdleSmt(SchedView& view, int cpu, const CpuSet& allowed,
                           const CpuSet& span, int exclude) {
  const CpuSet& core = view.topology().smt_siblings(cpu);
  for (int sibling = core.First(); sibling >= 0; sibling = core.Next(sibling)) {
    if (sibling == exclude || !allowed.Test(sibling) || !span.Test(sibling)) {
      continue;
    }
    if (IdleForWakeup(view, sibling)) return sibling;
  }
  return -1;
}

CpuSet& SisBase::LlcScanMask(const SchedView& view,
                             const WakeupRequest& request) {
  scan_mask_.AssignAnd(view.domains().llc_span(request.target),
                       *request.allowed);
  return scan_mask_;
}

}  // namespace schedsim::governors
