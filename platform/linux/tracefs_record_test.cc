// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "platform/linux/tracefs_record.h"

#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace schedsim::platform::host {
namespace {

using ::testing::HasSubstr;

void MakeDirs(const std::string& path) {
  for (size_t i = 1; i <= path.size(); ++i) {
    if (i == path.size() || path[i] == '/') {
      mkdir(path.substr(0, i).c_str(), 0755);
    }
  }
}

void WriteFile(const std::string& path, const std::string& text) {
  MakeDirs(path.substr(0, path.rfind('/')));
  std::ofstream(path) << text;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string FakeTracefs(const std::string& name) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string root =
      std::string(tmp != nullptr ? tmp : "/tmp") + "/tracefs_" + name;
  WriteFile(root + "/tracing_on", "0\n");
  WriteFile(root + "/trace", "# an old buffer\n");
  WriteFile(root + "/buffer_size_kb", "1408\n");
  WriteFile(root + "/events/power/cpu_idle/enable", "0\n");
  WriteFile(root + "/events/sched/sched_switch/enable", "1\n");
  return root;
}

// The events are on and the buffer cleared while it waits; the trace is
// copied out; every setting is put back.
TEST(TracefsRecordTest, RecordsAndRestores) {
  const std::string root = FakeTracefs("ok");
  TracefsRecordOptions o;
  o.root = root;
  o.events = {"power/cpu_idle", "sched/sched_switch"};
  o.buffer_kb = 4096;
  o.duration_ns = 5;
  o.out_file = root + "/../tracefs_ok.txt";
  int64_t waited = -1;
  o.wait = [&](int64_t ns) {
    waited = ns;
    EXPECT_EQ(ReadFile(root + "/tracing_on"), "1\n");
    EXPECT_EQ(ReadFile(root + "/events/power/cpu_idle/enable"), "1\n");
    EXPECT_EQ(ReadFile(root + "/buffer_size_kb"), "4096\n");
    EXPECT_EQ(ReadFile(root + "/trace"), "") << "the buffer is cleared";
    WriteFile(root + "/trace", "  <idle>-0 [001] 1.0: cpu_idle: state=1\n");
  };
  ASSERT_TRUE(RecordTracefs(o).ok());
  EXPECT_EQ(waited, 5);
  EXPECT_EQ(ReadFile(o.out_file), "  <idle>-0 [001] 1.0: cpu_idle: state=1\n");
  EXPECT_EQ(ReadFile(root + "/tracing_on"), "0\n");
  EXPECT_EQ(ReadFile(root + "/events/power/cpu_idle/enable"), "0\n");
  EXPECT_EQ(ReadFile(root + "/events/sched/sched_switch/enable"), "1\n");
  EXPECT_EQ(ReadFile(root + "/buffer_size_kb"), "1408\n");
}

// An empty buffer (nothing happened) is an empty recording, not an error.
TEST(TracefsRecordTest, EmptyBufferIsAnEmptyRecording) {
  const std::string root = FakeTracefs("empty");
  TracefsRecordOptions o;
  o.root = root;
  o.events = {"power/cpu_idle"};
  o.out_file = root + "/../tracefs_empty.txt";
  o.wait = [](int64_t) {};
  EXPECT_TRUE(RecordTracefs(o).ok());
  EXPECT_EQ(ReadFile(o.out_file), "");
}

TEST(TracefsRecordTest, MissingEventIsNamedAndNothingStaysChanged) {
  const std::string root = FakeTracefs("noevent");
  TracefsRecordOptions o;
  o.root = root;
  o.events = {"power/cpu_idle", "sched/sched_waking"};
  o.out_file = root + "/../tracefs_noevent.txt";
  o.wait = [](int64_t) { ADD_FAILURE() << "must not record"; };
  absl::Status s = RecordTracefs(o);
  EXPECT_TRUE(absl::IsNotFound(s));
  EXPECT_THAT(s.message(), HasSubstr("no trace event sched/sched_waking"));
  EXPECT_EQ(ReadFile(root + "/events/power/cpu_idle/enable"), "0\n");
  EXPECT_EQ(ReadFile(root + "/tracing_on"), "0\n");
}

TEST(TracefsRecordTest, NoTracefsSaysHowToMountIt) {
  TracefsRecordOptions o;
  o.root = "/nonexistent/tracing";
  absl::Status s = RecordTracefs(o);
  EXPECT_TRUE(absl::IsNotFound(s));
  EXPECT_THAT(s.message(), HasSubstr("mount -t tracefs"));
}

TEST(TracefsRecordTest, ShadowEventsPerFamily) {
  EXPECT_EQ(ShadowLiveEvents(true).front(), "power/cpu_idle");
  EXPECT_THAT(ShadowLiveEvents(false),
              ::testing::Contains("sched/sched_waking"));
}

}  // namespace
}  // namespace schedsim::platform::host
