// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "cli/policies_command.h"

#include <variant>

#include "absl/strings/str_cat.h"
#include "cli/flags.h"

namespace schedsim::cli {

namespace {

constexpr platform::PolicyFamily kFamilies[] = {
    platform::PolicyFamily::kCpufreq, platform::PolicyFamily::kCpuidle,
    platform::PolicyFamily::kPlacement};

nlohmann::json ValueJson(const platform::ParamValue& v) {
  if (const bool* b = std::get_if<bool>(&v)) return *b;
  if (const int64_t* i = std::get_if<int64_t>(&v)) return *i;
  if (const double* d = std::get_if<double>(&v)) return *d;
  return std::get<std::string>(v);
}

}  // namespace

nlohmann::json PoliciesJson(const platform::PolicyRegistry& registry) {
  nlohmann::json out = nlohmann::json::object();
  for (platform::PolicyFamily family : kFamilies) {
    nlohmann::json list = nlohmann::json::array();
    for (const platform::PolicyInfo* info : registry.List(family)) {
      nlohmann::json params = nlohmann::json::array();
      for (const platform::ParamSpec& p : info->params) {
        params.push_back({{"name", p.name},
                          {"type", platform::ParamTypeName(p.default_value)},
                          {"default", ValueJson(p.default_value)},
                          {"doc", p.doc}});
      }
      list.push_back({{"name", info->name},
                      {"description", info->description},
                      {"params", std::move(params)}});
    }
    out[platform::FamilyName(family)] = std::move(list);
  }
  return out;
}

std::string PoliciesText(const platform::PolicyRegistry& registry) {
  std::string out;
  for (platform::PolicyFamily family : kFamilies) {
    absl::StrAppend(&out, platform::FamilyName(family), ":\n");
    for (const platform::PolicyInfo* info : registry.List(family)) {
      absl::StrAppend(&out, "  ", info->name, "\n      ", info->description,
                      "\n");
      for (const platform::ParamSpec& p : info->params) {
        absl::StrAppend(&out, "      ", p.name, "=",
                        platform::ParamValueText(p.default_value), " (",
                        platform::ParamTypeName(p.default_value), ") ", p.doc,
                        "\n");
      }
    }
    absl::StrAppend(&out, "\n");
  }
  return out;
}

int PoliciesCommand(const std::vector<std::string>& args, std::ostream& out,
                    std::ostream& err) {
  std::string format = "text";
  CommandLine cl("policies", "Usage: schedsim policies [--format=text|json]\n",
                 "", out, err);
  cl.flags().String("format", &format, "text or json");
  std::vector<std::string> positional;
  if (std::optional<int> done = cl.Parse(args, &positional)) return *done;
  if (auto bad = cl.CheckChoice("format", format, {"text", "json"})) {
    return *bad;
  }
  if (format == "json") {
    out << PoliciesJson(platform::PolicyRegistry::Global()).dump(2) << "\n";
  } else {
    out << PoliciesText(platform::PolicyRegistry::Global());
  }
  return 0;
}

}  // namespace schedsim::cli
