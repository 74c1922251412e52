// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Frequency: frequency domains (a cpufreq policy each, struct
// cpufreq_policy) driven by the frequency governor through the driver's
// target (acpi-cpufreq's P-state requests with a transition latency,
// drivers/cpufreq/acpi-cpufreq.c; or intel_pstate's HWP requests,
// drivers/cpufreq/intel_pstate.c, Linux 6.1, that the HWP hardware model
// turns into a level), and the FreqDomain view the governors read. What a
// request gets, the package power management unit's decisions (turbo
// ceiling by active cores, PL1, HWP selection) and energy accounting are
// freq_'s (sim/frequency.h); package_power.cc schedules its evaluations. The
// domains are the machine's own when it states them
// (Topology::frequency_domains: an Arm cluster, one cpufreq policy over several
// CPUs, each domain with its own OPPs and capacitance), else one per core with
// the machine's FrequencySpec (x86 per-core P-states).

#include <algorithm>
#include <limits>

#include "absl/strings/str_cat.h"
#include "platform/core/answer_checks.h"
#include "platform/drivers/acpi_cpufreq.h"
#include "sim/freq_invariance.h"
#include "sim/simulator_impl.h"

namespace schedsim::sim {

namespace {

class SimFreqDomain final : public platform::FreqDomain {
 public:
  SimFreqDomain(SimulatorImpl* sim, int id) : sim_(sim), id_(id) {}

  int id() const override { return id_; }
  const topology::CpuSet& cpus() const override { return d().cpus; }
  const topology::FrequencySpec& spec() const override { return *d().spec; }
  int64_t policy_min_khz() const override { return d().policy_min_khz; }
  int64_t policy_max_khz() const override { return d().policy_max_khz; }
  int64_t current_khz() const override { return d().cur_khz; }
  int64_t requested_khz() const override { return d().requested_khz; }
  int64_t now_ns() const override { return sim_->now_ns(); }
  int64_t tick_period_ns() const override { return sim_->tick_ns(); }
  platform::CpuUtil util(int cpu) const override { return sim_->UtilOf(cpu); }
  platform::CpuCounters counters(int cpu) const override {
    return sim_->CountersOf(cpu);
  }
  bool frequency_invariant() const override {
    return sim_->config().frequency_invariance;
  }
  void SetTargetKhz(int64_t khz) override { sim_->SetTargetKhz(id_, khz); }
  void SetHwpRequest(int cpu, const platform::HwpRequest& request) override {
    sim_->SetHwpRequest(id_, cpu, request);
  }

 private:
  const FreqDomainState& d() const { return sim_->domain_state(id_); }
  SimulatorImpl* sim_;
  int id_;
};

}  // namespace

std::unique_ptr<platform::FreqDomain> MakeSimFreqDomain(SimulatorImpl* sim,
                                                        int domain) {
  return std::make_unique<SimFreqDomain>(sim, domain);
}

void SimulatorImpl::InitFrequency() {
  const topology::FrequencySpec& f = topo_.frequency();
  const int64_t base = f.base_khz > 0 ? f.base_khz : 2000000;
  const int64_t top = f.max_turbo_khz > 0 ? f.max_turbo_khz : base;
  const int64_t low = f.min_khz > 0 ? f.min_khz : base;
  max_khz_ = config_.turbo ? top : base;
  kernel_cycles_per_ns_ =
      config_.kernel_work_at_frequency ? static_cast<double>(top) * 1e-6 : 0;
  freq_.InitPackages(low, max_khz_);
  const std::vector<topology::FrequencyDomainSpec>& stated =
      topo_.frequency_domains();
  const int ndoms =
      stated.empty() ? topo_.num_cores() : static_cast<int>(stated.size());
  fdoms_.resize(ndoms);
  for (int d = 0; d < ndoms; ++d) {
    FreqDomainState& fd = fdoms_[d];
    fd.cpus = stated.empty() ? topo_.cores()[d] : stated[d].cpus;
    fd.first_cpu = fd.cpus.First();
    fd.package = topo_.place(fd.first_cpu).package;
    fd.spec = &topo_.frequency_of(fd.first_cpu);
    fd.power = topo_.power();
    if (!stated.empty() && stated[d].ceff_pf > 0) {
      fd.power.ceff_pf = stated[d].ceff_pf;
    }
    const topology::FrequencySpec& df = *fd.spec;
    // The domain's own range, with the machine's fallbacks.
    const int64_t dbase = df.base_khz > 0 ? df.base_khz : base;
    const int64_t dtop = df.max_turbo_khz > 0 ? df.max_turbo_khz : dbase;
    const int64_t dlow = df.min_khz > 0 ? df.min_khz : dbase;
    fd.max_khz = config_.turbo ? dtop : dbase;
    fd.invariance_khz =
        config_.turbo ? InvarianceRefKhz(df, topo_.vendor(), dtop) : dbase;
    // arch_scale_cpu_capacity over the domain's share of the machine's
    // top frequency: what one of its cycles is worth in the biggest CPU's.
    fd.work_per_cycle = static_cast<double>(topo_.capacity(fd.first_cpu)) /
                        1024.0 * static_cast<double>(top) /
                        static_cast<double>(dtop);
    if (!topo_.asym_capacity() && stated.empty()) fd.work_per_cycle = 1.0;
    fd.policy_min_khz = dlow;
    fd.policy_max_khz = fd.max_khz;
    exec_.SetCurKhz(fd, dbase);
    fd.requested_khz = dbase;
    fd.ceiling_khz = fd.max_khz;
    fd.active_power_mw = ActivePowerMw(fd.power, df, dbase);
    platform::HwpRequest req;
    req.min_perf = df.hwp.lowest;
    req.max_perf = df.hwp.highest;
    fd.hwp_req.assign(fd.cpus.Count(), req);
    fd.hwp.Reset(df.has_hwp ? KhzToPerf(df, dbase) : 0);
    for (int cpu = fd.cpus.First(); cpu >= 0; cpu = fd.cpus.Next(cpu)) {
      fd.cpu_list.push_back(cpu);
      cpus_[cpu].domain = d;
      cpus_[cpu].khz = dbase;
    }
    for (int cpu : fd.cpu_list) {
      cpus_[cpu].pelt_scale = ComputePeltScale(cpu, dbase);
    }
    fd.view = MakeSimFreqDomain(this, d);
  }
  sched_view_ = MakeSimSchedView(this);
  policies_.placement->Attach(topo_, domains_);
  idle_devices_.reserve(cpus_.size());
  for (size_t cpu = 0; cpu < cpus_.size(); ++cpu) {
    idle_devices_.push_back(idle_.MakeDevice(static_cast<int>(cpu)));
    policies_.idle->Enable(*idle_devices_.back());
  }
  for (size_t cpu = 0; cpu < cpus_.size(); ++cpu) {
    UpdateRate(static_cast<int>(cpu));
  }
  for (FreqDomainState& fd : fdoms_) policies_.freq->Start(*fd.view);
}

void SimulatorImpl::SetDomainKhz(int domain, int64_t khz) {
  FreqDomainState& d = fdoms_[domain];
  if (khz == d.cur_khz) return;
  for (int cpu : d.cpu_list) {
    Cpu& c = cpus_[cpu];
    if (c.mode == CpuMode::kBusy) {
      freq_.AccountBusyEnd(cpu);
      SettlePhase(cpu);
    } else {
      freq_.AccountEnergy(cpu);
    }
    UpdatePelt(cpu);
  }
  exec_.SetCurKhz(d, khz);
  d.active_power_mw = ActivePowerMw(d.power, *d.spec, khz);
  for (int cpu : d.cpu_list) {
    cpus_[cpu].pelt_scale = ComputePeltScale(cpu, khz);
    UpdateRate(cpu);
  }
  for (int cpu : d.cpu_list) {
    Cpu& c = cpus_[cpu];
    if (c.mode == CpuMode::kBusy) {
      freq_.AccountBusyStart(cpu);
      if (c.curr >= 0 && tasks_[c.curr].in_phase) ReschedulePhaseEnd(cpu);
    }
    if (sink_) sink_->OnFrequency(now_ns_, cpu, khz);
  }
}

void SimulatorImpl::SetTargetKhz(int domain, int64_t khz) {
  FreqDomainState& d = fdoms_[domain];
  const topology::FrequencySpec& f = *d.spec;
  const int64_t eff = freq_.RequestKhz(domain, khz);
  if (eff == d.cur_khz) {
    QueueCancel(d.transition);
    d.transition = EventHandle();
    return;
  }
  if (!queue_.Contains(d.transition)) {
    d.transition =
        QueuePush(SimTime::FromNanoseconds(now_ns_ + f.transition_latency_ns),
                  kBandTimer, kEvFreqDone, domain, -1);
  }
}

void SimulatorImpl::OnFreqDone(int domain) {
  FreqDomainState& d = fdoms_[domain];
  d.transition = EventHandle();
  SetDomainKhz(domain, d.pending_khz);
  return;
}

void SimulatorImpl::SetHwpRequest(int domain, int cpu,
                                  const platform::HwpRequest& req) {
  FreqDomainState& d = fdoms_[domain];
  const topology::FrequencySpec& f = *d.spec;
  switch (platform::core::CheckHwpWrite(f, d.cpus, cpu)) {
    case platform::core::HwpWrite::kOk:
      break;
    case platform::core::HwpWrite::kNoHwp:
      FailCat("frequency governor '", policies_.freq->name(),
              "' wrote an HWP request on ", topo_.name(), ", which has no HWP");
      return;
    case platform::core::HwpWrite::kCpuNotInDomain:
      return;  // ignored, as always
  }
  // The hardware honours new limits at once; the activity-driven part
  // waits for the next evaluation.
  SetDomainKhz(domain, freq_.HwpRequestKhz(domain, cpu, req));
}

platform::CpuUtil SimulatorImpl::UtilOf(int cpu) const {
  const Cpu& c = cpus_[cpu];
  platform::CpuUtil u;
  // arch_scale_cpu_capacity: what schedutil divides by (sugov_get_util,
  // get_next_freq); cpu_util_cfs() caps the CFS utilization at it.
  u.capacity = topo_.capacity(cpu);
  u.util_cfs = cpu_util(cpu);  // cpu_util_cfs(), with UTIL_EST when on
  u.rt_runnable = !c.rt_rq.empty() ||
                  (c.curr >= 0 && tasks_[c.curr].policy == SchedPolicy::kFifo);
  u.util_rt = u.rt_runnable ? u.capacity : 0;
  int64_t umin = 0, umax = 0;
  bool any = false;
  auto add = [&](int task) {
    const Task& t = tasks_[task];
    umin = std::max<int64_t>(umin, t.uclamp_min);
    umax = std::max<int64_t>(umax, t.uclamp_max);
    any = true;
  };
  if (c.nr_uclamped > 0) {
    if (c.curr >= 0 && c.mode == CpuMode::kBusy) add(c.curr);
    for (int q : c.rq) add(q);
    for (int q : c.rt_rq) add(q);
  } else {
    any = c.nr_running > 0;
    umax = 1024;
  }
  if (config_.uclamp) {
    u.uclamp_min = umin;
    u.uclamp_max = any ? umax : 1024;
  }
  return u;
}

platform::CpuCounters SimulatorImpl::CountersOf(int cpu) const {
  SimulatorImpl& self = const_cast<SimulatorImpl&>(*this);
  self.freq_.AccountEnergy(cpu);
  const Cpu& c = cpus_[cpu];
  platform::CpuCounters k;
  k.aperf = static_cast<uint64_t>(c.aperf);
  k.mperf = static_cast<uint64_t>(c.mperf);
  // The reference counter runs at the domain's base frequency, as MPERF
  // does (AccountEnergy).
  k.tsc = static_cast<uint64_t>(
      static_cast<double>(fdoms_[c.domain].spec->base_khz) *
      static_cast<double>(now_ns_) * 1e-6);
  return k;
}

}  // namespace schedsim::sim
