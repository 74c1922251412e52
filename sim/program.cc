// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "sim/program.h"

#include <algorithm>
#include <cmath>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace schedsim::sim {

int64_t Dist::SampleRandom(Rng& rng) const {
  double v = 0;
  switch (kind) {
    case Kind::kConstant:
      return a;
    case Kind::kUniform:
      return a == b ? a : rng.UniformInt(a, b + 1);
    case Kind::kExponential:
      v = rng.Exponential(static_cast<double>(a));
      break;
    case Kind::kNormal:
      v = rng.Normal(static_cast<double>(a), static_cast<double>(b));
      break;
    case Kind::kLogNormal:
      v = rng.LogNormal(std::log(static_cast<double>(a)),
                        static_cast<double>(b) / 1000.0);
      break;
  }
  if (!(v > 0)) return 0;
  if (v > 9.0e18) return int64_t{9000000000000000000};
  return static_cast<int64_t>(std::llround(v));
}

double Dist::Mean() const {
  switch (kind) {
    case Kind::kConstant:
      return static_cast<double>(a);
    case Kind::kUniform:
      return (static_cast<double>(a) + static_cast<double>(b)) / 2;
    case Kind::kExponential:
    case Kind::kNormal:
      return static_cast<double>(a);
    case Kind::kLogNormal: {
      double s = static_cast<double>(b) / 1000.0;
      return static_cast<double>(a) * std::exp(s * s / 2);
    }
  }
  return 0;
}

absl::Status Dist::Validate(const std::string& what) const {
  bool ok = a >= 0 && b >= 0;
  if (kind == Kind::kUniform) ok = ok && b >= a;
  if (kind == Kind::kLogNormal) ok = ok && a > 0;
  if (!ok) {
    return absl::InvalidArgumentError(absl::StrCat(
        what, ": distribution parameters out of range (a=", a, ", b=", b,
        "); values must be non-negative, uniform needs a <= b, lognormal a "
        "median > 0"));
  }
  return absl::OkStatus();
}

const char* OpCodeName(OpCode code) {
  switch (code) {
    case OpCode::kCompute:
      return "compute";
    case OpCode::kSleep:
      return "sleep";
    case OpCode::kIoWait:
      return "io_wait";
    case OpCode::kSend:
      return "send";
    case OpCode::kRecv:
      return "recv";
    case OpCode::kBarrier:
      return "barrier";
    case OpCode::kYield:
      return "yield";
    case OpCode::kFork:
      return "fork";
    case OpCode::kExit:
      return "exit";
    case OpCode::kLoop:
      return "loop";
    case OpCode::kEndLoop:
      return "end_loop";
    case OpCode::kMark:
      return "mark";
    case OpCode::kStamp:
      return "stamp";
    case OpCode::kShared:
      return "shared";
    case OpCode::kExec:
      return "exec";
    case OpCode::kIo:
      return "io";
  }
  return "?";
}

namespace {
Op MakeOp(OpCode code, int32_t arg = 0, int32_t arg2 = 0, Dist d1 = {},
          Dist d2 = {}) {
  Op op;
  op.code = code;
  op.arg = arg;
  op.arg2 = arg2;
  op.d1 = d1;
  op.d2 = d2;
  return op;
}
}  // namespace

ProgramBuilder& ProgramBuilder::Compute(Dist cycles, Dist stall_ns) {
  program_.ops.push_back(MakeOp(OpCode::kCompute, 0, 0, cycles, stall_ns));
  return *this;
}
ProgramBuilder& ProgramBuilder::Sleep(Dist ns) {
  program_.ops.push_back(MakeOp(OpCode::kSleep, 0, 0, ns));
  return *this;
}
ProgramBuilder& ProgramBuilder::IoWait(Dist ns) {
  program_.ops.push_back(MakeOp(OpCode::kIoWait, 0, 0, ns));
  return *this;
}
ProgramBuilder& ProgramBuilder::DeviceWait(Dist ns) {
  program_.ops.push_back(MakeOp(OpCode::kIoWait, kIoWaitDevice, 0, ns));
  return *this;
}
ProgramBuilder& ProgramBuilder::RecvBatch(int channel) {
  program_.ops.push_back(MakeOp(OpCode::kRecv, channel, kChannelBatch));
  return *this;
}
ProgramBuilder& ProgramBuilder::SendBatch(int channel) {
  program_.ops.push_back(MakeOp(OpCode::kSend, channel, kChannelBatch));
  return *this;
}
ProgramBuilder& ProgramBuilder::Io(int device, Dist bytes, Dist flush_ns) {
  program_.ops.push_back(MakeOp(OpCode::kIo, device, 0, bytes, flush_ns));
  return *this;
}
ProgramBuilder& ProgramBuilder::Send(int channel) {
  program_.ops.push_back(MakeOp(OpCode::kSend, channel));
  return *this;
}
ProgramBuilder& ProgramBuilder::Recv(int channel) {
  program_.ops.push_back(MakeOp(OpCode::kRecv, channel));
  return *this;
}
ProgramBuilder& ProgramBuilder::Shared(int line, int writes, Dist cycles,
                                       Dist hold_ns) {
  program_.ops.push_back(
      MakeOp(OpCode::kShared, line, writes, cycles, hold_ns));
  return *this;
}

ProgramBuilder& ProgramBuilder::Exec(int program) {
  program_.ops.push_back(MakeOp(OpCode::kExec, program));
  return *this;
}

ProgramBuilder& ProgramBuilder::Barrier(int barrier, Dist spin_ns) {
  program_.ops.push_back(MakeOp(OpCode::kBarrier, barrier, 0, spin_ns));
  return *this;
}
ProgramBuilder& ProgramBuilder::Yield() {
  program_.ops.push_back(MakeOp(OpCode::kYield));
  return *this;
}
ProgramBuilder& ProgramBuilder::Fork(int program, int count) {
  program_.ops.push_back(MakeOp(OpCode::kFork, program, count));
  return *this;
}
ProgramBuilder& ProgramBuilder::Exit() {
  program_.ops.push_back(MakeOp(OpCode::kExit));
  return *this;
}
ProgramBuilder& ProgramBuilder::Loop(int64_t count) {
  if (count < 0 || count > INT32_MAX) {
    error_ = absl::StrCat("loop count ", count, " out of range 0..", INT32_MAX);
  }
  open_loops_.push_back(static_cast<int>(program_.ops.size()));
  program_.loop_depth =
      std::max(program_.loop_depth, static_cast<int>(open_loops_.size()));
  program_.ops.push_back(MakeOp(OpCode::kLoop, static_cast<int32_t>(count)));
  return *this;
}
ProgramBuilder& ProgramBuilder::EndLoop() {
  if (open_loops_.empty()) {
    error_ = absl::StrCat("end_loop at op ", program_.ops.size(),
                          " has no matching loop");
    return *this;
  }
  int start = open_loops_.back();
  open_loops_.pop_back();
  program_.ops.push_back(MakeOp(OpCode::kEndLoop, start));
  return *this;
}
ProgramBuilder& ProgramBuilder::Mark(int metric) {
  program_.ops.push_back(MakeOp(OpCode::kMark, metric));
  return *this;
}
ProgramBuilder& ProgramBuilder::Stamp() {
  program_.ops.push_back(MakeOp(OpCode::kStamp));
  return *this;
}

absl::StatusOr<Program> ProgramBuilder::Build() {
  const std::string where = absl::StrCat("program '", program_.name, "'");
  if (!error_.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(where, ": ", error_));
  }
  if (!open_loops_.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        where, ": loop at op ", open_loops_.back(), " is never closed"));
  }
  if (program_.loop_depth > kMaxLoopDepth) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": loops nest ", program_.loop_depth,
                     " deep; at most ", kMaxLoopDepth, " are supported"));
  }
  for (size_t i = 0; i < program_.ops.size(); ++i) {
    const Op& op = program_.ops[i];
    std::string what =
        absl::StrCat(where, " op ", i, " (", OpCodeName(op.code), ")");
    absl::Status s = op.d1.Validate(what);
    if (s.ok()) s = op.d2.Validate(what);
    if (!s.ok()) return s;
    if ((op.code == OpCode::kSend || op.code == OpCode::kRecv ||
         op.code == OpCode::kBarrier || op.code == OpCode::kMark ||
         op.code == OpCode::kFork || op.code == OpCode::kShared ||
         op.code == OpCode::kIo || op.code == OpCode::kExec) &&
        op.arg < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(what, ": negative id ", op.arg));
    }
    if (op.code == OpCode::kShared && op.arg2 < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(what, ": negative write count ", op.arg2));
    }
    if (op.code == OpCode::kFork && (op.arg2 < 1 || op.arg2 > kMaxTasks)) {
      return absl::InvalidArgumentError(
          absl::StrCat(what, ": fork count ", op.arg2, " outside 1..",
                       kMaxTasks, " (the task limit)"));
    }
  }
  if (program_.ops.empty() || program_.ops.back().code != OpCode::kExit) {
    program_.ops.push_back(MakeOp(OpCode::kExit));
  }
  return program_;
}

}  // namespace schedsim::sim
