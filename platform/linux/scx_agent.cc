// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "platform/linux/scx_agent.h"

#include <time.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "nlohmann/json.hpp"
#include "platform/core/answer_checks.h"

namespace schedsim::platform::host {
namespace {

constexpr int64_t kSchedCapacityScale = 1024;
// rq->avg_idle's cap: 2 * sysctl_sched_migration_cost (500 us).
constexpr int64_t kAvgIdleMaxNs = 1000000;
// PELT's half-life.
constexpr double kUtilHalfLifeNs = 32e6;
// The recent_used_cpu table (by pid).
constexpr size_t kRecentSlots = 4096;

double Pct(double part, double whole) {
  return whole > 0 ? 100.0 * part / whole : 0.0;
}

// The BPF side writes these fields while the agent reads them: relaxed
// atomic loads (each field is read whole; no ordering between them is
// needed, the view is a snapshot of racy state as the kernel's is).
template <typename T>
T Load(const T& field) {
  return __atomic_load_n(&field, __ATOMIC_RELAXED);
}

uint64_t BusyNs(const schedsim_scx_cpu& s, int64_t now) {
  uint64_t busy = Load(s.busy_ns);
  const uint64_t start = Load(s.run_start_ns);
  if (Load(s.curr_pid) != 0 && start != 0 &&
      static_cast<int64_t>(start) < now) {
    busy += static_cast<uint64_t>(now) - start;
  }
  return busy;
}

}  // namespace

int64_t MonotonicNs() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t{ts.tv_sec} * 1000000000 + ts.tv_nsec;
}

LiveSchedView::LiveSchedView(const topology::Topology& topology,
                             const topology::SchedDomains& domains,
                             const schedsim_scx_bss* shared,
                             std::function<int64_t()> clock)
    : topology_(topology),
      domains_(domains),
      shared_(shared),
      clock_(std::move(clock)) {
  const int n = topology_.num_cpus();
  for (const topology::CpuSet& core : topology_.cores()) {
    if (core.Count() > 1) smt_active_ = true;
  }
  last_busy_ns_.assign(n, 0);
  util_.assign(n, 0.0);
  llc_index_.assign(n, 0);
  for (int c = 0; c < n; ++c) llc_index_[c] = topology_.place(c).llc;
  has_idle_cores_.assign(topology_.num_llcs(), 1);
  nr_idle_scan_.assign(n, 0);
  wake_avg_idle_ns_.assign(n, kAvgIdleMaxNs / 2);
  avg_scan_cost_ns_.assign(n, 0);
  last_refresh_ns_ = clock_();
  for (int c = 0; c < n; ++c) {
    last_busy_ns_[c] = BusyNs(shared_->cpus[c], last_refresh_ns_);
  }
  Refresh();
}

bool LiveSchedView::IsIdle(int cpu) const {
  const schedsim_scx_cpu& c = shared_->cpus[cpu];
  return Load(c.idle) != 0 && Load(c.nr_queued) == 0;
}

bool LiveSchedView::available_idle(int cpu) {
  ++probes_;
  return IsIdle(cpu);
}

bool LiveSchedView::sched_idle(int /*cpu*/) {
  ++probes_;
  return false;
}

bool LiveSchedView::idle_for_wakeup(int cpu) {
  ++probes_;
  return IsIdle(cpu);
}

int LiveSchedView::nr_running(int cpu) {
  ++probes_;
  const schedsim_scx_cpu& c = shared_->cpus[cpu];
  return (Load(c.curr_pid) != 0 ? 1 : 0) + static_cast<int>(Load(c.nr_queued));
}

int64_t LiveSchedView::cpu_util(int cpu) {
  ++probes_;
  return std::min<int64_t>(std::llround(util_[cpu]), topology_.capacity(cpu));
}

bool LiveSchedView::ttwu_pending(int /*cpu*/) {
  ++probes_;
  return false;
}

bool LiveSchedView::has_idle_cores(int cpu) const {
  return has_idle_cores_[llc_index_[cpu]] != 0;
}

void LiveSchedView::set_idle_cores(int cpu, bool value) {
  has_idle_cores_[llc_index_[cpu]] = value ? 1 : 0;
}

int LiveSchedView::nr_idle_scan(int cpu) const { return nr_idle_scan_[cpu]; }

int64_t LiveSchedView::avg_idle_ns(int cpu) const {
  const uint64_t v = Load(shared_->cpus[cpu].avg_idle_ns);
  return v == 0 ? kAvgIdleMaxNs
                : std::min<int64_t>(static_cast<int64_t>(v), kAvgIdleMaxNs);
}

int64_t LiveSchedView::wake_avg_idle_ns(int cpu) {
  return wake_avg_idle_ns_[cpu];
}

void LiveSchedView::set_wake_avg_idle_ns(int cpu, int64_t value) {
  wake_avg_idle_ns_[cpu] = value;
}

int64_t LiveSchedView::avg_scan_cost_ns(int cpu) const {
  return avg_scan_cost_ns_[cpu];
}

void LiveSchedView::set_avg_scan_cost_ns(int cpu, int64_t value) {
  avg_scan_cost_ns_[cpu] = value;
}

int64_t LiveSchedView::scan_time_ns() const {
  return clock_() - search_start_ns_;
}

void LiveSchedView::BeginSearch() { search_start_ns_ = clock_(); }

void LiveSchedView::Refresh() {
  const int64_t now = clock_();
  const int64_t dt = now - last_refresh_ns_;
  const int n = topology_.num_cpus();
  if (dt > 0) {
    const double decay = std::exp2(-static_cast<double>(dt) / kUtilHalfLifeNs);
    for (int c = 0; c < n; ++c) {
      const schedsim_scx_cpu& s = shared_->cpus[c];
      // Busy time so far, the running task's current stretch included
      // (monotonic: at ops.stopping that stretch moves into busy_ns).
      const uint64_t busy = BusyNs(s, now);
      const double delta = busy >= last_busy_ns_[c]
                               ? static_cast<double>(busy - last_busy_ns_[c])
                               : 0.0;
      last_busy_ns_[c] = busy;
      const double share = std::min(1.0, delta / static_cast<double>(dt));
      util_[c] =
          util_[c] * decay + (1.0 - decay) * share * topology_.capacity(c);
    }
    last_refresh_ns_ = now;
  }
  for (int c = 0; c < n; ++c) {
    const topology::SchedDomain* sd =
        domains_.HighestFlagDomain(c, topology::kSdSharePkgResources);
    if (sd == nullptr) {
      nr_idle_scan_[c] = 1;
      continue;
    }
    const int64_t weight = sd->span.Count();
    int64_t sum = 0;
    for (int o = sd->span.First(); o >= 0; o = sd->span.Next(o)) {
      sum += std::llround(util_[o]);
    }
    const int64_t x = sum / weight;
    const int64_t pct = sd->imbalance_pct;
    const int64_t tmp = std::min<int64_t>(
        x * x * pct * pct / (10000 * kSchedCapacityScale), kSchedCapacityScale);
    nr_idle_scan_[c] = static_cast<int>((kSchedCapacityScale - tmp) * weight /
                                        kSchedCapacityScale);
  }
}

ScxAgent::ScxAgent(PlacementPolicy& policy, const topology::Topology& topology,
                   const topology::SchedDomains& domains,
                   const schedsim_scx_bss* shared,
                   std::function<int64_t()> clock)
    : policy_(policy),
      domains_(domains),
      view_(topology, domains, shared, std::move(clock)),
      recent_used_cpu_(kRecentSlots * 2, -1),
      allowed_(topology.num_cpus()) {
  policy_.Attach(topology, domains);
}

// wake_affine_idle() (kernel/sched/fair.c, v6.1); wake_affine_weight and
// wake_wide need per-task load the BPF side does not track: when
// wake_affine_idle has no answer, the target is prev_cpu.
int ScxAgent::WakeAffineTarget(int this_cpu, int prev_cpu, bool sync) {
  if (this_cpu == prev_cpu || !allowed_.Test(this_cpu)) return prev_cpu;
  if (view_.available_idle(this_cpu) &&
      domains_.SharesCache(this_cpu, prev_cpu)) {
    return view_.available_idle(prev_cpu) ? prev_cpu : this_cpu;
  }
  if (sync && view_.nr_running(this_cpu) == 1) return this_cpu;
  return prev_cpu;
}

schedsim_scx_decision ScxAgent::OnWakeup(const schedsim_scx_event& event) {
  schedsim_scx_decision d = {};
  d.pid = event.pid;
  d.enq_ns = event.enq_ns;
  const int n = view_.topology().num_cpus();
  if (event.prev_cpu < 0 || event.prev_cpu >= n || event.this_cpu < 0 ||
      event.this_cpu >= n) {
    ++stats_.bad_events;
    d.cpu = -1;  // the BPF side places it
    return d;
  }
  allowed_.ClearAll();
  for (int c = 0; c < n; ++c) {
    if (event.all_allowed || ((event.allowed[c >> 6] >> (c & 63)) & 1)) {
      allowed_.Set(c);
    }
  }
  if (allowed_.Empty()) {
    ++stats_.bad_events;
    d.cpu = -1;
    return d;
  }
  const int64_t t0 = MonotonicNs();
  view_.BeginSearch();
  const int64_t probes_before = view_.probes();
  const int target = WakeAffineTarget(event.this_cpu, event.prev_cpu,
                                      (event.wake_flags & kWfSync) != 0);
  // recent_used_cpu, kept per pid (a slot pair: pid, cpu).
  const size_t slot = (event.pid % kRecentSlots) * 2;
  if (recent_used_cpu_[slot] != static_cast<int>(event.pid)) {
    recent_used_cpu_[slot] = static_cast<int>(event.pid);
    recent_used_cpu_[slot + 1] = event.prev_cpu;
  }
  WakeupRequest request;
  request.task = static_cast<int>(event.pid);
  request.this_cpu = event.this_cpu;
  request.prev_cpu = event.prev_cpu;
  request.target = target;
  request.wake_flags = event.wake_flags;
  request.allowed = &allowed_;
  request.recent_used_cpu = &recent_used_cpu_[slot + 1];
  int cpu = policy_.SelectIdleSibling(view_, request);
  stats_.decide_ns += MonotonicNs() - t0;
  stats_.probes += view_.probes() - probes_before;
  ++stats_.wakeups;
  // The answer check every backend shares; where the kernel would take
  // select_fallback_rq(), the agent takes prev_cpu (or the first allowed
  // CPU) and counts it.
  if (!core::ValidPlacementAnswer(cpu, n, allowed_)) {
    ++stats_.outside_mask;
    cpu = allowed_.Test(event.prev_cpu) ? event.prev_cpu : allowed_.First();
  }
  if (view_.IsIdle(cpu)) ++stats_.chosen_idle;
  if (cpu == target) {
    ++stats_.chose_target;
  } else if (cpu == event.prev_cpu) {
    ++stats_.chose_prev;
  } else {
    ++stats_.chose_other;
  }
  d.cpu = cpu;
  return d;
}

void ScxAgent::OnIdle(int cpu) {
  if (cpu < 0 || cpu >= view_.topology().num_cpus()) {
    ++stats_.bad_events;
    return;
  }
  ++stats_.idle_events;
  policy_.OnCpuIdle(view_, cpu);
}

double ScxReport::idle_found_pct() const {
  return Pct(static_cast<double>(agent.chosen_idle),
             static_cast<double>(agent.wakeups));
}

double ScxReport::probes_per_search() const {
  return agent.wakeups > 0 ? static_cast<double>(agent.probes) /
                                 static_cast<double>(agent.wakeups)
                           : 0.0;
}

void CollectBpfCounters(const schedsim_scx_bss& shared, ScxReport* report) {
  report->bpf = shared.counters;
  const uint64_t count = shared.counters.lat_count;
  report->latency_mean_ns =
      count > 0 ? static_cast<double>(shared.counters.lat_sum_ns) /
                      static_cast<double>(count)
                : 0.0;
  report->latency_max_ns = static_cast<double>(shared.counters.lat_max_ns);
  const uint64_t kept =
      std::min<uint64_t>(count, uint64_t{SCHEDSIM_SCX_LAT_SAMPLES});
  std::vector<uint64_t> samples(shared.lat_ns, shared.lat_ns + kept);
  report->latency_samples = static_cast<int64_t>(kept);
  if (samples.empty()) {
    report->latency_p99_ns = 0;
    return;
  }
  // The nearest-rank p99.
  const size_t rank = static_cast<size_t>(
      std::ceil(0.99 * static_cast<double>(samples.size())));
  const size_t index = rank == 0 ? 0 : rank - 1;
  std::nth_element(samples.begin(), samples.begin() + index, samples.end());
  report->latency_p99_ns = static_cast<double>(samples[index]);
}

std::string ScxReport::Text() const {
  const double searches = static_cast<double>(agent.wakeups);
  std::string out = absl::StrFormat(
      "schedsim scx: placement policy %s, %.1f s; %s\n"
      "Placement:   %d wake-ups, %d searches, %.2f probes per search, "
      "chosen CPU idle %.1f%%\n"
      "             target %.1f%% / prev %.1f%% / other %.1f%%; %d outside "
      "the task's CPUs, %d idle entries\n",
      policy, seconds, exit_reason, bpf.wakeups_sent, agent.wakeups,
      probes_per_search(), idle_found_pct(),
      Pct(static_cast<double>(agent.chose_target), searches),
      Pct(static_cast<double>(agent.chose_prev), searches),
      Pct(static_cast<double>(agent.chose_other), searches), agent.outside_mask,
      agent.idle_events);
  const double placed =
      static_cast<double>(bpf.policy_placed + bpf.fallback_placed);
  absl::StrAppendFormat(
      &out,
      "Dispatch:    %d by the policy (%.1f%%), %d by the fallback (%d ring "
      "buffer full, %d over the backlog, %d outside the mask); %d decisions "
      "for tasks already gone\n"
      "             %d single-CPU tasks and %d re-enqueues dispatched in "
      "place, %d agent wake-ups\n",
      bpf.policy_placed, Pct(static_cast<double>(bpf.policy_placed), placed),
      bpf.fallback_placed, bpf.fallback_ringbuf, bpf.fallback_backlog,
      bpf.decision_disallowed, bpf.decision_dropped, bpf.pinned, bpf.not_wakeup,
      bpf.agent_enqueues);
  absl::StrAppendFormat(
      &out,
      "Decision:    enqueue to dispatch mean %.1f us, p99 %.1f us, max %.1f "
      "us (%d samples); policy time %.2f us per search\n",
      latency_mean_ns / 1e3, latency_p99_ns / 1e3, latency_max_ns / 1e3,
      latency_samples,
      searches > 0 ? static_cast<double>(agent.decide_ns) / searches / 1e3
                   : 0.0);
  return out;
}

std::string ScxReport::Json() const {
  nlohmann::ordered_json j;
  j["policy"] = policy;
  j["seconds"] = seconds;
  j["exit_reason"] = exit_reason;
  j["wakeups_sent"] = bpf.wakeups_sent;
  j["searches"] = agent.wakeups;
  j["probes_per_search"] = probes_per_search();
  j["idle_found_pct"] = idle_found_pct();
  j["chose_target"] = agent.chose_target;
  j["chose_prev"] = agent.chose_prev;
  j["chose_other"] = agent.chose_other;
  j["outside_mask"] = agent.outside_mask;
  j["idle_entries"] = agent.idle_events;
  j["policy_placements"] = bpf.policy_placed;
  j["fallback_placements"] = bpf.fallback_placed;
  j["fallback_ringbuf_full"] = bpf.fallback_ringbuf;
  j["fallback_backlog"] = bpf.fallback_backlog;
  j["fallback_outside_mask"] = bpf.decision_disallowed;
  j["decisions_for_gone_tasks"] = bpf.decision_dropped;
  j["pinned_dispatches"] = bpf.pinned;
  j["reenqueues"] = bpf.not_wakeup;
  j["agent_wakeups"] = bpf.agent_enqueues;
  j["latency_mean_ns"] = latency_mean_ns;
  j["latency_p99_ns"] = latency_p99_ns;
  j["latency_max_ns"] = latency_max_ns;
  j["latency_samples"] = latency_samples;
  j["policy_ns_per_search"] = agent.wakeups > 0
                                  ? static_cast<double>(agent.decide_ns) /
                                        static_cast<double>(agent.wakeups)
                                  : 0.0;
  return j.dump(2) + "\n";
}

namespace {
ScxBackendFn*& BackendSlot() {
  static ScxBackendFn* backend = nullptr;
  return backend;
}
}  // namespace

const ScxBackendFn* ScxBackend() { return BackendSlot(); }

bool SetScxBackend(ScxBackendFn backend) {
  BackendSlot() = new ScxBackendFn(std::move(backend));
  return true;
}

}  // namespace schedsim::platform::host
