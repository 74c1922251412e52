// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "cli/sim_report.h"

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "base/version.h"

namespace schedsim::cli {
namespace {

using Json = nlohmann::ordered_json;

double Ratio(double num, double den) { return den > 0 ? num / den : 0.0; }
double Pct(double num, double den) { return 100.0 * Ratio(num, den); }

// Everything both reports show, computed once from the stats.
struct IdleStateSummary {
  std::string name;
  int64_t time_ns = 0;
  double residency_pct = 0;
  uint64_t usage = 0;
  uint64_t above = 0;
  uint64_t below = 0;
};

struct CpuSummary {
  double busy_pct = 0;
  double idle_pct = 0;
  double avg_busy_khz = 0;
  std::vector<IdleStateSummary> states;
};

struct Summary {
  int64_t duration_ns = 0;
  double duration_s = 0;
  double events_per_s = 0;
  std::vector<CpuSummary> cpus;
  double busy_min_pct = 0, busy_avg_pct = 0, busy_max_pct = 0;
  double idle_avg_pct = 0;
  std::vector<IdleStateSummary> states;  // summed over CPUs
  int64_t busy_ns = 0;                   // all CPUs
  double avg_busy_khz = 0;
  // (kHz, busy ns summed over CPUs), most time first.
  std::vector<std::pair<int64_t, int64_t>> top_khz;
  double energy_j = 0;
  double avg_power_w = 0;
  int64_t pl1_capped_ns = 0;
  double probes_per_search = 0;
};

Summary Summarize(const sim::SimStats& stats,
                  const topology::Topology& machine) {
  Summary s;
  s.duration_ns = stats.end_ns - stats.start_ns;
  s.duration_s = stats.duration_s();
  s.events_per_s = Ratio(static_cast<double>(stats.events), s.duration_s);
  const double duration = static_cast<double>(s.duration_ns);
  const auto& cstates = machine.cstates();
  s.states.resize(cstates.size());
  for (size_t k = 0; k < cstates.size(); ++k)
    s.states[k].name = cstates[k].name;
  std::map<int64_t, int64_t> at_khz;
  double khz_ns = 0;
  double busy_sum_pct = 0;
  double idle_sum_pct = 0;
  for (size_t c = 0; c < stats.cpus.size(); ++c) {
    const sim::CpuStats& cs = stats.cpus[c];
    CpuSummary cpu;
    cpu.busy_pct = Pct(static_cast<double>(cs.busy_ns), duration);
    cpu.idle_pct = Pct(static_cast<double>(cs.idle_ns), duration);
    idle_sum_pct += cpu.idle_pct;
    cpu.avg_busy_khz = Ratio(cs.khz_ns_busy, static_cast<double>(cs.busy_ns));
    for (size_t k = 0; k < cs.states.size() && k < cstates.size(); ++k) {
      const platform::IdleStateStats& st = cs.states[k];
      IdleStateSummary one;
      one.name = cstates[k].name;
      one.time_ns = st.time_ns;
      one.residency_pct = Pct(static_cast<double>(st.time_ns), duration);
      one.usage = st.usage;
      one.above = st.above;
      one.below = st.below;
      cpu.states.push_back(one);
      IdleStateSummary& sum = s.states[k];
      sum.time_ns += st.time_ns;
      sum.usage += st.usage;
      sum.above += st.above;
      sum.below += st.below;
    }
    for (const auto& [khz, ns] : cs.busy_ns_at_khz) at_khz[khz] += ns;
    khz_ns += cs.khz_ns_busy;
    s.busy_ns += cs.busy_ns;
    busy_sum_pct += cpu.busy_pct;
    if (c == 0 || cpu.busy_pct < s.busy_min_pct) s.busy_min_pct = cpu.busy_pct;
    if (c == 0 || cpu.busy_pct > s.busy_max_pct) s.busy_max_pct = cpu.busy_pct;
    s.cpus.push_back(std::move(cpu));
  }
  const double cpu_time =
      duration * static_cast<double>(std::max<size_t>(stats.cpus.size(), 1));
  for (IdleStateSummary& st : s.states) {
    st.residency_pct = Pct(static_cast<double>(st.time_ns), cpu_time);
  }
  s.busy_avg_pct = Ratio(busy_sum_pct, static_cast<double>(stats.cpus.size()));
  s.idle_avg_pct = Ratio(idle_sum_pct, static_cast<double>(stats.cpus.size()));
  s.avg_busy_khz = Ratio(khz_ns, static_cast<double>(s.busy_ns));
  s.top_khz.assign(at_khz.begin(), at_khz.end());
  std::stable_sort(
      s.top_khz.begin(), s.top_khz.end(),
      [](const auto& a, const auto& b) { return a.second > b.second; });
  if (s.top_khz.size() > static_cast<size_t>(kReportTopFrequencies)) {
    s.top_khz.resize(kReportTopFrequencies);
  }
  s.energy_j = stats.energy_uj() * 1e-6;
  s.avg_power_w = Ratio(s.energy_j, s.duration_s);
  for (const sim::PackageStats& p : stats.packages) {
    s.pl1_capped_ns += p.pl1_capped_ns;
  }
  s.probes_per_search = Ratio(static_cast<double>(stats.placement.probes),
                              static_cast<double>(stats.placement.searches));
  return s;
}

// --- Text
// ------------------------------------------------------------------------

// A duration with a unit people read at a glance: 850 ns, 12.3 us, 4.56 ms.
std::string Ns(double ns) {
  if (ns < 1e3) return absl::StrFormat("%.0f ns", ns);
  if (ns < 1e6) return absl::StrFormat("%.2f us", ns / 1e3);
  if (ns < 1e9) return absl::StrFormat("%.2f ms", ns / 1e6);
  return absl::StrFormat("%.3f s", ns / 1e9);
}
std::string Ns(int64_t ns) { return Ns(static_cast<double>(ns)); }

std::string Mhz(double khz) { return absl::StrFormat("%.0f MHz", khz / 1e3); }

void AppendTaskTable(const sim::SimStats& stats, std::string& out) {
  size_t shown =
      std::min(stats.tasks.size(), static_cast<size_t>(kReportMaxTasks));
  absl::StrAppend(&out, "\nTasks (", shown, " of ", stats.tasks.size());
  if (stats.tasks_reaped > 0) {
    absl::StrAppend(&out, "; ", stats.tasks_reaped,
                    " more exited and their slots were reused");
  }
  absl::StrAppend(&out, "):\n");
  if (shown == 0) return;
  size_t width = 4;
  for (size_t i = 0; i < shown; ++i) {
    width = std::max(width, stats.tasks[i].name.size());
  }
  const int w = static_cast<int>(width);
  absl::StrAppendFormat(&out, "  %4s  %-*s  %10s  %8s  %6s  %10s  %10s  %10s\n",
                        "id", w, "name", "run", "wakeups", "migr", "wake p50",
                        "wake p99", "iowait");
  for (size_t i = 0; i < shown; ++i) {
    const sim::TaskStats& t = stats.tasks[i];
    absl::StrAppendFormat(&out,
                          "  %4d  %-*s  %10s  %8d  %6d  %10s  %10s  %10s%s\n",
                          i, w, t.name, Ns(t.run_ns), t.wakeups, t.migrations,
                          Ns(t.wakeup_latency_ns.Percentile(50)),
                          Ns(t.wakeup_latency_ns.Percentile(99)),
                          Ns(t.iowait_ns), t.exited ? "  (exited)" : "");
  }
}

// --- JSON
// ---------------------------------------------------------------------------

template <typename Histogram>
Json LatencyJson(const Histogram& h) {
  Json j;
  j["count"] = h.count();
  j["mean"] = h.mean();
  j["p50"] = h.Percentile(50);
  j["p90"] = h.Percentile(90);
  j["p99"] = h.Percentile(99);
  j["p999"] = h.Percentile(99.9);
  j["max"] = h.max();
  return j;
}

Json IdleStateJson(const IdleStateSummary& s) {
  Json j;
  j["name"] = s.name;
  j["residency_pct"] = s.residency_pct;
  j["time_ns"] = s.time_ns;
  j["usage"] = s.usage;
  j["above"] = s.above;
  j["below"] = s.below;
  return j;
}

}  // namespace

std::string SimReportText(const sim::SimStats& stats,
                          const topology::Topology& machine,
                          const SimReportContext& context) {
  const Summary s = Summarize(stats, machine);
  std::string out;
  absl::StrAppend(&out, "Scenario:    ", context.scenario, "\n");
  absl::StrAppend(&out, "Machine:     ", machine.name(), " (",
                  machine.num_cpus(), " CPUs)\n");
  absl::StrAppend(&out, "Policies:    cpufreq ", context.cpufreq, ", cpuidle ",
                  context.cpuidle, ", placement ", context.placement, "\n");
  absl::StrAppend(&out, "Seed:        ", context.seed, "\n");
  absl::StrAppend(&out, "Simulated:   ", Ns(s.duration_ns), " (after ",
                  Ns(context.warmup_ns), " of warm-up)\n");
  absl::StrAppendFormat(&out, "Events:      %d (%.0f per simulated second)\n",
                        stats.events, s.events_per_s);

  // Metrics.
  absl::StrAppend(&out, "\nMetrics:\n");
  if (stats.metrics.empty()) {
    absl::StrAppend(&out, "  (none)\n");
  } else {
    size_t width = 6;
    for (const sim::MetricStats& m : stats.metrics) {
      width = std::max(width, m.name.size());
    }
    const int w = static_cast<int>(width);
    absl::StrAppendFormat(
        &out, "  %-*s  %10s  %12s  %10s  %10s  %10s  %10s  %10s  %10s\n", w,
        "metric", "count", "rate/s", "mean", "p50", "p90", "p99", "p99.9",
        "max");
    for (const sim::MetricStats& m : stats.metrics) {
      const sim::LatencyHistogram& h = m.latency_ns;
      absl::StrAppendFormat(
          &out, "  %-*s  %10d  %12.1f  %10s  %10s  %10s  %10s  %10s  %10s\n", w,
          m.name, m.count, Ratio(static_cast<double>(m.count), s.duration_s),
          Ns(h.mean()), Ns(h.Percentile(50)), Ns(h.Percentile(90)),
          Ns(h.Percentile(99)), Ns(h.Percentile(99.9)), Ns(h.max()));
    }
  }

  const sim::LatencyHistogram& wl = stats.wakeup_latency_ns;
  absl::StrAppend(&out, "\nWake-up latency (all tasks): ", wl.count(),
                  " samples, mean ", Ns(wl.mean()), ", p50 ",
                  Ns(wl.Percentile(50)), ", p99 ", Ns(wl.Percentile(99)),
                  ", max ", Ns(wl.max()), "\n");

  AppendTaskTable(stats, out);

  absl::StrAppend(&out, "\nScheduler:   ", stats.context_switches,
                  " context switches, ", stats.migrations, " migrations (",
                  stats.load_balance_migrations, " by load balancing)\n");
  const sim::PlacementStats& p = stats.placement;
  const double searches = static_cast<double>(p.searches);
  absl::StrAppendFormat(
      &out,
      "Placement:   %d wake-ups, %d searches, %.2f probes per search, "
      "chosen CPU idle %.1f%%\n"
      "             target %.1f%% / prev %.1f%% / other %.1f%%; affine "
      "this %d, prev %d, wake_wide %d\n"
      "             %d remote wake-ups, %d IPIs, %d through the wake list, "
      "%d forks\n",
      p.wakeups, p.searches, s.probes_per_search,
      Pct(static_cast<double>(p.chosen_idle), searches),
      Pct(static_cast<double>(p.chose_target), searches),
      Pct(static_cast<double>(p.chose_prev), searches),
      Pct(static_cast<double>(p.chose_other), searches), p.affine_this,
      p.affine_prev, p.wake_wide, p.remote_wakeups, p.ipis, p.wake_list,
      p.forks);
  if (machine.guest() != nullptr) {
    // A KVM guest's halts (docs/model-idle-frequency.md, "Guests").
    const sim::GuestTotals& g = stats.guest;
    absl::StrAppendFormat(
        &out,
        "Guest:       %d vCPUs on %s; %d guest polls, %.1f%% ended by a "
        "wake-up; %d HLT exits\n"
        "             host: %d polls, %d successful, %d vCPUs scheduled "
        "out; HLT wake-up %s mean\n",
        machine.num_cpus(), machine.guest()->host, g.polls,
        Pct(static_cast<double>(g.poll_successes),
            static_cast<double>(g.polls)),
        g.halt_exits, g.host_attempted_polls, g.host_successful_polls,
        g.host_wakeups,
        Ns(Ratio(static_cast<double>(g.halt_wake_ns),
                 static_cast<double>(g.halt_exits))));
  }

  // CPUs.
  absl::StrAppendFormat(
      &out,
      "\nCPU busy:    avg %.1f%%, min %.1f%%, max %.1f%%\n"
      "CPU idle:    avg %.1f%% in idle states, %.1f%% awake but not running "
      "(idle exit, wake-up)\n",
      s.busy_avg_pct, s.busy_min_pct, s.busy_max_pct, s.idle_avg_pct,
      std::max(100.0 - s.busy_avg_pct - s.idle_avg_pct, 0.0));
  if (static_cast<int>(s.cpus.size()) <= kReportMaxTextCpus) {
    std::vector<std::string> per_cpu;
    for (size_t c = 0; c < s.cpus.size(); ++c) {
      per_cpu.push_back(absl::StrFormat("%d: %.1f%%", c, s.cpus[c].busy_pct));
    }
    absl::StrAppend(&out, "  per CPU:   ", absl::StrJoin(per_cpu, "  "), "\n");
  }

  absl::StrAppend(&out, "\nIdle states (summed over CPUs):\n");
  // State names are 8 wide, or as wide as the longest (Arm's
  // "cluster-sleep-0").
  int name_width = 8;
  for (const IdleStateSummary& st : s.states) {
    name_width = std::max(name_width, static_cast<int>(st.name.size()));
  }
  absl::StrAppendFormat(&out, "  %-*s  %9s  %10s  %10s  %10s\n", name_width,
                        "state", "residency", "usage", "above", "below");
  for (const IdleStateSummary& st : s.states) {
    absl::StrAppendFormat(&out, "  %-*s  %8.2f%%  %10d  %10d  %10d\n",
                          name_width, st.name, st.residency_pct, st.usage,
                          st.above, st.below);
  }

  absl::StrAppend(&out, "\nFrequency:   average while busy ",
                  Mhz(s.avg_busy_khz), "\n");
  if (!s.top_khz.empty()) {
    absl::StrAppend(&out, "  busy time at frequency (summed over CPUs, top ",
                    kReportTopFrequencies, "):\n");
    for (const auto& [khz, ns] : s.top_khz) {
      absl::StrAppendFormat(
          &out, "    %9s  %6.2f%%  %s\n", Mhz(static_cast<double>(khz)),
          Pct(static_cast<double>(ns), static_cast<double>(s.busy_ns)), Ns(ns));
    }
  }

  absl::StrAppendFormat(&out, "\nEnergy:      %.4f J package, %.3f W average",
                        s.energy_j, s.avg_power_w);
  if (s.pl1_capped_ns > 0) {
    absl::StrAppend(&out, " (PL1-capped for ", Ns(s.pl1_capped_ns), ")");
  }
  absl::StrAppend(&out, "\n");
  return out;
}

nlohmann::ordered_json SimReportJson(const sim::SimStats& stats,
                                     const topology::Topology& machine,
                                     const SimReportContext& context) {
  const Summary s = Summarize(stats, machine);
  Json j;
  j["schema_version"] = base::kResultSchemaVersion;
  j["scenario"] = context.scenario;
  j["machine"] = machine.name();
  j["num_cpus"] = machine.num_cpus();
  j["seed"] = context.seed;
  j["policies"] = {{"cpufreq", context.cpufreq},
                   {"cpuidle", context.cpuidle},
                   {"placement", context.placement}};
  j["kernel"] = context.kernel.empty() ? Json() : Json(context.kernel);
  j["warmup_s"] = static_cast<double>(context.warmup_ns) * 1e-9;
  j["duration_s"] = s.duration_s;
  j["events"] = stats.events;
  j["events_per_s"] = s.events_per_s;

  Json metrics = Json::array();
  for (const sim::MetricStats& m : stats.metrics) {
    Json one;
    one["name"] = m.name;
    one["count"] = m.count;
    one["rate_per_s"] = Ratio(static_cast<double>(m.count), s.duration_s);
    one["latency_ns"] = LatencyJson(m.latency_ns);
    metrics.push_back(std::move(one));
  }
  j["metrics"] = std::move(metrics);
  j["wakeup_latency_ns"] = LatencyJson(stats.wakeup_latency_ns);

  j["task_count"] = stats.tasks.size() + stats.tasks_reaped;
  Json tasks = Json::array();
  for (size_t i = 0;
       i < stats.tasks.size() && i < static_cast<size_t>(kReportMaxTasks);
       ++i) {
    const sim::TaskStats& t = stats.tasks[i];
    Json one;
    one["id"] = i;
    one["name"] = t.name;
    one["run_ns"] = t.run_ns;
    one["wakeups"] = t.wakeups;
    one["migrations"] = t.migrations;
    one["wakeup_latency_ns"] = LatencyJson(t.wakeup_latency_ns);
    one["iowait_ns"] = t.iowait_ns;
    one["voluntary_switches"] = t.voluntary_switches;
    one["involuntary_switches"] = t.involuntary_switches;
    one["wait_sum_ns"] = t.wait_sum_ns;
    one["wait_count"] = t.wait_count;
    one["wait_max_ns"] = t.wait_max_ns;
    one["exited"] = t.exited;
    tasks.push_back(std::move(one));
  }
  j["tasks"] = std::move(tasks);
  // schedstats summed over every task (not only those listed).
  int64_t wait_sum = 0;
  uint64_t waits = 0, vol = 0, invol = 0;
  for (const sim::TaskStats& t : stats.tasks) {
    wait_sum += t.wait_sum_ns;
    waits += t.wait_count;
    vol += t.voluntary_switches;
    invol += t.involuntary_switches;
  }
  j["schedstat"] = {{"wait_sum_ns", wait_sum},
                    {"run_delay_ns", wait_sum},
                    {"wait_count", waits},
                    {"nr_voluntary_switches", vol},
                    {"nr_involuntary_switches", invol},
                    {"nr_wakeups_remote", stats.placement.remote_wakeups},
                    {"nr_wakeups_migrate", stats.placement.migrated_wakeups},
                    {"nr_wakeups_affine", stats.placement.affine_this},
                    {"searches", stats.placement.searches},
                    {"searches_failed",
                     stats.placement.searches - stats.placement.chosen_idle}};

  j["context_switches"] = stats.context_switches;
  j["migrations"] = stats.migrations;
  j["load_balance_migrations"] = stats.load_balance_migrations;
  j["background_events"] = stats.background_events;

  const sim::PlacementStats& p = stats.placement;
  const double searches = static_cast<double>(p.searches);
  Json placement;
  placement["wakeups"] = p.wakeups;
  placement["searches"] = p.searches;
  placement["probes"] = p.probes;
  placement["probes_per_search"] = s.probes_per_search;
  placement["chosen_idle_pct"] =
      Pct(static_cast<double>(p.chosen_idle), searches);
  placement["chose_target"] = p.chose_target;
  placement["chose_prev"] = p.chose_prev;
  placement["chose_other"] = p.chose_other;
  placement["affine_this"] = p.affine_this;
  placement["affine_prev"] = p.affine_prev;
  placement["wake_wide"] = p.wake_wide;
  placement["remote_wakeups"] = p.remote_wakeups;
  placement["ipis"] = p.ipis;
  placement["wake_list"] = p.wake_list;
  placement["forks"] = p.forks;
  j["placement"] = std::move(placement);
  if (machine.guest() != nullptr) {
    // KVM's names for the host's counters (virt/kvm/kvm_main.c).
    const sim::GuestTotals& g = stats.guest;
    Json guest = {{"host", machine.guest()->host}};
    for (const auto& [name, value] : sim::GuestCounterFields(g)) {
      guest[name] = value;
    }
    j["guest"] = std::move(guest);
  }

  j["busy_pct"] = {{"min", s.busy_min_pct},
                   {"avg", s.busy_avg_pct},
                   {"max", s.busy_max_pct}};
  j["idle_pct"] = {{"avg", s.idle_avg_pct}};
  Json cpus = Json::array();
  for (size_t c = 0; c < s.cpus.size(); ++c) {
    const CpuSummary& cs = s.cpus[c];
    const sim::CpuStats& raw = stats.cpus[c];
    Json one;
    one["cpu"] = c;
    one["busy_pct"] = cs.busy_pct;
    one["busy_ns"] = raw.busy_ns;
    one["idle_pct"] = cs.idle_pct;
    one["idle_ns"] = raw.idle_ns;
    Json states = Json::array();
    for (const IdleStateSummary& st : cs.states) {
      states.push_back(IdleStateJson(st));
    }
    one["idle_states"] = std::move(states);
    one["avg_busy_khz"] = cs.avg_busy_khz;
    one["context_switches"] = raw.context_switches;
    one["migrations_in"] = raw.migrations_in;
    one["ipis_received"] = raw.ipis_received;
    one["poll_wakeups"] = raw.poll_wakeups;
    one["ticks"] = raw.ticks;
    cpus.push_back(std::move(one));
  }
  j["cpus"] = std::move(cpus);
  Json states = Json::array();
  for (const IdleStateSummary& st : s.states) {
    states.push_back(IdleStateJson(st));
  }
  j["idle_states"] = std::move(states);

  j["avg_busy_khz"] = s.avg_busy_khz;
  Json at_khz = Json::array();
  for (const auto& [khz, ns] : s.top_khz) {
    at_khz.push_back({{"khz", khz},
                      {"busy_ns", ns},
                      {"busy_pct", Pct(static_cast<double>(ns),
                                       static_cast<double>(s.busy_ns))}});
  }
  j["busy_ns_at_khz"] = std::move(at_khz);
  j["energy_j"] = s.energy_j;
  j["avg_power_w"] = s.avg_power_w;
  j["pl1_capped_ns"] = s.pl1_capped_ns;
  return j;
}

}  // namespace schedsim::cli
