// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "traces/tracecmd_dat.h"

#include <cstdlib>
#include <deque>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "traces/ftrace.h"

// Leaks of libtracecmd 3.1.6 itself, for LeakSanitizer (--config=asan):
// opening a version 6 file leaks its trace clock's name (a sscanf "%ms"
// string, 6 bytes: "local"), and some of its failure paths for truncated
// files leak what they had read. The stacks stop in glibc's scanf or in
// libtracecmd (both built without frame pointers).
extern "C" const char* __lsan_default_suppressions() {
  return "leak:libtracecmd.so\n"
         "leak:__vfscanf_internal\n";
}

namespace schedsim::traces {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::Pair;

// Test data, relative to the runfiles root (the test's working directory):
// one trace-cmd recording in file versions 7 (zstd) and 6 (uncompressed),
// and its `trace-cmd report -N -t` text (tests/data/README.md).
constexpr char kDatV7[] = "tests/data/tracecmd_vm_sched.dat";
constexpr char kDatV6[] = "tests/data/tracecmd_vm_sched_v6.dat";
constexpr char kReport[] = "tests/data/tracecmd_vm_sched_report.txt";
constexpr char kLisaText[] = "tests/data/lisa_sched_load_trace.txt";

// Copies the strings `e` points to into `*arena` (whose elements do not
// move) and points `e` at the copies.
void Own(TraceEvent* e, std::deque<std::string>* arena) {
  for (absl::string_view* field :
       {&e->event_name, &e->fields, &e->common_comm, &e->prev_comm,
        &e->prev_state, &e->next_comm, &e->comm, &e->child_comm}) {
    arena->emplace_back(*field);
    *field = arena->back();
  }
}

// All events (known and unknown) of a .dat file.
absl::StatusOr<std::vector<TraceEvent>> ReadDat(
    const std::string& path, std::deque<std::string>* arena) {
  absl::StatusOr<std::unique_ptr<TraceCmdReader>> reader =
      TraceCmdReader::Open(path);
  if (!reader.ok()) return reader.status();
  (*reader)->set_return_unknown_events(true);
  std::vector<TraceEvent> events;
  TraceEvent event;
  while (true) {
    absl::StatusOr<bool> more = (*reader)->Next(&event);
    if (!more.ok()) return more.status();
    if (!*more) return events;
    Own(&event, arena);
    events.push_back(event);
  }
}

// All events (known and unknown) of a text file.
absl::StatusOr<std::vector<TraceEvent>> ReadText(
    const std::string& path, std::deque<std::string>* arena) {
  absl::StatusOr<std::unique_ptr<FtraceReader>> reader =
      FtraceReader::Open(path);
  if (!reader.ok()) return reader.status();
  (*reader)->set_return_unknown_events(true);
  std::vector<TraceEvent> events;
  TraceEvent event;
  while (true) {
    absl::StatusOr<bool> more = (*reader)->Next(&event);
    if (!more.ok()) return more.status();
    if (!*more) return events;
    Own(&event, arena);
    events.push_back(event);
  }
}

// Every TraceEvent member, for comparisons and failure messages.
std::string Describe(const TraceEvent& e) {
  return absl::StrCat(
      e.timestamp_ns, " [", e.cpu, "] ", e.event_name,
      " type=", static_cast<int>(e.type), " common=", e.common_comm, "-",
      e.common_pid, "/", e.common_tgid, " prev=", e.prev_comm, ":", e.prev_pid,
      ":", e.prev_prio, ":", e.prev_state, " next=", e.next_comm, ":",
      e.next_pid, ":", e.next_prio, " task=", e.comm, ":", e.pid, ":", e.prio,
      " target=", e.target_cpu, " success=", e.success, " orig=", e.orig_cpu,
      " dest=", e.dest_cpu, " state=", e.state, " cpu_id=", e.cpu_id,
      " child=", e.child_comm, ":", e.child_pid, " fields={", e.fields, "}");
}

std::string ReadFileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in),
                     std::istreambuf_iterator<char>());
}

// Writes `bytes` to a new file in the test's temporary directory.
std::string WriteTemp(const std::string& name, const std::string& bytes) {
  const char* dir = std::getenv("TEST_TMPDIR");
  const std::string path =
      absl::StrCat(dir != nullptr ? dir : "/tmp", "/", name);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
  return path;
}

TEST(TraceCmdReaderTest, OpensBothFileVersions) {
  for (const char* path : {kDatV7, kDatV6}) {
    SCOPED_TRACE(path);
    absl::StatusOr<std::unique_ptr<TraceCmdReader>> reader =
        TraceCmdReader::Open(path);
    ASSERT_TRUE(reader.ok()) << reader.status();
    EXPECT_EQ((*reader)->name(), path);
    EXPECT_EQ((*reader)->header_cpus(), 2);
    EXPECT_EQ((*reader)->last_timestamp_ns(), -1);
  }
  EXPECT_EQ((*TraceCmdReader::Open(kDatV7))->file_version(), 7);
  EXPECT_EQ((*TraceCmdReader::Open(kDatV6))->file_version(), 6);
}

// The .dat reader and the text reader over `trace-cmd report -N -t` of the
// same file agree on every member of every event: fields decoded from the
// binary records equal those parsed from libtraceevent's text, and the
// rendered `fields` equal the report's.
TEST(TraceCmdReaderTest, MatchesTraceCmdReportText) {
  std::deque<std::string> arena;
  absl::StatusOr<std::vector<TraceEvent>> text = ReadText(kReport, &arena);
  ASSERT_TRUE(text.ok()) << text.status();
  ASSERT_EQ(text->size(), 244u);
  for (const char* path : {kDatV7, kDatV6}) {
    SCOPED_TRACE(path);
    absl::StatusOr<std::vector<TraceEvent>> dat = ReadDat(path, &arena);
    ASSERT_TRUE(dat.ok()) << dat.status();
    ASSERT_EQ(dat->size(), text->size());
    for (size_t i = 0; i < dat->size(); ++i) {
      ASSERT_EQ(Describe((*dat)[i]), Describe((*text)[i])) << "event " << i;
    }
  }
}

TEST(TraceCmdReaderTest, CountsAndOrder) {
  absl::StatusOr<std::unique_ptr<TraceCmdReader>> reader =
      TraceCmdReader::Open(kDatV7);
  ASSERT_TRUE(reader.ok()) << reader.status();
  std::map<std::string, int> counts;
  std::map<int, int> per_cpu;
  int64_t last = -1;
  TraceEvent e;
  while (true) {
    absl::StatusOr<bool> more = (*reader)->Next(&e);
    ASSERT_TRUE(more.ok()) << more.status();
    if (!*more) break;
    EXPECT_GE(e.timestamp_ns, last) << Describe(e);
    last = e.timestamp_ns;
    EXPECT_NE(e.type, EventType::kUnknown);
    EXPECT_EQ(e.event_name, EventTypeName(e.type));
    ++counts[std::string(e.event_name)];
    ++per_cpu[e.cpu];
  }
  EXPECT_THAT(
      counts,
      ElementsAre(Pair("cpu_idle", 50), Pair("sched_migrate_task", 5),
                  Pair("sched_process_exit", 9), Pair("sched_process_fork", 9),
                  Pair("sched_switch", 77), Pair("sched_wakeup", 38),
                  Pair("sched_wakeup_new", 9), Pair("sched_waking", 38)));
  EXPECT_THAT(per_cpu, ElementsAre(Pair(0, 203), Pair(1, 32)));
  EXPECT_THAT((*reader)->unknown_events(),
              ElementsAre(Pair("sched_process_exec", 9)));
  EXPECT_EQ((*reader)->records(), 244);
  EXPECT_EQ((*reader)->last_timestamp_ns(), last);
  EXPECT_EQ(last, 5593073243305);
  EXPECT_EQ((*reader)->lost_events(), 0);
  EXPECT_EQ((*reader)->lost_unknown(), 0);
  // Past the end it stays at the end.
  absl::StatusOr<bool> more = (*reader)->Next(&e);
  ASSERT_TRUE(more.ok());
  EXPECT_FALSE(*more);
}

TEST(TraceCmdReaderTest, DecodesFieldsOfEachType) {
  std::deque<std::string> arena;
  absl::StatusOr<std::vector<TraceEvent>> events = ReadDat(kDatV7, &arena);
  ASSERT_TRUE(events.ok()) << events.status();
  auto find = [&](absl::string_view name, int nth) -> const TraceEvent& {
    for (const TraceEvent& e : *events) {
      if (e.event_name == name && nth-- == 0) return e;
    }
    ADD_FAILURE() << "no " << name;
    return events->front();
  };

  // rec.sh-25067 [000] 5593.015322138: sched_process_fork: comm=rec.sh
  // pid=25067 child_comm=rec.sh child_pid=25069
  const TraceEvent& fork = events->front();
  EXPECT_EQ(fork.type, EventType::kSchedProcessFork);
  EXPECT_EQ(fork.timestamp_ns, 5593015322138);
  EXPECT_EQ(fork.cpu, 0);
  EXPECT_EQ(fork.common_comm, "rec.sh");
  EXPECT_EQ(fork.common_pid, 25067);
  EXPECT_EQ(fork.common_tgid, -1);
  EXPECT_EQ(fork.comm, "rec.sh");
  EXPECT_EQ(fork.pid, 25067);
  EXPECT_EQ(fork.child_comm, "rec.sh");
  EXPECT_EQ(fork.child_pid, 25069);
  EXPECT_EQ(fork.fields,
            "comm=rec.sh pid=25067 child_comm=rec.sh child_pid=25069");

  const TraceEvent& wakeup_new = find("sched_wakeup_new", 0);
  EXPECT_EQ(wakeup_new.type, EventType::kSchedWakeupNew);
  EXPECT_EQ(wakeup_new.comm, "rec.sh");
  EXPECT_EQ(wakeup_new.pid, 25069);
  EXPECT_EQ(wakeup_new.prio, 120);
  EXPECT_EQ(wakeup_new.target_cpu, 0);
  EXPECT_EQ(wakeup_new.success, -1);  // not in this kernel's format

  // sh-25070 R+ ==> migration/1:21 [0] on CPU 1, then the migration.
  const TraceEvent& preempt = find("sched_switch", 4);
  EXPECT_EQ(preempt.cpu, 1);
  EXPECT_EQ(preempt.prev_comm, "sh");
  EXPECT_EQ(preempt.prev_pid, 25070);
  EXPECT_EQ(preempt.prev_prio, 120);
  EXPECT_EQ(preempt.prev_state, "R+");
  EXPECT_EQ(preempt.next_comm, "migration/1");
  EXPECT_EQ(preempt.next_pid, 21);
  EXPECT_EQ(preempt.next_prio, 0);
  const TraceEvent& migrate = find("sched_migrate_task", 0);
  EXPECT_EQ(migrate.comm, "sh");
  EXPECT_EQ(migrate.pid, 25070);
  EXPECT_EQ(migrate.orig_cpu, 1);
  EXPECT_EQ(migrate.dest_cpu, 0);

  // The kernel's letters: rcu_preempt sleeps in TASK_IDLE ("I"; trace-cmd's
  // plugin prints "W"), an exited task is "Z" (the plugin: "X").
  std::map<std::string, int> states;
  for (const TraceEvent& e : *events) {
    if (e.type == EventType::kSchedSwitch) ++states[std::string(e.prev_state)];
  }
  EXPECT_THAT(states, ElementsAre(Pair("D", 10), Pair("I", 7), Pair("R", 23),
                                  Pair("R+", 7), Pair("S", 21), Pair("Z", 9)));

  const TraceEvent& idle_enter = find("cpu_idle", 0);
  EXPECT_EQ(idle_enter.common_comm, "<idle>");
  EXPECT_EQ(idle_enter.common_pid, 0);
  EXPECT_EQ(idle_enter.state, 1);
  EXPECT_EQ(idle_enter.idle_state(), 1);
  EXPECT_EQ(idle_enter.cpu_id, 0);
  const TraceEvent& idle_exit = find("cpu_idle", 1);
  EXPECT_EQ(idle_exit.state, kCpuIdleExitState);
  EXPECT_EQ(idle_exit.idle_state(), -1);

  const TraceEvent& exit = find("sched_process_exit", 0);
  EXPECT_EQ(exit.comm, "sleep");
  EXPECT_EQ(exit.pid, 25070);
  EXPECT_EQ(exit.prio, 120);
  EXPECT_EQ(exit.fields, "comm=sleep pid=25070 prio=120 group_dead=true");

  const TraceEvent& exec = find("sched_process_exec", 0);
  EXPECT_EQ(exec.type, EventType::kUnknown);
  EXPECT_EQ(exec.fields, "filename=/usr/bin/sh pid=25069 old_pid=25069");
  EXPECT_EQ(exec.pid, -1);  // unknown events: common fields only
}

TEST(TraceCmdReaderTest, ForEachTraceCmdEventVisitsKnownEvents) {
  int n = 0;
  int64_t first = -1;
  std::map<std::string, int64_t, std::less<>> unknown;
  absl::Status status = ForEachTraceCmdEvent(
      kDatV6,
      [&](const TraceEvent& e) {
        if (first < 0) first = e.timestamp_ns;
        ++n;
        return absl::OkStatus();
      },
      &unknown);
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(n, 235);
  EXPECT_EQ(first, 5593015322138);
  EXPECT_THAT(unknown, ElementsAre(Pair("sched_process_exec", 9)));
}

TEST(TraceCmdReaderTest, ForEachTraceCmdEventStopsAtVisitorError) {
  int n = 0;
  absl::Status status = ForEachTraceCmdEvent(kDatV7, [&](const TraceEvent&) {
    return ++n == 3 ? absl::CancelledError("enough") : absl::OkStatus();
  });
  EXPECT_EQ(status, absl::CancelledError("enough"));
  EXPECT_EQ(n, 3);
}

TEST(ReadTraceFileTest, DetectsTheFormatByMagic) {
  EXPECT_EQ(*DetectTraceFileFormat(kDatV7), TraceFileFormat::kTraceCmdDat);
  EXPECT_EQ(*DetectTraceFileFormat(kDatV6), TraceFileFormat::kTraceCmdDat);
  EXPECT_EQ(*DetectTraceFileFormat(kReport), TraceFileFormat::kFtraceText);
  EXPECT_EQ(*DetectTraceFileFormat(WriteTemp("empty", "")),
            TraceFileFormat::kFtraceText);
  // The magic alone (nothing after it) is a .dat: a truncated one.
  EXPECT_EQ(*DetectTraceFileFormat(
                WriteTemp("magic_only", std::string(kTraceCmdMagic))),
            TraceFileFormat::kTraceCmdDat);
  EXPECT_EQ(*DetectTraceFileFormat(WriteTemp(
                "short_magic", std::string(kTraceCmdMagic.substr(0, 9)))),
            TraceFileFormat::kFtraceText);
  absl::StatusOr<TraceFileFormat> missing =
      DetectTraceFileFormat("no/such/trace.dat");
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(missing.status().message(), HasSubstr("no/such/trace.dat"));
}

// ReadTraceFile gives what the format's own reader gives.
TEST(ReadTraceFileTest, DispatchesToTheRightReader) {
  struct Case {
    const char* path;
    int known_events;
  };
  for (const Case& c : {Case{kDatV7, 235}, Case{kDatV6, 235},
                        Case{kReport, 235}, Case{kLisaText, 917}}) {
    SCOPED_TRACE(c.path);
    std::vector<std::string> via_dispatch;
    absl::Status status = ReadTraceFile(c.path, [&](const TraceEvent& e) {
      via_dispatch.push_back(Describe(e));
      return absl::OkStatus();
    });
    ASSERT_TRUE(status.ok()) << status;
    EXPECT_EQ(via_dispatch.size(), static_cast<size_t>(c.known_events));

    std::vector<std::string> direct;
    auto collect = [&](const TraceEvent& e) {
      direct.push_back(Describe(e));
      return absl::OkStatus();
    };
    status = *DetectTraceFileFormat(c.path) == TraceFileFormat::kTraceCmdDat
                 ? ForEachTraceCmdEvent(c.path, collect)
                 : ForEachFtraceEvent(c.path, collect);
    ASSERT_TRUE(status.ok()) << status;
    EXPECT_EQ(via_dispatch, direct);
  }
  // The report text and the .dat: the same events.
  std::vector<std::string> dat;
  std::vector<std::string> text;
  ASSERT_TRUE(ReadTraceFile(kDatV7, [&](const TraceEvent& e) {
                dat.push_back(Describe(e));
                return absl::OkStatus();
              }).ok());
  ASSERT_TRUE(ReadTraceFile(kReport, [&](const TraceEvent& e) {
                text.push_back(Describe(e));
                return absl::OkStatus();
              }).ok());
  EXPECT_EQ(dat, text);
}

TEST(ReadTraceFileTest, MissingFile) {
  absl::Status status = ReadTraceFile(
      "no/such/trace.dat", [](const TraceEvent&) { return absl::OkStatus(); });
  EXPECT_EQ(status.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(status.message(), HasSubstr("no/such/trace.dat"));

  absl::StatusOr<std::unique_ptr<TraceCmdReader>> reader =
      TraceCmdReader::Open("no/such/trace.dat");
  EXPECT_EQ(reader.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(reader.status().message(), HasSubstr("no/such/trace.dat"));
}

TEST(TraceCmdReaderTest, NotATraceCmdFile) {
  for (const std::string& path :
       {std::string(kReport), WriteTemp("empty.dat", ""),
        WriteTemp("elf.dat",
                  "\x7f"
                  "ELF\x02\x01\x01")}) {
    SCOPED_TRACE(path);
    absl::StatusOr<std::unique_ptr<TraceCmdReader>> reader =
        TraceCmdReader::Open(path);
    EXPECT_EQ(reader.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(reader.status().message(), HasSubstr(path));
    EXPECT_THAT(reader.status().message(),
                HasSubstr("not a trace-cmd .dat file"));
  }
}

// A file cut in its headers fails to open with DataLoss naming the file.
// Version 6 files keep their CPU data at the end, after a header that gives
// each CPU's data size: cut there, they fail too (libtracecmd checks the
// sizes against the file's).
TEST(TraceCmdReaderTest, TruncatedFiles) {
  struct Case {
    const char* path;
    size_t size;
    const char* message;
  };
  for (const Case& c : {
           Case{kDatV7, 12, "cannot read the trace-cmd headers"},
           Case{kDatV7, 40, "cannot read the trace-cmd headers"},
           Case{kDatV7, 1000, "cannot read the trace-cmd headers"},
           Case{kDatV7, 12000, "cannot read the trace-cmd headers"},
           Case{kDatV6, 12, "cannot read the trace-cmd headers"},
           Case{kDatV6, 5000, "cannot read the trace-cmd headers"},
           Case{kDatV6, 44000, "cannot read the trace-cmd headers"},
           Case{kDatV6, 50000, "cannot read the trace data"},
           Case{kDatV6, 61439, "cannot read the trace data"},
       }) {
    SCOPED_TRACE(absl::StrCat(c.path, " cut at ", c.size));
    const std::string bytes = ReadFileBytes(c.path);
    ASSERT_GT(bytes.size(), c.size);
    const std::string cut = WriteTemp(absl::StrCat("cut_", c.size, ".dat"),
                                      bytes.substr(0, c.size));
    // Issue 49 #16: libtracecmd printed its own warnings on stderr; the
    // one message is the Status, naming the file.
    ::testing::internal::CaptureStderr();
    absl::StatusOr<std::unique_ptr<TraceCmdReader>> reader =
        TraceCmdReader::Open(cut);
    EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
    EXPECT_EQ(reader.status().code(), absl::StatusCode::kDataLoss);
    EXPECT_THAT(reader.status().message(), HasSubstr(cut));
    EXPECT_THAT(reader.status().message(), HasSubstr(c.message));
    // Issue 49 #16: "an unsupported file version 6" of a supported one.
    EXPECT_THAT(reader.status().message(), Not(HasSubstr("unsupported")));
    absl::Status status =
        ReadTraceFile(cut, [](const TraceEvent&) { return absl::OkStatus(); });
    EXPECT_EQ(status, reader.status());
  }
}

// Cut every 211 bytes: never a crash (the asan config runs this too), and
// either an error naming the file or all the events (a version 7 file's
// last bytes, CPU statistics, are not needed to read the events).
TEST(TraceCmdReaderTest, TruncatedAnywhereIsAnError) {
  std::deque<std::string> arena;
  absl::StatusOr<std::vector<TraceEvent>> full = ReadDat(kDatV7, &arena);
  ASSERT_TRUE(full.ok()) << full.status();
  for (const char* path : {kDatV7, kDatV6}) {
    const std::string bytes = ReadFileBytes(path);
    int errors = 0;
    for (size_t size = 0; size < bytes.size(); size += 211) {
      SCOPED_TRACE(absl::StrCat(path, " cut at ", size));
      const std::string cut = WriteTemp("cut.dat", bytes.substr(0, size));
      absl::StatusOr<std::vector<TraceEvent>> events = ReadDat(cut, &arena);
      if (!events.ok()) {
        ++errors;
        EXPECT_EQ(events.status().code(),
                  size < kTraceCmdMagic.size()
                      ? absl::StatusCode::kInvalidArgument
                      : absl::StatusCode::kDataLoss);
        EXPECT_THAT(events.status().message(), HasSubstr(cut));
        continue;
      }
      EXPECT_GT(size, bytes.size() - 200);
      ASSERT_EQ(events->size(), full->size());
      for (size_t i = 0; i < events->size(); ++i) {
        ASSERT_EQ(Describe((*events)[i]), Describe((*full)[i]));
      }
    }
    EXPECT_GE(errors, static_cast<int>(bytes.size() / 211));
  }
}

}  // namespace
}  // namespace schedsim::traces
