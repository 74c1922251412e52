// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Frequency and package power's decisions and accounting
// (sim/frequency.h).

#include "sim/frequency.h"

#include <algorithm>
#include <limits>

#include "platform/drivers/acpi_cpufreq.h"
#include "sim/hwp_model.h"
#include "sim/power.h"

namespace schedsim::sim {

void Frequency::InitPackages(int64_t min_khz, int64_t max_khz) {
  max_khz_ = max_khz;
  const topology::FrequencySpec& f = topo_.frequency();
  s_.packages_.resize(topo_.num_packages());
  for (int p = 0; p < topo_.num_packages(); ++p) {
    PackageState& ps = s_.packages_[p];
    ps.cpus = topo_.packages()[p];
    ps.busy_threads_per_core.assign(topo_.num_cores(), 0);
    PowerLimiterParams lp = PowerLimiterParams::FromSpec(topo_.power(), f);
    lp.limit_mw = config_.pl1_mw;
    lp.min_khz = min_khz;
    lp.max_khz = max_khz;
    ps.limiter = PowerLimiter(lp);
  }
}

int64_t Frequency::EffectiveKhz(const FreqDomainState& d,
                                int64_t requested) const {
  const topology::FrequencySpec& f = *d.spec;
  int64_t khz = std::clamp(requested, d.policy_min_khz, d.policy_max_khz);
  // acpi-cpufreq: requesting P0 lets the hardware boost up to the ceiling.
  if (!f.has_hwp && config_.turbo && !f.pstates_khz.empty() &&
      khz >= f.pstates_khz.front()) {
    khz = d.policy_max_khz;
  }
  return std::min(khz, std::max(d.ceiling_khz, d.policy_min_khz));
}

int64_t Frequency::RequestKhz(int domain, int64_t khz) {
  FreqDomainState& d = s_.fdoms_[domain];
  const topology::FrequencySpec& f = *d.spec;
  khz = std::clamp(khz, d.policy_min_khz, d.policy_max_khz);
  // acpi-cpufreq's table, CPUFREQ_RELATION_L over every entry; above P0,
  // the boost range.
  khz = platform::drivers::ResolveTableKhz(
      f.pstates_khz, khz, platform::drivers::Relation::kLow,
      std::numeric_limits<int64_t>::max(),
      platform::drivers::AboveTable::kBoostAboveTable);
  d.requested_khz = khz;
  d.pending_khz = EffectiveKhz(d, khz);
  return d.pending_khz;
}

platform::HwpRequest Frequency::MergedHwpRequest(const FreqDomainState& d) {
  platform::HwpRequest merged = d.hwp_req[0];
  for (const platform::HwpRequest& r : d.hwp_req) {
    merged.min_perf = std::max(merged.min_perf, r.min_perf);
    merged.max_perf = std::max(merged.max_perf, r.max_perf);
    merged.desired_perf = std::max(merged.desired_perf, r.desired_perf);
    merged.epp = std::min(merged.epp, r.epp);
  }
  return merged;
}

int64_t Frequency::HwpRequestKhz(int domain, int cpu,
                                 const platform::HwpRequest& req) {
  FreqDomainState& d = s_.fdoms_[domain];
  const topology::FrequencySpec& f = *d.spec;
  int index = 0;
  for (int c = d.cpus.First(); c >= 0 && c != cpu; c = d.cpus.Next(c)) ++index;
  d.hwp_req[index] = req;
  int ceiling = KhzToPerf(f, std::max(d.ceiling_khz, f.min_khz));
  int perf = d.hwp.Evaluate(MergedHwpRequest(d), f.hwp, 0, 0, ceiling);
  return PerfToKhz(f, perf);
}

void Frequency::AccountEnergy(int cpu) {
  Cpu& c = s_.cpus_[cpu];
  int64_t dt = now_ns_ - c.energy_since_ns;
  c.energy_since_ns = now_ns_;
  if (dt <= 0) return;
  const FreqDomainState& d = s_.fdoms_[c.domain];
  int64_t power_mw = 0;
  bool c0 = true;
  if (c.mode == CpuMode::kIdle) {
    power_mw = c.idle_state >= 0 ? topo_.cstates()[c.idle_state].power_mw : 0;
    c0 = c.polling;
  } else if (c.mode == CpuMode::kAwake && c.exiting) {
    // Leaving a C-state: charged at POLL's power (assumed), not at full
    // active power.
    power_mw = topo_.cstates().empty() ? d.active_power_mw
                                       : topo_.cstates()[0].power_mw;
  } else {
    power_mw = d.active_power_mw;
  }
  int64_t counted = now_ns_ - std::max(now_ns_ - dt, stats_start_ns_);
  if (counted > 0) {
    c.energy_uj +=
        static_cast<double>(power_mw) * static_cast<double>(counted) * 1e-6;
  }
  if (c0) {
    c.aperf += static_cast<double>(d.cur_khz) * static_cast<double>(dt) * 1e-6;
    c.mperf +=
        static_cast<double>(d.spec->base_khz) * static_cast<double>(dt) * 1e-6;
    c.c0_total_ns += dt;
  }
}

void Frequency::AccountBusyStart(int cpu) {
  Cpu& c = s_.cpus_[cpu];
  AccountEnergy(cpu);
  c.busy_since_ns = now_ns_;
  c.khz = s_.fdoms_[c.domain].cur_khz;
}

void Frequency::AccountBusyEnd(int cpu) {
  Cpu& c = s_.cpus_[cpu];
  AccountEnergy(cpu);
  int64_t dt = now_ns_ - std::max(c.busy_since_ns, stats_start_ns_);
  c.busy_since_ns = now_ns_;
  if (dt <= 0) return;
  c.stats.busy_ns += dt;
  c.stats.khz_ns_busy += static_cast<double>(c.khz) * static_cast<double>(dt);
  auto& res = c.stats.busy_ns_at_khz;
  for (auto& [khz, ns] : res) {
    if (khz == c.khz) {
      ns += dt;
      return;
    }
  }
  // Four entries more at a time, not double: a CPU visits a dozen or so
  // frequencies in a run (10-13 per CPU in BM_Engine_Hackbench256), and
  // doubling would leave a quarter of the block unused on average.
  if (res.size() == res.capacity()) res.reserve(res.size() + 4);
  res.emplace_back(c.khz, dt);
}

bool Frequency::PackageBusyChanged(int cpu, bool busy) {
  const Cpu& c = s_.cpus_[cpu];
  PackageState& p = s_.packages_[c.package];
  int32_t& threads = p.busy_threads_per_core[c.core];
  if (busy) {
    if (threads++ == 0) ++p.active_cores;
    return p.busy_cpus++ == 0;
  }
  if (--threads == 0) --p.active_cores;
  --p.busy_cpus;
  return false;
}

int64_t Frequency::PmuBegin(int package) {
  PackageState& p = s_.packages_[package];
  int64_t dt = now_ns_ - p.last_pmu_ns;
  p.last_pmu_ns = now_ns_;
  for (int cpu = p.cpus.First(); cpu >= 0; cpu = p.cpus.Next(cpu)) {
    AccountEnergy(cpu);
  }
  if (p.limiter.enabled() && dt > 0) {
    double e = 0;
    int cores = 0;
    for (int cpu = p.cpus.First(); cpu >= 0; cpu = p.cpus.Next(cpu)) {
      e += s_.cpus_[cpu].energy_uj;
    }
    for (int core = 0; core < topo_.num_cores(); ++core) {
      if (p.busy_threads_per_core[core] > 0) ++cores;
    }
    double delta = e - p.last_energy_uj;
    p.last_energy_uj = e;
    int64_t power_mw =
        static_cast<int64_t>(delta * 1e6 / static_cast<double>(dt)) +
        topo_.power().uncore_mw + topo_.power().static_mw_per_core * cores;
    p.cap_khz = p.limiter.Update(power_mw, dt);
    if (p.cap_khz < max_khz_) p.stats.pl1_capped_ns += dt;
  }
  return dt;
}

int64_t Frequency::PmuDomainKhz(int d, int64_t dt, bool pending) {
  FreqDomainState& fd = s_.fdoms_[d];
  const PackageState& p = s_.packages_[fd.package];
  // The turbo ceiling of the domain's own spec (the machine's on a
  // machine without stated domains).
  const topology::FrequencySpec& f = *fd.spec;
  int64_t ceiling = config_.turbo
                        ? f.TurboCeilingKhz(std::max(p.active_cores, 1))
                        : (f.base_khz > 0 ? f.base_khz : fd.max_khz);
  if (ceiling <= 0) ceiling = fd.max_khz;
  ceiling = std::min(ceiling, p.cap_khz);
  fd.ceiling_khz = ceiling;
  if (f.has_hwp) {
    int64_t busiest = 0;
    for (int cpu = fd.cpus.First(); cpu >= 0; cpu = fd.cpus.Next(cpu)) {
      Cpu& c = s_.cpus_[cpu];
      busiest = std::max(busiest, c.c0_total_ns - c.c0_at_last_pmu_ns);
      c.c0_at_last_pmu_ns = c.c0_total_ns;
    }
    int perf = fd.hwp.Evaluate(MergedHwpRequest(fd), f.hwp, busiest, dt,
                               KhzToPerf(f, std::max(ceiling, f.min_khz)));
    return PerfToKhz(f, perf);
  }
  if (pending) return -1;
  return EffectiveKhz(fd, fd.requested_khz);
}

}  // namespace schedsim::sim
