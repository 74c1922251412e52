// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "traces/trace_file.h"

#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "traces/csv.h"
#include "traces/ftrace.h"
#include "traces/ftrace_convert.h"
#include "traces/gzip_stream.h"
#include "traces/perfetto_proto.h"
#include "traces/trace_select.h"

namespace schedsim::traces {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kSchema[] =
    "tests/data/perfetto_protos/perfetto_trace_subset.proto";

std::string TmpPath(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return absl::StrCat(dir ? dir : "/tmp", "/", name);
}

std::string ReadAll(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// Runs `command`, returns its stdout and sets *rc to its exit status.
std::string Run(const std::string& command, int* rc) {
  std::string out;
  FILE* p = popen(command.c_str(), "r");
  if (p == nullptr) {
    *rc = -1;
    return out;
  }
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) out.append(buf, n);
  *rc = pclose(p);
  return out;
}

std::string Gunzip(const std::string& data) {
  z_stream z{};
  EXPECT_EQ(inflateInit2(&z, 15 + 16), Z_OK);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  std::string out;
  char buf[1 << 14];
  int rc = Z_OK;
  while (rc == Z_OK) {
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof(buf);
    rc = inflate(&z, Z_NO_FLUSH);
    out.append(buf, sizeof(buf) - z.avail_out);
  }
  EXPECT_EQ(rc, Z_STREAM_END);
  inflateEnd(&z);
  return out;
}

// Records the calls it gets, one line each.
class Recorder : public NamedTraceSink {
 public:
  void SetTaskName(int task, absl::string_view name) override {}
  void OnSwitch(int64_t t, int cpu, int prev, int next) override {
    lines.push_back(absl::StrCat(t, " switch ", cpu, " ", prev, " ", next));
  }
  void OnWakeup(int64_t t, int task, int cpu, int waker) override {
    lines.push_back(absl::StrCat(t, " wakeup ", task, " ", cpu, " ", waker));
  }
  void OnMigrate(int64_t t, int task, int from, int to) override {
    lines.push_back(absl::StrCat(t, " migrate ", task, " ", from, " ", to));
  }
  void OnIdle(int64_t t, int cpu, int state) override {
    lines.push_back(absl::StrCat(t, " idle ", cpu, " ", state));
  }
  void OnFrequency(int64_t t, int cpu, int64_t khz) override {
    lines.push_back(absl::StrCat(t, " freq ", cpu, " ", khz));
  }
  void OnTaskExit(int64_t t, int task) override {
    lines.push_back(absl::StrCat(t, " exit ", task));
  }
  std::vector<std::string> lines;
};

// A small run on 3 CPUs: task 0 on CPU 1, task 1 on CPU 2, wakeups,
// a migration and idle and frequency changes, 0..300 ns.
void Play(sim::TraceSink* s) {
  s->OnFrequency(0, 1, 2000000);
  s->OnFrequency(0, 2, 1500000);
  s->OnIdle(0, 0, 2);
  s->OnSwitch(10, 1, -1, 0);
  s->OnSwitch(20, 2, -1, 1);
  s->OnFrequency(50, 1, 3000000);
  s->OnSwitch(120, 2, 1, -1);  // task 1 blocks
  s->OnIdle(125, 2, 1);
  s->OnWakeup(150, 1, 1, 2);  // woken by CPU 2 onto CPU 1
  s->OnMigrate(150, 1, 2, 1);
  s->OnIdle(160, 0, -1);
  s->OnSwitch(170, 1, 0, 1);   // task 0 preempted by task 1
  s->OnSwitch(180, 2, -1, 2);  // task 2 on CPU 2 (not selected below)
  s->OnSwitch(190, 1, 1, 0);   // task 1 blocks, task 0 again: R
  s->OnTaskExit(200, 1);
  s->OnSwitch(250, 1, 0, -1);
}

TEST(ParseTraceWindowTest, MillisecondsToNanosecondsExactly) {
  TraceSelection s;
  ASSERT_TRUE(ParseTraceWindow("50:150", &s).ok());
  EXPECT_EQ(s.from_ns, 50000000);
  EXPECT_EQ(s.to_ns, 150000000);
  ASSERT_TRUE(ParseTraceWindow("72.5:73.000001", &s).ok());
  EXPECT_EQ(s.from_ns, 72500000);
  EXPECT_EQ(s.to_ns, 73000001);
}

TEST(ParseTraceWindowTest, BadWindowsSayWhatWasExpected) {
  TraceSelection s;
  for (const char* bad : {"150:50", "50", "50:", "a:b", "-5:10", "1:2:3",
                          "1.1234567:2", "50:50"}) {
    absl::Status st = ParseTraceWindow(bad, &s);
    EXPECT_FALSE(st.ok()) << bad;
    EXPECT_THAT(std::string(st.message()), HasSubstr(bad));
  }
  EXPECT_THAT(std::string(ParseTraceWindow("a:b", &s).message()),
              HasSubstr("FROM_MS:TO_MS"));
}

TEST(ParseTraceCpusTest, ListsAndRanges) {
  TraceSelection s;
  ASSERT_TRUE(ParseTraceCpus("0-15", 256, &s).ok());
  EXPECT_EQ(s.cpus.size(), 256u);
  int n = 0;
  for (bool b : s.cpus) n += b;
  EXPECT_EQ(n, 16);
  EXPECT_TRUE(s.Selected(15));
  EXPECT_FALSE(s.Selected(16));
  absl::Status bad = ParseTraceCpus("0-300", 256, &s);
  EXPECT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.message()), HasSubstr("0-255"));
  EXPECT_FALSE(ParseTraceCpus("", 4, &s).ok());
}

TEST(SelectingTraceSinkTest, WindowAndCpusWithTheStateAtTheStart) {
  Recorder r;
  TraceSelection sel;
  ASSERT_TRUE(ParseTraceCpus("0-1", 3, &sel).ok());
  sel.from_ns = 100;
  sel.to_ns = 200;
  SelectingTraceSink s(&r, sel);
  Play(&s);
  EXPECT_EQ(s.Finish(300), 200);
  EXPECT_THAT(r.lines,
              ElementsAre(
                  // The state at 100: CPU 0 idle in state 2, CPU 1 at
                  // 3 GHz running task 0. CPU 2 is not selected.
                  "100 idle 0 2", "100 freq 1 3000000", "100 switch 1 -1 0",
                  // The waker CPU 2 is not selected: -1.
                  "150 wakeup 1 1 -1", "150 migrate 1 2 1", "160 idle 0 -1",
                  "170 switch 1 0 1", "190 switch 1 1 0"));
  // 200 (exit) and 250 are at or past the end.
  EXPECT_EQ(s.passed(), 8);
}

TEST(SelectingTraceSinkTest, NoSelectionPassesEverything) {
  Recorder all;
  Play(&all);
  Recorder r;
  SelectingTraceSink s(&r, TraceSelection{});
  Play(&s);
  EXPECT_EQ(s.Finish(300), 300);
  EXPECT_EQ(r.lines, all.lines);
  EXPECT_EQ(s.dropped(), 0);
}

TEST(SelectingTraceSinkTest, AWindowWithoutEventsStillGetsTheState) {
  Recorder r;
  TraceSelection sel;
  sel.from_ns = 60;
  sel.to_ns = 70;
  SelectingTraceSink s(&r, sel);
  s.OnSwitch(10, 0, -1, 4);
  s.OnSwitch(500, 0, 4, -1);  // past the window: opens it with the state
  EXPECT_EQ(s.Finish(600), 70);
  EXPECT_THAT(r.lines, ElementsAre("60 switch 0 -1 4"));
}

// protoc --decode of `data` against the vendored subset of Perfetto's schema.
std::string Decode(const std::string& data, int* rc) {
  const std::string path = TmpPath("decode.pftrace");
  {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f << data;
  }
  return Run(absl::StrCat("protoc --proto_path=tests/data/perfetto_protos "
                          "--decode=perfetto.protos.Trace ",
                          "perfetto_trace_subset.proto < ", path, " 2>&1"),
             rc);
}

TEST(PerfettoProtoWriterTest, DecodesWithPerfettosSchema) {
  std::ostringstream out;
  PerfettoProtoWriter w(&out, {"alpha", "beta"});
  Play(&w);
  w.Finish();
  int rc = 0;
  const std::string text = Decode(out.str(), &rc);
  ASSERT_EQ(rc, 0) << text;
  // No field outside the schema (protoc prints those by number).
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    absl::string_view l = absl::StripLeadingAsciiWhitespace(line);
    EXPECT_FALSE(!l.empty() && absl::ascii_isdigit(l[0])) << line;
  }
  EXPECT_THAT(text, HasSubstr("trusted_packet_sequence_id: 1"));
  EXPECT_THAT(text, HasSubstr("cpu_frequency {\n        state: 3000000\n"
                              "        cpu_id: 1\n"));
  EXPECT_THAT(text, HasSubstr("cpu_idle {\n        state: 4294967295\n"
                              "        cpu_id: 0\n"));
  // Task 1 (pid 2) blocked at 120: S (1); task 0 (pid 1) preempted at 170
  // and run again at 190 without a wakeup: R (0); task 1 switched out at 190
  // without a later switch-in: S.
  EXPECT_THAT(text, HasSubstr("timestamp: 120\n      pid: 2\n      "
                              "sched_switch {\n        prev_comm: \"beta\"\n"
                              "        prev_pid: 2\n        prev_prio: 120\n"
                              "        prev_state: 1\n"));
  EXPECT_THAT(text, HasSubstr("timestamp: 170\n      pid: 1\n      "
                              "sched_switch {\n        prev_comm: \"alpha\"\n"
                              "        prev_pid: 1\n        prev_prio: 120\n"
                              "        prev_state: 0\n"));
  EXPECT_THAT(text, HasSubstr("next_comm: \"swapper/1\""));
  EXPECT_THAT(text, HasSubstr("sched_wakeup {\n        comm: \"beta\"\n"
                              "        pid: 2\n        prio: 120\n"
                              "        success: 1\n        target_cpu: 1\n"));
  EXPECT_THAT(text, HasSubstr("sched_process_exit {\n        comm: \"beta\""));
  EXPECT_EQ(w.counts().switches, 7);
  EXPECT_EQ(w.counts().migrations_skipped, 1);
  // One bundle per CPU used: 0, 1, 2.
  EXPECT_EQ(w.counts().packets, 3);
}

TEST(PerfettoProtoWriterTest, LongRunsAreWrittenInBoundedBundles) {
  std::ostringstream out;
  PerfettoProtoWriter w(&out, {"t"});
  for (int i = 0; i < 20000; ++i) {
    w.OnSwitch(i * 10, 0, i % 2 ? 0 : -1, i % 2 ? -1 : 0);
  }
  w.Finish();
  EXPECT_GT(w.counts().packets, 3);
  int rc = 0;
  const std::string text = Decode(out.str(), &rc);
  ASSERT_EQ(rc, 0) << text.substr(0, 500);
  size_t n = 0;
  for (size_t at = text.find("sched_switch {"); at != std::string::npos;
       at = text.find("sched_switch {", at + 1)) {
    ++n;
  }
  EXPECT_EQ(n, 20000u);
}

TEST(GzipOstreamTest, RoundTripsThroughZlib) {
  std::ostringstream raw;
  std::string expect;
  {
    GzipOstream gz(&raw);
    for (int i = 0; i < 100000; ++i) {
      const std::string line = absl::StrCat("line ", i, "\n");
      gz << line;
      expect += line;
    }
    ASSERT_TRUE(gz.Close().ok());
  }
  const std::string data = raw.str();
  ASSERT_GE(data.size(), 2u);
  EXPECT_EQ(static_cast<unsigned char>(data[0]), 0x1f);
  EXPECT_EQ(static_cast<unsigned char>(data[1]), 0x8b);
  EXPECT_LT(data.size(), expect.size() / 3);
  EXPECT_EQ(Gunzip(data), expect);
}

TEST(TraceFileTest, GzipIsTheSameTraceCompressed) {
  for (TraceFileFormat f :
       {TraceFileFormat::kChromeJson, TraceFileFormat::kPerfettoProto,
        TraceFileFormat::kCsv, TraceFileFormat::kFtrace}) {
    TraceFileOptions o;
    o.format = f;
    o.num_cpus = 3;
    std::ostringstream plain;
    {
      auto t = TraceFile::ToStream(&plain, o, {"alpha", "beta"});
      Play(t->sink());
      ASSERT_TRUE(t->Finish(300).ok());
    }
    o.gzip = true;
    const std::string path = TmpPath(
        absl::StrCat("t", static_cast<int>(f), TraceFileExtension(f, true)));
    {
      auto t = TraceFile::Create(path, o, {"alpha", "beta"});
      ASSERT_TRUE(t.ok()) << t.status();
      Play((*t)->sink());
      ASSERT_TRUE((*t)->Finish(300).ok());
    }
    EXPECT_EQ(Gunzip(ReadAll(path)), plain.str()) << path;
  }
}

TEST(TraceFileTest, ChromeJsonWindowHasOnlyTheSelectedCpus) {
  TraceFileOptions o;
  o.format = TraceFileFormat::kChromeJson;
  o.num_cpus = 3;
  ASSERT_TRUE(ParseTraceCpus("1", 3, &o.selection).ok());
  o.selection.from_ns = 100;
  o.selection.to_ns = 200;
  std::ostringstream out;
  auto t = TraceFile::ToStream(&out, o, {"alpha", "beta"});
  Play(t->sink());
  ASSERT_TRUE(t->Finish(300).ok());
  const nlohmann::json doc = nlohmann::json::parse(out.str());
  double first = 1e18;
  double last = 0;
  std::set<int> pids;
  for (const auto& e : doc["traceEvents"]) {
    pids.insert(e["pid"].get<int>());
    if (e.contains("ts")) {
      const double ts = e["ts"].get<double>();
      first = std::min(first, ts);
      last = std::max(last,
                      ts + (e.contains("dur") ? e["dur"].get<double>() : 0.0));
    }
  }
  EXPECT_THAT(pids, ElementsAre(1001));  // CPU 1 only
  EXPECT_DOUBLE_EQ(first, 0.100);        // microseconds
  EXPECT_DOUBLE_EQ(last, 0.200);
}

TEST(TraceFileTest, FtraceWindowReadsBack) {
  TraceFileOptions o;
  o.format = TraceFileFormat::kFtrace;
  o.num_cpus = 3;
  o.selection.from_ns = 100;
  o.selection.to_ns = 200;
  const std::string path = TmpPath("window.txt");
  {
    auto t = TraceFile::Create(path, o, {"alpha", "beta"});
    ASSERT_TRUE(t.ok());
    Play((*t)->sink());
    ASSERT_TRUE((*t)->Finish(300).ok());
  }
  std::vector<int64_t> times;
  ASSERT_TRUE(ForEachFtraceEvent(path, [&](const TraceEvent& e) {
                times.push_back(e.timestamp_ns);
                return absl::OkStatus();
              }).ok());
  ASSERT_FALSE(times.empty());
  EXPECT_EQ(times.front(), 100);
  EXPECT_LT(times.back(), 200);
}

TEST(TraceFileTest, UnwritablePathIsAnError) {
  TraceFileOptions o;
  auto t = TraceFile::Create("/nonexistent-dir/x.json", o, {});
  ASSERT_FALSE(t.ok());
  EXPECT_THAT(std::string(t.status().message()),
              HasSubstr("/nonexistent-dir/x.json"));
}

// The converter on `perf script` text of `perf sched record`, which has
// sched_waking and no sched_wakeup: the wake-ups come from sched_waking.
TEST(ConvertTest, PerfScriptCaptureWakeupsFromWaking) {
  std::ostringstream out;
  {
    CsvWriter csv(&out);
    ASSERT_TRUE(
        ConvertFtraceFile("tests/data/perf_sched_pipe.perf.txt", &csv).ok());
  }
  int switches = 0, wakeups = 0, migrations = 0;
  for (absl::string_view line : absl::StrSplit(out.str(), '\n')) {
    if (absl::StrContains(line, ",switch,")) ++switches;
    if (absl::StrContains(line, ",wakeup,")) ++wakeups;
    if (absl::StrContains(line, ",migrate,")) ++migrations;
  }
  EXPECT_EQ(switches, 249);
  EXPECT_EQ(wakeups, 113);
  EXPECT_EQ(migrations, 4);
}

TEST(TraceFileFormatTest, NamesAndExtensions) {
  EXPECT_EQ(*ParseTraceFileFormat("perfetto-proto"),
            TraceFileFormat::kPerfettoProto);
  EXPECT_EQ(TraceFileExtension(TraceFileFormat::kPerfettoProto, true),
            ".pftrace.gz");
  absl::StatusOr<TraceFileFormat> bad = ParseTraceFileFormat("json");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()),
              HasSubstr("perfetto|perfetto-proto|csv|ftrace"));
}

}  // namespace
}  // namespace schedsim::traces
