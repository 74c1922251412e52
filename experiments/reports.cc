// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "experiments/reports.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace schedsim::experiments {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double Ratio(double num, double den) { return den > 0 ? num / den : 0.0; }
double Pct(double num, double den) { return 100.0 * Ratio(num, den); }

// Frequencies listed in the text's frequency-residency table.
constexpr int kTopFrequencies = 10;
// The widest histogram bar; longer ones are scaled.
constexpr int kMaxBar = 60;

std::string Fixed(double v, int decimals) {
  if (std::isnan(v)) return "n/a";
  return absl::StrFormat("%.*f", decimals, v);
}

// Energy per op: small numbers, shown with 4 significant digits.
std::string Small(double v) {
  if (std::isnan(v)) return "n/a";
  return absl::StrFormat("%.4g", v);
}

}  // namespace

size_t DisplayWidth(const std::string& text) {
  size_t n = 0;
  for (char c : text) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  }
  return n;
}

std::string AlignColumns(const std::vector<std::vector<std::string>>& rows,
                         int left_columns, int gap) {
  std::vector<size_t> width;
  for (const auto& row : rows) {
    if (row.size() > width.size()) width.resize(row.size(), 0);
    for (size_t c = 0; c < row.size(); ++c) {
      width[c] = std::max(width[c], DisplayWidth(row[c]));
    }
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (size_t c = 0; c < row.size(); ++c) {
      if (c > 0) line.append(gap, ' ');
      const size_t pad = width[c] - DisplayWidth(row[c]);
      if (static_cast<int>(c) < left_columns) {
        absl::StrAppend(&line, row[c]);
        if (c + 1 < row.size()) line.append(pad, ' ');
      } else {
        line.append(pad, ' ');
        absl::StrAppend(&line, row[c]);
      }
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    absl::StrAppend(&out, line, "\n");
  }
  return out;
}

RunReport MakeRunReport(const sim::SimStats& stats,
                        const topology::Topology& machine) {
  RunReport r;
  r.duration_s = stats.duration_s();
  r.energy_j = stats.energy_uj() * 1e-6;
  const double duration = static_cast<double>(stats.end_ns - stats.start_ns);
  const std::vector<topology::CState>& cstates = machine.cstates();
  std::map<int64_t, int64_t> at_khz;
  for (const sim::CpuStats& cpu : stats.cpus) {
    std::vector<double> states(cstates.size(), 0.0);
    int64_t halted_ns = 0;
    for (size_t k = 0; k < cpu.states.size() && k < cstates.size(); ++k) {
      const int64_t ns = cpu.states[k].time_ns;
      states[k] = Pct(static_cast<double>(ns), duration);
      if (!cstates[k].polling()) halted_ns += ns;
    }
    double c0 = 100.0 - Pct(static_cast<double>(halted_ns), duration);
    r.c0_pct.push_back(std::clamp(c0, 0.0, 100.0));
    r.cstate_pct.push_back(std::move(states));
    for (const auto& [khz, ns] : cpu.busy_ns_at_khz) at_khz[khz] += ns;
    r.busy_ns += cpu.busy_ns;
    r.khz_ns_busy += cpu.khz_ns_busy;
  }
  r.busy_ns_at_khz.assign(at_khz.begin(), at_khz.end());
  const sim::PlacementStats& p = stats.placement;
  r.wakeups = p.wakeups;
  r.searches = p.searches;
  r.probes = p.probes;
  r.chosen_idle = p.chosen_idle;
  r.chose_target = p.chose_target;
  r.chose_prev = p.chose_prev;
  r.chose_other = p.chose_other;
  r.migrations = stats.migrations;
  r.context_switches = stats.context_switches;
  for (const sim::TaskStats& t : stats.tasks) {
    r.wait_sum_ns += t.wait_sum_ns;
    r.wait_count += t.wait_count;
    r.wait_max_ns = std::max(r.wait_max_ns, t.wait_max_ns);
    r.nr_voluntary_switches += t.voluntary_switches;
    r.nr_involuntary_switches += t.involuntary_switches;
  }
  r.nr_wakeups_remote = p.remote_wakeups;
  r.nr_wakeups_local = p.wakeups - p.remote_wakeups;
  r.nr_wakeups_migrate = p.migrated_wakeups;
  r.nr_wakeups_affine = p.affine_this;
  r.searches_failed = p.searches - p.chosen_idle;
  r.guest = machine.guest() != nullptr;
  r.halts = stats.guest;
  return r;
}

int ThroughputMetricIndex(const std::vector<workloads::MetricInfo>& metrics) {
  for (size_t i = 0; i < metrics.size(); ++i) {
    if (metrics[i].higher_is_better &&
        metrics[i].mean == workloads::MeanKind::kHarmonic) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

VariantReport CombineRunReports(const std::vector<const RunReport*>& runs,
                                const std::vector<std::string>& cstate_names,
                                const std::vector<double>& throughput,
                                const std::string& throughput_name) {
  VariantReport v;
  v.runs = static_cast<int>(runs.size());
  v.cstate_names = cstate_names;
  v.energy_per_op_j = kNaN;
  if (runs.empty()) return v;
  const double n = static_cast<double>(runs.size());
  const size_t cpus = runs[0]->c0_pct.size();
  const size_t states = cstate_names.size();
  v.c0_pct.assign(cpus, 0.0);
  v.cstate_pct.assign(cpus, std::vector<double>(states, 0.0));
  v.cstate_avg_pct.assign(states, 0.0);
  std::map<int64_t, int64_t> at_khz;
  int64_t busy_ns = 0;
  double khz_ns = 0;
  double energy_j = 0;
  double duration_s = 0;
  uint64_t wakeups = 0, searches = 0, probes = 0, idle = 0, target = 0,
           prev = 0, other = 0, migrations = 0, switches = 0;
  RunReport sum;  // the schedstats, added up
  sim::GuestTotals halts;
  for (const RunReport* r : runs) {
    for (size_t c = 0; c < cpus && c < r->c0_pct.size(); ++c) {
      v.c0_pct[c] += r->c0_pct[c] / n;
      const int bin =
          std::min(static_cast<int>(r->c0_pct[c] / 10.0), kC0HistogramBins - 1);
      ++v.c0_histogram[std::max(bin, 0)];
      for (size_t k = 0; k < states && k < r->cstate_pct[c].size(); ++k) {
        v.cstate_pct[c][k] += r->cstate_pct[c][k] / n;
      }
    }
    for (const auto& [khz, ns] : r->busy_ns_at_khz) at_khz[khz] += ns;
    busy_ns += r->busy_ns;
    khz_ns += r->khz_ns_busy;
    energy_j += r->energy_j;
    duration_s += r->duration_s;
    wakeups += r->wakeups;
    searches += r->searches;
    probes += r->probes;
    idle += r->chosen_idle;
    target += r->chose_target;
    prev += r->chose_prev;
    other += r->chose_other;
    migrations += r->migrations;
    switches += r->context_switches;
    sum.wait_sum_ns += r->wait_sum_ns;
    sum.wait_count += r->wait_count;
    sum.wait_max_ns = std::max(sum.wait_max_ns, r->wait_max_ns);
    sum.nr_voluntary_switches += r->nr_voluntary_switches;
    sum.nr_involuntary_switches += r->nr_involuntary_switches;
    sum.nr_wakeups_local += r->nr_wakeups_local;
    sum.nr_wakeups_remote += r->nr_wakeups_remote;
    sum.nr_wakeups_migrate += r->nr_wakeups_migrate;
    sum.nr_wakeups_affine += r->nr_wakeups_affine;
    sum.searches_failed += r->searches_failed;
    v.guest |= r->guest;
    halts.polls += r->halts.polls;
    halts.poll_successes += r->halts.poll_successes;
    halts.halt_exits += r->halts.halt_exits;
    halts.host_attempted_polls += r->halts.host_attempted_polls;
    halts.host_successful_polls += r->halts.host_successful_polls;
    halts.host_wakeups += r->halts.host_wakeups;
    halts.halt_wake_ns += r->halts.halt_wake_ns;
  }
  for (size_t c = 0; c < cpus; ++c) {
    v.c0_avg_pct += v.c0_pct[c] / static_cast<double>(cpus);
    for (size_t k = 0; k < states; ++k) {
      v.cstate_avg_pct[k] += v.cstate_pct[c][k] / static_cast<double>(cpus);
    }
  }
  v.avg_busy_mhz = Ratio(khz_ns, static_cast<double>(busy_ns)) / 1000.0;
  for (const auto& [khz, ns] : at_khz) {
    v.busy_pct_at_khz.emplace_back(
        khz, Pct(static_cast<double>(ns), static_cast<double>(busy_ns)));
  }
  v.energy_j = energy_j / n;
  v.power_w = Ratio(energy_j, duration_s);
  if (!throughput_name.empty() && throughput.size() == runs.size()) {
    double ops = 0;
    for (size_t i = 0; i < runs.size(); ++i) {
      ops += throughput[i] * runs[i]->duration_s;
    }
    v.energy_per_op_metric = throughput_name;
    v.energy_per_op_j = ops > 0 ? energy_j / ops : kNaN;
  }
  const double s = static_cast<double>(searches);
  v.wakeups_per_run = static_cast<double>(wakeups) / n;
  v.searches_per_run = s / n;
  v.probes_per_search = Ratio(static_cast<double>(probes), s);
  v.idle_hit_pct = Pct(static_cast<double>(idle), s);
  v.target_pct = Pct(static_cast<double>(target), s);
  v.prev_pct = Pct(static_cast<double>(prev), s);
  v.other_pct = Pct(static_cast<double>(other), s);
  v.migrations_per_run = static_cast<double>(migrations) / n;
  v.context_switches_per_run = static_cast<double>(switches) / n;
  auto per_run = [n](uint64_t x) { return static_cast<double>(x) / n; };
  v.wait_sum_ms_per_run = static_cast<double>(sum.wait_sum_ns) * 1e-6 / n;
  v.wait_count_per_run = per_run(sum.wait_count);
  v.wait_avg_us = Ratio(static_cast<double>(sum.wait_sum_ns) * 1e-3,
                        static_cast<double>(sum.wait_count));
  v.wait_max_ms = static_cast<double>(sum.wait_max_ns) * 1e-6;
  v.voluntary_switches_per_run = per_run(sum.nr_voluntary_switches);
  v.involuntary_switches_per_run = per_run(sum.nr_involuntary_switches);
  v.wakeups_local_per_run = per_run(sum.nr_wakeups_local);
  v.wakeups_remote_per_run = per_run(sum.nr_wakeups_remote);
  v.wakeups_migrate_per_run = per_run(sum.nr_wakeups_migrate);
  v.wakeups_affine_per_run = per_run(sum.nr_wakeups_affine);
  v.searches_failed_per_run = per_run(sum.searches_failed);
  v.guest_polls_per_run = per_run(halts.polls);
  v.guest_poll_success_pct = Pct(static_cast<double>(halts.poll_successes),
                                 static_cast<double>(halts.polls));
  v.halt_exits_per_run = per_run(halts.halt_exits);
  v.host_polls_per_run = per_run(halts.host_attempted_polls);
  v.host_poll_success_pct =
      Pct(static_cast<double>(halts.host_successful_polls),
          static_cast<double>(halts.host_attempted_polls));
  v.host_wakeups_per_run = per_run(halts.host_wakeups);
  v.halt_wake_avg_us = Ratio(static_cast<double>(halts.halt_wake_ns) * 1e-3,
                             static_cast<double>(halts.halt_exits));
  return v;
}

std::string C0HistogramText(const std::vector<int>& bins) {
  int most = 0;
  for (int b : bins) most = std::max(most, b);
  std::string out;
  for (size_t i = 0; i < bins.size(); ++i) {
    int bar = bins[i];
    if (most > kMaxBar) {
      bar = static_cast<int>(
          std::lround(static_cast<double>(bins[i]) * kMaxBar / most));
      if (bins[i] > 0 && bar == 0) bar = 1;
    }
    absl::StrAppendFormat(&out, "%7.4f - %8.4f [%3d]: %s\n", 10.0 * i,
                          10.0 * (i + 1), bins[i], std::string(bar, '*'));
  }
  return out;
}

std::string ReportsText(const std::vector<std::string>& variant_names,
                        const std::vector<VariantReport>& reports) {
  std::string out;
  if (reports.empty()) return out;
  const VariantReport& first = reports[0];

  // Summary, one column per variant.
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> header = {""};
  for (const std::string& name : variant_names) header.push_back(name);
  rows.push_back(header);
  auto row = [&](const std::string& label, auto cell) {
    std::vector<std::string> r = {label};
    for (const VariantReport& v : reports) r.push_back(cell(v));
    rows.push_back(std::move(r));
  };
  row("%C0 (mean of CPUs)",
      [](const VariantReport& v) { return Fixed(v.c0_avg_pct, 2); });
  for (size_t k = 0; k < first.cstate_names.size(); ++k) {
    row(absl::StrCat(first.cstate_names[k], " %"), [k](const VariantReport& v) {
      return Fixed(k < v.cstate_avg_pct.size() ? v.cstate_avg_pct[k] : kNaN, 2);
    });
  }
  row("Busy MHz (time-weighted)",
      [](const VariantReport& v) { return Fixed(v.avg_busy_mhz, 0); });
  row("Energy J (per run)",
      [](const VariantReport& v) { return Small(v.energy_j); });
  row("Power W", [](const VariantReport& v) { return Fixed(v.power_w, 3); });
  if (!first.energy_per_op_metric.empty()) {
    row(absl::StrCat("Energy per op J (", first.energy_per_op_metric, ")"),
        [](const VariantReport& v) { return Small(v.energy_per_op_j); });
  }
  row("Wake-ups (per run)",
      [](const VariantReport& v) { return Fixed(v.wakeups_per_run, 1); });
  row("Idle searches (per run)",
      [](const VariantReport& v) { return Fixed(v.searches_per_run, 1); });
  row("Probes per search",
      [](const VariantReport& v) { return Fixed(v.probes_per_search, 2); });
  row("Idle CPU found %",
      [](const VariantReport& v) { return Fixed(v.idle_hit_pct, 2); });
  row("Chose target/prev/other %", [](const VariantReport& v) {
    return absl::StrCat(Fixed(v.target_pct, 1), "/", Fixed(v.prev_pct, 1), "/",
                        Fixed(v.other_pct, 1));
  });
  row("Migrations (per run)",
      [](const VariantReport& v) { return Fixed(v.migrations_per_run, 1); });
  row("Context switches (per run)", [](const VariantReport& v) {
    return Fixed(v.context_switches_per_run, 1);
  });
  row("  voluntary / involuntary", [](const VariantReport& v) {
    return absl::StrCat(Fixed(v.voluntary_switches_per_run, 1), " / ",
                        Fixed(v.involuntary_switches_per_run, 1));
  });
  row("wait_sum ms (per run; run_delay)",
      [](const VariantReport& v) { return Fixed(v.wait_sum_ms_per_run, 3); });
  row("  waits (per run), avg us, max ms", [](const VariantReport& v) {
    return absl::StrCat(Fixed(v.wait_count_per_run, 1), ", ",
                        Fixed(v.wait_avg_us, 2), ", ", Fixed(v.wait_max_ms, 3));
  });
  row("Wake-ups local/remote (per run)", [](const VariantReport& v) {
    return absl::StrCat(Fixed(v.wakeups_local_per_run, 1), "/",
                        Fixed(v.wakeups_remote_per_run, 1));
  });
  row("  migrated / affine (per run)", [](const VariantReport& v) {
    return absl::StrCat(Fixed(v.wakeups_migrate_per_run, 1), " / ",
                        Fixed(v.wakeups_affine_per_run, 1));
  });
  row("Searches with no idle CPU (per run)", [](const VariantReport& v) {
    return Fixed(v.searches_failed_per_run, 1);
  });
  if (first.guest) {
    row("Guest polls (per run), success %", [](const VariantReport& v) {
      return absl::StrCat(Fixed(v.guest_polls_per_run, 1), ", ",
                          Fixed(v.guest_poll_success_pct, 1));
    });
    row("HLT exits (per run)",
        [](const VariantReport& v) { return Fixed(v.halt_exits_per_run, 1); });
    row("  host polls (per run), success %", [](const VariantReport& v) {
      return absl::StrCat(Fixed(v.host_polls_per_run, 1), ", ",
                          Fixed(v.host_poll_success_pct, 1));
    });
    row("  vCPU scheduled out (per run)", [](const VariantReport& v) {
      return Fixed(v.host_wakeups_per_run, 1);
    });
    row("  HLT wake-up latency us (mean)",
        [](const VariantReport& v) { return Fixed(v.halt_wake_avg_us, 2); });
  }
  absl::StrAppend(&out, AlignColumns(rows, 1, 2));

  // Per-CPU residency, turbostat-like, for small machines.
  const size_t cpus = first.c0_pct.size();
  if (cpus > 0 && cpus <= static_cast<size_t>(kReportsMaxTextCpus)) {
    for (size_t i = 0; i < reports.size(); ++i) {
      const VariantReport& v = reports[i];
      absl::StrAppend(&out, "\nPer-CPU residency %, ", variant_names[i], "\n");
      std::vector<std::vector<std::string>> t;
      std::vector<std::string> h = {"CPU", "%C0"};
      for (const std::string& s : v.cstate_names) h.push_back(s);
      t.push_back(h);
      for (size_t c = 0; c < v.c0_pct.size(); ++c) {
        std::vector<std::string> r = {absl::StrCat(c), Fixed(v.c0_pct[c], 2)};
        for (double pct : v.cstate_pct[c]) r.push_back(Fixed(pct, 2));
        t.push_back(std::move(r));
      }
      absl::StrAppend(&out, AlignColumns(t, 0, 2));
    }
  }

  // %C0 histograms.
  for (size_t i = 0; i < reports.size(); ++i) {
    absl::StrAppend(&out, "\n%C0 histogram, ", variant_names[i], " (", cpus,
                    " CPUs x ", reports[i].runs, " runs)\n",
                    C0HistogramText(reports[i].c0_histogram));
  }

  // Frequency residency: the most used frequencies over all variants.
  std::map<int64_t, double> total;
  for (const VariantReport& v : reports) {
    for (const auto& [khz, pct] : v.busy_pct_at_khz) total[khz] += pct;
  }
  if (!total.empty()) {
    std::vector<std::pair<int64_t, double>> top(total.begin(), total.end());
    std::stable_sort(top.begin(), top.end(), [](const auto& a, const auto& b) {
      return a.second > b.second;
    });
    if (top.size() > static_cast<size_t>(kTopFrequencies)) {
      top.resize(kTopFrequencies);
    }
    std::sort(top.begin(), top.end(),
              [](const auto& a, const auto& b) { return a.first > b.first; });
    absl::StrAppend(&out, "\nBusy time at frequency % (",
                    total.size() > top.size() ? "most used" : "all",
                    " frequencies)\n");
    std::vector<std::vector<std::string>> t;
    std::vector<std::string> h = {"MHz"};
    for (const std::string& name : variant_names) h.push_back(name);
    t.push_back(h);
    for (const auto& [khz, unused] : top) {
      std::vector<std::string> r = {Fixed(static_cast<double>(khz) / 1000, 0)};
      for (const VariantReport& v : reports) {
        double pct = 0;
        for (const auto& [k, p] : v.busy_pct_at_khz) {
          if (k == khz) pct = p;
        }
        r.push_back(Fixed(pct, 2));
      }
      t.push_back(std::move(r));
    }
    absl::StrAppend(&out, AlignColumns(t, 0, 2));
  }
  return out;
}

OrderedJson RunReportJson(const RunReport& r,
                          const std::vector<std::string>& cstate_names) {
  OrderedJson j;
  j["duration_s"] = r.duration_s;
  j["energy_j"] = r.energy_j;
  j["c0_pct"] = r.c0_pct;
  OrderedJson residency = OrderedJson::object();
  for (size_t k = 0; k < cstate_names.size(); ++k) {
    std::vector<double> per_cpu;
    for (const std::vector<double>& cpu : r.cstate_pct) {
      per_cpu.push_back(k < cpu.size() ? cpu[k] : 0.0);
    }
    residency[cstate_names[k]] = std::move(per_cpu);
  }
  j["cstate_pct"] = std::move(residency);
  j["avg_busy_mhz"] =
      Ratio(r.khz_ns_busy, static_cast<double>(r.busy_ns)) / 1000.0;
  OrderedJson freq = OrderedJson::array();
  for (const auto& [khz, ns] : r.busy_ns_at_khz) {
    freq.push_back({{"khz", khz}, {"busy_ns", ns}});
  }
  j["busy_ns_at_khz"] = std::move(freq);
  j["placement"] = {{"wakeups", r.wakeups},
                    {"searches", r.searches},
                    {"probes", r.probes},
                    {"chosen_idle", r.chosen_idle},
                    {"chose_target", r.chose_target},
                    {"chose_prev", r.chose_prev},
                    {"chose_other", r.chose_other}};
  j["migrations"] = r.migrations;
  j["context_switches"] = r.context_switches;
  j["schedstat"] = {{"wait_sum_ns", r.wait_sum_ns},
                    {"run_delay_ns", r.wait_sum_ns},
                    {"wait_count", r.wait_count},
                    {"wait_max_ns", r.wait_max_ns},
                    {"nr_voluntary_switches", r.nr_voluntary_switches},
                    {"nr_involuntary_switches", r.nr_involuntary_switches},
                    {"nr_wakeups_local", r.nr_wakeups_local},
                    {"nr_wakeups_remote", r.nr_wakeups_remote},
                    {"nr_wakeups_migrate", r.nr_wakeups_migrate},
                    {"nr_wakeups_affine", r.nr_wakeups_affine},
                    {"searches", r.searches},
                    {"probes", r.probes},
                    {"searches_failed", r.searches_failed}};
  if (r.guest) {
    const sim::GuestTotals& g = r.halts;
    OrderedJson guest = OrderedJson::object();
    for (const auto& [name, value] : sim::GuestCounterFields(g)) {
      guest[name] = value;
    }
    j["guest"] = std::move(guest);
  }
  return j;
}

OrderedJson VariantReportJson(const VariantReport& v) {
  OrderedJson j;
  j["runs"] = v.runs;
  j["c0_avg_pct"] = v.c0_avg_pct;
  j["c0_pct"] = v.c0_pct;
  OrderedJson avg = OrderedJson::object();
  OrderedJson per_cpu = OrderedJson::object();
  for (size_t k = 0; k < v.cstate_names.size(); ++k) {
    avg[v.cstate_names[k]] =
        k < v.cstate_avg_pct.size() ? v.cstate_avg_pct[k] : 0.0;
    std::vector<double> cpus;
    for (const std::vector<double>& cpu : v.cstate_pct) {
      cpus.push_back(k < cpu.size() ? cpu[k] : 0.0);
    }
    per_cpu[v.cstate_names[k]] = std::move(cpus);
  }
  j["cstate_avg_pct"] = std::move(avg);
  j["cstate_pct"] = std::move(per_cpu);
  OrderedJson hist = OrderedJson::array();
  for (int i = 0; i < static_cast<int>(v.c0_histogram.size()); ++i) {
    hist.push_back({{"from_pct", 10 * i},
                    {"to_pct", 10 * (i + 1)},
                    {"count", v.c0_histogram[i]}});
  }
  j["c0_histogram"] = std::move(hist);
  j["avg_busy_mhz"] = v.avg_busy_mhz;
  OrderedJson freq = OrderedJson::array();
  for (const auto& [khz, pct] : v.busy_pct_at_khz) {
    freq.push_back({{"khz", khz}, {"busy_pct", pct}});
  }
  j["busy_pct_at_khz"] = std::move(freq);
  j["energy_j"] = v.energy_j;
  j["power_w"] = v.power_w;
  if (v.energy_per_op_metric.empty()) {
    j["energy_per_op_j"] = nullptr;
    j["energy_per_op_metric"] = nullptr;
  } else {
    j["energy_per_op_j"] = std::isnan(v.energy_per_op_j)
                               ? OrderedJson(nullptr)
                               : OrderedJson(v.energy_per_op_j);
    j["energy_per_op_metric"] = v.energy_per_op_metric;
  }
  j["placement"] = {{"wakeups_per_run", v.wakeups_per_run},
                    {"searches_per_run", v.searches_per_run},
                    {"probes_per_search", v.probes_per_search},
                    {"idle_hit_pct", v.idle_hit_pct},
                    {"target_pct", v.target_pct},
                    {"prev_pct", v.prev_pct},
                    {"other_pct", v.other_pct}};
  j["migrations_per_run"] = v.migrations_per_run;
  j["context_switches_per_run"] = v.context_switches_per_run;
  j["schedstat"] = {
      {"wait_sum_ms_per_run", v.wait_sum_ms_per_run},
      {"run_delay_ms_per_run", v.wait_sum_ms_per_run},
      {"wait_count_per_run", v.wait_count_per_run},
      {"wait_avg_us", v.wait_avg_us},
      {"wait_max_ms", v.wait_max_ms},
      {"nr_voluntary_switches_per_run", v.voluntary_switches_per_run},
      {"nr_involuntary_switches_per_run", v.involuntary_switches_per_run},
      {"nr_wakeups_local_per_run", v.wakeups_local_per_run},
      {"nr_wakeups_remote_per_run", v.wakeups_remote_per_run},
      {"nr_wakeups_migrate_per_run", v.wakeups_migrate_per_run},
      {"nr_wakeups_affine_per_run", v.wakeups_affine_per_run},
      {"searches_failed_per_run", v.searches_failed_per_run}};
  if (v.guest) {
    j["guest"] = {{"guest_polls_per_run", v.guest_polls_per_run},
                  {"guest_poll_success_pct", v.guest_poll_success_pct},
                  {"halt_exits_per_run", v.halt_exits_per_run},
                  {"host_polls_per_run", v.host_polls_per_run},
                  {"host_poll_success_pct", v.host_poll_success_pct},
                  {"host_wakeups_per_run", v.host_wakeups_per_run},
                  {"halt_wake_avg_us", v.halt_wake_avg_us}};
  }
  return j;
}

}  // namespace schedsim::experiments
