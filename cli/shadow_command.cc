// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "cli/shadow_command.h"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "base/version.h"
#include "cli/flags.h"
#include "cli/param_flags.h"
#include "experiments/machine_source.h"
#include "nlohmann/json.hpp"
#include "platform/linux/tracefs_record.h"
#include "platform/registry.h"
#include "topology/presets.h"
#include "traces/shadow.h"

namespace schedsim::cli {

using experiments::LoadMachine;
using experiments::MachineSource;
namespace {

using Json = nlohmann::ordered_json;

constexpr int64_t kNsPerUs = 1000;

constexpr char kUsage[] =
    "Usage: schedsim shadow (--trace=FILE | --live=SECONDS [--tracefs=DIR]\n"
    "                       [--save-trace=FILE])\n"
    "                       (--cpuidle=NAME | --placement=NAME)\n"
    "                       [--param=KEY=VALUE ...] [--machine=NAME |\n"
    "                       (--sysfs=DIR | --hwloc=FILE) "
    "[--power-model=NAME]]\n"
    "                       [--format=text|json] [--hz=N] "
    "[--assume-timer-us=N]\n"
    "                       [--latency-limit-us=N] "
    "[--wake-target=sync|prev|waker]\n"
    "                       [--sync-window-us=N] [--include-wakeup-new]\n";

// What --help says between the usage and the flags.
constexpr char kAbout[] =
    "Shows a cpuidle governor or a placement policy each decision "
    "the kernel made\nin a recorded trace (ftrace text or trace-cmd "
    ".dat) "
    "and compares "
    "its answers with the kernel's\n(docs/traces-shadow.md). Exit codes: 0 "
    "done, 1 failed (bad trace,\nmachine), 2 usage.\n";

Json ParamsJson(const std::map<std::string, platform::ParamValue>& params) {
  Json j = Json::object();
  for (const auto& [k, v] : params) {
    std::visit([&j, &k = k](const auto& x) { j[k] = x; }, v);
  }
  return j;
}

std::string Pct(int64_t n, int64_t d) {
  return d == 0 ? std::string("-") : absl::StrFormat("%.1f%%", 100.0 * n / d);
}

std::string Us(int64_t ns) { return absl::StrFormat("%.1f", ns / 1000.0); }

// --- Idle report ------------------------------------------------------------

Json CostJson(const traces::IdleCost& c) {
  Json j;
  j["too_deep"] = c.too_deep;
  j["too_shallow"] = c.too_shallow;
  j["exit_latency_ns"] = c.exit_latency_ns;
  j["oracle"] = c.oracle;
  return j;
}

Json IdleCpuJson(const traces::IdleShadowCpu& c) {
  Json j;
  if (c.cpu >= 0) j["cpu"] = c.cpu;
  j["periods"] = c.periods;
  j["idle_ns"] = c.idle_ns;
  j["agreements"] = c.agreements;
  j["agreement_pct"] = c.agreement_pct();
  j["confusion"] = c.confusion;
  j["governor"] = CostJson(c.governor);
  j["kernel"] = CostJson(c.kernel);
  return j;
}

std::string SleepLengthText(const traces::IdleShadowOptions& o) {
  return o.assume_timer_in_ns > 0
             ? absl::StrCat("a timer assumed ", Us(o.assume_timer_in_ns),
                            " us after each entry (tick: HZ=", o.hz, ")")
             : absl::StrCat("the time to the next tick boundary (HZ=", o.hz,
                            ")");
}

// What a user should know before trusting the comparison: a trace with
// nothing to evaluate, or one recorded on a machine unlike the one it is
// judged against.
std::vector<std::string> ShadowWarnings(int64_t evaluated,
                                        const char* what_evaluated,
                                        int trace_cpus,
                                        const topology::Topology& machine) {
  std::vector<std::string> w;
  if (evaluated == 0) {
    w.push_back(absl::StrCat("the trace has no ", what_evaluated,
                             ": nothing was evaluated"));
  }
  if (trace_cpus > 0 && trace_cpus != machine.num_cpus()) {
    w.push_back(absl::StrCat(
        "the trace was recorded on ", trace_cpus, " CPUs and ", machine.name(),
        " has ", machine.num_cpus(),
        ": give the recording machine (--machine, --sysfs or --hwloc with "
        "--power-model)"));
  }
  return w;
}

void PrintWarnings(const std::vector<std::string>& warnings,
                   std::ostream& err) {
  for (const std::string& w : warnings) {
    err << "schedsim shadow: warning: " << w << "\n";
  }
}

Json IdleJson(const traces::IdleShadowReport& r, const std::string& trace,
              const std::map<std::string, platform::ParamValue>& params) {
  Json j;
  j["schema_version"] = base::kResultSchemaVersion;
  j["command"] = "shadow";
  j["family"] = "cpuidle";
  j["policy"] = r.governor;
  j["params"] = ParamsJson(params);
  j["trace"] = trace;
  j["machine"] = r.machine;
  Json states = Json::array();
  for (size_t i = 0; i < r.states.size(); ++i) {
    const topology::CState& s = r.states[i];
    Json sj;
    sj["index"] = i;
    sj["name"] = s.name;
    sj["exit_latency_ns"] = s.exit_latency_ns;
    sj["target_residency_ns"] = s.target_residency_ns;
    sj["disabled"] = s.disabled;
    states.push_back(sj);
  }
  j["states"] = states;
  Json o;
  o["hz"] = r.options.hz;
  o["sleep_length"] =
      r.options.assume_timer_in_ns > 0 ? "assumed_timer" : "next_tick";
  o["assume_timer_in_ns"] = r.options.assume_timer_in_ns;
  if (r.options.latency_limit_ns >= 0) {
    o["latency_limit_ns"] = r.options.latency_limit_ns;
  } else {
    o["latency_limit_ns"] = nullptr;
  }
  j["options"] = o;
  j["first_ns"] = r.first_ns;
  j["last_ns"] = r.last_ns;
  j["unmatched_exits"] = r.unmatched_exits;
  j["open_at_end"] = r.open_at_end;
  j["total"] = IdleCpuJson(r.total);
  Json cpus = Json::array();
  for (const traces::IdleShadowCpu& c : r.cpus) cpus.push_back(IdleCpuJson(c));
  j["cpus"] = cpus;
  return j;
}

void IdleCpuRow(const std::string& label, const traces::IdleShadowCpu& c,
                std::ostream& out) {
  out << absl::StrFormat(
      "  %-5s %8d %7d %7s | %6d %8d %11s %6d | %6d %8d %11s %6d\n", label,
      c.periods, c.agreements, Pct(c.agreements, c.periods),
      c.governor.too_deep, c.governor.too_shallow,
      Us(c.governor.exit_latency_ns), c.governor.oracle, c.kernel.too_deep,
      c.kernel.too_shallow, Us(c.kernel.exit_latency_ns), c.kernel.oracle);
}

void IdleText(const traces::IdleShadowReport& r, const std::string& trace,
              std::ostream& out) {
  out << "Shadow evaluation of cpuidle governor " << r.governor << " on "
      << trace << "\n";
  out << "Machine " << r.machine << ", idle states:";
  for (size_t i = 0; i < r.states.size(); ++i) {
    const topology::CState& s = r.states[i];
    out << (i == 0 ? " " : ", ") << i << " " << s.name << " ("
        << Us(s.exit_latency_ns) << "/" << Us(s.target_residency_ns) << " us"
        << (s.disabled ? ", disabled" : "") << ")";
  }
  out << "\n  (exit latency / target residency; the trace's state indices "
         "map onto this table)\n";
  out << "Sleep length shown: " << SleepLengthText(r.options)
      << "; PM QoS limit: "
      << (r.options.latency_limit_ns < 0
              ? std::string("none")
              : absl::StrCat(Us(r.options.latency_limit_ns), " us"))
      << "\n";
  out << "Idle periods: " << r.total.periods << " over "
      << Us(r.last_ns - r.first_ns) << " us of trace; " << r.unmatched_exits
      << " exits without an entry ignored, " << r.open_at_end
      << " periods cut at the end\n\n";
  out << "                                 | governor's choices           "
         "      | kernel's recorded states\n";
  out << absl::StrFormat(
      "  %-5s %8s %7s %7s | %6s %8s %11s %6s | %6s %8s %11s %6s\n", "CPU",
      "periods", "agree", "agree%", "deep", "shallow", "exit-lat-us", "oracle",
      "deep", "shallow", "exit-lat-us", "oracle");
  for (const traces::IdleShadowCpu& c : r.cpus) {
    IdleCpuRow(absl::StrCat(c.cpu), c, out);
  }
  IdleCpuRow("all", r.total, out);
  out << "\n  deep: residency < the state's target residency; shallow: "
         "residency >= the\n  next deeper enabled state's; exit-lat-us: sum "
         "of advertised exit latencies;\n  oracle: choices equal to the "
         "deepest state the residency justified.\n\n";
  out << "Confusion matrix, all CPUs (rows: recorded state, columns: "
         "governor's choice):\n";
  out << absl::StrFormat("  %-12s", "recorded");
  for (const topology::CState& s : r.states) {
    out << absl::StrFormat(" %7s", s.name);
  }
  out << "\n";
  for (size_t i = 0; i < r.states.size(); ++i) {
    out << absl::StrFormat("  %-12s", absl::StrCat(i, " ", r.states[i].name));
    for (int64_t n : r.total.confusion[i]) out << absl::StrFormat(" %7d", n);
    out << "\n";
  }
}

// --- Placement report -------------------------------------------------------

Json PlacementJson(const traces::PlacementShadowReport& r,
                   const std::string& trace,
                   const std::map<std::string, platform::ParamValue>& params) {
  Json j;
  j["schema_version"] = base::kResultSchemaVersion;
  j["command"] = "shadow";
  j["family"] = "placement";
  j["policy"] = r.policy;
  j["params"] = ParamsJson(params);
  j["trace"] = trace;
  j["machine"] = r.machine;
  j["trace_cpus"] = r.trace_cpus;
  Json o;
  o["wake_target"] = traces::WakeTargetName(r.options.target);
  o["sync_window_ns"] = r.options.sync_window_ns;
  o["probe_cost_ns"] = r.options.probe_cost_ns;
  o["hz"] = r.options.hz;
  o["include_wakeup_new"] = r.options.include_wakeup_new;
  j["options"] = o;
  j["wakeup_events"] = r.wakeup_events;
  j["waking_events"] = r.waking_events;
  j["wakings_from_next_run"] = r.wakings_from_next_run;
  j["evaluated"] = r.evaluated;
  j["skipped"] = {{"wakeup_new", r.skipped_wakeup_new},
                  {"rt", r.skipped_rt},
                  {"pinned", r.skipped_pinned},
                  {"no_prev", r.skipped_no_prev},
                  {"unmatched_waking", r.skipped_unmatched_waking}};
  j["agreements"] = r.agreements;
  j["agreement_pct"] = r.agreement_pct();
  j["sync_wakeups"] = r.sync_wakeups;
  j["waker_targets"] = r.waker_targets;
  j["idle"] = {{"policy", r.policy_idle},
               {"kernel", r.kernel_idle},
               {"both", r.both_idle},
               {"policy_only", r.policy_idle_kernel_busy},
               {"kernel_only", r.kernel_idle_policy_busy},
               {"neither", r.both_busy}};
  j["policy_chose"] = {{"target", r.policy_chose_target},
                       {"prev", r.policy_chose_prev},
                       {"this_cpu", r.policy_chose_this},
                       {"other", r.policy_chose_other}};
  j["kernel_chose"] = {{"target", r.kernel_chose_target},
                       {"prev", r.kernel_chose_prev},
                       {"this_cpu", r.kernel_chose_this},
                       {"other", r.kernel_chose_other}};
  j["probes"] = r.probes;
  j["confusion"] = r.confusion;
  return j;
}

void PlacementText(const traces::PlacementShadowReport& r,
                   const std::string& trace, std::ostream& out) {
  out << "Shadow evaluation of placement policy " << r.policy << " on " << trace
      << "\n";
  out << "Machine " << r.machine << "; trace CPUs 0-" << r.trace_cpus - 1
      << "; target: ";
  switch (r.options.target) {
    case traces::WakeTarget::kSyncWaker:
      out << "prev, or the waking CPU when the waker sleeps within "
          << Us(r.options.sync_window_ns) << " us (sync)";
      break;
    case traces::WakeTarget::kPrev:
      out << "prev";
      break;
    case traces::WakeTarget::kWaker:
      out << "the waking CPU";
      break;
  }
  out << "\n";
  out << "Wake-up events: " << r.wakeup_events << " sched_wakeup(_new), "
      << r.waking_events << " sched_waking";
  if (r.wakings_from_next_run > 0) {
    out << " (no sched_wakeup: the kernel's CPU of " << r.wakings_from_next_run
        << " taken from the task's next migration or run)";
  }
  out << "\n";
  out << "Evaluated: " << r.evaluated << "; not evaluated: " << r.skipped_rt
      << " RT, " << r.skipped_pinned << " per-CPU kthreads, "
      << r.skipped_no_prev << " unknown prev, " << r.skipped_wakeup_new
      << " sched_wakeup_new, " << r.skipped_unmatched_waking
      << " unmatched sched_waking\n";
  out << "Sync-looking: " << r.sync_wakeups
      << "; with target = waking CPU: " << r.waker_targets << "\n\n";
  out << "Agreement with the kernel's target_cpu: " << r.agreements << " / "
      << r.evaluated << " (" << Pct(r.agreements, r.evaluated) << ")\n";
  out << "Idle at the decision: policy's CPU " << r.policy_idle
      << ", kernel's CPU " << r.kernel_idle << " (both " << r.both_idle
      << ", only the policy's " << r.policy_idle_kernel_busy
      << ", only the kernel's " << r.kernel_idle_policy_busy << ", neither "
      << r.both_busy << ")\n";
  out << absl::StrFormat("  %-8s %8s %8s %8s %8s\n", "chose", "target", "prev",
                         "this_cpu", "other");
  out << absl::StrFormat("  %-8s %8d %8d %8d %8d\n", "policy",
                         r.policy_chose_target, r.policy_chose_prev,
                         r.policy_chose_this, r.policy_chose_other);
  out << absl::StrFormat("  %-8s %8d %8d %8d %8d\n", "kernel",
                         r.kernel_chose_target, r.kernel_chose_prev,
                         r.kernel_chose_this, r.kernel_chose_other);
  out << "Runqueues probed: " << r.probes << " ("
      << (r.evaluated == 0
              ? std::string("-")
              : absl::StrFormat("%.2f", 1.0 * r.probes / r.evaluated))
      << " per decision)\n\n";
  out << "Kernel's CPU (rows) vs the policy's choice (columns):\n";
  out << absl::StrFormat("  %-6s", "kernel");
  for (int c = 0; c < r.trace_cpus; ++c) out << absl::StrFormat(" %5d", c);
  out << "\n";
  for (int k = 0; k < r.trace_cpus; ++k) {
    out << absl::StrFormat("  %-6d", k);
    for (int64_t n : r.confusion[k]) out << absl::StrFormat(" %5d", n);
    out << "\n";
  }
}

}  // namespace

int ShadowCommand(const std::vector<std::string>& args_in, std::ostream& out,
                  std::ostream& err) {
  std::vector<std::string> args = args_in;
  std::vector<std::string> param_texts;
  absl::Status extracted = ExtractParamFlags(args, &param_texts);

  std::string trace;
  std::string cpuidle;
  std::string placement;
  std::string param_help;  // shown in --help; --param is taken out above
  MachineSource source;
  std::string format = "text";
  int64_t hz = 250;
  int64_t assume_timer_us = 0;
  int64_t latency_limit_us = -1;
  std::string wake_target = "sync";
  int64_t sync_window_us = 50;
  bool include_wakeup_new = false;
  double live_s = 0;
  std::string tracefs = "/sys/kernel/tracing";
  std::string save_trace;
  CommandLine cl("shadow", kUsage, kAbout, out, err,
                 /*usage_on_error=*/true);
  FlagSet& flags = cl.flags();
  flags.String("trace", &trace,
               "the trace: ftrace text (trace-cmd report, tracefs `trace`, "
               "systrace) or a trace-cmd .dat file, told apart by its first "
               "bytes");
  flags.String(
      "cpuidle", &cpuidle,
      absl::StrCat("the cpuidle governor to evaluate: ",
                   KnownPolicyNames(platform::PolicyFamily::kCpuidle)));
  flags.String(
      "placement", &placement,
      absl::StrCat("the placement policy to evaluate: ",
                   KnownPolicyNames(platform::PolicyFamily::kPlacement)));
  flags.String("param", &param_help,
               "KEY=VALUE: a policy parameter (repeatable; `schedsim "
               "policies` lists them)");
  flags.String(
      "machine", &source.machine,
      absl::StrCat("a built-in machine (default ", kShadowDefaultMachine,
                   "): ", absl::StrJoin(topology::PresetNames(), ", ")));
  flags.String("sysfs", &source.sysfs,
               "a sysfs root holding devices/system/cpu (the traced "
               "machine's, for its idle state table)");
  flags.String("hwloc", &source.hwloc,
               "an hwloc XML file of the traced machine instead (it has no "
               "idle-state table: give --power-model for --cpuidle)");
  flags.String("power-model", &source.power_model,
               "with --sysfs or --hwloc: a built-in machine whose C-state, "
               "frequency and power tables the imported machine takes");
  flags.String("format", &format, "text or json");
  flags.Int("hz", &hz,
            "CONFIG_HZ of the traced kernel: tick boundaries every 1/HZ s");
  flags.Int("assume-timer-us", &assume_timer_us,
            "cpuidle: show the governor a timer this many us after each "
            "entry instead of the next tick boundary; 0: the tick");
  flags.Int("latency-limit-us", &latency_limit_us,
            "cpuidle: the PM QoS latency limit shown; -1: none");
  flags.String("wake-target", &wake_target,
               "placement: wake_affine's target: sync (the waking CPU for "
               "sync-looking wake-ups, else prev), prev or waker");
  flags.Int("sync-window-us", &sync_window_us,
            "placement: a wake-up is sync-looking when the waker sleeps "
            "within this time");
  flags.Bool("include-wakeup-new", &include_wakeup_new,
             "placement: also evaluate sched_wakeup_new");
  flags.Double("live", &live_s,
               "record this many seconds of this machine's events from "
               "tracefs and evaluate them (root; instead of --trace; the "
               "machine defaults to --sysfs=/sys)");
  flags.String("tracefs", &tracefs, "with --live: the tracefs mount");
  flags.String("save-trace", &save_trace,
               "with --live: keep the recorded trace in this file");
  std::vector<std::string> positional;
  if (std::optional<int> done = cl.Parse(args, &positional, 0, extracted)) {
    return *done;
  }
  const auto usage_error = [&](absl::string_view message) {
    return cl.UsageError(message);
  };
  const bool live = live_s != 0;
  if (live && !trace.empty()) {
    return usage_error("give only one of --trace and --live");
  }
  if (live && !(live_s > 0 && live_s <= 3600)) {
    return usage_error(
        absl::StrCat("--live must be in (0, 3600] seconds, got ", live_s));
  }
  if (!live && !save_trace.empty()) {
    return usage_error("--save-trace is for --live");
  }
  if (trace.empty() && !live) {
    return usage_error("--trace=FILE (or --live=SECONDS) is required");
  }
  if (cpuidle.empty() == placement.empty()) {
    return usage_error(cpuidle.empty()
                           ? "name the policy to evaluate: --cpuidle=NAME or "
                             "--placement=NAME"
                           : "give only one of --cpuidle and --placement");
  }
  if (format != "text" && format != "json") {
    return usage_error(
        absl::StrCat("--format must be text or json, got '", format, "'"));
  }
  if (hz < 1 || hz > 10000) {
    return usage_error(absl::StrCat("--hz must be in 1..10000, got ", hz));
  }
  if (assume_timer_us < 0 || assume_timer_us > int64_t{1} << 40) {
    return usage_error(absl::StrCat(
        "--assume-timer-us must be >= 0 (0: the tick), got ", assume_timer_us));
  }
  if (latency_limit_us < -1 || latency_limit_us > int64_t{1} << 40) {
    return usage_error(
        absl::StrCat("--latency-limit-us must be >= 0 or -1 (none), got ",
                     latency_limit_us));
  }
  if (sync_window_us < 0 || sync_window_us > int64_t{1} << 40) {
    return usage_error(
        absl::StrCat("--sync-window-us must be >= 0, got ", sync_window_us));
  }
  traces::WakeTarget target = traces::WakeTarget::kSyncWaker;
  if (wake_target == "prev") {
    target = traces::WakeTarget::kPrev;
  } else if (wake_target == "waker") {
    target = traces::WakeTarget::kWaker;
  } else if (wake_target != "sync") {
    return usage_error(absl::StrCat(
        "--wake-target must be sync, prev or waker, got '", wake_target, "'"));
  }
  if (!source.machine.empty() + !source.sysfs.empty() + !source.hwloc.empty() >
      1) {
    return usage_error("give only one of --machine, --sysfs and --hwloc");
  }
  if (!source.power_model.empty() && source.sysfs.empty() &&
      source.hwloc.empty()) {
    return usage_error(
        "--power-model is for an imported machine (--sysfs or --hwloc)");
  }
  if (source.machine.empty() && source.sysfs.empty() && source.hwloc.empty()) {
    if (live) {
      source.sysfs = "/sys";  // the machine being recorded
    } else {
      source.machine = kShadowDefaultMachine;
    }
  }

  const bool idle = !cpuidle.empty();
  const platform::PolicyFamily family =
      idle ? platform::PolicyFamily::kCpuidle
           : platform::PolicyFamily::kPlacement;
  // --cpuidle takes a comma-separated list, or `all`: each governor is
  // shown the same trace (one recording for all with --live).
  std::vector<std::string> idle_names;
  if (idle) {
    if (cpuidle == "all") {
      for (const platform::PolicyInfo* p :
           platform::PolicyRegistry::Global().List(family)) {
        idle_names.push_back(p->name);
      }
    } else {
      idle_names = absl::StrSplit(cpuidle, ',');
    }
    if (idle_names.size() > 1 && !param_texts.empty()) {
      return usage_error("--param needs a single --cpuidle governor");
    }
  }
  for (const std::string& n : idle_names) {
    if (platform::PolicyRegistry::Global().Find(family, n) == nullptr) {
      return usage_error(absl::StrCat("unknown cpuidle policy '", n,
                                      "'; known: ", KnownPolicyNames(family)));
    }
  }
  const std::string& name = idle ? idle_names.front() : placement;
  const platform::PolicyInfo* info =
      platform::PolicyRegistry::Global().Find(family, name);
  if (info == nullptr) {
    return usage_error(absl::StrCat("unknown ", platform::FamilyName(family),
                                    " policy '", name,
                                    "'; known: ", KnownPolicyNames(family)));
  }
  absl::StatusOr<std::map<std::string, platform::ParamValue>> params =
      TypedParamValues(*info, info->name, param_texts);
  if (!params.ok()) return usage_error(params.status().message());

  absl::StatusOr<topology::Topology> machine = LoadMachine(source);
  if (!machine.ok()) {
    err << "schedsim shadow: " << machine.status().message() << "\n";
    return 1;
  }

  // --live: record first, then read the recording as a trace file.
  std::unique_ptr<std::string, void (*)(std::string*)> temp_trace(
      nullptr, [](std::string* path) {
        std::remove(path->c_str());
        delete path;
      });
  if (live) {
    platform::host::TracefsRecordOptions record;
    record.root = tracefs;
    record.events = platform::host::ShadowLiveEvents(!cpuidle.empty());
    record.duration_ns = static_cast<int64_t>(live_s * 1e9);
    record.buffer_kb = 8192;
    if (save_trace.empty()) {
      char path[] = "/tmp/schedsim-shadow-live-XXXXXX";
      const int fd = mkstemp(path);
      if (fd < 0) {
        err << "schedsim shadow: cannot create a temporary file in /tmp\n";
        return 1;
      }
      close(fd);
      temp_trace.reset(new std::string(path));
      record.out_file = path;
    } else {
      record.out_file = save_trace;
    }
    err << "schedsim shadow: recording " << live_s << " s of "
        << absl::StrJoin(record.events, ", ") << " from " << tracefs << "\n";
    absl::Status recorded = platform::host::RecordTracefs(record);
    if (!recorded.ok()) {
      err << "schedsim shadow: " << recorded.message() << "\n";
      return 1;
    }
    trace = record.out_file;
  }

  if (idle) {
    traces::IdleShadowOptions options;
    options.hz = static_cast<int>(hz);
    options.assume_timer_in_ns = assume_timer_us * kNsPerUs;
    options.latency_limit_ns =
        latency_limit_us < 0 ? -1 : latency_limit_us * kNsPerUs;
    Json all = Json::array();
    for (size_t i = 0; i < idle_names.size(); ++i) {
      absl::StatusOr<std::unique_ptr<platform::IdleGovernor>> governor =
          platform::PolicyRegistry::Global().MakeIdle(idle_names[i], *params);
      if (!governor.ok()) return usage_error(governor.status().message());
      absl::StatusOr<traces::IdleShadowReport> report =
          traces::ShadowIdle(trace, *machine, **governor, options);
      if (!report.ok()) {
        err << "schedsim shadow: " << report.status().message() << "\n";
        return 1;
      }
      const std::vector<std::string> warnings = ShadowWarnings(
          report->total.periods, "idle periods (cpu_idle events)",
          report->trace_cpus, *machine);
      if (i == 0) PrintWarnings(warnings, err);
      if (format == "json") {
        Json j = IdleJson(*report, trace, *params);
        j["warnings"] = warnings;
        all.push_back(std::move(j));
      } else {
        if (i > 0) out << "\n";
        IdleText(*report, trace, out);
      }
    }
    if (format == "json") {
      // One governor: its object; several: an array of them.
      const Json& j = all.size() == 1 ? all[0] : all;
      out << j.dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
    }
    return 0;
  }

  absl::StatusOr<std::unique_ptr<platform::PlacementPolicy>> policy =
      platform::PolicyRegistry::Global().MakePlacement(name, *params);
  if (!policy.ok()) return usage_error(policy.status().message());
  traces::PlacementShadowOptions options;
  options.target = target;
  options.sync_window_ns = sync_window_us * kNsPerUs;
  options.hz = static_cast<int>(hz);
  options.include_wakeup_new = include_wakeup_new;
  absl::StatusOr<traces::PlacementShadowReport> report =
      traces::ShadowPlacement(trace, *machine, **policy, options);
  if (!report.ok()) {
    err << "schedsim shadow: " << report.status().message() << "\n";
    return 1;
  }
  const std::vector<std::string> warnings = ShadowWarnings(
      report->evaluated, "wake-ups to evaluate", report->trace_cpus, *machine);
  PrintWarnings(warnings, err);
  if (format == "json") {
    Json j = PlacementJson(*report, trace, *params);
    j["warnings"] = warnings;
    out << j.dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
  } else {
    PlacementText(*report, trace, out);
  }
  return 0;
}

}  // namespace schedsim::cli
