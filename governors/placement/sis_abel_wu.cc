// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "governors/placement/sis_abel_wu.h"

#include <memory>

#include "absl/status/status.h"
#include "platform/registry.h"

namespace schedsim::governors {

using topology::CpuSet;

void SisAbelWu::Attach(const topology::Topology& topology,
                       const topology::SchedDomains& domains) {
  SisBase::Attach(topology, domains);
  const int num_cpus = topology.num_cpus();
  icpus_.clear();
  llc_slot_.assign(num_cpus, -1);
  scan_sibling_.assign(num_cpus, 0);
  // One slot per distinct sd_llc, found by its first CPU (sd_llc_id).
  std::vector<int> slot_of_first(num_cpus, -1);
  for (int cpu = 0; cpu < num_cpus; ++cpu) {
    const int first = domains.llc_id(cpu);
    if (slot_of_first[first] < 0) {
      slot_of_first[first] = static_cast<int>(icpus_.size());
      icpus_.push_back(domains.llc_span(cpu));  // sd_llc_shared init: all
    }
    llc_slot_[cpu] = slot_of_first[first];
  }
}

void SisAbelWu::OnCpuIdle(platform::SchedView& view, int cpu) {
  if (!view.smt_active()) return;  // update_idle_core needs SMT
  if (options_.skip_core_update_if_pending && view.ttwu_pending(cpu)) return;
  if (options_.sis_core) {
    CpuSet& icpus = icpus_[llc_slot_[cpu]];
    view.read_policy_llc_line(cpu);
    if (!view.topology().smt_siblings(cpu).Intersects(icpus)) {
      view.write_policy_llc_line(cpu);  // cpumask_set_cpu on sds->icpus
      icpus.Set(cpu);
    }
  }
  PlacementPolicy::OnCpuIdle(view, cpu);
}

int SisAbelWu::SelectIdleCpu(platform::SchedView& view,
                             const platform::WakeupRequest& request,
                             bool has_idle_core) {
  const int target = request.target;
  int64_t nr = kSisNoDepthLimit;
  if (!(options_.ignore_sis_util_with_idle_core && has_idle_core)) {
    nr = SisUtilScanLimit(view, target);
    if (nr == 1) return -1;
  }
  const bool use_icpus = options_.sis_core && view.smt_active();
  if (!use_icpus) {
    return ScanForIdleCpu(view, request, LlcScanMask(view, request),
                          has_idle_core, nr, ScanOptions())
        .cpu;
  }

  CpuSet& icpus = icpus_[llc_slot_[target]];
  CpuSet& cpus = scan_mask();
  view.read_policy_llc_line(target);
  cpus = icpus;
  cpus &= *request.allowed;
  ScanOptions scan;
  scan.keep_core_siblings = true;
  if (options_.scan_failure_handling) {
    scan.limit_core_scan = true;
    // Only an idle-CPU scan can be fail-prone; an idle-core scan already
    // checks whole cores and leaves the flag for the next one.
    if (!has_idle_core && scan_sibling_[target] != 0) {  // cmpxchg 1 -> 0
      scan_sibling_[target] = 0;
      scan.fail_prone_idle_mask = &icpus;
    }
  }
  const ScanResult result =
      ScanForIdleCpu(view, request, cpus, has_idle_core, nr, scan);
  if (result.cpu >= 0) return result.cpu;
  if (result.depth_exhausted) {
    if (options_.scan_failure_handling) scan_sibling_[target] = 1;
  } else if (!options_.scan_failure_handling || has_idle_core) {
    view.write_policy_llc_line(target);
    icpus.AndNot(cpus);  // a full scan found nothing idle there
  }
  return -1;
}

namespace {

constexpr char kPatch1[] = "skip_core_update_if_pending";
constexpr char kPatch2[] = "ignore_sis_util_with_idle_core";
constexpr char kPatch3[] = "sis_core";
constexpr char kPatch4[] = "scan_failure_handling";

platform::PolicyInfo SisAbelWuInfo() {
  platform::PolicyInfo info;
  info.family = platform::PolicyFamily::kPlacement;
  info.name = "sis_abel_wu";
  info.description =
      "Abel Wu's 'sched/fair: Improve scan efficiency of SIS' v6 (LKML "
      "20221019122859.18399-1-wuyun.abel@bytedance.com, not merged) on top "
      "of sis_util, one parameter per patch; all off is exactly sis_util.";
  info.params = {
      {kPatch1, true,
       "patch 1/4 (-2-wuyun.abel): a CPU with a wake-up pending does not "
       "update the idle-core hint or the idle mask when it goes idle"},
      {kPatch2, true,
       "patch 2/4 (-3-wuyun.abel): with has_idle_cores set, ignore "
       "SIS_UTIL's early exit and depth (full idle-core scan)"},
      {kPatch3, true,
       "patch 3/4 (-4-wuyun.abel): SIS_CORE, a per-LLC idle-CPU mask with "
       "at most one CPU per core, scanned instead of the LLC span"},
      {kPatch4, true,
       "patch 4/4 (-5-wuyun.abel): after a scan runs out of depth, the next "
       "scan from that CPU checks whole cores and prunes busy ones from the "
       "mask; requires sis_core"},
  };
  info.make_placement = [](const platform::Params& p)
      -> absl::StatusOr<std::unique_ptr<platform::PlacementPolicy>> {
    SisAbelWuOptions o;
    o.skip_core_update_if_pending = p.GetBool(kPatch1);
    o.ignore_sis_util_with_idle_core = p.GetBool(kPatch2);
    o.sis_core = p.GetBool(kPatch3);
    o.scan_failure_handling = p.GetBool(kPatch4);
    if (o.scan_failure_handling && !o.sis_core) {
      return absl::InvalidArgumentError(
          "placement policy 'sis_abel_wu': scan_failure_handling (patch 4/4) "
          "works on sis_core's idle mask (patch 3/4); set sis_core=true or "
          "scan_failure_handling=false");
    }
    return std::make_unique<SisAbelWu>(o);
  };
  return info;
}

SCHEDSIM_REGISTER_POLICY(SisAbelWuInfo());

}  // namespace
}  // namespace schedsim::governors
