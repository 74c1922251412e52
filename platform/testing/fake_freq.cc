// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "platform/testing/fake_freq.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "platform/core/answer_checks.h"
#include "platform/drivers/cpufreq_driver.h"
#include "topology/presets.h"

namespace schedsim::platform::testing {

FakeFreqDomain::FakeFreqDomain(topology::FrequencySpec spec,
                               topology::CpuSet cpus, int id,
                               int64_t tick_period_ns)
    : spec_(std::move(spec)),
      cpus_(std::move(cpus)),
      id_(id),
      tick_period_ns_(tick_period_ns),
      policy_min_khz_(spec_.min_khz),
      policy_max_khz_(spec_.max_turbo_khz),
      current_khz_(spec_.base_khz),
      requested_khz_(spec_.base_khz) {
  int n = cpus_.width();
  util_.resize(n);
  busy_.assign(n, 0.0);
  counters_.resize(n);
  hwp_.resize(n);
}

FakeFreqDomain FakeFreqDomain::ForPreset(const std::string& machine, int core) {
  absl::StatusOr<topology::Topology> t = topology::MakePreset(machine);
  if (!t.ok() || core < 0 || core >= t->num_cores()) {
    std::fprintf(stderr, "FakeFreqDomain: no core %d on '%s'\n", core,
                 machine.c_str());
    std::abort();
  }
  const int cpu = t->cores()[core].First();
  const int domain = t->frequency_domain_of(cpu);
  if (domain < 0) return FakeFreqDomain(t->frequency(), t->cores()[core], core);
  // A machine with frequency domains of its own (an Arm cluster): the
  // domain holding the core, its spec, and each CPU's capacity.
  FakeFreqDomain d(t->frequency_of(cpu), t->frequency_domains()[domain].cpus,
                   domain);
  for (int c = d.cpus_.First(); c >= 0; c = d.cpus_.Next(c)) {
    d.util_[c].capacity = t->capacity(c);
  }
  return d;
}

void FakeFreqDomain::Advance(int64_t ns) {
  now_ns_ += ns;
  for (int cpu = cpus_.First(); cpu >= 0; cpu = cpus_.Next(cpu)) {
    CpuCounters& c = counters_[cpu];
    double base_cycles = static_cast<double>(spec_.base_khz) * 1e-6 * ns;
    double busy = std::clamp(busy_[cpu], 0.0, 1.0);
    c.tsc += static_cast<uint64_t>(base_cycles);
    c.mperf += static_cast<uint64_t>(base_cycles * busy);
    c.aperf += static_cast<uint64_t>(static_cast<double>(current_khz_) * 1e-6 *
                                     ns * busy);
  }
}

void FakeFreqDomain::SetTargetKhz(int64_t khz) {
  khz = drivers::ClampToPolicy(*this, khz);
  requested_khz_ = khz;
  if (!hold_current_) current_khz_ = khz;
  Action a;
  a.time_ns = now_ns_;
  a.khz = khz;
  actions_.push_back(a);
}

void FakeFreqDomain::SetHwpRequest(int cpu, const HwpRequest& request) {
  switch (core::CheckHwpWrite(spec_, cpus_, cpu)) {
    case core::HwpWrite::kOk:
      break;
    case core::HwpWrite::kNoHwp:
      std::fprintf(stderr,
                   "FakeFreqDomain: HWP request on a part without "
                   "HWP\n");
      std::abort();
    case core::HwpWrite::kCpuNotInDomain:
      std::fprintf(stderr,
                   "FakeFreqDomain: HWP request for CPU %d, not in "
                   "the domain\n",
                   cpu);
      std::abort();
  }
  hwp_[cpu] = request;
  int perf = request.desired_perf > 0 ? request.desired_perf : request.min_perf;
  if (!hold_current_) current_khz_ = perf * spec_.khz_per_perf_unit;
  Action a;
  a.time_ns = now_ns_;
  a.hwp = true;
  a.cpu = cpu;
  a.request = request;
  actions_.push_back(a);
}

}  // namespace schedsim::platform::testing
