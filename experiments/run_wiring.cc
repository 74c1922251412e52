// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The one run wiring (run_wiring.h): policies by name, Simulator::Create,
// warm-up, ResetStats, the measured run.

#include "experiments/run_wiring.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "platform/registry.h"

namespace schedsim::experiments {
namespace {

// The caller's object, or a new one by name (`default_name` when empty).
template <typename Interface, typename MakeFn>
absl::StatusOr<std::shared_ptr<Interface>> Resolve(
    const std::shared_ptr<Interface>& object, const PolicySpec& spec,
    const std::string& default_name, MakeFn make) {
  if (object != nullptr) return object;
  const std::string& name = spec.name.empty() ? default_name : spec.name;
  absl::StatusOr<std::unique_ptr<Interface>> made = make(name, spec.params);
  if (!made.ok()) return made.status();
  return std::shared_ptr<Interface>(*std::move(made));
}

// The measured run in batches until settled, finished or at its length.
absl::StatusOr<SettleOutcome> RunSettling(const RunSpec& spec,
                                          sim::Simulator& simulator) {
  const SettleRun& s = *spec.settle;
  const sim::SimDuration batch = sim::Milliseconds(s.options.batch_ms);
  const int64_t max_batches =
      batch.ns() > 0 ? spec.duration.ns() / batch.ns() : 0;
  SettleMonitor monitor(s.options);
  for (int64_t b = 0; b < max_batches; ++b) {
    SCHEDSIM_RETURN_IF_ERROR(simulator.RunFor(batch));
    const sim::SimStats stats = simulator.Stats();
    if (s.finished && s.finished(stats)) return monitor.Outcome("finished");
    if (monitor.Add(s.count(stats))) return monitor.Outcome("settled");
  }
  return monitor.Outcome("max_length");
}

// Runs `simulator` as `spec` says, after WireRun; with spec.settle, how it
// settled into `settled`.
absl::Status RunMeasured(const RunSpec& spec, sim::Simulator& simulator,
                         std::optional<SettleOutcome>* settled) {
  if (spec.trace_warmup && spec.trace != nullptr) {
    // Traced from the start: each CPU's frequency and idle state as it
    // starts, which no event would otherwise tell until they change.
    simulator.set_trace_sink(spec.trace);
    const int64_t now = simulator.now().ns();
    for (int cpu = 0; cpu < spec.machine->num_cpus(); ++cpu) {
      spec.trace->OnFrequency(now, cpu, simulator.cpu_khz(cpu));
      const int state = simulator.cpu_idle_state(cpu);
      if (state >= 0) spec.trace->OnIdle(now, cpu, state);
    }
  }
  double warmup_count = 0;
  if (spec.warmup > sim::SimDuration::Zero()) {
    SCHEDSIM_RETURN_IF_ERROR(simulator.RunFor(spec.warmup));
    if (spec.settle != nullptr)
      warmup_count = spec.settle->count(simulator.Stats());
    simulator.ResetStats();
  }
  simulator.set_trace_sink(spec.trace);
  absl::Status run = absl::OkStatus();
  if (spec.settle != nullptr && spec.settle->options.batch_ms > 0) {
    absl::StatusOr<SettleOutcome> outcome = RunSettling(spec, simulator);
    if (outcome.ok()) {
      outcome->warmup_count = warmup_count;
      outcome->elapsed_s = static_cast<double>(simulator.now().ns()) / 1e9;
      *settled = *std::move(outcome);
    } else {
      run = outcome.status();
    }
  } else {
    run = simulator.RunFor(spec.duration);
  }
  simulator.set_trace_sink(nullptr);
  return run;
}

absl::Status CheckFreqFitsMachine(const std::string& name,
                                  const topology::Topology& machine,
                                  bool hwp_on) {
  const platform::PolicyInfo* info = platform::PolicyRegistry::Global().Find(
      platform::PolicyFamily::kCpufreq, name);
  if (info == nullptr) return absl::OkStatus();  // MakeFreqGovernor says so
  if (info->hwp == platform::HwpUse::kNeedsNoHwp && hwp_on) {
    return absl::InvalidArgumentError(
        absl::StrCat("cpufreq '", name,
                     "' runs only with HWP off (the kernel's "
                     "intel_pstate=no_hwp); machine '",
                     machine.name(),
                     "' boots with HWP on: set config \"hwp\": false, or use "
                     "intel_pstate_hwp"));
  }
  if (info->hwp == platform::HwpUse::kNeedsHwp && !hwp_on) {
    return absl::InvalidArgumentError(absl::StrCat(
        "cpufreq '", name, "' needs HWP; machine '", machine.name(), "' ",
        machine.frequency().has_hwp ? "boots with HWP off (config \"hwp\": "
                                      "false)"
                                    : "has no HWP"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<WiredRun> WireRun(const RunSpec& spec) {
  WiredRun w;
  const bool hwp_on = spec.machine->frequency().has_hwp && spec.config.hwp;
  const std::string freq_default =
      DefaultFreqGovernor(*spec.machine, spec.config.hwp);
  w.cpufreq = spec.cpufreq.name.empty() ? freq_default : spec.cpufreq.name;
  if (spec.cpufreq_object == nullptr) {
    SCHEDSIM_RETURN_IF_ERROR(
        CheckFreqFitsMachine(w.cpufreq, *spec.machine, hwp_on));
  }
  SCHEDSIM_ASSIGN_OR_RETURN(
      w.freq, Resolve(spec.cpufreq_object, spec.cpufreq, freq_default,
                      [](const std::string& n, const PolicyParams& p) {
                        return MakeFreqGovernor(n, p);
                      }));
  SCHEDSIM_ASSIGN_OR_RETURN(
      w.idle, Resolve(spec.cpuidle_object, spec.cpuidle, kDefaultIdleGovernor,
                      [](const std::string& n, const PolicyParams& p) {
                        return MakeIdleGovernor(n, p);
                      }));
  SCHEDSIM_ASSIGN_OR_RETURN(
      w.placement,
      Resolve(spec.placement_object, spec.placement, kDefaultPlacementPolicy,
              [](const std::string& n, const PolicyParams& p) {
                return MakePlacementPolicy(n, p);
              }));
  const sim::Policies policies{w.freq.get(), w.idle.get(), w.placement.get()};
  const topology::Topology* machine = spec.machine;
  if (!spec.idle.empty()) {
    SCHEDSIM_ASSIGN_OR_RETURN(topology::Topology controlled,
                              ApplyIdleControl(*spec.machine, spec.idle));
    w.controlled_machine =
        std::make_unique<topology::Topology>(std::move(controlled));
    machine = w.controlled_machine.get();
  }
  SCHEDSIM_ASSIGN_OR_RETURN(
      w.simulator, sim::Simulator::Create(*machine, spec.config, *spec.workload,
                                          policies, spec.seed));
  return w;
}

absl::StatusOr<RunOutput> RunOnce(const RunSpec& spec) {
  SCHEDSIM_ASSIGN_OR_RETURN(WiredRun w, WireRun(spec));
  RunOutput out;
  SCHEDSIM_RETURN_IF_ERROR(RunMeasured(spec, *w.simulator, &out.settle));
  out.end_ns = w.simulator->now().ns();
  out.stats = w.simulator->Stats();
  PadIdleStats(*spec.machine, &out.stats);
  out.cpufreq = std::move(w.cpufreq);
  return out;
}

}  // namespace schedsim::experiments
