// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "experiments/idle_control.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/status_macros.h"
#include "topology/cpuset.h"

namespace schedsim::experiments {

namespace {
// CPUIDLE_STATE_MAX - 1 (include/linux/cpuidle.h), intel_idle's default.
constexpr int64_t kMaxMaxCstate = 9;
}  // namespace

const std::vector<std::string>& IdleControlKeys() {
  static const auto* keys = new std::vector<std::string>{
      "idle_states_disabled", "max_cstate", "pm_qos_resume_latency_us", "idle",
      "acpi_c2_dummy_wait"};
  return *keys;
}

absl::Status ParseIdleControl(const JsonFileReader& reader,
                              const OrderedJson& j, const std::string& path,
                              IdleControl* control) {
  control->filename = reader.filename();
  if (j.contains("idle_states_disabled")) {
    const std::string p = JsonField(path, "idle_states_disabled");
    const OrderedJson& list = j["idle_states_disabled"];
    SCHEDSIM_RETURN_IF_ERROR(reader.ExpectArray(
        list, p, "a list of idle-state names, e.g. [\"C6\"]"));
    control->disabled.clear();
    for (size_t i = 0; i < list.size(); ++i) {
      SCHEDSIM_ASSIGN_OR_RETURN(
          std::string name,
          reader.Name(list[i], JsonElement(p, i), "an idle-state name"));
      control->disabled.push_back(std::move(name));
    }
    control->disabled_path = p;
  }
  if (j.contains("max_cstate")) {
    const std::string p = JsonField(path, "max_cstate");
    SCHEDSIM_ASSIGN_OR_RETURN(int64_t n,
                              reader.Int(j["max_cstate"], p, 0, kMaxMaxCstate));
    control->max_cstate = static_cast<int>(n);
    control->max_cstate_path = p;
  }
  if (j.contains("idle")) {
    const std::string p = JsonField(path, "idle");
    SCHEDSIM_ASSIGN_OR_RETURN(std::string mode, reader.String(j["idle"], p));
    if (mode != "halt") {
      return reader.Error(
          p, absl::StrCat("\"", mode,
                          "\" is not modelled; the idle= boot option "
                          "modelled is \"halt\""));
    }
    control->idle_halt = true;
    control->idle_path = p;
  }
  if (j.contains("acpi_c2_dummy_wait")) {
    const std::string p = JsonField(path, "acpi_c2_dummy_wait");
    SCHEDSIM_ASSIGN_OR_RETURN(control->acpi_dummy_wait,
                              reader.Bool(j["acpi_c2_dummy_wait"], p));
    control->dummy_wait_path = p;
  }
  if (j.contains("pm_qos_resume_latency_us")) {
    const std::string p = JsonField(path, "pm_qos_resume_latency_us");
    const OrderedJson& m = j["pm_qos_resume_latency_us"];
    SCHEDSIM_RETURN_IF_ERROR(reader.ExpectObject(
        m, p, "CPU lists and their resume latency in us, e.g. {\"0-3\": 20}"));
    control->resume_latency.clear();
    for (const auto& item : m.items()) {
      IdleControl::ResumeLatency r;
      r.cpus = item.key();
      r.path = JsonField(p, item.key());
      if (item.value().is_string()) {
        // sysfs takes "n/a" as a limit of 0 (drivers/base/power/sysfs.c
        // pm_qos_resume_latency_us_store(), since commit 0cc2b4e5a020,
        // v4.15).
        if (item.value().get<std::string>() != "n/a") {
          return reader.Error(r.path,
                              absl::StrCat("expected a latency in us (0 = no "
                                           "constraint) or \"n/a\" (0 us: POLL "
                                           "only), got ",
                                           ShowJson(item.value())));
        }
        r.ns = 0;
      } else {
        SCHEDSIM_ASSIGN_OR_RETURN(
            int64_t us,
            reader.Int(item.value(), r.path, 0, kMaxResumeLatencyUs));
        // 0 written to sysfs is "no constraint"
        // (PM_QOS_RESUME_LATENCY_NO_CONSTRAINT).
        r.ns = us == 0 ? -1 : us * 1000;
      }
      control->resume_latency.push_back(std::move(r));
    }
    control->has_resume_latency = true;
  }
  return absl::OkStatus();
}

absl::StatusOr<topology::Topology> ApplyIdleControl(
    const topology::Topology& machine, const IdleControl& control) {
  if (control.empty()) return machine;
  auto error = [&](const std::string& path, const std::string& message) {
    return absl::InvalidArgumentError(
        absl::StrCat(control.filename, ": ", path, ": ", message));
  };
  std::vector<topology::CState> states = machine.cstates();
  std::vector<std::string> names;
  for (const topology::CState& s : states) names.push_back(s.name);
  const std::string machine_states =
      names.empty() ? "none"
                    : absl::StrCat("\"", absl::StrJoin(names, "\", \""), "\"");
  if (!control.disabled_path.empty()) {
    for (size_t i = 0; i < control.disabled.size(); ++i) {
      const std::string& name = control.disabled[i];
      bool found = false;
      for (topology::CState& s : states) {
        if (s.name != name) continue;
        found = true;
        s.disabled = true;
      }
      if (!found) {
        return error(
            JsonElement(control.disabled_path, i),
            absl::StrCat("machine '", machine.name(), "' has no idle state \"",
                         name, "\"; its states: ", machine_states));
      }
    }
  }
  if (control.max_cstate >= 0) {
    if (states.empty()) {
      return error(control.max_cstate_path,
                   absl::StrCat("machine '", machine.name(),
                                "' has no idle-state table to limit"));
    }
    if (control.max_cstate == 0) {
      return error(
          control.max_cstate_path,
          absl::StrCat("0 leaves the idle driver unloaded (intel_idle "
                       "init fails and the kernel falls back to another "
                       "driver), which the model does not have; give 1.. (",
                       machine.name(), "'s states: ", machine_states, ")"));
    }
    // intel_idle_init_cstates_icpu() (drivers/idle/intel_idle.c, v6.1)
    // stops registering at the table entry max_cstate (counted from 0 after
    // POLL, which cpuidle_poll_state_init() puts at index 0), as
    // acpi_processor_setup_cstates() does at ACPI C-state max_cstate + 1.
    int kept = 0;
    size_t end = 0;
    for (; end < states.size(); ++end) {
      if (states[end].polling()) continue;
      if (kept == control.max_cstate) break;
      ++kept;
    }
    states.resize(end);
  }
  bool any_enabled = false;
  for (const topology::CState& s : states) any_enabled |= !s.disabled;
  if (!states.empty() && !any_enabled) {
    return error(control.disabled_path.empty() ? control.max_cstate_path
                                               : control.disabled_path,
                 absl::StrCat("leaves no idle state enabled on machine '",
                              machine.name(), "' (its states: ", machine_states,
                              "); keep at least one"));
  }
  int halt_state = -1;
  if (control.idle_halt) {
    // idle=halt: no cpuidle driver registers; the idle loop executes HLT,
    // modelled as the machine's first halted state (C1) with its costs.
    for (size_t i = 0; i < states.size() && halt_state < 0; ++i) {
      if (!states[i].polling()) halt_state = static_cast<int>(i);
    }
    if (halt_state < 0) {
      return error(control.idle_path,
                   absl::StrCat("machine '", machine.name(),
                                "' has no halted idle state (C1) to model "
                                "HLT with; its states: ",
                                machine_states));
    }
    states = machine.cstates();
    for (size_t i = 0; i < states.size(); ++i) {
      states[i].disabled = static_cast<int>(i) != halt_state;
    }
  }
  if (!control.dummy_wait_path.empty()) {
    // acpi_idle_do_entry(): a state whose entry method is an I/O port read
    // (ACPI_CSTATE_SYSTEMIO, "ACPI IOPORT 0x..." in sysfs `desc`) runs the
    // dummy wait on wake-up unless v6.0's check skips it.
    bool any = false;
    for (topology::CState& s : states) {
      if (s.desc.rfind("ACPI IOPORT", 0) != 0) continue;
      any = true;
      if (!control.acpi_dummy_wait) {
        s.physical_exit_ns =
            std::max<int64_t>(0, s.physical_exit_ns - kAcpiDummyWaitNs);
      }
    }
    if (!any) {
      return error(control.dummy_wait_path,
                   absl::StrCat("machine '", machine.name(),
                                "' has no idle state entered through an I/O "
                                "port (desc \"ACPI IOPORT ...\"); its states: ",
                                machine_states));
    }
    if (!control.acpi_dummy_wait &&
        machine.vendor() == topology::Vendor::kIntel) {
      return error(control.dummy_wait_path,
                   "Linux skips the dummy wait on AMD and Hygon only (commit "
                   "e400ad8b7e6a, v6.0, keeps it on Intel); machine '" +
                       machine.name() + "' is Intel");
    }
  }
  std::vector<int64_t> latency;
  if (control.has_resume_latency) {
    const int n = machine.num_cpus();
    latency.assign(n, -1);
    std::vector<bool> given(n, false);
    for (const IdleControl::ResumeLatency& r : control.resume_latency) {
      absl::StatusOr<topology::CpuSet> cpus =
          topology::CpuSet::ParseList(r.cpus, n);
      if (!cpus.ok()) {
        return error(r.path, absl::StrCat("\"", r.cpus,
                                          "\" is not a CPU list of machine '",
                                          machine.name(), "' (CPUs 0-", n - 1,
                                          "): ", cpus.status().message()));
      }
      for (int cpu = cpus->First(); cpu >= 0; cpu = cpus->Next(cpu)) {
        if (given[cpu]) {
          return error(r.path, absl::StrCat("CPU ", cpu,
                                            " is given a resume latency "
                                            "twice"));
        }
        given[cpu] = true;
        latency[cpu] = r.ns;
      }
    }
  }
  return machine.WithIdleSettings(std::move(states), std::move(latency),
                                  halt_state);
}

void PadIdleStats(const topology::Topology& machine, sim::SimStats* stats) {
  const size_t n = machine.cstates().size();
  for (sim::CpuStats& c : stats->cpus) {
    if (c.states.size() < n) c.states.resize(n);
  }
}

}  // namespace schedsim::experiments
