// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// What every registered placement policy keeps: registration with its
// documented parameters, the allowed mask on random states, and no probe
// outside target's LLC but the waking CPU's own runqueue.

#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "governors/placement/test_util.h"
#include "gtest/gtest.h"
#include "platform/registry.h"
#include "platform/testing/fake_sched.h"

namespace schedsim::governors {
namespace {

using platform::ParamValue;
using platform::PlacementPolicy;
using platform::PolicyFamily;
using platform::PolicyRegistry;
using platform::WakeupRequest;
using platform::testing::FakeSchedView;
using topology::CpuSet;

struct Variant {
  std::string name;
  std::map<std::string, ParamValue> params;
};

std::vector<Variant> Variants() {
  return {
      {"prev", {}},
      {"sis_util", {}},
      {"sis_prop", {}},
      {"sis_abel_wu", {}},
      {"sis_abel_wu", {{"sis_core", false}, {"scan_failure_handling", false}}},
      {"sis_abel_wu",
       {{"skip_core_update_if_pending", false},
        {"ignore_sis_util_with_idle_core", false},
        {"sis_core", false},
        {"scan_failure_handling", false}}},
  };
}

TEST(PlacementRegistryTest, EveryVariantRegisteredWithDocumentedParams) {
  const PolicyRegistry& reg = PolicyRegistry::Global();
  for (const char* name : {"prev", "sis_util", "sis_prop", "sis_abel_wu"}) {
    const platform::PolicyInfo* info = reg.Find(PolicyFamily::kPlacement, name);
    ASSERT_NE(info, nullptr) << name;
    EXPECT_FALSE(info->description.empty()) << name;
    for (const platform::ParamSpec& p : info->params) {
      EXPECT_FALSE(p.doc.empty()) << name << "." << p.name;
    }
    absl::StatusOr<std::unique_ptr<PlacementPolicy>> policy =
        reg.MakePlacement(name);
    ASSERT_TRUE(policy.ok()) << policy.status();
    EXPECT_EQ((*policy)->name(), name);
  }
  const platform::PolicyInfo* wu =
      reg.Find(PolicyFamily::kPlacement, "sis_abel_wu");
  std::vector<std::string> names;
  for (const platform::ParamSpec& p : wu->params) {
    names.push_back(p.name);
    EXPECT_EQ(std::get<bool>(p.default_value), true) << p.name;
  }
  EXPECT_EQ(names,
            std::vector<std::string>({"skip_core_update_if_pending",
                                      "ignore_sis_util_with_idle_core",
                                      "sis_core", "scan_failure_handling"}));
}

TEST(PlacementRegistryTest, ScanFailureHandlingNeedsSisCore) {
  absl::StatusOr<std::unique_ptr<PlacementPolicy>> policy =
      PolicyRegistry::Global().MakePlacement("sis_abel_wu",
                                             {{"sis_core", false}});
  EXPECT_EQ(policy.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(policy.status().message().find("sis_core"), std::string::npos);
}

TEST(PlacementPolicyTest, AnswerAlwaysAllowedOnRandomStates) {
  for (const char* preset : {"zen3-2s-nps1", "skylake-e3-1240v5"}) {
    for (const Variant& variant : Variants()) {
      absl::StatusOr<std::unique_ptr<PlacementPolicy>> made =
          PolicyRegistry::Global().MakePlacement(variant.name, variant.params);
      ASSERT_TRUE(made.ok()) << made.status();
      PlacementPolicy& policy = **made;
      FakeSchedView v = FakeSchedView::ForPreset(preset);
      policy.Attach(v.topology(), v.domains());
      std::mt19937_64 rng(2026);
      const int n = v.topology().num_cpus();
      for (int round = 0; round < 3000; ++round) {
        testing::RandomizeState(v, rng, 10 + (round % 10) * 10);
        // Some CPUs enter idle, feeding the idle-core hint and masks.
        for (int k = 0; k < 4; ++k) {
          const int cpu = std::uniform_int_distribution<int>(0, n - 1)(rng);
          v.SetIdle(cpu);
          policy.OnCpuIdle(v, cpu);
        }
        WakeupRequest r = testing::RandomRequest(v, rng);
        CpuSet allowed = testing::RandomAllowed(n, rng, round % 2 ? 10 : 60);
        r.allowed = &allowed;
        v.ClearProbes();
        const int cpu = policy.SelectIdleSibling(v, r);
        ASSERT_GE(cpu, 0) << variant.name << " round " << round;
        ASSERT_LT(cpu, n);
        ASSERT_TRUE(allowed.Test(cpu))
            << variant.name << " on " << preset << " round " << round
            << " chose " << cpu << " allowed " << allowed.ToList();
        // Only target's LLC and the waking CPU's own runqueue are read.
        const CpuSet& llc = v.topology().llc_span(r.target);
        for (int probed : v.probes()) {
          EXPECT_TRUE(llc.Test(probed) || probed == r.this_cpu)
              << variant.name << " probed " << probed << " for target "
              << r.target;
        }
        if (allowed.Test(r.target)) {
          // Target, or an allowed CPU found idle enough.
          EXPECT_TRUE(cpu == r.target || v.available_idle(cpu) ||
                      v.sched_idle(cpu) ||
                      (r.waker_is_per_cpu_kthread && cpu == r.prev_cpu))
              << variant.name << " round " << round;
        }
      }
    }
  }
}

}  // namespace
}  // namespace schedsim::governors
