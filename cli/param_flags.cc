// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "cli/param_flags.h"

#include <variant>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace schedsim::cli {

std::string KnownPolicyNames(platform::PolicyFamily family) {
  std::vector<std::string> names;
  for (const platform::PolicyInfo* info :
       platform::PolicyRegistry::Global().List(family)) {
    names.push_back(info->name);
  }
  return names.empty() ? "(none linked)" : absl::StrJoin(names, ", ");
}

absl::Status ExtractParamFlags(std::vector<std::string>& args,
                               std::vector<std::string>* params) {
  std::vector<std::string> rest;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") {
      rest.insert(rest.end(), args.begin() + i, args.end());
      break;
    }
    if (a == "--param") {
      if (i + 1 >= args.size() || args[i + 1].rfind("--", 0) == 0) {
        return absl::InvalidArgumentError("--param needs a value KEY=VALUE");
      }
      params->push_back(args[++i]);
    } else if (a.rfind("--param=", 0) == 0) {
      params->push_back(a.substr(8));
    } else {
      rest.push_back(a);
    }
  }
  args = std::move(rest);
  return absl::OkStatus();
}

absl::StatusOr<std::map<std::string, platform::ParamValue>> TypedParamValues(
    const platform::PolicyInfo& info, const std::string& what,
    const std::vector<std::string>& texts) {
  std::map<std::string, platform::ParamValue> out;
  for (const std::string& text : texts) {
    const size_t eq = text.find('=');
    if (eq == std::string::npos || eq == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("--param expects KEY=VALUE, got '", text, "'"));
    }
    const std::string key = text.substr(0, eq);
    const std::string value = text.substr(eq + 1);
    const platform::ParamSpec* spec = nullptr;
    for (const platform::ParamSpec& s : info.params) {
      if (s.name == key) spec = &s;
    }
    platform::ParamValue v = value;
    if (spec != nullptr) {
      const auto bad = [&](const char* type) {
        return absl::InvalidArgumentError(absl::StrCat("--param ", key, " of ",
                                                       what, " expects ", type,
                                                       ", got '", value, "'"));
      };
      if (std::holds_alternative<bool>(spec->default_value)) {
        bool b = false;
        if (!absl::SimpleAtob(value, &b)) return bad("true or false");
        v = b;
      } else if (std::holds_alternative<int64_t>(spec->default_value)) {
        int64_t i = 0;
        if (!absl::SimpleAtoi(value, &i)) return bad("an integer");
        v = i;
      } else if (std::holds_alternative<double>(spec->default_value)) {
        double d = 0;
        if (!absl::SimpleAtod(value, &d)) return bad("a number");
        v = d;
      }
    }
    out[key] = std::move(v);
  }
  return out;
}

}  // namespace schedsim::cli
