// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "workloads/model_registry.h"

#include <cstdio>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace schedsim::workloads {

WorkloadRegistry& WorkloadRegistry::Global() {
  static WorkloadRegistry* registry = new WorkloadRegistry();
  return *registry;
}

absl::Status WorkloadRegistry::Register(WorkloadModel model) {
  if (!model.build || !model.evaluate) {
    return absl::InvalidArgumentError(absl::StrCat(
        "workload model '", model.name, "' needs build and evaluate"));
  }
  if (models_.count(model.name)) {
    return absl::AlreadyExistsError(absl::StrCat("workload model '", model.name,
                                                 "' is already registered"));
  }
  for (const platform::ParamSpec& spec : model.params) {
    if (spec.name != kWorkCvParam) continue;
    // The model's user-work jitter: its build's workload gets work_cv.
    auto inner = std::move(model.build);
    model.build = [inner = std::move(inner), name = model.name](
                      const platform::Params& p,
                      const topology::Topology& topology)
        -> absl::StatusOr<sim::Workload> {
      const double pct = p.GetDouble(kWorkCvParam);
      if (!(pct >= 0 && pct <= 100)) {
        return absl::InvalidArgumentError(absl::StrCat(
            name, ": ", kWorkCvParam, " must be in 0..100, got ", pct));
      }
      absl::StatusOr<sim::Workload> w = inner(p, topology);
      if (w.ok()) w->work_cv = pct / 100.0;
      return w;
    };
    break;
  }
  std::string name = model.name;
  models_.emplace(std::move(name), std::move(model));
  return absl::OkStatus();
}

std::vector<const WorkloadModel*> WorkloadRegistry::List() const {
  std::vector<const WorkloadModel*> out;
  for (const auto& [name, m] : models_) out.push_back(&m);
  return out;
}

absl::StatusOr<const WorkloadModel*> WorkloadRegistry::Lookup(
    absl::string_view name) const {
  auto it = models_.find(std::string(name));
  if (it != models_.end()) return &it->second;
  std::vector<std::string> names;
  for (const auto& [n, m] : models_) names.push_back(n);
  return absl::NotFoundError(absl::StrCat(
      "unknown workload '", name, "'; known: ", absl::StrJoin(names, ", ")));
}

absl::StatusOr<platform::Params> WorkloadRegistry::ResolveParams(
    const WorkloadModel& model,
    const std::map<std::string, platform::ParamValue>& given) const {
  // The policy registry's rules, reused through a throwaway PolicyInfo.
  platform::PolicyInfo info;
  info.name = model.name;
  info.params = model.params;
  absl::StatusOr<platform::Params> p =
      platform::PolicyRegistry().ResolveParams(info, given);
  if (!p.ok()) {
    std::string message(p.status().message());
    // "cpufreq policy 'x'" -> "workload 'x'".
    std::string from = absl::StrCat(platform::FamilyName(info.family),
                                    " policy '", model.name, "'");
    size_t at = message.find(from);
    if (at != std::string::npos) {
      message.replace(at, from.size(),
                      absl::StrCat("workload '", model.name, "'"));
    }
    return absl::InvalidArgumentError(message);
  }
  return p;
}

WorkloadRegistration::WorkloadRegistration(WorkloadModel model) {
  absl::Status s = WorkloadRegistry::Global().Register(std::move(model));
  if (!s.ok()) {
    std::fprintf(stderr, "schedsim: %s\n", std::string(s.message()).c_str());
    std::abort();
  }
}

}  // namespace schedsim::workloads
