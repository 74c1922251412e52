// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "workloads/storage.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "sim/program.h"

namespace schedsim::workloads {
namespace {

constexpr int64_t kMaxCycles = 1000000000000;  // 10^12

absl::StatusOr<sim::Workload> OneProgram(absl::string_view model,
                                         sim::ProgramBuilder& b,
                                         const std::string& task_name,
                                         int count, const char* metric) {
  absl::StatusOr<sim::Program> p = BuildProgram(model, b);
  if (!p.ok()) return p.status();
  sim::Workload w;
  w.metrics = {metric};
  w.programs.push_back(*std::move(p));
  sim::TaskSpec t;
  t.name = task_name;
  t.program = 0;
  t.count = count;
  w.tasks.push_back(std::move(t));
  return w;
}

// Parameters that every storage model reads the same way.
absl::Status CheckCount(absl::string_view model, const char* name,
                        int64_t value, int64_t lo = 1) {
  return CheckIntParam(model, name, value, lo, 100000);
}

}  // namespace

absl::StatusOr<sim::Workload> Dbench4Workload(const Dbench4Params& params) {
  constexpr char kModel[] = "dbench4";
  if (absl::Status s = CheckCount(kModel, "clients", params.clients); !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckIntParam(kModel, "ops_per_flush",
                                     params.ops_per_flush, 0, 1000000000);
      !s.ok()) {
    return s;
  }
  if (absl::Status s =
          CheckIntParam(kModel, "op_cycles", params.op_cycles, 0, kMaxCycles);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckIntParam(kModel, "bytes_per_op",
                                     params.bytes_per_op, 0, int64_t{1} << 40);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = ValidateIoDevice(kModel, params.device); !s.ok()) {
    return s;
  }
  const sim::Dist op = sim::Dist::Constant(params.op_cycles);
  sim::ProgramBuilder b("dbench4");
  b.Loop(0);
  if (params.ops_per_flush > 0) {
    b.Loop(params.ops_per_flush)
        .Stamp()
        .Compute(op)
        .Mark(kDbenchOpMetric)
        .EndLoop();
  }
  b.Stamp()
      .Compute(op)
      .IoWait(params.device.Fsync())
      .Mark(kDbenchOpMetric)
      .EndLoop();
  return OneProgram(kModel, b, "dbench4", params.clients, "op");
}

absl::StatusOr<sim::Workload> Dbench4JournalWorkload(
    const Dbench4JournalParams& params) {
  constexpr char kModel[] = "dbench4_journal";
  if (absl::Status s = CheckCount(kModel, "clients", params.clients); !s.ok()) {
    return s;
  }
  struct Range {
    const char* name;
    int64_t value, lo, hi;
  };
  const Range ranges[] = {
      {"ops_per_flush", params.ops_per_flush, 0, 1000000},
      {"op_cycles", params.op_cycles, 0, kMaxCycles},
      {"bytes_per_op", params.bytes_per_op, 0, int64_t{1} << 40},
      {"dirty_bytes_per_op", params.dirty_bytes_per_op, 0, int64_t{1} << 30},
      {"writeback_cycles_per_kib", params.writeback_cycles_per_kib, 0,
       100000000},
      {"commit_cycles", params.commit_cycles, 0, kMaxCycles},
      {"journal_bytes", params.journal_bytes, 0, int64_t{1} << 30},
      {"device_request_us (in ns)", params.device.request_ns, 0, 1000000000},
      {"device_mb_s", params.device.bytes_per_us, 1, 1000000},
      {"device_max_request_kib (in bytes)", params.device.max_request_bytes,
       512, int64_t{1} << 30},
      {"device_flush_us", params.flush_median_us, 1, 1000000000},
      {"device_flush_sigma (in thousandths)", params.flush_sigma_milli, 0,
       5000},
  };
  for (const Range& r : ranges) {
    if (absl::Status s = CheckIntParam(kModel, r.name, r.value, r.lo, r.hi);
        !s.ok()) {
      return s;
    }
  }
  const int64_t dirty = params.ops_per_flush * params.dirty_bytes_per_op;
  if (dirty > (int64_t{1} << 34)) {
    return absl::InvalidArgumentError(
        absl::StrCat(kModel, ": ops_per_flush x dirty_bytes_per_op is ", dirty,
                     " bytes per Flush; at most 16 GiB"));
  }
  sim::Workload w;
  w.metrics = {"op"};
  sim::DeviceSpec dev = params.device;
  dev.name = "ssd";
  const int device = w.AddDevice(dev);
  const int commit = w.AddChannel("jbd2-commit", sim::ChannelSpec::Kind::kPipe,
                                  params.clients + 1);
  const int committed = w.AddChannel(
      "jbd2-committed", sim::ChannelSpec::Kind::kPipe, params.clients + 1);

  sim::ProgramBuilder c("dbench4_journal");
  c.Loop(0);
  if (params.ops_per_flush > 0) {
    c.Loop(params.ops_per_flush)
        .Stamp()
        .Compute(sim::Dist::Constant(params.op_cycles))
        .Mark(kDbenchOpMetric)
        .EndLoop();
  }
  c.Stamp().Compute(
      sim::Dist::Constant(dirty / 1024 * params.writeback_cycles_per_kib));
  if (dirty > 0) c.Io(device, sim::Dist::Constant(dirty));
  c.Send(commit).Recv(committed).Mark(kDbenchOpMetric).EndLoop();
  absl::StatusOr<sim::Program> client = BuildProgram(kModel, c);
  if (!client.ok()) return client.status();

  const sim::Dist flush =
      params.flush_sigma_milli > 0
          ? sim::Dist::LogNormal(params.flush_median_us * 1000,
                                 params.flush_sigma_milli)
          : sim::Dist::Constant(params.flush_median_us * 1000);
  sim::ProgramBuilder j("jbd2");
  j.Loop(0).RecvBatch(commit).Compute(
      sim::Dist::Constant(params.commit_cycles));
  if (params.journal_bytes > 0) {
    j.Io(device, sim::Dist::Constant(params.journal_bytes));
  }
  j.Io(device, sim::Dist::Constant(4096), flush).SendBatch(committed).EndLoop();
  absl::StatusOr<sim::Program> jbd2 = BuildProgram(kModel, j);
  if (!jbd2.ok()) return jbd2.status();

  w.AddTask("dbench4_journal", w.AddProgram(*std::move(client)),
            params.clients);
  w.AddTask("jbd2", w.AddProgram(*std::move(jbd2)), 1);
  return w;
}

absl::StatusOr<sim::Workload> SqliteInsertWorkload(
    const SqliteInsertParams& params) {
  constexpr char kModel[] = "sqlite_insert";
  if (absl::Status s = CheckIntParam(kModel, "fsyncs_per_insert",
                                     params.fsyncs_per_insert, 0, 64);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckIntParam(kModel, "insert_cycles",
                                     params.insert_cycles, 0, kMaxCycles);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = ValidateIoDevice(kModel, params.device); !s.ok()) {
    return s;
  }
  if (params.fsyncs_per_insert == 0 && params.insert_cycles == 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        kModel, ": an insert with no cycles and no fsync takes no time"));
  }
  sim::ProgramBuilder b("sqlite");
  b.Loop(0).Stamp();
  if (params.insert_cycles > 0) {
    b.Compute(sim::Dist::Constant(params.insert_cycles));
  }
  for (int64_t i = 0; i < params.fsyncs_per_insert; ++i) {
    b.IoWait(params.device.Fsync());
  }
  b.Mark(kSqliteInsertMetric).EndLoop();
  return OneProgram(kModel, b, "sqlite", 1, "insert");
}

absl::StatusOr<sim::Workload> FsMarkWorkload(const FsMarkParams& params) {
  constexpr char kModel[] = "fs_mark";
  if (absl::Status s = CheckCount(kModel, "threads", params.threads); !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckIntParam(kModel, "file_size", params.file_size, 0,
                                     int64_t{1} << 40);
      !s.ok()) {
    return s;
  }
  if (absl::Status s =
          CheckIntParam(kModel, "sync_method", params.sync_method, 0, 1);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckIntParam(kModel, "create_cycles",
                                     params.create_cycles, 0, kMaxCycles);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckDoubleParam(kModel, "cycles_per_byte",
                                        params.cycles_per_byte, 0, 1000);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = ValidateIoDevice(kModel, params.device); !s.ok()) {
    return s;
  }
  const int64_t cycles =
      params.create_cycles +
      static_cast<int64_t>(std::llround(static_cast<double>(params.file_size) *
                                        params.cycles_per_byte));
  if (cycles == 0 && params.sync_method == 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        kModel, ": a file with no cycles and no sync takes no time"));
  }
  sim::ProgramBuilder b("fs_mark");
  b.Loop(0);
  if (cycles > 0) b.Compute(sim::Dist::Constant(cycles));
  if (params.sync_method == 1) {
    b.IoWait(params.device.Fsync(params.file_size / kDeviceWriteBytesPerUs));
  }
  b.Mark(kFsMarkFileMetric).EndLoop();
  return OneProgram(kModel, b, "fs_mark", params.threads, "file");
}

namespace {

// The parameters both dbench models have (the clients and their cached
// operations) and their metrics.
std::vector<platform::ParamSpec> DbenchClientParams() {
  return {
      {"clients", int64_t{1}, "client processes (dbench's nprocs)"},
      {"ops_per_flush", int64_t{50},
       "model only: cached operations between two Flush ops (assumed)"},
      {"op_cycles", int64_t{30000},
       "model only: cycles per cached file operation (assumed)"},
      {"bytes_per_op", int64_t{4096},
       "model only: payload bytes counted per operation (assumed)"},
  };
}

std::vector<MetricInfo> DbenchMetrics() {
  return {
      {"throughput_mb_s", "MB/s", true, MeanKind::kHarmonic,
       "payload bytes per second / 10^6 (dbench's Throughput MB/sec)"},
      {"latency_ms", "ms", false, MeanKind::kArithmetic,
       "mean operation latency"},
      {"max_latency_ms", "ms", false, MeanKind::kArithmetic,
       "largest operation latency (dbench's max_latency, what mmtests "
       "reports for dbench4)"},
  };
}

}  // namespace

WorkloadModel Dbench4Model() {
  WorkloadModel m;
  m.name = "dbench4";
  m.description =
      "dbench4 (asynchronous IO, as mmtests runs it): `clients` tasks doing "
      "file operations on cached files (compute) with a Flush (fsync, an "
      "io_wait on the device) every ops_per_flush operations. Exercises "
      "iowait wake-ups (schedutil iowait boost, intel_pstate HWP dynamic "
      "boost), idle exits after IO waits, the frequency ramp of short "
      "bursts and, with many clients, wake-up placement. Assumes ~9 us per "
      "cached op, a Flush every 50 ops, 4 KiB per op and an SSD-like device "
      "without queueing (all assumed).";
  m.params = DbenchClientParams();
  m.params.push_back(WorkCvParam(5.0, "assumed"));
  for (platform::ParamSpec& p : IoDeviceParamSpecs()) {
    m.params.push_back(std::move(p));
  }
  m.metrics = DbenchMetrics();
  m.build = [](const platform::Params& p,
               const topology::Topology&) -> absl::StatusOr<sim::Workload> {
    Dbench4Params d;
    const int64_t clients = p.GetInt("clients");
    if (absl::Status s = CheckCount("dbench4", "clients", clients); !s.ok()) {
      return s;
    }
    d.clients = static_cast<int>(clients);
    d.ops_per_flush = p.GetInt("ops_per_flush");
    d.op_cycles = p.GetInt("op_cycles");
    d.bytes_per_op = p.GetInt("bytes_per_op");
    absl::StatusOr<IoDevice> dev = IoDeviceFromParams("dbench4", p);
    if (!dev.ok()) return dev.status();
    d.device = *dev;
    return Dbench4Workload(d);
  };
  m.evaluate = [](const platform::Params& p, const sim::SimStats& stats) {
    return OpThroughputAndLatency(stats, kDbenchOpMetric,
                                  p.GetInt("bytes_per_op"));
  };
  return m;
}

WorkloadModel Dbench4JournalModel() {
  WorkloadModel m;
  m.name = "dbench4_journal";
  m.description =
      "dbench4 with ext4's or xfs's fsync path (asynchronous IO, as "
      "mmtests runs it): `clients` tasks doing "
      "file operations on cached files (compute) and a Flush (fsync) every "
      "ops_per_flush operations: the client writes its dirty data back and "
      "waits for each device request in turn, then waits for the journal "
      "thread (jbd2) to write the journal and a commit block with a cache "
      "flush. Data and journal share one device queue. Exercises IO-wait "
      "wake-ups (schedutil iowait boost, intel_pstate HWP dynamic boost), "
      "idle exits after IO waits, the frequency of short bursts between "
      "waits and, with many clients, a queue at the device. Assumes ~9 us "
      "per cached op, a Flush every 50 ops writing 3.2 MiB back, a SATA SSD "
      "(450 MB/s, 50 us a request, a 1 ms cache flush); the writeback's "
      "CPU cost is fitted per filesystem (docs/validation.md).";
  m.params = DbenchClientParams();
  std::vector<platform::ParamSpec> journal = {
      {"dirty_bytes_per_op", int64_t{65536},
       "model only: bytes each cached op leaves dirty for the Flush "
       "(assumed: 3.2 MiB per Flush)"},
      {"filesystem", std::string("ext4"),
       "ext4 or xfs: whose fitted writeback cost the Flush pays (the "
       "journal thread stands for jbd2 on ext4 and for the CIL push work "
       "on xfs)"},
      {"writeback_cycles_per_kib", int64_t{0},
       "model only: CPU cycles of the Flush's writeback per KiB written; 0 "
       "= the filesystem's, fitted to its 1-client baseline (ext4 19000, "
       "xfs 10500; docs/validation.md)"},
      {"commit_cycles", int64_t{300000},
       "model only: jbd2's CPU cycles per commit (assumed)"},
      {"journal_bytes", int64_t{16384},
       "model only: journal bytes written per commit (assumed)"},
      {"device_request_us", int64_t{50},
       "model only: the SSD's time per request besides the transfer, us "
       "(assumed)"},
      {"device_mb_s", int64_t{450},
       "model only: the SSD's write rate, MB/s (assumed, SATA III)"},
      {"device_max_request_kib", int64_t{1280},
       "the block queue's max_sectors_kb (Linux default: 1280)"},
      {"device_flush_us", int64_t{1000},
       "model only: median time of the commit block's cache flush, us "
       "(assumed)"},
      {"device_flush_sigma", 0.5,
       "model only: lognormal sigma of the flush time; 0 = constant "
       "(assumed)"},
      WorkCvParam(5.0, "assumed"),
  };
  for (platform::ParamSpec& spec : journal) m.params.push_back(std::move(spec));
  m.metrics = DbenchMetrics();
  m.build = [](const platform::Params& p,
               const topology::Topology&) -> absl::StatusOr<sim::Workload> {
    Dbench4JournalParams d;
    const int64_t clients = p.GetInt("clients");
    if (absl::Status s = CheckCount("dbench4_journal", "clients", clients);
        !s.ok()) {
      return s;
    }
    const double sigma = p.GetDouble("device_flush_sigma");
    if (absl::Status s = CheckDoubleParam("dbench4_journal",
                                          "device_flush_sigma", sigma, 0, 5);
        !s.ok()) {
      return s;
    }
    auto scaled = [&](const char* name, int64_t unit) -> int64_t {
      const int64_t v = p.GetInt(name);
      // Out-of-range values keep their sign and fail the range check.
      return v > (int64_t{1} << 40) || v < -(int64_t{1} << 40) ? v : v * unit;
    };
    d.clients = static_cast<int>(clients);
    d.ops_per_flush = p.GetInt("ops_per_flush");
    d.op_cycles = p.GetInt("op_cycles");
    d.bytes_per_op = p.GetInt("bytes_per_op");
    d.dirty_bytes_per_op = p.GetInt("dirty_bytes_per_op");
    const std::string fs = p.GetString("filesystem");
    if (fs != "ext4" && fs != "xfs") {
      return absl::InvalidArgumentError(absl::StrCat(
          "dbench4_journal: filesystem must be ext4 or xfs, got '", fs, "'"));
    }
    const int64_t writeback = p.GetInt("writeback_cycles_per_kib");
    d.writeback_cycles_per_kib =
        writeback != 0 ? writeback
                       : (fs == "xfs" ? kXfsWritebackCyclesPerKib
                                      : kExt4WritebackCyclesPerKib);
    d.commit_cycles = p.GetInt("commit_cycles");
    d.journal_bytes = p.GetInt("journal_bytes");
    d.device.request_ns = scaled("device_request_us", 1000);
    d.device.bytes_per_us = p.GetInt("device_mb_s");
    d.device.max_request_bytes = scaled("device_max_request_kib", 1024);
    d.flush_median_us = p.GetInt("device_flush_us");
    d.flush_sigma_milli = static_cast<int64_t>(std::llround(sigma * 1000.0));
    return Dbench4JournalWorkload(d);
  };
  m.evaluate = [](const platform::Params& p, const sim::SimStats& stats) {
    return OpThroughputAndLatency(stats, kDbenchOpMetric,
                                  p.GetInt("bytes_per_op"));
  };
  return m;
}

WorkloadModel SqliteInsertModel() {
  WorkloadModel m;
  m.name = "sqlite_insert";
  m.description =
      "SQLite inserts, one transaction each (mmtests db-sqlite-insert): one "
      "task computes the insert and waits for fsyncs_per_insert device "
      "flushes. Exercises iowait wake-ups of a single task (schedutil "
      "iowait boost, HWP dynamic boost: two IO wake-ups within two ticks), "
      "the frequency ramp after each IO wait, and idle exits of the CPU it "
      "sleeps on. Assumes ~57 us of CPU per insert and 3 fsyncs per "
      "transaction (rollback journal, synchronous=FULL) on an SSD-like "
      "device (assumed).";
  m.params = {
      {"fsyncs_per_insert", int64_t{3},
       "model only: device flushes per insert transaction (assumed)"},
      {"insert_cycles", int64_t{200000},
       "model only: CPU cycles per insert (assumed)"},
      WorkCvParam(5.0, "assumed"),
  };
  for (platform::ParamSpec& p : IoDeviceParamSpecs()) {
    m.params.push_back(std::move(p));
  }
  m.metrics = {
      {"inserts_per_s", "inserts/s", true, MeanKind::kHarmonic,
       "insert transactions per second"},
      {"insert_latency_us", "us", false, MeanKind::kArithmetic,
       "mean time per insert"},
  };
  m.build = [](const platform::Params& p,
               const topology::Topology&) -> absl::StatusOr<sim::Workload> {
    SqliteInsertParams s;
    s.fsyncs_per_insert = p.GetInt("fsyncs_per_insert");
    s.insert_cycles = p.GetInt("insert_cycles");
    absl::StatusOr<IoDevice> dev = IoDeviceFromParams("sqlite_insert", p);
    if (!dev.ok()) return dev.status();
    s.device = *dev;
    return SqliteInsertWorkload(s);
  };
  m.evaluate = [](const platform::Params&, const sim::SimStats& stats) {
    return std::vector<MetricValue>{
        {"inserts_per_s",
         PerSecond(static_cast<double>(MetricCount(stats, kSqliteInsertMetric)),
                   stats)},
        {"insert_latency_us",
         MeanUs(MetricLatency(stats, kSqliteInsertMetric))},
    };
  };
  return m;
}

WorkloadModel FsMarkModel() {
  WorkloadModel m;
  m.name = "fs_mark";
  m.description =
      "fs_mark: `threads` tasks each creating files of file_size bytes, "
      "with an fsync before close (sync_method 1). Exercises iowait "
      "wake-ups (iowait boost, HWP dynamic boost), idle exits after IO and "
      "the frequency ramp of short bursts. Assumes 60000 cycles per create "
      "+ close, 1 cycle per byte written to the page cache, and the fsync "
      "taking the device latency plus file_size at 500 MB/s (assumed).";
  m.params = {
      {"threads", int64_t{1}, "writer threads (-t)"},
      {"file_size", int64_t{4096}, "bytes per file (-s)"},
      {"sync_method", int64_t{1},
       "-S: 0 = no sync, 1 = fsync before close; fs_mark's other methods "
       "are not modelled"},
      {"create_cycles", int64_t{60000},
       "model only: cycles per file create + close (assumed)"},
      WorkCvParam(5.0, "assumed"),
  };
  for (platform::ParamSpec& p : IoDeviceParamSpecs()) {
    m.params.push_back(std::move(p));
  }
  m.metrics = {
      {"files_per_s", "files/s", true, MeanKind::kHarmonic,
       "files created per second (fs_mark's Files/sec)"},
  };
  m.build = [](const platform::Params& p,
               const topology::Topology&) -> absl::StatusOr<sim::Workload> {
    FsMarkParams f;
    const int64_t threads = p.GetInt("threads");
    if (absl::Status s = CheckCount("fs_mark", "threads", threads); !s.ok()) {
      return s;
    }
    f.threads = static_cast<int>(threads);
    f.file_size = p.GetInt("file_size");
    f.sync_method = p.GetInt("sync_method");
    f.create_cycles = p.GetInt("create_cycles");
    absl::StatusOr<IoDevice> dev = IoDeviceFromParams("fs_mark", p);
    if (!dev.ok()) return dev.status();
    f.device = *dev;
    return FsMarkWorkload(f);
  };
  m.evaluate = [](const platform::Params&, const sim::SimStats& stats) {
    return std::vector<MetricValue>{
        {"files_per_s",
         PerSecond(static_cast<double>(MetricCount(stats, kFsMarkFileMetric)),
                   stats)},
    };
  };
  return m;
}

SCHEDSIM_REGISTER_WORKLOAD(Dbench4Model());
SCHEDSIM_REGISTER_WORKLOAD(Dbench4JournalModel());
SCHEDSIM_REGISTER_WORKLOAD(SqliteInsertModel());
SCHEDSIM_REGISTER_WORKLOAD(FsMarkModel());

}  // namespace schedsim::workloads
