// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "experiments/cli.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "experiments/flags.h"
#include "experiments/machine_source.h"
#include "experiments/topology_report.h"
#include "topology/presets.h"
#include "topology/sched_domains.h"

namespace schedsim::experiments {
namespace {

constexpr int kUsageError = 2;

std::string MainUsage() {
  return absl::StrCat(
      "schedsim: simulate a Linux-like scheduler with CPU frequency and idle "
      "states.\n\n"
      "Usage: schedsim COMMAND [FLAGS]\n\n"
      "Commands:\n"
      "  topology   show a machine: CPUs, caches, NUMA, idle states, "
      "frequency,\n"
      "             scheduling domains\n"
      "  help       this text; `schedsim COMMAND --help` for a command's "
      "flags\n\n"
      "Built-in machines: ",
      absl::StrJoin(topology::PresetNames(), ", "), "\n");
}

int TopologyCommand(const std::vector<std::string>& args, std::ostream& out,
                    std::ostream& err) {
  MachineSource source;
  std::string format = "text";
  int64_t cpu = 0;
  bool help = false;
  FlagSet flags("topology");
  flags.String("machine", &source.machine,
               absl::StrCat("a built-in machine: ",
                            absl::StrJoin(topology::PresetNames(), ", ")));
  flags.String("sysfs", &source.sysfs,
               "a sysfs root holding devices/system/cpu, e.g. /sys");
  flags.String("hwloc", &source.hwloc, "an hwloc topology XML file");
  flags.String("format", &format, "text or json");
  flags.Int("cpu", &cpu, "the CPU whose scheduling domains are shown");
  flags.Bool("help", &help, "show this help");
  std::vector<std::string> positional;
  absl::Status parsed = flags.Parse(args, &positional);
  if (help) {
    out << "Usage: schedsim topology (--machine=NAME | --sysfs=DIR | "
           "--hwloc=FILE) [--format=text|json]\n\n"
        << flags.Usage();
    return 0;
  }
  if (!parsed.ok()) {
    err << "schedsim topology: " << parsed.message() << "\n";
    return kUsageError;
  }
  if (!positional.empty()) {
    err << "schedsim topology: unexpected argument '" << positional[0] << "'\n";
    return kUsageError;
  }
  if (format != "text" && format != "json") {
    err << "schedsim topology: --format must be text or json, got '" << format
        << "'\n";
    return kUsageError;
  }
  absl::StatusOr<topology::Topology> t = LoadMachine(source);
  if (!t.ok()) {
    err << "schedsim topology: " << t.status().message() << "\n";
    return t.status().code() == absl::StatusCode::kInvalidArgument &&
                   !flags.Given("sysfs") && !flags.Given("hwloc") &&
                   !flags.Given("machine")
               ? kUsageError
               : 1;
  }
  if (cpu < 0 || cpu >= t->num_cpus()) {
    err << "schedsim topology: --cpu=" << cpu << " is not a CPU of "
        << t->name() << " (0-" << t->num_cpus() - 1 << ")\n";
    return kUsageError;
  }
  absl::StatusOr<topology::SchedDomains> domains =
      topology::BuildSchedDomains(*t);
  if (!domains.ok()) {
    err << "schedsim topology: " << domains.status().message() << "\n";
    return 1;
  }
  if (format == "json") {
    out << TopologyJson(*t, *domains, static_cast<int>(cpu)).dump(2) << "\n";
  } else {
    out << TopologyText(*t, *domains, static_cast<int>(cpu));
  }
  return 0;
}

}  // namespace

int RunCli(const std::vector<std::string>& args, std::ostream& out,
           std::ostream& err) {
  if (args.empty()) {
    err << MainUsage();
    return kUsageError;
  }
  const std::string& command = args[0];
  std::vector<std::string> rest(args.begin() + 1, args.end());
  if (command == "help" || command == "--help" || command == "-h") {
    out << MainUsage();
    return 0;
  }
  if (command == "topology") return TopologyCommand(rest, out, err);
  err << "schedsim: unknown command '" << command
      << "'; commands: topology, help\n";
  return kUsageError;
}

}  // namespace schedsim::experiments
