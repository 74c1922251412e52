// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "cli/config_command.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "cli/flags.h"
#include "nlohmann/json.hpp"
#include "sim/kernels.h"
#include "sim/params.h"

namespace schedsim::cli {
namespace {

using Json = nlohmann::ordered_json;

std::string Range(const sim::ConfigParam& p) {
  if (std::holds_alternative<bool sim::SimConfig::*>(p.field)) {
    return "true|false";
  }
  return absl::StrCat(p.min, "..", p.max);
}

Json Value(const sim::ConfigParam& p, const sim::SimConfig& c) {
  if (auto* f = std::get_if<bool sim::SimConfig::*>(&p.field)) {
    return c.*(*f);
  }
  if (auto* f = std::get_if<int sim::SimConfig::*>(&p.field)) return c.*(*f);
  if (auto* f = std::get_if<int64_t sim::SimConfig::*>(&p.field)) {
    return c.*(*f);
  }
  return c.*std::get<double sim::SimConfig::*>(p.field);
}

}  // namespace

int ConfigCommand(const std::vector<std::string>& args, std::ostream& out,
                  std::ostream& err) {
  std::string format = "text";
  std::string kernel;
  CommandLine cl("config",
                 "Usage: schedsim config [--kernel=V] [--format=text|json]\n",
                 "", out, err);
  cl.flags().String("format", &format, "text or json");
  cl.flags().String("kernel", &kernel,
                    "show the values this kernel sets (MAJOR.MINOR, e.g. "
                    "6.12)");
  std::vector<std::string> positional;
  if (std::optional<int> done = cl.Parse(args, &positional)) return *done;
  if (auto bad = cl.CheckChoice("format", format, {"text", "json"})) {
    return *bad;
  }
  const sim::SimConfig defaults;
  sim::SimConfig values;
  if (!kernel.empty()) {
    absl::StatusOr<sim::KernelVersion> v = sim::ParseKernelVersion(kernel);
    if (!v.ok()) {
      return cl.UsageError(absl::StrCat("--kernel: ", v.status().message()));
    }
    kernel = v->ToString();
    sim::ApplyKernel(*v, &values);
  }
  if (format == "json") {
    Json j;
    j["kernel"] = kernel.empty() ? Json() : Json(kernel);
    Json params = Json::array();
    for (const sim::ConfigParam& p : sim::ConfigParams()) {
      Json one = {{"name", p.name},
                  {"group", p.group},
                  {"unit", p.unit},
                  {"default", Value(p, defaults)}};
      if (!kernel.empty()) {
        one["value"] = Value(p, values);
        one["set_by_kernel"] = Value(p, values) != Value(p, defaults);
      }
      if (std::holds_alternative<bool sim::SimConfig::*>(p.field)) {
        one["min"] = nullptr;
        one["max"] = nullptr;
      } else {
        one["min"] = p.min;
        one["max"] = p.max;
      }
      one["status"] = p.status;
      one["source"] = p.source;
      one["doc"] = p.doc;
      params.push_back(std::move(one));
    }
    j["params"] = std::move(params);
    out << j.dump(2) << "\n";
    return 0;
  }
  out << "Model parameters (the \"config\" keys; docs/cli-simulate.md):"
      << (kernel.empty() ? ""
                         : absl::StrCat(" as kernel ", kernel,
                                        " sets them (* = differs from the "
                                        "default)"))
      << "\n";
  std::string group;
  for (const sim::ConfigParam& p : sim::ConfigParams()) {
    if (p.group != group) {
      group = p.group;
      out << "\n[" << group << "]\n";
    }
    const std::string def = sim::ConfigValueText(p, defaults);
    std::string value = def;
    std::string mark = " ";
    if (!kernel.empty()) {
      value = sim::ConfigValueText(p, values);
      if (value != def) mark = "*";
    }
    out << absl::StrFormat("%s %-28s %-14s %-6s %-22s %s\n", mark, p.name,
                           value, p.unit, Range(p), p.status)
        << "      " << p.doc << " (" << p.source << ")\n";
  }
  return 0;
}

}  // namespace schedsim::cli
