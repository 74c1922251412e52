// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The Workload::Add* helpers (sim/workload.h).

#include "sim/workload.h"

#include <utility>

namespace schedsim::sim {

int Workload::AddProgram(Program program) {
  programs.push_back(std::move(program));
  return static_cast<int>(programs.size()) - 1;
}

int Workload::AddChannel(std::string name, ChannelSpec::Kind kind,
                         int capacity) {
  ChannelSpec c;
  c.name = std::move(name);
  c.kind = kind;
  c.capacity = capacity;
  channels.push_back(std::move(c));
  return static_cast<int>(channels.size()) - 1;
}

int Workload::AddBarrier(std::string name, int parties) {
  barriers.push_back(BarrierSpec{std::move(name), parties});
  return static_cast<int>(barriers.size()) - 1;
}

int Workload::AddLine(std::string name) {
  lines.push_back(SharedLineSpec{std::move(name)});
  return static_cast<int>(lines.size()) - 1;
}

int Workload::AddDevice(DeviceSpec device) {
  devices.push_back(std::move(device));
  return static_cast<int>(devices.size()) - 1;
}

int Workload::AddMark(std::string name) {
  metrics.push_back(std::move(name));
  return static_cast<int>(metrics.size()) - 1;
}

int Workload::AddTask(TaskSpec task) {
  tasks.push_back(std::move(task));
  return static_cast<int>(tasks.size()) - 1;
}

int Workload::AddTask(std::string name, int program, int count) {
  TaskSpec t;
  t.name = std::move(name);
  t.program = program;
  t.count = count;
  return AddTask(std::move(t));
}

}  // namespace schedsim::sim
