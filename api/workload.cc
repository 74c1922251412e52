// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "schedsim/workload.h"

#include <limits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "api/convert.h"
#include "workloads/model_registry.h"

namespace schedsim {
namespace {

sim::Dist ToSim(const Dist& d) {
  sim::Dist out;
  switch (d.kind) {
    case Dist::Kind::kConstant:
      out.kind = sim::Dist::Kind::kConstant;
      break;
    case Dist::Kind::kUniform:
      out.kind = sim::Dist::Kind::kUniform;
      break;
    case Dist::Kind::kExponential:
      out.kind = sim::Dist::Kind::kExponential;
      break;
    case Dist::Kind::kNormal:
      out.kind = sim::Dist::Kind::kNormal;
      break;
    case Dist::Kind::kLogNormal:
      out.kind = sim::Dist::Kind::kLogNormal;
      break;
  }
  out.a = d.a;
  out.b = d.b;
  return out;
}

// An id argument that must fit the engine's int32 (and >= 0 where the
// engine checks it, which it reports).
absl::Status CheckArg(const Program& program, size_t index, int64_t arg) {
  if (arg < std::numeric_limits<int32_t>::min() ||
      arg > std::numeric_limits<int32_t>::max()) {
    return absl::InvalidArgumentError(
        absl::StrCat("program '", program.name, "' op ", index, ": argument ",
                     arg, " out of range"));
  }
  return absl::OkStatus();
}

}  // namespace

namespace api {

absl::StatusOr<sim::Program> ToSimProgram(const Program& program) {
  sim::ProgramBuilder b(program.name);
  for (size_t i = 0; i < program.ops.size(); ++i) {
    const ProgramOp& op = program.ops[i];
    const bool is_loop = op.code == ProgramOp::Code::kLoop;
    if (!is_loop) {
      absl::Status s = CheckArg(program, i, op.arg);
      if (!s.ok()) return s;
    }
    const int arg = static_cast<int>(op.arg);
    switch (op.code) {
      case ProgramOp::Code::kCompute:
        b.Compute(ToSim(op.d1), ToSim(op.d2));
        break;
      case ProgramOp::Code::kSleep:
        b.Sleep(ToSim(op.d1));
        break;
      case ProgramOp::Code::kIoWait:
        b.IoWait(ToSim(op.d1));
        break;
      case ProgramOp::Code::kSend:
        b.Send(arg);
        break;
      case ProgramOp::Code::kRecv:
        b.Recv(arg);
        break;
      case ProgramOp::Code::kBarrier:
        b.Barrier(arg, ToSim(op.d1));
        break;
      case ProgramOp::Code::kYield:
        b.Yield();
        break;
      case ProgramOp::Code::kFork:
        b.Fork(arg, op.arg2);
        break;
      case ProgramOp::Code::kExit:
        b.Exit();
        break;
      case ProgramOp::Code::kLoop:
        b.Loop(op.arg);
        break;
      case ProgramOp::Code::kEndLoop:
        b.EndLoop();
        break;
      case ProgramOp::Code::kMark:
        b.Mark(arg);
        break;
      case ProgramOp::Code::kStamp:
        b.Stamp();
        break;
    }
  }
  return b.Build();
}

absl::StatusOr<sim::Workload> ToSimWorkload(const Workload& workload) {
  sim::Workload out;
  for (const Program& p : workload.programs) {
    absl::StatusOr<sim::Program> program = ToSimProgram(p);
    if (!program.ok()) return program.status();
    out.programs.push_back(*std::move(program));
  }
  for (const ChannelSpec& c : workload.channels) {
    sim::ChannelSpec s;
    s.name = c.name;
    s.kind = c.kind == ChannelSpec::Kind::kSocket
                 ? sim::ChannelSpec::Kind::kSocket
                 : sim::ChannelSpec::Kind::kPipe;
    s.capacity = c.capacity;
    out.channels.push_back(std::move(s));
  }
  for (const BarrierSpec& b : workload.barriers) {
    out.barriers.push_back(sim::BarrierSpec{b.name, b.parties});
  }
  for (const TaskSpec& t : workload.tasks) {
    sim::TaskSpec s;
    s.name = t.name;
    s.program = t.program;
    s.count = t.count;
    s.nice = t.nice;
    switch (t.policy) {
      case SchedPolicy::kNormal:
        s.policy = sim::SchedPolicy::kNormal;
        break;
      case SchedPolicy::kIdle:
        s.policy = sim::SchedPolicy::kIdle;
        break;
      case SchedPolicy::kFifo:
        s.policy = sim::SchedPolicy::kFifo;
        break;
    }
    s.rt_priority = t.rt_priority;
    s.affinity = t.affinity;
    s.start_cpu = t.start_cpu;
    s.channel_base = t.channel_base;
    s.uclamp_min = t.uclamp_min;
    s.uclamp_max = t.uclamp_max;
    out.tasks.push_back(std::move(s));
  }
  out.metrics = workload.marks;
  return out;
}

}  // namespace api

ProgramBuilder& ProgramBuilder::Compute(Dist cycles, Dist stall_ns) {
  ProgramOp op;
  op.code = ProgramOp::Code::kCompute;
  op.d1 = cycles;
  op.d2 = stall_ns;
  return Add(op);
}
ProgramBuilder& ProgramBuilder::Sleep(Dist ns) {
  ProgramOp op;
  op.code = ProgramOp::Code::kSleep;
  op.d1 = ns;
  return Add(op);
}
ProgramBuilder& ProgramBuilder::IoWait(Dist ns) {
  ProgramOp op;
  op.code = ProgramOp::Code::kIoWait;
  op.d1 = ns;
  return Add(op);
}
ProgramBuilder& ProgramBuilder::Send(int channel) {
  ProgramOp op;
  op.code = ProgramOp::Code::kSend;
  op.arg = channel;
  return Add(op);
}
ProgramBuilder& ProgramBuilder::Recv(int channel) {
  ProgramOp op;
  op.code = ProgramOp::Code::kRecv;
  op.arg = channel;
  return Add(op);
}
ProgramBuilder& ProgramBuilder::Barrier(int barrier, Dist spin_ns) {
  ProgramOp op;
  op.code = ProgramOp::Code::kBarrier;
  op.arg = barrier;
  op.d1 = spin_ns;
  return Add(op);
}
ProgramBuilder& ProgramBuilder::Yield() {
  ProgramOp op;
  op.code = ProgramOp::Code::kYield;
  return Add(op);
}
ProgramBuilder& ProgramBuilder::Fork(int program, int count) {
  ProgramOp op;
  op.code = ProgramOp::Code::kFork;
  op.arg = program;
  op.arg2 = count;
  return Add(op);
}
ProgramBuilder& ProgramBuilder::Exit() {
  ProgramOp op;
  op.code = ProgramOp::Code::kExit;
  return Add(op);
}
ProgramBuilder& ProgramBuilder::Loop(int64_t count) {
  ProgramOp op;
  op.code = ProgramOp::Code::kLoop;
  op.arg = count;
  return Add(op);
}
ProgramBuilder& ProgramBuilder::EndLoop() {
  ProgramOp op;
  op.code = ProgramOp::Code::kEndLoop;
  return Add(op);
}
ProgramBuilder& ProgramBuilder::Mark(int mark) {
  ProgramOp op;
  op.code = ProgramOp::Code::kMark;
  op.arg = mark;
  return Add(op);
}
ProgramBuilder& ProgramBuilder::Stamp() {
  ProgramOp op;
  op.code = ProgramOp::Code::kStamp;
  return Add(op);
}

absl::StatusOr<Program> ProgramBuilder::Build() const {
  absl::StatusOr<sim::Program> checked = api::ToSimProgram(program_);
  if (!checked.ok()) return checked.status();
  Program out = program_;
  if (out.ops.size() < checked->ops.size()) {
    // The engine's builder ended the program with an Exit.
    ProgramOp exit;
    exit.code = ProgramOp::Code::kExit;
    out.ops.push_back(exit);
  }
  return out;
}

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

int Workload::AddMark(std::string name) {
  marks.push_back(std::move(name));
  return static_cast<int>(marks.size()) - 1;
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
