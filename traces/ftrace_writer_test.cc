// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "traces/ftrace_writer.h"

#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "traces/ftrace.h"
#include "traces/ftrace_convert.h"

namespace schedsim::traces {
namespace {

// Records every sink call as text.
class Recorder : public NamedTraceSink {
 public:
  void SetTaskName(int, absl::string_view) override {}
  void OnSwitch(int64_t t, int cpu, int prev, int next) override {
    calls.push_back(absl::StrCat(t, " switch ", cpu, " ", prev, " ", next));
  }
  void OnWakeup(int64_t t, int task, int cpu, int waker) override {
    calls.push_back(absl::StrCat(t, " wakeup ", task, " ", cpu, " ", waker));
  }
  void OnMigrate(int64_t t, int task, int from, int to) override {
    calls.push_back(absl::StrCat(t, " migrate ", task, " ", from, " ", to));
  }
  void OnIdle(int64_t t, int cpu, int state) override {
    calls.push_back(absl::StrCat(t, " idle ", cpu, " ", state));
  }
  void OnFrequency(int64_t t, int cpu, int64_t khz) override {
    calls.push_back(absl::StrCat(t, " freq ", cpu, " ", khz));
  }
  void OnTaskExit(int64_t t, int task) override {
    calls.push_back(absl::StrCat(t, " exit ", task));
  }
  std::vector<std::string> calls;
};

// A run on two CPUs: tasks 0 ("a b", with a space) and 1.
void Play(sim::TraceSink* s) {
  s->OnIdle(1000, 1, -1);
  s->OnSwitch(1200, 1, -1, 0);
  s->OnFrequency(1300, 1, 2400000);
  s->OnWakeup(1500, 1, 1, 1);
  s->OnSwitch(1600, 1, 0, 1);  // 0 preempted: R
  s->OnMigrate(1700, 0, 1, 0);
  s->OnSwitch(1800, 0, -1, 0);
  s->OnSwitch(1900, 1, 1, -1);  // 1 blocks: S
  s->OnIdle(2000, 1, 2);
  s->OnWakeup(3000, 1, 0, 0);
  s->OnIdle(3100, 1, -1);
  s->OnTaskExit(3200, 0);
  s->OnSwitch(3300, 0, 0, 1);   // 0 exited: X
  s->OnSwitch(4000, 0, 1, -1);  // 1 not seen again: S
  s->OnIdle(4100, 0, 0);
}

struct Parsed {
  std::vector<std::string> states;  // prev_state of each sched_switch
  int header_cpus = 0;
  int events = 0;
};

Parsed Parse(const std::string& text) {
  std::istringstream in(text);
  FtraceReader reader(&in, "written.txt");
  Parsed p;
  TraceEvent e;
  for (;;) {
    absl::StatusOr<bool> more = reader.Next(&e);
    EXPECT_TRUE(more.ok()) << more.status();
    if (!more.ok() || !*more) break;
    ++p.events;
    if (e.type == EventType::kSchedSwitch) {
      p.states.emplace_back(e.prev_state);
    }
  }
  p.header_cpus = reader.header_cpus();
  return p;
}

TEST(FtraceWriterTest, LayoutOfEachEvent) {
  std::ostringstream out;
  {
    FtraceWriter w(&out, 2, {"a b", "worker"});
    Play(&w);
  }
  const std::string text = out.str();
  EXPECT_EQ(text.substr(0, 7), "cpus=2\n");
  EXPECT_NE(text.find("        <idle>-0 [001]     0.000001200: sched_switch: "
                      "prev_comm=swapper/1 prev_pid=0 prev_prio=120 "
                      "prev_state=R ==> next_comm=a b next_pid=1 "
                      "next_prio=120\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("           a b-1 [001]     0.000001500: sched_wakeup: "
                      "comm=worker pid=2 prio=120 target_cpu=001\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("[000]     0.000001700: sched_migrate_task: comm=a b "
                      "pid=1 prio=120 orig_cpu=1 dest_cpu=0\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("[001]     0.000002000: cpu_idle: state=2 cpu_id=1\n"),
            std::string::npos);
  EXPECT_NE(text.find("cpu_idle: state=4294967295 cpu_id=1\n"),
            std::string::npos);
  EXPECT_NE(text.find("cpu_frequency: state=2400000 cpu_id=1\n"),
            std::string::npos);
  EXPECT_NE(text.find("a b-1 [000]     0.000003200: sched_process_exit: "
                      "comm=a b pid=1 prio=120\n"),
            std::string::npos)
      << text;
}

TEST(FtraceWriterTest, PrevStateFollowsWhatTheTaskDidNext) {
  std::ostringstream out;
  FtraceWriter w(&out, 2, {"a", "b"});
  Play(&w);
  w.Finish();
  const Parsed p = Parse(out.str());
  EXPECT_EQ(p.header_cpus, 2);
  EXPECT_EQ(p.states, (std::vector<std::string>{"R", "R", "R", "S", "X", "S"}));
  EXPECT_EQ(w.counts().switches, 6);
  EXPECT_EQ(w.counts().switches_to_task, 4);
  EXPECT_EQ(w.counts().wakeups, 2);
  EXPECT_EQ(w.counts().migrations, 1);
  EXPECT_EQ(w.counts().idle_enters, 2);
  EXPECT_EQ(w.counts().idle_exits, 2);
  EXPECT_EQ(w.counts().frequencies, 1);
  EXPECT_EQ(w.counts().exits, 1);
  EXPECT_EQ(p.events, 15);
}

// A task id that exited and is switched in again belongs to a new task
// (the simulator reuses an exited task's slot for the next fork): when it
// blocks, its state is S again, not X.
TEST(FtraceWriterTest, AReusedIdIsAliveAgain) {
  std::ostringstream out;
  FtraceWriter w(&out, 1, {"parent", "child"});
  w.OnSwitch(1000, 0, -1, 1);
  w.OnTaskExit(2000, 1);
  w.OnSwitch(2100, 0, 1, -1);  // the child exited: X
  w.OnSwitch(3000, 0, -1, 1);  // a new child in the same slot
  w.OnSwitch(4000, 0, 1, -1);  // it blocks: S
  w.Finish();
  EXPECT_EQ(Parse(out.str()).states,
            (std::vector<std::string>{"R", "X", "R", "S"}));
}

// The converter turns the written text back into the same sink calls
// (task ids are dense in order of appearance, as the sim's are here).
TEST(FtraceWriterTest, ConverterGivesBackTheSameCalls) {
  Recorder direct;
  Play(&direct);
  std::ostringstream out;
  {
    FtraceWriter w(&out, 2, {"a", "b"});
    Play(&w);
  }
  std::istringstream in(out.str());
  FtraceReader reader(&in, "written.txt");
  Recorder back;
  FtraceConverter converter(&back, nullptr);
  TraceEvent e;
  for (;;) {
    absl::StatusOr<bool> more = reader.Next(&e);
    ASSERT_TRUE(more.ok()) << more.status();
    if (!*more) break;
    converter.Convert(e);
  }
  EXPECT_EQ(back.calls, direct.calls);
}

// A stream that cannot seek (tellp() fails), as a pipe.
class AppendBuf : public std::streambuf {
 public:
  std::string text;

 protected:
  int_type overflow(int_type c) override {
    if (c != traits_type::eof()) text.push_back(static_cast<char>(c));
    return c;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    text.append(s, static_cast<size_t>(n));
    return n;
  }
};

// Past the writer's buffer (1 MiB), a correction is made by seeking back
// in a seekable stream, and by holding the text on one that cannot seek.
TEST(FtraceWriterTest, CorrectsStatesAlreadyFlushed) {
  auto play_long = [](sim::TraceSink* s) {
    s->OnSwitch(100, 0, -1, 0);
    s->OnSwitch(200, 0, 0, 1);  // 0 preempted, switched back in below
    for (int i = 0; i < 40000; ++i) s->OnFrequency(300 + i, 1, 1000000 + i);
    s->OnSwitch(50000, 0, 1, 0);   // 0 back: its S, flushed, becomes R
    s->OnSwitch(60000, 0, 0, -1);  // 0 never back: S
  };
  std::ostringstream seekable;
  {
    FtraceWriter w(&seekable, 2, {});
    play_long(&w);
  }
  ASSERT_GT(seekable.str().size(), size_t{1} << 20);
  EXPECT_EQ(Parse(seekable.str()).states,
            (std::vector<std::string>{"R", "R", "S", "S"}));
  AppendBuf buf;
  std::ostream pipe(&buf);
  {
    FtraceWriter w(&pipe, 2, {});
    play_long(&w);
  }
  EXPECT_EQ(buf.text, seekable.str());
}

TEST(FtraceWriterTest, ControlCharactersInNamesAreReplaced) {
  std::ostringstream out;
  {
    FtraceWriter w(&out, 1, {"bad\nname"});
    w.OnSwitch(5, 0, -1, 0);
  }
  EXPECT_NE(out.str().find("next_comm=bad_name next_pid=1"), std::string::npos)
      << out.str();
  EXPECT_EQ(Parse(out.str()).events, 1);
}

}  // namespace
}  // namespace schedsim::traces
