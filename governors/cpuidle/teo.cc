// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// teo, Linux v6.1 drivers/cpuidle/governors/teo.c, described in our own
// words (no kernel source copied).
//
// The kernel's algorithm. Each idle state i owns a bin of idle durations,
// [target residency of i, target residency of i+1) (the last bin is open),
// with two decaying metrics: "hits" (the CPU slept until the timer it
// expected) and "intercepts" (something woke it earlier), plus, in 6.1,
// "recent": how many of the last NR_RECENT (9) intercepts fell in the bin.
// Every event weighs PULSE (1024); every update first multiplies all
// metrics by 7/8 (DECAY_SHIFT 3).
//
// teo_reflect(), right after the wake-up: the time span is the sleep length
// if the POLL time limit fired or the tick woke the CPU while the next timer
// was more than a tick away (a timer wake-up is assumed), otherwise the
// time since the selection.
//
// teo_update(), at the next selection:
//   1. The measured idle duration is "infinite" if the time span reached
//      the sleep length, else the residency minus half the exit latency.
//   2. Decay every bin by 7/8 and recompute the total.
//   3. idx_timer = the deepest state whose target residency fits the sleep
//      length; idx_duration = the deepest one that also fits the measured
//      duration.
//   4. Equal: a hit for idx_timer. Otherwise an intercept (and a recent
//      one, rotating the 9-slot ring) for idx_duration.
//
// teo_select():
//   1. Update as above; record the selection time; the duration is the
//      sleep length (tick_nohz_get_sleep_length(), with the distance to
//      the next tick beside it).
//   2. Fewer than 2 states, or state 0 enabled and state 1's target
//      residency longer than the duration: state 0.
//   3. Walk the states upwards summing hits, intercepts and recents of the
//      bins below; each enabled state fitting the duration becomes the
//      candidate (its sums are kept), and the latency-limit candidate if
//      its exit latency fits the PM QoS limit. Stop at the first state too
//      deep for the duration.
//   4. If the candidate is the first enabled state, go to step 7.
//   5. Early wake-ups are likely when the intercepts below the candidate
//      outweigh everything at or above it (2 x intercepts > total - hits),
//      or when more than 4 of the last 9 wake-ups were early.
//   6. Then walk down from the candidate: the first state whose bins below
//      hold more than half of the candidate's intercepts (and recents, when
//      that test applied) wins, with the duration set to the middle of its
//      bin; a disabled state, or one too shallow while the tick is stopped,
//      yields the last suitable deeper one.
//   7. Clamp to the latency-limit candidate.
//   8. For a polling state or a duration shorter than a tick (the tick
//      running), keep the tick, and if the state's target residency is
//      longer than the distance to the tick, go down to one that fits it.
//
// Version 6.3 (util-awareness, commit 9ce0f7c4bc64) adds to teo_select():
//   2a. After step 2: the CPU is "utilized" if sched_cpu_util() exceeds
//       its capacity shifted right by 6 (about 1.6%). Utilized with fewer
//       than 3 states: the first enabled non-polling state, then step 8.
//   7a. After step 7, utilized: go down from the choice, skipping disabled
//       and polling states, to the deepest one whose target residency fits
//       the duration (the next shallower non-polling one at least, if any).
//
// What the model simplifies: see teo.h.

#include "governors/cpuidle/teo.h"

#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "platform/registry.h"

namespace schedsim::governors {

namespace {

using platform::IdleDevice;

int FirstEnabled(const IdleDevice& dev) {
  for (int i = 0; i < dev.state_count(); ++i) {
    if (!dev.state_disabled(i)) return i;
  }
  return -1;
}

// The middle of bin i (only asked for a state with a deeper one).
int64_t MiddleOfBin(const IdleDevice& dev, int i) {
  return (dev.state(i).target_residency_ns +
          dev.state(i + 1).target_residency_ns) /
         2;
}

}  // namespace

TeoGovernor::PerCpu& TeoGovernor::CpuState(const IdleDevice& dev) {
  int cpu = dev.cpu();
  if (cpu < 0 || cpu >= static_cast<int>(cpus_.size()) || !cpus_[cpu].enabled) {
    std::fprintf(stderr, "teo: CPU %d used before Enable()\n", cpu);
    std::abort();
  }
  if (cpus_[cpu].bins.size() != static_cast<size_t>(dev.state_count())) {
    std::fprintf(stderr, "teo: CPU %d has %d states, %zu at Enable()\n", cpu,
                 dev.state_count(), cpus_[cpu].bins.size());
    std::abort();
  }
  return cpus_[cpu];
}

void TeoGovernor::Enable(IdleDevice& dev) {
  int cpu = dev.cpu();
  if (cpu >= static_cast<int>(cpus_.size())) cpus_.resize(cpu + 1);
  PerCpu& c = cpus_[cpu];
  c = PerCpu();
  c.enabled = true;
  c.bins.assign(dev.state_count(), Bin());
  c.recent_idx.fill(-1);
  c.states512.assign(dev.state_count(), State512());
  c.intervals.fill(std::numeric_limits<int64_t>::max());
}

void TeoGovernor::Reflect(IdleDevice& dev, int index) {
  PerCpu& c = CpuState(dev);
  c.last_state = index;
  c.wake_ns = dev.now_ns();
  c.residency_ns = dev.last_residency_ns();
  c.needs_update = true;
}

// teo_reflect's time span and teo_update's step 1.
int64_t TeoGovernor::MeasuredNs(const IdleDevice& dev, const PerCpu& c) const {
  // A wake-up by a safety net (the poll time limit, or the tick while the
  // timer was further away) counts as if the timer had woken the CPU.
  const bool tick_wakeup = c.tick_kept && c.residency_ns >= c.delta_tick_ns;
  int64_t time_span_ns = c.wake_ns - c.selection_ns;
  if (dev.poll_time_limit() ||
      (tick_wakeup && c.sleep_length_ns > dev.tick_period_ns())) {
    time_span_ns = c.sleep_length_ns;
  }

  int64_t measured_ns;
  if (time_span_ns >= c.sleep_length_ns) {
    measured_ns = std::numeric_limits<int64_t>::max();  // a timer wake-up
  } else {
    // Half the exit latency: a rough average of the real wake-up delay
    // teo_update step 1.
    int64_t lat_ns = dev.state(c.last_state).exit_latency_ns;
    measured_ns = c.residency_ns;
    if (measured_ns >= lat_ns) {
      measured_ns -= lat_ns / 2;
    } else {
      measured_ns /= 2;
    }
  }
  return measured_ns;
}

// teo_update, v6.1 (steps 2-4 above).
void TeoGovernor::Update(const IdleDevice& dev, PerCpu& c) {
  const int n = static_cast<int>(c.bins.size());
  const int64_t measured_ns = MeasuredNs(dev, c);

  // Decay every bin and find the bins of the timer and of the duration.
  c.total = 0;
  int idx_timer = 0;
  int idx_duration = 0;
  for (int i = 0; i < n; ++i) {
    Bin& b = c.bins[i];
    b.hits -= b.hits >> kDecayShift;
    b.intercepts -= b.intercepts >> kDecayShift;
    c.total += b.hits + b.intercepts;
    int64_t residency_ns = dev.state(i).target_residency_ns;
    if (residency_ns <= c.sleep_length_ns) {
      idx_timer = i;
      if (residency_ns <= measured_ns) idx_duration = i;
    }
  }

  // The slot leaving the ring of recent events.
  int slot = c.next_recent;
  c.next_recent = (c.next_recent + 1) % kNrRecent;
  if (c.recent_idx[slot] >= 0) --c.bins[c.recent_idx[slot]].recent;

  if (idx_timer == idx_duration) {
    c.bins[idx_timer].hits += kPulse;
    c.recent_idx[slot] = -1;
  } else {
    c.bins[idx_duration].intercepts += kPulse;
    ++c.bins[idx_duration].recent;
    c.recent_idx[slot] = idx_duration;
  }
  c.total += kPulse;
}

// teo_select, v6.1 (and v6.3): steps 1-8 of the file comment.
int TeoGovernor::Select(IdleDevice& dev, bool* stop_tick) {
  PerCpu& c = CpuState(dev);
  if (c.needs_update) {
    if (options_.v512) {
      Update512(dev, c);
    } else {
      Update(dev, c);
    }
    c.needs_update = false;
  }
  const int n = dev.state_count();
  const int64_t tick_ns = dev.tick_period_ns();
  const bool tick_stopped = dev.tick_stopped();
  const int64_t latency_req_ns = dev.latency_limit_ns();
  int64_t delta_tick_ns = 0;
  int64_t duration_ns = dev.sleep_length_ns(&delta_tick_ns);
  if (duration_ns < 0) duration_ns = delta_tick_ns = 0;
  c.selection_ns = dev.now_ns();
  c.sleep_length_ns = duration_ns;
  c.delta_tick_ns = delta_tick_ns;
  if (options_.v512) {
    if (n == 0) {
      c.tick_kept = false;
      return 0;  // no driver: the core idles without a state
    }
    const int idx = Select512(dev, c, duration_ns, delta_tick_ns, stop_tick);
    c.tick_kept = !*stop_tick && !tick_stopped;
    return idx;
  }

  const int first = FirstEnabled(dev);
  int idx = first < 0 ? 0 : first;
  if (n == 0) {
    c.tick_kept = false;
    return 0;  // no driver: the core idles without a state
  }

  // Step 2: no choice, or even state 1 is too deep for the timer.
  bool decided = first < 0 || n < 2 ||
                 (first == 0 && dev.state(1).target_residency_ns > duration_ns);

  // Step 2a (v6.3): utilized, and with two states the first non-polling.
  c.utilized = false;
  if (!decided && options_.v63) {
    c.utilized = dev.cpu_util() > (dev.cpu_capacity() >> kUtilThresholdShift);
    if (c.utilized && n < 3) {
      for (int i = 0; i < n; ++i) {
        if (dev.state_disabled(i) || dev.state(i).polling()) continue;
        idx = i;
        decided = true;
        break;
      }
    }
  }

  if (!decided) {
    // Step 3: the deepest enabled state fitting the timer, the deepest one
    // also fitting the latency limit, and the metric sums below it.
    uint64_t intercept_sum = 0, hit_sum = 0, recent_sum = 0;
    uint64_t idx_intercept_sum = 0, idx_hit_sum = 0, idx_recent_sum = 0;
    int constraint_idx = first;
    for (int i = 1; i < n; ++i) {
      // Sums over the bins of every state shallower than i.
      intercept_sum += c.bins[i - 1].intercepts;
      hit_sum += c.bins[i - 1].hits;
      recent_sum += c.bins[i - 1].recent;
      if (dev.state_disabled(i)) continue;
      if (i == first) {
        idx_intercept_sum = intercept_sum;
        idx_hit_sum = hit_sum;
        idx_recent_sum = recent_sum;
      }
      if (dev.state(i).target_residency_ns > duration_ns) break;
      idx = i;
      if (dev.state(i).exit_latency_ns <= latency_req_ns) constraint_idx = i;
      idx_intercept_sum = intercept_sum;
      idx_hit_sum = hit_sum;
      idx_recent_sum = recent_sum;
    }

    // Steps 4-6: if the CPU is likely to wake up early, a shallower state.
    if (idx != first) {
      bool alt_intercepts =
          2 * idx_intercept_sum > uint64_t{c.total} - idx_hit_sum;
      bool alt_recent = idx_recent_sum > kNrRecent / 2;
      if (alt_intercepts || alt_recent) {
        // Deeper-to-shallower walk. A state is suitable if enabled and, with
        // the tick stopped, its bin's middle is at least a tick (a shallow
        // state could otherwise be stuck for long).
        int suitable_idx = idx;
        int64_t suitable_span_ns = duration_ns;
        intercept_sum = recent_sum = 0;
        for (int i = idx - 1; i >= 0; --i) {
          intercept_sum += c.bins[i].intercepts;
          recent_sum += c.bins[i].recent;
          int64_t span_ns = MiddleOfBin(dev, i);
          bool time_ok = !tick_stopped || span_ns >= tick_ns;
          bool suitable = !dev.state_disabled(i) && time_ok;
          // The deepest state below which intercepts are in the majority
          // (overall and among the recent ones, as each test demands).
          if ((!alt_recent || 2 * recent_sum > idx_recent_sum) &&
              (!alt_intercepts || 2 * intercept_sum > idx_intercept_sum)) {
            if (suitable) {
              suitable_idx = i;
              suitable_span_ns = span_ns;
            }
            break;
          }
          if (suitable) {
            suitable_idx = i;
            suitable_span_ns = span_ns;
          } else if (!time_ok) {
            break;  // everything shallower is too shallow as well
          }
        }
        idx = suitable_idx;
        duration_ns = suitable_span_ns;
      }
    }

    // Step 7: the latency limit.
    if (idx > constraint_idx) idx = constraint_idx;

    // Step 7a (v6.3): utilized, a shallower non-polling state
    // (teo_find_shallower_state() with no_poll).
    if (c.utilized) {
      for (int i = idx - 1; i >= 0; --i) {
        if (dev.state_disabled(i) || dev.state(i).polling()) continue;
        idx = i;
        if (dev.state(i).target_residency_ns <= duration_ns) break;
      }
    }
  }

  // Step 8: keep the tick for polling or short expected durations, and then
  // fit the state to the time to the next tick.
  *stop_tick = true;
  if (!tick_stopped && (dev.state(idx).polling() || duration_ns < tick_ns)) {
    *stop_tick = false;
    if (idx > first && dev.state(idx).target_residency_ns > delta_tick_ns) {
      for (int i = idx - 1; i >= 0; --i) {
        if (dev.state_disabled(i)) continue;
        idx = i;
        if (dev.state(i).target_residency_ns <= delta_tick_ns) break;
      }
    }
  }
  c.tick_kept = !*stop_tick && !tick_stopped;
  return idx;
}

// --- Version 5.12 ------------------------------------------------------------
//
// The algorithm teo was introduced with (v5.1, commit b26bf6ab716f) as
// v5.12 last had it, before v5.13's rework (c410a9a142f1, 77577558f25d). Our
// description of teo_update() and teo_select() of that version:
//
// teo_update(): the measured duration as in v6.1 (MeasuredNs). Decay every
// state's "early hits" by 7/8. idx_timer = the deepest state whose target
// residency fits the sleep length, idx_hit = the deepest also fitting the
// measured duration. For idx_timer only, decay "hits" and "misses" by 7/8,
// then add a PULSE to "misses" (and to idx_hit's "early hits") when the
// measured duration fell in a shallower state's range, else to "hits".
// Keep the measured duration in a ring of the last 8 (INTERVALS).
//
// teo_select():
//   1. Walk the states upwards to the deepest enabled one fitting the sleep
//      length (the candidate), noting the first one over the PM QoS limit
//      and, among the states up to the candidate whose target residency is
//      not too short while the tick is stopped, the one with the most
//      "early hits" (and the previous such maximum). A disabled state that
//      fits the sleep length lends its "hits" and "misses" to the decision
//      and its "early hits" to the candidate below it.
//   2. If the candidate's hits do not exceed its misses, take the state
//      with the most early hits instead (the previous maximum if that is
//      the candidate itself), the expected duration becoming its target
//      residency.
//   3. Clamp to the latency-limit state: in v5.4-v5.12 the first state
//      whose exit latency exceeds the limit (v6.1: the deepest within it).
//   4. Unless the choice is state 0: if more than half of the last 8
//      measured durations are shorter than the expected duration, their
//      average becomes the expected duration (unless the tick is stopped
//      and it is shorter than a tick), and the state goes down to the
//      deepest enabled one whose target residency fits it.
//   5. The tick as in v6.1 step 8, from any state above 0.

namespace {

// teo_find_shallower_state(), v5.12: down from `idx`, the deepest enabled
// state fitting `duration_ns` (the shallowest enabled one if none fits).
int FindShallower512(const IdleDevice& dev, int idx, int64_t duration_ns) {
  for (int i = idx - 1; i >= 0; --i) {
    if (dev.state_disabled(i)) continue;
    idx = i;
    if (dev.state(i).target_residency_ns <= duration_ns) break;
  }
  return idx;
}

}  // namespace

void TeoGovernor::Update512(const IdleDevice& dev, PerCpu& c) {
  const int n = static_cast<int>(c.states512.size());
  const int64_t measured_ns = MeasuredNs(dev, c);
  int idx_timer = -1;
  int idx_hit = -1;
  for (int i = 0; i < n; ++i) {
    State512& s = c.states512[i];
    s.early_hits -= s.early_hits >> kDecayShift;
    const int64_t residency_ns = dev.state(i).target_residency_ns;
    if (residency_ns <= c.sleep_length_ns) {
      idx_timer = i;
      if (residency_ns <= measured_ns) idx_hit = i;
    }
  }
  if (idx_timer >= 0) {
    State512& t = c.states512[idx_timer];
    t.hits -= t.hits >> kDecayShift;
    t.misses -= t.misses >> kDecayShift;
    if (idx_timer > idx_hit) {
      t.misses += kPulse;
      if (idx_hit >= 0) c.states512[idx_hit].early_hits += kPulse;
    } else {
      t.hits += kPulse;
    }
  }
  c.intervals[c.interval_idx] = measured_ns;
  c.interval_idx = (c.interval_idx + 1) % kIntervals;
}

int TeoGovernor::Select512(IdleDevice& dev, PerCpu& c, int64_t duration_ns,
                           int64_t delta_tick_ns, bool* stop_tick) {
  const int n = dev.state_count();
  const int64_t tick_ns = dev.tick_period_ns();
  const bool tick_stopped = dev.tick_stopped();
  const int64_t latency_req_ns = dev.latency_limit_ns();
  auto time_ok = [&](int64_t ns) { return !tick_stopped || ns >= tick_ns; };

  // Step 1.
  uint32_t hits = 0, misses = 0, early_hits = 0;
  int max_early_idx = -1, prev_max_early_idx = -1;
  int constraint_idx = n;
  int idx = -1;
  for (int i = 0; i < n; ++i) {
    const topology::CState& s = dev.state(i);
    const State512& m = c.states512[i];
    if (dev.state_disabled(i)) {
      if (s.target_residency_ns > duration_ns) continue;
      // Its range is covered by the candidate below it, judged by its own
      // hits and misses.
      hits = m.hits;
      misses = m.misses;
      if (early_hits >= m.early_hits || idx < 0) continue;
      if (max_early_idx == idx) {
        early_hits = m.early_hits;
        continue;
      }
      if (time_ok(dev.state(idx).target_residency_ns)) {
        prev_max_early_idx = max_early_idx;
        early_hits = m.early_hits;
        max_early_idx = idx;
      }
      continue;
    }
    if (idx < 0) {
      idx = i;  // the first enabled state
      hits = m.hits;
      misses = m.misses;
    }
    if (s.target_residency_ns > duration_ns) break;
    if (s.exit_latency_ns > latency_req_ns && constraint_idx > i) {
      constraint_idx = i;
    }
    idx = i;
    hits = m.hits;
    misses = m.misses;
    if (early_hits < m.early_hits && time_ok(s.target_residency_ns)) {
      prev_max_early_idx = max_early_idx;
      early_hits = m.early_hits;
      max_early_idx = i;
    }
  }

  // Step 2.
  if (hits <= misses) {
    if (idx == max_early_idx) max_early_idx = prev_max_early_idx;
    if (max_early_idx >= 0) {
      idx = max_early_idx;
      duration_ns = dev.state(idx).target_residency_ns;
    }
  }

  // Step 3.
  if (constraint_idx < idx) idx = constraint_idx;

  // Step 4.
  if (idx < 0) {
    idx = 0;  // no state enabled
  } else if (idx > 0) {
    int count = 0;
    int64_t sum = 0;
    for (int64_t v : c.intervals) {
      if (v >= duration_ns) continue;
      ++count;
      sum += v;
    }
    if (count > kIntervals / 2) {
      const int64_t avg_ns = sum / count;
      if (time_ok(avg_ns)) {
        duration_ns = avg_ns;
        if (dev.state(idx).target_residency_ns > avg_ns) {
          idx = FindShallower512(dev, idx, avg_ns);
        }
      }
    }
  }

  // Step 5.
  *stop_tick = true;
  if ((dev.state(idx).polling() || duration_ns < tick_ns) && !tick_stopped) {
    *stop_tick = false;
    if (idx > 0 && dev.state(idx).target_residency_ns > delta_tick_ns) {
      idx = FindShallower512(dev, idx, delta_tick_ns);
    }
  }
  return idx;
}

namespace {

platform::PolicyInfo TeoInfo() {
  platform::PolicyInfo info;
  info.family = platform::PolicyFamily::kCpuidle;
  info.name = "teo";
  info.description =
      "Linux v6.1 drivers/cpuidle/governors/teo.c (timer events oriented, "
      "rating 19): one bin per state counts wake-ups by the timer (hits) "
      "and before it (intercepts, also among the last 9 wake-ups), decayed "
      "by 7/8 per idle period; picks the deepest state fitting the next "
      "timer, then a shallower one when intercepts below it dominate; "
      "honours the PM QoS limit; keeps the tick for short expected idle "
      "durations.";
  info.params = {
      {"version", std::string(kTeoVersion61),
       "kernel version of the algorithm: \"6.1\" (default; the intercepts "
       "and recent-intercepts bins of v5.13's rework, commits c410a9a142f1 "
       "and 77577558f25d, "
       "as in v6.1) or \"5.12\" (the algorithm of teo's introduction in "
       "v5.1, commit b26bf6ab716f, as v5.12 last had it: hits, misses and "
       "early hits per state and the average of the last 8 idle durations) "
       "or \"6.3\" (v6.1's with the util-awareness of commit 9ce0f7c4bc64, "
       "v6.3: a CPU whose util exceeds capacity/64 takes the next shallower "
       "non-polling state); v6.12's rework is not modelled"},
  };
  info.make_idle = [](const platform::Params& p)
      -> absl::StatusOr<std::unique_ptr<platform::IdleGovernor>> {
    const std::string& version = p.GetString("version");
    if (version != kTeoVersion61 && version != kTeoVersion512 &&
        version != kTeoVersion63) {
      return absl::InvalidArgumentError(
          absl::StrCat("cpuidle policy 'teo': version \"", version,
                       "\" is not modelled; use \"", kTeoVersion61, "\", \"",
                       kTeoVersion63, "\" or \"", kTeoVersion512, "\""));
    }
    TeoGovernor::Options options;
    options.v512 = version == kTeoVersion512;
    options.v63 = version == kTeoVersion63;
    return std::make_unique<TeoGovernor>(options);
  };
  return info;
}

SCHEDSIM_REGISTER_POLICY(TeoInfo());

}  // namespace

}  // namespace schedsim::governors
