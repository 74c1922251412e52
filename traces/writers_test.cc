// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "traces/chrome_json.h"
#include "traces/csv.h"
#include "traces/ftrace.h"
#include "traces/ftrace_convert.h"

namespace schedsim::traces {
namespace {

using ::nlohmann::json;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;

constexpr char kLisa[] = "tests/data/lisa_sched_load_trace.txt";
constexpr char kSurfaceflinger[] =
    "tests/data/trappy_trace_surfaceflinger_ftrace.txt";

// Count of events by "ph".
std::map<std::string, int> CountPhases(const json& doc) {
  std::map<std::string, int> counts;
  for (const json& e : doc.at("traceEvents")) {
    ++counts[e.at("ph").get<std::string>()];
  }
  return counts;
}

// Events with phase `ph`.
std::vector<json> Phase(const json& doc, const std::string& ph) {
  std::vector<json> out;
  for (const json& e : doc.at("traceEvents")) {
    if (e.at("ph") == ph) out.push_back(e);
  }
  return out;
}

// Feeds a small synthetic run on two CPUs to `sink` (times in ns).
void SyntheticRun(NamedTraceSink* sink) {
  sink->SetTaskName(2, "forked \"quoted\"\\");
  sink->OnFrequency(0, 0, 1000000);
  sink->OnFrequency(0, 1, 1200000);
  sink->OnSwitch(1001, 0, -1, 0);  // task 0 runs on CPU 0
  sink->OnIdle(1500, 1, 2);
  sink->OnWakeup(2000, 1, 1, 0);  // CPU 0 (running task 0) wakes task 1
  sink->OnIdle(2100, 1, -1);
  sink->OnSwitch(2200, 1, -1, 1);
  sink->OnMigrate(3000, 2, 0, 1);
  sink->OnSwitch(4000, 0, 0, 2);  // slice task 0 [1001, 4000)
  sink->OnTaskExit(5000, 1);
  sink->OnSwitch(5000, 1, 1, -1);  // slice task 1 [2200, 5000)
  sink->OnWakeup(5500, 0, 1, 1);   // CPU 1 is idle: no flow
}

TEST(ChromeJsonWriterTest, SyntheticRunIsValidJsonWithExpectedRecords) {
  std::ostringstream out;
  ChromeJsonWriter writer(&out, {"init", "worker"});
  SyntheticRun(&writer);
  writer.Finish(6000);             // slice task 2 [4000, 6000)
  writer.OnSwitch(7000, 0, 2, 0);  // ignored after Finish

  const json doc = json::parse(out.str());  // throws if not valid JSON
  EXPECT_EQ(doc.at("displayTimeUnit"), "ns");
  EXPECT_THAT(CountPhases(doc),
              ElementsAre(Pair("C", 4), Pair("M", 8), Pair("X", 3),
                          Pair("f", 1), Pair("i", 4), Pair("s", 1)));
  EXPECT_EQ(writer.slices_written(), 3);
  EXPECT_EQ(writer.counters_written(), 4);
  EXPECT_EQ(writer.instants_written(), 4);
  EXPECT_EQ(writer.flows_written(), 1);

  const std::vector<json> slices = Phase(doc, "X");
  ASSERT_EQ(slices.size(), 3u);
  // Written as they end: task 0 on CPU 0, task 1 on CPU 1, task 2 on CPU 0.
  EXPECT_EQ(slices[0].at("name"), "init");
  EXPECT_EQ(slices[0].at("pid"), ChromeJsonWriter::kCpuPidBase + 0);
  EXPECT_EQ(slices[0].at("tid"), ChromeJsonWriter::kCpuPidBase + 0);
  EXPECT_EQ(slices[0].at("args").at("task"), 0);
  EXPECT_EQ(slices[1].at("name"), "worker");
  EXPECT_EQ(slices[1].at("pid"), ChromeJsonWriter::kCpuPidBase + 1);
  EXPECT_EQ(slices[2].at("name"), "forked \"quoted\"\\");
  // Microseconds with the nanoseconds kept: check the text too.
  EXPECT_DOUBLE_EQ(slices[0].at("ts").get<double>(), 1.001);
  EXPECT_DOUBLE_EQ(slices[0].at("dur").get<double>(), 2.999);
  EXPECT_THAT(out.str(), HasSubstr("\"ts\":1.001,\"dur\":2.999"));
  EXPECT_THAT(out.str(), HasSubstr("\"ts\":4.000,\"dur\":2.000"));

  const std::vector<json> counters = Phase(doc, "C");
  EXPECT_EQ(counters[0].at("name"), "cpufreq");
  EXPECT_EQ(counters[0].at("args").at("khz"), 1000000);
  EXPECT_EQ(counters[1].at("pid"), ChromeJsonWriter::kCpuPidBase + 1);
  EXPECT_EQ(counters[2].at("name"), "cpuidle");
  EXPECT_EQ(counters[2].at("args").at("state"), 2);
  EXPECT_EQ(counters[3].at("args").at("state"), -1);

  const json flow_start = Phase(doc, "s")[0];
  const json flow_end = Phase(doc, "f")[0];
  EXPECT_EQ(flow_start.at("id"), flow_end.at("id"));
  EXPECT_EQ(flow_start.at("pid"), ChromeJsonWriter::kCpuPidBase + 0);
  EXPECT_EQ(flow_end.at("pid"), ChromeJsonWriter::kCpuPidBase + 1);

  const std::vector<json> instants = Phase(doc, "i");
  EXPECT_EQ(instants[0].at("name"), "wakeup worker");
  EXPECT_EQ(instants[0].at("args").at("waker_cpu"), 0);
  EXPECT_EQ(instants[1].at("name"), "migrate forked \"quoted\"\\");
  EXPECT_EQ(instants[1].at("args").at("from_cpu"), 0);
  EXPECT_EQ(instants[2].at("name"), "exit worker");
  EXPECT_EQ(instants[2].at("pid"), ChromeJsonWriter::kCpuPidBase + 1);
  EXPECT_EQ(instants[2].at("tid"), ChromeJsonWriter::kEventTidBase + 1);
  EXPECT_EQ(instants[3].at("name"), "wakeup init");

  // Metadata: CPU processes named and sorted.
  int named = 0;
  for (const json& m : Phase(doc, "M")) {
    if (m.at("name") == "process_name") {
      const int cpu = m.at("pid").get<int>() - ChromeJsonWriter::kCpuPidBase;
      EXPECT_EQ(m.at("args").at("name"), "CPU " + std::to_string(cpu));
      ++named;
    }
  }
  EXPECT_EQ(named, 2);
}

TEST(ChromeJsonWriterTest, DestructorClosesTheDocument) {
  std::ostringstream out;
  {
    ChromeJsonWriter::Options options;
    options.num_cpus = 4;
    options.wakeup_flows = false;
    ChromeJsonWriter writer(&out, {}, options);
    // Task 7 was running before the first switch seen on CPU 3.
    writer.OnFrequency(100, 0, 800000);
    writer.OnSwitch(2500, 3, 7, -1);
    writer.OnSwitch(3000, 2, -1, 5);
    writer.OnWakeup(3500, 1, 0, 2);
  }
  const json doc = json::parse(out.str());
  const std::vector<json> slices = Phase(doc, "X");
  ASSERT_EQ(slices.size(), 2u);
  EXPECT_EQ(slices[0].at("name"), "task 7");
  EXPECT_DOUBLE_EQ(slices[0].at("ts").get<double>(), 0.1);
  EXPECT_DOUBLE_EQ(slices[0].at("dur").get<double>(), 2.4);
  EXPECT_EQ(slices[1].at("name"), "task 5");  // closed at the last event
  EXPECT_DOUBLE_EQ(slices[1].at("dur").get<double>(), 0.5);
  EXPECT_EQ(CountPhases(doc)["M"], 16);  // 4 CPUs declared up front
  EXPECT_EQ(CountPhases(doc).count("s"), 0u);
}

TEST(ChromeJsonWriterTest, EmptyTraceIsValidJson) {
  std::ostringstream out;
  { ChromeJsonWriter writer(&out, {}); }
  const json doc = json::parse(out.str());
  EXPECT_TRUE(doc.at("traceEvents").empty());
}

TEST(ChromeJsonWriterTest, EscapesControlCharactersAndInvalidUtf8) {
  std::string s;
  AppendJsonEscaped("a\tb\n\x01\"\\ caf\xc3\xa9 \xff end", &s);
  EXPECT_EQ(s, "a\\u0009b\\u000a\\u0001\\\"\\\\ caf\xc3\xa9 \\ufffd end");
  EXPECT_EQ(json::parse("\"" + s + "\"").get<std::string>(),
            "a\tb\n\x01\"\\ caf\xc3\xa9 \xef\xbf\xbd end");
}

TEST(CsvWriterTest, HeaderAndRows) {
  std::ostringstream out;
  CsvWriter writer(&out, {"init", "", "a,b"});
  SyntheticRun(&writer);
  EXPECT_EQ(out.str(),
            "time_ns,event,cpu,task,arg1,arg2\n"
            "0,task_name,,0,init,\n"
            "0,task_name,,2,\"a,b\",\n"
            "0,task_name,,2,\"forked \"\"quoted\"\"\\\",\n"
            "0,frequency_khz,0,,1000000,\n"
            "0,frequency_khz,1,,1200000,\n"
            "1001,switch,0,0,-1,\n"
            "1500,idle,1,,2,\n"
            "2000,wakeup,1,1,0,\n"
            "2100,idle,1,,-1,\n"
            "2200,switch,1,1,-1,\n"
            "3000,migrate,1,2,0,\n"
            "4000,switch,0,2,0,\n"
            "5000,exit,,1,,\n"
            "5000,switch,1,-1,1,\n"
            "5500,wakeup,1,0,1,\n");
  EXPECT_EQ(writer.rows_written(), 15);
  // Every row has six fields (the quoted name holds no comma here).
  for (absl::string_view line :
       absl::StrSplit(out.str(), '\n', absl::SkipEmpty())) {
    if (absl::StrContains(line, "\"")) continue;
    EXPECT_EQ(std::vector<std::string>(absl::StrSplit(line, ',')).size(), 6u)
        << line;
  }
}

TEST(FtraceConverterTest, LisaToChromeJson) {
  std::ostringstream out;
  ChromeJsonWriter writer(&out, {});
  FtraceConverter converter(&writer, &writer);
  absl::Status status = ForEachFtraceEvent(kLisa, [&](const TraceEvent& e) {
    converter.Convert(e);
    return absl::OkStatus();
  });
  ASSERT_TRUE(status.ok()) << status;
  writer.Finish(converter.last_timestamp_ns());

  const json doc = json::parse(out.str());
  std::map<std::string, int> phases = CountPhases(doc);
  // 474 cpu_idle + 16 cpu_frequency.
  EXPECT_EQ(phases["C"], 490);
  // One slice per sched_switch whose prev is not the idle task (pid 0),
  // counted independently with awk: 304; every CPU ends idle.
  EXPECT_EQ(phases["X"], 304);
  EXPECT_EQ(phases["i"], 28);  // sched_migrate_task; no wakeups recorded
  EXPECT_EQ(phases["M"], 6 * 4);
  // Slices are named comm-pid.
  bool found = false;
  for (const json& e : Phase(doc, "X")) {
    if (e.at("name") == "kworker/2:1-2923") found = true;
  }
  EXPECT_TRUE(found);
  // The first converted task is kworker/2:1 (pid 2923), from line 35.
  ASSERT_FALSE(converter.task_pids().empty());
  EXPECT_EQ(converter.task_pids()[0], 2923);
}

TEST(FtraceConverterTest, SurfaceflingerToChromeJsonAndCsv) {
  std::ostringstream json_out;
  {
    ChromeJsonWriter writer(&json_out, {});
    ASSERT_TRUE(ConvertFtraceFile(kSurfaceflinger, &writer).ok());
    EXPECT_EQ(writer.instants_written(), 421);  // sched_wakeup
    EXPECT_GT(writer.flows_written(), 0);
    EXPECT_LE(writer.flows_written(), 421);
  }
  const json doc = json::parse(json_out.str());
  std::map<std::string, int> phases = CountPhases(doc);
  EXPECT_EQ(phases["C"], 621 + 104);
  EXPECT_EQ(phases["X"], 478);  // counted with awk, as for lisa
  EXPECT_EQ(phases["s"], phases["f"]);

  std::ostringstream csv_out;
  CsvWriter csv(&csv_out);
  ASSERT_TRUE(ConvertFtraceFile(kSurfaceflinger, &csv).ok());
  std::map<std::string, int> rows;
  int lines = 0;
  for (absl::string_view line :
       absl::StrSplit(csv_out.str(), '\n', absl::SkipEmpty())) {
    if (lines++ == 0) {
      EXPECT_EQ(line, CsvWriter::kHeader);
      continue;
    }
    std::vector<std::string> fields = absl::StrSplit(line, ',');
    ++rows[fields[1]];
  }
  EXPECT_EQ(rows["switch"], 715);
  EXPECT_EQ(rows["idle"], 621);
  EXPECT_EQ(rows["wakeup"], 421);
  EXPECT_EQ(rows["frequency_khz"], 104);
  EXPECT_GT(rows["task_name"], 0);
}

TEST(FtraceConverterTest, TaskIdsAndNames) {
  std::ostringstream out;
  CsvWriter csv(&out);
  FtraceConverter converter(&csv, &csv);
  EXPECT_EQ(converter.TaskId(0, "swapper/1"), -1);
  EXPECT_EQ(converter.TaskId(4000, "sh"), 0);
  EXPECT_EQ(converter.TaskId(17, "kthreadd"), 1);
  EXPECT_EQ(converter.TaskId(4000, "sh"), 0);   // no new name row
  EXPECT_EQ(converter.TaskId(4000, "cat"), 0);  // exec: renamed
  EXPECT_EQ(converter.TaskId(4000, ""), 0);
  EXPECT_THAT(converter.task_pids(), ElementsAre(4000, 17));
  csv.OnTaskExit(5, 1);
  EXPECT_EQ(converter.TaskId(5, "late"), 2);
  csv.Flush();
  EXPECT_EQ(out.str(),
            "time_ns,event,cpu,task,arg1,arg2\n"
            "5,task_name,,0,sh-4000,\n"
            "5,task_name,,1,kthreadd-17,\n"
            "5,task_name,,0,cat-4000,\n"
            "5,exit,,1,,\n"
            "5,task_name,,2,late-5,\n");
}

TEST(FtraceConverterTest, WakingOption) {
  const std::string text =
      "a-1 [000] 1.0: sched_waking: comm=b pid=2 prio=120 target_cpu=001\n"
      "a-1 [000] 1.1: sched_wakeup: comm=b pid=2 prio=120 target_cpu=001\n"
      "a-1 [000] 1.2: sched_wakeup_new: comm=c pid=3 prio=120 "
      "target_cpu=000\n";
  for (bool from_waking : {false, true}) {
    std::istringstream in(text);
    FtraceReader reader(&in, "t");
    std::ostringstream out;
    CsvWriter csv(&out);
    FtraceConverter::Options options;
    options.wakeups_from_waking = from_waking;
    FtraceConverter converter(&csv, nullptr, options);
    TraceEvent e;
    while (*reader.Next(&e)) converter.Convert(e);
    if (from_waking) {
      EXPECT_EQ(out.str(),
                "time_ns,event,cpu,task,arg1,arg2\n"
                "1000000000,wakeup,1,0,0,\n");
    } else {
      EXPECT_EQ(out.str(),
                "time_ns,event,cpu,task,arg1,arg2\n"
                "1100000000,wakeup,1,0,0,\n"
                "1200000000,wakeup,0,1,0,\n");
    }
  }
}

}  // namespace
}  // namespace schedsim::traces
