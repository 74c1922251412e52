// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Models of storage benchmarks whose scheduling behaviour is "compute, then
// wait for the disk": dbench4, sqlite insert and fs_mark. Each waits for
// the device with an io_wait op (iowait accounting; the frequency governor
// sees SCHED_CPUFREQ_IOWAIT when the task is woken, which drives
// schedutil's iowait boost and intel_pstate's HWP dynamic boost), with the
// SSD-like latency of model_util.h (lognormal, median 90 us, sigma 0.5;
// assumed).
//
//   SqliteInsertParams p;
//   p.fsyncs_per_insert = 3;
//   absl::StatusOr<sim::Workload> w = SqliteInsertWorkload(p);
//
// dbench4 (`clients` tasks, each):
//   loop { loop(ops_per_flush) { stamp; compute(op_cycles); mark(op) }
//          stamp; compute(op_cycles); io_wait(fsync); mark(op) }
// Operations on cached files are compute only (dbench4 as mmtests runs it:
// asynchronous IO, the page cache absorbs writes); every ops_per_flush-th
// operation is a Flush (fsync) that waits for the device.
//
// sqlite_insert (one task):
//   loop { stamp; compute(insert_cycles); io_wait(fsync) x fsyncs_per_insert;
//          mark(insert) }
// An insert is one transaction; SQLite's rollback journal with
// synchronous=FULL syncs the journal, the database and the directory entry
// of the deleted journal: 3 fsyncs (assumed).
//
// fs_mark (`threads` tasks, each):
//   loop { compute(create_cycles + file_size * cycles_per_byte);
//          [io_wait(fsync)]; mark(file) }
// The fsync (sync_method 1, fs_mark's fsync-before-close) takes the device
// latency plus file_size at 500 MB/s of write bandwidth (assumed), added
// to the median.
//
// The device has no queue: concurrent IOs do not slow each other down and
// there is no journal thread (jbd2) between the task and the device. Both
// would need a device model in the simulator.

#ifndef SCHEDSIM_WORKLOADS_STORAGE_H_
#define SCHEDSIM_WORKLOADS_STORAGE_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "sim/workload.h"
#include "workloads/model_registry.h"
#include "workloads/model_util.h"

namespace schedsim::workloads {

// Write bandwidth behind an fsync of a file's data (assumed).
inline constexpr int64_t kDeviceWriteBytesPerUs = 500;  // 500 MB/s

struct Dbench4Params {
  int clients = 1;
  int64_t ops_per_flush = 50;   // assumed: ~2% of loadfile ops are Flush
  int64_t op_cycles = 30000;    // ~9 us at 3.5 GHz per cached op, assumed
  int64_t bytes_per_op = 4096;  // average ReadX/WriteX payload, assumed
  IoDevice device;
};
inline constexpr int kDbenchOpMetric = 0;
absl::StatusOr<sim::Workload> Dbench4Workload(const Dbench4Params& params);

struct SqliteInsertParams {
  int64_t fsyncs_per_insert = 3;   // assumed, see the file comment
  int64_t insert_cycles = 200000;  // ~57 us at 3.5 GHz, assumed
  IoDevice device;
};
inline constexpr int kSqliteInsertMetric = 0;
absl::StatusOr<sim::Workload> SqliteInsertWorkload(
    const SqliteInsertParams& params);

struct FsMarkParams {
  int threads = 1;                // -t
  int64_t file_size = 4096;       // -s, bytes
  int64_t sync_method = 1;        // -S: 0 = none, 1 = fsync before close
  int64_t create_cycles = 60000;  // create + close path, assumed
  double cycles_per_byte = 1.0;   // write into the page cache, assumed
  IoDevice device;
};
inline constexpr int kFsMarkFileMetric = 0;
absl::StatusOr<sim::Workload> FsMarkWorkload(const FsMarkParams& params);

// The registered models "dbench4", "sqlite_insert" and "fs_mark".
WorkloadModel Dbench4Model();
WorkloadModel SqliteInsertModel();
WorkloadModel FsMarkModel();

}  // namespace schedsim::workloads

#endif  // SCHEDSIM_WORKLOADS_STORAGE_H_
