// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// LinuxCpufreq's sampling (linux_cpufreq.h): /proc/stat busy time, the
// frequency counters, the utilization shown to the governor through the
// LinuxFreqDomain, and the description of those inputs in an action.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "platform/linux/linux_cpufreq.h"

namespace schedsim::platform::host {
namespace {

// CPUs of a domain listed by name in an action's reason; the rest are
// summarised.
constexpr int kMaxCpusDescribed = 8;

}  // namespace

int64_t LinuxFreqDomain::now_ns() const { return owner_->now_ns_; }

int64_t LinuxFreqDomain::tick_period_ns() const {
  return owner_->options_.tick_period_ns;
}

CpuUtil LinuxFreqDomain::util(int cpu) const {
  CpuUtil u;
  if (cpu < 0 || cpu >= owner_->num_cpus()) return u;
  const CpuObservation& o = owner_->obs_[cpu];
  u.capacity = o.capacity;
  u.util_cfs = std::clamp<int64_t>(std::llround(o.util), 0, o.capacity);
  return u;
}

CpuCounters LinuxFreqDomain::counters(int cpu) const {
  if (cpu < 0 || cpu >= owner_->num_cpus()) return CpuCounters();
  return owner_->obs_[cpu].counters;
}

absl::Status LinuxCpufreq::Sample(int64_t now_ns) {
  const std::string stat_path = proc_.Path("stat");
  absl::StatusOr<std::string> text = proc_.ReadRaw("stat");
  if (!text.ok()) return text.status();
  absl::StatusOr<std::vector<CpuTimes>> times = ParseProcStat(*text, stat_path);
  if (!times.ok()) return times.status();
  const int width = num_cpus();
  // fresh[cpu]: this sample carries new information about the CPU's busy
  // time (/proc/stat advances in USER_HZ ticks, typically 10 ms: a short
  // period may see none, and must not be taken for idle).
  std::vector<char> fresh(width, 0);
  for (CpuObservation& o : obs_) o.online = false;
  for (const CpuTimes& t : *times) {
    if (t.cpu < 0 || t.cpu >= width) continue;
    CpuObservation& o = obs_[t.cpu];
    o.online = true;
    std::optional<CpuTimes>& prev = times_[t.cpu];
    if (prev.has_value() && t.total() > prev->total()) {
      o.busy_fraction = BusyFraction(*prev, t);
      o.iowait = IowaitGrew(*prev, t);
      prev = t;
      fresh[t.cpu] = 1;
    } else if (prev.has_value() && t.total() == prev->total()) {
      o.iowait = false;  // no tick since the last sample: keep the estimate
    } else {
      // First reading, or the counters went back (CPU hotplug).
      prev = t;
      o.busy_fraction = 0.0;
      o.iowait = false;
      util_ns_[t.cpu] = now_ns;
    }
  }
  for (int cpu = 0; cpu < width; ++cpu) {
    CpuObservation& o = obs_[cpu];
    if (o.online) continue;
    o.busy_fraction = 0.0;
    o.iowait = false;
    o.util = 0.0;
    times_[cpu].reset();
    msr_valid_[cpu] = 0;
  }
  for (auto& d : domains_) {
    absl::Status s = ReadPolicyState(*d);
    if (!s.ok()) return s;
  }
  const int64_t dt_ns =
      sampled_ ? std::max<int64_t>(now_ns - last_sample_ns_, 0) : 0;
  for (auto& d : domains_) {
    const int64_t base_khz =
        d->spec_.base_khz > 0 ? d->spec_.base_khz : d->cur_freq_khz_;
    const int64_t max_khz =
        d->spec_.max_turbo_khz > 0 ? d->spec_.max_turbo_khz : base_khz;
    int64_t sum_khz = 0;
    int online = 0;
    for (int cpu = d->cpus_.First(); cpu >= 0; cpu = d->cpus_.Next(cpu)) {
      CpuObservation& o = obs_[cpu];
      int64_t f_khz = d->cur_freq_khz_;
      bool from_msr = false;
      if (msr_counters_ && o.online) {
        absl::StatusOr<uint64_t> tsc = msr_->Read(cpu, kMsrTsc);
        absl::StatusOr<uint64_t> mperf = msr_->Read(cpu, kMsrMperf);
        absl::StatusOr<uint64_t> aperf = msr_->Read(cpu, kMsrAperf);
        if (tsc.ok() && mperf.ok() && aperf.ok()) {
          from_msr = true;
          const CpuCounters now = {*aperf, *mperf, *tsc};
          const CpuCounters& last = last_msr_[cpu];
          if (msr_valid_[cpu] && now.tsc > last.tsc &&
              now.mperf >= last.mperf && now.aperf >= last.aperf) {
            const double dtsc = static_cast<double>(now.tsc - last.tsc);
            const double dmperf = static_cast<double>(now.mperf - last.mperf);
            const double daperf = static_cast<double>(now.aperf - last.aperf);
            // Time in C0 at cycle resolution: the busy fraction
            // intel_pstate uses (MPERF / TSC).
            o.busy_fraction = std::clamp(dmperf / dtsc, 0.0, 1.0);
            fresh[cpu] = 1;
            if (dmperf > 0 && base_khz > 0) {
              f_khz =
                  std::llround(static_cast<double>(base_khz) * daperf / dmperf);
            }
          }
          o.counters = now;
          last_msr_[cpu] = now;
          msr_valid_[cpu] = 1;
        } else {
          msr_counters_ = false;
          const absl::Status& bad =
              !tsc.ok() ? tsc.status()
                        : (!mperf.ok() ? mperf.status() : aperf.status());
          notes_.push_back(absl::StrCat(
              "MSR read failed; APERF/MPERF/TSC derived from /proc/stat from "
              "now on: ",
              bad.message()));
        }
      }
      if (!from_msr && dt_ns > 0 && base_khz > 0) {
        // TSC at the base frequency; MPERF while busy; APERF at f.
        const uint64_t dtsc = static_cast<uint64_t>(
            static_cast<double>(base_khz) * static_cast<double>(dt_ns) / 1e6);
        const uint64_t dmperf =
            static_cast<uint64_t>(static_cast<double>(dtsc) * o.busy_fraction);
        const uint64_t daperf = static_cast<uint64_t>(
            static_cast<double>(dmperf) * static_cast<double>(f_khz) /
            static_cast<double>(base_khz));
        o.counters.tsc += dtsc;
        o.counters.mperf += dmperf;
        o.counters.aperf += daperf;
      }
      o.avg_khz = f_khz;
      if (fresh[cpu] && sampled_) {
        const int64_t dt_cpu_ns = std::max<int64_t>(now_ns - util_ns_[cpu], 0);
        const double alpha =
            options_.util_half_life_ns > 0
                ? 1.0 -
                      std::exp2(-static_cast<double>(dt_cpu_ns) /
                                static_cast<double>(options_.util_half_life_ns))
                : 1.0;
        const double scale =
            max_khz > 0 ? std::min(1.0, static_cast<double>(f_khz) /
                                            static_cast<double>(max_khz))
                        : 1.0;
        const double sample =
            o.busy_fraction * static_cast<double>(o.capacity) * scale;
        o.util += alpha * (sample - o.util);
        util_ns_[cpu] = now_ns;
      }
      if (o.online) {
        sum_khz += f_khz;
        ++online;
      }
    }
    d->current_khz_ = online > 0 ? sum_khz / online : d->cur_freq_khz_;
  }
  now_ns_ = now_ns;
  last_sample_ns_ = now_ns;
  sampled_ = true;
  return absl::OkStatus();
}

std::string LinuxCpufreq::DescribeInputs(const LinuxFreqDomain& d) const {
  std::vector<int> cpus = d.cpus_.ToVector();
  std::stable_sort(cpus.begin(), cpus.end(),
                   [&](int a, int b) { return obs_[a].util > obs_[b].util; });
  std::vector<std::string> parts;
  for (size_t i = 0; i < cpus.size() && i < kMaxCpusDescribed; ++i) {
    const CpuObservation& o = obs_[cpus[i]];
    if (!o.online) {
      parts.push_back(absl::StrCat("cpu", cpus[i], " offline"));
      continue;
    }
    parts.push_back(absl::StrFormat(
        "cpu%d busy %.1f%% util %d%s", cpus[i], 100.0 * o.busy_fraction,
        std::llround(o.util), o.iowait ? " iowait" : ""));
  }
  if (cpus.size() > static_cast<size_t>(kMaxCpusDescribed)) {
    parts.push_back(
        absl::StrCat("+", cpus.size() - kMaxCpusDescribed, " less busy CPUs"));
  }
  return absl::StrCat(
      options_.governor_name.empty() ? "governor" : options_.governor_name,
      "; ", absl::StrJoin(parts, ", "), "; running at ", d.current_khz_, " kHz",
      msr_counters_ ? " (APERF/MPERF)"
                    : absl::StrCat(" (", d.cur_freq_source_, ")"),
      "; limits ", d.policy_min_khz_, "-", d.policy_max_khz_, " kHz");
}

}  // namespace schedsim::platform::host
