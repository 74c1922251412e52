// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "shadow/shadow.h"

#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "platform/registry.h"
#include "topology/presets.h"
#include "traces/ftrace.h"

namespace schedsim::traces {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Test data, relative to the runfiles root (the test's working directory).
constexpr char kLisa[] = "tests/data/lisa_sched_load_trace.txt";
constexpr char kSurfaceflinger[] =
    "tests/data/trappy_trace_surfaceflinger_ftrace.txt";

constexpr int64_t kUs = 1000;
constexpr int64_t kMs = 1000000;

std::string WriteTemp(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

topology::Topology Machine(const std::string& name) {
  absl::StatusOr<topology::Topology> t = topology::MakePreset(name);
  EXPECT_TRUE(t.ok()) << t.status();
  return *std::move(t);
}

// cpu_idle enters per cpu_id and per (cpu_id, state), counted directly.
struct EnterCounts {
  std::map<int, int64_t> by_cpu;
  std::map<std::pair<int, int>, int64_t> by_cpu_state;
};
EnterCounts CountEnters(const std::string& path) {
  EnterCounts c;
  absl::Status s = ForEachFtraceEvent(path, [&](const TraceEvent& e) {
    if (e.type == EventType::kCpuIdle && e.idle_state() >= 0) {
      ++c.by_cpu[e.cpu_id];
      ++c.by_cpu_state[{e.cpu_id, e.idle_state()}];
    }
    return absl::OkStatus();
  });
  EXPECT_TRUE(s.ok()) << s;
  return c;
}

int64_t Trace(const std::vector<std::vector<int64_t>>& m) {
  int64_t t = 0;
  for (size_t i = 0; i < m.size(); ++i) t += m[i][i];
  return t;
}
int64_t Sum(const std::vector<std::vector<int64_t>>& m) {
  int64_t t = 0;
  for (const auto& row : m) {
    for (int64_t v : row) t += v;
  }
  return t;
}

absl::StatusOr<IdleShadowReport> RunIdle(const std::string& trace,
                                         const std::string& governor,
                                         const std::string& machine) {
  auto g = platform::PolicyRegistry::Global().MakeIdle(governor);
  if (!g.ok()) return g.status();
  return ShadowIdle(trace, Machine(machine), **g, IdleShadowOptions());
}

// Checks what holds for any governor: periods per CPU equal the trace's
// cpu_idle enters, the confusion matrix accounts for every period and its
// rows for the recorded states, agreements are its diagonal, and the
// kernel's own cost does not depend on the governor.
void CheckIdleInvariants(const std::string& trace, const IdleShadowReport& r) {
  const EnterCounts enters = CountEnters(trace);
  ASSERT_EQ(r.cpus.size(), enters.by_cpu.size());
  int64_t total = 0;
  for (const IdleShadowCpu& c : r.cpus) {
    SCOPED_TRACE(c.cpu);
    EXPECT_EQ(c.periods, enters.by_cpu.at(c.cpu));
    EXPECT_EQ(Sum(c.confusion), c.periods);
    EXPECT_EQ(Trace(c.confusion), c.agreements);
    for (size_t s = 0; s < c.confusion.size(); ++s) {
      int64_t row = 0;
      for (int64_t v : c.confusion[s]) row += v;
      auto it = enters.by_cpu_state.find({c.cpu, static_cast<int>(s)});
      EXPECT_EQ(row, it == enters.by_cpu_state.end() ? 0 : it->second);
    }
    EXPECT_GE(c.agreement_pct(), 0.0);
    EXPECT_LE(c.agreement_pct(), 100.0);
    EXPECT_LE(c.governor.too_deep + c.governor.too_shallow, c.periods);
    EXPECT_LE(c.kernel.too_deep + c.kernel.too_shallow, c.periods);
    total += c.periods;
  }
  EXPECT_EQ(r.total.periods, total);
  EXPECT_EQ(Sum(r.total.confusion), total);
  EXPECT_EQ(Trace(r.total.confusion), r.total.agreements);
  EXPECT_GE(r.total.agreement_pct(), 0.0);
  EXPECT_LE(r.total.agreement_pct(), 100.0);
}

std::vector<int64_t> Agreements(const IdleShadowReport& r) {
  std::vector<int64_t> a;
  for (const IdleShadowCpu& c : r.cpus) a.push_back(c.agreements);
  return a;
}

// --- menu and teo on the recorded traces ------------------------------------
//
// The exact counts pin this implementation's behaviour (the device's
// inputs, the governors' code): a change to either shows here. They are
// low because the recorded kernels (Arm big.LITTLE, states WFI / core off
// / cluster off) are mapped by index onto x86 tables.

TEST(ShadowIdleTest, MenuOnLisaSkylake) {
  absl::StatusOr<IdleShadowReport> r =
      RunIdle(kLisa, "menu", "skylake-e3-1240v5");
  ASSERT_TRUE(r.ok()) << r.status();
  CheckIdleInvariants(kLisa, *r);
  EXPECT_EQ(r->governor, "menu");
  EXPECT_EQ(r->machine, "skylake-e3-1240v5");
  EXPECT_EQ(r->total.periods, 237);
  EXPECT_THAT(Agreements(*r), ElementsAre(2, 2, 1, 0, 0, 2));
  EXPECT_EQ(r->total.agreements, 7);
  EXPECT_EQ(r->total.governor.too_deep, 54);
  EXPECT_EQ(r->total.governor.too_shallow, 67);
  EXPECT_EQ(r->total.kernel.too_deep, 1);
  EXPECT_EQ(r->total.kernel.too_shallow, 236);
  EXPECT_EQ(r->total.kernel.exit_latency_ns, 654 * kUs);
  // Each CPU's first cpu_idle event is an exit; the last is an enter.
  EXPECT_EQ(r->unmatched_exits, 6);
  EXPECT_EQ(r->open_at_end, 6);
}

TEST(ShadowIdleTest, TeoOnLisaSkylake) {
  absl::StatusOr<IdleShadowReport> r =
      RunIdle(kLisa, "teo", "skylake-e3-1240v5");
  ASSERT_TRUE(r.ok()) << r.status();
  CheckIdleInvariants(kLisa, *r);
  EXPECT_EQ(r->total.periods, 237);
  EXPECT_THAT(Agreements(*r), ElementsAre(2, 0, 0, 0, 0, 0));
  EXPECT_EQ(r->total.agreements, 2);
  EXPECT_EQ(r->total.governor.too_deep, 34);
  EXPECT_EQ(r->total.governor.too_shallow, 74);
  EXPECT_EQ(r->total.kernel.too_deep, 1);
  EXPECT_EQ(r->total.kernel.too_shallow, 236);
}

TEST(ShadowIdleTest, MenuOnSurfaceflingerSkylake) {
  absl::StatusOr<IdleShadowReport> r =
      RunIdle(kSurfaceflinger, "menu", "skylake-e3-1240v5");
  ASSERT_TRUE(r.ok()) << r.status();
  CheckIdleInvariants(kSurfaceflinger, *r);
  EXPECT_EQ(r->total.periods, 310);
  EXPECT_THAT(Agreements(*r), ElementsAre(3, 1, 0, 0, 3, 2, 0, 0));
  EXPECT_EQ(r->total.agreements, 9);
  EXPECT_EQ(r->total.governor.too_deep, 88);
  EXPECT_EQ(r->total.governor.too_shallow, 130);
}

TEST(ShadowIdleTest, TeoOnSurfaceflingerSkylake) {
  absl::StatusOr<IdleShadowReport> r =
      RunIdle(kSurfaceflinger, "teo", "skylake-e3-1240v5");
  ASSERT_TRUE(r.ok()) << r.status();
  CheckIdleInvariants(kSurfaceflinger, *r);
  EXPECT_EQ(r->total.periods, 310);
  EXPECT_THAT(Agreements(*r), ElementsAre(2, 3, 0, 0, 2, 1, 0, 0));
  EXPECT_EQ(r->total.agreements, 8);
  EXPECT_EQ(r->total.governor.too_deep, 52);
  EXPECT_EQ(r->total.governor.too_shallow, 156);
}

// The zen3 table (POLL, C1, C2) has as many states as the traces' Arm
// tables (WFI, core off, cluster off).
TEST(ShadowIdleTest, MenuAndTeoOnZen3Table) {
  struct Case {
    const char* trace;
    const char* governor;
    int64_t periods;
    int64_t agreements;
  };
  for (const Case& c :
       {Case{kLisa, "menu", 237, 39}, Case{kLisa, "teo", 237, 30},
        Case{kSurfaceflinger, "menu", 310, 85},
        Case{kSurfaceflinger, "teo", 310, 74}}) {
    SCOPED_TRACE(std::string(c.trace) + " " + c.governor);
    absl::StatusOr<IdleShadowReport> r =
        RunIdle(c.trace, c.governor, "zen3-2s-nps1");
    ASSERT_TRUE(r.ok()) << r.status();
    CheckIdleInvariants(c.trace, *r);
    ASSERT_EQ(r->states.size(), 3u);
    EXPECT_EQ(r->total.periods, c.periods);
    EXPECT_EQ(r->total.agreements, c.agreements);
  }
}

TEST(ShadowIdleTest, Deterministic) {
  absl::StatusOr<IdleShadowReport> a =
      RunIdle(kSurfaceflinger, "menu", "skylake-e3-1240v5");
  absl::StatusOr<IdleShadowReport> b =
      RunIdle(kSurfaceflinger, "menu", "skylake-e3-1240v5");
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->total.confusion, b->total.confusion);
  EXPECT_EQ(a->total.governor.exit_latency_ns,
            b->total.governor.exit_latency_ns);
}

// --- The device the governor sees, on a synthetic trace --------------------

// Chooses a scripted state and records what it was shown.
class RecordingGovernor final : public platform::IdleGovernor {
 public:
  explicit RecordingGovernor(int choice) : choice_(choice) {}
  struct Selected {
    int cpu;
    int64_t now_ns, sleep_length_ns, delta_tick_ns, latency_limit_ns;
    int64_t tick_period_ns;
    int nr_iowait;
  };
  struct Reflected {
    int cpu, index;
    int64_t residency_ns;
    bool poll_time_limit;
  };
  absl::string_view name() const override { return "recording"; }
  void Enable(platform::IdleDevice& dev) override {
    enabled.push_back(dev.cpu());
  }
  int Select(platform::IdleDevice& dev, bool* stop_tick) override {
    Selected s;
    s.cpu = dev.cpu();
    s.now_ns = dev.now_ns();
    s.sleep_length_ns = dev.sleep_length_ns(&s.delta_tick_ns);
    s.latency_limit_ns = dev.latency_limit_ns();
    s.nr_iowait = dev.nr_iowait();
    s.tick_period_ns = dev.tick_period_ns();
    selected.push_back(s);
    EXPECT_FALSE(dev.tick_stopped());
    return choice_;
  }
  void Reflect(platform::IdleDevice& dev, int index) override {
    reflected.push_back(
        {dev.cpu(), index, dev.last_residency_ns(), dev.poll_time_limit()});
    EXPECT_EQ(dev.stats(index).time_ns >= dev.last_residency_ns(), true);
  }
  std::vector<int> enabled;
  std::vector<Selected> selected;
  std::vector<Reflected> reflected;

 private:
  int choice_;
};

// Times in ms: CPU 0 leaves an unknown state at 1 (ignored), idles in
// state 1 from 2 to 2.5 and in state 2 from 4 to the end (5, cut); CPU 1
// has a task block in D at 3, idles in state 2 from 3.1, re-enters state 0
// at 3.3 without an exit (the first period closes there), the task is woken
// at 3.4 and CPU 1 leaves idle at 3.5.
constexpr char kIdleTrace[] =
    "cpus=2\n"
    "  <idle>-0 [000] 0.001000: cpu_idle: state=4294967295 cpu_id=0\n"
    "  <idle>-0 [000] 0.002000: cpu_idle: state=1 cpu_id=0\n"
    "  <idle>-0 [000] 0.002500: cpu_idle: state=4294967295 cpu_id=0\n"
    "  task-10  [001] 0.003000: sched_switch: prev_comm=task prev_pid=10 "
    "prev_prio=120 prev_state=D ==> next_comm=swapper/1 next_pid=0 "
    "next_prio=120\n"
    "  <idle>-0 [001] 0.003100: cpu_idle: state=2 cpu_id=1\n"
    "  <idle>-0 [001] 0.003300: cpu_idle: state=0 cpu_id=1\n"
    "  <idle>-0 [001] 0.003400: sched_wakeup: comm=task pid=10 prio=120 "
    "target_cpu=001\n"
    "  <idle>-0 [001] 0.003500: cpu_idle: state=4294967295 cpu_id=1\n"
    "  <idle>-0 [000] 0.004000: cpu_idle: state=2 cpu_id=0\n"
    "  <idle>-0 [001] 0.005000: print: tracing_mark_write: end\n";

TEST(ShadowIdleTest, DeviceInputsOnSyntheticTrace) {
  const std::string path = WriteTemp("idle.txt", kIdleTrace);
  // zen3's acpi_idle table: POLL 0/0, C1 1/2 us, C2 400/800 us.
  const topology::Topology zen3 = Machine("zen3-2s-nps1");
  RecordingGovernor poll(/*choice=*/0);
  IdleShadowOptions options;
  options.latency_limit_ns = 50 * kUs;
  absl::StatusOr<IdleShadowReport> r = ShadowIdle(path, zen3, poll, options);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(poll.enabled, ElementsAre(0, 1));

  // HZ=250: ticks every 4 ms of trace time. The sleep length is the time
  // to the next tick boundary (a full tick at a boundary).
  ASSERT_EQ(poll.selected.size(), 4u);
  const auto sel = [&](int i) { return poll.selected[i]; };
  EXPECT_EQ(sel(0).cpu, 0);
  EXPECT_EQ(sel(0).now_ns, 2 * kMs);
  EXPECT_EQ(sel(0).sleep_length_ns, 2 * kMs);
  EXPECT_EQ(sel(0).delta_tick_ns, 2 * kMs);
  EXPECT_EQ(sel(0).latency_limit_ns, 50 * kUs);
  EXPECT_EQ(sel(0).nr_iowait, 0);
  EXPECT_EQ(sel(0).tick_period_ns, 4 * kMs);
  EXPECT_EQ(sel(1).cpu, 1);
  EXPECT_EQ(sel(1).now_ns, 3100 * kUs);
  EXPECT_EQ(sel(1).sleep_length_ns, 900 * kUs);
  EXPECT_EQ(sel(1).nr_iowait, 1);  // task-10 blocked in D on CPU 1
  EXPECT_EQ(sel(2).now_ns, 3300 * kUs);
  EXPECT_EQ(sel(2).nr_iowait, 1);
  EXPECT_EQ(sel(3).cpu, 0);
  EXPECT_EQ(sel(3).now_ns, 4 * kMs);
  EXPECT_EQ(sel(3).sleep_length_ns, 4 * kMs);

  // Reflect gets the measured residency; POLL beyond cpuidle_poll_time
  // (C2's 800 us capped at TICK_NSEC / 16 = 250 us) reports the limit hit.
  ASSERT_EQ(poll.reflected.size(), 4u);
  const auto ref = [&](int i) { return poll.reflected[i]; };
  EXPECT_EQ(ref(0).cpu, 0);
  EXPECT_EQ(ref(0).residency_ns, 500 * kUs);
  EXPECT_TRUE(ref(0).poll_time_limit);
  EXPECT_EQ(ref(1).cpu, 1);
  EXPECT_EQ(ref(1).residency_ns, 200 * kUs);
  EXPECT_FALSE(ref(1).poll_time_limit);
  EXPECT_EQ(ref(2).residency_ns, 200 * kUs);
  EXPECT_EQ(ref(3).cpu, 0);
  EXPECT_EQ(ref(3).residency_ns, 1 * kMs);  // cut at the last event
  EXPECT_TRUE(ref(3).poll_time_limit);

  EXPECT_EQ(r->unmatched_exits, 1);
  EXPECT_EQ(r->open_at_end, 1);
  EXPECT_EQ(r->first_ns, 1 * kMs);
  EXPECT_EQ(r->last_ns, 5 * kMs);
  ASSERT_EQ(r->cpus.size(), 2u);
  EXPECT_EQ(r->cpus[0].periods, 2);
  EXPECT_EQ(r->cpus[0].idle_ns, 1500 * kUs);
  EXPECT_EQ(r->cpus[1].periods, 2);
  // Always POLL: agrees only with the recorded POLL period.
  EXPECT_EQ(r->total.agreements, 1);
  EXPECT_EQ(r->total.confusion, (std::vector<std::vector<int64_t>>{
                                    {1, 0, 0}, {1, 0, 0}, {2, 0, 0}}));
  // The kernel's C2 for 200 us is too deep, its POLL for 200 us too
  // shallow (C1 fits); C1 for 500 us and C2 for 1 ms fit (the oracle's
  // choices). POLL is always too shallow here.
  EXPECT_EQ(r->total.kernel.too_deep, 1);
  EXPECT_EQ(r->total.kernel.too_shallow, 1);
  EXPECT_EQ(r->total.kernel.exit_latency_ns, 801 * kUs);
  EXPECT_EQ(r->total.kernel.oracle, 2);
  EXPECT_EQ(r->total.governor.too_deep, 0);
  EXPECT_EQ(r->total.governor.too_shallow, 4);
  EXPECT_EQ(r->total.governor.exit_latency_ns, 0);
  EXPECT_EQ(r->total.governor.oracle, 0);

  // An assumed timer replaces the tick as the sleep length.
  RecordingGovernor timer(/*choice=*/1);
  options.assume_timer_in_ns = 10 * kMs;
  options.hz = 1000;
  r = ShadowIdle(path, zen3, timer, options);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(timer.selected.size(), 4u);
  EXPECT_EQ(timer.selected[1].sleep_length_ns, 10 * kMs);
  EXPECT_EQ(timer.selected[1].delta_tick_ns, 900 * kUs);
  EXPECT_EQ(timer.selected[1].tick_period_ns, 1 * kMs);
  EXPECT_EQ(r->total.agreements, 1);
  EXPECT_EQ(r->total.governor.too_deep, 0);
  EXPECT_EQ(r->total.governor.too_shallow, 1);  // C1 for 1 ms: C2 fits
}

TEST(ShadowIdleTest, Errors) {
  const topology::Topology zen3 = Machine("zen3-2s-nps1");
  RecordingGovernor g(0);
  // A recorded state beyond the machine's table names the line.
  const std::string deep =
      WriteTemp("deep.txt",
                "cpus=1\n"
                "  <idle>-0 [000] 0.002000: cpu_idle: state=3 cpu_id=0\n");
  absl::StatusOr<IdleShadowReport> r =
      ShadowIdle(deep, zen3, g, IdleShadowOptions());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(r.status().message(),
              HasSubstr("deep.txt:2: cpu_idle state 3 on CPU 0 is beyond the "
                        "idle state table of zen3-2s-nps1 (3 states"));
  // A malformed line.
  const std::string bad = WriteTemp(
      "bad.txt", "  <idle>-0 [000] 0.002000: cpu_idle: state=1 cpu=0\n");
  r = ShadowIdle(bad, zen3, g, IdleShadowOptions());
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("bad.txt:1: cpu_idle"));
  // Missing file, bad options.
  r = ShadowIdle("no/such/trace.txt", zen3, g, IdleShadowOptions());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kNotFound);
  IdleShadowOptions zero_hz;
  zero_hz.hz = 0;
  r = ShadowIdle(kLisa, zen3, g, zero_hz);
  EXPECT_THAT(r.status().message(), HasSubstr("HZ"));
  // A governor choosing a state the table lacks.
  RecordingGovernor wild(7);
  r = ShadowIdle(kLisa, zen3, wild, IdleShadowOptions());
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("chose idle state 7"));
}

// --- Placement --------------------------------------------------------------

TEST(PinnedKthreadCpuTest, Names) {
  EXPECT_EQ(PinnedKthreadCpu("kworker/3:1"), 3);
  EXPECT_EQ(PinnedKthreadCpu("kworker/12:0H"), 12);
  EXPECT_EQ(PinnedKthreadCpu("ksoftirqd/5"), 5);
  EXPECT_EQ(PinnedKthreadCpu("migration/0"), 0);
  EXPECT_EQ(PinnedKthreadCpu("kworker/u16:11"), -1);  // unbound
  EXPECT_EQ(PinnedKthreadCpu("kworker/3"), -1);
  EXPECT_EQ(PinnedKthreadCpu("ksoftirqd/5x"), -1);
  EXPECT_EQ(PinnedKthreadCpu("surfaceflinger"), -1);
}

// Returns a scripted CPU (prev by default) and records each request and
// the rebuilt state it was shown.
class RecordingPlacement final : public platform::PlacementPolicy {
 public:
  struct Call {
    platform::WakeupRequest request;
    std::vector<bool> idle;  // available_idle of CPUs 0-3
    std::vector<int> nr_running;
    int allowed_count;
  };
  absl::string_view name() const override { return "recording"; }
  void Attach(const topology::Topology& topology,
              const topology::SchedDomains& domains) override {
    ++attached;
  }
  int SelectIdleSibling(platform::SchedView& view,
                        const platform::WakeupRequest& request) override {
    Call c;
    c.request = request;
    for (int cpu = 0; cpu < 4; ++cpu) {
      c.idle.push_back(view.available_idle(cpu));
      c.nr_running.push_back(view.nr_running(cpu));
    }
    c.allowed_count = request.allowed->Count();
    EXPECT_NE(request.recent_used_cpu, nullptr);
    calls.push_back(c);
    return answer >= 0 ? answer : request.prev_cpu;
  }
  int attached = 0;
  int answer = -1;
  std::vector<Call> calls;
};

// Times in us after 1 s. Four trace CPUs on an 8-CPU machine.
constexpr char kWakeTrace[] =
    "# tracer: nop\n"
    "#P:4\n"
    // Line 3: `a` sleeps on CPU 0, `b` runs there.
    "  a-100 [000] d..3 1.000000: sched_switch: prev_comm=a prev_pid=100 "
    "prev_prio=120 prev_state=S ==> next_comm=b next_pid=200 "
    "next_prio=120\n"
    "  <idle>-0 [001] d..2 1.000100: cpu_idle: state=1 cpu_id=1\n"
    // Line 5: `b` wakes `a` onto CPU 1 and sleeps 20 us later: sync.
    "  b-200 [000] d..4 1.000200: sched_wakeup: comm=a pid=100 prio=120 "
    "target_cpu=001\n"
    "  b-200 [000] d..3 1.000220: sched_switch: prev_comm=b prev_pid=200 "
    "prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 "
    "next_prio=120\n"
    // Line 7: a sched_waking (prev = CPU 3) completed on line 8 (CPU 2).
    "  <idle>-0 [002] d..4 1.000300: sched_waking: comm=c pid=300 prio=120 "
    "target_cpu=003\n"
    "  <idle>-0 [002] d..4 1.000310: sched_wakeup: comm=c pid=300 prio=120 "
    "target_cpu=002\n"
    // Not evaluated: RT, a per-CPU kthread on its CPU, no known prev,
    // fork, a sched_waking without its sched_wakeup.
    "  <idle>-0 [003] d..4 1.000400: sched_wakeup: comm=rtt pid=400 prio=49 "
    "target_cpu=003\n"
    "  <idle>-0 [003] d..4 1.000500: sched_wakeup: comm=kworker/3:1 pid=500 "
    "prio=120 target_cpu=003\n"
    "  <idle>-0 [003] d..4 1.000600: sched_wakeup: comm=newbie pid=600 "
    "prio=120 target_cpu=003\n"
    "  <idle>-0 [003] d..4 1.000700: sched_wakeup_new: comm=child pid=700 "
    "prio=120 target_cpu=003\n"
    "  <idle>-0 [001] d..4 1.000800: sched_waking: comm=zzz pid=800 "
    "prio=120 target_cpu=001\n";

TEST(ShadowPlacementTest, RebuiltStateOnSyntheticTrace) {
  const std::string path = WriteTemp("wake.txt", kWakeTrace);
  const topology::Topology skylake = Machine("skylake-e3-1240v5");
  RecordingPlacement policy;
  absl::StatusOr<PlacementShadowReport> r =
      ShadowPlacement(path, skylake, policy, PlacementShadowOptions());
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(policy.attached, 1);
  EXPECT_EQ(r->trace_cpus, 4);
  ASSERT_EQ(policy.calls.size(), 2u);

  // Line 5: waker CPU 0, prev 0 (where `a` slept); sync, so the target is
  // the waking CPU. CPU 0 runs `b`; 1-3 idle (CPU 3 has no event yet).
  const RecordingPlacement::Call& c0 = policy.calls[0];
  EXPECT_EQ(c0.request.this_cpu, 0);
  EXPECT_EQ(c0.request.prev_cpu, 0);
  EXPECT_EQ(c0.request.target, 0);
  EXPECT_EQ(c0.request.wake_flags, platform::kWfTtwu | platform::kWfSync);
  EXPECT_FALSE(c0.request.waker_is_per_cpu_kthread);
  EXPECT_EQ(c0.allowed_count, 4);
  EXPECT_THAT(c0.idle, ElementsAre(false, true, true, true));
  EXPECT_THAT(c0.nr_running, ElementsAre(1, 0, 0, 0));
  // Line 7: at the sched_waking: prev = its target_cpu (3), waker CPU 2,
  // target prev. `b` has gone to sleep; `a` is queued on CPU 1.
  const RecordingPlacement::Call& c1 = policy.calls[1];
  EXPECT_EQ(c1.request.this_cpu, 2);
  EXPECT_EQ(c1.request.prev_cpu, 3);
  EXPECT_EQ(c1.request.target, 3);
  EXPECT_EQ(c1.request.wake_flags, platform::kWfTtwu);
  EXPECT_THAT(c1.idle, ElementsAre(true, false, true, true));
  EXPECT_THAT(c1.nr_running, ElementsAre(0, 1, 0, 0));
  EXPECT_NE(c0.request.task, c1.request.task);

  EXPECT_EQ(r->policy, "recording");
  EXPECT_EQ(r->wakeup_events, 6);
  EXPECT_EQ(r->waking_events, 2);
  EXPECT_EQ(r->evaluated, 2);
  EXPECT_EQ(r->skipped_rt, 1);
  EXPECT_EQ(r->skipped_pinned, 1);
  EXPECT_EQ(r->skipped_no_prev, 1);
  EXPECT_EQ(r->skipped_wakeup_new, 1);
  EXPECT_EQ(r->skipped_unmatched_waking, 1);
  EXPECT_EQ(r->sync_wakeups, 1);
  EXPECT_EQ(r->waker_targets, 1);
  // The policy said 0 (busy) and 3 (idle); the kernel 1 and 2 (both idle).
  EXPECT_EQ(r->agreements, 0);
  EXPECT_EQ(r->policy_idle, 1);
  EXPECT_EQ(r->kernel_idle, 2);
  EXPECT_EQ(r->both_idle, 1);
  EXPECT_EQ(r->kernel_idle_policy_busy, 1);
  EXPECT_EQ(r->policy_idle_kernel_busy, 0);
  EXPECT_EQ(r->both_busy, 0);
  EXPECT_EQ(r->policy_chose_target, 2);
  EXPECT_EQ(r->kernel_chose_other, 1);
  EXPECT_EQ(r->kernel_chose_this, 1);
  EXPECT_EQ(r->probes, 2 * 8);
  EXPECT_EQ(r->confusion[1][0], 1);
  EXPECT_EQ(r->confusion[2][3], 1);
  EXPECT_EQ(Sum(r->confusion), 2);

  // Forced targets; fork wake-ups included.
  RecordingPlacement waker;
  PlacementShadowOptions options;
  options.target = WakeTarget::kWaker;
  options.include_wakeup_new = true;
  r = ShadowPlacement(path, skylake, waker, options);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->waker_targets, r->evaluated);
  EXPECT_EQ(r->skipped_wakeup_new, 0);
  // The forked child has no previous CPU.
  EXPECT_EQ(r->skipped_no_prev, 2);
  ASSERT_EQ(waker.calls.size(), 2u);
  EXPECT_EQ(waker.calls[1].request.target, 2);
  RecordingPlacement prev;
  options.target = WakeTarget::kPrev;
  options.sync_window_ns = 10 * kUs;  // too short: not sync
  r = ShadowPlacement(path, skylake, prev, options);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->sync_wakeups, 0);
  EXPECT_EQ(r->waker_targets, 0);
}

TEST(ShadowPlacementTest, Errors) {
  const topology::Topology skylake = Machine("skylake-e3-1240v5");
  RecordingPlacement policy;
  // A CPU the machine lacks, named with its line.
  const std::string far =
      WriteTemp("far.txt",
                "  <idle>-0 [001] d..2 1.000100: cpu_idle: state=1 cpu_id=1\n"
                "  <idle>-0 [009] d..2 1.000200: cpu_idle: state=1 cpu_id=9\n");
  absl::StatusOr<PlacementShadowReport> r =
      ShadowPlacement(far, skylake, policy, PlacementShadowOptions());
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(),
              HasSubstr("far.txt:2: CPU 9 is not a CPU of machine "
                        "skylake-e3-1240v5 (8 CPUs)"));
  // A header with more CPUs than the machine.
  const std::string wide =
      WriteTemp("wide.txt",
                "cpus=16\n"
                "  <idle>-0 [001] d..2 1.000100: cpu_idle: state=1 cpu_id=1\n");
  r = ShadowPlacement(wide, skylake, policy, PlacementShadowOptions());
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("the trace has 16 CPUs"));
  // A malformed wake-up line.
  const std::string bad = WriteTemp(
      "badwake.txt",
      "  b-200 [000] d..4 1.000200: sched_wakeup: comm=a pid=100 prio=120\n");
  r = ShadowPlacement(bad, skylake, policy, PlacementShadowOptions());
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("badwake.txt:1: sched_wakeup"));
  // A policy answering outside the trace's CPUs.
  const std::string path = WriteTemp("wake2.txt", kWakeTrace);
  RecordingPlacement wild;
  wild.answer = 6;
  r = ShadowPlacement(path, skylake, wild, PlacementShadowOptions());
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(),
              HasSubstr("wake2.txt:5: placement policy recording chose CPU 6, "
                        "not one of the trace's CPUs 0-3"));
}

// sis_util (Linux 6.1's select_idle_sibling) against the Android phone's
// kernel, which places with EAS (find_energy_efficient_cpu) rather than
// select_idle_sibling on its big.LITTLE parts.
TEST(ShadowPlacementTest, SisUtilOnSurfaceflinger) {
  auto sis = platform::PolicyRegistry::Global().MakePlacement("sis_util");
  ASSERT_TRUE(sis.ok()) << sis.status();
  absl::StatusOr<PlacementShadowReport> r =
      ShadowPlacement(kSurfaceflinger, Machine("skylake-e3-1240v5"), **sis,
                      PlacementShadowOptions());
  ASSERT_TRUE(r.ok()) << r.status();
  // Invariants.
  EXPECT_EQ(r->trace_cpus, 8);
  EXPECT_EQ(r->wakeup_events, 421);
  EXPECT_EQ(r->waking_events, 0);
  EXPECT_EQ(r->evaluated + r->skipped_rt + r->skipped_pinned +
                r->skipped_no_prev + r->skipped_wakeup_new,
            r->wakeup_events);
  EXPECT_EQ(Sum(r->confusion), r->evaluated);
  EXPECT_EQ(Trace(r->confusion), r->agreements);
  EXPECT_EQ(r->both_idle + r->policy_idle_kernel_busy +
                r->kernel_idle_policy_busy + r->both_busy,
            r->evaluated);
  EXPECT_EQ(r->policy_chose_target + r->policy_chose_prev +
                r->policy_chose_this + r->policy_chose_other,
            r->evaluated);
  EXPECT_GE(r->agreement_pct(), 0.0);
  EXPECT_LE(r->agreement_pct(), 100.0);
  // This implementation's numbers.
  EXPECT_EQ(r->evaluated, 232);
  EXPECT_EQ(r->skipped_rt, 77);
  EXPECT_EQ(r->skipped_pinned, 56);
  EXPECT_EQ(r->skipped_no_prev, 56);
  EXPECT_EQ(r->agreements, 129);
  EXPECT_EQ(r->sync_wakeups, 38);
  // sis_util always found an idle CPU; the kernel's was busy 95 times.
  EXPECT_EQ(r->policy_idle, 232);
  EXPECT_EQ(r->kernel_idle, 137);
  EXPECT_EQ(r->probes, 469);
}

}  // namespace
}  // namespace schedsim::traces
