// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "traces/ftrace.h"

#include <deque>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace schedsim::traces {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;

// Test data, relative to the runfiles root of workspace "schedsim" (the
// test's working directory).
constexpr char kLisa[] = "tests/data/lisa_sched_load_trace.txt";
constexpr char kSurfaceflinger[] =
    "tests/data/trappy_trace_surfaceflinger_ftrace.txt";

constexpr int64_t kMs = 1000000;
constexpr int64_t kUs = 1000;

// Copies the strings `e` points to into `*arena` (whose elements do not
// move) and points `e` at the copies: the reader's views last only until
// its next line.
void Own(TraceEvent* e, std::deque<std::string>* arena) {
  for (absl::string_view* field :
       {&e->event_name, &e->fields, &e->common_comm, &e->prev_comm,
        &e->prev_state, &e->next_comm, &e->comm, &e->child_comm}) {
    arena->emplace_back(*field);
    *field = arena->back();
  }
}

// Reads all known events of `text`.
absl::StatusOr<std::vector<TraceEvent>> ReadAll(
    const std::string& text, std::istringstream* in,
    std::deque<std::string>* arena) {
  in->str(text);
  FtraceReader reader(in, "test.txt");
  std::vector<TraceEvent> events;
  TraceEvent event;
  while (true) {
    absl::StatusOr<bool> more = reader.Next(&event);
    if (!more.ok()) return more.status();
    if (!*more) return events;
    Own(&event, arena);
    events.push_back(event);
  }
}

// The error of reading `text` (OkStatus if it reads without one).
absl::Status ReadError(const std::string& text) {
  std::istringstream in;
  std::deque<std::string> arena;
  return ReadAll(text, &in, &arena).status();
}

TEST(FtraceReaderTest, LisaTraceCmdReportCounts) {
  absl::StatusOr<TraceSummary> s = Summarize(kLisa);
  ASSERT_TRUE(s.ok()) << s.status();
  // The counts of tests/data/README.md, found exactly.
  EXPECT_EQ(s->count(EventType::kSchedSwitch), 399);
  EXPECT_EQ(s->count(EventType::kCpuIdle), 474);
  EXPECT_EQ(s->count(EventType::kSchedMigrateTask), 28);
  EXPECT_EQ(s->count(EventType::kCpuFrequency), 16);
  EXPECT_EQ(s->count(EventType::kSchedWakeup), 0);
  EXPECT_EQ(s->count(EventType::kSchedWakeupNew), 0);
  EXPECT_EQ(s->count(EventType::kSchedWaking), 0);
  EXPECT_EQ(s->count(EventType::kSchedProcessFork), 0);
  EXPECT_EQ(s->count(EventType::kSchedProcessExit), 0);
  EXPECT_THAT(s->unknown_counts,
              ElementsAre(Pair("print", 6), Pair("sched_load_cfs_rq", 2437),
                          Pair("sched_load_se", 364)));
  EXPECT_EQ(s->count(EventType::kUnknown), 2807);
  EXPECT_EQ(s->total_events, 3724);  // 3725 lines less "cpus=6"
  EXPECT_THAT(s->cpus, ElementsAre(0, 1, 2, 3, 4, 5));
  EXPECT_EQ(s->header_cpus, 6);
  EXPECT_EQ(s->first_timestamp_ns, 2084021443000);
  EXPECT_EQ(s->last_timestamp_ns, 2084449525000);
  EXPECT_EQ(s->span_ns(), 428082000);
}

TEST(FtraceReaderTest, SurfaceflingerSystraceCounts) {
  absl::StatusOr<TraceSummary> s = Summarize(kSurfaceflinger);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->count(EventType::kSchedSwitch), 715);
  EXPECT_EQ(s->count(EventType::kCpuIdle), 621);
  EXPECT_EQ(s->count(EventType::kSchedWakeup), 421);
  EXPECT_EQ(s->count(EventType::kCpuFrequency), 104);
  EXPECT_EQ(s->count(EventType::kSchedMigrateTask), 0);
  EXPECT_EQ(s->count(EventType::kSchedWakeupNew), 0);
  EXPECT_EQ(s->count(EventType::kSchedWaking), 0);
  EXPECT_THAT(
      s->unknown_counts,
      ElementsAre(Pair("clock_set_rate", 88), Pair("sched_blocked_reason", 31),
                  Pair("sugov_set_iowait_boost", 366),
                  Pair("tracing_mark_write", 160)));
  EXPECT_EQ(s->total_events, 2506);  // 2517 lines less 11 '#' header lines
  EXPECT_THAT(s->cpus, ElementsAre(0, 1, 2, 3, 4, 5, 6, 7));
  EXPECT_EQ(s->header_cpus, 8);  // "#P:8"
  EXPECT_EQ(s->first_timestamp_ns, 538064659000);
  EXPECT_EQ(s->last_timestamp_ns, 538802729000);
}

TEST(FtraceReaderTest, LisaFirstEventsFieldByField) {
  absl::StatusOr<std::unique_ptr<FtraceReader>> reader =
      FtraceReader::Open(kLisa);
  ASSERT_TRUE(reader.ok()) << reader.status();
  TraceEvent e;
  // Line 2:
  //   <idle>-0     [002]  2084.021443: cpu_idle:   state=4294967295 cpu_id=2
  ASSERT_TRUE(*(*reader)->Next(&e));
  EXPECT_EQ((*reader)->line_number(), 2);
  EXPECT_EQ(e.type, EventType::kCpuIdle);
  EXPECT_EQ(e.event_name, "cpu_idle");
  EXPECT_EQ(e.timestamp_ns, 2084021443000);
  EXPECT_EQ(e.cpu, 2);
  EXPECT_EQ(e.common_comm, "<idle>");
  EXPECT_EQ(e.common_pid, 0);
  EXPECT_EQ(e.common_tgid, -1);
  EXPECT_EQ(e.state, kCpuIdleExitState);
  EXPECT_EQ(e.idle_state(), -1);
  EXPECT_EQ(e.cpu_id, 2);
  // Line 36 (the 33 sched_load_* lines between are skipped):
  //   <idle>-0 [002] 2084.021659: sched_switch:
  //       swapper/2:0 [120] R ==> kworker/2:1:2923 [120]
  ASSERT_TRUE(*(*reader)->Next(&e));
  EXPECT_EQ((*reader)->line_number(), 36);
  EXPECT_EQ(e.type, EventType::kSchedSwitch);
  EXPECT_EQ(e.timestamp_ns, 2084021659000);
  EXPECT_EQ(e.prev_comm, "swapper/2");
  EXPECT_EQ(e.prev_pid, 0);
  EXPECT_EQ(e.prev_prio, 120);
  EXPECT_EQ(e.prev_state, "R");
  EXPECT_EQ(e.next_comm, "kworker/2:1");
  EXPECT_EQ(e.next_pid, 2923);
  EXPECT_EQ(e.next_prio, 120);
  EXPECT_EQ((*reader)->unknown_events().at("sched_load_cfs_rq"), 29);
  EXPECT_EQ((*reader)->unknown_events().at("sched_load_se"), 4);
}

TEST(FtraceReaderTest, LisaCommsWithSpacesAndMigrations) {
  // rs:main Q:Reg-1593  [003]  2084.228252: sched_switch:
  //     rs:main Q:Reg:1593 [120] S ==> systemd-journal:1478 [120]
  // sshd-2928  [005]  2084.200966: sched_migrate_task:
  //     comm=kworker/u12:4 pid=310 prio=120 orig_cpu=0 dest_cpu=5
  // sugov:0-1842  [003]  2084.143680: cpu_frequency: state=850000 cpu_id=0
  bool saw_switch = false;
  bool saw_migrate = false;
  bool saw_frequency = false;
  absl::Status status = ForEachFtraceEvent(kLisa, [&](const TraceEvent& e) {
    if (e.type == EventType::kSchedSwitch && e.timestamp_ns == 2084228252000) {
      saw_switch = true;
      EXPECT_EQ(e.common_comm, "rs:main Q:Reg");
      EXPECT_EQ(e.common_pid, 1593);
      EXPECT_EQ(e.prev_comm, "rs:main Q:Reg");
      EXPECT_EQ(e.prev_pid, 1593);
      EXPECT_EQ(e.prev_state, "S");
      EXPECT_EQ(e.next_comm, "systemd-journal");
      EXPECT_EQ(e.next_pid, 1478);
    }
    if (e.type == EventType::kSchedMigrateTask &&
        e.timestamp_ns == 2084200966000) {
      saw_migrate = true;
      EXPECT_EQ(e.cpu, 5);
      EXPECT_EQ(e.comm, "kworker/u12:4");
      EXPECT_EQ(e.pid, 310);
      EXPECT_EQ(e.prio, 120);
      EXPECT_EQ(e.orig_cpu, 0);
      EXPECT_EQ(e.dest_cpu, 5);
    }
    if (e.type == EventType::kCpuFrequency && !saw_frequency) {
      saw_frequency = true;
      EXPECT_EQ(e.timestamp_ns, 2084143680000);
      EXPECT_EQ(e.common_comm, "sugov:0");
      EXPECT_EQ(e.cpu, 3);
      EXPECT_EQ(e.frequency_khz(), 850000);
      EXPECT_EQ(e.cpu_id, 0);
    }
    return absl::OkStatus();
  });
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_TRUE(saw_switch);
  EXPECT_TRUE(saw_migrate);
  EXPECT_TRUE(saw_frequency);
}

TEST(FtraceReaderTest, SurfaceflingerFirstEventsFieldByField) {
  absl::StatusOr<std::unique_ptr<FtraceReader>> reader =
      FtraceReader::Open(kSurfaceflinger);
  ASSERT_TRUE(reader.ok()) << reader.status();
  TraceEvent e;
  // Line 12:
  // kworker/u17:1-959   (  959) [006] d..3   538.064659: sched_switch:
  //   prev_comm=kworker/u17:1 prev_pid=959 prev_prio=100 prev_state=S ==>
  //   next_comm=swapper/6 next_pid=0 next_prio=120
  ASSERT_TRUE(*(*reader)->Next(&e));
  EXPECT_EQ((*reader)->line_number(), 12);
  EXPECT_EQ(e.type, EventType::kSchedSwitch);
  EXPECT_EQ(e.timestamp_ns, 538064659000);
  EXPECT_EQ(e.cpu, 6);
  EXPECT_EQ(e.common_comm, "kworker/u17:1");
  EXPECT_EQ(e.common_pid, 959);
  EXPECT_EQ(e.common_tgid, 959);
  EXPECT_EQ(e.prev_comm, "kworker/u17:1");
  EXPECT_EQ(e.prev_pid, 959);
  EXPECT_EQ(e.prev_prio, 100);
  EXPECT_EQ(e.prev_state, "S");
  EXPECT_EQ(e.next_comm, "swapper/6");
  EXPECT_EQ(e.next_pid, 0);
  EXPECT_EQ(e.next_prio, 120);
  // Line 13: <idle>-0 (-----) [006] d..2 538.064674: cpu_idle: state=2
  //          cpu_id=6
  ASSERT_TRUE(*(*reader)->Next(&e));
  EXPECT_EQ(e.type, EventType::kCpuIdle);
  EXPECT_EQ(e.common_tgid, -1);
  EXPECT_EQ(e.idle_state(), 2);
  EXPECT_EQ(e.cpu_id, 6);
  // Lines 14-16 (tracing_mark_write, sugov_set_iowait_boost) are skipped.
  // Line 17: <7952>-7952 (-----) [000] dn.4 538.064912: sched_wakeup:
  //          comm=kworker/u16:11 pid=682 prio=120 target_cpu=000
  ASSERT_TRUE(*(*reader)->Next(&e));
  EXPECT_EQ((*reader)->line_number(), 17);
  EXPECT_EQ(e.type, EventType::kSchedWakeup);
  EXPECT_EQ(e.common_comm, "<7952>");
  EXPECT_EQ(e.common_pid, 7952);
  EXPECT_EQ(e.comm, "kworker/u16:11");
  EXPECT_EQ(e.pid, 682);
  EXPECT_EQ(e.prio, 120);
  EXPECT_EQ(e.target_cpu, 0);
  EXPECT_EQ(e.success, -1);
}

TEST(FtraceReaderTest, SurfaceflingerCommsWithSpaces) {
  // Jit thread pool-7464  (-----) [005] d..3   538.740987: sched_switch:
  //   prev_comm=Jit thread pool prev_pid=7464 prev_prio=129 prev_state=S ==>
  //   next_comm=swapper/5 next_pid=0 next_prio=120
  // <7950>-7950  (-----) [004] dn.4   538.066946: sched_wakeup:
  //   comm=shell srvc 7950 pid=7951 prio=120 target_cpu=004
  int found = 0;
  absl::Status status =
      ForEachFtraceEvent(kSurfaceflinger, [&](const TraceEvent& e) {
        if (e.timestamp_ns == 538740987000) {
          ++found;
          EXPECT_EQ(e.common_comm, "Jit thread pool");
          EXPECT_EQ(e.prev_comm, "Jit thread pool");
          EXPECT_EQ(e.prev_pid, 7464);
          EXPECT_EQ(e.prev_prio, 129);
          EXPECT_EQ(e.next_comm, "swapper/5");
        }
        if (e.timestamp_ns == 538066946000) {
          ++found;
          EXPECT_EQ(e.comm, "shell srvc 7950");
          EXPECT_EQ(e.pid, 7951);
          EXPECT_EQ(e.target_cpu, 4);
        }
        return absl::OkStatus();
      });
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(found, 2);
}

// Hand count, lisa, CPU 1: its first cpu_idle lines (file line numbers):
//   198: <idle>-0 [001] 2084.181338: cpu_idle: state=4294967295 cpu_id=1
//   230: <idle>-0 [001] 2084.181686: cpu_idle: state=0 cpu_id=1
//   231: <idle>-0 [001] 2084.193337: cpu_idle: state=4294967295 cpu_id=1
//   234: <idle>-0 [001] 2084.193389: cpu_idle: state=0 cpu_id=1
//   286: <idle>-0 [001] 2084.201333: cpu_idle: state=4294967295 cpu_id=1
//   348: <idle>-0 [001] 2084.201709: cpu_idle: state=0 cpu_id=1
// Line 198 is CPU 1's first cpu_idle event and an exit: the CPU was idle, in
// an unknown state, from the trace's first event (2084.021443) on.
TEST(FtraceSummaryTest, LisaCpu1IdleResidencyMatchesHandCount) {
  const int64_t t198 = 2084181338 * kUs, t230 = 2084181686 * kUs,
                t231 = 2084193337 * kUs, t234 = 2084193389 * kUs,
                t286 = 2084201333 * kUs, t348 = 2084201709 * kUs;
  const int64_t trace_first = 2084021443 * kUs;

  // Window [line 198, line 348): two complete periods in state 0.
  absl::StatusOr<TraceSummary> s = Summarize(kLisa, {t198, t348});
  ASSERT_TRUE(s.ok()) << s.status();
  ASSERT_GT(s->idle.size(), 1u);
  const CpuIdleResidency& cpu1 = s->idle[1];
  const int64_t hand = (t231 - t230) + (t286 - t234);
  EXPECT_EQ(hand, 19595 * kUs);
  ASSERT_EQ(cpu1.state_ns.size(), 1u);
  EXPECT_EQ(cpu1.state_ns[0], hand);
  EXPECT_EQ(cpu1.total_idle_ns, hand);
  EXPECT_EQ(cpu1.periods, 2);
  EXPECT_EQ(cpu1.leading_unknown_ns, 0);  // before the window

  // A window that cuts both periods: [2084.185000, 2084.200000).
  const int64_t b = 2084185000 * kUs, e = 2084200000 * kUs;
  s = Summarize(kLisa, {b, e});
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->idle[1].state_ns[0], (t231 - b) + (e - t234));
  EXPECT_EQ(s->idle[1].total_idle_ns, 14948 * kUs);

  // A window from the trace start to line 230: only the leading period of
  // unknown state.
  s = Summarize(kLisa, {trace_first, t230});
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->idle[1].total_idle_ns, 0);
  EXPECT_EQ(s->idle[1].leading_unknown_ns, t198 - trace_first);
  // Events in that window: only its events are counted.
  EXPECT_EQ(s->first_timestamp_ns, trace_first);
  EXPECT_LT(s->last_timestamp_ns, t230);
  EXPECT_LT(s->total_events, 3724);
}

// Hand count, surfaceflinger, CPU 3 (its first cpu_idle lines):
//   1125: [003] .n.2 538.669088: cpu_idle: state=4294967295 cpu_id=3
//   1135: [003] d..2 538.669612: cpu_idle: state=2 cpu_id=3
//   1337: [003] .n.2 538.743316: cpu_idle: state=4294967295 cpu_id=3
//   1361: [003] d..2 538.743688: cpu_idle: state=2 cpu_id=3
//   1653: [003] ...2 538.760243: cpu_idle: state=4294967295 cpu_id=3
//   1654: [003] d..2 538.760269: cpu_idle: state=0 cpu_id=3
//   1769: [003] ...2 538.763568: cpu_idle: state=4294967295 cpu_id=3
TEST(FtraceSummaryTest, SurfaceflingerCpu3IdleResidencyMatchesHandCount) {
  const int64_t t1125 = 538669088 * kUs, t1135 = 538669612 * kUs,
                t1337 = 538743316 * kUs, t1361 = 538743688 * kUs,
                t1653 = 538760243 * kUs, t1654 = 538760269 * kUs,
                t1769 = 538763568 * kUs;
  absl::StatusOr<TraceSummary> s =
      Summarize(kSurfaceflinger, {t1125, t1769 + 1});
  ASSERT_TRUE(s.ok()) << s.status();
  const CpuIdleResidency& cpu3 = s->idle[3];
  ASSERT_EQ(cpu3.state_ns.size(), 3u);
  EXPECT_EQ(cpu3.state_ns[0], t1769 - t1654);
  EXPECT_EQ(cpu3.state_ns[1], 0);
  EXPECT_EQ(cpu3.state_ns[2], (t1337 - t1135) + (t1653 - t1361));
  EXPECT_EQ(cpu3.state_ns[2], (73704 + 16555) * kUs);
  EXPECT_EQ(cpu3.total_idle_ns, (73704 + 16555 + 3299) * kUs);
  EXPECT_EQ(cpu3.periods, 3);
}

// Whole-trace residency per CPU and state, cross-checked against an
// independent awk script over the same files (same rules: periods from
// enter to exit; a first exit on a CPU is leading, unknown state; an open
// period is cut at the trace's last event).
TEST(FtraceSummaryTest, WholeTraceResidencyMatchesIndependentCount) {
  absl::StatusOr<TraceSummary> lisa = Summarize(kLisa);
  ASSERT_TRUE(lisa.ok()) << lisa.status();
  ASSERT_EQ(lisa->idle.size(), 6u);
  EXPECT_THAT(lisa->idle[0].state_ns,
              ElementsAre(45192 * kUs, 44502 * kUs, 322822 * kUs));
  EXPECT_THAT(lisa->idle[1].state_ns, ElementsAre(262704 * kUs));
  EXPECT_THAT(lisa->idle[2].state_ns,
              ElementsAre(11745 * kUs, 39277 * kUs, 360553 * kUs));
  EXPECT_THAT(lisa->idle[3].state_ns,
              ElementsAre(15602 * kUs, 90046 * kUs, 298880 * kUs));
  EXPECT_THAT(lisa->idle[4].state_ns,
              ElementsAre(4503 * kUs, 202088 * kUs, 31607 * kUs));
  EXPECT_THAT(lisa->idle[5].state_ns,
              ElementsAre(37187 * kUs, 202726 * kUs, 3916 * kUs));
  EXPECT_EQ(lisa->idle[1].leading_unknown_ns, 159895 * kUs);
  EXPECT_EQ(lisa->idle[4].leading_unknown_ns, 181877 * kUs);
  for (const CpuIdleResidency& r : lisa->idle) {
    EXPECT_TRUE(r.open_at_end);  // every CPU ends the trace idle
    EXPECT_LE(r.total_idle_ns + r.leading_unknown_ns, lisa->span_ns());
  }

  absl::StatusOr<TraceSummary> sf = Summarize(kSurfaceflinger);
  ASSERT_TRUE(sf.ok()) << sf.status();
  ASSERT_EQ(sf->idle.size(), 8u);
  // State 1 is never entered on this phone: only 0 (WFI) and 2.
  EXPECT_THAT(sf->idle[0].state_ns, ElementsAre(30624 * kUs, 0, 659744 * kUs));
  EXPECT_THAT(sf->idle[2].state_ns, ElementsAre(41622 * kUs, 0, 85742 * kUs));
  EXPECT_THAT(sf->idle[7].state_ns, ElementsAre(43168 * kUs, 0, 689085 * kUs));
  EXPECT_EQ(sf->idle[2].leading_unknown_ns, 603220 * kUs);
  EXPECT_EQ(sf->idle[3].leading_unknown_ns, 604429 * kUs);
  EXPECT_EQ(sf->idle[0].leading_unknown_ns, 0);  // starts with an enter
  EXPECT_EQ(sf->idle[6].leading_unknown_ns, 0);
  EXPECT_FALSE(sf->idle[1].open_at_end);
  EXPECT_TRUE(sf->idle[0].open_at_end);
}

TEST(FtraceSummaryTest, IdleRulesOnSyntheticTrace) {
  // CPU 0: enter 1 at 1.000, enter 2 at 1.003 (no exit between: the first
  // period ends there), exit at 1.010. CPU 1: exit at 1.002 with no enter
  // (leading), enter 0 at 1.004, still idle at the last event (1.020).
  const std::string text =
      "# tracer: nop\n"
      "<idle>-0 [000] 1.000000: cpu_idle: state=1 cpu_id=0\n"
      "<idle>-0 [001] 1.002000: cpu_idle: state=4294967295 cpu_id=1\n"
      "<idle>-0 [000] 1.003000: cpu_idle: state=2 cpu_id=0\n"
      "<idle>-0 [001] 1.004000: cpu_idle: state=0 cpu_id=1\n"
      "<idle>-0 [000] 1.010000: cpu_idle: state=4294967295 cpu_id=0\n"
      "bash-7 [000] 1.020000: some_event: x=1\n";
  std::istringstream in(text);
  FtraceReader reader(&in, "synthetic.txt");
  absl::StatusOr<TraceSummary> s = Summarize(&reader, TimeWindow());
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_THAT(s->idle[0].state_ns, ElementsAre(0, 3 * kMs, 7 * kMs));
  EXPECT_EQ(s->idle[0].periods, 2);
  EXPECT_FALSE(s->idle[0].open_at_end);
  EXPECT_THAT(s->idle[1].state_ns, ElementsAre(16 * kMs));
  EXPECT_EQ(s->idle[1].leading_unknown_ns, 2 * kMs);
  EXPECT_TRUE(s->idle[1].open_at_end);
  EXPECT_EQ(s->total_events, 6);
  EXPECT_EQ(s->span_ns(), 20 * kMs);
  EXPECT_EQ(s->header_cpus, -1);
}

TEST(FtraceReaderTest, AllKnownEventsAndFormats) {
  const std::string text =
      "cpus=4\r\n"
      "version = 6\n"
      "\n"
      "CPU 3 is empty\n"
      // tracefs with a 5-character flags column and ns timestamps.
      "  bash-100   [001] d..2. 5.000000001: sched_waking: comm=cat pid=200 "
      "prio=120 target_cpu=002\r\n"
      "  bash-100   [001] d..2. 5.000000002: sched_wakeup: comm=cat pid=200 "
      "prio=120 success=1 target_cpu=002\n"
      "CPU:2 [LOST 17 EVENTS]\n"
      // trace-cmd's pretty-printed wakeups.
      "  bash-100   [001]  5.1: sched_wakeup_new: my task:201 [120] "
      "success=1 CPU:003\n"
      "  bash-100   [001]  5.2: sched_wakeup: cat:200 [120] CPU:002\n"
      "  bash-100   [001]  5.3: sched_process_fork: comm=bash pid=100 "
      "child_comm=bash child_pid=202\n"
      "  cat-200    [002]  5.4: sched_process_exit: comm=cat pid=200 "
      "prio=120 group_dead=1\n"
      "  cat-200    [002]  5.5: sched_switch: prev_comm=cat prev_pid=200 "
      "prev_prio=120 prev_state=x ==> next_comm=swapper/2 next_pid=0 "
      "next_prio=120\n"
      "  cat-200    [002]  5.6: cpu_frequency: state=1800000 cpu_id=2\n";
  std::istringstream in;
  std::deque<std::string> arena;
  absl::StatusOr<std::vector<TraceEvent>> events = ReadAll(text, &in, &arena);
  ASSERT_TRUE(events.ok()) << events.status();
  ASSERT_EQ(events->size(), 8u);
  const std::vector<TraceEvent>& e = *events;
  EXPECT_EQ(e[0].type, EventType::kSchedWaking);
  EXPECT_EQ(e[0].timestamp_ns, 5000000001);
  EXPECT_EQ(e[0].target_cpu, 2);
  EXPECT_EQ(e[1].type, EventType::kSchedWakeup);
  EXPECT_EQ(e[1].timestamp_ns, 5000000002);
  EXPECT_EQ(e[1].success, 1);
  EXPECT_EQ(e[1].target_cpu, 2);
  EXPECT_EQ(e[2].type, EventType::kSchedWakeupNew);
  EXPECT_EQ(e[2].timestamp_ns, 5100000000);
  EXPECT_EQ(e[2].comm, "my task");
  EXPECT_EQ(e[2].pid, 201);
  EXPECT_EQ(e[2].prio, 120);
  EXPECT_EQ(e[2].success, 1);
  EXPECT_EQ(e[2].target_cpu, 3);
  EXPECT_EQ(e[3].type, EventType::kSchedWakeup);
  EXPECT_EQ(e[3].comm, "cat");
  EXPECT_EQ(e[3].success, -1);
  EXPECT_EQ(e[3].target_cpu, 2);
  EXPECT_EQ(e[4].type, EventType::kSchedProcessFork);
  EXPECT_EQ(e[4].comm, "bash");
  EXPECT_EQ(e[4].pid, 100);
  EXPECT_EQ(e[4].child_comm, "bash");
  EXPECT_EQ(e[4].child_pid, 202);
  EXPECT_EQ(e[5].type, EventType::kSchedProcessExit);
  EXPECT_EQ(e[5].comm, "cat");
  EXPECT_EQ(e[5].pid, 200);
  EXPECT_EQ(e[5].prio, 120);
  EXPECT_EQ(e[6].type, EventType::kSchedSwitch);
  EXPECT_EQ(e[6].prev_state, "x");
  EXPECT_EQ(e[6].next_pid, 0);
  EXPECT_EQ(e[7].type, EventType::kCpuFrequency);
  EXPECT_EQ(e[7].frequency_khz(), 1800000);
  EXPECT_EQ(e[7].cpu_id, 2);

  in.clear();
  in.str(text);
  FtraceReader reader(&in, "x");
  TraceEvent event;
  while (*reader.Next(&event)) {
  }
  EXPECT_EQ(reader.header_cpus(), 4);
  EXPECT_EQ(reader.lost_events(), 17);
  EXPECT_EQ(reader.line_number(), 13);
}

// trace-cmd report -R (trappy's raw test trace): key=value fields without
// '==>', prev_state as the kernel's number.
TEST(FtraceReaderTest, RawLayoutOfTraceCmdReport) {
  absl::StatusOr<std::unique_ptr<FtraceReader>> reader =
      FtraceReader::Open("tests/data/trappy_raw_trace.txt");
  ASSERT_TRUE(reader.ok()) << reader.status();
  std::vector<std::string> states;
  std::vector<int> next_pids;
  TraceEvent e;
  while (true) {
    absl::StatusOr<bool> more = (*reader)->Next(&e);
    ASSERT_TRUE(more.ok()) << more.status();
    if (!*more) break;
    ASSERT_EQ(e.type, EventType::kSchedSwitch);
    states.emplace_back(e.prev_state);
    next_pids.push_back(e.next_pid);
  }
  EXPECT_THAT(states, ElementsAre("R+", "S", "S"));  // 1024, 1, 1
  EXPECT_THAT(next_pids, ElementsAre(18, 4732, 4729));
  EXPECT_EQ((*reader)->header_cpus(), 6);
  // Every number the kernel prints maps to letters.
  std::deque<std::string> arena;
  auto line = [](const std::string& state) {
    return absl::StrCat(
        "  a-1 [000] 1.000000: sched_switch: prev_comm=a prev_pid=1 "
        "prev_prio=120 prev_state=",
        state, " next_comm=b next_pid=2 next_prio=120\n");
  };
  for (const auto& [raw, letters] :
       std::vector<std::pair<std::string, std::string>>{{"0", "R"},
                                                        {"2", "D"},
                                                        {"4", "T"},
                                                        {"32", "Z"},
                                                        {"256", "R+"},
                                                        {"4096", "R+"},
                                                        {"S", "S"}}) {
    std::istringstream in;
    absl::StatusOr<std::vector<TraceEvent>> events =
        ReadAll(line(raw), &in, &arena);
    ASSERT_TRUE(events.ok()) << events.status();
    ASSERT_EQ(events->size(), 1u);
    EXPECT_EQ((*events)[0].prev_state, letters) << raw;
  }
}

// A print-like event whose payload goes on over the next lines (Perfetto's
// test trace): the lines are its payload, not errors. After a known event
// such a line is still an error.
TEST(FtraceReaderTest, FreeTextPayloadMayGoOnOverLines) {
  absl::StatusOr<std::unique_ptr<FtraceReader>> reader =
      FtraceReader::Open("tests/data/perfetto_bad_print.txt");
  ASSERT_TRUE(reader.ok()) << reader.status();
  (*reader)->set_return_unknown_events(true);
  std::vector<std::string> names;
  TraceEvent e;
  while (true) {
    absl::StatusOr<bool> more = (*reader)->Next(&e);
    ASSERT_TRUE(more.ok()) << more.status();
    if (!*more) break;
    names.emplace_back(e.event_name);
  }
  EXPECT_THAT(names,
              ElementsAre("event", "tracing_mark_write", "tracing_mark_write"));
  const absl::Status s = ReadError(
      "  a-1 [000] 1.000000: cpu_idle: state=1 cpu_id=0\n"
      "some = 000, other = 0x4\n");
  EXPECT_THAT(s.message(), HasSubstr("test.txt:2: expected an event line"));
}

// A systrace HTML file: the ftrace text inside its trace-data block is read,
// the page around it and its JSON block are not.
TEST(FtraceReaderTest, SystraceHtmlTraceDataBlock) {
  const std::string html =
      "<!DOCTYPE html>\n"
      "<html><head><script>var x = [1, 2];</script></head><body>\n"
      "<script class=\"trace-data\" type=\"application/text\">\n"
      "{\"traceEvents\": [], \"x\": \"[001] 1.0: nope\"}\n"
      "</script>\n"
      "<script class=\"trace-data\" type=\"application/text\">\n"
      "# tracer: nop\n"
      "# entries-in-buffer/entries-written: 2/2   #P:4\n"
      "  sh-5 (  5) [001] d..3 2.000000: sched_waking: comm=sh pid=6 "
      "prio=120 target_cpu=002\n"
      "  sh-5 (  5) [001] d..3 2.000010: cpu_idle: state=1 cpu_id=3\n"
      "</script>\n"
      "<script>if (a[1] > b) { }</script>\n"
      "</body></html>\n";
  std::deque<std::string> arena;
  std::istringstream in;
  absl::StatusOr<std::vector<TraceEvent>> events = ReadAll(html, &in, &arena);
  ASSERT_TRUE(events.ok()) << events.status();
  ASSERT_EQ(events->size(), 2u);
  EXPECT_EQ((*events)[0].type, EventType::kSchedWaking);
  EXPECT_EQ((*events)[1].cpu_id, 3);
}

TEST(FtraceReaderTest, TimestampsAreExactNanoseconds) {
  // 1.1 s is not exact in binary floating point; the reader must not go
  // through a double.
  const std::string text =
      "a-1 [000] 0.123456789: cpu_frequency: state=1 cpu_id=0\n"
      "a-1 [000] 1.1: cpu_frequency: state=1 cpu_id=0\n"
      "a-1 [000] 9007199254.740993: cpu_frequency: state=1 cpu_id=0\n";
  std::istringstream in;
  std::deque<std::string> arena;
  absl::StatusOr<std::vector<TraceEvent>> events = ReadAll(text, &in, &arena);
  ASSERT_TRUE(events.ok()) << events.status();
  EXPECT_EQ((*events)[0].timestamp_ns, 123456789);
  EXPECT_EQ((*events)[1].timestamp_ns, 1100000000);
  EXPECT_EQ((*events)[2].timestamp_ns, 9007199254740993000);
}

// Issue 49 #13: time running backwards gave negative idle periods and
// exit 0.
TEST(FtraceReaderTest, TimeRunningBackwardsIsAnErrorWithLineNumber) {
  absl::Status status = ReadError(
      "a-1 [000] 2.000000: cpu_idle: state=1 cpu_id=0\n"
      "a-1 [001] 2.000000: cpu_idle: state=1 cpu_id=1\n"
      "a-1 [000] 1.942079: cpu_idle: state=4294967295 cpu_id=0\n");
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(),
              HasSubstr("test.txt:3: timestamp 1.942079 s is earlier than the "
                        "previous event's 2.000000 s; expected the events in "
                        "time order"));
}

TEST(FtraceReaderTest, TruncatedLineIsAnErrorWithLineNumber) {
  absl::Status status = ReadError(
      "# header\n"
      "a-1 [000] 1.000000: cpu_idle: state=0 cpu_id=0\n"
      "a-1 [000] 1.000001: sched_switch: prev_comm=a prev_pid=1 "
      "prev_prio=120 prev_state=S ==> next_comm=b next_pid=2\n");
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("test.txt:3: sched_switch: expected "
                                          "'next_prio=<int>'"));

  status = ReadError(
      "a-1 [000] 1.000001: sched_switch: prev_comm=a prev_pid=1 "
      "prev_prio=120 prev_state=S ==> next_comm=b");
  EXPECT_THAT(status.message(), HasSubstr("test.txt:1: sched_switch: expected "
                                          "'next_pid=<int>'"));

  status = ReadError("a-1 [000] 1.000001: cpu_idle: state=0\n");
  EXPECT_THAT(status.message(),
              HasSubstr("test.txt:1: cpu_idle: expected 'cpu_id=<int>'"));

  // Cut inside the line header.
  status = ReadError("a-1 [000] 1.00");
  EXPECT_THAT(status.message(), HasSubstr("test.txt:1: expected timestamp"));
  status = ReadError("a-1 [000] 1.000001: ");
  EXPECT_THAT(status.message(), HasSubstr("test.txt:1: expected '<event>:'"));
}

// Every prefix of every line kind either parses or is an error on line 2;
// none crashes (run under ASan/UBSan with --config=asan).
TEST(FtraceReaderTest, EveryTruncationIsHandled) {
  const std::vector<std::string> lines = {
      "kworker/u17:1-959   (  959) [006] d..3   538.064659: sched_switch: "
      "prev_comm=kworker/u17:1 prev_pid=959 prev_prio=100 prev_state=S ==> "
      "next_comm=swapper/6 next_pid=0 next_prio=120",
      "   rs:main Q:Reg-1593  [003]  2084.228252: sched_switch:         "
      "rs:main Q:Reg:1593 [120] S ==> systemd-journal:1478 [120]",
      "  bash-100   [001]  5.1: sched_wakeup_new: my task:201 [120] "
      "success=1 CPU:003",
      "<7950>-7950  (-----) [004] dn.4   538.066946: sched_wakeup: "
      "comm=shell srvc 7950 pid=7951 prio=120 target_cpu=004",
      "sshd-2928  [005]  2084.200966: sched_migrate_task:   "
      "comm=kworker/u12:4 pid=310 prio=120 orig_cpu=0 dest_cpu=5",
      "a-1 [000] 5.3: sched_process_fork: comm=bash pid=100 "
      "child_comm=bash child_pid=202",
      "CPU:2 [LOST 17 EVENTS]",
  };
  for (const std::string& line : lines) {
    for (size_t n = 0; n <= line.size(); ++n) {
      const std::string text = "# header\n" + line.substr(0, n) + "\n";
      absl::Status status = ReadError(text);
      if (!status.ok()) {
        EXPECT_THAT(status.message(), HasSubstr("test.txt:2: "))
            << line.substr(0, n);
      }
    }
  }
}

TEST(FtraceReaderTest, BadNumberIsAnErrorWithLineNumber) {
  absl::Status status = ReadError(
      "a-1 [000] 1.0: cpu_idle: state=0 cpu_id=0\n"
      "a-1 [000] 1.1: cpu_idle: state=0 cpu_id=0\n"
      "a-1 [000] 1.2: sched_migrate_task: comm=a pid=12x prio=120 "
      "orig_cpu=0 dest_cpu=1\n");
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(),
              HasSubstr("test.txt:3: sched_migrate_task: expected "
                        "'pid=<int>'"));

  status = ReadError("a-1 [000] 1.2: cpu_frequency: state=-5 cpu_id=0\n");
  EXPECT_THAT(status.message(),
              HasSubstr("test.txt:1: cpu_frequency: expected 'state=<unsigned "
                        "int>'"));
  // Out of int range.
  status = ReadError("a-1 [000] 1.2: cpu_idle: state=0 cpu_id=99999999999\n");
  EXPECT_THAT(status.message(), HasSubstr("expected 'cpu_id=<int>'"));
  // A timestamp with more than 9 fraction digits.
  status = ReadError("a-1 [000] 1.1234567890: cpu_idle: state=0 cpu_id=0\n");
  EXPECT_THAT(status.message(), HasSubstr("test.txt:1: expected timestamp"));
  // trace-cmd format with a bad pid.
  status =
      ReadError("a-1 [000] 1.2: sched_switch: a:1 [120] S ==> b:x2 [120]\n");
  EXPECT_THAT(status.message(),
              HasSubstr("test.txt:1: sched_switch: expected "
                        "'<next_comm>:<next_pid> [<next_prio>]'"));
}

TEST(FtraceReaderTest, NonEventLineIsAnErrorWithLineNumber) {
  absl::Status status = ReadError(
      "cpus=2\n"
      "a-1 [000] 1.0: cpu_idle: state=0 cpu_id=0\n"
      "this is not an ftrace line\n");
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(),
              HasSubstr("test.txt:3: expected an event line"));
  // A CPU column without a TASK-PID before it.
  status = ReadError("[000] 1.0: cpu_idle: state=0 cpu_id=0\n");
  EXPECT_THAT(status.message(), HasSubstr("test.txt:1: expected an event"));
  // Unknown events need a valid header too.
  status = ReadError("a-1 [000] x: foo: bar\n");
  EXPECT_THAT(status.message(), HasSubstr("test.txt:1: expected timestamp"));
}

TEST(FtraceReaderTest, MissingFileIsNotFound) {
  absl::StatusOr<TraceSummary> s = Summarize("tests/data/no_such_trace.txt");
  EXPECT_EQ(s.status().code(), absl::StatusCode::kNotFound);
}

TEST(FtraceReaderTest, VisitorErrorStopsTheWalk) {
  int calls = 0;
  absl::Status status = ForEachFtraceEvent(kLisa, [&](const TraceEvent&) {
    ++calls;
    return calls == 3 ? absl::CancelledError("enough") : absl::OkStatus();
  });
  EXPECT_EQ(status.code(), absl::StatusCode::kCancelled);
  EXPECT_EQ(calls, 3);
}

TEST(FtraceReaderTest, EventTypeNames) {
  std::map<std::string, int> names;
  for (int i = 0; i < kNumEventTypes; ++i) {
    names[std::string(EventTypeName(static_cast<EventType>(i)))] = i;
  }
  EXPECT_EQ(names.size(), static_cast<size_t>(kNumEventTypes));
  EXPECT_EQ(names.count("sched_migrate_task"), 1u);
  EXPECT_EQ(names.count("cpu_frequency"), 1u);
}

}  // namespace
}  // namespace schedsim::traces
