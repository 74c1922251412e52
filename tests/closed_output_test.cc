// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Issue 49 #6: `schedsim run FILE --trace=perfetto | head -40` left a
// 0-byte trace file: the process died of SIGPIPE before writing its
// traces. The binary runs here with stdout a pipe whose reader is gone.

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace {

namespace fs = std::filesystem;

constexpr char kExperiment[] = R"({
  "machine": "skylake-e3-1240v5",
  "workload": {"model": "rtapp", "params": {"json":
    "{\"tasks\": {\"t\": {\"instance\": 4, \"run\": 200, \"sleep\": 300}}}"}},
  "iterations": 2,
  "duration_ms": 20,
  "variants": [{"name": "base"}, {"name": "save", "cpufreq": "powersave"}]
})";

struct Exit {
  bool signaled = false;
  int code = 0;  // exit status, or the signal
};

// Runs `args` with stdout the write end of a pipe whose read end is closed
// first (the reader went away, as `head` does), stderr to /dev/null.
Exit RunWithClosedStdout(const std::vector<std::string>& args) {
  int fds[2];
  if (pipe(fds) != 0) return {true, -1};
  close(fds[0]);
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 1);
    close(fds[1]);
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, 2);
    signal(SIGPIPE, SIG_DFL);  // as a shell starts it
    std::vector<char*> argv;
    for (const std::string& a : args)
      argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  close(fds[1]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFSIGNALED(status)) return {true, WTERMSIG(status)};
  return {false, WEXITSTATUS(status)};
}

TEST(ClosedOutputTest, RunStillWritesItsTracesAndResults) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  const fs::path dir = fs::path(tmp != nullptr ? tmp : "/tmp") / "closed";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string file = (dir / "e.json").string();
  std::ofstream(file) << kExperiment;
  const std::string out = (dir / "out").string();
  const Exit e =
      RunWithClosedStdout({"cli/schedsim", "run", file, "--trace=perfetto",
                           "--out=" + out, "--jobs=1"});
  EXPECT_FALSE(e.signaled) << "killed by signal " << e.code;
  EXPECT_EQ(e.code, 0);
  for (const char* name :
       {"trace-base.json", "trace-save.json", "result.json"}) {
    const fs::path path = fs::path(out) / name;
    ASSERT_TRUE(fs::exists(path)) << path;
    EXPECT_GT(fs::file_size(path), 100u) << path;
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_FALSE(
        nlohmann::json::parse(text.str(), nullptr, false).is_discarded())
        << path << " is not whole JSON";
  }
}

}  // namespace
