// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The libbpf loader of `schedsim scx` (platform/linux/scx_agent.h): opens
// and loads scx/scx_place.bpf.o, maps its global data, attaches the
// struct_ops scheduler and runs the agent loop until a stop signal, the
// duration's end or the kernel ending the scheduler. Registered with
// SetScxBackend at static initialisation; linked only into
// //cli:schedsim_scx (libbpf-dev needed).

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fstream>
#include <functional>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "platform/linux/scx/scx_shared.h"
#include "platform/linux/scx_agent.h"
#include "platform/linux/stop_signals.h"

namespace schedsim::platform::host {
namespace {

// libbpf's warnings and the verifier log go to stderr; its debug chatter
// does not.
int PrintLibbpf(enum libbpf_print_level level, const char* format,
                va_list args) {
  if (level == LIBBPF_DEBUG) return 0;
  return vfprintf(stderr, format, args);
}

std::string ReadSysfs(const char* path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

struct LoopContext {
  ScxAgent* agent = nullptr;
  int decisions_fd = -1;
  int64_t pushed = 0;
  int64_t push_retried = 0;
  // Decisions the queue map refused (full): pushed again before the next
  // poll, so no task stays held without an answer.
  std::deque<schedsim_scx_decision> unpushed;
  std::FILE* decision_log = nullptr;
};

int HandleEvent(void* ctx_ptr, void* data, size_t size) {
  auto* ctx = static_cast<LoopContext*>(ctx_ptr);
  if (size < sizeof(schedsim_scx_event)) return 0;
  schedsim_scx_event event;
  std::memcpy(&event, data, sizeof(event));
  if (event.kind == SCHEDSIM_SCX_EV_IDLE) {
    ctx->agent->OnIdle(event.this_cpu);
    return 0;
  }
  if (event.kind != SCHEDSIM_SCX_EV_WAKEUP) return 0;
  schedsim_scx_decision decision = ctx->agent->OnWakeup(event);
  if (ctx->decision_log != nullptr) {
    std::fprintf(ctx->decision_log, "%llu %u %d %d %d\n",
                 static_cast<unsigned long long>(event.enq_ns), event.pid,
                 event.this_cpu, event.prev_cpu, decision.cpu);
  }
  // Every wake-up gets an answer (-1: the BPF side places it), so the
  // BPF side's count of undecided wake-ups comes back down.
  if (ctx->unpushed.empty() && bpf_map_update_elem(ctx->decisions_fd, nullptr,
                                                   &decision, BPF_ANY) == 0) {
    ++ctx->pushed;
  } else {
    ctx->unpushed.push_back(decision);
  }
  return 0;
}

// Pushes what the queue map refused before, in order; false when it is
// still full.
bool FlushUnpushed(LoopContext* ctx) {
  while (!ctx->unpushed.empty()) {
    if (bpf_map_update_elem(ctx->decisions_fd, nullptr, &ctx->unpushed.front(),
                            BPF_ANY) != 0) {
      return false;
    }
    ctx->unpushed.pop_front();
    ++ctx->pushed;
    ++ctx->push_retried;
  }
  return true;
}

struct ObjectCloser {
  void operator()(bpf_object* o) const { bpf_object__close(o); }
};
struct RingCloser {
  void operator()(ring_buffer* r) const { ring_buffer__free(r); }
};
struct LinkCloser {
  void operator()(bpf_link* l) const { bpf_link__destroy(l); }
};

absl::StatusOr<ScxReport> RunScx(PlacementPolicy& policy,
                                 const topology::Topology& topology,
                                 const topology::SchedDomains& domains,
                                 const ScxRunOptions& options) {
  std::ostream& log = *options.log;
  libbpf_set_print(PrintLibbpf);
  std::unique_ptr<bpf_object, ObjectCloser> obj(
      bpf_object__open_file(options.bpf_object.c_str(), nullptr));
  if (obj == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot open the BPF object ", options.bpf_object, ": ",
                     std::strerror(errno)));
  }
  bpf_map* bss = nullptr;
  bpf_map* map;
  bpf_object__for_each_map(map, obj.get()) {
    const std::string name = bpf_map__name(map);
    if (name.size() >= 4 && name.compare(name.size() - 4, 4, ".bss") == 0) {
      bss = map;
    }
  }
  if (bss == nullptr || bpf_map__value_size(bss) != sizeof(schedsim_scx_bss)) {
    return absl::InvalidArgumentError(absl::StrCat(
        options.bpf_object,
        ": its .bss is not a struct schedsim_scx_bss (built from another "
        "scx_shared.h?)"));
  }
  if (int err = bpf_object__load(obj.get()); err != 0) {
    return absl::InternalError(absl::StrCat(
        "loading ", options.bpf_object, " failed: ", std::strerror(-err),
        " (the verifier's log is above; is the object built against this "
        "kernel's BTF?)"));
  }
  // The kernel's copy of the global data, mapped here (libbpf before 1.5
  // maps it only for skeletons).
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t map_size = (sizeof(schedsim_scx_bss) + page - 1) / page * page;
  void* mapped = mmap(nullptr, map_size, PROT_READ | PROT_WRITE, MAP_SHARED,
                      bpf_map__fd(bss), 0);
  if (mapped == MAP_FAILED) {
    return absl::InternalError(absl::StrCat(
        "cannot map the BPF object's .bss: ", std::strerror(errno)));
  }
  std::unique_ptr<void, std::function<void(void*)>> unmap(
      mapped, [map_size](void* p) { munmap(p, map_size); });
  auto* shared = static_cast<schedsim_scx_bss*>(mapped);
  shared->config.agent_tgid = static_cast<uint32_t>(getpid());
  shared->config.nr_cpus = static_cast<uint32_t>(topology.num_cpus());
  shared->config.max_outstanding =
      static_cast<uint64_t>(options.max_outstanding);
  shared->config.slice_ns = static_cast<uint64_t>(options.slice_us) * 1000;
  shared->config.send_idle_events = options.idle_events ? 1 : 0;
  shared->config.ready = 1;

  ScxAgent agent(policy, topology, domains, shared);
  LoopContext ctx;
  ctx.agent = &agent;
  ctx.decisions_fd = bpf_object__find_map_fd_by_name(obj.get(), "decisions");
  const int events_fd = bpf_object__find_map_fd_by_name(obj.get(), "events");
  bpf_map* ops = bpf_object__find_map_by_name(obj.get(), "schedsim_ops");
  if (ctx.decisions_fd < 0 || events_fd < 0 || ops == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat(options.bpf_object,
                     " lacks the events, decisions or schedsim_ops map"));
  }
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> decision_log(nullptr,
                                                               &std::fclose);
  if (!options.decision_log.empty()) {
    decision_log.reset(std::fopen(options.decision_log.c_str(), "w"));
    if (decision_log == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("cannot write the decision log ", options.decision_log,
                       ": ", std::strerror(errno)));
    }
    setvbuf(decision_log.get(), nullptr, _IOLBF, 0);  // readable as it runs
    ctx.decision_log = decision_log.get();
  }
  std::unique_ptr<ring_buffer, RingCloser> ring(
      ring_buffer__new(events_fd, HandleEvent, &ctx, nullptr));
  if (ring == nullptr) {
    return absl::InternalError(
        absl::StrCat("ring_buffer__new: ", std::strerror(errno)));
  }

  ScopedStopSignals signals;
  const int64_t start = MonotonicNs();
  std::unique_ptr<bpf_link, LinkCloser> link(bpf_map__attach_struct_ops(ops));
  if (link == nullptr) {
    const int e = errno;
    return absl::InternalError(absl::StrCat(
        "attaching the scheduler failed: ", std::strerror(e),
        e == EBUSY || e == EEXIST ? " (another sched_ext scheduler is loaded)"
                                  : ""));
  }
  log << "schedsim scx: attached; sched_ext state "
      << ReadSysfs("/sys/kernel/sched_ext/state") << ", root/ops "
      << ReadSysfs("/sys/kernel/sched_ext/root/ops") << "\n";
  log.flush();

  const int64_t duration_ns = static_cast<int64_t>(options.duration_s * 1e9);
  int64_t last_tick = start;
  std::string exit_reason;
  while (true) {
    // Sleeps until a wake-up's record arrives (they force a notification)
    // or 5 ms pass, then reads everything there, idle entries included
    // (submitted without one: they must not wake the agent).
    int n = ring_buffer__poll(ring.get(), 5 /* ms */);
    if (n >= 0 || n == -EINTR) {
      const int more = ring_buffer__consume(ring.get());
      n = more < 0 ? more : std::max(n, 0) + more;
    }
    if (n < 0 && n != -EINTR) {
      exit_reason = absl::StrCat("ring buffer poll failed: ", strerror(-n));
      break;
    }
    if (!FlushUnpushed(&ctx)) n = std::max(n, 1);
    if (n > 0) {
      // Let this CPU run ops.dispatch, which inserts the decided tasks.
      sched_yield();
    }
    const int64_t now = MonotonicNs();
    if (now - last_tick >= 4000000) {
      agent.Tick();
      last_tick = now;
    }
    if (shared->counters.exit_kind != 0) {
      exit_reason = absl::StrCat(
          "the kernel ended the scheduler: ",
          std::string(shared->exit_msg,
                      strnlen(shared->exit_msg, SCHEDSIM_SCX_EXIT_MSG / 2)),
          " ",
          std::string(shared->exit_msg + SCHEDSIM_SCX_EXIT_MSG / 2,
                      strnlen(shared->exit_msg + SCHEDSIM_SCX_EXIT_MSG / 2,
                              SCHEDSIM_SCX_EXIT_MSG / 2)));
      break;
    }
    if (ScopedStopSignals::StopRequested()) {
      exit_reason =
          absl::StrCat("stopped by signal ", ScopedStopSignals::StopSignal());
      break;
    }
    if (duration_ns > 0 && now - start >= duration_ns) {
      exit_reason = "the duration ended";
      break;
    }
  }
  link.reset();  // the kernel's disable path: every task back to fair
  ScxReport report;
  report.policy = std::string(policy.name());
  report.seconds = static_cast<double>(MonotonicNs() - start) / 1e9;
  report.agent = agent.stats();
  CollectBpfCounters(*shared, &report);
  report.exit_reason = absl::StrCat(
      exit_reason, "; unloaded, sched_ext state ",
      ReadSysfs("/sys/kernel/sched_ext/state"),
      ctx.push_retried > 0
          ? absl::StrCat("; ", ctx.push_retried,
                         " decisions queued late (the queue map was full)")
          : std::string());
  return report;
}

const bool kRegistered = SetScxBackend(RunScx);

}  // namespace
}  // namespace schedsim::platform::host
