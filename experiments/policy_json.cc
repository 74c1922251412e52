// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The policy-choice grammar of scenario and experiment files
// (policy_json.h), and typed parameter values.

#include "experiments/policy_json.h"

#include <cmath>
#include <limits>
#include <utility>
#include <variant>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/status_macros.h"

namespace schedsim::experiments {

using Json = OrderedJson;

const char* TypeWithArticle(const platform::ParamValue& v) {
  switch (v.index()) {
    case 0:
      return "a boolean";
    case 1:
      return "an integer";
    case 2:
      return "a number";
    default:
      return "a string";
  }
}

absl::StatusOr<platform::ParamValue> TypedParamValue(
    const JsonFileReader& r, const Json& j, const std::string& path,
    const platform::ParamSpec& spec, const std::string& owner) {
  const platform::ParamValue& d = spec.default_value;
  auto wrong = [&]() {
    return r.Error(
        path, absl::StrCat("expected ", TypeWithArticle(d), " (", owner,
                           " parameter '", spec.name, "'), got ", ShowJson(j)));
  };
  if (std::holds_alternative<bool>(d)) {
    if (!j.is_boolean()) return wrong();
    return platform::ParamValue(j.get<bool>());
  }
  if (std::holds_alternative<int64_t>(d)) {
    if (j.is_number_unsigned()) {
      if (j.get<uint64_t>() >
          static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        return wrong();
      }
      return platform::ParamValue(static_cast<int64_t>(j.get<uint64_t>()));
    }
    if (j.is_number_integer()) return platform::ParamValue(j.get<int64_t>());
    if (j.is_number_float()) {
      // 1e6 is a float in JSON; accept it when it is a whole number.
      double v = j.get<double>();
      if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) <= 9e15) {
        return platform::ParamValue(static_cast<int64_t>(v));
      }
    }
    return wrong();
  }
  if (std::holds_alternative<double>(d)) {
    if (!j.is_number() || !std::isfinite(j.get<double>())) return wrong();
    return platform::ParamValue(j.get<double>());
  }
  if (!j.is_string()) return wrong();
  return platform::ParamValue(j.get<std::string>());
}

namespace {

// Parameters that left a policy for another place: an old experiment file
// that still sets one gets told where it went, not "unknown parameter".
struct MovedParam {
  const char* owner;  // as ParseParamValues names it: "cpufreq policy 'x'"
  const char* key;
  const char* moved_to;
};
constexpr MovedParam kMovedParams[] = {
    // 59c3ec5: frequency invariance is the kernel's (arch_scale_freq_
    // invariant()), one switch for PELT and every governor.
    {"cpufreq policy 'schedutil'", "frequency_invariant",
     "the experiment's \"config\": {\"frequency_invariance\": true|false} "
     "(the kernel's frequency invariance, for PELT and every governor; "
     "docs/cli-simulate.md)"},
};

}  // namespace

std::string MovedParamNote(absl::string_view owner, absl::string_view key) {
  for (const MovedParam& m : kMovedParams) {
    if (owner == m.owner && key == m.key) return m.moved_to;
  }
  return "";
}

absl::Status ParseParamValues(const JsonFileReader& r, const Json& j,
                              const std::string& path,
                              const std::vector<platform::ParamSpec>& specs,
                              const std::string& owner, PolicyParams* out) {
  SCHEDSIM_RETURN_IF_ERROR(r.ExpectObject(j, path, "parameter values by name"));
  std::vector<std::string> known;
  for (const platform::ParamSpec& s : specs) known.push_back(s.name);
  for (const auto& item : j.items()) {
    const platform::ParamSpec* spec = nullptr;
    for (const platform::ParamSpec& s : specs) {
      if (s.name == item.key()) spec = &s;
    }
    if (spec == nullptr) {
      const std::string moved = MovedParamNote(owner, item.key());
      if (!moved.empty()) {
        return r.Error(path, absl::StrCat("parameter '", item.key(), "' of ",
                                          owner, " moved to ", moved));
      }
      return r.Error(
          path, absl::StrCat("unknown parameter '", item.key(), "'",
                             DidYouMean(item.key(), known), "; ", owner,
                             known.empty()
                                 ? " has no parameters"
                                 : absl::StrCat(" has the parameters ",
                                                absl::StrJoin(known, ", "))));
    }
    SCHEDSIM_ASSIGN_OR_RETURN(
        (*out)[item.key()],
        TypedParamValue(r, item.value(), JsonField(path, item.key()), *spec,
                        owner));
  }
  return absl::OkStatus();
}

absl::StatusOr<PolicySpec> ParsePolicyChoice(const JsonFileReader& r,
                                             const Json& j,
                                             const std::string& path,
                                             platform::PolicyFamily family,
                                             const PolicySpec& base) {
  const std::string kind = platform::FamilyName(family);
  const std::string forms = absl::StrCat(
      "a ", kind, " policy name, or {\"name\": NAME, \"params\": {...}}");
  PolicySpec spec;
  const Json* params = nullptr;
  std::string name_path = path;
  if (j.is_string()) {
    SCHEDSIM_ASSIGN_OR_RETURN(spec.name, r.Name(j, path, forms));
  } else if (j.is_object()) {
    SCHEDSIM_RETURN_IF_ERROR(
        r.CheckKeys(j, path, {"name", "params"}, "a policy choice"));
    spec.name = base.name;
    if (j.contains("name")) {
      name_path = JsonField(path, "name");
      SCHEDSIM_ASSIGN_OR_RETURN(
          spec.name, r.Name(j["name"], name_path,
                            absl::StrCat("a ", kind, " policy name")));
    }
    if (j.contains("params")) params = &j["params"];
  } else {
    return r.Error(path,
                   absl::StrCat("expected ", forms, ", got ", ShowJson(j)));
  }
  // The same policy keeps the base's parameters; another starts afresh.
  if (spec.name == base.name) spec.params = base.params;
  if (spec.name.empty()) {
    if (params != nullptr) {
      return r.Error(path,
                     absl::StrCat("the default ", kind,
                                  " policy depends on the machine; name the "
                                  "policy to give it parameters"));
    }
    return spec;
  }
  const platform::PolicyRegistry& registry = platform::PolicyRegistry::Global();
  const platform::PolicyInfo* info = registry.Find(family, spec.name);
  if (info == nullptr) {
    std::vector<std::string> known;
    for (const platform::PolicyInfo* p : registry.List(family)) {
      known.push_back(p->name);
    }
    return r.Error(name_path,
                   absl::StrCat("unknown ", kind, " policy '", spec.name, "'",
                                DidYouMean(spec.name, known),
                                "; known: ", absl::StrJoin(known, ", ")));
  }
  if (params != nullptr) {
    SCHEDSIM_RETURN_IF_ERROR(ParseParamValues(
        r, *params, JsonField(path, "params"), info->params,
        absl::StrCat(kind, " policy '", spec.name, "'"), &spec.params));
  }
  // The factory checks the values (an EPP name, a range); build one now so
  // that a bad value is reported here, with its path.
  absl::Status made;
  switch (family) {
    case platform::PolicyFamily::kCpufreq:
      made = MakeFreqGovernor(spec.name, spec.params).status();
      break;
    case platform::PolicyFamily::kCpuidle:
      made = MakeIdleGovernor(spec.name, spec.params).status();
      break;
    case platform::PolicyFamily::kPlacement:
      made = MakePlacementPolicy(spec.name, spec.params).status();
      break;
  }
  if (!made.ok()) {
    return r.Error(params != nullptr ? JsonField(path, "params") : path,
                   std::string(made.message()));
  }
  return spec;
}

}  // namespace schedsim::experiments
