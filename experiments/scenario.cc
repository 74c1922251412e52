// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "experiments/scenario.h"

#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "experiments/builtin_registry.h"
#include "experiments/json_util.h"
#include "experiments/policy_json.h"
#include "experiments/program_json.h"
#include "experiments/run_wiring.h"
#include "sim/time.h"
#include "topology/cpuset.h"

namespace schedsim::experiments {
namespace {

using Json = OrderedJson;

constexpr int64_t kMaxDurationMs = kMaxScenarioDurationMs;

// --- Messages (experiments/json_util.h) -------------------------------------

std::string Field(const std::string& path, const std::string& key) {
  return JsonField(path, key);
}

std::string Element(const std::string& path, size_t index) {
  return JsonElement(path, index);
}

std::string Show(const Json& j) { return ShowJson(j); }

// --- The parser ------------------------------------------------------------

// The JSON helpers (Error, ParseText, ExpectObject, Int, ...) come from
// JsonFileReader.
class ScenarioParser : private JsonFileReader {
 public:
  explicit ScenarioParser(std::string filename)
      : JsonFileReader(std::move(filename)) {}

  absl::StatusOr<Scenario> Parse(const std::string& text);

 private:
  absl::Status ParsePolicies(const Json& j, ScenarioPolicies& p) const;
};

absl::Status ScenarioParser::ParsePolicies(const Json& j,
                                           ScenarioPolicies& p) const {
  SCHEDSIM_RETURN_IF_ERROR(ExpectObject(j, "policies", "policy names"));
  SCHEDSIM_RETURN_IF_ERROR(CheckKeys(
      j, "policies", {"cpufreq", "cpuidle", "placement"}, "\"policies\""));
  struct Kind {
    const char* key;
    platform::PolicyFamily family;
    std::string* name;
    PolicyParams* params;
  };
  for (const Kind& k : {Kind{"cpufreq", platform::PolicyFamily::kCpufreq,
                             &p.cpufreq, &p.cpufreq_params},
                        Kind{"cpuidle", platform::PolicyFamily::kCpuidle,
                             &p.cpuidle, &p.cpuidle_params},
                        Kind{"placement", platform::PolicyFamily::kPlacement,
                             &p.placement, &p.placement_params}}) {
    if (!j.contains(k.key)) continue;
    SCHEDSIM_ASSIGN_OR_RETURN(
        PolicySpec spec,
        ParsePolicyChoice(*this, j[k.key], Field("policies", k.key), k.family,
                          PolicySpec{*k.name, *k.params}));
    *k.name = std::move(spec.name);
    *k.params = std::move(spec.params);
  }
  return absl::OkStatus();
}

absl::StatusOr<Scenario> ScenarioParser::Parse(const std::string& text) {
  Json root;
  SCHEDSIM_RETURN_IF_ERROR(ParseText(text, &root));
  if (!root.is_object()) {
    return Error("", absl::StrCat("expected an object of scenario keys at the "
                                  "top level, got ",
                                  Show(root)));
  }
  SCHEDSIM_RETURN_IF_ERROR(CheckKeys(
      root, "",
      {"description", "machine", "sysfs", "hwloc", "power_model", "guest",
       "seed", "duration_ms", "warmup_ms", "kernel", "config", "policies",
       "channels", "barriers", "devices", "metrics", "programs", "tasks",
       // IdleControlKeys()
       "idle_states_disabled", "max_cstate", "pm_qos_resume_latency_us", "idle",
       "acpi_c2_dummy_wait"},
      "a scenario"));
  Scenario s;
  s.filename = filename();
  if (root.contains("description")) {
    SCHEDSIM_ASSIGN_OR_RETURN(s.description,
                              String(root["description"], "description"));
  }
  SCHEDSIM_ASSIGN_OR_RETURN(s.machine, Machine(root));
  if (s.machine.guest_vcpus > 0) s.policies.cpuidle = kGuestIdleGovernor;
  if (root.contains("seed")) {
    SCHEDSIM_ASSIGN_OR_RETURN(s.seed, Seed(root["seed"], "seed"));
  }
  if (!root.contains("duration_ms")) {
    return Error("",
                 "missing \"duration_ms\" (the simulated time to measure, "
                 "in milliseconds)");
  }
  SCHEDSIM_ASSIGN_OR_RETURN(
      s.duration_ms,
      Int(root["duration_ms"], "duration_ms", 1, kMaxDurationMs));
  if (root.contains("warmup_ms")) {
    SCHEDSIM_ASSIGN_OR_RETURN(
        s.warmup_ms, Int(root["warmup_ms"], "warmup_ms", 0, kMaxDurationMs));
  }
  if (root.contains("kernel")) {
    // The kernel's switches and idle-CPU search; "config" and "policies"
    // may override them.
    SCHEDSIM_ASSIGN_OR_RETURN(sim::KernelVersion kv,
                              Kernel(root["kernel"], "kernel"));
    s.kernel = kv.ToString();
    sim::ApplyKernel(kv, &s.config);
    s.policies.placement = sim::KernelPlacementPolicy(kv);
  }
  if (root.contains("config")) {
    SCHEDSIM_RETURN_IF_ERROR(
        ApplySimConfig(root["config"], "config", &s.config));
  }
  if (root.contains("policies")) {
    SCHEDSIM_RETURN_IF_ERROR(ParsePolicies(root["policies"], s.policies));
  }
  SCHEDSIM_RETURN_IF_ERROR(ParseIdleControl(*this, root, "", &s.idle));
  SCHEDSIM_RETURN_IF_ERROR(ParseTaskPrograms(filename(), root, &s.workload));
  return s;
}

}  // namespace

absl::StatusOr<ScenarioRun> RunScenario(const Scenario& scenario) {
  auto fail = [&](const absl::Status& status) {
    return absl::Status(
        status.code(), absl::StrCat(scenario.filename, ": ", status.message()));
  };
  absl::StatusOr<topology::Topology> machine = LoadMachine(scenario.machine);
  if (!machine.ok()) return fail(machine.status());
  SCHEDSIM_RETURN_IF_ERROR(CheckScenarioMachine(scenario, *machine));
  RunSpec spec;
  spec.machine = &*machine;
  spec.workload = &scenario.workload;
  spec.config = scenario.config;
  spec.cpufreq = {scenario.policies.cpufreq, scenario.policies.cpufreq_params};
  spec.cpuidle = {scenario.policies.cpuidle, scenario.policies.cpuidle_params};
  spec.placement = {scenario.policies.placement,
                    scenario.policies.placement_params};
  spec.idle = scenario.idle;
  spec.seed = scenario.seed;
  spec.warmup = sim::Milliseconds(scenario.warmup_ms);
  spec.duration = sim::Milliseconds(scenario.duration_ms);
  absl::StatusOr<RunOutput> run = RunOnce(spec);
  if (!run.ok()) return fail(run.status());
  return ScenarioRun{*std::move(machine), std::move(run->stats),
                     std::move(run->cpufreq)};
}

std::vector<std::string> SimConfigFieldNames() { return SimConfigKeys(); }

absl::StatusOr<Scenario> ParseScenario(const std::string& json_text,
                                       const std::string& filename) {
  return ScenarioParser(filename).Parse(json_text);
}

absl::StatusOr<Scenario> LoadScenarioFile(const std::string& path) {
  SCHEDSIM_ASSIGN_OR_RETURN(std::string text,
                            ReadFileText(path, "scenario file"));
  return ParseScenario(text, path);
}

absl::Status CheckScenarioMachine(const Scenario& scenario,
                                  const topology::Topology& machine) {
  const int n = machine.num_cpus();
  SCHEDSIM_RETURN_IF_ERROR(ApplyIdleControl(machine, scenario.idle).status());
  for (size_t i = 0; i < scenario.workload.tasks.size(); ++i) {
    const sim::TaskSpec& t = scenario.workload.tasks[i];
    const std::string path = Element("tasks", i);
    auto error = [&](const std::string& key, const std::string& message) {
      return absl::InvalidArgumentError(absl::StrCat(
          scenario.filename, ": ", Field(path, key), ": ", message));
    };
    topology::CpuSet allowed = machine.all_cpus();
    if (!t.affinity.empty()) {
      absl::StatusOr<topology::CpuSet> set =
          topology::CpuSet::ParseList(t.affinity, n);
      if (!set.ok() || set->Empty()) {
        return error("affinity",
                     absl::StrCat("'", t.affinity, "' is not a CPU list of ",
                                  machine.name(), " (CPUs 0-", n - 1, ")"));
      }
      allowed = *set;
    }
    if (t.start_cpu >= n) {
      return error("start_cpu",
                   absl::StrCat("CPU ", t.start_cpu, " is beyond the ", n,
                                " CPUs of ", machine.name()));
    }
    if (t.start_cpu >= 0 && !allowed.Test(t.start_cpu)) {
      return error("start_cpu",
                   absl::StrCat("CPU ", t.start_cpu,
                                " is not in the task's affinity ", t.affinity));
    }
  }
  return absl::OkStatus();
}

}  // namespace schedsim::experiments
