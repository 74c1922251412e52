// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "platform/registry.h"

#include <cstdio>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace schedsim::platform {

const char* FamilyName(PolicyFamily family) {
  switch (family) {
    case PolicyFamily::kCpufreq:
      return "cpufreq";
    case PolicyFamily::kCpuidle:
      return "cpuidle";
    case PolicyFamily::kPlacement:
      return "placement";
  }
  return "?";
}

std::string ParamValueText(const ParamValue& v) {
  if (const bool* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
  if (const int64_t* i = std::get_if<int64_t>(&v)) return absl::StrCat(*i);
  if (const double* d = std::get_if<double>(&v)) return absl::StrCat(*d);
  return std::get<std::string>(v);
}

const char* ParamTypeName(const ParamValue& v) {
  switch (v.index()) {
    case 0:
      return "bool";
    case 1:
      return "int";
    case 2:
      return "double";
    default:
      return "string";
  }
}

// Getters: the registry validated every value, so a miss is a bug in the
// policy (asking for a parameter it did not declare).
namespace {
[[noreturn]] void MissingParam(const std::string& name, const char* type) {
  std::fprintf(stderr,
               "schedsim: policy asked for undeclared %s parameter '%s'\n",
               type, name.c_str());
  std::abort();
}
}  // namespace

bool Params::GetBool(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end() || !std::holds_alternative<bool>(it->second)) {
    MissingParam(name, "bool");
  }
  return std::get<bool>(it->second);
}
int64_t Params::GetInt(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end() || !std::holds_alternative<int64_t>(it->second)) {
    MissingParam(name, "int");
  }
  return std::get<int64_t>(it->second);
}
double Params::GetDouble(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end() || !std::holds_alternative<double>(it->second)) {
    MissingParam(name, "double");
  }
  return std::get<double>(it->second);
}
const std::string& Params::GetString(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end() || !std::holds_alternative<std::string>(it->second)) {
    MissingParam(name, "string");
  }
  return std::get<std::string>(it->second);
}

PolicyRegistry& PolicyRegistry::Global() {
  static PolicyRegistry* registry = new PolicyRegistry();
  return *registry;
}

absl::Status PolicyRegistry::Register(PolicyInfo info) {
  std::string key = absl::StrCat(FamilyName(info.family), "/", info.name);
  bool has_factory =
      info.family == PolicyFamily::kCpufreq   ? bool(info.make_freq)
      : info.family == PolicyFamily::kCpuidle ? bool(info.make_idle)
                                              : bool(info.make_placement);
  if (!has_factory) {
    return absl::InvalidArgumentError(
        absl::StrCat("policy ", key, " registered without a factory"));
  }
  if (by_key_.count(key)) {
    return absl::AlreadyExistsError(
        absl::StrCat("policy ", key, " is already registered"));
  }
  by_key_.emplace(key, std::move(info));
  return absl::OkStatus();
}

std::vector<const PolicyInfo*> PolicyRegistry::List(PolicyFamily family) const {
  std::vector<const PolicyInfo*> out;
  for (const auto& [key, info] : by_key_) {
    if (info.family == family) out.push_back(&info);
  }
  return out;
}

const PolicyInfo* PolicyRegistry::Find(PolicyFamily family,
                                       absl::string_view name) const {
  auto it = by_key_.find(absl::StrCat(FamilyName(family), "/", name));
  return it == by_key_.end() ? nullptr : &it->second;
}

absl::StatusOr<const PolicyInfo*> PolicyRegistry::Lookup(
    PolicyFamily family, absl::string_view name) const {
  const PolicyInfo* info = Find(family, name);
  if (info != nullptr) return info;
  std::vector<std::string> names;
  for (const PolicyInfo* p : List(family)) names.push_back(p->name);
  return absl::NotFoundError(
      absl::StrCat("unknown ", FamilyName(family), " policy '", name,
                   "'; known: ", absl::StrJoin(names, ", ")));
}

absl::StatusOr<Params> PolicyRegistry::ResolveParams(
    const PolicyInfo& info,
    const std::map<std::string, ParamValue>& given) const {
  Params out;
  for (const ParamSpec& spec : info.params) {
    out.Set(spec.name, spec.default_value);
  }
  for (const auto& [name, value] : given) {
    const ParamSpec* spec = nullptr;
    for (const ParamSpec& s : info.params) {
      if (s.name == name) spec = &s;
    }
    if (spec == nullptr) {
      std::vector<std::string> known;
      for (const ParamSpec& s : info.params) known.push_back(s.name);
      return absl::InvalidArgumentError(
          absl::StrCat(FamilyName(info.family), " policy '", info.name,
                       "' has no parameter '", name, "'; its parameters: ",
                       known.empty() ? "(none)" : absl::StrJoin(known, ", ")));
    }
    ParamValue v = value;
    if (std::holds_alternative<double>(spec->default_value) &&
        std::holds_alternative<int64_t>(v)) {
      v = static_cast<double>(std::get<int64_t>(v));
    }
    if (v.index() != spec->default_value.index()) {
      return absl::InvalidArgumentError(absl::StrCat(
          FamilyName(info.family), " policy '", info.name, "' parameter '",
          name, "' expects type ", ParamTypeName(spec->default_value),
          ", got type ", ParamTypeName(v), " (", ParamValueText(v), ")"));
    }
    out.Set(name, std::move(v));
  }
  return out;
}

absl::StatusOr<std::unique_ptr<FreqGovernor>> PolicyRegistry::MakeFreq(
    absl::string_view name,
    const std::map<std::string, ParamValue>& params) const {
  absl::StatusOr<const PolicyInfo*> info = Lookup(PolicyFamily::kCpufreq, name);
  if (!info.ok()) return info.status();
  absl::StatusOr<Params> p = ResolveParams(**info, params);
  if (!p.ok()) return p.status();
  return (*info)->make_freq(*p);
}

absl::StatusOr<std::unique_ptr<IdleGovernor>> PolicyRegistry::MakeIdle(
    absl::string_view name,
    const std::map<std::string, ParamValue>& params) const {
  absl::StatusOr<const PolicyInfo*> info = Lookup(PolicyFamily::kCpuidle, name);
  if (!info.ok()) return info.status();
  absl::StatusOr<Params> p = ResolveParams(**info, params);
  if (!p.ok()) return p.status();
  return (*info)->make_idle(*p);
}

absl::StatusOr<std::unique_ptr<PlacementPolicy>> PolicyRegistry::MakePlacement(
    absl::string_view name,
    const std::map<std::string, ParamValue>& params) const {
  absl::StatusOr<const PolicyInfo*> info =
      Lookup(PolicyFamily::kPlacement, name);
  if (!info.ok()) return info.status();
  absl::StatusOr<Params> p = ResolveParams(**info, params);
  if (!p.ok()) return p.status();
  return (*info)->make_placement(*p);
}

PolicyRegistration::PolicyRegistration(PolicyInfo info) {
  absl::Status s = PolicyRegistry::Global().Register(std::move(info));
  if (!s.ok()) {
    std::fprintf(stderr, "schedsim: %s\n", std::string(s.message()).c_str());
    std::abort();
  }
}

}  // namespace schedsim::platform
