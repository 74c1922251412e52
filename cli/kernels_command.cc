// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "cli/kernels_command.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "cli/flags.h"

namespace schedsim::cli {
namespace {

using Json = nlohmann::ordered_json;

std::string Range(const sim::KernelFeature& f) {
  const std::string since =
      f.since.major == 0 ? "all" : absl::StrCat(f.since.ToString(), "+");
  if (f.until.major == 0) return since;
  return absl::StrCat(f.since.major == 0 ? "" : f.since.ToString(), "..",
                      f.until.ToString(), " (not in ", f.until.ToString(), ")");
}

std::vector<std::string> FeaturesOn(sim::KernelVersion v) {
  std::vector<std::string> on;
  for (const sim::KernelFeature& f : sim::KernelFeatures()) {
    if (f.Has(v)) on.push_back(f.name);
  }
  return on;
}

std::vector<sim::KnownKernel> Versions(const sim::KernelVersion* only) {
  if (only == nullptr) return sim::KnownKernels();
  for (const sim::KnownKernel& k : sim::KnownKernels()) {
    if (k.version == *only) return {k};
  }
  return {sim::KnownKernel{*only, ""}};
}

}  // namespace

Json KernelsJson(const sim::KernelVersion* only) {
  Json j;
  Json versions = Json::array();
  for (const sim::KnownKernel& k : Versions(only)) {
    sim::SimConfig c;
    sim::ApplyKernel(k.version, &c);
    versions.push_back({{"version", k.version.ToString()},
                        {"note", k.note},
                        {"fair_class", c.eevdf ? "eevdf" : "cfs"},
                        {"placement", sim::KernelPlacementPolicy(k.version)},
                        {"features", FeaturesOn(k.version)}});
  }
  j["versions"] = std::move(versions);
  Json features = Json::array();
  for (const sim::KernelFeature& f : sim::KernelFeatures()) {
    features.push_back(
        {{"name", f.name},
         {"sched_feat", f.sched_feat},
         {"since", f.since.major == 0 ? Json() : Json(f.since.ToString())},
         {"until", f.until.major == 0 ? Json() : Json(f.until.ToString())},
         {"since_commit", f.since_commit},
         {"until_commit", f.until_commit},
         {"model", f.model}});
  }
  j["features"] = std::move(features);
  return j;
}

std::string KernelsText(const sim::KernelVersion* only) {
  std::string out =
      "Kernel versions (a \"kernel\" in an experiment, a "
      "variant or a scenario sets these):\n";
  for (const sim::KnownKernel& k : Versions(only)) {
    sim::SimConfig c;
    sim::ApplyKernel(k.version, &c);
    absl::StrAppendFormat(&out, "  %-5s %-5s %-8s %s\n", k.version.ToString(),
                          c.eevdf ? "eevdf" : "cfs",
                          sim::KernelPlacementPolicy(k.version), k.note);
    absl::StrAppend(
        &out, "        on: ", absl::StrJoin(FeaturesOn(k.version), ", "), "\n");
  }
  absl::StrAppend(&out,
                  "\nVersion-dependent features (config switch, sched_feat, "
                  "versions, commits, what the model does):\n");
  for (const sim::KernelFeature& f : sim::KernelFeatures()) {
    absl::StrAppendFormat(&out, "  %-28s %s\n", f.name, Range(f));
    if (f.sched_feat[0] != '\0') {
      absl::StrAppend(&out, "      sched_feat: ", f.sched_feat, "\n");
    }
    absl::StrAppend(&out, "      since: ", f.since_commit, "\n");
    if (f.until_commit[0] != '\0') {
      absl::StrAppend(&out, "      until: ", f.until_commit, "\n");
    }
    absl::StrAppend(&out, "      model: ", f.model, "\n");
  }
  return out;
}

int KernelsCommand(const std::vector<std::string>& args, std::ostream& out,
                   std::ostream& err) {
  std::string format = "text";
  std::string kernel;
  CommandLine cl("kernels",
                 "Usage: schedsim kernels [--format=text|json] [--kernel=V]\n",
                 "", out, err);
  cl.flags().String("format", &format, "text or json");
  cl.flags().String("kernel", &kernel,
                    "show this version alone (MAJOR.MINOR, e.g. 6.12)");
  std::vector<std::string> positional;
  if (std::optional<int> done = cl.Parse(args, &positional)) return *done;
  sim::KernelVersion version;
  const sim::KernelVersion* only = nullptr;
  if (!kernel.empty()) {
    absl::StatusOr<sim::KernelVersion> v = sim::ParseKernelVersion(kernel);
    if (!v.ok()) {
      return cl.UsageError(absl::StrCat("--kernel: ", v.status().message()));
    }
    version = *v;
    only = &version;
  }
  if (auto bad = cl.CheckChoice("format", format, {"text", "json"})) {
    return *bad;
  }
  if (format == "json") {
    out << KernelsJson(only).dump(2) << "\n";
  } else {
    out << KernelsText(only);
  }
  return 0;
}

}  // namespace schedsim::cli
