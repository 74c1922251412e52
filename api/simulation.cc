// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "schedsim/simulation.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "api/convert.h"
#include "base/status_macros.h"
#include "experiments/run_wiring.h"
#include "sim/config.h"
#include "sim/kernels.h"
#include "sim/params.h"
#include "sim/simulator.h"
#include "sim/time.h"
#include "workloads/model_registry.h"
#include "workloads/replay.h"
#include "workloads/rtapp.h"

namespace schedsim {

struct Simulation::Impl {
  // Declared before `simulator`, which refers to them, so destroyed after.
  topology::Topology machine;
  std::shared_ptr<FreqGovernor> freq;
  std::shared_ptr<IdleGovernor> idle;
  std::shared_ptr<PlacementPolicy> placement;
  const workloads::WorkloadModel* model = nullptr;  // evaluates the run
  Params model_params;
  std::vector<std::string> task_names;
  std::vector<std::string> warnings;
  api::TraceSinkBridge bridge{nullptr};
  std::unique_ptr<sim::Simulator> simulator;

  explicit Impl(topology::Topology m) : machine(std::move(m)) {}
};

namespace {

absl::Status WithContext(const absl::Status& status, absl::string_view what) {
  return absl::Status(status.code(),
                      absl::StrCat(what, ": ", status.message()));
}

// The rt-app model evaluates rt-app workloads ("rtapp"; absent only if the
// workload models are not linked).
void UseRtAppModel(Simulation::Impl& impl, const ParamMap& params) {
  absl::StatusOr<const workloads::WorkloadModel*> m =
      workloads::WorkloadRegistry::Global().Lookup("rtapp");
  if (!m.ok()) return;
  absl::StatusOr<Params> p =
      workloads::WorkloadRegistry::Global().ResolveParams(**m, params);
  if (!p.ok()) return;
  impl.model = *m;
  impl.model_params = *std::move(p);
}

absl::StatusOr<sim::Workload> BuildWorkload(const WorkloadSpec& spec,
                                            Simulation::Impl& impl) {
  switch (spec.kind) {
    case WorkloadSpec::Kind::kPrograms:
      return spec.programs;
    case WorkloadSpec::Kind::kModel: {
      absl::StatusOr<const workloads::WorkloadModel*> m =
          workloads::WorkloadRegistry::Global().Lookup(spec.source);
      if (!m.ok()) return m.status();
      absl::StatusOr<Params> p =
          workloads::WorkloadRegistry::Global().ResolveParams(**m, spec.params);
      if (!p.ok()) return p.status();
      absl::StatusOr<sim::Workload> w = (*m)->build(*p, impl.machine);
      if (!w.ok()) {
        return WithContext(w.status(),
                           absl::StrCat("workload model '", spec.source, "'"));
      }
      impl.model = *m;
      impl.model_params = *std::move(p);
      return w;
    }
    case WorkloadSpec::Kind::kRtAppFile:
    case WorkloadSpec::Kind::kRtAppJson: {
      const bool file = spec.kind == WorkloadSpec::Kind::kRtAppFile;
      absl::StatusOr<workloads::RtAppWorkload> r =
          file ? workloads::LoadRtAppFile(spec.source, impl.machine)
               : workloads::ParseRtApp(spec.source, "<inline rt-app json>",
                                       impl.machine);
      if (!r.ok()) return r.status();
      for (std::string& w : r->warnings) impl.warnings.push_back(std::move(w));
      UseRtAppModel(impl, {{file ? "file" : "json", spec.source}});
      return std::move(r->workload);
    }
    case WorkloadSpec::Kind::kReplay: {
      return workloads::ReplayWorkload(spec.source, spec.replay);
    }
  }
  return absl::InvalidArgumentError("unknown WorkloadSpec kind");
}

absl::StatusOr<sim::SimConfig> BuildConfig(const SimulationOptions& options) {
  sim::SimConfig config;
  if (!options.kernel.empty()) {
    SCHEDSIM_ASSIGN_OR_RETURN(config, KernelModelConfig(options.kernel));
  }
  if (options.model.has_value()) {
    config = *options.model;
    SCHEDSIM_RETURN_IF_ERROR(
        sim::CheckConfigRanges(config, "SimulationOptions: model"));
  }
  SCHEDSIM_RETURN_IF_ERROR(
      sim::SetConfigParams(options.config, "SimulationOptions", &config));
  return config;
}

}  // namespace

std::vector<std::string> ConfigKeys() { return sim::ConfigParamNames(); }

absl::StatusOr<ModelConfig> KernelModelConfig(const std::string& kernel) {
  absl::StatusOr<sim::KernelVersion> v = sim::ParseKernelVersion(kernel);
  if (!v.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("SimulationOptions: kernel: ", v.status().message()));
  }
  ModelConfig config;
  sim::ApplyKernel(*v, &config);
  return config;
}

Simulation::Simulation(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Simulation::~Simulation() = default;

absl::StatusOr<std::unique_ptr<Simulation>> Simulation::Create(
    Topology machine, WorkloadSpec workload, SimulationOptions options) {
  auto impl = std::make_unique<Impl>(std::move(machine));
  impl->warnings = impl->machine.warnings();

  absl::StatusOr<sim::Workload> w = BuildWorkload(workload, *impl);
  if (!w.ok()) return w.status();
  absl::StatusOr<sim::SimConfig> config = BuildConfig(options);
  if (!config.ok()) return config.status();

  experiments::RunSpec spec;
  spec.machine = &impl->machine;
  spec.workload = &*w;
  spec.config = *config;
  spec.cpufreq = {options.cpufreq.name, options.cpufreq.params};
  spec.cpuidle = {options.cpuidle.name, options.cpuidle.params};
  spec.placement = {options.placement.name, options.placement.params};
  if (!options.kernel.empty() && options.placement.name.empty() &&
      options.placement.object == nullptr) {
    spec.placement.name =
        sim::KernelPlacementPolicy(*sim::ParseKernelVersion(options.kernel));
  }
  spec.cpufreq_object = options.cpufreq.object;
  spec.cpuidle_object = options.cpuidle.object;
  spec.placement_object = options.placement.object;
  spec.seed = options.seed;
  absl::StatusOr<experiments::WiredRun> wired = experiments::WireRun(spec);
  if (!wired.ok()) return wired.status();
  impl->freq = std::move(wired->freq);
  impl->idle = std::move(wired->idle);
  impl->placement = std::move(wired->placement);
  impl->simulator = std::move(wired->simulator);
  for (const sim::TaskStats& t : impl->simulator->Stats().tasks) {
    impl->task_names.push_back(t.name);
  }
  return std::unique_ptr<Simulation>(new Simulation(std::move(impl)));
}

absl::Status Simulation::RunFor(std::chrono::nanoseconds duration) {
  return impl_->simulator->RunFor(sim::Nanoseconds(duration.count()));
}

absl::Status Simulation::RunUntil(std::chrono::nanoseconds since_start) {
  return impl_->simulator->RunUntil(
      sim::SimTime::FromNanoseconds(since_start.count()));
}

int64_t Simulation::now_ns() const { return impl_->simulator->now().ns(); }

void Simulation::ResetStats() { impl_->simulator->ResetStats(); }

Metrics Simulation::GetMetrics() const {
  return api::SummarizeStats(impl_->simulator->Stats(), impl_->machine);
}

std::vector<ModelMetric> Simulation::ModelMetrics() const {
  std::vector<ModelMetric> out;
  if (impl_->model == nullptr) return out;
  const std::vector<workloads::MetricValue> values =
      impl_->model->evaluate(impl_->model_params, impl_->simulator->Stats());
  for (const workloads::MetricValue& v : values) {
    ModelMetric m;
    m.name = v.name;
    m.value = v.value;
    for (const workloads::MetricInfo& info : impl_->model->metrics) {
      if (info.name == v.name) {
        m.unit = info.unit;
        m.higher_is_better = info.higher_is_better;
      }
    }
    out.push_back(std::move(m));
  }
  return out;
}

void Simulation::SetTraceSink(TraceSink* sink) {
  if (sink == nullptr) {
    impl_->simulator->set_trace_sink(nullptr);
    return;
  }
  if (sim::TraceSink* engine = api::EngineSinkOf(sink)) {
    impl_->simulator->set_trace_sink(engine);
    return;
  }
  impl_->bridge.set_target(sink);
  impl_->simulator->set_trace_sink(&impl_->bridge);
}

const Topology& Simulation::machine() const { return impl_->machine; }

std::string Simulation::freq_governor() const {
  return std::string(impl_->freq->name());
}
std::string Simulation::idle_governor() const {
  return std::string(impl_->idle->name());
}
std::string Simulation::placement_policy() const {
  return std::string(impl_->placement->name());
}

std::vector<std::string> Simulation::task_names() const {
  return impl_->task_names;
}

const std::vector<std::string>& Simulation::warnings() const {
  return impl_->warnings;
}

int Simulation::task_count() const { return impl_->simulator->task_count(); }
int Simulation::task_cpu(int task) const {
  return impl_->simulator->task_cpu(task);
}
bool Simulation::task_running(int task) const {
  return impl_->simulator->task_running(task);
}
int Simulation::cpu_idle_state(int cpu) const {
  return impl_->simulator->cpu_idle_state(cpu);
}
int64_t Simulation::cpu_khz(int cpu) const {
  return impl_->simulator->cpu_khz(cpu);
}

absl::StatusOr<RunResult> Simulate(const Topology& machine,
                                   const WorkloadSpec& workload,
                                   std::chrono::nanoseconds duration,
                                   const SimulationOptions& options,
                                   std::chrono::nanoseconds warmup) {
  absl::StatusOr<std::unique_ptr<Simulation>> sim =
      Simulation::Create(machine, workload, options);
  if (!sim.ok()) return sim.status();
  Simulation& s = **sim;
  if (warmup.count() > 0) {
    absl::Status st = s.RunFor(warmup);
    if (!st.ok()) return st;
    s.ResetStats();
  }
  absl::Status st = s.RunFor(duration);
  if (!st.ok()) return st;
  RunResult r;
  r.metrics = s.GetMetrics();
  r.model_metrics = s.ModelMetrics();
  r.warnings = s.warnings();
  r.freq_governor = s.freq_governor();
  r.idle_governor = s.idle_governor();
  r.placement_policy = s.placement_policy();
  return r;
}

}  // namespace schedsim
