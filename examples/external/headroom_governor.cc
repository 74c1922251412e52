// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "headroom_governor.h"

#include <algorithm>

namespace example {

void HeadroomGovernor::Start(schedsim::FreqDomain& domain) {
  if (domain.id() >= static_cast<int>(last_update_ns_.size())) {
    last_update_ns_.resize(domain.id() + 1, -1);
  }
  last_update_ns_[domain.id()] = -1;
}

int64_t HeadroomGovernor::TargetKhz(const schedsim::FreqDomain& domain,
                                    int64_t util, int64_t capacity) const {
  const int64_t max_khz = domain.spec().max_turbo_khz;
  return max_khz * util * (100 + headroom_pct_) / 100 / capacity;
}

void HeadroomGovernor::UpdateUtil(schedsim::FreqDomain& domain, int cpu,
                                  uint32_t flags) {
  int64_t& last = last_update_ns_[domain.id()];
  const int64_t now = domain.now_ns();
  if (last >= 0 && now - last < rate_limit_ns_) return;
  last = now;

  // The busiest CPU of the domain decides (as schedutil's shared policy).
  int64_t util = 0;
  int64_t capacity = schedsim::kCapacityScale;
  bool rt = false;
  const schedsim::CpuSet& cpus = domain.cpus();
  for (int c = cpus.First(); c >= 0; c = cpus.Next(c)) {
    const schedsim::CpuUtil u = domain.util(c);
    rt = rt || u.rt_runnable;
    capacity = u.capacity;
    util = std::max(util, std::min(u.util_cfs + u.util_rt, u.capacity));
  }
  const int64_t khz =
      rt ? domain.policy_max_khz()
         : std::clamp(TargetKhz(domain, util, capacity),
                      domain.policy_min_khz(), domain.policy_max_khz());
  if (khz != domain.requested_khz()) domain.SetTargetKhz(khz);
}

}  // namespace example
