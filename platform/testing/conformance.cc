// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "platform/testing/conformance.h"

#include "absl/strings/str_cat.h"

namespace schedsim::platform::testing {

std::vector<std::string> CheckIdleDevice(const IdleDevice& dev) {
  std::vector<std::string> bad;
  const int n = dev.state_count();
  if (n < 1) bad.push_back(absl::StrCat("state_count() is ", n, ", not >= 1"));
  if (dev.cpu() < 0) bad.push_back(absl::StrCat("cpu() is ", dev.cpu()));
  for (int i = 0; i < n; ++i) {
    const topology::CState& s = dev.state(i);
    if (s.exit_latency_ns < 0 || s.target_residency_ns < 0) {
      bad.push_back(absl::StrCat("state ", i, " (", s.name,
                                 ") has a negative latency or residency"));
    }
    if (i > 0 && s.polling()) {
      bad.push_back(
          absl::StrCat("state ", i, " (", s.name, ") polls; only state 0 may"));
    }
    if (i > 0) {
      const topology::CState& p = dev.state(i - 1);
      // drivers/cpuidle: the states come shallowest first, and governors
      // (menu, teo) stop at the first state too deep for a limit.
      if (s.exit_latency_ns < p.exit_latency_ns ||
          s.target_residency_ns < p.target_residency_ns) {
        bad.push_back(absl::StrCat("state ", i, " (", s.name,
                                   ") is shallower than state ", i - 1, " (",
                                   p.name, ")"));
      }
    }
  }
  if (dev.now_ns() < 0) bad.push_back("now_ns() is negative");
  int64_t delta_tick = -1;
  const int64_t sleep = dev.sleep_length_ns(&delta_tick);
  if (sleep < 0) bad.push_back(absl::StrCat("sleep_length_ns() is ", sleep));
  if (delta_tick < 0) {
    bad.push_back(
        absl::StrCat("sleep_length_ns() gave a delta_tick of ", delta_tick));
  }
  if (dev.latency_limit_ns() < 0) bad.push_back("latency_limit_ns() < 0");
  if (dev.last_residency_ns() < 0) bad.push_back("last_residency_ns() < 0");
  if (dev.tick_period_ns() <= 0) bad.push_back("tick_period_ns() <= 0");
  if (dev.nr_iowait() < 0) bad.push_back("nr_iowait() < 0");
  if (dev.cpu_capacity() <= 0 || dev.cpu_capacity() > kCapacityScale) {
    bad.push_back(absl::StrCat("cpu_capacity() is ", dev.cpu_capacity()));
  }
  if (dev.cpu_util() < 0 || dev.cpu_util() > dev.cpu_capacity()) {
    bad.push_back(absl::StrCat("cpu_util() ", dev.cpu_util(),
                               " is outside 0..cpu_capacity() ",
                               dev.cpu_capacity()));
  }
  return bad;
}

std::vector<std::string> CheckFreqDomain(const FreqDomain& domain, int cpu) {
  std::vector<std::string> bad;
  if (domain.cpus().Empty()) bad.push_back("cpus() is empty");
  if (cpu < 0 || cpu >= domain.cpus().width() || !domain.cpus().Test(cpu)) {
    bad.push_back(absl::StrCat("UpdateUtil's cpu ", cpu, " is not in cpus() ",
                               domain.cpus().ToList()));
    return bad;  // its per-CPU views (util, counters) are not the domain's
  }
  const topology::FrequencySpec& f = domain.spec();
  if (!(f.min_khz > 0 && f.min_khz <= f.base_khz &&
        f.base_khz <= f.max_turbo_khz)) {
    bad.push_back(absl::StrCat("spec() is not min <= base <= max turbo (",
                               f.min_khz, ", ", f.base_khz, ", ",
                               f.max_turbo_khz, " kHz)"));
  }
  const int64_t lo = domain.policy_min_khz(), hi = domain.policy_max_khz();
  if (!(lo >= f.min_khz && lo <= hi && hi <= f.max_turbo_khz)) {
    bad.push_back(absl::StrCat("policy limits ", lo, "..", hi,
                               " kHz are not inside ", f.min_khz, "..",
                               f.max_turbo_khz));
  }
  const int64_t cur = domain.current_khz();
  if (cur != 0 && (cur < f.min_khz || cur > f.max_turbo_khz)) {
    bad.push_back(absl::StrCat("current_khz() ", cur, " is outside the spec"));
  }
  if (domain.now_ns() < 0) bad.push_back("now_ns() is negative");
  if (domain.tick_period_ns() <= 0) bad.push_back("tick_period_ns() <= 0");
  const CpuUtil u = domain.util(cpu);
  if (u.capacity <= 0 || u.capacity > kCapacityScale) {
    bad.push_back(absl::StrCat("util().capacity is ", u.capacity));
  }
  if (u.util_cfs < 0 || u.util_rt < 0) bad.push_back("a negative util");
  if (!(0 <= u.uclamp_min && u.uclamp_min <= u.uclamp_max &&
        u.uclamp_max <= kCapacityScale)) {
    bad.push_back(absl::StrCat("uclamp bounds ", u.uclamp_min, "..",
                               u.uclamp_max, " are not inside 0..",
                               kCapacityScale));
  }
  const CpuCounters c = domain.counters(cpu);
  if (c.mperf > c.tsc) {
    bad.push_back(absl::StrCat("counters(): MPERF ", c.mperf,
                               " ran ahead of the TSC ", c.tsc));
  }
  return bad;
}

std::vector<std::string> CheckSchedView(SchedView& view,
                                        const WakeupRequest& request) {
  std::vector<std::string> bad;
  const topology::Topology& topo = view.topology();
  const int n = topo.num_cpus();
  if (n < 1) {
    bad.push_back(absl::StrCat("topology() has ", n, " CPUs"));
    return bad;
  }
  if (view.domains().num_cpus() != n) {
    bad.push_back(absl::StrCat("domains() span ", view.domains().num_cpus(),
                               " CPUs, topology() ", n));
    return bad;
  }
  auto valid = [n](int cpu) { return cpu >= 0 && cpu < n; };
  if (!valid(request.this_cpu) || !valid(request.prev_cpu) ||
      !valid(request.target)) {
    bad.push_back(absl::StrCat(
        "request CPUs this ", request.this_cpu, ", prev ", request.prev_cpu,
        ", target ", request.target, " are not all CPUs of 0..", n - 1));
  }
  if (request.allowed == nullptr) bad.push_back("request.allowed is null");
  if (request.recent_used_cpu == nullptr) {
    bad.push_back("request.recent_used_cpu is null");
  } else if (*request.recent_used_cpu < -1 || *request.recent_used_cpu >= n) {
    bad.push_back(
        absl::StrCat("recent_used_cpu is ", *request.recent_used_cpu));
  }
  if (view.now_ns() < 0) bad.push_back("now_ns() is negative");
  if (view.smt_active() && topo.threads_per_core() < 2) {
    bad.push_back("smt_active() on a machine without SMT siblings");
  }
  if (view.cluster_scan_active() && !topo.has_clusters()) {
    bad.push_back("cluster_scan_active() on a machine without clusters");
  }
  int64_t scan = view.scan_time_ns();
  if (scan < 0) bad.push_back(absl::StrCat("scan_time_ns() is ", scan));
  for (int cpu = 0; cpu < n; ++cpu) {
    const bool idle = view.available_idle(cpu);
    const bool sched_idle = view.sched_idle(cpu);
    const bool either = view.idle_for_wakeup(cpu);
    const int running = view.nr_running(cpu);
    const int64_t util = view.cpu_util(cpu);
    const bool pending = view.ttwu_pending(cpu);
    if (either != (idle || sched_idle)) {
      bad.push_back(absl::StrCat("CPU ", cpu, ": idle_for_wakeup() ", either,
                                 " but available_idle() ", idle,
                                 ", sched_idle() ", sched_idle));
    }
    if (idle && (running != 0 || pending)) {
      bad.push_back(absl::StrCat("CPU ", cpu, ": available_idle() with ",
                                 running, " running and ttwu_pending() ",
                                 pending));
    }
    if (running < 0) {
      bad.push_back(absl::StrCat("CPU ", cpu, ": nr_running() ", running));
    }
    if (util < 0 || util > topo.capacity(cpu)) {
      bad.push_back(absl::StrCat("CPU ", cpu, ": cpu_util() ", util,
                                 " is outside 0..", topo.capacity(cpu)));
    }
    const int depth = view.nr_idle_scan(cpu);
    if (depth < 0 || depth > view.domains().llc_size(cpu)) {
      bad.push_back(absl::StrCat("CPU ", cpu, ": nr_idle_scan() ", depth,
                                 " is outside 0..",
                                 view.domains().llc_size(cpu)));
    }
    if (view.avg_idle_ns(cpu) < 0 || view.wake_avg_idle_ns(cpu) < 0 ||
        view.avg_scan_cost_ns(cpu) < 0) {
      bad.push_back(absl::StrCat("CPU ", cpu, ": a negative SIS_PROP input"));
    }
    const int64_t now_scan = view.scan_time_ns();
    if (now_scan < scan) {
      bad.push_back(absl::StrCat("scan_time_ns() went back from ", scan, " to ",
                                 now_scan));
    }
    scan = now_scan;
  }
  return bad;
}

}  // namespace schedsim::platform::testing
