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
// dbench4_journal (dbench4 with ext4's fsync path, or xfs's with its own
// fitted writeback cost: `clients` tasks and one journal thread):
//   client: loop { loop(ops_per_flush) { stamp; compute(op_cycles);
//                                        mark(op) }
//                  stamp; compute(writeback); io(device, dirty bytes);
//                  send(commit); recv(committed); mark(op) }
//   jbd2:   loop { recv_batch(commit); compute(commit_cycles);
//                  io(device, journal_bytes); io(device, 4 KiB, flush);
//                  send_batch(committed) }
// Operations on cached files are compute only (dbench4 as mmtests runs it:
// asynchronous IO, the page cache absorbs writes), each leaving
// dirty_bytes_per_op dirty. Every ops_per_flush-th operation is a Flush,
// an fsync as ext4_sync_file() does it (fs/ext4/fsync.c, v4.16): the
// client writes the file's dirty pages back (writeback_cycles_per_kib of
// CPU, ext4_writepages), waits for each request of the write in turn
// (filemap_write_and_wait_range, one IO wake-up per request), then asks
// the journal thread to commit and sleeps until it has
// (jbd2_complete_transaction -> jbd2_log_wait_commit, not an IO wait).
// The journal thread (kjournald2, fs/jbd2/commit.c
// jbd2_journal_commit_transaction) does the commit's CPU work, writes the
// journal blocks and then the commit block with a cache flush, each an IO
// wait, and wakes the client. Data and journal writes share one device
// queue (sim::DeviceSpec), so clients queue behind each other's
// writeback. A commit serves every Flush that asked before it began (the
// fsyncs that joined the running transaction); those that ask during it
// wait for the next one (jbd2_log_start_commit / jbd2_log_wait_commit).
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
// dbench4, sqlite_insert and fs_mark wait for a device without a queue:
// concurrent IOs do not slow each other down, and dbench4 has no journal
// thread between the task and the device; dbench4_journal has both.

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

// The Flush's writeback CPU per KiB, fitted to each filesystem's 1-client
// vanilla slowest operation of seed 000 on skylake-e3-1240v5
// (docs/validation.md, "Calibration"): ext4 (28.49 ms) and xfs (21.88 ms).
// ext4 delays block allocation to writeback and maps each extent inside a
// jbd2 handle (ext4_writepages -> mpage_map_and_submit_extent, v4.16);
// xfs converts delayed extents in its own transactions
// (xfs_vm_writepages -> xfs_map_blocks). Which costs what per KiB is not
// published; the two values are fits.
inline constexpr int64_t kExt4WritebackCyclesPerKib = 19000;
inline constexpr int64_t kXfsWritebackCyclesPerKib = 10500;

// dbench4_journal (see the file comment).
struct Dbench4JournalParams {
  int clients = 1;
  int64_t ops_per_flush = 50;   // assumed: ~2% of loadfile ops are Flush
  int64_t op_cycles = 30000;    // ~9 us at 3.5 GHz per cached op, assumed
  int64_t bytes_per_op = 4096;  // average ReadX/WriteX payload, assumed
  // Bytes each cached op leaves dirty for the next Flush to write back
  // (assumed).
  int64_t dirty_bytes_per_op = 65536;
  // CPU of writeback per KiB written (ext4_writepages, bio building, the
  // block layer; fitted: docs/validation.md, "Calibration").
  int64_t writeback_cycles_per_kib = kExt4WritebackCyclesPerKib;
  int64_t commit_cycles = 300000;  // jbd2's commit work, assumed
  int64_t journal_bytes = 16384;   // journal blocks per commit, assumed
  // The SSD: its queue, and the cache flush of the commit block (lognormal
  // median and sigma in thousandths).
  sim::DeviceSpec device = {"ssd", 50000, 450, 1310720};
  int64_t flush_median_us = 1000;
  int64_t flush_sigma_milli = 500;
};
absl::StatusOr<sim::Workload> Dbench4JournalWorkload(
    const Dbench4JournalParams& params);

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

// The registered models "dbench4", "dbench4_journal", "sqlite_insert" and
// "fs_mark".
WorkloadModel Dbench4Model();
WorkloadModel Dbench4JournalModel();
WorkloadModel SqliteInsertModel();
WorkloadModel FsMarkModel();

}  // namespace schedsim::workloads

#endif  // SCHEDSIM_WORKLOADS_STORAGE_H_
