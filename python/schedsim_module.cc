// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// schedsim._schedsim: the C++ library (include/schedsim/) for Python, with
// pybind11. The package python/schedsim/ wraps it (docs/library.md,
// "Python"). Results are plain dicts and lists of dicts ("records"), which
// pandas.DataFrame takes as they are.

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

#include "schedsim/cli.h"
#include "schedsim/machine.h"
#include "schedsim/metrics.h"
#include "schedsim/simulation.h"
#include "schedsim/workload.h"

namespace py = pybind11;

namespace {

// A Python value (bool, int, float, str) as a schedsim parameter.
schedsim::ParamValue ToParam(const std::string& key, const py::handle& v) {
  if (py::isinstance<py::bool_>(v)) return v.cast<bool>();
  if (py::isinstance<py::int_>(v)) return v.cast<int64_t>();
  if (py::isinstance<py::float_>(v)) return v.cast<double>();
  if (py::isinstance<py::str>(v)) return v.cast<std::string>();
  throw py::value_error("parameter '" + key +
                        "' must be a bool, int, float or str");
}

schedsim::ParamMap ToParams(const py::dict& d) {
  schedsim::ParamMap out;
  for (const auto& [k, v] : d) {
    const std::string key = py::str(k);
    out[key] = ToParam(key, v);
  }
  return out;
}

py::dict LatencyDict(const schedsim::LatencySummary& l) {
  py::dict d;
  d["count"] = l.count;
  d["mean_ns"] = l.mean_ns;
  d["min_ns"] = l.min_ns;
  d["p50_ns"] = l.p50_ns;
  d["p90_ns"] = l.p90_ns;
  d["p99_ns"] = l.p99_ns;
  d["p999_ns"] = l.p999_ns;
  d["max_ns"] = l.max_ns;
  return d;
}

// `RunCli(args)`: (exit code, stdout, stderr).
std::tuple<int, std::string, std::string> Cli(
    const std::vector<std::string>& args) {
  std::ostringstream out, err;
  int code = 0;
  {
    py::gil_scoped_release release;
    code = schedsim::RunCli(args, out, err);
  }
  return {code, out.str(), err.str()};
}

py::list WorkloadModels() {
  py::list models;
  for (const schedsim::WorkloadModelInfo& m : schedsim::WorkloadModels()) {
    py::dict d;
    d["name"] = m.name;
    d["description"] = m.description;
    py::list metrics;
    for (const schedsim::ModelMetricInfo& x : m.metrics) {
      py::dict md;
      md["name"] = x.name;
      md["unit"] = x.unit;
      md["higher_is_better"] = x.higher_is_better;
      md["doc"] = x.doc;
      metrics.append(md);
    }
    d["metrics"] = metrics;
    models.append(d);
  }
  return models;
}

// Simulate(): a workload model on a machine, as the C++ Simulate() runs it.
py::dict Simulate(const std::string& machine_name, const std::string& model,
                  const py::dict& params, double duration_ms, double warmup_ms,
                  uint64_t seed, const std::string& cpufreq,
                  const std::string& cpuidle, const std::string& placement,
                  const py::dict& config) {
  absl::StatusOr<schedsim::Topology> machine =
      schedsim::PresetMachine(machine_name);
  if (!machine.ok())
    throw py::value_error(std::string(machine.status().message()));
  if (!(duration_ms > 0) || warmup_ms < 0) {
    throw py::value_error("duration_ms must be > 0 and warmup_ms >= 0");
  }
  schedsim::SimulationOptions options;
  options.seed = seed;
  options.cpufreq.name = cpufreq;
  options.cpuidle.name = cpuidle;
  options.placement.name = placement;
  options.config = ToParams(config);
  const schedsim::WorkloadSpec workload =
      schedsim::WorkloadSpec::Model(model, ToParams(params));
  const auto ns = [](double ms) {
    return std::chrono::nanoseconds(static_cast<int64_t>(ms * 1e6));
  };
  absl::StatusOr<schedsim::RunResult> r;
  {
    py::gil_scoped_release release;
    r = schedsim::Simulate(*machine, workload, ns(duration_ms), options,
                           ns(warmup_ms));
  }
  if (!r.ok()) throw py::value_error(std::string(r.status().message()));
  const schedsim::Metrics& m = r->metrics;
  py::dict out;
  out["machine"] = machine->name();
  out["freq_governor"] = r->freq_governor;
  out["idle_governor"] = r->idle_governor;
  out["placement_policy"] = r->placement_policy;
  out["duration_s"] = m.duration_s();
  out["busy_pct"] = m.busy_pct();
  out["energy_j"] = m.energy_j();
  out["context_switches"] = m.context_switches;
  out["migrations"] = m.migrations;
  out["warnings"] = r->warnings;
  py::list model_metrics;
  for (const schedsim::ModelMetric& x : r->model_metrics) {
    py::dict d;
    d["metric"] = x.name;
    d["unit"] = x.unit;
    d["higher_is_better"] = x.higher_is_better;
    d["value"] = x.value;
    model_metrics.append(d);
  }
  out["model_metrics"] = model_metrics;
  // One record per CPU: busy/idle time, the idle-state residencies by name
  // ("<state>_time_ns", "<state>_usage"), the average busy frequency.
  py::list cpus;
  for (size_t c = 0; c < m.cpus.size(); ++c) {
    const schedsim::CpuMetrics& cm = m.cpus[c];
    py::dict d;
    d["cpu"] = c;
    d["busy_ns"] = cm.busy_ns;
    d["idle_ns"] = cm.idle_ns;
    const double total = static_cast<double>(cm.busy_ns + cm.idle_ns);
    d["busy_pct"] = total > 0 ? 100.0 * cm.busy_ns / total : 0.0;
    d["avg_busy_khz"] = cm.avg_busy_khz;
    d["context_switches"] = cm.context_switches;
    d["migrations_in"] = cm.migrations_in;
    d["ipis_received"] = cm.ipis_received;
    d["ticks"] = cm.ticks;
    for (const schedsim::IdleStateMetrics& s : cm.idle_states) {
      d[py::str(s.name + "_time_ns")] = s.time_ns;
      d[py::str(s.name + "_usage")] = s.usage;
      d[py::str(s.name + "_above")] = s.above;
      d[py::str(s.name + "_below")] = s.below;
    }
    cpus.append(d);
  }
  out["cpus"] = cpus;
  py::list tasks;
  for (size_t t = 0; t < m.tasks.size(); ++t) {
    const schedsim::TaskMetrics& tm = m.tasks[t];
    py::dict d;
    d["task"] = t;
    d["name"] = tm.name;
    d["run_ns"] = tm.run_ns;
    d["iowait_ns"] = tm.iowait_ns;
    d["wakeups"] = tm.wakeups;
    d["migrations"] = tm.migrations;
    d["voluntary_switches"] = tm.voluntary_switches;
    d["involuntary_switches"] = tm.involuntary_switches;
    d["exited"] = tm.exited;
    d["wakeup_latency_p99_ns"] = tm.wakeup_latency.p99_ns;
    tasks.append(d);
  }
  out["tasks"] = tasks;
  // The wake-up path's schedstats, one dict.
  const schedsim::PlacementMetrics& p = m.placement;
  py::dict placement_stats;
  placement_stats["wakeups"] = p.wakeups;
  placement_stats["affine_this"] = p.affine_this;
  placement_stats["affine_prev"] = p.affine_prev;
  placement_stats["wake_wide"] = p.wake_wide;
  placement_stats["searches"] = p.searches;
  placement_stats["probes"] = p.probes;
  placement_stats["chosen_idle"] = p.chosen_idle;
  placement_stats["chose_target"] = p.chose_target;
  placement_stats["chose_prev"] = p.chose_prev;
  placement_stats["chose_other"] = p.chose_other;
  placement_stats["remote_wakeups"] = p.remote_wakeups;
  placement_stats["ipis"] = p.ipis;
  out["schedstats"] = placement_stats;
  out["wakeup_latency"] = LatencyDict(m.wakeup_latency);
  return out;
}

}  // namespace

PYBIND11_MODULE(_schedsim, m) {
  m.doc() = "schedsim's C++ library (see the schedsim package)";
  m.def("cli", &Cli, py::arg("args"),
        "Runs `schedsim ARGS`; returns (exit code, stdout, stderr).");
  m.def("preset_machines", &schedsim::PresetMachineNames,
        "The built-in machines' names.");
  m.def("config_keys", &schedsim::ConfigKeys,
        "The model parameters SimulationOptions.config takes.");
  m.def("workload_models", &WorkloadModels,
        "Every registered workload model: name, description, metrics.");
  m.def("simulate", &Simulate, py::arg("machine"), py::arg("model"),
        py::arg("params"), py::arg("duration_ms"), py::arg("warmup_ms"),
        py::arg("seed"), py::arg("cpufreq"), py::arg("cpuidle"),
        py::arg("placement"), py::arg("config"),
        "One simulation of a workload model on a built-in machine.");
}
