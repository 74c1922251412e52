// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "platform/linux/tracefs_record.h"

#include <time.h>

#include <algorithm>
#include <fstream>
#include <utility>

#include "absl/strings/str_cat.h"
#include "platform/linux/linux_sysfs.h"
#include "platform/linux/stop_signals.h"

namespace schedsim::platform::host {
namespace {

void SleepUnlessStopped(int64_t duration_ns) {
  ScopedStopSignals signals;
  struct timespec start;
  clock_gettime(CLOCK_MONOTONIC, &start);
  const int64_t start_ns = int64_t{start.tv_sec} * 1000000000 + start.tv_nsec;
  while (!ScopedStopSignals::StopRequested()) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    const int64_t left = start_ns + duration_ns -
                         (int64_t{now.tv_sec} * 1000000000 + now.tv_nsec);
    if (left <= 0) break;
    const int64_t step = std::min<int64_t>(left, 100000000);
    struct timespec ts = {static_cast<time_t>(step / 1000000000),
                          static_cast<long>(step % 1000000000)};
    nanosleep(&ts, nullptr);
  }
}

}  // namespace

std::vector<std::string> ShadowLiveEvents(bool cpuidle) {
  if (cpuidle) {
    return {"power/cpu_idle", "sched/sched_switch", "sched/sched_wakeup"};
  }
  return {"sched/sched_switch", "sched/sched_waking", "sched/sched_wakeup",
          "sched/sched_wakeup_new"};
}

absl::Status RecordTracefs(const TracefsRecordOptions& options) {
  const LinuxSysfs fs(options.root);
  if (!fs.Exists("trace") || !fs.Exists("tracing_on")) {
    return absl::NotFoundError(absl::StrCat(
        "no tracefs at ", options.root,
        " (mount -t tracefs nodev /sys/kernel/tracing; reading it needs "
        "root)"));
  }
  // What is put back afterwards.
  std::vector<std::pair<std::string, std::string>> saved;
  auto save = [&](const std::string& rel) -> absl::Status {
    absl::StatusOr<std::string> v = fs.Read(rel);
    if (!v.ok()) return v.status();
    saved.emplace_back(rel, *v);
    return absl::OkStatus();
  };
  auto restore = [&]() {
    for (auto it = saved.rbegin(); it != saved.rend(); ++it) {
      (void)fs.Write(it->first, it->second);
    }
  };
  absl::Status s = save("tracing_on");
  for (const std::string& e : options.events) {
    if (!s.ok()) break;
    const std::string rel = absl::StrCat("events/", e, "/enable");
    if (!fs.Exists(rel)) {
      s = absl::NotFoundError(absl::StrCat("the kernel has no trace event ", e,
                                           " (", fs.Path(rel), ")"));
      break;
    }
    s = save(rel);
  }
  if (s.ok() && options.buffer_kb > 0) s = save("buffer_size_kb");
  auto run = [&]() -> absl::Status {
    absl::Status w = fs.Write("tracing_on", "0");
    if (!w.ok()) return w;
    if (options.buffer_kb > 0) {
      w = fs.Write("buffer_size_kb", absl::StrCat(options.buffer_kb));
      if (!w.ok()) return w;
    }
    w = fs.WriteRaw("trace", "");  // opening it truncated clears the buffer
    if (!w.ok()) return w;
    for (const std::string& e : options.events) {
      w = fs.Write(absl::StrCat("events/", e, "/enable"), "1");
      if (!w.ok()) return w;
    }
    w = fs.Write("tracing_on", "1");
    if (!w.ok()) return w;
    if (options.wait) {
      options.wait(options.duration_ns);
    } else {
      SleepUnlessStopped(options.duration_ns);
    }
    w = fs.Write("tracing_on", "0");
    if (!w.ok()) return w;
    std::ifstream in(fs.Path("trace"), std::ios::binary);
    std::ofstream out(options.out_file, std::ios::binary | std::ios::trunc);
    if (!in) {
      return absl::PermissionDeniedError(
          absl::StrCat("cannot read ", fs.Path("trace")));
    }
    if (!out) {
      return absl::PermissionDeniedError(
          absl::StrCat("cannot write ", options.out_file));
    }
    // Copied in chunks (`out << in.rdbuf()` fails on an empty buffer).
    char chunk[1 << 16];
    while (in.read(chunk, sizeof(chunk)) || in.gcount() > 0) {
      out.write(chunk, in.gcount());
    }
    out.flush();
    if (!out) {
      return absl::InternalError(
          absl::StrCat("writing ", options.out_file, " failed"));
    }
    return absl::OkStatus();
  };
  if (s.ok()) s = run();
  restore();
  return s;
}

}  // namespace schedsim::platform::host
