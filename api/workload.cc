// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "schedsim/workload.h"

#include <utility>

#include "workloads/model_registry.h"

namespace schedsim {

WorkloadSpec WorkloadSpec::Model(std::string name, ParamMap params) {
  WorkloadSpec s;
  s.kind = Kind::kModel;
  s.source = std::move(name);
  s.params = std::move(params);
  return s;
}

WorkloadSpec WorkloadSpec::RtAppFile(std::string path) {
  WorkloadSpec s;
  s.kind = Kind::kRtAppFile;
  s.source = std::move(path);
  return s;
}

WorkloadSpec WorkloadSpec::RtAppJson(std::string json) {
  WorkloadSpec s;
  s.kind = Kind::kRtAppJson;
  s.source = std::move(json);
  return s;
}

WorkloadSpec WorkloadSpec::Replay(std::string ftrace_path,
                                  ReplayOptions options) {
  WorkloadSpec s;
  s.kind = Kind::kReplay;
  s.source = std::move(ftrace_path);
  s.replay = std::move(options);
  return s;
}

WorkloadSpec WorkloadSpec::Programs(Workload workload) {
  WorkloadSpec s;
  s.kind = Kind::kPrograms;
  s.programs = std::move(workload);
  return s;
}

std::vector<WorkloadModelInfo> WorkloadModels() {
  std::vector<WorkloadModelInfo> out;
  for (const workloads::WorkloadModel* m :
       workloads::WorkloadRegistry::Global().List()) {
    WorkloadModelInfo info;
    info.name = m->name;
    info.description = m->description;
    info.params = m->params;
    for (const workloads::MetricInfo& metric : m->metrics) {
      info.metrics.push_back(ModelMetricInfo{
          metric.name, metric.unit, metric.higher_is_better, metric.doc});
    }
    out.push_back(std::move(info));
  }
  return out;
}

}  // namespace schedsim
