// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// A workload as the simulator runs it: programs, the channels and barriers
// they share, the tasks present at the start, and the names of the metrics
// their kMark operations count. Public: include/schedsim/workload.h
// re-exports these types (docs/library.md, "What is public").

#ifndef SCHEDSIM_SIM_WORKLOAD_H_
#define SCHEDSIM_SIM_WORKLOAD_H_

#include <cstdint>
#include <string>
#include <vector>

#include "sim/program.h"

namespace schedsim::sim {

struct ChannelSpec {
  enum class Kind : uint8_t { kPipe, kSocket };
  std::string name;
  Kind kind = Kind::kPipe;
  // Messages the channel holds before a sender blocks (a 64 KiB pipe of
  // 100-byte hackbench messages holds 655).
  int capacity = 655;
  // Messages in it at the start, 0..capacity: 1 makes the channel a mutex
  // (receive = lock, send = unlock), N a semaphore of count N.
  int initial_messages = 0;
  // A real pipe whose operations take pipe->mutex (SimConfig::
  // pipe_lock_lines); false for channels that stand for other waits
  // (wait4, a lock, a condition).
  bool pipe_mutex = false;
};

// A block device with one request queue served in order (a SATA SSD behind
// blk-mq's single hardware queue): a kIo op's data is split into requests
// of at most max_request_bytes (the queue's max_sectors_kb, Linux
// block/blk-settings.c BLK_DEF_MAX_SECTORS), each taking request_ns plus
// its bytes at bytes_per_us, after every request queued before it. The
// submitter sleeps in IO wait until each of its requests completes in turn,
// as filemap_fdatawait_range() waits page by page (mm/filemap.c, v4.16):
// one IO wake-up per request (docs/model.md, "Block devices").
struct DeviceSpec {
  std::string name;
  int64_t request_ns = 50000;           // per request: command + media
  int64_t bytes_per_us = 500;           // transfer rate (500 = 500 MB/s)
  int64_t max_request_bytes = 1310720;  // 1280 KiB (2560 sectors)
};

struct BarrierSpec {
  std::string name;
  int parties = 2;
};

// A cache line many tasks write: a reference count on a shared object, a
// global lock word. kShared ops write it; the simulator keeps which CPU
// owns it and until when (docs/model.md, "Shared cache lines").
struct SharedLineSpec {
  std::string name;
};

enum class SchedPolicy : uint8_t { kNormal, kIdle, kFifo };

struct TaskSpec {
  std::string name;
  int program = 0;  // index in Workload::programs
  int count = 1;    // this many identical tasks
  int nice = 0;     // -20..19 (SCHED_NORMAL)
  SchedPolicy policy = SchedPolicy::kNormal;
  int rt_priority = 0;  // 1..99 for kFifo
  // CPUs the task may run on (cpulist text such as "0-3,8"; "" = all).
  std::string affinity;
  // CPU the task starts on; -1 = placed by fork balancing.
  int start_cpu = -1;
  // Added to the channel ids of the program's send and receive ops, so that
  // many tasks share one program on different channels (hackbench's
  // receivers each read their own socket).
  int channel_base = 0;
  // uclamp request, 0..1024; -1 = unset.
  int uclamp_min = -1;
  int uclamp_max = -1;
  // Bytes of cache the task keeps warm (its working set). A migration to
  // another LLC refills min(working set, that cache) line by line from
  // where it ran (docs/model.md, "Execution"); -1 = not known: the flat
  // SimConfig::llc_migration_penalty_ns.
  int64_t working_set_bytes = -1;
  // A fair task's requested slice (sched_attr.sched_runtime): EEVDF's
  // custom slice from Linux 6.12 (SimConfig::task_slices), clamped to
  // 0.1-100 ms; 0 = the base slice. CFS and 6.6 ignore it.
  int64_t slice_ns = 0;
  // The task's address space (mm). Tasks with the same mm >= 0, of this
  // spec or another, are threads of one process: a switch between them
  // needs no switch_mm (SimConfig::mm_switch_ns). -1 = not declared: every
  // switch to the task is charged as an address-space switch (processes;
  // the model before address spaces).
  int mm = -1;
};

// The Add* helpers return the new element's index (the id programs and
// tasks refer to it by).
struct Workload {
  std::vector<Program> programs;
  std::vector<ChannelSpec> channels;
  std::vector<BarrierSpec> barriers;
  std::vector<SharedLineSpec> lines;  // kShared ops index this
  std::vector<DeviceSpec> devices;    // kIo ops index this
  std::vector<TaskSpec> tasks;        // the tasks present at the start
  std::vector<std::string> metrics;   // kMark ids index this
  // Service-time jitter of user work: the coefficient of variation (a
  // fraction, 0.03 = 3%) of the factor each compute op's cycles and stall
  // are multiplied by, drawn per op from a lognormal with mean 1 (sigma^2 =
  // ln(1 + cv^2), mu = -sigma^2 / 2). The simulator multiplies it by
  // SimConfig::noise_scale; 0 = no jitter (no draws). Models set it from
  // their work_cv_pct parameter. 0..10.
  double work_cv = 0;

  int AddProgram(Program program);
  int AddChannel(std::string name,
                 ChannelSpec::Kind kind = ChannelSpec::Kind::kPipe,
                 int capacity = 655);
  int AddBarrier(std::string name, int parties);
  int AddLine(std::string name);
  int AddDevice(DeviceSpec device);
  // A metric that kMark ops (ProgramBuilder::Mark) count, in `metrics`.
  int AddMark(std::string name);
  int AddTask(TaskSpec task);
  // `count` tasks named `name` running program `program`, with the
  // TaskSpec defaults otherwise.
  int AddTask(std::string name, int program, int count = 1);
};

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_WORKLOAD_H_
