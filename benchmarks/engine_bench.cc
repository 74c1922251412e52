// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Throughput and memory of the whole simulator (event loop, scheduler,
// wake-up path, idle, frequency, load balancing) on two workload models.
//
//   BM_Engine_PipePingPong/poll_only:{0,1}
//       `perf bench sched pipe` (workloads/pipe_pingpong.h), endless, on
//       skylake-e3-1240v5; one iteration of 1 simulated second after a
//       10 ms warm-up. poll_only:1 sets PM QoS to 0 so that idle CPUs only
//       poll (menu otherwise picks C1 for the ~10 us idle periods).
//   BM_Engine_Hackbench256
//       hackbench as users run it (the registered model, with its 5% work
//       jitter), 40 groups of 20 senders + 20
//       receivers (1600 tasks), unix sockets, endless, on zen3-2s-nps1
//       (256 CPUs) with the whole model on: the kernel's default policies
//       from the registry (schedutil, menu, sis_util), newidle and periodic
//       load balancing, NO_HZ kicks, the package PMU every 1 ms. One iteration
//       of 1000 simulated ms after a 20 ms warm-up (the start gate, forks
//       and the first wake-ups); ENGINE_BENCH_HACKBENCH_MS overrides the
//       1000 (e.g. a short run under callgrind).
//   BM_Engine_Hackbench_Zen3_128g
//       hackbench -p (pipes) as users run it (work jitter), 128 groups of
//       20 senders + 20 receivers (5120 tasks), endless, on zen3-2s-nps1
//       with the same policies. One iteration of 1000 simulated ms after a
//       20 ms warm-up; ENGINE_BENCH_ZEN3_MS overrides the 1000.
//   BM_Engine_Hackbench_Zen3_128g_Published
//       the published-length run: perf bench sched messaging -p -g 128
//       -l 50000 through the experiment runner, stopped when settled;
//       reports cpu_seconds (the whole run) and extrapolated_time_s with
//       its 95% interval.
//   BM_Engine_UnixbenchSpawn512
//       UnixBench spawn (workloads/unixbench.h), 512 copies forking a child
//       that exits while the parent waits, on zen3-2s-nps1; 1000 simulated
//       ms after a 20 ms warm-up (ENGINE_BENCH_SPAWN_MS overrides the
//       1000). Fork churn: exited tasks' slots are reused.
//
// Each run is deterministic (seed 1; one iteration, so the counts do not
// depend on how many iterations the library would pick). Set-up, warm-up
// and SimStats copies are outside the timed region; the reported time is
// the wall time of the Simulator::RunFor calls only (manual timing).
// Counters:
//   events_per_second            SimStats::events (queue pops that ran a
//                                handler) per wall second.
//   sim_seconds_per_wall_second  simulated seconds of the whole machine per
//                                wall second: simulated duration x number
//                                of CPUs / wall time (CPU-seconds, so a
//                                256-CPU machine simulated at real time
//                                scores 256).
//   sim_time_ratio               simulated duration / wall time (the plain
//                                ratio, without the CPU count).
//   bytes_per_task               live heap growth from just before
//                                Simulator::Create to just after the last
//                                RunFor, divided by the task count (a
//                                counting global operator new/delete in
//                                this binary; usable size of each block).
//                                Includes the simulator's copy of the
//                                workload and its per-CPU state.
//   bytes_per_task_workload      heap of the caller's Workload / tasks (not
//                                in bytes_per_task).
//   bytes_per_task_stats         sizeof(sim::TaskStats): one task's record
//                                in SimStats, which Stats() builds (the
//                                simulator keeps a smaller form, without the
//                                name; it is part of bytes_per_task).
//   heap_growth_in_timed_region  live heap growth across the timed RunFor
//                                calls alone.
//   allocs_per_event             operator new calls inside the timed region
//                                per event (0 = the event path does not
//                                allocate in steady state).
//   busy_cpus                    mean number of busy CPUs (sum of busy_ns /
//                                duration); a sanity check (<= CPU count).
//   anomalies                    CPUs with negative busy or idle time, or
//                                busy + idle above the duration (want 0).
//   cpu_seconds_per_simulated_second
//                                CPU time of this thread in the RunFor calls
//                                (CLOCK_THREAD_CPUTIME_ID) per simulated
//                                second: less sensitive than the wall time to
//                                other jobs on the machine.
//   bare_loop_events_per_second  the reference: a bare C++ radix-heap event
//                                loop (BareRadixHeapLoop below) run in the
//                                same process, half just before and half just
//                                after the timed region, per wall second.
//   bare_loop_cpu_ns_per_event   its thread CPU time per event.
//   events_ratio_to_bare_loop    events_per_second / bare_loop_events_per_
//                                second (wall times, as measured in the run).
//   cpu_ratio_to_bare_loop       the same ratio from thread CPU times.
//   plain_loop_events_per_second, plain_loop_cpu_ns_per_event,
//   events_ratio_to_plain_loop   the same against PlainLoop, the plain
//                                radix-heap loop (pop, push one successor),
//                                also run in this process; the label names
//                                both reference loops.
//   messages_per_sim_second, round_trip_us: what the workload achieved.
//   warmup_events                events of the warm-up (not timed); with
//                                `events`, the denominator of instructions
//                                per event under callgrind, which counts
//                                both.
//   stats_fingerprint            a 48-bit hash of the timed window's
//                                SimStats (every counter but `events`):
//                                the determinism check. A change that
//                                only makes the engine faster keeps it.
//
//   bazel run -c opt //benchmarks:engine_bench -- --benchmark_format=json
//       > /tmp/engine.json   (one command line)

#include <malloc.h>
#include <time.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "experiments/experiment.h"
#include "experiments/runner.h"
#include "platform/registry.h"
#include "sim/config.h"
#include "sim/rng.h"
#include "sim/simulator.h"
#include "sim/stats.h"
#include "sim/time.h"
#include "sim/workload.h"
#include "topology/presets.h"
#include "topology/topology.h"
#include "workloads/hackbench.h"
#include "workloads/model_registry.h"
#include "workloads/pipe_pingpong.h"
#include "workloads/unixbench.h"

// --- Counting allocator ------------------------------------------------------
//
// Replaces the global allocation functions for the whole binary. Live bytes
// are counted as malloc_usable_size of each block (what the allocation
// really holds, padding included), so new and delete agree without a header.

namespace {

std::atomic<int64_t> g_live_bytes{0};
std::atomic<uint64_t> g_allocations{0};

void* CountedAlloc(std::size_t size, std::size_t align) {
  void* p = nullptr;
  if (align <= alignof(std::max_align_t)) {
    p = std::malloc(size == 0 ? 1 : size);
  } else if (posix_memalign(&p, align, size == 0 ? 1 : size) != 0) {
    p = nullptr;
  }
  if (p == nullptr) return nullptr;
  g_live_bytes.fetch_add(static_cast<int64_t>(malloc_usable_size(p)),
                         std::memory_order_relaxed);
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return p;
}

void* CountedAllocOrThrow(std::size_t size, std::size_t align) {
  void* p = CountedAlloc(size, align);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

void CountedFree(void* p) {
  if (p == nullptr) return;
  g_live_bytes.fetch_sub(static_cast<int64_t>(malloc_usable_size(p)),
                         std::memory_order_relaxed);
  std::free(p);
}

constexpr std::size_t kDefaultAlign = alignof(std::max_align_t);

}  // namespace

void* operator new(std::size_t n) {
  return CountedAllocOrThrow(n, kDefaultAlign);
}
void* operator new[](std::size_t n) {
  return CountedAllocOrThrow(n, kDefaultAlign);
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  return CountedAlloc(n, kDefaultAlign);
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  return CountedAlloc(n, kDefaultAlign);
}
void* operator new(std::size_t n, std::align_val_t a) {
  return CountedAllocOrThrow(n, static_cast<std::size_t>(a));
}
void* operator new[](std::size_t n, std::align_val_t a) {
  return CountedAllocOrThrow(n, static_cast<std::size_t>(a));
}
void* operator new(std::size_t n, std::align_val_t a,
                   const std::nothrow_t&) noexcept {
  return CountedAlloc(n, static_cast<std::size_t>(a));
}
void* operator new[](std::size_t n, std::align_val_t a,
                     const std::nothrow_t&) noexcept {
  return CountedAlloc(n, static_cast<std::size_t>(a));
}
void operator delete(void* p) noexcept { CountedFree(p); }
void operator delete[](void* p) noexcept { CountedFree(p); }
void operator delete(void* p, std::size_t) noexcept { CountedFree(p); }
void operator delete[](void* p, std::size_t) noexcept { CountedFree(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept {
  CountedFree(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  CountedFree(p);
}
void operator delete(void* p, std::align_val_t) noexcept { CountedFree(p); }
void operator delete[](void* p, std::align_val_t) noexcept { CountedFree(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
  CountedFree(p);
}
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept {
  CountedFree(p);
}
void operator delete(void* p, std::align_val_t,
                     const std::nothrow_t&) noexcept {
  CountedFree(p);
}
void operator delete[](void* p, std::align_val_t,
                       const std::nothrow_t&) noexcept {
  CountedFree(p);
}

namespace schedsim {
namespace {

constexpr uint64_t kSeed = 1;

int64_t LiveBytes() { return g_live_bytes.load(std::memory_order_relaxed); }
uint64_t Allocations() { return g_allocations.load(std::memory_order_relaxed); }

// Milliseconds from the environment variable `name`, or `fallback`.
int64_t MsFromEnv(const char* name, int64_t fallback) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return fallback;
  char* end = nullptr;
  long long ms = std::strtoll(v, &end, 10);
  return (end != nullptr && *end == '\0' && ms > 0) ? ms : fallback;
}

// FNV-1a over the bytes of the values added.
class Fingerprint {
 public:
  template <typename T>
  void Add(const T& v) {
    const unsigned char* p = reinterpret_cast<const unsigned char*>(&v);
    for (std::size_t i = 0; i < sizeof(T); ++i) {
      hash_ = (hash_ ^ p[i]) * 1099511628211ull;
    }
  }
  // 48 bits: exact in a double counter.
  double value() const { return static_cast<double>(hash_ >> 16); }

 private:
  uint64_t hash_ = 14695981039346656037ull;
};

// Every counter of `s` except the event count, in a fixed order.
double StatsFingerprint(const sim::SimStats& s) {
  Fingerprint f;
  f.Add(s.start_ns);
  f.Add(s.end_ns);
  for (const sim::CpuStats& c : s.cpus) {
    f.Add(c.busy_ns);
    f.Add(c.idle_ns);
    for (const auto& st : c.states) {
      f.Add(st.usage);
      f.Add(st.time_ns);
      f.Add(st.above);
      f.Add(st.below);
      f.Add(st.rejected);
    }
    f.Add(c.context_switches);
    f.Add(c.migrations_in);
    f.Add(c.ipis_received);
    f.Add(c.poll_wakeups);
    f.Add(c.ticks);
    for (const auto& [khz, ns] : c.busy_ns_at_khz) {
      f.Add(khz);
      f.Add(ns);
    }
    f.Add(c.khz_ns_busy);
  }
  for (const sim::TaskStats& t : s.tasks) {
    for (char ch : t.name) f.Add(ch);
    f.Add(t.wakeup_latency_ns.count());
    f.Add(t.wakeup_latency_ns.sum());
    f.Add(t.wakeup_latency_ns.min());
    f.Add(t.wakeup_latency_ns.max());
    f.Add(t.wakeup_latency_ns.Percentile(50));
    f.Add(t.wakeup_latency_ns.Percentile(99));
    f.Add(t.run_ns);
    f.Add(t.iowait_ns);
    f.Add(t.migrations);
    f.Add(t.wakeups);
    f.Add(t.voluntary_switches);
    f.Add(t.involuntary_switches);
    f.Add(t.exited);
  }
  for (const sim::MetricStats& m : s.metrics) {
    f.Add(m.count);
    f.Add(m.latency_ns.count());
    f.Add(m.latency_ns.sum());
    f.Add(m.latency_ns.Percentile(50));
    f.Add(m.latency_ns.Percentile(99));
  }
  for (const sim::PackageStats& p : s.packages) {
    f.Add(p.energy_uj);
    f.Add(p.pl1_capped_ns);
  }
  const sim::PlacementStats& pl = s.placement;
  for (uint64_t v :
       {pl.wakeups, pl.affine_this, pl.affine_prev, pl.wake_wide, pl.searches,
        pl.probes, pl.chosen_idle, pl.chose_target, pl.chose_prev,
        pl.chose_other, pl.remote_wakeups, pl.wake_list, pl.ipis, pl.forks}) {
    f.Add(v);
  }
  for (uint64_t v : pl.probes_histogram) f.Add(v);
  f.Add(s.wakeup_latency_ns.count());
  f.Add(s.wakeup_latency_ns.sum());
  f.Add(s.wakeup_latency_ns.Percentile(50));
  f.Add(s.wakeup_latency_ns.Percentile(99.9));
  f.Add(s.migrations);
  f.Add(s.context_switches);
  f.Add(s.load_balance_migrations);
  return f.value();
}

// Thread CPU time in seconds (CLOCK_THREAD_CPUTIME_ID).
double ThreadCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) +
         1e-9 * static_cast<double>(ts.tv_nsec);
}

// --- The reference: a bare radix-heap event loop ----------------------------
//
// What a discrete-event simulator costs with nothing modelled: a textbook
// monotone radix heap (65 buckets of std::vector by the highest bit in
// which a key differs from the last popped key; no handles, no cancel, no
// tie order), holding `pending` events; each pop dispatches on the event's
// kind through a switch, and the handler pushes one successor at now plus
// an exponential delay (drawn before timing into a table). The events carry
// what the simulator's do (time, kind, cpu, task). This is the "bare C++
// radix-heap event loop" of issue 18; engine benchmarks report their rate
// against it, measured in the same process. It must not be tuned to change
// that ratio.
class BareRadixHeap {
 public:
  struct Item {
    uint64_t time;
    uint16_t kind;
    int32_t cpu;
    int32_t task;
  };
  bool empty() const { return size_ == 0; }
  void Push(const Item& e) {
    buckets_[BucketOf(e.time)].push_back(e);
    ++size_;
  }
  Item Pop() {
    if (buckets_[0].empty()) {
      int i = 1;
      while (buckets_[i].empty()) ++i;
      // The new floor: the smallest time of bucket i; its items all move to
      // lower buckets.
      uint64_t m = buckets_[i][0].time;
      for (const Item& e : buckets_[i]) m = e.time < m ? e.time : m;
      last_ = m;
      for (const Item& e : buckets_[i]) buckets_[BucketOf(e.time)].push_back(e);
      buckets_[i].clear();
    }
    Item e = buckets_[0].back();
    buckets_[0].pop_back();
    --size_;
    return e;
  }

 private:
  int BucketOf(uint64_t t) const {
    return t == last_ ? 0 : 64 - __builtin_clzll(t ^ last_);
  }
  std::vector<Item> buckets_[65];
  uint64_t last_ = 0;
  size_t size_ = 0;
};

struct BareLoop {
  // `pending` events, mean delay `mean_ns`.
  BareLoop(int pending, double mean_ns) : delays(kTable) {
    sim::Rng rng(kSeed);
    for (int64_t& d : delays) {
      d = 1 + static_cast<int64_t>(rng.Exponential(mean_ns));
    }
    for (int i = 0; i < pending; ++i) {
      q.Push({static_cast<uint64_t>(delays[i % kTable]),
              static_cast<uint16_t>(i % 4), i, i});
    }
    Run(8 * static_cast<uint64_t>(pending));  // to the steady state
  }
  // Runs `n` events; returns a checksum of what the handlers did.
  uint64_t Run(uint64_t n) {
    for (uint64_t k = 0; k < n; ++k) {
      const BareRadixHeap::Item e = q.Pop();
      const uint64_t now = e.time;
      const int64_t d = delays[next++ & (kTable - 1)];
      switch (e.kind) {
        case 0:  // a phase end: the same CPU's next phase
          q.Push({now + d, 0, e.cpu, e.task});
          break;
        case 1:  // a tick
          sum += static_cast<uint64_t>(e.cpu);
          q.Push({now + d, 1, e.cpu, e.task});
          break;
        case 2:  // a wake-up: the task moves on
          q.Push({now + d, 2, e.cpu, e.task + 1});
          break;
        default:
          sum ^= now;
          q.Push({now + d, 3, e.cpu, e.task});
          break;
      }
    }
    return sum;
  }
  static constexpr size_t kTable = size_t{1} << 16;
  std::vector<int64_t> delays;
  BareRadixHeap q;
  uint64_t next = 0;
  uint64_t sum = 0;
};

// Wall and thread CPU seconds of `n` events of `loop`.
void TimeBareLoop(BareLoop& loop, uint64_t n, double* wall_s, double* cpu_s) {
  const double c0 = ThreadCpuSeconds();
  const auto t0 = std::chrono::steady_clock::now();
  benchmark::DoNotOptimize(loop.Run(n));
  const auto t1 = std::chrono::steady_clock::now();
  *cpu_s += ThreadCpuSeconds() - c0;
  *wall_s += std::chrono::duration<double>(t1 - t0).count();
}

// The plain radix-heap loop (issue 50): the same heap, each pop pushing
// one successor at now plus a delay, and nothing else (no kinds, no
// dispatch): the cheapest event loop of this heap, the denominator of
// events_ratio_to_plain_loop. BareLoop's dispatch and payload make it
// about 1.3x slower per event on this VM.
struct PlainLoop {
  PlainLoop(int pending, double mean_ns) : delays(BareLoop::kTable) {
    sim::Rng rng(kSeed + 1);
    for (int64_t& d : delays) {
      d = 1 + static_cast<int64_t>(rng.Exponential(mean_ns));
    }
    for (int i = 0; i < pending; ++i) {
      q.Push({static_cast<uint64_t>(delays[i % BareLoop::kTable]), 0, 0, 0});
    }
    Run(8 * static_cast<uint64_t>(pending));
  }
  uint64_t Run(uint64_t n) {
    uint64_t now = 0;
    for (uint64_t k = 0; k < n; ++k) {
      now = q.Pop().time;
      q.Push(
          {now + static_cast<uint64_t>(delays[next++ & (BareLoop::kTable - 1)]),
           0, 0, 0});
    }
    return now;
  }
  std::vector<int64_t> delays;
  BareRadixHeap q;
  uint64_t next = 0;
};

void TimePlainLoop(PlainLoop& loop, uint64_t n, double* wall_s, double* cpu_s) {
  const double c0 = ThreadCpuSeconds();
  const auto t0 = std::chrono::steady_clock::now();
  benchmark::DoNotOptimize(loop.Run(n));
  const auto t1 = std::chrono::steady_clock::now();
  *cpu_s += ThreadCpuSeconds() - c0;
  *wall_s += std::chrono::duration<double>(t1 - t0).count();
}

struct EngineRun {
  const char* machine;
  sim::SimConfig config;
  sim::SimDuration warmup;
  sim::SimDuration slice;  // simulated per benchmark iteration
};

// Builds the simulator for `workload`, warms it up, then times RunFor(slice)
// per iteration and reports the counters described in the file comment.
// Returns the stats of the timed window (empty on error).
sim::SimStats RunEngine(benchmark::State& state, const EngineRun& run,
                        sim::Workload (*make_workload)()) {
  absl::StatusOr<topology::Topology> topo = topology::MakePreset(run.machine);
  if (!topo.ok()) {
    state.SkipWithError(std::string(topo.status().message()).c_str());
    return {};
  }
  const int64_t before_workload = LiveBytes();
  const sim::Workload workload = make_workload();
  const int64_t workload_bytes = LiveBytes() - before_workload;

  // The kernel's default policies for the machine, from the registry.
  const platform::PolicyRegistry& registry = platform::PolicyRegistry::Global();
  auto freq = registry.MakeFreq(topo->frequency().has_hwp ? "intel_pstate_hwp"
                                                          : "schedutil");
  auto idle = registry.MakeIdle("menu");
  auto placement = registry.MakePlacement("sis_util");
  if (!freq.ok() || !idle.ok() || !placement.ok()) {
    state.SkipWithError("a default policy is not registered");
    return {};
  }
  const sim::Policies policies{freq->get(), idle->get(), placement->get()};

  const int64_t before = LiveBytes();
  absl::StatusOr<std::unique_ptr<sim::Simulator>> created =
      sim::Simulator::Create(*topo, run.config, workload, policies, kSeed);
  if (!created.ok()) {
    state.SkipWithError(std::string(created.status().message()).c_str());
    return {};
  }
  sim::Simulator& simulator = **created;
  if (absl::Status s = simulator.RunFor(run.warmup); !s.ok()) {
    state.SkipWithError(std::string(s.message()).c_str());
    return {};
  }
  const uint64_t warmup_events = simulator.Stats().events;
  simulator.ResetStats();

  // The reference loop: two events pending per CPU (a busy CPU's phase end
  // and tick), 100 us mean delay (event_queue_bench's hold load). Half of
  // its events run here, half after the timed region. Its heap is not the
  // simulator's: its growth (all of it happens in the warm-up and this
  // first half) is taken out of bytes_per_task.
  const int64_t before_bare = LiveBytes();
  BareLoop bare(2 * topo->num_cpus(), 100000.0);
  PlainLoop plain(2 * topo->num_cpus(), 100000.0);
  constexpr uint64_t kBareEvents = uint64_t{1} << 24;
  double bare_wall_s = 0;
  double bare_cpu_s = 0;
  double plain_wall_s = 0;
  double plain_cpu_s = 0;
  TimeBareLoop(bare, kBareEvents / 2, &bare_wall_s, &bare_cpu_s);
  TimePlainLoop(plain, kBareEvents / 2, &plain_wall_s, &plain_cpu_s);
  const int64_t bare_bytes = LiveBytes() - before_bare;

  double wall_s = 0;
  double cpu_s = 0;
  uint64_t allocations = 0;
  const int64_t before_timed = LiveBytes();
  for (auto _ : state) {
    const uint64_t a0 = Allocations();
    const double c0 = ThreadCpuSeconds();
    const auto t0 = std::chrono::steady_clock::now();
    const absl::Status s = simulator.RunFor(run.slice);
    const auto t1 = std::chrono::steady_clock::now();
    cpu_s += ThreadCpuSeconds() - c0;
    allocations += Allocations() - a0;
    const double dt = std::chrono::duration<double>(t1 - t0).count();
    wall_s += dt;
    state.SetIterationTime(dt);
    if (!s.ok()) {
      state.SkipWithError(std::string(s.message()).c_str());
      return {};
    }
  }
  const int64_t timed_growth = LiveBytes() - before_timed;
  const int64_t grown = LiveBytes() - before - bare_bytes;
  TimePlainLoop(plain, kBareEvents / 2, &plain_wall_s, &plain_cpu_s);
  TimeBareLoop(bare, kBareEvents / 2, &bare_wall_s, &bare_cpu_s);

  sim::SimStats stats = simulator.Stats();
  const int tasks = simulator.task_count();
  const int cpus = topo->num_cpus();
  const int64_t duration_ns = stats.end_ns - stats.start_ns;
  const double sim_s = stats.duration_s();
  int64_t busy_ns = 0;
  int anomalies = 0;
  for (const sim::CpuStats& c : stats.cpus) {
    busy_ns += c.busy_ns;
    if (c.busy_ns < 0 || c.idle_ns < 0 || c.busy_ns + c.idle_ns > duration_ns) {
      ++anomalies;
    }
  }
  if (wall_s <= 0) wall_s = 1e-9;
  auto& k = state.counters;
  k["events"] = static_cast<double>(stats.events);
  k["warmup_events"] = static_cast<double>(warmup_events);
  k["stats_fingerprint"] = StatsFingerprint(stats);
  k["events_per_second"] = static_cast<double>(stats.events) / wall_s;
  k["sim_seconds_per_wall_second"] = sim_s * cpus / wall_s;
  k["sim_time_ratio"] = sim_s / wall_s;
  k["cpu_seconds_per_simulated_second"] = sim_s > 0 ? cpu_s / sim_s : 0;
  const double bare_rate = static_cast<double>(kBareEvents) / bare_wall_s;
  k["bare_loop_events_per_second"] = bare_rate;
  k["bare_loop_cpu_ns_per_event"] =
      bare_cpu_s * 1e9 / static_cast<double>(kBareEvents);
  k["events_ratio_to_bare_loop"] =
      static_cast<double>(stats.events) / wall_s / bare_rate;
  const double plain_rate = static_cast<double>(kBareEvents) / plain_wall_s;
  k["plain_loop_events_per_second"] = plain_rate;
  k["plain_loop_cpu_ns_per_event"] =
      plain_cpu_s * 1e9 / static_cast<double>(kBareEvents);
  k["events_ratio_to_plain_loop"] =
      static_cast<double>(stats.events) / wall_s / plain_rate;
  state.SetLabel(
      "reference loops in this process: PlainLoop (radix heap, pop + push "
      "one successor) for *_plain_loop, BareLoop (the same heap with a "
      "4-kind switch) for *_bare_loop");
  k["cpu_ratio_to_bare_loop"] =
      cpu_s > 0 ? static_cast<double>(stats.events) / cpu_s /
                      (static_cast<double>(kBareEvents) / bare_cpu_s)
                : 0;
  k["tasks"] = tasks;
  k["cpus"] = cpus;
  k["bytes_per_task"] = static_cast<double>(grown) / tasks;
  k["bytes_per_task_workload"] = static_cast<double>(workload_bytes) / tasks;
  k["bytes_per_task_stats"] = static_cast<double>(sizeof(sim::TaskStats));
  k["allocs_in_timed_region"] = static_cast<double>(allocations);
  k["heap_growth_in_timed_region"] = static_cast<double>(timed_growth);
  k["allocs_per_event"] =
      stats.events > 0 ? static_cast<double>(allocations) / stats.events : 0;
  k["busy_cpus"] = duration_ns > 0 ? static_cast<double>(busy_ns) /
                                         static_cast<double>(duration_ns)
                                   : 0;
  k["anomalies"] = anomalies;
  k["sim_seconds"] = sim_s;
  k["context_switches_per_sim_second"] =
      sim_s > 0 ? static_cast<double>(stats.context_switches) / sim_s : 0;
  return stats;
}

sim::Workload PingPongForever() {
  return workloads::PipePingPongWorkload(/*loops=*/0, /*work_cycles=*/0);
}

void BM_Engine_PipePingPong(benchmark::State& state) {
  EngineRun run{"skylake-e3-1240v5", sim::SimConfig(), sim::Milliseconds(10),
                sim::Seconds(1)};
  if (state.range(0) != 0) run.config.pm_qos_latency_ns = 0;
  const sim::SimStats s = RunEngine(state, run, &PingPongForever);
  if (s.metrics.empty()) return;
  const sim::MetricStats& rt = s.metrics[workloads::kPingPongRoundTripMetric];
  state.counters["round_trips_per_sim_second"] =
      s.duration_s() > 0 ? static_cast<double>(rt.count) / s.duration_s() : 0;
  state.counters["round_trip_us"] = rt.latency_ns.mean() * 1e-3;
}
BENCHMARK(BM_Engine_PipePingPong)
    ->ArgName("poll_only")
    ->Arg(0)
    ->Arg(1)
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

// hackbench's messages per simulated second, as a counter.
void SetMessageRate(benchmark::State& state, const sim::SimStats& s) {
  if (s.metrics.empty() || s.duration_s() <= 0) return;
  state.counters["messages_per_sim_second"] =
      static_cast<double>(
          s.metrics[workloads::kHackbenchMessagesMetric].count) /
      s.duration_s();
}

// hackbench as `schedsim run` builds it: through the registered model,
// with its defaults, so with the work jitter of its work_cv_pct (5%) that
// every user run has; endless.
sim::Workload UserHackbench(int64_t groups, bool pipe) {
  const workloads::WorkloadRegistry& r = workloads::WorkloadRegistry::Global();
  absl::StatusOr<const workloads::WorkloadModel*> m = r.Lookup("hackbench");
  absl::StatusOr<topology::Topology> topo =
      topology::MakePreset("zen3-2s-nps1");
  if (!m.ok() || !topo.ok()) return sim::Workload();
  absl::StatusOr<platform::Params> p =
      r.ResolveParams(**m, {{"groups", groups},
                            {"fds", int64_t{20}},
                            {"loops", int64_t{0}},
                            {"pipe", pipe}});
  if (!p.ok()) return sim::Workload();
  absl::StatusOr<sim::Workload> w = (*m)->build(*p, *topo);
  if (!w.ok()) return sim::Workload();
  return *std::move(w);
}

sim::Workload Hackbench256() { return UserHackbench(40, false); }

void BM_Engine_Hackbench256(benchmark::State& state) {
  const EngineRun run{
      "zen3-2s-nps1", sim::SimConfig(), sim::Milliseconds(20),
      sim::Milliseconds(MsFromEnv("ENGINE_BENCH_HACKBENCH_MS", 1000))};
  SetMessageRate(state, RunEngine(state, run, &Hackbench256));
}
BENCHMARK(BM_Engine_Hackbench256)
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kSecond);

sim::Workload HackbenchPipes128() { return UserHackbench(128, true); }

// The issue-18 scale: 5120 tasks on the 256-CPU machine, pipes (-p).
void BM_Engine_Hackbench_Zen3_128g(benchmark::State& state) {
  const EngineRun run{
      "zen3-2s-nps1", sim::SimConfig(), sim::Milliseconds(20),
      sim::Milliseconds(MsFromEnv("ENGINE_BENCH_ZEN3_MS", 1000))};
  SetMessageRate(state, RunEngine(state, run, &HackbenchPipes128));
}
BENCHMARK(BM_Engine_Hackbench_Zen3_128g)
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kSecond);

// The published-length run users recognise: perf bench sched messaging
// -p -g 128 -l 50000 on zen3-2s-nps1 (experiments/examples/
// hackbench_128g_published_zen3_nps1.json), as `schedsim run` runs it:
// stopped when settled, time_s extrapolated to the 50000 loops. Reported
// in CPU seconds of the whole run (set-up and warm-up included).
constexpr char kPublished128g[] = R"({
  "machine": "zen3-2s-nps1",
  "workload": {"model": "hackbench",
               "params": {"groups": 128, "loops": 50000, "pipe": true}},
  "iterations": 1, "seed": 1, "warmup_ms": 100, "duration_ms": 3000,
  "settle": {"batch_ms": 20, "min_batches": 20, "precision_pct": 1},
  "policies": {"cpufreq": "schedutil", "cpuidle": "menu"},
  "variants": [{"name": "tip", "placement": "sis_util"}]
})";

void BM_Engine_Hackbench_Zen3_128g_Published(benchmark::State& state) {
  absl::StatusOr<experiments::Experiment> e =
      experiments::ParseExperiment(kPublished128g, "published-128g");
  if (!e.ok()) {
    state.SkipWithError(std::string(e.status().message()).c_str());
    return;
  }
  experiments::RunnerOptions options;
  options.jobs = 1;
  double cpu_s = 0;
  double wall_s = 0;
  absl::StatusOr<experiments::ExperimentResult> r;
  for (auto _ : state) {
    const double c0 = ThreadCpuSeconds();
    const auto t0 = std::chrono::steady_clock::now();
    r = experiments::RunExperiment(*e, options);
    const auto t1 = std::chrono::steady_clock::now();
    cpu_s += ThreadCpuSeconds() - c0;
    const double dt = std::chrono::duration<double>(t1 - t0).count();
    wall_s += dt;
    state.SetIterationTime(dt);
  }
  if (!r.ok()) {
    state.SkipWithError(std::string(r.status().message()).c_str());
    return;
  }
  const experiments::RunResult& run = r->runs[0][0][0];
  auto& k = state.counters;
  k["cpu_seconds"] = cpu_s;
  k["events"] = static_cast<double>(run.events);
  if (run.settle) {
    const experiments::SettleOutcome& s = *run.settle;
    k["simulated_seconds"] = s.elapsed_s;
    k["batches"] = s.batches;
    k["messages_per_sim_second"] = s.rate;
    k["extrapolated_time_s"] = s.extrapolated;
    k["extrapolated_time_s_ci95_low"] = s.extrapolated_low;
    k["extrapolated_time_s_ci95_high"] = s.extrapolated_high;
    state.SetLabel(absl::StrCat("time_s at ", s.length,
                                ", extrapolated from the settled rate (",
                                s.stop_reason, ")"));
  }
}
BENCHMARK(BM_Engine_Hackbench_Zen3_128g_Published)
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kSecond);

sim::Workload UnixbenchSpawn512() {
  workloads::UnixbenchParams p;
  p.test = workloads::UnixbenchTest::kSpawn;
  p.copies = 512;
  absl::StatusOr<sim::Workload> w = workloads::UnixbenchWorkload(p);
  if (!w.ok()) {
    std::fprintf(stderr, "UnixbenchSpawn512: %s\n",
                 std::string(w.status().message()).c_str());
    return sim::Workload();  // no metrics: the benchmark reports an error
  }
  return *std::move(w);
}

// Fork churn: UnixBench spawn, 512 copies, each forking a child that exits
// while the parent waits (about 70,000 forks per simulated second). An
// exited task's slot is reused, so the heap stops growing with the forks.
void BM_Engine_UnixbenchSpawn512(benchmark::State& state) {
  const EngineRun run{
      "zen3-2s-nps1", sim::SimConfig(), sim::Milliseconds(20),
      sim::Milliseconds(MsFromEnv("ENGINE_BENCH_SPAWN_MS", 1000))};
  const sim::SimStats s = RunEngine(state, run, &UnixbenchSpawn512);
  if (s.metrics.empty()) {
    if (!state.error_occurred()) {
      state.SkipWithError("the UnixBench spawn workload was not built");
    }
    return;
  }
  auto& k = state.counters;
  const double forks = static_cast<double>(s.placement.forks);
  k["forks"] = forks;
  k["tasks_reaped"] = static_cast<double>(s.tasks_reaped);
  k["task_slots"] = static_cast<double>(s.tasks.size());
  k["bytes_per_fork"] =
      forks > 0 ? k["heap_growth_in_timed_region"].value / forks : 0;
}
BENCHMARK(BM_Engine_UnixbenchSpawn512)
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kSecond);

}  // namespace
}  // namespace schedsim
