// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// ladder, Linux v6.1 drivers/cpuidle/governors/ladder.c, described in our
// own words (no kernel source copied).
//
// The kernel's algorithm. Each state has a promotion and a demotion time
// (both its exit latency) and counters; PROMOTION_COUNT is 4 and
// DEMOTION_COUNT 1. ladder_select_state():
//   1. A PM QoS limit of 0: state 0.
//   2. The last residency, net of the last state's exit latency.
//   3. Promote one state when a deeper state exists and is enabled, the
//      residency exceeded the promotion time, the deeper state's exit
//      latency fits the limit, and this happened PROMOTION_COUNT times in
//      a row (a demotion resets the count).
//   4. Forced demotion: a current state that is disabled or exceeds the
//      limit goes straight to the deepest state within the limit.
//   5. Demote one state when the residency was below the demotion time,
//      DEMOTION_COUNT times in a row (1: at once).
//   6. Otherwise stay.
//   7. A polling state 0 is never chosen (the first index is 1), except by
//      step 1.
//
// What the model changes: see ladder.h.

#include "governors/cpuidle/ladder.h"

#include <cstdio>
#include <cstdlib>
#include <memory>

#include "absl/strings/str_cat.h"
#include "platform/registry.h"

namespace schedsim::governors {

namespace {

using platform::IdleDevice;

// POLL is skipped when it is state 0 (step 7 of the file comment).
int FirstIndex(const IdleDevice& dev) {
  return dev.state_count() > 1 && dev.state(0).polling() ? 1 : 0;
}

}  // namespace

LadderGovernor::PerCpu& LadderGovernor::CpuState(const IdleDevice& dev) {
  int cpu = dev.cpu();
  if (cpu < 0 || cpu >= static_cast<int>(cpus_.size()) || !cpus_[cpu].enabled) {
    std::fprintf(stderr, "ladder: CPU %d used before Enable()\n", cpu);
    std::abort();
  }
  if (cpus_[cpu].counts.size() != static_cast<size_t>(dev.state_count())) {
    std::fprintf(stderr, "ladder: CPU %d has %d states, %zu at Enable()\n", cpu,
                 dev.state_count(), cpus_[cpu].counts.size());
    std::abort();
  }
  return cpus_[cpu];
}

void LadderGovernor::Enable(IdleDevice& dev) {
  int cpu = dev.cpu();
  if (cpu >= static_cast<int>(cpus_.size())) cpus_.resize(cpu + 1);
  PerCpu& c = cpus_[cpu];
  c = PerCpu();
  c.enabled = true;
  c.last_state = FirstIndex(dev);
  c.counts.assign(dev.state_count(), Counts());
}

void LadderGovernor::Reflect(IdleDevice& dev, int index) {
  PerCpu& c = CpuState(dev);
  if (index > 0) c.last_state = index;
}

int LadderGovernor::Move(PerCpu& c, int old_state, int new_state) {
  c.counts[old_state] = Counts();
  c.last_state = new_state;
  return new_state;
}

int LadderGovernor::Sanitize(const IdleDevice& dev, int state,
                             int64_t latency_req_ns) {
  const int n = dev.state_count();
  auto ok = [&](int i) {
    return !dev.state_disabled(i) &&
           dev.state(i).exit_latency_ns <= latency_req_ns;
  };
  if (ok(state)) return state;
  // A shallower non-polling state, then a deeper one, then anything that
  // fits (POLL), then anything enabled.
  const int first = FirstIndex(dev);
  for (int i = state - 1; i >= first; --i) {
    if (ok(i)) return i;
  }
  for (int i = state + 1; i < n; ++i) {
    if (ok(i)) return i;
  }
  for (int i = 0; i < n; ++i) {
    if (ok(i)) return i;
  }
  for (int i = 0; i < n; ++i) {
    if (!dev.state_disabled(i)) return i;
  }
  return 0;  // nothing enabled: the core reports the error
}

// ladder_select_state: steps 1-7 of the file comment.
int LadderGovernor::Select(IdleDevice& dev, bool* stop_tick) {
  PerCpu& c = CpuState(dev);
  const int n = dev.state_count();
  if (n == 0) return 0;  // no driver: the core idles without a state
  const int first = FirstIndex(dev);
  const int64_t latency_req_ns = dev.latency_limit_ns();

  // Step 1: a PM QoS limit of 0 means state 0.
  if (latency_req_ns == 0) {
    return Sanitize(dev, Move(c, c.last_state, 0), latency_req_ns);
  }

  const int last = c.last_state;
  const topology::CState& cur = dev.state(last);
  Counts& counts = c.counts[last];
  // Step 2: the last residency net of the exit latency.
  const int64_t last_residency_ns =
      dev.last_residency_ns() - cur.exit_latency_ns;

  // Step 3: promotion (the promotion time is the state's exit latency).
  if (last < n - 1 && !dev.state_disabled(last + 1) &&
      last_residency_ns > cur.exit_latency_ns &&
      dev.state(last + 1).exit_latency_ns <= latency_req_ns) {
    ++counts.promotion;
    counts.demotion = 0;
    if (counts.promotion >= options_.promotion_count) {
      return Sanitize(dev, Move(c, last, last + 1), latency_req_ns);
    }
  }

  // Step 4: forced demotion out of a disabled or too slow state, to the
  // deepest shallower one within the limit (disabled ones skipped here).
  if (last > first &&
      (dev.state_disabled(last) || cur.exit_latency_ns > latency_req_ns)) {
    int i = last - 1;
    for (; i > first; --i) {
      if (!dev.state_disabled(i) &&
          dev.state(i).exit_latency_ns <= latency_req_ns) {
        break;
      }
    }
    return Sanitize(dev, Move(c, last, i), latency_req_ns);
  }

  // Step 5: demotion (the demotion time is the state's exit latency).
  if (last > first && last_residency_ns < cur.exit_latency_ns) {
    ++counts.demotion;
    counts.promotion = 0;
    if (counts.demotion >= options_.demotion_count) {
      return Sanitize(dev, Move(c, last, last - 1), latency_req_ns);
    }
  }

  // Step 6: stay.
  return Sanitize(dev, last, latency_req_ns);
}

namespace {

platform::PolicyInfo LadderInfo() {
  platform::PolicyInfo info;
  info.family = platform::PolicyFamily::kCpuidle;
  info.name = "ladder";
  info.description =
      "Linux v6.1 drivers/cpuidle/governors/ladder.c (rating 10, meant for "
      "periodic-tick systems): one state deeper after promotion_count "
      "consecutive idle periods longer than the state's exit latency, one "
      "state shallower after demotion_count shorter ones; skips POLL unless "
      "the PM QoS limit is 0; never keeps the tick.";
  info.params = {
      {"promotion_count", int64_t{LadderGovernor::kDefaultPromotionCount},
       "consecutive idle periods longer than the current state's exit "
       "latency before moving one state deeper; count, default 4 "
       "(PROMOTION_COUNT, a compile-time constant in ladder.c)"},
      {"demotion_count", int64_t{LadderGovernor::kDefaultDemotionCount},
       "consecutive idle periods shorter than the current state's exit "
       "latency before moving one state shallower; count, default 1 "
       "(DEMOTION_COUNT, a compile-time constant in ladder.c)"},
  };
  info.make_idle = [](const platform::Params& p)
      -> absl::StatusOr<std::unique_ptr<platform::IdleGovernor>> {
    LadderGovernor::Options options;
    for (const char* name : {"promotion_count", "demotion_count"}) {
      int64_t v = p.GetInt(name);
      if (v < 1 || v > 1000000) {
        return absl::InvalidArgumentError(
            absl::StrCat("cpuidle policy 'ladder': ", name, " = ", v,
                         "; expected a count from 1 to 1000000"));
      }
    }
    options.promotion_count = static_cast<int>(p.GetInt("promotion_count"));
    options.demotion_count = static_cast<int>(p.GetInt("demotion_count"));
    return std::make_unique<LadderGovernor>(options);
  };
  return info;
}

SCHEDSIM_REGISTER_POLICY(LadderInfo());

}  // namespace

}  // namespace schedsim::governors
