// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The policy registry: every cpufreq governor, cpuidle governor and
// placement policy is selectable by name, with documented parameters, from
// the CLI, experiment files and the library. A policy registers itself in
// its own .cc file (the library must be linked with alwayslink = True):
//
//   SCHEDSIM_REGISTER_POLICY(MenuPolicyInfo());  // returns a PolicyInfo
//
// where the registration names the policy, describes it, lists its
// parameters with defaults and gives a factory that builds it from
// validated parameters. Users register their own policies the same way
// from outside the repository.

#ifndef SCHEDSIM_PLATFORM_REGISTRY_H_
#define SCHEDSIM_PLATFORM_REGISTRY_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "platform/cpufreq.h"
#include "platform/cpuidle.h"
#include "platform/placement.h"

namespace schedsim::platform {

enum class PolicyFamily { kCpufreq, kCpuidle, kPlacement };
const char* FamilyName(PolicyFamily family);  // "cpufreq", ...

// A parameter value: bool, integer, floating point or string.
using ParamValue = std::variant<bool, int64_t, double, std::string>;
std::string ParamValueText(const ParamValue& v);
const char* ParamTypeName(const ParamValue& v);  // "bool", "int", ...

struct ParamSpec {
  std::string name;
  ParamValue default_value;
  std::string doc;  // with its unit and source
};

// Validated parameters: every declared name has a value of its type.
class Params {
 public:
  Params() = default;
  bool GetBool(const std::string& name) const;
  int64_t GetInt(const std::string& name) const;
  double GetDouble(const std::string& name) const;
  const std::string& GetString(const std::string& name) const;
  const std::map<std::string, ParamValue>& values() const { return values_; }
  void Set(const std::string& name, ParamValue v) {
    values_[name] = std::move(v);
  }

 private:
  std::map<std::string, ParamValue> values_;
};

template <typename T>
using PolicyFactory =
    std::function<absl::StatusOr<std::unique_ptr<T>>(const Params&)>;

// Whether a cpufreq policy can run with the part's HWP on or off: the
// kernel's intel_pstate runs its HWP algorithm only with HWP enabled and
// its P-state algorithm only with HWP off (intel_pstate=no_hwp), choosing
// at boot (drivers/cpufreq/intel_pstate.c, intel_pstate_init(), v6.1).
enum class HwpUse { kEither, kNeedsHwp, kNeedsNoHwp };

struct PolicyInfo {
  PolicyFamily family = PolicyFamily::kCpufreq;
  std::string name;
  std::string description;       // one paragraph: what kernel code it models
  HwpUse hwp = HwpUse::kEither;  // cpufreq policies only
  std::vector<ParamSpec> params;
  PolicyFactory<FreqGovernor> make_freq;
  PolicyFactory<IdleGovernor> make_idle;
  PolicyFactory<PlacementPolicy> make_placement;
};

class PolicyRegistry {
 public:
  // The process-wide registry.
  static PolicyRegistry& Global();

  // AlreadyExists if the family already has a policy of that name.
  absl::Status Register(PolicyInfo info);

  // All policies of a family, by name.
  std::vector<const PolicyInfo*> List(PolicyFamily family) const;
  const PolicyInfo* Find(PolicyFamily family, absl::string_view name) const;

  // Fills defaults and checks `given` (name -> value) against the declared
  // parameters: an unknown name lists the known ones; a value of the wrong
  // type names the expected type. An int given for a double is accepted.
  absl::StatusOr<Params> ResolveParams(
      const PolicyInfo& info,
      const std::map<std::string, ParamValue>& given) const;

  // Builds a policy by name; NotFound lists the family's policies.
  absl::StatusOr<std::unique_ptr<FreqGovernor>> MakeFreq(
      absl::string_view name,
      const std::map<std::string, ParamValue>& params = {}) const;
  absl::StatusOr<std::unique_ptr<IdleGovernor>> MakeIdle(
      absl::string_view name,
      const std::map<std::string, ParamValue>& params = {}) const;
  absl::StatusOr<std::unique_ptr<PlacementPolicy>> MakePlacement(
      absl::string_view name,
      const std::map<std::string, ParamValue>& params = {}) const;

 private:
  absl::StatusOr<const PolicyInfo*> Lookup(PolicyFamily family,
                                           absl::string_view name) const;
  std::map<std::string, PolicyInfo> by_key_;  // "family/name"
};

// Registers at static-initialisation time; see the file comment.
struct PolicyRegistration {
  explicit PolicyRegistration(PolicyInfo info);
};

#define SCHEDSIM_REGISTRY_CONCAT_INNER_(a, b) a##b
#define SCHEDSIM_REGISTRY_CONCAT_(a, b) SCHEDSIM_REGISTRY_CONCAT_INNER_(a, b)
// `info_expr` is an expression yielding a PolicyInfo.
#define SCHEDSIM_REGISTER_POLICY(info_expr)                                  \
  static ::schedsim::platform::PolicyRegistration SCHEDSIM_REGISTRY_CONCAT_( \
      schedsim_policy_registration_, __LINE__)(info_expr)

}  // namespace schedsim::platform

#endif  // SCHEDSIM_PLATFORM_REGISTRY_H_
