// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "experiments/builtin_registry.h"

#include <functional>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "sim/builtin_policies.h"

namespace schedsim::experiments {
namespace {

// One kind of policy: its names and factories, in listing order. Adding a
// policy is one entry.
template <typename T>
using Entries =
    std::vector<std::pair<std::string, std::function<std::unique_ptr<T>()>>>;

const Entries<platform::FreqGovernor>& FreqEntries() {
  static const auto* entries = new Entries<platform::FreqGovernor>{
      {"performance",
       [] { return std::make_unique<sim::PerformanceGovernor>(); }},
  };
  return *entries;
}

const Entries<platform::IdleGovernor>& IdleEntries() {
  static const auto* entries = new Entries<platform::IdleGovernor>{
      {"fit", [] { return std::make_unique<sim::FitIdleGovernor>(); }},
  };
  return *entries;
}

const Entries<platform::PlacementPolicy>& PlacementEntries() {
  static const auto* entries = new Entries<platform::PlacementPolicy>{
      {"prev", [] { return std::make_unique<sim::PrevTargetPlacement>(); }},
  };
  return *entries;
}

template <typename T>
std::vector<std::string> NamesOf(const Entries<T>& entries) {
  std::vector<std::string> names;
  for (const auto& e : entries) names.push_back(e.first);
  return names;
}

template <typename T>
absl::StatusOr<std::unique_ptr<T>> Make(const Entries<T>& entries,
                                        const char* kind,
                                        const std::string& name) {
  for (const auto& e : entries) {
    if (e.first == name) return e.second();
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown ", kind, " '", name,
                   "'; known: ", absl::StrJoin(NamesOf(entries), ", ")));
}

}  // namespace

const std::vector<std::string>& FreqGovernorNames() {
  static const auto* names =
      new std::vector<std::string>(NamesOf(FreqEntries()));
  return *names;
}

const std::vector<std::string>& IdleGovernorNames() {
  static const auto* names =
      new std::vector<std::string>(NamesOf(IdleEntries()));
  return *names;
}

const std::vector<std::string>& PlacementPolicyNames() {
  static const auto* names =
      new std::vector<std::string>(NamesOf(PlacementEntries()));
  return *names;
}

absl::StatusOr<std::unique_ptr<platform::FreqGovernor>> MakeFreqGovernor(
    const std::string& name) {
  return Make(FreqEntries(), "cpufreq governor", name);
}

absl::StatusOr<std::unique_ptr<platform::IdleGovernor>> MakeIdleGovernor(
    const std::string& name) {
  return Make(IdleEntries(), "cpuidle governor", name);
}

absl::StatusOr<std::unique_ptr<platform::PlacementPolicy>> MakePlacementPolicy(
    const std::string& name) {
  return Make(PlacementEntries(), "placement policy", name);
}

}  // namespace schedsim::experiments
