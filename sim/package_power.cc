// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The package and its power: each CPU's energy and APERF/MPERF counters
// (what the kernel reads as RAPL's MSR_PKG_ENERGY_STATUS through
// drivers/powercap/intel_rapl_common.c and as APERF/MPERF in
// arch/x86/kernel/cpu/aperfmperf.c, Linux 6.1), busy-time accounting by
// frequency, the busy cores that set the turbo ceiling, and the package
// power-management unit's periodic evaluation (PL1 limit, HWP's
// autonomous selection: hardware the kernel only requests from, see
// sim/hwp_model.h and docs/model.md).

#include <algorithm>
#include <cstdint>

#include "sim/simulator_impl.h"

namespace schedsim::sim {

// Integrates the CPU's power and C0 counters since the last call. Called
// before anything that changes its mode, idle state or frequency.
void SimulatorImpl::AccountEnergy(int cpu) {
  Cpu& c = cpus_[cpu];
  int64_t dt = now_ns_ - c.energy_since_ns;
  c.energy_since_ns = now_ns_;
  if (dt <= 0) return;
  const FreqDomainState& d = fdoms_[c.domain];
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

void SimulatorImpl::AccountBusyStart(int cpu) {
  Cpu& c = cpus_[cpu];
  AccountEnergy(cpu);
  c.busy_since_ns = now_ns_;
  c.khz = fdoms_[c.domain].cur_khz;
}

void SimulatorImpl::AccountBusyEnd(int cpu) {
  Cpu& c = cpus_[cpu];
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

void SimulatorImpl::PackageBusyChanged(int cpu, bool busy) {
  PackageState& p = packages_[cpus_[cpu].package];
  int32_t& threads = p.busy_threads_per_core[cpus_[cpu].core];
  if (busy) {
    if (threads++ == 0) ++p.active_cores;
    if (p.busy_cpus++ == 0 && !queue_.Contains(p.pmu)) {
      int64_t period = config_.pmu_period_ns;
      int64_t next = (now_ns_ / period + 1) * period;
      p.pmu = QueuePush(SimTime::FromNanoseconds(next), kBandPmu, kEvPmu,
                        cpus_[cpu].package, -1);
    }
  } else {
    if (--threads == 0) --p.active_cores;
    --p.busy_cpus;
  }
  // The rates of the core's threads depend on how many of them are busy.
  UpdateRate(cpu);
  for (int32_t s : cpus_[cpu].siblings) UpdateRate(s);
}

void SimulatorImpl::OnPmu(int package) {
  PackageState& p = packages_[package];
  int64_t dt = now_ns_ - p.last_pmu_ns;
  p.last_pmu_ns = now_ns_;
  p.pmu = EventHandle();
  for (int cpu = p.cpus.First(); cpu >= 0; cpu = p.cpus.Next(cpu)) {
    AccountEnergy(cpu);
  }
  if (p.limiter.enabled() && dt > 0) {
    double e = 0;
    int cores = 0;
    for (int cpu = p.cpus.First(); cpu >= 0; cpu = p.cpus.Next(cpu)) {
      e += cpus_[cpu].energy_uj;
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
  for (int d = 0; d < static_cast<int>(fdoms_.size()); ++d) {
    FreqDomainState& fd = fdoms_[d];
    if (fd.package != package) continue;
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
        Cpu& c = cpus_[cpu];
        busiest = std::max(busiest, c.c0_total_ns - c.c0_at_last_pmu_ns);
        c.c0_at_last_pmu_ns = c.c0_total_ns;
      }
      platform::HwpRequest merged = fd.hwp_req[0];
      for (const platform::HwpRequest& r : fd.hwp_req) {
        merged.min_perf = std::max(merged.min_perf, r.min_perf);
        merged.max_perf = std::max(merged.max_perf, r.max_perf);
        merged.desired_perf = std::max(merged.desired_perf, r.desired_perf);
        merged.epp = std::min(merged.epp, r.epp);
      }
      int perf = fd.hwp.Evaluate(merged, f.hwp, busiest, dt,
                                 KhzToPerf(f, std::max(ceiling, f.min_khz)));
      SetDomainKhz(d, PerfToKhz(f, perf));
    } else if (!queue_.Contains(fd.transition)) {
      SetDomainKhz(d, EffectiveKhz(fd, fd.requested_khz));
    }
  }
  if (p.busy_cpus > 0) {
    p.pmu = QueuePush(SimTime::FromNanoseconds(now_ns_ + config_.pmu_period_ns),
                      kBandPmu, kEvPmu, package, -1);
  }
  return;
}

}  // namespace schedsim::sim
